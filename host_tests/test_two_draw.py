"""tools/two_draw.py (CPython only: a tool, not a portable engine test): the
hard AI's discard re-ranked by the value one stock draw later."""
import io
import contextlib

import pytest

import engine

from engine import Match, CARDEMS
from engine.ai import Player
from engine.melds import masks_of
from tools import arena
from tools import two_draw as td


def _match_at_discard(seed):
    """A match played by two plain hard players until seat 0 holds 11
    cards in the middle of a hand (its fourth discard)."""
    m = Match(CARDEMS, seed)
    ps = (Player("hard", 1), Player("hard", 2))
    seen = 0
    while True:
        if m.phase == "hand_over":
            m.next_hand()
            continue
        v = m.view(m.to_move)
        if m.to_move == 0 and m.phase == "discard":
            seen += 1
            if seen == 4:
                return m
        assert m.act(ps[m.to_move].choose(v)) is None


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
    m = _match_at_discard(11)
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
    the tool's players on the same views: off plays hard's move, full and
    cheap play legal discards (never the card just taken, R4), and the
    re-ranking changes some of them."""
    m = Match(CARDEMS, 31)
    ps = (Player("hard", 1), Player("hard", 2))
    changed = {"full": 0, "cheap": 0}
    calls = {"full": [], "cheap": []}
    asked = 0
    while m.phase != "match_over" and asked < 60:
        if m.phase == "hand_over":
            m.next_hand()
            continue
        s = m.to_move
        v = m.view(s)
        act = ps[s].choose(v)
        if s == 0 and m.phase == "discard":
            asked += 1
            assert td.TwoDraw(Player("hard", 1), "off", 16, []).choose(v) == Player("hard", 1).choose(v)
            for mode in changed:
                got = td.TwoDraw(Player("hard", 1), mode, 16, calls[mode]).choose(v)
                assert got.startswith(("discard:", "knock:"))
                assert engine.loads(engine.dumps(m)).act(got) is None
                if got != act:
                    changed[mode] += 1
        assert m.act(act) is None
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
