"""How well the hard AI's card model knows the opponent's hand.

    .venv/bin/python -m tools.ailab.model_calibration --b simple,greedy-gin [--matches 30] [--seed 7001] [--a hard@model.t_union=0]

Plays seat-balanced matches of A (a hard player, tuning fields allowed as
in tools/ailab/panel.py) against each B. At each of A's draw decisions it holds
the card model (engine/ai/model.py) against the opponent's real hand:

* per unseen card, the chance that the opponent holds it (po): log loss,
  Brier score and a calibration table (predicted against held, by tenths);
* per card of A's hand, the chance that the opponent holds a pair that
  melds it (feed(), the danger charge's chance): log loss and a table by
  sixteenths.

Lower log loss is better; "no evidence" is the same model without the
opponent's discards, passes and pickups, for scale. A tool, not a test:
what it prints is a measurement of the model on whole games.

    .venv/bin/python -m tools.ailab.model_calibration --fit --b simple [--matches 30] [--seed 7001]

--fit asks whether more could be read from what the opponent showed: a
logistic regression of "it holds a pair that melds this card" on the
model's pair chance (its logit) and on FEATURES (the card's value, the
opponent's last two discards, the stock, its discards and pickups this
hand), fitted on the matches of --seed and scored on as many others
(seed + 92000). It prints the test log loss of the model as it is, of the
model recalibrated (its logit alone) and of the model with the features.
"""
import argparse
import math
import sys

from engine import CARDEMS
from engine.ai.know import PH_DRAW
from engine.ai.model import CardModel
from engine.cards import CARD_VALUE, NO_CARD
from engine.melds import masks_of
from tools.ailab import arena, bots

CLIP = 0.002        # chances are clipped to [CLIP, 1 - CLIP] for the log loss
FEATURES = ("card value", "last discard's value", "card above it", "stock",
            "discards", "rank of the one before", "card above that", "pickups")
TEST_SEED = 92000   # --fit: the test matches' seeds are the training seeds + this


def loss(p, y):
    p = min(max(p, CLIP), 1 - CLIP)
    return -math.log(p if y else 1 - p)


def holds_pair(held, c):
    """Does the set `held` hold two cards that make a meld with card c?"""
    return bots.makes_meld(masks_of(list(held)), c)


def our_cards(k):
    """The cards (0-51) of our hand in Know k."""
    for s in range(4):
        x = k.mine[s]
        for r in range(13):
            if (x >> r) & 1:
                yield s * 13 + r


def _bin(bins, p, y):
    """Count a chance p and its outcome y in the table `bins` (equal widths)."""
    b = bins[min(len(bins) - 1, int(p * len(bins)))]
    b[0] += 1
    b[1] += p
    b[2] += y


class Tally:
    def __init__(self):
        self.card = [0.0, 0.0, 0]            # log loss, Brier, n
        self.card_bins = [[0, 0.0, 0] for _ in range(10)]   # n, sum p, held
        self.pair = [0.0, 0]
        self.pair_bins = [[0, 0.0, 0] for _ in range(16)]

    def add_model(self, model, k, held, rows=None):
        """Count the model's chances at this decision against `held`, the
        opponent's cards; with `rows`, also add a pair_row per card of ours."""
        for i in range(model.un):
            c = model.ul[i]
            p = model.po[c] / 256.0
            y = c in held
            self.card[0] += loss(p, y)
            self.card[1] += (p - y) ** 2
            self.card[2] += 1
            _bin(self.card_bins, p, y)
        for c in our_cards(k):
            model.feed(k, c)
            p = model.f_p / 256.0
            y = holds_pair(held, c)
            self.pair[0] += loss(p, y)
            self.pair[1] += 1
            _bin(self.pair_bins, p, y)
            if rows is not None:
                rows.append(pair_row(k, c, p, y))


def pair_row(k, c, p, y):
    """--fit's row for our card c, p the model's chance (0-1) that the
    opponent holds a pair that melds it, y whether it does: [1, the logit
    of p, FEATURES..., y]."""
    vl = CARD_VALUE[k.olast] if k.olast != NO_CARD else 10
    vp = min(k.oprev_rank + 1, 10)
    p = min(max(p, 0.01), 0.99)
    v = CARD_VALUE[c]
    return [1.0, math.log(p / (1 - p)), v / 10.0, vl / 10.0, float(v > vl + 1),
            k.stock / 31.0, k.odn / 10.0, vp / 10.0, float(v > vp + 1),
            k.opp_took / 3.0, float(y)]


