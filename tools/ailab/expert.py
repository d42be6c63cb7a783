"""The expert: how strong fair play can be here, measured on the host.

    .venv/bin/python tools/ailab/expert.py --vs lookahead-3 --matches 50 --seed 1 --out runs.jsonl
    .venv/bin/python tools/ailab/expert.py --summary runs.jsonl
    .venv/bin/python tools/ailab/expert.py --diffs --vs hard --matches 10 --seed 1

A player that never ships (nothing in engine/ or firmware/ imports it) and
may spend what the host has on a decision. It plays fair: it reads only
its view (`m.view(seat)`, what every bot gets), never the opponent's
hidden cards or the stock's order.

For each decision it searches (a determinized Monte Carlo search, with
hard as the policy that finishes the hand):

* its candidates: hard's own choice first (the hard AI fed the same views,
  `Expert.hard`); to take the upcard or draw from the stock; to knock with
  the lowest deadwood or play on; the discards hard's evaluator ranks best
  (up to `cands` of them); gin is never searched (hard goes gin always);
* `worlds` determinizations of the hidden cards, consistent with the view:
  the opponent's unknown cards drawn without replacement by hard's own
  card model of them (engine/ai/model.py: each unseen card's chance that
  the opponent holds it, from its discards, passes and pickups; the cards
  it took from the pile and still holds are in its hand for sure), `pool`
  such hands a decision, of which the worlds take hands by hard's belief
  of the opponent's deadwood (its knock estimate's prior shape, less what
  its habit would have knocked with: deadwood_target), the rest of the
  unseen cards shuffled into the stock. The card model alone takes the
  cards as independent, and its hands hold far more deadwood than a
  player keeps: searched on those, knocking looked far better than it is
  (`pool=0` searches so, for the record);
* every candidate is played in every world (the same worlds for all: the
  differences are paired), then the hand is played out to its end by hard
  for both seats (each with its knock habit learned from the match's
  finished hands, as the real players' would be), and scored by the match
  equity it leaves (engine/ai/equity.py: the chance to win the match after
  the hand's points, so near the target the score counts, R12);
* it plays the candidate with the best mean, but leaves hard's choice only
  when the paired mean gain over it is above `z`/10 of its standard error
  (the search's own noise is not a reason to change a move).

It is deterministic: a decision's worlds come from a generator seeded by
the expert's seed and the view's place in the match (the hand, the moves
so far), so equal views give equal decisions, whatever the hidden cards.
`worlds=0` plays hard's choice always: the expert is then hard.

The budget (`worlds` x candidates rollouts a decision) is set in
`bots.make`'s name: `expert@worlds=32,cands=4,z=10,pool=400` (tuned()). `stats`
counts, by kind of decision and stock size, how often the search kept
hard's choice or changed it, and the mean estimated gain of a change
(`--diffs` prints it).

`--vs B --matches N --out FILE` plays the paired table's deals (ai_table.py
paired_worker: the expert and hard on the same deal sequences against B,
both seats) one sequence at a time and appends a line per sequence to
FILE, so a long run can be read while it runs; `--summary FILE` prints the
paired rows (match wins of each, the difference with its 95% interval,
points a hand) per partner, as ai_table.py --paired-only does.

The player itself is in tools/ailab/expert_search.py (which bots.make
imports); this module runs it, through the lab's tables.
"""
import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from engine.ai import ACTION_TEXT  # noqa: E402
from tools.ailab import expert_search  # noqa: E402
from tools.ailab.expert_search import (DECISIONS, Expert, Position, SimView, deadwood_target,  # noqa: E402,F401
                                       discard_scores, sample_world, sample_worlds)


