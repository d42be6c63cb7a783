"""tools/ailab/decision_audit.py (CPython only: a tool, not a portable engine
test): paired play-outs of the hard AI's decisions."""
import io

from engine import CARDEMS, Match
from tools.ailab import arena, bots
from tools.ailab import decision_audit as da
from tools.ailab.knock_calibration import counterfactual


def _mid_hand(seed=5, moves=9):
    m = Match(CARDEMS, seed)
    players = (bots.make("simple", 1), bots.make("simple", 2))
    for _ in range(moves):
        s = m.to_move
        assert m.act(players[s].choose(m.view(s))) is None
    return m, players


def test_shuffled_stock_changes_only_the_stock_order():
    m, _ = _mid_hand()
    h = m.hand
    before = (list(h.masks), h.discard_cards(), h.stock_cards(), list(h.log))
    c = da.shuffled_stock(m, 12345)
    assert (list(h.masks), h.discard_cards(), h.stock_cards(), list(h.log)) == before   # original untouched
    ch = c.hand
    assert list(ch.masks) == before[0] and ch.discard_cards() == before[1]
    assert sorted(ch.stock_cards()) == sorted(before[2])
    assert ch.stock_cards() != before[2]
    assert da.shuffled_stock(m, 12345).hand.stock_cards() == ch.stock_cards()   # seeded


def test_play_outs_are_paired():
    # the same action from the same shuffled copy scores the same: the
    # bots and the match are copied, so nothing carries from one play-out
    # into the next
    m, players = _mid_hand()
    s = m.to_move
    a = players[s].choose(m.view(s))
    c = da.shuffled_stock(m, 7)
    first = counterfactual(c, list(players), s, a)
    assert counterfactual(c, list(players), s, a) == first
    assert m.phase in ("draw", "discard") and c.phase == m.phase   # copies were played, not these


def test_alternatives_by_kind():
    ranked = [("draw_stock", 10), ("draw_upcard", -4)]
    assert da.alternatives("draw_upcard", ranked) == [("draw", "draw_stock")]
    assert da.alternatives("draw_stock", ranked) == [("draw", "draw_upcard")]
    ranked = [("discard:Kh", 5), ("knock:Kh", 3), ("discard:Qs", 1), ("knock:Qs", -2)]
    assert da.alternatives("discard:Kh", ranked) == [("discard", "discard:Qs"), ("no knock", "knock:Kh")]
    assert da.alternatives("knock:Kh", ranked) == [("knock", "discard:Kh")]
    assert da.alternatives("discard:Kh", [("discard:Kh", 5), ("discard:Qs", 1)]) == [("discard", "discard:Qs")]


def test_the_audit_changes_no_move_and_reports_each_kind():
    # the audited matches are the arena's, move for move
    st = da.run_sequences(("hard", "simple", 1, 31, 32))
    plain = arena.run_sequences(("hard", "simple", "cardems", 31, 32))
    for key in ("a_matches", "a_points", "hands", "a_gin", "b_knock"):
        assert st[key] == plain[key]
    rows = st["rows"]
    kinds = {r[0] for r in rows}
    assert {"draw", "discard"} <= kinds <= set(da.KINDS)
    assert all(0 <= r[3] <= 31 for r in rows)
    out = io.StringIO()
    da.report(rows, out)
    text = out.getvalue()
    for kind in kinds:
        assert "\n" + kind + " " in text
    assert "gap" in text and "stock 25-31" in text
