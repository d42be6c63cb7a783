"""Fault campaigns over the link (tools/link/fakelink.py): for each fault
kind, many exchanges between two boards, and what became of each message.

    .venv/bin/python -m tools.link.faults [--matches N] [--messages N] [--rate R]

A row per campaign: the exchanges played, the messages sent (both ways),
the frames written, the faults injected by kind, then how many messages
arrived exactly once, were lost, arrived more than once, and in how many
exchanges a board's messages came out of order or nothing finished
(hung: not done within 10 simulated minutes).
"""

import argparse
import sys
import time

from tools.link import fakelink as fl


def campaigns(rate):
    out = []
    for k in fl.KINDS:
        out.append((k, dict(rate=rate, kinds=(k,))))
    out.append(("cable cut", dict(rate=0, cable_cut=True)))
    out.append(("restart", dict(rate=0, restarts=3)))
    out.append(("all at once", dict(rate=rate, cable_cut=True, restarts=3)))
    return out


def run(name, kw, matches, messages):
    faults = {}
    row = {"matches": 0, "messages": 0, "frames": 0, "once": 0, "lost": 0,
           "dup": 0, "order": 0, "hung": 0, "ms": 0}
    for seed in range(matches):
        r = fl.match(seed, n=messages, **kw)
        once, lost, dup, order = fl.tally(r)
        row["matches"] += 1
        row["messages"] += 2 * messages
        row["frames"] += r["frames"]
        row["once"] += once
        row["lost"] += lost
        row["dup"] += dup
        row["order"] += order
        row["hung"] += 1 if r["hung"] else 0
        row["ms"] = max(row["ms"], r["ms"])
        for k, v in r["faults"].items():
            faults[k] = faults.get(k, 0) + v
    return row, faults


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--messages", type=int, default=20, help="messages each board sends")
    ap.add_argument("--rate", type=int, default=300, help="faults a thousand frames")
    a = ap.parse_args(argv)
    t0 = time.time()
    print("%-12s %7s %8s %7s %-30s %8s %5s %5s %5s %5s" % (
        "campaign", "matches", "messages", "frames", "faults", "once", "lost",
        "twice", "order", "hung"))
    total = {"once": 0, "lost": 0, "dup": 0, "order": 0, "hung": 0, "messages": 0}
    for name, kw in campaigns(a.rate):
        row, faults = run(name, kw, a.matches, a.messages)
        f = " ".join("%s %d" % (k, v) for k, v in sorted(faults.items()) if v)
        print("%-12s %7d %8d %7d %-30s %8d %5d %5d %5d %5d" % (
            name, row["matches"], row["messages"], row["frames"], f, row["once"],
            row["lost"], row["dup"], row["order"], row["hung"]))
        for k in total:
            total[k] += row[k]
    print("total: %d messages, %d delivered once, %d lost, %d twice, %d out of order, "
          "%d hung (%.1f s)" % (total["messages"], total["once"], total["lost"], total["dup"],
                                total["order"], total["hung"], time.time() - t0))
    return 1 if total["lost"] or total["dup"] or total["order"] or total["hung"] else 0


if __name__ == "__main__":
    sys.exit(main())
