"""The drawing fast paths give the pixels of the primitives they stand for,
on CPython (the pure-Python framebuf) and on MicroPython (the C framebuf):
Canvas.fill and fill_rows write whole pages where framebuf would fill
pixel by pixel; a card on a page boundary is copied and or'ed in instead
of blitted. Each is drawn over random pictures and compared with the
plain primitive (fill_rect; the face, rank and suit blits)."""

from fwtest_util import run_micropython

SCRIPT = r'''
from firmware.display import fb, glyphs


class Rnd:
    """A small deterministic generator (the same on both runtimes)."""

    def __init__(self, s):
        self.s = s

    def byte(self):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 16) & 0xFF


def noise(rnd):
    c = fb.Canvas()
    for i in range(len(c.buf)):
        c.buf[i] = rnd.byte()
    return c


def copy(c):
    d = fb.Canvas()
    for i in range(len(c.buf)):
        d.buf[i] = c.buf[i]
    return d


def blitted_card(canvas, card, x, y, selected, invert):
    # glyphs.draw_card through blits only
    if selected:
        y -= glyphs.LIFT
    suit = card // 13
    canvas.blit(glyphs._FACE, x, y)
    canvas.blit(glyphs.RANKS[card - suit * 13], x + glyphs.RANK_X, y + glyphs.RANK_Y, 0)
    canvas.blit(glyphs.SUITS[suit], x + glyphs.SUIT_X, y + glyphs.SUIT_Y, 0)
    if invert:
        canvas.invert_rect(x + 1, y + 1, glyphs.CARD_W - 2, glyphs.CARD_H - 2)


def main():
    rnd = Rnd(7)
    bad = []
    n = 0
    for col in (0, 1, 2):
        a = noise(rnd)
        b = copy(a)
        a.fill(col)
        b.fill_rect(0, 0, 128, 64, 1 if col else 0)
        n += 1
        if a.buf != b.buf:
            bad.append("fill %d" % col)
    for y in range(-9, 70, 3):
        for h in (-1, 0, 1, 5, 8, 9, 16, 19, 64, 80):
            for col in (0, 1):
                a = noise(rnd)
                b = copy(a)
                a.fill_rows(y, h, col)
                b.fill_rect(0, y, 128, h, col)
                n += 1
                if a.buf != b.buf:
                    bad.append("fill_rows %d %d %d" % (y, h, col))
    for card in range(52):
        for x in (-3, 0, 1, 60, 118, 119, 120):
            for y in (-8, 0, 3, 8, 45, 48, 51, 56):
                sel = (card + x) % 3 == 0
                inv = (card + y) % 5 == 0
                a = noise(rnd)
                b = copy(a)
                glyphs.draw_card(a, card, x, y, sel, inv)
                blitted_card(b, card, x, y, sel, inv)
                n += 1
                if a.buf != b.buf:
                    bad.append("card %d at %d,%d %d %d" % (card, x, y, sel, inv))
    print("checked", n, "differ", len(bad), bad[:5])


main()
'''


def test_fast_paths_draw_the_primitives_pixels_on_cpython():
    ns = {}
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(SCRIPT, ns)
    assert "differ 0 " in out.getvalue(), out.getvalue()


def test_fast_paths_draw_the_primitives_pixels_on_micropython():
    out = run_micropython(SCRIPT)
    assert "differ 0 " in out, out
