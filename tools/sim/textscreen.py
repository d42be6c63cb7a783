"""The panel read back as words: for a terminal too small for a legible
picture (80 x 24), the simulator prints what the 128x64 frame says instead.

read(buf) -> list of str, one per line of the panel, top to bottom:

    cards         9♥ T♠ (rank then suit; T is the ten); a hand's meld
                  groups in brackets, [7♠ 7♥ 7♦] 4♣ 9♥ (only real
                  melds: a group set apart that is none is not
                  bracketed); the raised (selected) card marked >9♥; a
                  card drawn inverted (lit, e.g. laid off) marked *9♥;
                  a face-down card ##; a card inside a line of text
                  keeps its suit (THE 7♦ WAS JUST TAKEN)
    the table     the play screen's stock and discard pile, labelled:
                  STOCK 31   PILE J♠; the one chosen to draw from
                  marked '> ' (> PILE J♠); PASS for the stock side of
                  the upcard offer
    text          both fonts, lit on dark and dark on a lit band (the
                  status row, the titles, the key boxes: A B <> ^ v); a
                  whole row dark on lit below the top one (the cursor in
                  a menu) marked "> "

It reads the pixels, not the game's state, so it shows every screen as the
device draws it (partial redraws included): each card face is found by its
outline and its rank and suit glyphs, then each glyph of the two fonts is
matched where it stands with a blank pixel all round it. Host only.
"""

from firmware.display import font, glyphs
from firmware.screens.play_modes import PILE_X, STOCK_X, TABLE_LIFT, TABLE_Y

W = 128
H = 64
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"     # s h d c
_ALL = (1 << H) - 1

# 3x5 arrows of the key hints (firmware/screens/layout.py)
_ARROWS = {(0x04, 0x02, 0x1F, 0x02, 0x04): "^", (0x04, 0x08, 0x1F, 0x08, 0x04): "v"}


def _table(data, w, names):
    out = {}
    for i, name in enumerate(names):
        cols = tuple(data[w * i:w * i + w])
        if any(cols) and cols not in out:
            out[cols] = name
    return out


SMALL = _table(font.SMALL_DATA, 3, font.SMALL_CHARS)          # 3x5
BIG = _table(font.BIG_DATA, 5, [chr(c) for c in range(32, 127)])  # 5x7
SUITS = _table(glyphs.SUIT_DATA, 5, SUIT_SYMBOLS)            # 5x7
RANKS = {}
for _r, _ch in enumerate(glyphs.RANK_CHARS):
    RANKS[tuple(font.SMALL_DATA[3 * font.SMALL_CHARS.index(chr(_ch)):][:3])] = chr(_ch)
SUIT4 = {k[:4]: v for k, v in SUITS.items()}                   # a suit half covered
_BACK = tuple(glyphs.CARD_BACK_DATA[i] | glyphs.CARD_BACK_DATA[9 + i] << 8 for i in range(9))
_BACK_LIT = tuple(v ^ 0x7FFE for v in _BACK[1:8])   # inside the edge inverted: chosen

# The fewest pixels a glyph lights to be read where it touches a line above
# or below it (fewer, as '.', '-' or ':', could be a piece of the line).
TOUCH_LIT = 5

# (table, width, height, kind): the glyphs read as text, in this order
_FONTS = ((BIG, 5, 7, "big"), (SUITS, 5, 7, "suit"), (_ARROWS, 5, 5, "small"),
          (SMALL, 3, 5, "small"))


