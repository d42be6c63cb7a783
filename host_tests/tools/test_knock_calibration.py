"""tools/ailab/knock_calibration.py (CPython only: a tool, not a portable engine
test): every knock decision played out both ways, its table by the stock
left and by the undercut risk."""
import io
from types import SimpleNamespace

from engine.cards import cards
from engine.ai.opp_shape import D_BUCKETS, LOW, TOP, d_bucket
from tools.ailab import knock_calibration as kc

HAND = "As 2s 3s 5h 6h 7h 9d Td Jd 4c Kc"     # less the Kc: 4 deadwood


def test_undercut_risk_is_the_prior_share_at_or_below_our_deadwood():
    c = cards("Kc")[0]
    pr = [0] * D_BUCKETS
    pr[0] = 255                                 # it holds gin: any knock is undercut
    assert kc.undercut_risk(SimpleNamespace(pr=pr), cards(HAND), c) == 100
    pr = [0] * D_BUCKETS
    pr[D_BUCKETS - 1] = 255                     # it holds far more than 4
    assert kc.undercut_risk(SimpleNamespace(pr=pr), cards(HAND), c) == 0
    pr = [0] * D_BUCKETS
    pr[d_bucket(4)] = 85                        # a bucket ending at 4 ...
    pr[d_bucket(4) + 1] = 170                   # ... and the one above it
    assert TOP[d_bucket(4)] == 4
    assert abs(kc.undercut_risk(SimpleNamespace(pr=pr), cards(HAND), c) - 100 / 3) < 1e-9
    # a bucket that straddles our deadwood counts in part, as the estimate
    # counts it: 3 deadwood against the bucket 3-4 is half of it
    three = HAND.replace("4c", "3c")
    j = d_bucket(3)
    assert (LOW[j], TOP[j]) == (3, 4)
    pr = [0] * D_BUCKETS
    pr[j] = 255
    assert abs(kc.undercut_risk(SimpleNamespace(pr=pr), cards(three), c) - 50) < 1e-9


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
