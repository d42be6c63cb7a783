# ruff: noqa: F821  (include, package and module are given by MicroPython's manifest reader)
# MicroPython manifest for `make uf2`: the RPI_PICO board's own frozen
# modules, then the game (engine/ and firmware/ as packages, and
# firmware/main.py as the top-level main.py that MicroPython runs at boot).
# Relative paths are resolved against this file's folder, which is also
# the working directory while this runs. A development version (X.Y.Z-dev)
# also freezes engine/build_commit.py, naming the commit it was built from
# (tools/deploy/buildinfo.py); a release's plain version does not. The
# record checker the game never imports (engine/verify.py, in
# tools/deploy/deploy.py's HOST_ONLY) stays out, as it stays out of the .mpy
# bundle: it would only take flash.
import os
import sys

sys.path.insert(0, os.getcwd())
from tools.deploy import buildinfo  # noqa: E402
from tools.deploy.deploy import package_files  # noqa: E402

include("$(PORT_DIR)/boards/manifest.py")
package("engine", files=package_files("engine"))
package("firmware", files=package_files("firmware"))
module("main.py", base_path="firmware")

_commit_dir = buildinfo.write_module(os.path.join(os.getcwd(), "build", "commit"))
if _commit_dir:
    module("engine/build_commit.py", base_path=_commit_dir)
