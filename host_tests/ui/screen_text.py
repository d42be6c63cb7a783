"""Find text on the panel: the pixels of a string, as the game's fonts draw
it, anywhere in a 128x64 frame (the emulator's picture of the panel)."""

from firmware.display import fb
from tools.sim.render import pixel


def _rows(buf, x, y, w, h):
    return [[pixel(buf, xx, yy) for xx in range(x, x + w)] for yy in range(y, y + h)]


def pattern(text, font=fb.SMALL):
    """The pixels `text` lights, as rows of 0/1 (its own box only)."""
    c = fb.Canvas()
    end = c.text(text, 0, 0, 1, font)
    h = 7 if font else 5
    return _rows(c.buf, 0, 0, end - 1, h)


def find(img, text, font=fb.SMALL, lit_on_dark=True, rows=None):
    """(x, y) where `text` is drawn in `img` (lit on dark, or dark on a lit
    band), or None. `rows`: the y range to look in."""
    pat = pattern(text, font)
    if not lit_on_dark:
        pat = [[1 - v for v in r] for r in pat]
    h = len(pat)
    w = len(pat[0])
    frame = _rows(img, 0, 0, 128, 64)
    ys = rows if rows is not None else range(0, 64 - h + 1)
    for y in ys:
        for x in range(0, 128 - w + 1):
            if all(frame[y + j][x:x + w] == pat[j] for j in range(h)):
                return x, y
    return None


def shows(img, text, font=fb.SMALL, lit_on_dark=True, rows=None):
    return find(img, text, font, lit_on_dark, rows) is not None
