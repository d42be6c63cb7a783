"""The saves under power cuts, wear and crafted input: the cut campaign's
figures (tools/saves/savecuts.py, tools/saves/savecraft.py).

    .venv/bin/python -m tools.bench.bench_saves [--matches 2] [--nvm-matches 5]
                                          [--crafted 100000] [--wear 20] [--long 60]
                                          [--quick]

1. A session through the App (the real firmware, the human's moves pressed
   as buttons): `--matches` matches to 100, a settings change and a reset
   of the statistics. Every save it makes is made again on each storage
   with the power cut before every step (a byte written, an open, a close,
   a rename, a remove; a localStorage setItem or removeItem; an nvm erase
   or a byte programmed) and at its end; the restart's saves are judged
   against what the App had committed. Printed per storage, with the cut
   points per file (settings, game): ok, silent losses, double counts,
   states older than the last completed turn, losses that were said. The
   nvm's session is `--nvm-matches` long, so its sector fills and is
   rewritten (erase, then 16 page programs) inside it.
2. The nvm's wear: `--wear` AI matches to 100 and a fifth as many to 500,
   saved turn by turn: sector erases per hand and the hands until the
   sector's rated 100,000 erase cycles (goal: 1,000,000 or more); the
   largest game save of `--long` AI matches to 500 next to the 4 KB
   sector.
3. A full flash: the same saves with every write refused with ENOSPC
   from before each save (and for the two after it: the App tries again
   each turn), and with the flash filling at each step of each save (every
   write from there on refused, renames too); on the CircuitPython port
   the drive holding the backup file fills. A restart must give exactly
   the last save that went through; every refused save raised (the App
   says it at once).
4. `--crafted` crafted saves with every checksum made good: loaded as the
   App loads them, then played on; crashes at load or later in play.
"""

import argparse
import sys
import time

from tools.saves import savecraft, savecuts

RATED_CYCLES = 100000
GOAL_HANDS = 1000000


def campaign(matches, nvm_matches):
    t = time.time()
    ops, truth = savecuts.record_session(seed=3, matches=matches, target=100)
    saves = len(ops)
    print("session: %d matches to 100 through the App, %d saves (%.0f s)"
          % (matches, saves, time.time() - t))
    results = []
    first = (ops, truth)
    for model in ("prefix", "littlefs", "emptied"):
        results.append(savecuts.files_campaign(ops, truth, model))
    results.append(savecuts.kv_campaign(ops, truth))
    # The nvm rewrites its sector only when the log is full: a longer
    # session, so that the campaign cuts into rewrites too.
    t = time.time()
    ops, truth = savecuts.record_session(seed=4, matches=nvm_matches, target=100)
    print("session for the nvm: %d matches to 100, %d saves (%.0f s)"
          % (nvm_matches, len(ops), time.time() - t))
    for backup in (True, False):
        results.append(savecuts.nvm_campaign(ops, truth, backup=backup))
    nvm_ops, nvm_truth = ops, truth
    ops, truth = first
    for mode in ("full", "fills"):
        for medium in ("prefix", "littlefs", "emptied"):
            results.append(savecuts.full_campaign(ops, truth, medium, mode))
        results.append(savecuts.full_campaign(nvm_ops, nvm_truth, "nvm", mode))
    bad = 0
    for r in results:
        print("  " + r.line())
        print("      %s points per file: %s" % (
            "fill" if getattr(r, "refused", None) is not None else "cut", r.files()))
        if getattr(r, "erases", None) is not None:
            print("      sector erases in the session: %d; of the silent losses, cuts exactly "
                  "between an erase and the first byte programmed (a blank sector: a new "
                  "board to anyone without the backup file): %d" % (r.erases, r.blank))
        bad += r.silent - r.blank + r.double + r.older
        if r.blank and "backup file)" in r.storage and "no backup" not in r.storage:
            bad += r.blank
    print("  total: %d cut points; silent losses + double counts + older states: %d"
          % (sum(r.points for r in results), bad))
    return bad


def wear(n, long_matches):
    print("nvm wear (AI matches, a save after every completed turn):")
    worst = None
    for target, count in ((100, n), (500, max(1, n // 5))):
        hands, erases, largest = savecuts.nvm_wear(count, target)
        per = erases / hands
        to_rated = int(RATED_CYCLES / per) if erases else None
        print("  %d matches to %d: %d hands, %d sector erases, %.3f erases per hand, "
              "%s hands to %d cycles (goal >= %d)" % (
                  count, target, hands, erases, per,
                  "%d" % to_rated if to_rated else "no erase:", RATED_CYCLES, GOAL_HANDS))
        if to_rated is not None and (worst is None or to_rated < worst):
            worst = to_rated
    hands, erases, largest = savecuts.nvm_wear(long_matches, 500, seed=11,
                                               levels=("hard", "easy"))
    print("  largest game save in %d AI matches to 500: %d bytes (the sector: 4096, "
          "one record: 4095)" % (long_matches, largest))
    return worst


def crafted(n):
    t = time.time()
    pool = savecraft.real_saves(seed=1, matches=3, targets=(100, 100, 250))
    seats = savecraft.Seats()
    counts = {"refused": 0, "loaded": 0, "crash": 0}
    first = []
    for data in savecraft.crafted(pool, n, seed=7):
        v = savecraft.try_save(data, seats)
        if v.startswith("crash"):
            counts["crash"] += 1
            if len(first) < 5:
                first.append(v)
        else:
            counts[v] += 1
    print("crafted saves with recomputed checksums: %d: refused (set aside, said) %d, "
          "loaded and played on %d, crashes at load or later in play %d (%.0f s)"
          % (n, counts["refused"], counts["loaded"], counts["crash"], time.time() - t))
    for v in first:
        print("  " + v)
    return counts["crash"]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--nvm-matches", type=int, default=5)
    ap.add_argument("--crafted", type=int, default=100000)
    ap.add_argument("--wear", type=int, default=20)
    ap.add_argument("--long", type=int, default=60)
    ap.add_argument("--quick", action="store_true",
                    help="a short look: 1 match (2 for the nvm), 2000 crafted saves, "
                         "4 wear matches, 6 long ones")
    a = ap.parse_args(argv[1:])
    if a.quick:
        a.matches, a.nvm_matches, a.crafted, a.wear, a.long = 1, 2, 2000, 4, 6
    bad = campaign(a.matches, a.nvm_matches)
    worst = wear(a.wear, a.long)
    crashes = crafted(a.crafted)
    ok = bad == 0 and crashes == 0 and (worst is None or worst >= GOAL_HANDS)
    print("saves: %s" % ("all figures as required" if ok else "NOT as required"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
