"""The AI's strength table: hard against every sparring partner, and the
levels against each other (`make ai-table`).

    .venv/bin/python -m tools.ailab.ai_table [--matches 1000] [--seed 1] [--jobs 2]
                                       [--only SUBSTRING] [--no-openspiel]
                                       [--paired-only] [--no-paired]

Every pairing is a seat-balanced arena run (tools/ailab/arena.py: each deal
sequence from both seats, Cardems rules, matches to 100); one line each:
A's match win rate with its 95% Wilson interval, A's hand win rate and
points per hand, and the aim the row is held to. The OpenSpiel row plays
under OpenSpiel's rules with the bot's melds declared after our gin
(tools/ailab/openspiel_adapter.py --fix-bot-gin); it is left out when pyspiel is
not installed (`make bench` installs requirements-bench.txt). A benchmark,
not a test: 1000 matches a pairing takes a while (use --jobs).

Then the paired table, hard against hard-frozen (hard with its knock habit
frozen at its prior): for each partner of bots.ADAPT and the fixed styles
of PAIRED_FIXED, hard and hard-frozen each play the partner on the same
deal sequences, and the line gives both match win rates and their
difference (hard minus frozen) with its 95% interval from the pairing
(the difference per deal sequence, both seats, averaged: a paired
t-interval over the sequences). `--paired-only` prints only that table
(`--only` picks its partners too); `--no-paired` leaves it out.
"""
import argparse
import os
import time

from tools.ailab import arena
from tools.ailab.bots import ADAPT, GREEDY

AIM_SIMPLE = 83
AIM_FIXED = 75
AIM_SWITCHER = 60
AIM_HARD_STYLES = 58
AIM_OPENSPIEL = 80
AIM_LEVELS = 60
AIM_ADAPT = 65            # hard against every partner of bots.ADAPT
AIM_LOOKAHEAD = 75
AIM_PAIRED = 0.0          # hard minus hard-frozen, points of match wins, at least
AIM_PAIRED_PATIENT = 4.0  # ... against a fixed patient player (lookahead-3)
PAIRED_FIXED = ("lookahead-3", "hard-patient", "hard-eager")


def pairings():
    """(A, B, aim in %) for every row."""
    rows = [("hard", "simple", AIM_SIMPLE)]
    for g, _ in GREEDY:
        for e in ("", "-end"):
            rows.append(("hard", "greedy-" + g + e, AIM_FIXED))
    rows.append(("hard", "switcher", AIM_SWITCHER))
    rows.append(("hard", "lookahead-6", None))
    rows.append(("hard", "lookahead-3", AIM_LOOKAHEAD))
    rows.append(("hard", "hard-eager", AIM_HARD_STYLES))
    rows.append(("hard", "hard-patient", AIM_HARD_STYLES))
    rows.append(("hard", "hard-switcher", None))
    for b in ADAPT:
        rows.append(("hard", b, AIM_ADAPT))
    rows.append(("hard", "normal", AIM_LEVELS))
    rows.append(("normal", "easy", AIM_LEVELS))
    rows.append(("hard", "easy", AIM_LEVELS))
    return rows


