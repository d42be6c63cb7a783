"""Endgames: matches started from late scores, two settings of A paired.

    .venv/bin/python -m tools.ailab.endgames [--a hard] [--base hard@knock.t_eq=0]
        [--b greedy-gin,greedy-3] [--matches 6000] [--jobs 2]

The match is a race to 100 (R12): how a player weighs the score only shows
in the hands that can end a match, a small part of whole matches. Here
every match starts from one of STARTS (both seats in turn: match i has A in
seat i % 2, the deal and start of i // 2), and A and BASE play the same
matches against each B, so the difference is paired: printed with its 95%
interval and how many matches the two settings ended differently.
"""
import argparse
import math
import sys
from multiprocessing import Pool


from tools.ailab import arena, bots

STARTS = ((70, 70), (85, 60), (60, 85), (90, 90), (50, 80), (80, 50), (92, 75), (75, 92))


def endgame(args):
    """1 if A wins match i started from its late score, else 0."""
    a_name, b_name, i = args
    start = STARTS[(i // 2) % len(STARTS)]
    a_seat = i % 2
    a = bots.make(a_name, i * 2 + 1)
    b = bots.make(b_name, i * 2 + 2)
    players = (a, b) if a_seat == 0 else (b, a)
    scores = start if a_seat == 0 else (start[1], start[0])
    m, _ = arena.play_match(None, 900000 + i // 2, players[0], players[1], [], [], scores)
    return 1 if m.winner == a_seat else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="hard")
    ap.add_argument("--base", default="hard@knock.t_eq=0")
    ap.add_argument("--b", default="greedy-gin,greedy-1,greedy-3,hard-patient,simple")
    ap.add_argument("--matches", type=int, default=6000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    n = args.matches
    print("endgames from late scores %s, %d matches a pairing: %s against %s" % (
        " ".join("%d-%d" % s for s in STARTS), n, args.a, args.base))
    with Pool(args.jobs) as pool:
        for b in args.b.split(","):
            r1 = pool.map(endgame, [(args.a, b, i) for i in range(n)], chunksize=50)
            r0 = pool.map(endgame, [(args.base, b, i) for i in range(n)], chunksize=50)
            d = [x - y for x, y in zip(r1, r0)]
            mean = sum(d) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(1, n - 1))
            print("vs %-14s A %5.1f%%  base %5.1f%%  A - base %+5.2f +- %.2f points (95%%), "
                  "%d matches end otherwise" % (
                      b, 100.0 * sum(r1) / n, 100.0 * sum(r0) / n, 100 * mean,
                      196 * sd / math.sqrt(n), sum(1 for x in d if x)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
