"""Paired play-outs of the hard AI's decisions: is there a kind of decision it
gets wrong?

    .venv/bin/python -m tools.ailab.decision_audit --b simple --matches 400 [--seed 900001] [--playouts 8] [--jobs 2]

A (the hard level, tuning fields allowed as in tools/ailab/panel.py) plays B on
the deals and seeds of tools/ailab/arena.py. At each of A's decisions with a
choice, the action A chose and the best other action by A's own appraisal
(engine/ai/appraise.py, the hand review's values) are each played out to
the hand's end `--playouts` times from copies of the match, both players
playing on as they would. Play-out i shuffles the stock alike for both
actions, so the pair differs only by the action. The score of a play-out
is the hand's points, A's minus B's (R10; the match score is not weighed).

The copies hold B's real hand, so one decision's figure says what the other
action would have scored in that deal, not what A could have known. Over
many decisions of one kind the hidden cards average out as they do for a
player, and the mean is what always switching in that kind would gain: a
kind with a mean above 0 is one A plays wrongly.

Kinds: `draw` (taking the upcard against drawing from the stock), `discard`
(A's discard against its best other discard), `no knock` (A discarded where
it could knock: against its best knock), `knock` (A knocked, gin aside:
against its best discard). Each is printed whole, then by the appraisal's
gap between the two actions (points x16; below 0 where the appraisal, which
leaves out the layoff term of A's discard choice, ranks the other action
first) and by the stock left, as the mean points a decision the other
action gains, with its 95% interval.
"""
import argparse
import copy
import math
import random
import sys
import time

from engine import CARDEMS
from engine.ai.appraise import appraise
from tools.ailab import arena
from tools.ailab.ai_table import run_pair
from tools.ailab.knock_calibration import counterfactual

KINDS = ("draw", "discard", "no knock", "knock")
GAPS = ((-(1 << 20), 0), (0, 16), (16, 48), (48, 1 << 20))
STOCKS = ((25, 32), (15, 25), (0, 15))


def shuffled_stock(m, rseed):
    """A copy of match `m` whose stock is shuffled by `rseed` (the cards
    in it stay the same; the hands and the pile are untouched)."""
    m = copy.deepcopy(m)
    h = m.hand
    cards = list(h.stock[:h.stock_n])
    random.Random(rseed).shuffle(cards)
    h.stock[:h.stock_n] = bytes(cards)
    return m


def alternatives(chosen, ranked):
    """[(kind, other action)] to audit for the action `chosen`, from the
    appraisal `ranked` (best first): a draw against the other draw; a
    discard against the best other discard and, where a knock is legal,
    the best knock; a knock against the best discard. A gin is not
    audited (it is always taken)."""
    def best(prefix):
        for a, _ in ranked:
            if a != chosen and a.startswith(prefix):
                return a
        return None
    out = []
    if chosen.startswith("draw") or chosen == "pass":
        other = best("draw") or best("pass")
        if other is not None:
            out.append(("draw", other))
    elif chosen.startswith("discard"):
        for kind, prefix in (("discard", "discard"), ("no knock", "knock")):
            other = best(prefix)
            if other is not None:
                out.append((kind, other))
    elif chosen.startswith("knock"):
        other = best("discard")
        if other is not None:
            out.append(("knock", other))
    return out


class Auditor:
    """Wraps A: after each of its choices, plays the chosen action and the
    best other one out `playouts` times and adds a row to `rows`:
    (kind, gain of the other action a play-out on average, appraisal
    gap x16, stock left)."""

    def __init__(self, player, other, seat, playouts, rows):
        self.player = player
        self.name = getattr(player, "name", "hard")
        self.other = other
        self.seat = seat
        self.playouts = playouts
        self.rows = rows
        self.match = None

    def choose(self, view):
        before = copy.deepcopy(self.player)
        chosen = self.player.choose(view)
        m = self.match
        if m is None or chosen.startswith("knock") and m.hand.deadwood(self.seat) == 0:
            return chosen
        ranked = appraise(before, view)
        values = dict(ranked)
        if chosen not in values:
            return chosen
        alts = alternatives(chosen, ranked)
        if not alts:
            return chosen
        bots = [None, None]
        bots[self.seat] = self.player
        bots[1 - self.seat] = self.other
        h = m.hand
        key = ((m.seed * 2 + self.seat) * 1000 + len(m.hands)) * 1000 + len(h.log)
        for kind, other in alts:
            gain = 0
            for i in range(self.playouts):
                mc = shuffled_stock(m, key * 64 + i)
                gain += (counterfactual(mc, bots, self.seat, other)
                         - counterfactual(mc, bots, self.seat, chosen))
            self.rows.append((kind, gain / self.playouts, values[chosen] - values[other], h.stock_n))
        return chosen


def run_sequences(args):
    """Worker: deal sequences [lo, hi) from both seats; the stats carry
    the audit's rows."""
    a_spec, b_spec, playouts, lo, hi = args
    st = arena.new_stats()
    st["rows"] = []

    def pair(a, b, a_seat):
        if not hasattr(a, "knock"):
            raise ValueError("--a must be a hard player")
        au = Auditor(a, b, a_seat, playouts, st["rows"])
        return au, b, lambda m: setattr(au, "match", m)
    return arena.play_sequences(CARDEMS, a_spec, b_spec, lo, hi, st, pair)


def mean_ci(xs):
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    mu = sum(xs) / n
    if n < 2:
        return mu, float("inf")
    var = sum((x - mu) ** 2 for x in xs) / (n - 1)
    return mu, 1.96 * math.sqrt(var / n)


def report(rows, out=sys.stdout):
    """The table: each kind whole, by gap and by stock."""
    total = max(1, len(rows))
    w = out.write
    w("%-30s %6s %6s  %s\n" % ("decisions", "n", "share", "the other action gains (points a decision, 95% CI)"))
    for kind in KINDS:
        rs = [r for r in rows if r[0] == kind]
        parts = [(kind, rs)]
        for lo, hi in GAPS:
            label = ("  gap < 0" if lo < 0 else "  gap %d+" % lo if hi == 1 << 20
                     else "  gap %d-%d" % (lo, hi - 1))
            parts.append((label, [r for r in rs if lo <= r[2] < hi]))
        for lo, hi in STOCKS:
            parts.append(("  stock %d-%d" % (lo, hi - 1), [r for r in rs if lo <= r[3] < hi]))
        for label, sub in parts:
            if not sub:
                continue
            mu, ci = mean_ci([r[1] for r in sub])
            w("%-30s %6d %5.1f%%  %+6.2f +- %.2f\n" % (label, len(sub), 100.0 * len(sub) / total, mu, ci))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="hard")
    ap.add_argument("--b", default="simple")
    ap.add_argument("--matches", type=int, default=400)
    ap.add_argument("--seed", type=int, default=900001)
    ap.add_argument("--playouts", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    if args.playouts < 1:
        ap.error("--playouts must be 1 or more")
    for b in args.b.split(","):
        t0 = time.time()
        st = run_pair(args.a, b, args.matches, args.seed, args.jobs, args.playouts, run_sequences)
        print("%s vs %s, %d matches (seat-balanced, seed %d), %d paired play-outs a decision, %.0fs"
              % (args.a, b, st["matches"], args.seed, args.playouts, time.time() - t0))
        report(st["rows"])
        print()


if __name__ == "__main__":
    main()
