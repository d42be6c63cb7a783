# ruff: noqa: F821  (include, package and module are given by MicroPython's manifest reader)
# MicroPython manifest for `make uf2`: the RPI_PICO board's own frozen
# modules, then the game (engine/ and firmware/ as packages, and
# firmware/main.py as the top-level main.py that MicroPython runs at boot).
# Relative paths are resolved against this file's folder.
include("$(PORT_DIR)/boards/manifest.py")
package("engine")
package("firmware")
module("main.py", base_path="firmware")