# -- the paired table, a sequence at a time --------------------------------------------
def run_log(a1, a2, b, matches, seed, out, rules="cardems"):
    """Deal sequences seed .. seed + matches/2 - 1 of the paired table
    (tools/ailab/ai_table.py paired_worker), one line of JSON per sequence
    appended to `out` (those already there are skipped: a run resumes)."""
    from tools.ailab.ai_table import paired_worker
    mod = expert_search                       # the module bots.make's experts count in
    done = set()
    if os.path.exists(out):
        with open(out) as f:
            for line in f:
                r = json.loads(line)
                if r["a1"] == a1 and r["a2"] == a2 and r["b"] == b:
                    done.add(r["seq"])
    for s in range(seed, seed + max(1, matches // 2)):
        if s in done:
            continue
        t0 = time.time()
        mod.DECISIONS.clear()
        st = paired_worker((a1 + "|" + a2, b, rules, s, s + 1))
        keep = {k: v for k, v in st.items() if not k.endswith("times")}
        with open(out, "a") as f:
            f.write(json.dumps({"a1": a1, "a2": a2, "b": b, "seq": s, "secs": round(time.time() - t0, 1),
                                "st": keep, "decisions": mod.DECISIONS}, sort_keys=True) + "\n")


def summary(path, out=sys.stdout):
    """The paired rows of a run_log file, a partner a row."""
    from tools.ailab.ai_table import paired_line
    rows = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            key = (r["a1"], r["a2"], r["b"])
            tot = rows.setdefault(key, {"secs": 0.0})
            tot["secs"] += r["secs"]
            for k, v in r["st"].items():
                if isinstance(v, list):
                    tot.setdefault(k, []).extend(v)
                else:
                    tot[k] = tot.get(k, 0) + v
    dec = {}
    pooled = {}
    for (a1, a2, b), st in rows.items():
        out.write("%s | %s  " % (a1, a2) + paired_line(a1, a2, b, st, None, st["secs"]) + "\n")
        for k, v in st.items():
            if isinstance(v, list):
                pooled.setdefault(k, []).extend(v)
            else:
                pooled[k] = pooled.get(k, 0) + v
    if len(rows) > 1:
        # every partner's deal sequences together: the mean over the partners
        # played (as many sequences each), with its interval
        out.write("%s | %s  " % (a1, a2) + paired_line(a1, a2, "(all)", pooled, None, pooled["secs"]) + "\n")
    with open(path) as f:
        for line in f:
            for k, (n, g) in json.loads(line).get("decisions", {}).items():
                d = dec.setdefault(k, [0, 0.0])
                d[0] += n
                d[1] += g
    if dec:
        out.write("decisions searched (all partners): kind, stock, hard's move -> the expert's, "
                  "count, mean estimated gain (match equity %)\n")
        for k in sorted(dec):
            n, g = dec[k]
            out.write("  %-48s %6d  %+.2f\n" % (k, n, 100 * g / max(1, n)))


def diffs(b, matches, seed, spec="expert", out=sys.stdout):
    """Play the expert against `b` and print where its search left hard's
    choice: by kind of decision and stock size."""
    from tools.ailab import arena, bots
    rules = arena.parse_rules("cardems")
    tot = {}
    kinds = {}
    for s in range(seed, seed + max(1, matches // 2)):
        for a_seat in (0, 1):
            ex = bots.make(spec, s * 2 + 1)
            other = bots.make(b, s * 2 + 2)
            moves = []

            def watch(m, seat, ex=ex, moves=moves):
                if seat == a_seat and ex.last is not None:
                    cands, means, best = ex.last
                    moves.append((ACTION_TEXT[cands[0]], ACTION_TEXT[cands[best]]))

            p = (ex, other) if a_seat == 0 else (other, ex)
            arena.play_match(rules, s, p[0], p[1], [], [], watch=watch)
            for k, v in ex.stats.items():
                t = tot.setdefault(k, [0, 0, 0.0])
                t[0] += v[0]
                t[1] += v[1]
                t[2] += v[2]
            for h, e in moves:
                if h != e:
                    key = (h.split(":")[0], e.split(":")[0])
                    kinds[key] = kinds.get(key, 0) + 1
    out.write("expert (%s) against %s, %d matches from seed %d: decisions searched\n" % (
        spec, b, 2 * max(1, matches // 2), seed))
    out.write("%-8s %5s  %6s %7s %6s  %s\n" % ("kind", "stock", "kept", "changed", "share", "mean gain (match equity %)"))
    for k in sorted(tot, key=lambda k: (k[0], -k[1])):
        kept, ch, g = tot[k]
        n = kept + ch
        out.write("%-8s %5s  %6d %7d %5.1f%%  %+.2f\n" % (
            k[0], ">=%d" % k[1], kept, ch, 100.0 * ch / max(1, n), 100 * g / max(1, ch)))
    out.write("changes, hard's move -> the expert's:\n")
    for (h, e), n in sorted(kinds.items(), key=lambda x: -x[1]):
        out.write("  %-12s -> %-12s %d\n" % (h, e, n))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="expert", help="the searched player (expert@worlds=N,cands=N,z=N)")
    ap.add_argument("--a2", default="hard", help="the player it is paired with on the same deals")
    ap.add_argument("--vs", default=None, help="partners, a comma list of bot names")
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None, help="append a line per deal sequence here")
    ap.add_argument("--summary", default=None, help="print the paired rows of this file")
    ap.add_argument("--diffs", action="store_true", help="count where the search left hard's choice")
    args = ap.parse_args(argv)
    if args.summary:
        summary(args.summary)
        return
    if args.diffs:
        for b in (args.vs or "hard").split(","):
            diffs(b, args.matches, args.seed, args.a)
        return
    if not args.vs or not args.out:
        ap.error("--vs and --out (or --summary FILE, or --diffs)")
    for b in args.vs.split(","):
        run_log(args.a, args.a2, b, args.matches, args.seed, args.out)
    summary(args.out)


if __name__ == "__main__":
    main()
