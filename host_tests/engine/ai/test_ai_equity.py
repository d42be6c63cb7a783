"""The hard AI weighs a knock's outcomes by the match they leave (R12):
engine/ai/equity.py and its fitted table.

Portable: plain functions and asserts (pytest on CPython, host_tests/runner.py
on the MicroPython ports).
"""
from engine.ai import Player
from engine.ai.equity import Equity
from engine.ai.equity_table import EQ, CELLS
from test_ai_habit import position

FULL = 65535


def eq(a, b):
    """The table read directly (needs a, b x16; bilinear between its cells
    4 points apart): the reference Equity's knots must agree with."""
    if a <= 0:
        return FULL
    if b <= 0:
        return 0
    a = min(a, 1600)
    b = min(b, 1600)

    def cell(i, j):
        k = 2 * (min(i, CELLS - 1) * CELLS + min(j, CELLS - 1))
        return (EQ[k] << 8) | EQ[k + 1]

    i, fa = a // 64, a % 64
    j, fb = b // 64, b % 64
    top = cell(i, j) * (64 - fa) + cell(i + 1, j) * fa
    bot = cell(i, j + 1) * (64 - fa) + cell(i + 1, j + 1) * fa
    return (top * (64 - fb) + bot * fb) >> 12


def test_equity_is_even_at_equal_needs_and_moves_with_each_need():
    for need in (100, 60, 20, 4):
        e = eq(need * 16, need * 16)
        assert abs(e - FULL // 2) < FULL // 50, (need, e)
    for b in (100, 50, 10):
        last = FULL + 1
        for a in range(1, 101, 3):
            e = eq(a * 16, b * 16)
            assert e <= last, (a, b)          # needing more is never better
            last = e
    assert eq(0, 40 * 16) == FULL and eq(40 * 16, 0) == 0
    assert eq(10 * 16, 90 * 16) > FULL * 3 // 4


def test_equity_reads_the_table_along_both_lines():
    e = Equity()
    for mine, opp in ((0, 0), (37, 81), (90, 12), (99, 99), (50, 98)):
        e.set(mine, opp, 100)
        a = (100 - mine) * 16
        b = (100 - opp) * 16
        for v in range(-1700, 1701, 37):
            ref = eq(a - v, b) if v >= 0 else eq(a, b + v)
            assert abs(e.at(v) - ref) <= 2, (mine, opp, v, e.at(v), ref)
        assert e.e0 == e.at(0)


def test_a_point_is_a_point_at_the_start():
    e = Equity()
    e.set(0, 0, 100)
    for pts in (5, 10, 20):
        for v in (pts * 16, -pts * 16):
            u = e.u(v)
            assert abs(u - v) <= abs(v) // 5, (v, u)
    assert e.u(0) == 0


def test_points_past_the_target_are_worth_nothing():
    e = Equity()
    e.set(92, 50, 100)                        # we need 8
    assert e.u(10 * 16) == e.u(40 * 16)       # both win the match
    assert e.u(40 * 16) > e.u(5 * 16) > 0
    e.set(50, 95, 100)                        # the opponent needs 5
    assert e.u(-5 * 16) == e.u(-40 * 16)      # both lose it
    assert e.u(-4 * 16) > e.u(-5 * 16)


def test_a_longer_target_is_scaled_to_the_table():
    e = Equity()
    e.set(0, 0, 250)
    assert abs(e.e0 - FULL // 2) < FULL // 50
    e.set(200, 0, 250)
    assert e.e0 > FULL * 3 // 4


def _hard(t_eq=1):
    """Hard with its habit fixed on a quick knocker (T = 10)."""
    p = Player("hard")
    p.knock.t_eq = t_eq
    w = [1] * len(p.habit.w)
    w[len(w) - 1] = 4096 - len(w)
    p.habit.fix(w)
    p.habit.learn = lambda view, me: None
    return p


def test_a_knock_that_wins_the_match_is_taken():
    # Late, 1 deadwood, a quick knocker: at 0-0 hard plays on for the
    # undercut (test_ai_habit); needing 4 points, any knock that is not
    # undercut wins the match, an undercut's bonus is worth nothing more,
    # and hard knocks.
    m = position("As 2s 3s 5h 6h 7h 9d Td Jd Ac", 9, "Jc", "Kc")
    assert _hard().choose(m.view(1)).startswith("discard:")
    m.scores[1] = 96                          # hard is seat 1
    p = _hard()
    a = p.choose(m.view(1))
    assert a == "knock:Kc", (a, p.knock.ek, p.knock.en)
    assert p.knock.play_on_bias(p.k) == 0
    # weighed in points, the score changes nothing: it plays on
    assert _hard(0).choose(m.view(1)).startswith("discard:")


def test_at_the_start_the_match_changes_little():
    m = position("As 2s 3s 5h 6h 7h 9d Td Jd Ac", 9, "Jc", "Kc")
    p = _hard()
    p.choose(m.view(1))
    q = _hard(0)
    q.choose(m.view(1))
    for x, y in ((p.knock.ek, q.knock.ek), (p.knock.en, q.knock.en)):
        assert abs(x - y) <= 16 + abs(y) // 10, (x, y)
