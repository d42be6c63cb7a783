"""Card pictures: rank and suit glyphs, the card face, back and empty slot.

A card is an int 0..51 = suit * 13 + rank, suits s h d c = 0..3, ranks
A 2 3 4 5 6 7 8 9 T J Q K = 0..12 (the engine's encoding).

Suits are 5x7, as tall as the BIG font: spades and clubs filled, hearts and
diamonds outlined, each with its own silhouette (the spade pointed and
widest low, the club a round lobe on a neck over two side lobes, the heart
two humps, the diamond narrow), so the four read apart on a one-colour
0.96" screen. Ranks are the small font's 3x5 glyphs ('T' for ten). A card
is CARD_W x CARD_H (9x16): a rounded outline, the rank at (3, 2) centred
over the suit at (2, 8). Hands are laid out on a CARD_STRIDE (10 px)
pitch, so 11 cards span 109 px; a selected card is drawn LIFT px higher.
The face is opaque, so cards may also overlap on a tighter pitch (draw
them left to right).

All sprites are built once at import and blitted; nothing here allocates
per call. Pictures: host_tests/firmware/display/glyph_art.py.
"""

from firmware.compat import const
from firmware.display import fb, font

CARD_W = const(9)
CARD_H = const(16)
CARD_STRIDE = const(10)
LIFT = const(3)
SUIT_W = const(5)
SUIT_H = const(7)
RANK_X = const(3)
RANK_Y = const(2)
SUIT_X = const(2)
SUIT_Y = const(8)

RANK_CHARS = b"A23456789TJQK"
SUIT_CHARS = b"shdc"

SUIT_DATA = (
    b'\x1cN\x7fN\x1c\x1c"D"\x1c\x086A6\x08\x18[\x7f[\x18'
)

CARD_FACE_DATA = (
    b'\xfe\x01\x01\x01\x01\x01\x01\x01\xfe\x7f\x80\x80\x80\x80\x80\x80\x80\x7f'
)

CARD_BACK_DATA = (
    b'\xfe\x01U\xa9U\xa9U\x01\xfe\x7f\x80\x95\xaa\x95\xaa\x95\x80\x7f'
)

# Sprites, built once.
SUITS = fb.sprites(SUIT_DATA, SUIT_W, SUIT_H)
RANKS = fb.char_sprites(RANK_CHARS)
_FACE = fb.sprites(CARD_FACE_DATA, CARD_W, CARD_H)[0]
_BACK = fb.sprites(CARD_BACK_DATA, CARD_W, CARD_H)[0]


def _rank_columns():
    # The rank glyphs' columns (3 per rank) where a card's top page holds
    # them: RANK_Y rows down.
    out = bytearray(3 * len(RANK_CHARS))
    for r in range(len(RANK_CHARS)):
        g = RANKS[r]
        for i in range(3):
            col = 0
            for y in range(font.SMALL_H):
                col |= g.pixel(i, y) << y
            out[3 * r + i] = col << RANK_Y
    return bytes(out)


# A card whose top is on a page boundary covers two whole pages: its face
# goes in with two slice assignments and the rank and suit are or'ed into
# the columns (the same pixels as the blits, several times faster).
_RANK_COLS = _rank_columns()
_FACE_TOP = CARD_FACE_DATA[:CARD_W]
_FACE_BOT = CARD_FACE_DATA[CARD_W:]


def draw_rank(canvas, rank, x, y, c=1):
    """The 3x5 rank glyph (0 = A .. 12 = K)."""
    canvas.glyph(RANKS[rank], x, y, c)


def draw_suit(canvas, suit, x, y, c=1):
    """The 5x7 suit glyph (0 s, 1 h, 2 d, 3 c)."""
    canvas.glyph(SUITS[suit], x, y, c)


def draw_card(canvas, card, x, y, selected=False, invert=False):
    """A face-up card with its top-left at (x, y), or LIFT px higher when
    `selected`. `invert` draws it white-on-black (e.g. for the cursor).
    The face is opaque: it clears what was under it."""
    if selected:
        y -= LIFT
    suit = card // 13
    if not y & 7 and 0 <= y <= fb.HEIGHT - CARD_H and 0 <= x <= fb.WIDTH - CARD_W:
        buf = canvas.buf
        i = (y >> 3) * fb.WIDTH + x
        j = i + fb.WIDTH
        buf[i:i + CARD_W] = _FACE_TOP
        buf[j:j + CARD_W] = _FACE_BOT
        r = 3 * (card - suit * 13)
        cols = _RANK_COLS
        i += RANK_X
        buf[i] |= cols[r]
        buf[i + 1] |= cols[r + 1]
        buf[i + 2] |= cols[r + 2]
        s = 5 * suit
        cols = SUIT_DATA        # SUIT_Y is the bottom page's first row
        j += SUIT_X
        buf[j] |= cols[s]
        buf[j + 1] |= cols[s + 1]
        buf[j + 2] |= cols[s + 2]
        buf[j + 3] |= cols[s + 3]
        buf[j + 4] |= cols[s + 4]
    else:
        canvas.blit(_FACE, x, y)
        canvas.blit(RANKS[card - suit * 13], x + RANK_X, y + RANK_Y, 0)
        canvas.blit(SUITS[suit], x + SUIT_X, y + SUIT_Y, 0)
    if invert:
        canvas.invert_rect(x + 1, y + 1, CARD_W - 2, CARD_H - 2)


def draw_back(canvas, x, y, selected=False):
    """A face-down card (opaque), LIFT px higher when `selected`."""
    if selected:
        y -= LIFT
    canvas.blit(_BACK, x, y)


def draw_slot(canvas, x, y):
    """An empty pile: a dotted card outline (only the dots are drawn)."""
    i = 1
    while i < CARD_W - 1:
        canvas.pixel(x + i, y, 1)
        canvas.pixel(x + i, y + CARD_H - 1, 1)
        i += 2
    i = 2
    while i < CARD_H - 1:
        canvas.pixel(x, y + i, 1)
        canvas.pixel(x + CARD_W - 1, y + i, 1)
        i += 2


def draw_card_inline(canvas, card, x, y, c=1):
    """Rank then suit side by side, no box, in a line of the small font
    (5 px high at y): the suit stands one row above and below it. 9 px
    wide; returns the x after it plus a 1 px gap."""
    suit = card // 13
    canvas.glyph(RANKS[card - suit * 13], x, y, c)
    canvas.glyph(SUITS[suit], x + 4, y - 1, c)
    return x + 10
