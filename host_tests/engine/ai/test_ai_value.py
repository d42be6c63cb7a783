"""The hard AI's hand value (engine/ai/evaluate.py, evaluate_sets.py)
against the brute force in host_tests/reference.py.

value10 values a 10-card hand by its deadwood less the expected gain of one
more stock draw and the best discard. Its fast paths (per-suit run tables,
the ways to take sets listed once and grouped by suit, a formula for cards
that join no meld) must give, for every unseen card, the exact lowest
deadwood after drawing it and discarding the best card: here that is
worked out by enumerating every discard and every meld arrangement.
"""

from hypothesis import given, example, settings, HealthCheck, strategies as st

from engine.ai.evaluate import Evaluator
from engine.ai.evaluate_sets import GIN_VALUE

import reference as ref

SLOW = settings(deadline=None, max_examples=40,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class Model:
    """The parts of CardModel that value10 reads: the unseen cards (ul,
    un) and each one's weight as the next stock card (ps, ps_sum)."""

    def __init__(self, unseen, weights):
        self.ul = bytearray(52)
        for i, u in enumerate(unseen):
            self.ul[i] = u
        self.un = len(unseen)
        self.ps = [0] * 52
        for u, w in zip(unseen, weights):
            self.ps[u] = w
        self.ps_sum = max(1, sum(weights))


def melds_with(hand, u):
    """R5: can card u make a meld with cards of `hand`? (two of its rank, or
    three in a row of its suit with it)."""
    hs = set(hand)
    if sum(1 for c in hand if ref.rank(c) == ref.rank(u)) >= 2:
        return True
    s, r = ref.suit(u), ref.rank(u)
    for lo in (r - 2, r - 1, r):
        if lo >= 0 and lo + 2 <= 12 and all(s * 13 + q in hs or q == r for q in range(lo, lo + 3)):
            return True
    return False


def lowest_after_draw(hand, u):
    """The lowest deadwood after drawing u into hand and discarding one card."""
    cs = list(hand) + [u]
    return min(ref.min_deadwood(cs[:i] + cs[i + 1:]) for i in range(len(cs)))


@st.composite
def hands_with_sets(draw):
    """A 10-card hand holding one to three ranks three or four times (or,
    now and then, none), mixed with run material; then a random set of
    unseen cards among the other 42, with random stock weights."""
    deck = list(range(52))
    hand = []
    for r in draw(st.lists(st.integers(0, 12), min_size=0, max_size=3, unique=True)):
        n = draw(st.sampled_from([3, 4]))
        suits = draw(st.permutations([0, 1, 2, 3]))[:n]
        for s in suits:
            if len(hand) < 10:
                hand.append(s * 13 + r)
    rest = [c for c in deck if c not in hand]
    # the rest near the hand's cards, so runs cross the sets
    near = [c for c in rest if any(c // 13 == h // 13 and abs(c % 13 - h % 13) <= 2 for h in hand)]
    pool = near if len(near) >= 10 - len(hand) and draw(st.booleans()) else rest
    hand += draw(st.lists(st.sampled_from(pool), min_size=10 - len(hand),
                          max_size=10 - len(hand), unique=True))
    others = [c for c in deck if c not in hand]
    unseen = draw(st.lists(st.sampled_from(others), min_size=1, max_size=31, unique=True))
    weights = draw(st.lists(st.integers(1, 256), min_size=len(unseen), max_size=len(unseen)))
    lam = draw(st.sampled_from([16, 56]))
    gin_w = draw(st.sampled_from([0, 256, 1000]))
    return hand, unseen, weights, lam, gin_w


@SLOW
@given(hands_with_sets())
@example(([5, 7, 18, 20, 31, 33, 44, 46, 39, 41],            # 6s and 8s four times
          [0, 1, 3, 4, 6, 8, 9, 19, 32, 45, 40, 42, 50], [100] * 13, 56, 256))
@example(([6, 19, 32, 45, 7, 20, 33, 8, 21, 34],             # 7777 888 999
          [5, 9, 18, 22, 31, 35, 46, 47], [7, 50, 9, 200, 33, 1, 256, 128], 16, 1000))
def test_value10_is_the_brute_force_expectation(case):
    hand, unseen, weights, lam, gin_w = case
    model = Model(unseen, weights)
    ev = Evaluator(model, True)
    ev.lam = lam
    ev.gin_w = gin_w
    h = [0, 0, 0, 0]
    for c in hand:
        h[c // 13] |= 1 << (c % 13)
    got = ev.value10(h)
    dw = ref.min_deadwood(hand)
    if dw == 0:
        assert got == GIN_VALUE and ev.v1 == 0
        return
    gm = gs = gp = gn = 0
    for u, w in zip(unseen, weights):
        e = lowest_after_draw(hand, u)
        if melds_with(hand, u):
            gm += w * (dw - e)
            if e == 0:
                gp += w
                gn += 1
        else:
            gs += w * (dw - e)
    sps = model.ps_sum
    gm16 = gm * 16 // sps
    gs16 = gs * 16 // sps
    assert (ev.v1, ev.g_ps, ev.g_n) == (dw * 16 - gm16 - gs16, gp, gn), ref.hand_text(hand)
    assert got == dw * 16 - gs16 - lam * gm16 // 16 - gin_w * gp // sps, ref.hand_text(hand)
    assert h == [sum(1 << (c % 13) for c in hand if c // 13 == s) for s in range(4)]
