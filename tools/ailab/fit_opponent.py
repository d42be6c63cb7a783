"""Fit the hard AI's opponent tables from self-play: engine/ai/opp_tables.py.

    .venv/bin/python -m tools.ailab.fit_opponent [--matches 1500] [--seed 900001] [--jobs 2]
    .venv/bin/python -m tools.ailab.fit_opponent --check    (exit 1 if the file differs)

The hard AI's knock estimate needs two things it cannot see: how much
deadwood the opponent holds now, and how that changes on its next turn.
Both are measured here, with the hidden cards in view, over whole matches
between players that never knock before gin (so no knock cuts a hand
short and the deadwood is seen at every stage): the greedy gin-only
player, a gin-only one-draw-lookahead player and the hard AI playing on,
each against a mix of opponents.

Whenever the other player throws a card while holding a knockable hand
(the moment the hard AI weighs a knock: an opponent that is behind in the
race looks different from the average), it records the observed player's
turn number n in the hand (its discards so far), the rank v of the card it
last threw, and its deadwood D. After every discard of the observed player
(not a knock) it records D and, after its next discard, D' (0 when it went
gin instead). The AI reads:

PRIOR[(n_bucket * V_BUCKETS + v_bucket) * D_BUCKETS + j]: the share (of 255)
  of hands with D in deadwood bucket j, given n and v, for a player that
  keeps its deadwood lowest (the greedy one); PRIOR2 the same for players
  that keep cards for their draws (lookahead, hard);
STEP[i * D_BUCKETS + j]: the share (of 255) of D' in bucket j given D in
  bucket i (a gin next turn is bucket 0);
HELD[h * D_BUCKETS + j] (HELD2 for the second kind of player): how much
  likelier (x1/64) bucket j is when the player holds h (0, 1, 2, 3 or more)
  of the cards it took from the pile this hand, at the same moments as
  PRIOR: P(h | j) / P(h). Cards taken and kept are in melds;
VPREV[(v_bucket * P_BUCKETS + p) * D_BUCKETS + j] (and VPREV2): the same for the
  rank of the card it threw before its last one, p its v bucket (4: a king,
  or none yet), given the last one's v bucket: a low card then a high one
  is a high card drawn and thrown at once from a low hand.
The AI multiplies PRIOR's row by the HELD and VPREV factors of what it has
seen (naive Bayes: each factor measured on its own).

The opponent's knock habit (engine/ai/habit.py) then cuts PRIOR at the
deadwood it would have knocked with. Seeded and deterministic: the same
arguments write the same file (`--check` is run by the tests' slow path
only on request, it takes minutes).
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import Match  # noqa: E402
from engine.melds import deadwood4  # noqa: E402
from engine.hand import DISCARD, KNOCK, TOOK, OVER  # noqa: E402
from engine.ai.opp_shape import (D_BUCKETS, V_BUCKETS, N_BUCKETS, P_BUCKETS,  # noqa: E402
                                 H_BUCKETS, LOW, TOP, d_bucket, v_bucket, n_bucket, p_bucket)
from tools.ailab import bots  # noqa: E402
from tools.kit.play import play_out, players_choose  # noqa: E402

OUT = os.path.join(ROOT, "engine", "ai", "opp_tables.py")
OBSERVED = ("greedy-gin", "lookahead-0", "hard-patient")
# PRIOR is fitted on the players that keep their deadwood lowest (the greedy
# discarder), PRIOR2 on those that keep cards for their draws
STYLE = {"greedy-gin": 0, "lookahead-0": 1, "hard-patient": 1}
OPPONENTS = ("simple", "greedy-3", "greedy-gin", "hard", "normal", "lookahead-6")


def make(name, seed):
    if name == "lookahead-0":
        return bots.LookaheadBot(0, seed)
    return bots.make(name, seed)


def masks(m, seat):
    h = m.hand.masks
    return h[seat * 4], h[seat * 4 + 1], h[seat * 4 + 2], h[seat * 4 + 3]


def held_pickups(h, seat, m4):
    """How many of the cards `seat` took from the pile this hand it still
    holds (m4 its suit masks), at most H_BUCKETS - 1."""
    n = 0
    log = h.log
    ls = h.log_seat
    for i in range(len(log)):
        c = log[i]
        if c >= TOOK and ls[i] == seat:
            c -= TOOK
            if m4[c // 13] >> (c % 13) & 1:
                n += 1
    return n if n < H_BUCKETS else H_BUCKETS - 1


def play(seed, obs_name, opp_name, obs_seat, priors, step, sums, cnts, held, vprev):
    style = STYLE[obs_name]
    prior = priors[style]
    m = Match(None, seed)
    players = [None, None]
    players[obs_seat] = make(obs_name, seed * 2 + 1)
    players[1 - obs_seat] = make(opp_name, seed * 2 + 2)
    last = None          # the observed player's D bucket after its last discard
    turns = 0
    v_last = 12
    v_prev = 12
    hands = 0

    def dealt(m):
        nonlocal last, turns, v_last, v_prev, hands
        last = None
        turns = 0
        v_last = 12
        v_prev = 12
        hands += 1

    def each(m, s):
        nonlocal last, turns, v_last, v_prev
        h = m.hands[-1]
        code = h.log[-1]
        if code < DISCARD or code >= TOOK:
            return
        if s != obs_seat:
            om = masks(m, obs_seat)
            od = deadwood4(*om)
            j = d_bucket(od)
            sums[j] += od
            cnts[j] += 1
            # The other player threw (not a knock): PRIOR is what the hard AI
            # needs when it weighs a knock, the observed player's deadwood
            # while the other one holds a knockable hand.
            if code < KNOCK and turns and h.phase != OVER \
                    and deadwood4(*masks(m, s)) <= h.knock_limit:
                row = n_bucket(turns) * V_BUCKETS + v_bucket(v_last)
                prior[row][j] += 1
                held[style][held_pickups(h, obs_seat, om)][j] += 1
                vprev[style][v_bucket(v_last) * P_BUCKETS + p_bucket(v_prev)][j] += 1
            return
        turns += 1
        if code >= KNOCK:
            d = deadwood4(*masks(m, s))
            if d == 0 and last is not None:
                step[last][0] += 1
            last = None
            return
        d = deadwood4(*masks(m, s))
        j = d_bucket(d)
        if last is not None:
            step[last][j] += 1
        v_prev = v_last
        v_last = (code - DISCARD) % 13
        last = j

    play_out(m, players_choose(players), each, stop=lambda m: hands >= 60, dealt=dealt)


def new_prior():
    return [[0] * D_BUCKETS for _ in range(N_BUCKETS * V_BUCKETS)]


def new_counts(rows):
    return [[[0] * D_BUCKETS for _ in range(rows)] for _ in range(2)]


def work(args):
    lo, hi = args
    priors = (new_prior(), new_prior())
    step = [[0] * D_BUCKETS for _ in range(D_BUCKETS)]
    sums = [0] * D_BUCKETS
    cnts = [0] * D_BUCKETS
    held = new_counts(H_BUCKETS)
    vprev = new_counts(V_BUCKETS * P_BUCKETS)
    for s in range(lo, hi):
        obs_name = OBSERVED[s % len(OBSERVED)]
        opp_name = OPPONENTS[(s // len(OBSERVED)) % len(OPPONENTS)]
        play(s, obs_name, opp_name, s % 2, priors, step, sums, cnts, held, vprev)
    return priors, step, sums, cnts, held, vprev


def shares(row, smooth):
    """A count row as shares of 255 (smoothed by `smooth`, a row of the
    same length used when the counts are few)."""
    k = 40
    mix = [row[j] * 1.0 + k * smooth[j] for j in range(len(row))]
    t = sum(mix) or 1.0
    out = [int(round(255 * x / t)) for x in mix]
    # exact total of 255: fix the rounding on the largest entry
    out[out.index(max(out))] += 255 - sum(out)
    return out


def fit_prior(prior, base):
    p_rows = []
    for nb in range(N_BUCKETS):
        # the v buckets of one n bucket smooth towards that n bucket's total
        tot = [0] * D_BUCKETS
        for vb in range(V_BUCKETS):
            for j, x in enumerate(prior[nb * V_BUCKETS + vb]):
                tot[j] += x
        tt = sum(tot)
        nbase = [x / tt for x in tot] if tt else base
        for vb in range(V_BUCKETS):
            p_rows.append(shares(prior[nb * V_BUCKETS + vb], nbase))
    return p_rows


def fit(priors, step):
    flat = [0] * D_BUCKETS
    for prior in priors:
        for r in prior:
            for j, x in enumerate(r):
                flat[j] += x
    ft = sum(flat) or 1
    base = [x / ft for x in flat]
    s_rows = []
    for i in range(D_BUCKETS):
        s_rows.append(shares(step[i], base))
    return [fit_prior(p, base) for p in priors], s_rows


def likelier(counts, per):
    """The factors P(f | j) / P(f) (x1/64, 1..255) of a feature f from its
    counts[f][j], measured within each group of `per` feature values (VPREV:
    given the last discard's bucket), each bucket's counts smoothed by K
    samples spread as the feature is overall (a bucket seldom seen gets a
    factor near 1). Bucket 0 (gin: never seen, the player would have gone
    gin) takes bucket 1's factor."""
    K = 20
    out = []
    for g in range(0, len(counts), per):
        t = counts[g:g + per]
        col = [sum(r[j] for r in t) for j in range(D_BUCKETS)]
        tot = sum(col) or 1
        for r in t:
            share = (sum(r) + 1) / (tot + per)
            row = []
            for j in range(D_BUCKETS):
                jj = 1 if j == 0 else j
                x = (r[jj] + K * share) / (col[jj] + K) / share
                row.append(max(1, min(255, int(round(64 * x)))))
            out.append(row)
    return out


def literal(name, rows):
    """A bytes literal, one table row a line (a constant: no tuple of ints
    kept in RAM by a .mpy)."""
    body = "\n".join('    b"%s"' % "".join("\\x%02x" % x for x in r) for r in rows)
    return "%s = (\n%s\n)\n" % (name, body)


def text(p_rows, s_rows, args, samples, means, held, vprev):
    p1, p2 = p_rows
    return ('"""The opponent tables of the hard AI\'s knock estimate.\n\n'
            "Written by tools/ailab/fit_opponent.py (%d matches, seed %d: %d discards\n"
            "seen); do not edit by hand. Layout and meaning: that tool's docstring\n"
            "and engine/ai/opp_shape.py.\n"
            '"""\n\n' % (args.matches, args.seed, samples)
            + "# the mean deadwood in each bucket\n"
            + literal("D_MEAN", [means]) + "\n"
            + literal("PRIOR", p1) + "\n" + literal("PRIOR2", p2) + "\n"
            + literal("STEP", s_rows) + "\n"
            + literal("HELD", likelier(held[0], H_BUCKETS)) + "\n"
            + literal("HELD2", likelier(held[1], H_BUCKETS)) + "\n"
            + literal("VPREV", likelier(vprev[0], P_BUCKETS)) + "\n"
            + literal("VPREV2", likelier(vprev[1], P_BUCKETS)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=900001)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--counts", default=None,
                    help="a JSON file: written with the raw counts, or read instead of playing "
                         "when it exists (to refit quickly)")
    args = ap.parse_args(argv)
    chunks = []
    s = args.seed
    while s < args.seed + args.matches:
        chunks.append((s, min(args.seed + args.matches, s + 25)))
        s += 25
    priors = (new_prior(), new_prior())
    step = [[0] * D_BUCKETS for _ in range(D_BUCKETS)]
    sums = [0] * D_BUCKETS
    cnts = [0] * D_BUCKETS
    held = new_counts(H_BUCKETS)
    vprev = new_counts(V_BUCKETS * P_BUCKETS)
    import json
    if args.counts and os.path.exists(args.counts):
        with open(args.counts) as f:
            results = [tuple(x) for x in json.load(f)]
    else:
        if args.jobs > 1:
            import multiprocessing
            with multiprocessing.Pool(args.jobs) as pool:
                results = pool.map(work, chunks)
        else:
            results = [work(c) for c in chunks]
        if args.counts:
            with open(args.counts, "w") as f:
                json.dump(results, f)
    for ps, st, sm, cn, hc, vc in results:
        # the per-kind tables: PRIOR's, HELD's and VPREV's counts
        for into, part in ((priors, ps), (held, hc), (vprev, vc)):
            for k, rows in enumerate(part):
                for i, r in enumerate(rows):
                    for j, x in enumerate(r):
                        into[k][i][j] += x
        for j in range(D_BUCKETS):
            sums[j] += sm[j]
            cnts[j] += cn[j]
        for i, r in enumerate(st):
            for j, x in enumerate(r):
                step[i][j] += x
    samples = sum(sum(r) for p in priors for r in p)
    p_rows, s_rows = fit(priors, step)
    # a bucket's measured mean (a one-value bucket: that value)
    means = [LOW[j] if LOW[j] == TOP[j] else
             (int(round(sums[j] / cnts[j])) if cnts[j] else (LOW[j] + min(TOP[j], 60)) // 2)
             for j in range(D_BUCKETS)]
    want = text(p_rows, s_rows, args, samples, means, held, vprev)
    if args.check:
        with open(OUT) as f:
            ok = f.read() == want
        print("engine/ai/opp_tables.py is %s" % ("up to date" if ok else "STALE"))
        return 0 if ok else 1
    with open(OUT, "w") as f:
        f.write(want)
    print("wrote %s from %d discards" % (OUT, samples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
