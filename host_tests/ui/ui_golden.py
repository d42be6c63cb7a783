"""Golden screenshots: compare a screen with a committed PNG, pixel for pixel.

UPDATE_GOLDEN=1 (re)writes the PNGs instead of comparing. Every snapshot
also checks that the SSD1306 emulator's picture, rebuilt from the bytes the
real driver put on the fake I2C bus, equals the app's framebuffer, and
that the terminal's text view of it (tools/sim/textscreen.py) says what the
screen drew, card for card (screen_own.py).
"""

import os

from PIL import Image

from screen_own import mismatches
from tools.sim import render
from tools.sim.simulator import Sim

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
CHECKED_TEXT = set()     # the goldens whose text view was held against the screen's own


def assert_panel_matches_framebuffer(sim):
    img = sim.image()
    fbuf = bytes(sim.app.canvas.buf)
    if sim.app.idle == 2:          # blanked: the panel shows nothing
        fbuf = bytes(len(fbuf))
    if img != fbuf:
        diff = sum(bin(a ^ b).count("1") for a, b in zip(img, fbuf))
        raise AssertionError("panel (driver bytes through the emulator) differs "
                             "from the framebuffer in %d pixels on %s"
                             % (diff, sim.screen))


class CheckedSim(Sim):
    """A Sim that checks panel == framebuffer after every press."""

    def press(self, key, settle=True):
        super().press(key, settle)
        assert_panel_matches_framebuffer(self)


png_buf = render.from_png


def golden_buf(name):
    return png_buf(os.path.join(GOLDEN, name + ".png"))


def pixels(path):
    im = Image.open(path).convert("1")
    return im.size, im.tobytes()


class Golden:
    """Collects the snapshots of one test; check() compares each as taken."""

    def __init__(self, tmp_path):
        self.tmp = str(tmp_path)
        self.names = []
        self.failures = []

    def check(self, sim, name):
        assert_panel_matches_framebuffer(sim)
        self.names.append(name)
        CHECKED_TEXT.add(name)
        for m in mismatches(sim):
            self.failures.append("%s: the text view: %s" % (name, m))
        png = os.path.join(GOLDEN, name + ".png")
        if UPDATE:
            os.makedirs(GOLDEN, exist_ok=True)
            render.to_png(sim.image(), png)
            return
        got = os.path.join(self.tmp, name + ".png")
        render.to_png(sim.image(), got)
        if not os.path.exists(png):
            self.failures.append("%s: no golden (run with UPDATE_GOLDEN=1)" % name)
        elif pixels(png) != pixels(got):
            self.failures.append("%s: differs from %s (new picture: %s)" % (name, png, got))

    def finish(self):
        assert not self.failures, "\n".join(self.failures)
