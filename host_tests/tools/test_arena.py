"""tools/ailab/arena.py's tallies: the hand outcomes it counts are the ones the
matches' showdowns had (CPython only: the arena is a host tool)."""
import io

from engine import CARDEMS
from tools.ailab import arena, bots


def test_undercut_ties_are_the_undercuts_at_equal_deadwood():
    st = arena.new_stats()
    ties = [0, 0]
    undercuts = [0, 0]
    for seed in range(1, 5):
        for a_seat in (0, 1):
            p = [None, None]
            p[a_seat] = bots.make("hard", seed)
            p[1 - a_seat] = bots.make("simple", seed)
            m, unfinished = arena.play_match(CARDEMS, seed, p[0], p[1], [], [])
            arena.add_match(st, m, a_seat, unfinished)
            for r in m.results:
                if r.kind != "undercut":
                    continue
                side = 0 if r.winner == a_seat else 1
                undercuts[side] += 1
                o = r.outcome
                if o.defender_deadwood == o.knocker_deadwood:
                    ties[side] += 1
    assert (st["a_undercut"], st["b_undercut"]) == tuple(undercuts)
    assert (st["a_uc_tie"], st["b_uc_tie"]) == tuple(ties)
    assert undercuts[0] > ties[0] > 0, (undercuts, ties)   # hard undercuts `simple`, some at a tie
    out = io.StringIO()
    arena.report(st, "hard", "simple", "cardems", 1, out)
    line = [x for x in out.getvalue().splitlines() if "of which ties" in x][0]
    assert line.split()[-2:] == ["%.1f%%" % (100 * ties[0] / st["hands"]),
                                 "%.1f%%" % (100 * ties[1] / st["hands"])], line
