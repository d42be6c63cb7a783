"""tools/ailab/info_value.py (CPython only: a tool, not a portable engine test):
the hard AI with its card model overwritten by the opponent's real hand."""
import io
import contextlib

import pytest

from engine import Match, CARDEMS
from engine.ai import Player
from tools.ailab import arena
from tools.ailab import info_value as iv


def _decide_once(channel):
    """A hard player in seat 0 of a fresh match, its model overwritten as
    `channel` says, after its first decision: (player, the opponent's cards,
    the same decision's model as the view alone gives it)."""
    m = Match(CARDEMS, 5)
    p = Player("hard", 3)
    cur = {"m": m}
    iv.install(p, channel, 0, cur)
    assert m.to_move == 0
    p.choose(m.view(0))
    plain = Player("hard", 3)
    plain.choose(m.view(0))
    return p, set(m.hand.cards_of(1)), plain.model


@pytest.mark.parametrize("channel", ["truth", "held", "stock"])
def test_channels_overwrite_what_they_say(channel):
    p, held, plain = _decide_once(channel)
    md = p.model
    assert md.un == plain.un > 0
    assert any(md.ul[i] in held for i in range(md.un))
    for i in range(md.un):
        c = md.ul[i]
        truth = iv.P_HELD if c in held else 0
        if channel == "stock":
            assert md.po[c] == plain.po[c]
        else:
            assert md.po[c] == truth
        if channel == "held":
            assert md.ps[c] == plain.ps[c]
        else:
            assert md.ps[c] == 256 - truth
    assert md.ps_sum == sum(md.ps[md.ul[i]] for i in range(md.un))


def test_model_channel_is_the_arena():
    """The `model` row plays the arena's matches: same deals, seeds, moves."""
    got = iv.run_sequences(("hard", "simple", "model", 7, 9))
    want = arena.run_sequences(("hard", "simple", "cardems", 7, 9))
    for key in ("matches", "a_matches", "hands", "a_points", "a_gin", "b_knock", "a_undercut"):
        assert got[key] == want[key]
    assert 0 < got["b_upcards"] < got["b_draws"]


def test_report_and_bad_input():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        iv.main(["--matches", "2", "--jobs", "1", "--channels", "model,truth"])
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("hard vs simple, 2 matches")
    assert lines[1].startswith("model") and lines[2].startswith("truth")
    with pytest.raises(ValueError):
        iv.install(Player("hard", 1), "psychic", 0, {})
    with pytest.raises(SystemExit):
        iv.main(["--channels", "psychic"])
    with pytest.raises(ValueError):
        iv.run_sequences(("simple", "simple", "truth", 1, 2))
