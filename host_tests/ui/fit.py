"""Words that do not fit: every text a screen draws, held to the panel's
width, and every message held to the lines its screen keeps.

    with Fit() as fit:
        ... drive the simulator ...
    assert not fit.found, fit.report()

While active it wraps firmware.display.fb.Canvas.text (both fonts),
firmware.screens.layout.rich_text (text with card glyphs) and
layout.wrap (a message split into lines): a text whose last glyph ends
past the panel's right edge (128 px) or that starts left of it is cut on
the OLED and in the terminal's text view, which reads the panel's pixels;
a message whose lines the screen then drops (`wrap(text, n)[:k]` with more
than k lines) loses its end. Each is recorded once, with the screen's name.
"""

from firmware.display import fb
from firmware.screens import layout as L

WIDTH = fb.WIDTH


def _text(s):
    if isinstance(s, (bytes, bytearray)):
        return "".join(chr(b) if 32 <= b < 127 else "?" for b in s)
    return s


class _Lines(list):
    """wrap()'s lines: a slice that leaves lines out is recorded."""

    def __init__(self, lines, text, width, fit):
        super().__init__(lines)
        self.text = text
        self.width = width
        self.fit = fit

    def __getitem__(self, i):
        if isinstance(i, slice) and i.start in (None, 0) and i.step is None \
                and i.stop is not None and i.stop < len(self):
            self.fit.add("a message of %d lines of %d characters, %d shown: %r"
                         % (len(self), self.width, i.stop, self.text))
        elif isinstance(i, int) and len(self) > 1:      # one line taken of several
            self.fit.add("a line of %d characters taken from %d: %r"
                         % (self.width, len(self), self.text))
        return list.__getitem__(self, i)


class Fit:
    def __init__(self, screen=lambda: "?"):
        self.found = []
        self.seen = set()
        self.screen = screen          # () -> the name of the screen drawing

    def add(self, what):
        key = (self.screen(), what)
        if key not in self.seen:
            self.seen.add(key)
            self.found.append("%s: %s" % key)

    def __enter__(self):
        fit = self
        self.orig = (fb.Canvas.text, L.rich_text, L.wrap)
        text, rich, wrap = self.orig

        def checked_text(canvas, s, x, y, c=1, font=fb.SMALL):
            end = text(canvas, s, x, y, c, font)
            gap = 1 if font else 1            # advance 6 (5 px glyph) or 4 (3 px glyph)
            if len(s) and s.strip() and (x < 0 or end - gap > WIDTH) and -8 < y < 64:
                fit.add("%r at x %d..%d (the panel is %d wide)" % (_text(s), x, end - gap, WIDTH))
            return end

        def checked_rich(canvas, s, x, y, c=1):
            end = rich(canvas, s, x, y, c)
            if len(s) and (x < 0 or end - 1 > WIDTH):
                fit.add("%r at x %d..%d (the panel is %d wide)" % (_text(s), x, end - 1, WIDTH))
            return end

        def checked_wrap(t, width):
            return _Lines(wrap(t, width), t, width, fit)

        fb.Canvas.text = checked_text
        L.rich_text = checked_rich
        L.wrap = checked_wrap
        return self

    def __exit__(self, *exc):
        fb.Canvas.text, L.rich_text, L.wrap = self.orig
        return False

    def report(self):
        return "words that do not fit:\n" + "\n".join(self.found)
