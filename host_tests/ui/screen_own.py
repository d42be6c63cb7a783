"""The screen's own text: what a screen draws as words and cards, recorded
while it draws its frame again, to hold the terminal's text view
(tools/sim/textscreen.py, which reads the pixels back) against.

own(sim) redraws the current screen into a fresh canvas, recording every
text, number and character drawn, every card (face-up, inline in a line of
text, or big) and every area filled over them later (a message box over
the hand, a title bar): what a later fill covers is hidden.

mismatches(sim) compares that with textscreen.read(sim.image()), card for
card: every card drawn and not covered is in the view, and every card in
the view was drawn; every piece of text drawn and not covered is in a
line of the view (spaces aside: the view spaces words by their gaps). A
piece drawn past the panel's edge is clipped, so it is missing from the
view: a mismatch, as it should be.
"""

from collections import Counter
import re

from firmware.display import fb, glyphs
from firmware.screens import layout as L
from tools.sim import textscreen

SUIT = textscreen.SUIT_SYMBOLS
CARD = re.compile(r"[A2-9TJQK][\u2660\u2665\u2666\u2663]")


def card_name(card):
    suit = card // 13
    return chr(glyphs.RANK_CHARS[card - suit * 13]) + SUIT[suit]


class _Rec:
    def __init__(self):
        self.items = []     # [kind, text, (x, y, w, h), hidden]
        self.depth = 0      # inside a card's drawing: its own calls are not text

    def add(self, kind, text, rect):
        if self.depth == 0:
            self.items.append([kind, text, rect, False])

    def cover(self, x, y, w, h):
        """A filled area: what was drawn under it is hidden."""
        if w < 1 or h < 1 or self.depth:
            return
        for it in self.items:
            ix, iy, iw, ih = it[2]
            if ix < x + w and x < ix + iw and iy < y + h and y < iy + ih:
                it[3] = True


def own(sim):
    """[(kind, text, rect, hidden)] of the current screen's frame: kind
    'text' or 'card'."""
    rec = _Rec()
    C = fb.Canvas
    saved = {n: getattr(C, n) for n in ("text", "num", "char", "fill_rect", "fill_rows", "fill")}
    g_saved = {n: getattr(glyphs, n) for n in ("draw_card", "draw_card_inline")}
    big_card = L.big_card

    def text(self, s, x, y, c=1, font=fb.SMALL):
        t = s.decode() if isinstance(s, (bytes, bytearray)) else s
        if not font:
            t = t.upper()
        adv = 6 if font else 4
        rec.add("text", t, (x, y, len(t) * adv - 1, 7 if font else 5))
        rec.depth += 1
        try:
            return saved["text"](self, s, x, y, c, font)
        finally:
            rec.depth -= 1

    def num(self, n, x, y, c=1, font=fb.SMALL):
        t = str(n)
        adv = 6 if font else 4
        rec.add("text", t, (x, y, len(t) * adv - 1, 7 if font else 5))
        rec.depth += 1
        try:
            return saved["num"](self, n, x, y, c, font)
        finally:
            rec.depth -= 1

    def char(self, o, x, y, c=1, font=fb.SMALL):
        t = chr(o)
        if not font:
            t = t.upper()
        rec.add("text", t, (x, y, 5 if font else 3, 7 if font else 5))
        rec.depth += 1
        try:
            return saved["char"](self, o, x, y, c, font)
        finally:
            rec.depth -= 1

    def fill_rect(self, x, y, w, h, c):
        rec.cover(x, y, w, h)
        rec.depth += 1
        try:
            return saved["fill_rect"](self, x, y, w, h, c)
        finally:
            rec.depth -= 1

    def fill_rows(self, y, h, c):
        rec.cover(0, y, 128, h)
        rec.depth += 1
        try:
            return saved["fill_rows"](self, y, h, c)
        finally:
            rec.depth -= 1

    def fill(self, c):
        rec.cover(0, 0, 128, 64)
        rec.depth += 1
        try:
            return saved["fill"](self, c)
        finally:
            rec.depth -= 1

    def card(orig, rect):
        def draw(canvas, card, x, y, *a):
            lift = glyphs.LIFT if orig is g_saved["draw_card"] and a and a[0] else 0
            rec.add("card", card_name(card), rect(x, y - lift))
            rec.depth += 1
            try:
                return orig(canvas, card, x, y, *a)
            finally:
                rec.depth -= 1
        return draw

    try:
        for n, f in (("text", text), ("num", num), ("char", char), ("fill_rect", fill_rect),
                     ("fill_rows", fill_rows), ("fill", fill)):
            setattr(C, n, f)
        glyphs.draw_card = card(g_saved["draw_card"], lambda x, y: (x, y, 9, 16))
        glyphs.draw_card_inline = card(g_saved["draw_card_inline"],
                                       lambda x, y: (x, y - 1, 9, 7))
        L.big_card = card(big_card, lambda x, y: (x, y, 11, 7))
        sim.app.screen.draw(C())
    finally:
        for n, f in saved.items():
            setattr(C, n, f)
        for n, f in g_saved.items():
            setattr(glyphs, n, f)
        L.big_card = big_card
    return [tuple(it) for it in rec.items]


def mismatches(sim):
    """What the text view and the screen's own text disagree on (empty
    when they agree)."""
    view = textscreen.read(sim.image())
    items = own(sim)
    out = []
    seen = Counter(CARD.findall("\n".join(view)))
    drawn = Counter(t for k, t, _, _ in items if k == "card")
    shown = Counter(t for k, t, _, hidden in items if k == "card" and not hidden)
    if shown - seen:
        out.append("cards drawn, not in the view: %s" % " ".join(sorted((shown - seen).elements())))
    if seen - drawn:
        out.append("cards in the view, never drawn: %s" % " ".join(sorted((seen - drawn).elements())))
    flat = [ln.replace(" ", "") for ln in view]
    for k, t, rect, hidden in items:
        piece = t.replace(" ", "")
        if k != "text" or hidden or not piece:
            continue
        if not any(piece in ln for ln in flat):
            out.append("text drawn at %d,%d, not in the view: %r" % (rect[0], rect[1], t))
    return out
