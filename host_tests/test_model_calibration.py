"""tools/model_calibration.py (CPython only: a tool, not a portable engine
test): the card model held against the opponent's real hand."""
import io

from engine.cards import card
from tools import model_calibration as mc


def test_holds_pair_knows_sets_and_runs():
    held = {card(t) for t in "Kh Kd 8c 9c 3s".split()}
    assert mc.holds_pair(held, card("Ks")) and mc.holds_pair(held, card("Kc"))
    assert mc.holds_pair(held, card("7c")) and mc.holds_pair(held, card("Tc"))
    assert not mc.holds_pair(held, card("Jc"))      # 9c Tc would be needed
    assert not mc.holds_pair(held, card("8d"))      # one eight is no pair
    assert not mc.holds_pair(held, card("4s"))      # 3s alone
    held.add(card("5s"))
    assert mc.holds_pair(held, card("4s"))          # the gap: 3s 5s


def test_tallies_and_report():
    t, bare = mc.run("hard", "simple", 1, 11)
    assert t.card[2] == bare.card[2] > 0 and t.pair[1] == bare.pair[1] > 0
    assert sum(b[0] for b in t.card_bins) == t.card[2]
    assert sum(b[0] for b in t.pair_bins) == t.pair[1]
    assert 0 < t.card[0] / t.card[2] < 2 and 0 <= t.card[1] / t.card[2] <= 1
    assert sum(b[2] for b in t.card_bins) == sum(b[2] for b in bare.card_bins)   # same cards held
    out = io.StringIO()
    mc.report("hard", "simple", t, bare, out)
    text = out.getvalue()
    assert "log loss" in text and "no evidence" in text and "predicted -> held" in text
