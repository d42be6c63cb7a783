# ruff: noqa: F821  (freeze and module are given by MicroPython's manifest reader)
# The frozen modules of the release firmware (this board definition): the
# rp2 port's own ($(PORT_DIR)/modules: _boot.py, which mounts the
# filesystem, and rp2.py) and firmware/pico/romboot.py as main.py, which starts
# the game from the ROMFS partition. The game is not frozen: it is the ROMFS
# image (tools/deploy/romfs.py). The stock RPI_PICO board's other frozen
# packages (asyncio, onewire, ds18x20, dht, neopixel), which the game does
# not use, are left out: 11 KB more flash for the game's partition.
# MicroPython runs this file with its folder as the working directory.
import os
import shutil

_root = os.path.abspath(os.path.join(os.getcwd(), "..", "..", ".."))
_dir = os.path.join(_root, "build", "romboot")
os.makedirs(_dir, exist_ok=True)
_main = os.path.join(_dir, "main.py")
_src = os.path.join(_root, "firmware", "pico", "romboot.py")
with open(_src, "rb") as f:
    _text = f.read()
try:
    with open(_main, "rb") as f:
        _same = f.read() == _text
except OSError:
    _same = False
if not _same:                    # unchanged: left alone, so nothing is rebuilt
    shutil.copyfile(_src, _main)

freeze("$(PORT_DIR)/modules")
module("main.py", base_path=_dir)
