"""Command-line plumbing shared by the emulated-Pico tools: which firmware
and boot ROM, which tree's engine/ and firmware/, and a board booted to an
idle REPL with the project's modules on it.

    --firmware F.uf2   MicroPython for RPI_PICO (default $PICO_FIRMWARE, or
                       the one found beside the checkout, in
                       ~/.cache/gin-rummy-pico/ or build/pico-kit/)
    --bootrom FILE     the RP2040 boot ROM, rp2040js demo/bootrom.ts or a
                       .mjs of it (default $PICO_BOOTROM, or found as above)
    --root DIR         the tree whose engine/ and firmware/ are compiled
                       into the .mpy bundle (default: this checkout)
    --frozen [UF2]     boot a .uf2 that carries the game instead (default
                       build/gin-rummy-pico.uf2, `make uf2`: the game in
                       its ROMFS partition, as released;
                       build/gin-rummy-pico-frozen.uf2, `make uf2-frozen`:
                       the game frozen in): no bundle
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.pico import harness as h  # noqa: E402

# `make uf2`: the release's kind, the game in the ROMFS partition (the
# --frozen default: a firmware whose flash holds the game)
FROZEN_UF2 = os.path.join(ROOT, "build", "gin-rummy-pico.uf2")
GAME_FROZEN_UF2 = os.path.join(ROOT, "build", "gin-rummy-pico-frozen.uf2")   # make uf2-frozen


def add_arguments(ap):
    ap.add_argument("--firmware", default=h.find("PICO_FIRMWARE")[0],
                    help="MicroPython RPI_PICO .uf2 (default $PICO_FIRMWARE or found)")
    ap.add_argument("--bootrom", default=h.find("PICO_BOOTROM")[0],
                    help="rp2040js demo/bootrom.ts or .mjs (default $PICO_BOOTROM or found)")
    ap.add_argument("--root", default=ROOT,
                    help="tree whose engine/ and firmware/ go into the bundle")
    ap.add_argument("--frozen", nargs="?", const=FROZEN_UF2, default=None, metavar="UF2",
                    help="boot a .uf2 that carries the game (default build/gin-rummy-pico.uf2)")


def check(a):
    """Exit with a plain message when the firmware or the boot ROM is missing."""
    if a.frozen:
        if not os.path.isfile(a.frozen):
            raise SystemExit("%s not found: build it with `make uf2`" % a.frozen)
        a.firmware = a.frozen
    for opt, var in (("firmware", "PICO_FIRMWARE"), ("bootrom", "PICO_BOOTROM")):
        v = getattr(a, opt)
        if not v or not os.path.isfile(v):
            raise SystemExit("--%s must name %s (%s)" % (opt, h.WHERE[var], h.find(var)[1]
                                                         or "%s is not a file" % v))
    a.root = os.path.abspath(a.root)


def kind(uf2):
    """What a .uf2 that carries the game is: 'romfs' (the game in its ROMFS
    partition: make uf2, the release) or 'frozen' (make uf2-frozen)."""
    from tools.deploy import romfs

    with open(uf2, "rb") as f:
        return "romfs" if romfs.firmware_part(f.read())[1] is not None else "frozen"


def label(a):
    if a.frozen:
        what = {"romfs": "the game in its ROMFS partition", "frozen": "the game frozen in"}
        return "%s (%s)" % (os.path.relpath(a.frozen, os.getcwd()), what[kind(a.frozen)])
    return ".mpy bundle of %s on %s" % (a.root, os.path.basename(a.firmware))


def repl_board(a, onboard=(), flash_timing="typical"):
    """A Pico booted to an idle REPL: the bundle of a.root (no /main.py,
    so the game does not start) or a .uf2 that carries the game (a.frozen),
    plus the named tools/pico/onboard modules."""
    files = h.board_files(a.root, bundle=not a.frozen, main=False, onboard=onboard)
    p = h.Pico(a.firmware, a.bootrom, h.fs_image(files), flash_timing=flash_timing)
    if a.frozen:
        # a .uf2 that carries the game starts it: stop it for the REPL
        p.run_until_text("Game running", 20000)
        p.interrupt()
    else:
        p.run(20)
        p.interrupt()
    return p


def echo(text):
    """A progress callback: console text to stderr as it comes."""
    if text:
        sys.stderr.write(text.replace("\r\n", "\n"))
        sys.stderr.flush()
