"""How long `make flash` takes over the emulated Pico's USB serial port.

    .venv/bin/python -m tools.pico.flash_time [--uf2 build/gin-rummy-pico.uf2]

A board with the release firmware (the firmware part of --uf2, `make uf2`)
and game A in its ROMFS partition runs the game at its title; `make flash`
(tools/deploy/flash.py, mpremote over tools/pico/serial_bridge.py) then
writes, each onto the running game: game B (one line more in the image's
last file: the first block, its folder's and the file's change) and game
C (one line more in the image's first file: every block moves). Printed
for each: the blocks written and the host's time from the command's start
to its end (the new game started, its first console lines read). That
time is mostly the emulator's: rp2040js runs the
board several times slower than a real Pico on this machine, and the
images are sent as the raw REPL's Python text (deflated, base64), 4 KB a
command, as mpremote itself sends files. The emulator does not stall the
core for a flash erase (45 ms a block on the chip), so a real board adds
about that much per block written.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from tools.deploy import romfs
from tools.pico import harness as h
from tools.pico import romfs_cuts as rc
from tools.pico.serial_bridge import SerialBridge

FIRST = "\n# a third game for the deploy timings (tools/pico/flash_time.py)\nDEPLOYED = 'C'\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uf2", default=os.path.join(h.ROOT, "build", "gin-rummy-pico.uf2"))
    ap.add_argument("--bootrom", default=h.find("PICO_BOOTROM")[0])
    a = ap.parse_args(argv)
    if not a.bootrom or not os.path.isfile(a.uf2):
        print("needs the boot ROM and %s (make uf2): %s" % (a.uf2, h.Kit.find()[1] or ""))
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        a_img, b_img = rc.two_games(tmp)
        c_tree = rc.tree_copy(os.path.join(tmp, "c"))
        with open(os.path.join(c_tree, "engine", "__init__.py"), "a", encoding="utf-8") as f:
            f.write(FIRST)
        paths = {}
        for name, image in (("B", b_img), ("C", romfs.build_image(c_tree))):
            paths[name] = os.path.join(tmp, name + ".romfs")
            with open(paths[name], "wb") as f:
                f.write(image)
        uf2 = rc.firmware_uf2(a.uf2, tmp, a_img)
        print("make flash onto the emulated Pico running the game (image A: %d bytes, %d "
              "blocks), over its USB serial (a localhost socket):"
              % (len(a_img), (len(a_img) + romfs.BLOCK - 1) // romfs.BLOCK))
        with h.Pico(uf2, a.bootrom, None) as p, SerialBridge(p) as port:
            p.run_until_text("Game running", 30000)
            for name, what in (("B", "a change to the image's last file"),
                               ("C", "a change to its first file")):
                t0 = time.monotonic()
                r = subprocess.run([sys.executable, "-m", "tools.deploy.flash", port.url,
                                    "--image", paths[name]], capture_output=True, text=True,
                                   cwd=h.ROOT, timeout=3600)
                host = time.monotonic() - t0
                m = re.search(r"wrote (\d+) of (\d+) blocks", r.stdout)
                if r.returncode or not m:
                    print(r.stdout + r.stderr)
                    return 1
                print("  %s (game %s): %s of %s blocks written in %.1f s"
                      % (what, name, m.group(1), m.group(2), host))
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
