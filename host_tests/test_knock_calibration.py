"""tools/knock_calibration.py (CPython only: a tool, not a portable engine
test): every knock decision played out both ways, its table by the stock
left and by the undercut risk."""
import io
from types import SimpleNamespace

from engine.cards import cards
from engine.ai.opp_shape import D_BUCKETS
from engine.ai.opp_tables import D_MEAN
from tools import knock_calibration as kc

HAND = "As 2s 3s 5h 6h 7h 9d Td Jd 4c Kc"     # less the Kc: 4 deadwood


def test_undercut_risk_is_the_prior_share_at_or_below_our_deadwood():
    c = cards("Kc")[0]
    pr = [0] * D_BUCKETS
    pr[0] = 255                                 # it holds gin: any knock is undercut
    assert kc.undercut_risk(SimpleNamespace(pr=pr), cards(HAND), c) == 100
    pr = [0] * D_BUCKETS
    pr[D_BUCKETS - 1] = 255                     # it holds far more than 4
    assert kc.undercut_risk(SimpleNamespace(pr=pr), cards(HAND), c) == 0
    low = [j for j in range(D_BUCKETS) if D_MEAN[j] <= 4]
    high = [j for j in range(D_BUCKETS) if D_MEAN[j] > 4]
    pr = [0] * D_BUCKETS
    pr[low[-1]] = 85
    pr[high[0]] = 170
    assert abs(kc.undercut_risk(SimpleNamespace(pr=pr), cards(HAND), c) - 100 / 3) < 1e-9


def test_calibration_rows_and_their_tables():
    rows = kc.run("greedy-gin", 2, 7)
    assert rows
    for left, ek, en, k, n, knocked, risk in rows:
        assert left > 0
        assert isinstance(k, int) and isinstance(n, int)
        assert 0 <= risk <= 100
        assert knocked in (True, False)
    out = io.StringIO()
    kc.summary("greedy-gin", rows, out)
    text = out.getvalue()
    counts = {}
    for line in text.splitlines()[2:]:
        name = line[:14].strip()
        counts[name] = int(line[14:20])
    assert counts["all"] == len(rows)
    # the stages and the risk bands each split the decisions between them
    assert sum(v for n, v in counts.items() if n.startswith("stock")) == len(rows)
    assert sum(v for n, v in counts.items() if n.startswith("risk")) == len(rows)