def columns(buf):
    """The frame as 128 ints, bit y = pixel (x, y)."""
    cols = []
    for x in range(W):
        c = 0
        for p in range(H // 8):
            c |= buf[p * W + x] << (8 * p)
        cols.append(c)
    return cols


class Item:
    __slots__ = ("x", "y", "w", "h", "text", "kind", "mark", "lit")

    def __init__(self, x, y, w, h, text, kind, mark="", lit=0):
        self.x, self.y, self.w, self.h = x, y, w, h
        self.text, self.kind, self.mark = text, kind, mark
        self.lit = lit              # pixels the glyph lights

    def overlaps(self, o):
        return (self.x < o.x + o.w and o.x < self.x + self.w
                and self.y < o.y + o.h and o.y < self.y + self.h)

    def centre(self):
        return self.y + self.h / 2


def _px(cols, x, y):
    return 0 <= x < W and 0 <= y < H and (cols[x] >> y) & 1


def _win(cols, x, y, w, h):
    m = (1 << h) - 1
    return tuple((cols[x + i] >> y) & m for i in range(w))


def find_cards(cols):
    """Face-up cards (also overlapping on a tight pitch, or inverted) and
    face-down ones: Items of kind 'card' / 'back'."""
    out = []
    for x in range(W - glyphs.CARD_W + 1):
        c0 = cols[x]
        if not c0:
            continue
        for y in range(H - glyphs.CARD_H + 1):
            back = _win(cols, x + 1, y, 7, 16)
            if back == _BACK[1:8] or back == _BACK_LIT:
                out.append(Item(x, y, 9, 16, "##", "back", "*" if back == _BACK_LIT else ""))
                continue
            # the left edge: rows 1..14 lit, the rounded corners dark
            if (c0 >> y) & 0xFFFF != 0x7FFE:
                continue
            if not all((cols[x + i] >> y) & 0x8001 == 0x8001 for i in range(1, 6)):
                continue
            rank = _win(cols, x + 3, y + 2, 3, 5)
            suit = _win(cols, x + 2, y + 8, 4, 7)
            mark = ""
            if rank not in RANKS or suit not in SUIT4:
                rank = tuple(~v & 31 for v in rank)
                suit = tuple(~v & 127 for v in suit)
                mark = "*"
            if rank in RANKS and suit in SUIT4:
                out.append(Item(x, y, 9, 16, RANKS[rank] + SUIT4[suit], "card", mark))
    return out


def _blank(cols, items, lit=False):
    """cols with the items' boxes cleared, or lit (so no text is read
    inside them, or beside them in the inverted picture)."""
    cols = list(cols)
    for it in items:
        m = ((1 << it.h) - 1) << it.y
        for x in range(it.x, min(W, it.x + it.w)):
            cols[x] = cols[x] | m if lit else cols[x] & ~m & _ALL
    return cols


def find_glyphs(cols, band=False):
    """Every glyph of the fonts standing alone (a blank pixel all round;
    with `band`, text on a lit band, the band may end at the glyph's top
    or bottom row: blank columns either side and a blank row above or
    below)."""
    pad = [0] + [c << 1 for c in cols] + [0]       # row y at bit y + 1, edges blank
    found = []
    for table, w, h, kind in _FONTS:
        m = (1 << h) - 1
        for x in range(W - w + 1):
            for y in range(H - h + 1):
                win = tuple((pad[x + 1 + i] >> (y + 1)) & m for i in range(w))
                name = table.get(win)
                if name is None:
                    continue
                if (pad[x] >> (y + 1)) & m or (pad[x + w + 1] >> (y + 1)) & m:
                    continue
                top = any((pad[x + 1 + i] >> y) & 1 for i in range(-1, w + 1))
                bottom = any((pad[x + 1 + i] >> (y + h + 1)) & 1 for i in range(-1, w + 1))
                lit = sum(bin(v).count("1") for v in win)
                # a glyph may stand right on a line or a box on one side
                # (a message's first line under its frame, a menu's last
                # row on the key boxes): a whole glyph, not a dot or a dash
                touch = (top or bottom) and not band
                if top and bottom or touch and (lit < TOUCH_LIT or not (name.isalnum() or name == "-")
                                                and (kind != "suit" or bottom)):
                    continue
                if name == "_":
                    lit -= 0.5      # a lone line reads '-' before '_'

                it = Item(x, y, w, h, name, kind, lit=lit)
                it.mark = "touch" if touch else ""
                found.append(it)
    # Where two readings overlap (the top dot of ':' alone reads '.', the
    # top line of '=' reads '_'), the one lighting more pixels is the glyph.
    out = []
    for it in sorted(found, key=lambda i: -i.lit):
        if not any(it.overlaps(o) for o in out):
            out.append(it)
    # a suit touching the line above it is read only as a card's, after a
    # rank (an inline card on a message's first line, under its frame)
    ranks = [o for o in out if o.kind != "suit" and o.text in "A23456789TJQK"]
    out = [o for o in out if not (o.kind == "suit" and o.mark == "touch" and not any(
        0 < o.x - (r.x + r.w) <= 2 and abs(o.y + 1 - r.y) <= 1 for r in ranks))]
    for o in out:
        o.mark = ""
    return out


def read_items(buf):
    cols = columns(buf)
    cards = find_cards(cols)
    rest = _blank(cols, cards)
    items = cards + find_glyphs(rest)
    lit = _blank([~c & _ALL for c in cols], cards, lit=True)
    # dark on lit: only inside lit areas (a blank pixel all round, in the
    # inverted picture, means lit pixels all round in the real one)
    for it in find_glyphs(lit, band=True):
        it.mark = "lit"
        items.append(it)
    return items


def _lines(items):
    """Items grouped into lines by their vertical centres, top to bottom."""
    lines = []
    for it in sorted(items, key=Item.centre):
        c = it.centre()
        if lines and abs(c - lines[-1][0]) <= 3:
            lines[-1][1].append(it)
        else:
            lines.append([c, [it]])
    return [sorted(ln[1], key=lambda i: i.x) for ln in lines]


def _join_cards(line):
    """A rank glyph followed by a suit (inline cards) becomes one card."""
    out = []
    for it in line:
        prev = out[-1] if out else None
        if (it.kind == "suit" and prev is not None and prev.kind in ("small", "big")
                and prev.text in "A23456789TJQK" and 0 < it.x - (prev.x + prev.w) <= 2):
            out[-1] = Item(prev.x, min(prev.y, it.y), it.x + it.w - prev.x,
                           max(prev.h, it.h), prev.text + it.text, "inline")
        else:
            out.append(it)
    return out


def _card_row(cards):
    """A row of cards, grouped as the game lays a hand out
    (firmware/screens/layout.py HandRow: melds 3 px apart, the deadwood 6
    px after them): the meld groups in [ ], the raised card marked >."""
    base = max(c.y for c in cards)
    xs = [c.x for c in cards]
    pitch = min([b - a for a, b in zip(xs, xs[1:])] or [glyphs.CARD_STRIDE])
    groups = [[cards[0]]]
    for a, b in zip(cards, cards[1:]):
        if b.x - a.x > pitch:
            groups.append([b])
        else:
            groups[-1].append(b)
    melds = len(groups) if len(groups) > 1 else 0
    if melds and groups[-1][0].x - _prev(cards, groups[-1][0]).x >= pitch + 5:
        melds -= 1              # the deadwood, set further apart
    words = []
    for gi, g in enumerate(groups):
        meld = gi < melds and is_meld([c.text for c in g])
        names = [(">" if c.y < base and len(cards) > 1 else "") + c.mark + c.text
                 for c in g]
        words.append("[" + " ".join(names) + "]" if meld else " ".join(names))
    return " ".join(words)


RANK_ORDER = "A23456789TJQK"


def is_meld(names):
    """True when cards named like '9♥' make a meld (R5): 3 or 4 of one
    rank, or 3 or more in a row of one suit (the ace low). A group the
    layout sets apart that is no meld (a hand row under a box) is not
    bracketed."""
    if len(names) < 3 or any(len(n) != 2 or n[0] not in RANK_ORDER for n in names):
        return False
    ranks = [RANK_ORDER.index(n[0]) for n in names]
    suits = [n[1] for n in names]
    if len(set(ranks)) == 1:
        return len(names) <= 4 and len(set(suits)) == len(names)
    if len(set(suits)) != 1:
        return False
    rs = sorted(ranks)
    return all(b == a + 1 for a, b in zip(rs, rs[1:]))


def _prev(cards, c):
    return cards[cards.index(c) - 1]


def _text(line):
    parts = []
    prev = None
    i = 0
    while i < len(line):
        it = line[i]
        if it.kind in ("card", "back"):
            j = i
            while j < len(line) and line[j].kind in ("card", "back"):
                j += 1
            word = _card_row(line[i:j])
            gap = 2
            i = j
            end = line[j - 1]
        else:
            word = it.text
            end = it
            i += 1
            gap = it.x - (prev.x + prev.w) if prev is not None else 0
        if prev is not None:
            if prev.kind == "inline" and word in (":", ",", "."):
                pass                # 'KEEPS 3♥: ...' (the card glyph is wider than its name)
            elif prev.kind in ("card", "back", "inline") or it.kind in ("card", "back", "inline"):
                parts.append(" ")
            elif gap > 12:
                parts.append("   ")
            elif gap > 2 or gap == 2 and it.kind == "small" and prev.kind == "small":
                parts.append(" ")   # (the small font's letters stand 1 px apart)
        parts.append(word)
        prev = end
    return "".join(parts).strip()


def _table(items):
    """The play screen's stock and discard pile (their places in
    firmware/screens/play_modes.py) become one labelled item:
    'STOCK 31   PILE J♠', the one chosen to draw from (drawn lifted and
    inverted) marked '>': '> STOCK 31   PILE J♠'; with the upcard offer
    (V1) the stock side is PASS. Other screens are left as they are."""
    ys = (TABLE_Y, TABLE_Y - TABLE_LIFT)
    stock = [it for it in items if it.kind == "back" and it.x == STOCK_X and it.y in ys]
    pile = [it for it in items if it.kind == "card" and it.x == PILE_X and it.y in ys]
    if not stock and not pile:
        return items
    under = TABLE_Y + glyphs.CARD_H + 2                 # the count, or PASS
    count = sorted((it for it in items if it.kind == "small" and it.y == under
                    and it.x < PILE_X - 2), key=lambda i: i.x)
    word = "".join(it.text for it in count)
    parts = []
    for got, name in ((stock, "PASS" if word == "PASS" else "STOCK"), (pile, "PILE")):
        it = got[0] if got else None
        text = name
        if name == "STOCK":
            text += " " + (word or ("0" if it is None else "?"))
        elif name == "PASS":
            pass
        elif it is not None:
            text += " " + it.text
        else:
            text += " EMPTY"
        if it is not None and it.y < TABLE_Y:
            text = "> " + text
        parts.append(text)
    used = stock + pile + count
    return [it for it in items if it not in used] + [
        Item(0, TABLE_Y - TABLE_LIFT, PILE_X + glyphs.CARD_W, 1, "   ".join(parts), "table")]


def read(buf):
    """The frame's lines as text (see the module docstring)."""
    out = []
    for line in _lines(_table(read_items(buf))):
        t = _text(_join_cards(line))
        if t and line[0].y > 1 and all(it.mark == "lit" for it in line):
            t = "> " + t        # a lit row below the top one: the cursor
        if t:
            out.append(t)
    return out
