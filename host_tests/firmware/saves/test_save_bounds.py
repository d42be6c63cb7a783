"""Bounded counters saturate: a save the game accepts never leads, by legal
play, to a save it refuses. The statistics' counters (and the hand
reviews' figures kept with them) stop at their maximum instead of going
over it."""

import random

from hypothesis import given
from hypothesis import strategies as hs

import engine
from engine.ai import Player
from firmware.saves import gamesave
from firmware.stats import BEST_HAND_MAX, COUNT_MAX, Stats


def _stats_at_bounds(which, won_share):
    """Statistics that add up with the counters in `which` at COUNT_MAX."""
    s = Stats()
    top = COUNT_MAX
    if "hands" in which:
        s.hands = top
        s.draws = top // 7
        s.hands_won = (top - s.draws) * won_share // 100
        s.gins = s.hands_won // 3
        s.undercuts = s.hands_won // 5
        s.knocks = s.hands_won - s.gins - s.undercuts
        s.best_hand = BEST_HAND_MAX if s.hands_won else 0
    if "won" in which:
        s = Stats()
        s.hands = top
        s.hands_won = top
        s.knocks = top
        s.best_hand = BEST_HAND_MAX
    if "matches" in which:
        s.matches = top
        s.matches_won = top if "won" in which else top // 2
    if "reviews" in which:
        s.matches = max(s.matches, 5)
        s.review_matches = s.matches
        s.reviewed = top
        s.review_cost = top
        s.review_avg = top
    s.check()
    return s


def _play_hand(m, players):
    """Play legal moves until the current hand ends."""
    if m.phase == "hand_over":
        m.next_hand()
    while m.phase not in ("hand_over", "match_over"):
        s = m.to_move
        assert m.act(players[s].choose(m.view(s))) is None


@given(which=hs.sets(hs.sampled_from(("hands", "won", "matches", "reviews")), min_size=1),
       won_share=hs.integers(0, 100), seed=hs.integers(0, 1 << 29),
       hands=hs.integers(1, 3), review=hs.tuples(hs.integers(1, 60), hs.integers(0, 16 * 500)))
def test_a_save_with_counters_at_their_bound_plays_on_and_loads_again(
        which, won_share, seed, hands, review):
    stats = _stats_at_bounds(which, won_share)
    m = engine.Match(seed=seed)
    payload = gamesave.encode(stats, m)
    game = gamesave.decode(payload)                 # the game accepts it
    stats, m = game.stats, game.match
    players = (Player("easy", seed), Player("easy", seed + 1))
    for _ in range(hands):
        _play_hand(m, players)
        stats.record_hand(m.results[-1])
        if m.end is not None:
            stats.record_match(m.end)
            stats.record_review(*review)
        payload = gamesave.encode(stats, m)
        back = gamesave.decode(payload)             # ... and what play makes of it
        assert back.stats.encode() == stats.encode()
        if m.end is not None:
            break
    stats.record_review(*review)                    # a review counted at any time
    gamesave.decode(gamesave.encode(stats, None))


def test_each_counter_stops_at_its_maximum():
    s = _stats_at_bounds({"won", "matches", "reviews"}, 100)
    before = s.encode()

    class Won:
        winner = 0
        kind = "gin"
        points = 25

    s.record_hand(Won())
    s.record_match(Won())
    s.record_review(10, 16 * 10)
    assert (s.hands, s.hands_won, s.matches, s.matches_won, s.reviewed,
            s.review_cost, s.review_matches) == (COUNT_MAX,) * 7
    s.check()
    assert s.encode() == before == Stats.decode(before).encode()


def test_counters_below_the_bound_still_count_exactly():
    s = Stats()
    s.hands = COUNT_MAX - 1

    class Drawn:
        winner = None
        kind = "draw"
        points = 0

    s.record_hand(Drawn())
    assert (s.hands, s.draws) == (COUNT_MAX, 1)
    s.record_hand(Drawn())                          # at the bound: nothing more counted
    assert (s.hands, s.draws) == (COUNT_MAX, 1)
    s.check()
    r = random.Random(1)
    t = Stats()
    for _ in range(50):
        n = r.randrange(1, 40)
        t.matches += 1
        t.record_review(n, r.randrange(0, 16 * 40))
    t.check()
    assert t.review_matches == 50


def test_the_review_figures_stay_small_ints_at_their_bound():
    from firmware.stats import per_decision

    for cost, n in ((COUNT_MAX, COUNT_MAX), (COUNT_MAX, 1), (COUNT_MAX, 1000),
                    ((1 << 23) - 1, 7), (480, 20), (0, 5), (5, 0)):
        v = per_decision(cost, n)
        assert 0 <= v < (1 << 30)
        if n and cost * 100 < (1 << 30):
            assert v == (cost * 100 + 8 * n) // (16 * n)
        elif n:
            exact = cost * 100 / (16 * n)
            assert abs(v - exact) <= max(2, exact / 1000) or v == COUNT_MAX // 100 * 100
