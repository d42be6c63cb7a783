"""How well the hard AI's card model knows the opponent's hand.

    .venv/bin/python tools/model_calibration.py --b simple,greedy-gin [--matches 30] [--seed 7001] [--a hard@model.t_union=0]

Plays seat-balanced matches of A (a hard player, tuning fields allowed as
in tools/panel.py) against each B. At each of A's draw decisions it holds
the card model (engine/ai/model.py) against the opponent's real hand:

* per unseen card, the chance that the opponent holds it (po): log loss,
  Brier score and a calibration table (predicted against held, by tenths);
* per card of A's hand, the chance that the opponent holds a pair that
  melds it (feed(), the danger charge's chance): log loss and a table by
  sixteenths.

Lower log loss is better; "no evidence" is the same model without the
opponent's discards, passes and pickups, for scale. A tool, not a test:
what it prints is a measurement of the model on whole games.
"""
import argparse
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from engine import CARDEMS  # noqa: E402
from engine.ai.know import PH_DRAW  # noqa: E402
from engine.ai.model import CardModel  # noqa: E402
from engine.melds import masks_of  # noqa: E402
from tools import arena, bots  # noqa: E402

CLIP = 0.002        # chances are clipped to [CLIP, 1 - CLIP] for the log loss


def loss(p, y):
    p = min(max(p, CLIP), 1 - CLIP)
    return -math.log(p if y else 1 - p)


def holds_pair(held, c):
    """Does the set `held` hold two cards that make a meld with card c?"""
    return bots.makes_meld(masks_of(list(held)), c)


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

    def add_model(self, model, k, held):
        for i in range(model.un):
            c = model.ul[i]
            p = model.po[c] / 256.0
            y = c in held
            self.card[0] += loss(p, y)
            self.card[1] += (p - y) ** 2
            self.card[2] += 1
            _bin(self.card_bins, p, y)
        for s in range(4):
            x = k.mine[s]
            for r in range(13):
                if (x >> r) & 1:
                    c = s * 13 + r
                    model.feed(k, c)
                    p = model.f_p / 256.0
                    y = holds_pair(held, c)
                    self.pair[0] += loss(p, y)
                    self.pair[1] += 1
                    _bin(self.pair_bins, p, y)


def run(a_spec, b_name, matches, seed):
    """Returns (the model's Tally, the no-evidence model's Tally)."""
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
                    with_ev.add_model(a.model, k, held)
                    bare.fill(k, False)
                    without.add_model(bare, k, held)
            arena.play_match(CARDEMS, seed + i, players[0], players[1], [], [], watch=watch)
    return with_ev, without


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
    args = ap.parse_args(argv)
    if not args.a.startswith("hard"):
        ap.error("--a must be the hard level (the only one with the card model's evidence)")
    for b in args.b.split(","):
        t, bare = run(args.a, b, args.matches, args.seed)
        report(args.a, b, t, bare)


if __name__ == "__main__":
    main()