def run_pair(a, b, matches, seed, jobs, third="cardems", worker=arena.run_sequences):
    """A seat-balanced run of `matches` matches from `seed`, split into
    chunks of deal sequences over `jobs` processes: each chunk is
    worker((a, b, third, lo, hi)) -> arena stats (arena.run_sequences,
    `third` the rules; tools/ailab/info_value.py passes its own worker and its
    channel), merged."""
    nseq = max(1, matches // 2)
    step = max(1, min(25, nseq // (jobs * 4) or 1))
    chunks = []
    s = seed
    while s < seed + nseq:
        chunks.append((a, b, third, s, min(seed + nseq, s + step)))
        s += step
    total = arena.new_stats()
    if jobs == 1:
        for c in chunks:
            arena.merge(total, worker(c))
    else:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            for st in pool.imap_unordered(worker, chunks):
                arena.merge(total, st)
    return total


def paired_worker(args):
    """Worker: deal sequences [lo, hi) of `b` against each of the two A's
    ("A1|A2" in the first field): both arena stats (keys prefixed "1." and
    "2.") and, per sequence, A1's match wins minus A2's (both seats:
    -2..2), in "diff"."""
    pair, b, rules_text, lo, hi = args
    a1, a2 = pair.split("|")
    rules = arena.parse_rules(rules_text)
    out = {"diff": [], "pdiff": []}
    per = []
    pts = []
    for tag, a in (("1.", a1), ("2.", a2)):
        wins = []
        pph = []
        for s in range(lo, hi):
            st = arena.play_sequences(rules, a, b, s, s + 1, arena.new_stats())
            wins.append(st["a_matches"])
            pph.append(st["a_points"] / float(max(1, st["hands"])))
            for k, v in st.items():
                if k.endswith("times"):
                    continue
                out[tag + k] = out.get(tag + k, 0) + v
        per.append(wins)
        pts.append(pph)
    out["diff"] = [x - y for x, y in zip(per[0], per[1])]
    # A1's points a hand minus A2's, per sequence (x2: paired_interval halves)
    out["pdiff"] = [2 * (x - y) for x, y in zip(pts[0], pts[1])]
    return out


def paired_interval(diff, z=1.96):
    """Mean of the per-sequence differences (as a share of a match: each
    sequence is two matches) and its 95% interval (normal approximation)."""
    n = len(diff)
    if n == 0:
        return 0.0, 0.0, 0.0
    xs = [d / 2.0 for d in diff]
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / max(1, n - 1)
    h = z * (var / n) ** 0.5
    return mean, mean - h, mean + h


def run_paired(a1, a2, b, matches, seed, jobs):
    """run_pair for two A's on the same deals: the merged paired_worker
    output."""
    return run_pair(a1 + "|" + a2, b, matches, seed, jobs, worker=paired_worker)


def paired_line(a1, a2, b, st, aim, secs):
    n = st["1.matches"]
    p1 = 100.0 * st["1.a_matches"] / max(1, n)
    p2 = 100.0 * st["2.a_matches"] / max(1, n)
    d, lo, hi = paired_interval(st["diff"])
    h1 = max(1, st["1.hands"])
    h2 = max(1, st["2.hands"])
    mark = ""
    if aim is not None:
        # the difference itself against the aim; "below at 95%": the whole
        # interval is (learning that loses for sure, not by chance)
        mark = "aim >= %+.0f: %s" % (aim, "met" if 100 * d >= aim else (
            "NOT met, below at 95%" if 100 * hi < aim else "NOT met"))
    pd, plo, phi = paired_interval(st.get("pdiff", []))
    return ("%-16s %5.1f%%  %5.1f%%  %+5.1f  (%+5.1f..%+5.1f)  %5d  %+6.2f %+6.2f  "
            "%+5.2f (%+5.2f..%+5.2f)  %5.0fs  %s" % (
                b, p1, p2, 100 * d, 100 * lo, 100 * hi, n, st["1.a_points"] / h1,
                st["2.a_points"] / h2, pd, plo, phi, secs, mark))


def paired_table(args, a1="hard", a2="hard-frozen"):
    """Print the paired table; the number of rows below their aim."""
    print("Paired: %s against %s, %d matches each (seed %d), same deals" % (
        a1, a2, args.matches, args.seed))
    print("%-16s %6s  %6s  %5s  %15s  %5s  %13s  %21s  %6s" % (
        "B", a1[:6], a2[:6], "diff", "95% CI", "n", "pts/h 1 / 2", "pts/h diff (95% CI)",
        "time"))
    missed = 0
    partners = args.paired_vs.split(",") if args.paired_vs else ADAPT + PAIRED_FIXED
    for b in partners:
        if args.only and not any(o in b for o in args.only.split(",")):
            continue
        aim = AIM_PAIRED_PATIENT if b == "lookahead-3" else AIM_PAIRED
        if a2 != "hard-frozen":
            aim = None                  # the aims are the habit's, against hard-frozen
        t0 = time.time()
        st = run_paired(a1, a2, b, args.matches, args.seed, args.jobs)
        print(paired_line(a1, a2, b, st, aim, time.time() - t0), flush=True)
        if aim is not None and 100 * paired_interval(st["diff"])[0] < aim:
            missed += 1                 # its difference below the aim
    return missed


def line(a, b, won, n, hands_won, hands, pph, aim, secs):
    p, lo, hi = arena.wilson(won, n)
    hp = 100.0 * hands_won / hands if hands else 0.0
    mark = ""
    if aim is not None:
        mark = "aim >= %d%%: %s" % (aim, "met" if 100 * p >= aim else "NOT met")
    return "%-7s %-16s %5.1f%%  %5.1f-%5.1f%%  %5d  %5.1f%%  %+6.2f  %5.0fs  %s" % (
        a, b, 100 * p, 100 * lo, 100 * hi, n, hp, pph, secs, mark)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", default=None, help="rows whose B (or A) contains this (the paired table: any of a comma list)")
    ap.add_argument("--no-openspiel", action="store_true")
    ap.add_argument("--paired-only", action="store_true", help="only the paired table hard / hard-frozen")
    ap.add_argument("--paired-a", default="hard", help="the learning A of the paired table (tuning allowed)")
    ap.add_argument("--paired-b", default="hard-frozen", help="the other A of the paired table "
                    "(tuning allowed: --paired-b hard pairs a tuned hard against hard)")
    ap.add_argument("--paired-vs", default=None, help="the paired table's partners, a comma "
                    "list of bot names (default: bots.ADAPT and %s)" % ",".join(PAIRED_FIXED))
    ap.add_argument("--no-paired", action="store_true", help="leave the paired table out")
    args = ap.parse_args(argv)
    if args.paired_only:
        print("rows below their aim: %d" % paired_table(args, args.paired_a, args.paired_b))
        return
    print("AI table: %d matches a pairing (seat-balanced, seed %d), Cardems rules, to 100"
          % (args.matches, args.seed))
    print("%-7s %-16s %6s  %12s  %5s  %6s  %6s  %6s" % (
        "A", "B", "A wins", "95% CI", "n", "hands", "pts/h", "time"))
    missed = 0
    for a, b, aim in pairings():
        if args.only and args.only not in b and args.only not in a:
            continue
        t0 = time.time()
        st = run_pair(a, b, args.matches, args.seed, args.jobs)
        decided = st["a_hands"] + st["b_hands"]
        print(line(a, b, st["a_matches"], st["matches"], st["a_hands"], decided,
                   st["a_points"] / max(1, st["hands"]), aim, time.time() - t0), flush=True)
        p = st["a_matches"] / max(1, st["matches"])
        if aim is not None and 100 * p < aim:
            missed += 1
    if not args.no_openspiel and (not args.only or args.only in "openspiel"):
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("openspiel: pyspiel not installed (pip install -r requirements-bench.txt); row left out")
        else:
            from tools.ailab import openspiel_adapter as osa
            t0 = time.time()
            s = osa.run("hard", args.matches, args.seed, jobs=args.jobs, fix_bot_gin=True)
            hands = s["hands_won"] + s["hands_lost"]
            print(line("hard", "openspiel-fixgin", s["match_wins"], s["matches"],
                       s["hands_won"], hands, s["avg_points_per_hand"], AIM_OPENSPIEL,
                       time.time() - t0), flush=True)
            if 100 * s["match_win_rate"] < AIM_OPENSPIEL:
                missed += 1
    if not args.no_paired:
        missed += paired_table(args, args.paired_a, args.paired_b)
    print("rows below their aim: %d" % missed)


if __name__ == "__main__":
    main()
