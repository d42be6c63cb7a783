"""The AI's decisions run with MicroPython's heap locked (engine/ai/locked.py): what
the lock refuses is made again unlocked, with the same move.

Portable: plain functions and asserts, run by pytest on CPython (no lock
there: the calls go straight through) and by host_tests/runner.py on the
MicroPython unix and WebAssembly ports.
"""
from engine import Match, CARDEMS, record_text
from test_ai import run_match
from engine import compat
from engine.ai import Player

SHORT = CARDEMS.copy(target=40)


def _play(seed, spoil=0):
    """Hard (seat 0) against normal; with `spoil`, every spoil-th decision
    of hard's allocates after it is made (its state already changed), so
    the locked attempt fails and locked_decision makes it again unlocked.
    Returns (record, hard's unlocked count, spoiled decisions).
    On CPython (no lock) nothing is refused: the spoiled run is the plain
    one."""
    hard = Player("hard", seed)
    count = [0, 0]
    if spoil:
        real = hard._decide_first

        def decide(k, lv):
            code = real(k, lv)
            count[0] += 1
            if count[0] % spoil == 0:
                count[1] += 1
                return [code][0] + len([1, 2, 3]) - 3   # a new list: refused locked
            return code

        hard._decide_first = decide
    m = run_match(None, seed, players=(hard, Player("normal", seed + 1)))
    return record_text(m), hard.unlocked, count[1]


def test_a_decision_the_lock_refuses_is_made_again_with_the_same_move():
    for seed in (3, 8):
        plain, unlocked, _ = _play(seed)
        assert unlocked == 0
        spoiled, unlocked, n = _play(seed, spoil=3)
        assert n > 5
        assert spoiled == plain
        if compat.heap_lock is None:
            assert unlocked == 0
        else:
            assert 0 < unlocked <= n  # spoiled locked: made again unlocked


def test_an_error_in_a_decision_is_still_raised():
    # the locked attempt's handler must not swallow a real fault: made
    # again unlocked, it raises as it would have
    m = Match(SHORT, 5)
    p = Player("hard", 5)

    def broken(k, lv):
        raise ValueError("broken")

    p._decide_first = broken
    try:
        p.choose(m.view(m.to_move))
    except ValueError as e:
        assert str(e) == "broken"
    else:
        raise AssertionError("the error was swallowed")
    assert p.unlocked == (0 if compat.heap_lock is None else 1)
