"""When the opponent knocks: what the hard AI lays off, and how well it saw it coming.

    .venv/bin/python -m tools.ailab.layoff_calibration --b simple[,greedy-3] [--matches 50] [--seed 2000]

Plays seat-balanced matches of A (a hard player, tuning fields allowed as
in tools/ailab/panel.py) against each B. At every knock of B's (R9: the defender
lays off on the knocker's melds) it counts A's deadwood before and after
its layoffs, the knocker's deadwood and the undercuts (R10). For each of
A's deadwood cards at such a showdown it holds the chance that the card
lays off, as A's evaluator saw it at its last discard (Evaluator.lay_prep
at LAYOFF/16 = 1: the opponent holding the rest of its rank, or three of
its suit neighbours on one side), against whether it was laid off: a
calibration table. The hard level weighs those chances by LAYOFF/16 in
its discards and draws (engine/ai/evaluate.py). A tool, not a test: what
it prints is a measurement on whole games.
"""
import argparse
import sys

from engine import CARDEMS
from engine.cards import CARD_VALUE, card
from engine.melds import deadwood_cards
from tools.ailab import arena, bots
from tools.ailab.model_calibration import our_cards

# calibration bins: predicted chance below each edge
EDGES = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 1.01)


class Tally:
    def __init__(self):
        self.knocks = 0
        self.before = 0          # A's deadwood at B's knocks, before layoffs
        self.after = 0           # ... and after them
        self.knocker = 0         # B's deadwood
        self.undercuts = 0
        self.bins = [[0, 0.0, 0] for _ in EDGES]   # n, sum of chances, laid off

    def add_card(self, p, laid):
        i = 0
        while p >= EDGES[i]:
            i += 1
        b = self.bins[i]
        b[0] += 1
        b[1] += p
        b[2] += 1 if laid else 0


def chances(a):
    """The lay-off chance of each card of A's hand in this discard decision
    (lay_prep at scale 1), {card: chance}."""
    ev = a.ev
    k = a.k
    keep = ev.t_lay
    ev.t_lay = 16
    try:
        ev.lay_prep(k, list(k.mine))
    finally:
        ev.t_lay = keep
    return {c: ev.lay[c] / 256.0 for c in our_cards(k)}


def run(a_spec, b_name, matches, seed):
    t = Tally()
    for i in range(matches):
        for a_seat in (0, 1):
            a = bots.make(a_spec, seed + i)
            b = bots.make(b_name, seed + 7919 * i + 1)
            players = [b, b]
            players[a_seat] = a
            last = {}        # hand index -> (A's ten cards after its last discard, chances)

            def watch(m, s, act, a=a, a_seat=a_seat, last=last):
                if s == a_seat and act.startswith("discard:"):
                    c = card(act[8:])
                    p = chances(a)
                    last[len(m.results)] = ([x for x in p if x != c], p)

            m, _ = play(CARDEMS, seed + i, players, watch)
            for n, r in enumerate(m.results):
                if r.kind not in ("knock", "undercut") or r.knocker == a_seat:
                    continue
                if n not in last:
                    continue
                hand, p = last[n]
                o = r.outcome
                t.knocks += 1
                t.before += o.defender_deadwood_before
                t.after += o.defender_deadwood
                t.knocker += o.knocker_deadwood
                if r.kind == "undercut":
                    t.undercuts += 1
                laid = set(c for c, _ in o.layoffs)
                dead = deadwood_cards(hand, o.defender_melds)
                if sum(CARD_VALUE[c] for c in dead) != o.defender_deadwood_before:
                    raise RuntimeError("hand %d: A's cards at the showdown are not those after its "
                                       "last discard" % n)
                for c in dead:
                    t.add_card(p[c], c in laid)
    return t


def play(rules, seed, players, watch):
    """arena.play_match, with watch(m, seat, action) after each choice."""
    class Seen:
        def __init__(self, bot):
            self.bot = bot
            self.name = getattr(bot, "name", "?")
            self.a = None

        def choose(self, v):
            self.a = self.bot.choose(v)
            return self.a

    seen = (Seen(players[0]), Seen(players[1]))
    return arena.play_match(rules, seed, seen[0], seen[1], [], [],
                            watch=lambda m, s: watch(m, s, seen[s].a))


def report(a_spec, b_name, t, out=sys.stdout):
    n = max(1, t.knocks)
    out.write("%s vs %s: %d knocks by %s\n" % (a_spec, b_name, t.knocks, b_name))
    out.write("  %s's deadwood %.2f before layoffs, %.2f after (%.2f laid off a knock); "
              "the knocker's %.2f; undercuts %.1f%%\n" % (
                  a_spec, t.before / n, t.after / n, (t.before - t.after) / n, t.knocker / n,
                  100.0 * t.undercuts / n))
    cards = sum(b[0] for b in t.bins)
    laid = sum(b[2] for b in t.bins)
    out.write("  %d deadwood cards, %.1f%% laid off; chance seen -> laid off (n):\n   " % (
        cards, 100.0 * laid / max(1, cards)))
    out.write("  ".join("%.3f->%.3f (%d)" % (b[1] / b[0], b[2] / b[0], b[0]) for b in t.bins if b[0]))
    out.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="hard")
    ap.add_argument("--b", default="simple")
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--seed", type=int, default=2000)
    args = ap.parse_args(argv)
    if not args.a.startswith("hard"):
        ap.error("--a must be the hard level (the only one that weighs layoffs)")
    for b in args.b.split(","):
        report(args.a, b, run(args.a, b, args.matches, args.seed))


if __name__ == "__main__":
    main()
