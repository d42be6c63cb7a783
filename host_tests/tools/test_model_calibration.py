"""tools/ailab/model_calibration.py (CPython only: a tool, not a portable engine
test): the card model held against the opponent's real hand."""
import io

from engine.cards import card
from tools.ailab import model_calibration as mc


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


def test_logistic_finds_the_weights_that_made_the_data():
    # rows [1, x, label] with P(label) = sigmoid(-1 + 2x) in expectation:
    # each x is repeated with labels in the proportion the weights give
    rows = []
    for i in range(21):
        x = i / 10.0 - 1.0
        p = mc._sig(-1.0 + 2.0 * x)
        ones = round(200 * p)
        rows += [[1.0, x, 1.0]] * ones + [[1.0, x, 0.0]] * (200 - ones)
    w = mc.logistic(rows, [0, 1])
    assert abs(w[0] + 1.0) < 0.05 and abs(w[1] - 2.0) < 0.05
    # the fitted weights score no worse than the true ones on their own data
    assert mc.log_loss(rows, [0, 1], w) <= mc.log_loss(rows, [0, 1], [-1.0, 2.0]) + 1e-9


def test_fit_report_scores_the_model_on_other_matches():
    out = io.StringIO()
    plain, recal, full = mc.fit_report("hard", "simple", 1, 11, out)
    text = out.getvalue()
    assert "test log loss" in text and all(n in text for n in mc.FEATURES)
    assert 0 < plain < 1 and 0 < recal < 1 and 0 < full < 1
    rows = []
    mc.run("hard", "simple", 1, 11, rows)
    assert rows and all(len(r) == len(mc.FEATURES) + 3 and r[-1] in (0.0, 1.0) for r in rows)
    t, _ = mc.run("hard", "simple", 1, 11)
    assert len(rows) == t.pair[1]           # a row per pair chance the tally counted
