"""tools/ailab/layoff_calibration.py (CPython only: a tool, not a portable engine
test): what the hard AI lays off at the opponent's knocks, and its
lay-off chances held against what happened."""
import io

from engine import Match, CARDEMS
from engine.ai import Player
from engine.ai.evaluate import LAYOFF
from engine.cards import cards
from tools.ailab import layoff_calibration as lc


def test_chances_follow_the_opponents_cards():
    """A card next to three suit neighbours the opponent is known to hold
    (it took them from the pile) lays off surely; one with nothing known
    around it hardly."""
    p = Player("hard", 1)
    m = Match(CARDEMS, 3)
    v = m.view(m.to_move)
    p.choose(v)
    k = p.k
    k.mine = [0, 0, 0, 0]
    for c in cards("9s Ks 2h"):
        k.mine[c // 13] |= 1 << (c % 13)
    k.oppk = [0, 0, 0, 0]
    for c in cards("6s 7s 8s"):
        k.oppk[c // 13] |= 1 << (c % 13)
    got = lc.chances(p)
    assert got[cards("9s")[0]] > 0.99
    assert got[cards("Ks")[0]] < 0.2 and got[cards("2h")[0]] < 0.2
    assert p.ev.t_lay == LAYOFF          # the player's own scale is left as it was


def test_tallies_and_report():
    t = lc.run("hard", "simple", 3, 11)
    assert t.knocks > 0
    assert t.before >= t.after >= 0 and t.knocker <= 10 * t.knocks
    n = sum(b[0] for b in t.bins)
    assert n > 0 and sum(b[2] for b in t.bins) <= n
    assert all(b[1] <= b[0] for b in t.bins)
    out = io.StringIO()
    lc.report("hard", "simple", t, out)
    text = out.getvalue()
    assert "before layoffs" in text and "laid off" in text and "->" in text
