"""Cards and their notation (R1).

A card is an int 0..51: suit * 13 + rank, suits s h d c (0..3), ranks
A 2 3 4 5 6 7 8 9 T J Q K (0..12). Ace is always low. The int order is the
order that sorts cards everywhere (A..K within suits s h d c).

The notation is exact (RULES.md): the rank upper-case, then the suit
lower-case, so "As" is a card and "as" or "AS" are not. Every public
function here refuses a wrong type with a ValueError naming the input, the
same on CPython and MicroPython (True and False are not cards: CPython
counts bool as an int, MicroPython does not, so the checks use type()).
"""
from .compat import const

RANKS = "A23456789TJQK"
SUITS = "shdc"
NO_CARD = const(255)

# R1: deadwood value by rank: A = 1, 2-10 face value, J/Q/K = 10.
RANK_VALUE = b"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0a\x0a\x0a"
# The same, indexed by card int (52 entries), for the hot paths.
CARD_VALUE = bytes(RANK_VALUE[c % 13] for c in range(52))


def is_card(c):
    """True for a card int 0..51 (never for a bool, on any runtime)."""
    return type(c) is int and 0 <= c <= 51


def card_list(cs, what="cards"):
    """`cs` as a list of card ints, or ValueError naming it: a list, tuple,
    bytes or bytearray of ints 0..51 (duplicates are the caller's check)."""
    t = type(cs)
    if t is not list and t is not tuple and t is not bytes and t is not bytearray:
        raise ValueError("%s must be a list of card numbers 0..51, not %r" % (what, cs))
    out = list(cs)
    for c in out:
        if not is_card(c):
            raise ValueError("not a card number in %s: %r (0..51)" % (what, c))
    return out


def card(text):
    """'Td' -> 22. ValueError naming the text when it is not a card."""
    if type(text) is str and len(text) == 2:
        r = RANKS.find(text[0])
        s = SUITS.find(text[1])
        if r >= 0 and s >= 0:
            return s * 13 + r
    raise ValueError("not a card: %r (rank A23456789TJQK then suit shdc, e.g. Td)" % (text,))


def card_text(c):
    """22 -> 'Td'. ValueError for anything but an int 0..51."""
    if not is_card(c):
        raise ValueError("not a card number: %r (0..51)" % (c,))
    return RANKS[c % 13] + SUITS[c // 13]


def cards(text):
    """'As 2s 3s' -> [0, 1, 2]; accepts any whitespace or commas between cards."""
    if type(text) is not str:
        raise ValueError("cards takes card notation text such as 'As 2s 3s', not %r" % (text,))
    out = []
    for word in text.replace(",", " ").split():
        out.append(card(word))
    return out


def cards_text(cs):
    """[0, 1, 2] -> 'As 2s 3s' (in the given order)."""
    return " ".join([card_text(c) for c in card_list(cs)])


def value(c):
    """R1 deadwood value of one card."""
    if not is_card(c):
        raise ValueError("not a card number: %r (0..51)" % (c,))
    return CARD_VALUE[c]


def rank(c):
    return c % 13


def suit(c):
    return c // 13
