"""Drawing helpers every screen shares: bars, key hints, inline cards, text
wrapping and the grouped hand row.

Everything called from a redraw allocates nothing: text is bytes, numbers go
through Canvas.num, and the hand row reads a HandRow whose bytearrays are
filled once per hand change (HandRow.build may allocate; draw never does).
"""

from firmware.compat import const
from firmware.display import fb, glyphs

W = const(128)
H = const(64)
SMALL_ADV = const(4)
BIG_ADV = const(6)
CW = glyphs.CARD_W
CH = glyphs.CARD_H

# 3x5 arrows for key hints (the small font has no ^ or v): up, down, left-right.
_ARROW_DATA = b"\x04\x02\x1f\x02\x04" b"\x04\x08\x1f\x08\x04"
_ARROWS = fb.sprites(_ARROW_DATA, 5, 5)
ARROWS = _ARROWS      # up, down (the HARDWARE page draws them)
# Save mark: a 5x5 floppy.
_SAVE = fb.sprites(b"\x1f\x13\x17\x13\x1e", 5, 5)[0]

KEY_UP = b"^"
KEY_DOWN = b"v"


def bar(canvas, y, h):
    """A filled (lit) band across the screen, for inverted titles."""
    canvas.fill_rect(0, y, W, h, 1)


def title_bar(canvas, text):
    """Screen title: BIG text dark on a lit band 9 px high."""
    canvas.fill_rect(0, 0, W, 9, 1)
    canvas.text(text, 2, 1, 0, fb.BIG)


def key(canvas, k, x, y):
    """A button name in a small lit box (k: b'A', b'B', b'<>', b'^', b'v');
    returns the x after it plus a 2 px gap."""
    if k == KEY_UP or k == KEY_DOWN:
        canvas.fill_rect(x, y - 1, 7, 7, 1)
        canvas.glyph(_ARROWS[0 if k == KEY_UP else 1], x + 1, y, 0)
        return x + 9
    w = len(k) * SMALL_ADV + 1
    canvas.fill_rect(x, y - 1, w, 7, 1)
    canvas.text(k, x + 1, y, 0)
    return x + w + 2


def hint(canvas, k, label, x, y):
    """Key box then its label in the small font; returns the x after it."""
    x = key(canvas, k, x, y)
    return canvas.text(label, x, y) + 3


def count_right(canvas, n, one, many, y, c=0):
    """'1 CARD', '12 CARDS' right-aligned at the screen's right edge less
    2 px (on a title bar: c=0)."""
    label = one if n == 1 else many
    x = W - 2 - len(label) * SMALL_ADV
    canvas.text(label, x, y, c)
    canvas.num(n, x - 4 - fb.num_width(n), y, c)


def save_mark(canvas, x, y, c=1):
    canvas.glyph(_SAVE, x, y, c)


def big_card(canvas, card, x, y, c=1):
    """A card inline with BIG text: the 5x7 rank then the 5x7 suit;
    returns the x after it (12 px, with the gap)."""
    suit = card // 13
    canvas.char(glyphs.RANK_CHARS[card - suit * 13], x, y, c, fb.BIG)
    glyphs.draw_suit(canvas, suit, x + 6, y, c)
    return x + 12


def small_card(canvas, card, x, y, c=1):
    return glyphs.draw_card_inline(canvas, card, x, y, c)


_RANKS = "A23456789TJQK"
_SUITS = "shdc"
CARD_BYTE = const(0x80)    # in wrapped text, 0x80 + card is a card glyph
CARD_END = const(0x80 + 52)
UNKNOWN = const(63)        # '?': what a character no font draws becomes


def _card_word(w):
    """'Qs' (optionally followed by punctuation) -> (card, rest) or None."""
    if len(w) >= 2 and w[0] in _RANKS and w[1] in _SUITS and (
            len(w) == 2 or w[2] in ".,:;)!?"):
        return _SUITS.index(w[1]) * 13 + _RANKS.index(w[0]), w[2:]
    return None


def wrap(text, width):
    """Split `text` (str) into lines of at most `width` characters at spaces;
    returns a list of bytes. Card names ('Qs') become one byte 0x80 + card,
    drawn by rich_text as the rank and suit glyphs (3 characters wide).
    Any other character outside printable ASCII (the fonts' range) becomes
    '?', so no text, wherever it came from, is taken for a card byte.
    Allocates: call when a message is set."""
    words = []
    for w in _printable(text).split():
        cw = _card_word(w)
        if cw is not None:
            w = chr(CARD_BYTE + cw[0]) + "  " + cw[1]
        words.append(w)
    lines = []
    cur = ""
    for w in words:
        while len(w) > width:
            if cur:
                lines.append(cur)
                cur = ""
            lines.append(w[:width])
            w = w[width:]
        if not cur:
            cur = w
        elif len(cur) + 1 + len(w) <= width:
            cur = cur + " " + w
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return [_card_bytes(ln) for ln in lines]


def _printable(text):
    """`text` with every character outside printable ASCII as '?' (the
    same str when there is none)."""
    for ch in text:
        if not " " <= ch <= "~":
            break
    else:
        return text
    out = []
    for ch in text:
        out.append(ch if " " <= ch <= "~" else "?")
    return "".join(out)


def _card_bytes(line):
    out = bytearray()
    i = 0
    n = len(line)
    while i < n:
        o = ord(line[i])
        if CARD_BYTE <= o < CARD_END:
            out.append(o)
            i += 3          # the card byte and its two padding spaces
            continue
        if o == 59:         # ';' is not in the small font
            o = 44
        out.append(o if 32 <= o < 127 else UNKNOWN)
        i += 1
    return bytes(out)


