"""AI-only three-player arena: the V6 box game with three device AIs.

    .venv/bin/python -m tools.ailab.arena3 --matches 200 --seed 1 --level hard
    .venv/bin/python -m tools.ailab.arena3 --matches 200 --levels hard,normal,easy --jobs 2

Match seeds are seed, seed+1, ...; every match draws its own roles (V6:
highest card box, middle captain). Player p plays at its level (--levels
gives one per player, P1 P2 P3; --level the same for all three) with an
engine.ai.Player seeded from the match seed and p. At every captain's
decision the sitter advises (engine.ai.box_ai.sitter_advice: the AI hint on
the captain's view, recorded with BoxMatch.advise) and the captain weighs
the advice (engine.ai.box_ai.consider). Any action the engine refuses (act()
returning a reason) stops the run with an error: the run finishing means
no illegal move was ever played.

Prints, for each player: matches won, points (final scores added up), hands
as box / captain / sitter, hands won as box and as captain, gins and
undercuts scored, and how often it followed the sitter's advice as captain;
then the hands, the drawn hands and the decision times.
"""
import argparse
import sys
import time

from engine.ai import Player, LEVELS
from engine.box import BoxMatch, BOX_RULES
from engine.ai.box_ai import consider, sitter_advice

MAX_HANDS = 500     # a match this long is stopped and counted as unfinished
_MASK = 0x3FFFFFFF

KEYS = ("won", "points", "box", "captain", "sitter", "box_won", "captain_won",
        "gins", "undercuts", "advised", "followed")


class IllegalMove(RuntimeError):
    pass


def new_stats():
    return {"matches": 0, "unfinished": 0, "hands": 0, "draws": 0, "moves": 0,
            "players": [dict((k, 0) for k in KEYS) for _ in range(3)],
            "times": []}


def play_match(seed, levels, st):
    """Play one match with AI players at `levels`; add it to `st`."""
    bm = BoxMatch(BOX_RULES, seed)
    ais = [Player(levels[p], (seed * 3 + p + 1) & _MASK) for p in range(3)]
    ps = st["players"]
    times = st["times"]
    clock = time.perf_counter
    unfinished = False
    # not tools/kit/play.play_out: the captain's turn is the sitter's advice
    # (bm.advise) and then its move, each timed and counted by seat
    while bm.phase != "match_over":
        if bm.phase == "hand_over":
            if bm.hand_no >= MAX_HANDS:
                unfinished = True
                break
            bm.next_hand()
            continue
        box, cap, sit = bm.hand_roles
        p = bm.to_move
        t0 = clock()
        if p == cap:
            adv, _ = sitter_advice(ais[sit], bm.view(sit))
            why = bm.advise(sit, adv)
            if why is not None:
                raise IllegalMove("match seed %d, hand %d: the sitter (P%d) advised %r: %s"
                                  % (seed, bm.hand_no, sit + 1, adv, why))
            act, follows, _ = consider(ais[cap], bm.view(cap), adv)
            ps[cap]["advised"] += 1
            if follows:
                ps[cap]["followed"] += 1
        else:
            act = ais[p].choose(bm.view(p))
        times.append(clock() - t0)
        why = bm.act(act)
        st["moves"] += 1
        if why is not None:
            raise IllegalMove("match seed %d, hand %d: P%d (%s) played %r: %s"
                              % (seed, bm.hand_no, p + 1, ROLE[bm.hand_roles.index(p)],
                                 act, why))
    st["matches"] += 1
    if unfinished:
        st["unfinished"] += 1
    elif bm.winner is not None:
        ps[bm.winner]["won"] += 1
    for p in range(3):
        ps[p]["points"] += bm.scores[p]
    for res, roles in bm.results:
        st["hands"] += 1
        box, cap, sit = roles
        ps[box]["box"] += 1
        ps[cap]["captain"] += 1
        ps[sit]["sitter"] += 1
        if res.winner is None:
            st["draws"] += 1
            continue
        w = box if res.winner == 1 else cap
        ps[w]["box_won" if w == box else "captain_won"] += 1
        if res.kind == "gin":
            ps[w]["gins"] += 1
        elif res.kind == "undercut":
            ps[w]["undercuts"] += 1
    return bm


