"""Helpers for the emulated-Pico tests."""

import os

from PIL import Image

import engine
from firmware.saves import gamesave
from firmware.saves.storage import Storage
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


def saved_match(files, tmp_path, name):
    """engine.dumps of the match Storage would resume from these files."""
    root = os.path.join(str(tmp_path), name)
    for path, data in files.items():
        if path.startswith("/data/"):
            full = os.path.join(root, path[len("/data/"):])
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(data)
    g, msg = Storage(root).load("game", gamesave.decode)
    return None if g is None or g.match is None else engine.dumps(g.match), msg


def to_first_discard(p):
    """NEW MATCH (its commitment, the cut: figures.new_match), draw from
    the stock; returns with the discard's A held."""
    from tools.pico.figures import new_match

    new_match(p)
    p.press("A")          # draw from the stock
    p.run(500)
    p.pin("A", True)
    p.run(60)
