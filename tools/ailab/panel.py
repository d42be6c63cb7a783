"""A quick strength panel: one bot against several, a line each.

    .venv/bin/python -m tools.ailab.panel --a hard@knock.t_bias=16 --matches 200 [--b simple,greedy-gin] [--seed S] [--jobs 2]

Seat-balanced arena runs (tools/ailab/arena.py) with the same deal sequences for
every A, so two A settings compare pair for pair; prints match and hand
win rates and points per hand (the steadier figure), then their means.
For trying tuning settings (bots.tuned); `make ai-table` is the full table.
"""
import argparse
import time

from tools.ailab import arena
from tools.ailab.ai_table import run_pair

PANEL = ("simple", "greedy-gin", "greedy-1", "greedy-3", "switcher", "lookahead-3",
         "hard-eager", "hard-patient", "hard-switcher")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="hard")
    ap.add_argument("--b", default=",".join(PANEL))
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--seed", type=int, default=100001)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    wins = []
    pts = []
    for b in args.b.split(","):
        t0 = time.time()
        st = run_pair(args.a, b, args.matches, args.seed, args.jobs)
        n = st["matches"]
        p, lo, hi = arena.wilson(st["a_matches"], n)
        h = max(1, st["hands"])
        pph = st["a_points"] / h
        wins.append(p)
        pts.append(pph)
        print("%-34s vs %-14s %5.1f%% (%4.1f-%4.1f)  pts/h %+6.2f  gin %4.1f/%4.1f uc %4.1f/%4.1f kn %4.1f/%4.1f  %4.0fs" % (
            args.a[:34], b, 100 * p, 100 * lo, 100 * hi, pph,
            100 * st["a_gin"] / h, 100 * st["b_gin"] / h, 100 * st["a_undercut"] / h,
            100 * st["b_undercut"] / h, 100 * st["a_knock"] / h, 100 * st["b_knock"] / h,
            time.time() - t0), flush=True)
    print("%-34s mean  %5.1f%%  pts/h %+6.2f  min %5.1f%%" % (
        args.a[:34], 100 * sum(wins) / len(wins), sum(pts) / len(pts), 100 * min(wins)))


if __name__ == "__main__":
    main()
