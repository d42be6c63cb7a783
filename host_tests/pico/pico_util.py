"""Helpers for the emulated-Pico tests."""

import os

from PIL import Image

from tools.sim import render
from tools.pico import harness as h

GOLDEN = os.path.join(h.ROOT, "host_tests", "ui", "golden")


def same_as_golden(image, name, tmp_path):
    """True when `image` (MONO_VLSB) equals host_tests/ui/golden/NAME.png."""
    got = os.path.join(str(tmp_path), name + ".png")
    render.to_png(image, got)

    def pixels(p):
        im = Image.open(p).convert("1")
        return im.size, im.tobytes()

    return pixels(got) == pixels(os.path.join(GOLDEN, name + ".png"))


def boot_game(firmware, bootrom, fs, **kw):
    """A board booted into the game, the title shown."""
    p = h.Pico(firmware, bootrom, fs, **kw)
    p.run_until_text("Game running", 30000)
    p.run(300)
    return p


def repl(firmware, bootrom, fs, frozen=False):
    """A board at an idle REPL (the frozen build's game stopped by Ctrl-C)."""
    p = h.Pico(firmware, bootrom, fs)
    if frozen:
        p.run_until_text("Game running", 30000)
    else:
        p.run(20)
    p.interrupt()
    return p
