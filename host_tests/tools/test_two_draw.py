"""tools/ailab/two_draw.py (CPython only: a tool, not a portable engine test): the
hard AI's discard re-ranked by the value one stock draw later."""
import io
import contextlib

import pytest

import engine

from engine import CARDEMS
from engine.ai import Player
from engine.melds import masks_of
from tools.ailab import arena
from tools.ailab import two_draw as td


def _discards(seed, limit=60):
    """Seat 0's discard positions (saved matches) along one match of two
    plain hard players, played by the arena's own loop."""
    out = []

    def watch(m, s):
        if s == 0 and m.phase == "discard" and len(out) < limit:
            out.append(engine.dumps(m))

    arena.play_match(CARDEMS, seed, Player("hard", 1), Player("hard", 2), [], [],
                     watch=watch)
    return out


def test_off_is_the_arena_and_counts_calls():
    got = td.run_sequences(("hard", "simple", "off:16", 7, 9))
    want = arena.run_sequences(("hard", "simple", "cardems", 7, 9))
    for key in ("matches", "a_matches", "hands", "a_points", "a_gin", "b_knock", "a_undercut"):
        assert got[key] == want[key]
    calls = got["a_calls"]
    assert len(calls) == len(got["a_times"]) and min(calls) >= 0 and max(calls) > 0


def test_after_draw_is_no_worse_than_throwing_the_draw_back():
    """Throwing the drawn card back keeps the hand: the value one draw later
    is at most the hand's value now, and the cheap pass (fewer draws and
    replies looked at) never finds more than the full one."""
    m = engine.loads(_discards(11)[3])    # seat 0's fourth discard
    p = Player("hard", 1)
    full = td.TwoDraw(p, "full", 16, [])
    p.choose(m.view(0))        # fills the model and the evaluator for this view
    hand = masks_of(m.hand.cards_of(0))
    h = list(hand)
    s, bit, _ = next(td.cards_of(h))
    h[s] ^= bit                # a 10-card hand
    now = full.plain_value10(list(h))
    rel = [0, 0, 0, 0]
    for _, _, c in td.cards_of(hand):
        td.partners(c, rel)
    got_full = full.after_draw(list(h))
    full.mode = "cheap"
    got_cheap = full.after_draw(list(h), rel)
    assert got_full <= now
    assert got_full <= got_cheap <= now


def test_the_re_ranking_changes_some_discards_and_each_is_legal():
    """Along a match of plain hard players, seat 0's discards asked of
    the tool's players on the same views: off plays a fresh hard player's
    move, full and
    cheap play legal discards (never the card just taken, R4), and the
    re-ranking changes some of them."""
    changed = {"full": 0, "cheap": 0}
    calls = {"full": [], "cheap": []}
    asked = 0
    for saved in _discards(31):
        v = engine.loads(saved).view(0)
        asked += 1
        plain = Player("hard", 1).choose(v)
        assert td.TwoDraw(Player("hard", 1), "off", 16, []).choose(v) == plain
        for mode in changed:
            got = td.TwoDraw(Player("hard", 1), mode, 16, calls[mode]).choose(v)
            assert got.startswith(("discard:", "knock:"))
            assert engine.loads(saved).act(got) is None
            if got != plain:
                changed[mode] += 1
    assert asked >= 20
    assert changed["full"] > 0 and changed["cheap"] > 0
    # the full pass looks at more than the cheap one
    assert sum(calls["full"]) > sum(calls["cheap"]) > asked


def test_partners():
    rel = [0, 0, 0, 0]
    td.partners(13 + 4, rel)           # the 5 of the second suit
    assert rel[1] == (1 << 2) | (1 << 3) | (1 << 5) | (1 << 6)
    assert rel[0] == rel[2] == rel[3] == 1 << 4


def test_report_and_bad_input():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        td.main(["--b", "simple", "--matches", "2", "--jobs", "1", "--modes", "off,cheap"])
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("hard vs simple, 2 matches")
    assert lines[1].startswith("off") and lines[2].startswith("cheap")
    with pytest.raises(ValueError):
        td.TwoDraw(Player("hard", 1), "psychic", 16, [])
    with pytest.raises(ValueError):
        td.run_sequences(("simple", "simple", "full:16", 1, 2))
    with pytest.raises(SystemExit):
        td.main(["--modes", "psychic"])