ROLE = ("box", "captain", "sitter")


def run_chunk(args):
    """Worker: matches with seeds [lo, hi)."""
    levels, lo, hi = args
    st = new_stats()
    for s in range(lo, hi):
        play_match(s, levels, st)
    return st


def merge(into, st):
    for k in ("matches", "unfinished", "hands", "draws", "moves"):
        into[k] += st[k]
    for p in range(3):
        for k in KEYS:
            into["players"][p][k] += st["players"][p][k]
    into["times"].extend(st["times"])


def _pct(k, n):
    return 100.0 * k / n if n else 0.0


def report(st, levels, seed, out=sys.stdout):
    w = out.write
    n = st["matches"]
    w("arena3: V6 box game, %d matches, seeds %d-%d, levels P1 %s, P2 %s, P3 %s\n"
      % (n, seed, seed + n - 1, levels[0], levels[1], levels[2]))
    w("rules: %s\n" % BOX_RULES.text())
    w("illegal moves: 0 (%d moves, every one accepted by the engine)\n" % st["moves"])
    if st["unfinished"]:
        w("unfinished matches (over %d hands): %d\n" % (MAX_HANDS, st["unfinished"]))
    w("%-3s %-6s %5s %7s %6s %6s %6s %8s %8s %5s %5s %9s\n" % (
        "", "level", "won", "points", "box", "capt", "sit", "box won", "cap won",
        "gins", "under", "follows"))
    for p in range(3):
        r = st["players"][p]
        w("P%d  %-6s %5d %7d %6d %6d %6d %8s %8s %5d %5d %9s\n" % (
            p + 1, levels[p], r["won"], r["points"], r["box"], r["captain"], r["sitter"],
            "%d %2.0f%%" % (r["box_won"], _pct(r["box_won"], r["box"])),
            "%d %2.0f%%" % (r["captain_won"], _pct(r["captain_won"], r["captain"])),
            r["gins"], r["undercuts"],
            "%2.0f%%" % _pct(r["followed"], r["advised"])))
    h = st["hands"]
    w("hands: %d (%.1f a match), drawn %d (%.1f%%)\n" % (
        h, h / n if n else 0.0, st["draws"], _pct(st["draws"], h)))
    t = sorted(st["times"])
    if t:
        w("decision time (advice and choice): median %.2f ms, max %.2f ms over %d decisions (host Python)\n"
          % (1000 * t[len(t) // 2], 1000 * t[-1], len(t)))


def parse_levels(args):
    if args.levels:
        levels = [x.strip() for x in args.levels.split(",")]
        if len(levels) != 3:
            raise SystemExit("--levels takes three levels, one per player: hard,normal,easy")
    else:
        levels = [args.level] * 3
    for lv in levels:
        if lv not in LEVELS:
            raise SystemExit("level must be one of %s, not %r" % (", ".join(LEVELS), lv))
    return levels


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=200, help="matches to play")
    ap.add_argument("--seed", type=int, default=1, help="first match seed")
    ap.add_argument("--level", default="hard", help="every player's level (easy normal hard)")
    ap.add_argument("--levels", default=None, help="one level per player, e.g. hard,normal,easy")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = ap.parse_args(argv)
    levels = parse_levels(args)
    lo = args.seed
    hi = args.seed + max(0, args.matches)
    jobs = max(1, args.jobs)
    step = max(1, min(10, (hi - lo) // (jobs * 4) or 1))
    chunks = [(levels, s, min(hi, s + step)) for s in range(lo, hi, step)]
    total = new_stats()
    try:
        if jobs == 1:
            for c in chunks:
                merge(total, run_chunk(c))
        else:
            import multiprocessing
            with multiprocessing.Pool(jobs) as pool:
                for st in pool.imap_unordered(run_chunk, chunks):
                    merge(total, st)
    except IllegalMove as e:
        sys.stderr.write("arena3: ILLEGAL MOVE: %s\n" % e)
        return 1
    report(total, levels, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