def run(a_spec, b_name, matches, seed, rows=None):
    """Returns (the model's Tally, the no-evidence model's Tally); with
    `rows`, also adds the model's pair_row rows to it."""
    with_ev = Tally()
    without = Tally()
    bare = CardModel()
    for i in range(matches):
        for a_seat in (0, 1):
            a = bots.make(a_spec, seed + i)
            b = bots.make(b_name, seed + 7919 * i + 1)
            for f in ("t_union", "t_nd", "t_np", "t_nt"):
                setattr(bare, f, getattr(a.model, f))
            players = [b, b]
            players[a_seat] = a

            def watch(m, s, a=a, a_seat=a_seat):
                k = a.k
                if s == a_seat and k.phase == PH_DRAW:
                    held = set(m.hand.cards_of(1 - a_seat))
                    with_ev.add_model(a.model, k, held, rows)
                    bare.fill(k, False)
                    without.add_model(bare, k, held)
            arena.play_match(CARDEMS, seed + i, players[0], players[1], [], [], watch=watch)
    return with_ev, without


def _sig(z):
    return 1.0 / (1.0 + math.exp(-z)) if z > -30 else 0.0


def logistic(rows, cols, iters=10, ridge=1e-3):
    """Weights of a logistic regression of each row's last field on the
    fields `cols` (Newton steps, a small ridge for the singular cases)."""
    n = len(cols)
    w = [0.0] * n
    for _ in range(iters):
        g = [0.0] * n
        h = [[ridge * (i == j) for j in range(n)] for i in range(n)]
        for row in rows:
            x = [row[c] for c in cols]
            p = _sig(sum(w[i] * x[i] for i in range(n)))
            e = p - row[-1]
            q = p * (1 - p)
            for i in range(n):
                g[i] += e * x[i]
                qi = q * x[i]
                hi = h[i]
                for j in range(i + 1):
                    hi[j] += qi * x[j]
        for i in range(n):
            for j in range(i):
                h[j][i] = h[i][j]
        step = _solve(h, g)
        w = [w[i] - step[i] for i in range(n)]
    return w


def _solve(a, b):
    """x with a x = b (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [a[i][:] + [b[i]] for i in range(n)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def log_loss(rows, cols, w):
    return sum(loss(_sig(sum(w[i] * row[c] for i, c in enumerate(cols))), row[-1])
               for row in rows) / max(1, len(rows))


def fit_report(a_spec, b_name, matches, seed, out=sys.stdout):
    """--fit: train on `matches` at `seed`, test on as many at seed + TEST_SEED.
    Returns the three test log losses (model, recalibrated, with the features)."""
    train = []
    test = []
    run(a_spec, b_name, matches, seed, train)
    run(a_spec, b_name, matches, seed + TEST_SEED, test)
    plain = log_loss(test, [1], [1.0])
    cols = [0, 1]
    recal = log_loss(test, cols, logistic(train, cols))
    cols = list(range(len(FEATURES) + 2))
    w = logistic(train, cols)
    full = log_loss(test, cols, w)
    out.write("%s vs %s: pair held, %d chances to fit, %d to test\n" % (a_spec, b_name, len(train), len(test)))
    out.write("  test log loss: the model %.4f  recalibrated %.4f  with the features %.4f\n" % (
        plain, recal, full))
    out.write("  weights: %s\n" % ", ".join(
        "%s %+.2f" % (n, x) for n, x in zip(("1", "the model's logit") + FEATURES, w)))
    return plain, recal, full


def report(a_spec, b_name, t, bare, out=sys.stdout):
    n = max(1, t.card[2])
    npair = max(1, t.pair[1])
    out.write("%s vs %s: %d card chances, %d pair chances\n" % (a_spec, b_name, t.card[2], t.pair[1]))
    out.write("  card held:  log loss %.4f (no evidence %.4f)  Brier %.4f (%.4f)\n" % (
        t.card[0] / n, bare.card[0] / n, t.card[1] / n, bare.card[1] / n))
    out.write("  pair held:  log loss %.4f (no evidence %.4f)\n" % (
        t.pair[0] / npair, bare.pair[0] / npair))
    out.write("  card: predicted -> held (n)\n   ")
    out.write("  ".join("%.2f->%.2f (%d)" % (b[1] / b[0], b[2] / b[0], b[0]) for b in t.card_bins if b[0]))
    out.write("\n  pair: predicted -> held (n)\n   ")
    out.write("  ".join("%.2f->%.2f (%d)" % (b[1] / b[0], b[2] / b[0], b[0]) for b in t.pair_bins if b[0]))
    out.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="hard")
    ap.add_argument("--b", default="simple,greedy-gin")
    ap.add_argument("--matches", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7001)
    ap.add_argument("--fit", action="store_true",
                    help="fit the pair chance on more features (see the docstring)")
    args = ap.parse_args(argv)
    if not args.a.startswith("hard"):
        ap.error("--a must be the hard level (the only one with the card model's evidence)")
    for b in args.b.split(","):
        if args.fit:
            fit_report(args.a, b, args.matches, args.seed)
            continue
        t, bare = run(args.a, b, args.matches, args.seed)
        report(args.a, b, t, bare)


if __name__ == "__main__":
    main()
