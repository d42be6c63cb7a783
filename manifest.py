# ruff: noqa: F821  (include, package and module are given by MicroPython's manifest reader)
# MicroPython manifest for `make uf2`: the RPI_PICO board's own frozen
# modules, then the game (engine/ and firmware/ as packages, and
# firmware/main.py as the top-level main.py that MicroPython runs at boot).
# Relative paths are resolved against this file's folder, which is also
# the working directory while this runs. A development version (X.Y.Z-dev)
# also freezes engine/build_commit.py, naming the commit it was built from
# (tools/deploy/buildinfo.py); a release's plain version does not.
import os
import sys

include("$(PORT_DIR)/boards/manifest.py")
package("engine")
package("firmware")
module("main.py", base_path="firmware")

sys.path.insert(0, os.getcwd())
from tools.deploy import buildinfo  # noqa: E402

_commit_dir = buildinfo.write_module(os.path.join(os.getcwd(), "build", "commit"))
if _commit_dir:
    module("engine/build_commit.py", base_path=_commit_dir)
