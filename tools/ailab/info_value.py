"""What knowing the opponent's hand would be worth to the hard AI.

    .venv/bin/python -m tools.ailab.info_value --b simple --matches 1000 [--seed 500001] [--jobs 2] [--a hard@ev.t_danger=0] [--channels model,truth,held,stock]

Plays A (the hard level, tuning fields allowed as in tools/ailab/panel.py)
against B on the deals and seeds of tools/ailab/arena.py (so the `model` row is
the arena's figure for the same seed), once per channel. In every channel
but `model`, A's card model (engine/ai/model.py) is overwritten, right
after A fills it from its view, with what B really holds:

* model: unchanged, A plays as on the device;
* truth: po (B holds the card) and ps (the card may come from the stock)
  from B's hand: po 240 for B's cards and 0 for the rest, ps = 256 - po;
* held: po from B's hand, ps from the model: what B holds, as the danger
  charge, the lay-off chances and the knock estimate's terms read it;
* stock: ps from B's hand, po from the model: which unseen cards the
  stock can still give, as the hand value reads it.

A tool that cheats on purpose: the gap between the `model` row and the
others is what the card model's guesses cost A, channel by channel, and so
where a sharper reading of the opponent's moves would pay. Prints A's
match win rate (95% Wilson interval), hand win rate, points a hand (A's
minus B's) and the share of B's draws that took the upcard (B fed by A's
discards, or the hand's first upcard).
"""
import argparse
import sys
import time

from engine import CARDEMS
from tools.ailab import arena
from tools.ailab.ai_table import run_pair

CHANNELS = ("model", "truth", "held", "stock")
P_HELD = 240        # po of a card B holds (the model's own cap, P_MAX)


class Takes:
    """Wraps B: counts its draws and the upcards among them into `st`
    (b_draws, b_upcards)."""

    def __init__(self, bot, st):
        self.bot = bot
        self.name = getattr(bot, "name", "?")
        self.st = st

    def choose(self, view):
        a = self.bot.choose(view)
        if a.startswith("draw"):
            self.st["b_draws"] += 1
            if a.startswith("draw_upcard"):
                self.st["b_upcards"] += 1
        return a


def install(player, channel, seat, cur):
    """Make `player`'s card model read B's hand (seat 1 - `seat`) from the
    match in cur["m"] after each fill, as `channel` says."""
    if channel == "model":
        return
    if channel not in CHANNELS:
        raise ValueError("unknown channel %r (%s)" % (channel, ", ".join(CHANNELS)))
    model = player.model
    fill = model.fill

    def truth_fill(k, evidence):
        fill(k, evidence)
        m = cur.get("m")
        if m is None or not evidence:
            return
        held = set(m.hand.cards_of(1 - seat))
        po = model.po
        ps = model.ps
        sps = 0
        for i in range(model.un):
            c = model.ul[i]
            p = P_HELD if c in held else 0
            if channel != "stock":
                po[c] = p
            if channel != "held":
                ps[c] = 256 - p
            sps += ps[c]
        model.ps_sum = sps if sps > 0 else 1

    model.fill = truth_fill


def run_sequences(args):
    """Worker: deal sequences [lo, hi) from both seats, as arena.run_sequences."""
    a_spec, b_spec, channel, lo, hi = args
    st = arena.new_stats()
    st["b_draws"] = 0
    st["b_upcards"] = 0

    def pair(a, b, a_seat):
        if not hasattr(a, "model"):
            raise ValueError("--a must be a hard player (it has the card model)")
        cur = {}
        install(a, channel, a_seat, cur)
        return a, Takes(b, st), lambda m: cur.__setitem__("m", m)
    return arena.play_sequences(CARDEMS, a_spec, b_spec, lo, hi, st, pair)


def run(a_spec, b_spec, channel, matches, seed, jobs):
    return run_pair(a_spec, b_spec, matches, seed, jobs, channel, run_sequences)


def line(channel, st, secs):
    n = st["matches"]
    p, lo, hi = arena.wilson(st["a_matches"], n)
    h = max(1, st["hands"])
    return "%-6s %5.1f%% (%4.1f-%4.1f)  %5d  hands %5.1f%%  pts/h %+6.2f  B took the upcard %5.1f%%  %4.0fs" % (
        channel, 100 * p, 100 * lo, 100 * hi, n, 100.0 * st["a_hands"] / h,
        st["a_points"] / float(h), 100.0 * st["b_upcards"] / max(1, st["b_draws"]), secs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="hard")
    ap.add_argument("--b", default="simple")
    ap.add_argument("--matches", type=int, default=400)
    ap.add_argument("--seed", type=int, default=500001)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--channels", default=",".join(CHANNELS))
    args = ap.parse_args(argv)
    chans = args.channels.split(",")
    for c in chans:
        if c not in CHANNELS:
            ap.error("unknown channel %r (%s)" % (c, ", ".join(CHANNELS)))
    for b in args.b.split(","):
        print("%s vs %s, %d matches (seat-balanced, seed %d), Cardems rules" % (
            args.a, b, args.matches, args.seed))
        for c in chans:
            t0 = time.time()
            st = run(args.a, b, c, args.matches, args.seed, args.jobs)
            print(line(c, st, time.time() - t0))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
