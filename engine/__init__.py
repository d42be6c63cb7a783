"""Gin Rummy engine: Cardems rules (R1-R14), variants, records and saves.

Plain Python for CPython and MicroPython; imports nothing outside engine/.
"""
from .cards import card, card_text, cards, cards_text, value, is_card, NO_CARD
from .melds import masks_of, deadwood4, best_discard4, best_arrangements
from .rules import Rules, CARDEMS, CLASSIC, OKLAHOMA, BONUS, PRESETS, preset
from .rng import Rng, deck_for, fingerprint, fingerprint_text
from .showdown import Outcome, settle
from .hand import Hand, HandResult, action_code, action_text
from .match import Match, MatchEnd
from .view import View
from .save import dumps, loads, SaveError


# The game record's writer (engine/record.py, with engine/record_format.py)
# loads when the first record is written, at a hand's end, not at start:
# on the .mpy bundle a module's code sits on the heap, and the first save
# of a match comes before any record.
def record_text(match):
    """The match so far as a game record (engine/record.py)."""
    from .record import record_text as text
    return text(match)


def write_record(match, write):
    """Stream the match's game record to write(str) (engine/record.py)."""
    from .record import write_record as out
    out(match, write)


def replay(text, on_move=None):
    """Rebuild a match from a game record; ValueError naming the line that
    fails (engine/record_read.py)."""
    from .record_read import replay as again
    return again(text, on_move)


def best_melds(cards):
    """(deadwood, melds) of 0..11 distinct card ints: the lowest-deadwood
    non-overlapping arrangement (R5). Melds are lists of card ints."""
    m = masks_of(cards, "best_melds' cards")
    if len(cards) > 11:
        raise ValueError("best_melds takes 0..11 cards, not %d" % len(cards))
    dw, arrs = best_arrangements(m)
    return dw, [list(ml) for ml in arrs[0]]


def best_discard(cards, forbidden=None):
    """(deadwood, card) for 11 card ints: the discard leaving the lowest
    deadwood, never `forbidden` (R4). Ties: the higher deadwood value, then
    the lower card (RULES.md)."""
    m = masks_of(cards, "best_discard's cards")
    if len(cards) != 11:
        raise ValueError("best_discard takes 11 cards, not %d" % len(cards))
    if forbidden is not None:
        if not is_card(forbidden):
            raise ValueError("forbidden must be a card number 0..51 or None, not %r" % (forbidden,))
        if forbidden not in cards:
            raise ValueError("forbidden card %s is not among the cards" % card_text(forbidden))
    x = best_discard4(m, NO_CARD if forbidden is None else forbidden)
    return x >> 6, x & 63
