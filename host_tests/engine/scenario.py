"""Helpers for scenario tests: hands written in card notation.

Plain Python (no pytest) so the same tests run on MicroPython too.
"""
from engine import cards, Hand, Match, CARDEMS, card


def deck(seat0, seat1, upcard, stock_top_first=""):
    """A 52-card deck dealing the given hands (R2 layout in engine/hand.py).

    `stock_top_first` lists the next stock cards, the first drawn first;
    the rest of the stock is every other card, in card order.
    """
    h0 = cards(seat0)
    h1 = cards(seat1)
    up = [card(upcard)]
    top = cards(stock_top_first)
    used = h0 + h1 + up + top
    assert len(h0) == 10 and len(h1) == 10
    assert len(set(used)) == len(used), "a card is dealt twice"
    rest = [c for c in range(52) if c not in used]
    stock = rest + list(reversed(top))     # deck[51] is drawn first
    return bytearray(h0 + h1 + up + stock)


def hand(seat0, seat1, upcard, stock_top_first="", rules=None, first=0):
    return Hand(rules or CARDEMS, deck(seat0, seat1, upcard, stock_top_first), first)


def match_with(seat0, seat1, upcard, stock_top_first="", rules=None, scores=None):
    """A match whose current hand is the one given (scores optional)."""
    m = Match(rules or CARDEMS, 1)
    m.hands[-1] = Hand(m.rules, deck(seat0, seat1, upcard, stock_top_first), 0)
    if scores:
        m.scores[0] = scores[0]
        m.scores[1] = scores[1]
    return m


def play(m, *actions):
    """Apply actions that must all be legal."""
    for a in actions:
        why = m.act(a)
        assert why is None, "%s refused: %s" % (a, why)


def raises(exc, fn, *args):
    """The call raises `exc`; returns its message."""
    try:
        fn(*args)
    except exc as e:
        return str(e)
    raise AssertionError("%s not raised" % exc.__name__)


def snapshot(m):
    h = m.hand
    return (h.cards_of(0), h.cards_of(1), h.stock_cards(), h.discard_cards(),
            m.phase, m.to_move, list(m.scores), h.taken, bytes(h.log))


def melds_text(melds):
    from engine import cards_text
    return sorted([cards_text(sorted(ml)) for ml in melds])