def rich_text(canvas, s, x, y, c=1):
    """Small-font text where a byte 0x80 + card draws that card's rank and
    suit glyphs (wrap() makes such lines); any other byte the font lacks
    draws its placeholder (Canvas.char), never raises. Allocation-free."""
    for i in range(len(s)):
        o = s[i]
        if CARD_BYTE <= o < CARD_END:
            glyphs.draw_card_inline(canvas, o - CARD_BYTE, x, y, c)
            x += 11
        else:
            x = canvas.char(o, x, y, c)
    return x


def centre_x(nchars, adv, x0=0, w=W):
    return x0 + (w - nchars * adv + 1) // 2


def text_c(canvas, s, y, c=1, font=fb.SMALL, x0=0, w=W):
    """Text centred in [x0, x0 + w)."""
    adv = BIG_ADV if font else SMALL_ADV
    return canvas.text(s, x0 + (w - len(s) * adv + 1) // 2, y, c, font)


def box(canvas, x, y, w, h):
    """A cleared panel with a 1 px frame (dialogs over a screen)."""
    canvas.fill_rect(x - 1, y - 1, w + 2, h + 2, 0)
    canvas.rect(x, y, w, h, 1)


def progress(canvas, x, y, w, value, total):
    """A 3 px high bar, filled in proportion value/total."""
    canvas.rect(x, y, w, 4, 1)
    if total > 0:
        f = (w - 2) * (value if value < total else total) // total
        if f > 0:
            canvas.fill_rect(x + 1, y + 1, f, 2, 1)


class HandRow:
    """A hand laid out for drawing: cards grouped by the engine's best melds
    (R5), deadwood last and set apart.

    Filled by build() when the hand changes; draw() reads only these
    preallocated fields, so it allocates nothing.
    """

    MAX = const(16)

    def __init__(self):
        self.n = 0
        self.cards = bytearray(self.MAX)
        self.xs = bytearray(self.MAX)
        self.flags = bytearray(self.MAX)      # 1: marked (laid off, drawn)
        self.ng = 0                           # meld groups
        self.g0 = bytearray(6)                # first index of each meld group
        self.g1 = bytearray(6)                # last index
        self.dead0 = 0                        # index where deadwood starts
        self.deadwood = 0
        self.stride = glyphs.CARD_STRIDE

    def index_of(self, card):
        for i in range(self.n):
            if self.cards[i] == card:
                return i
        return -1

    def build(self, groups, dead, deadwood=0, x0=-1, width=W, gap=3,
              dead_gap=6, max_stride=glyphs.CARD_STRIDE, min_stride=6,
              marked=None):
        """Lay out `groups` (lists of cards, each drawn together) then `dead`
        (cards). Picks the widest stride (max_stride down to min_stride) that
        fits `width`; centres the row unless x0 >= 0. Cards in `marked` are
        drawn inverted."""
        n = 0
        for g in groups:
            n += len(g)
        n += len(dead)
        ng = len(groups)
        gaps = gap * (ng - 1 if ng else 0)
        if ng and dead:
            gaps += dead_gap
        stride = max_stride
        while stride > min_stride and (n - 1) * stride + CW + gaps > width:
            stride -= 1
        total = (n - 1) * stride + CW + gaps if n else 0
        if x0 < 0:
            x0 = (width - total) // 2
        x = x0
        i = 0
        self.ng = ng
        for gi in range(ng):
            self.g0[gi] = i
            for c in groups[gi]:
                self.cards[i] = c
                self.flags[i] = 1 if marked and c in marked else 0
                self.xs[i] = x
                x += stride
                i += 1
            self.g1[gi] = i - 1
            x += gap
        if ng:
            x += dead_gap - gap
        self.dead0 = i
        for c in dead:
            self.cards[i] = c
            self.flags[i] = 1 if marked and c in marked else 0
            self.xs[i] = x
            x += stride
            i += 1
        self.n = n
        self.stride = stride
        self.deadwood = deadwood

    def width(self):
        if not self.n:
            return 0
        return self.xs[self.n - 1] + CW - self.xs[0]

    def draw(self, canvas, y, sel=-1, brackets=True):
        """Cards left to right with their tops at y; `sel` is lifted.
        Meld groups get a bracket line 2 px above them; marked cards are
        drawn inverted."""
        if brackets:
            for gi in range(self.ng):
                a = self.xs[self.g0[gi]]
                b = self.xs[self.g1[gi]] + CW
                canvas.hline(a + 1, y - 2, b - a - 2, 1)
                canvas.vline(a + 1, y - 2, 2, 1)
                canvas.vline(b - 2, y - 2, 2, 1)
        for i in range(self.n):
            glyphs.draw_card(canvas, self.cards[i], self.xs[i], y, i == sel,
                             self.flags[i] == 1)


def melds_and_dead(cards, best_melds):
    """(deadwood, meld lists sorted for display, dead cards sorted) for a
    list of card ints, via engine.best_melds. Allocates (once per change)."""
    dw, melds = best_melds(cards)
    used = []
    out = []
    for ml in melds:
        ml = sorted(ml)
        out.append(ml)
        used.extend(ml)
    out.sort(key=_meld_key)
    dead = sorted([c for c in cards if c not in used], key=dead_key)
    return dw, out, dead


def _meld_key(ml):
    return ml[0] % 13 * 4 + ml[0] // 13


def dead_key(c):
    # Deadwood by rank, then suit: near-sets sit together and the highest
    # (what you usually throw) sits at the right end.
    return c % 13 * 4 + c // 13
