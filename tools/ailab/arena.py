"""AI arena: seat-balanced matches between two bots.

    .venv/bin/python -m tools.ailab.arena --a hard --b simple --matches 1000 --seed 1
    .venv/bin/python -m tools.ailab.arena --a hard --b mybot:choose --jobs 2

For each of matches/2 deal sequences (match seeds seed, seed+1, ...) the
match is played twice, with the seats swapped, so both bots get the same
cards from both seats. Prints match and hand win rates of A with 95% Wilson
confidence intervals, average points per hand, gin/undercut/draw rates (and
the undercuts scored on a tie: R10 gives a tie to the defender, where
OpenSpiel's rules score it 0) and each bot's decision time (median/max, on
this host's Python).

Bots: easy, normal, hard (engine.ai.Player), simple (tools/ailab/bots.py), or
`module:function`, a bring-your-own bot `choose(obs) -> action string`
where obs is the plain-data dict of engine.ai.obs_from_view (README).
--rules takes a preset (cardems, classic, oklahoma, bonus) or a rules line
such as "cardems upcard_offer=1" (engine.Rules.text() form).
"""
import argparse
import importlib
import math
import sys
import time

from engine import Match, Rules, CARDEMS
from engine.ai import obs_from_view
from tools.ailab import bots
from tools.kit.play import play_out

MAX_HANDS = 500     # a match this long is stopped and counted as unfinished


class FunctionBot:
    """Wraps a bring-your-own `choose(obs) -> str` function."""

    def __init__(self, fn, name):
        self.fn = fn
        self.name = name

    def choose(self, view):
        return self.fn(obs_from_view(view))


def make_bot(spec, seed):
    if ":" in spec:
        mod, _, fn = spec.partition(":")
        m = importlib.import_module(mod)
        f = getattr(m, fn)
        return FunctionBot(f, spec)
    return bots.make(spec, seed)


def parse_rules(text):
    if text == "cardems":
        return CARDEMS
    return Rules.from_text(text)


def play_match(rules, seed, bot0, bot1, times0, times1, scores=None, watch=None, start=None):
    """Play one match (from `scores`, seat 0's and seat 1's, when given);
    returns (match, unfinished). `watch(m, seat)`, when given, is called
    after each choice, before the action is played (the match as the bot
    saw it); `start(m)` once, before the first choice."""
    m = Match(rules, seed)
    if start is not None:
        start(m)
    if scores is not None:
        m.scores[0], m.scores[1] = scores
    players = (bot0, bot1)
    times = (times0, times1)
    clock = time.perf_counter

    def choose(m, s):
        v = m.view(s)
        t0 = clock()
        a = players[s].choose(v)
        times[s].append(clock() - t0)
        if watch is not None:
            watch(m, s)
        return a

    def too_long(m):
        return m.phase == "hand_over" and len(m.hands) >= MAX_HANDS

    try:
        over = play_out(m, choose, stop=too_long, limit=None)
    except RuntimeError as e:
        raise RuntimeError("%s\n(bots %s, %s; match seed %d)" % (
            e, getattr(bot0, "name", "?"), getattr(bot1, "name", "?"), seed))
    return m, not over


def new_stats():
    return {"matches": 0, "a_matches": 0, "unfinished": 0, "hands": 0,
            "a_hands": 0, "b_hands": 0, "draws": 0, "a_points": 0,
            "a_gin": 0, "b_gin": 0, "a_undercut": 0, "b_undercut": 0,
            "a_uc_tie": 0, "b_uc_tie": 0,
            "a_knock": 0, "b_knock": 0, "a_times": [], "b_times": []}


def add_match(st, m, a_seat, unfinished):
    st["matches"] += 1
    if unfinished:
        st["unfinished"] += 1
    elif m.winner == a_seat:
        st["a_matches"] += 1
    for r in m.results:
        st["hands"] += 1
        if r.winner is None:
            st["draws"] += 1
            continue
        side = "a" if r.winner == a_seat else "b"
        st[side + "_hands"] += 1
        st["a_points"] += r.points if side == "a" else -r.points
        if r.kind == "gin":
            st[side + "_gin"] += 1
        elif r.kind == "undercut":
            st[side + "_undercut"] += 1   # side scored the undercut
            if r.points == m.rules.undercut_bonus:
                st[side + "_uc_tie"] += 1   # the knocker's deadwood, tied (R10)
        else:
            st[side + "_knock"] += 1


def play_sequences(rules, a_spec, b_spec, lo, hi, st, pair=None):
    """Play deal sequences [lo, hi) from both seats, adding each match to
    `st`. `pair(a, b, a_seat)`, when given, is called with each match's
    fresh bots and returns (a, b, start): the bots to play (wrapped, say)
    and play_match's `start` hook (or None)."""
    for s in range(lo, hi):
        for a_seat in (0, 1):
            a = make_bot(a_spec, s * 2 + 1)
            b = make_bot(b_spec, s * 2 + 2)
            start = None
            if pair is not None:
                a, b, start = pair(a, b, a_seat)
            ta = st["a_times"]
            tb = st["b_times"]
            if a_seat == 0:
                m, unf = play_match(rules, s, a, b, ta, tb, start=start)
            else:
                m, unf = play_match(rules, s, b, a, tb, ta, start=start)
            add_match(st, m, a_seat, unf)
    return st


def run_sequences(args):
    """Worker: play deal sequences [lo, hi) from both seats."""
    a_spec, b_spec, rules_text, lo, hi = args
    return play_sequences(parse_rules(rules_text), a_spec, b_spec, lo, hi, new_stats())


def merge(into, st):
    """Add a worker's stats into `into` (a key `into` lacks, such as a
    tool's own counter, starts from the worker's value)."""
    for k, v in st.items():
        if k not in into:
            into[k] = v
        elif isinstance(v, list):
            into[k].extend(v)
        else:
            into[k] += v


def wilson(k, n, z=1.96):
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return 0.0, 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, c - h, c + h


def median(xs):
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[len(s) // 2]


def report(st, a_name, b_name, rules_text, seed, out=sys.stdout):
    n = st["matches"]
    w = out.write
    w("arena: A=%s vs B=%s, rules %s, %d matches (%d deal sequences x 2 seats), seed %d\n"
      % (a_name, b_name, rules_text, n, n // 2, seed))
    p, lo, hi = wilson(st["a_matches"], n)
    w("matches won by A: %d/%d = %.1f%%  (95%% CI %.1f-%.1f%%)\n" % (
        st["a_matches"], n, 100 * p, 100 * lo, 100 * hi))
    if st["unfinished"]:
        w("unfinished matches (over %d hands): %d\n" % (MAX_HANDS, st["unfinished"]))
    decided = st["a_hands"] + st["b_hands"]
    p, lo, hi = wilson(st["a_hands"], decided)
    w("hands: %d (%d drawn); A won %d of %d decided = %.1f%%  (95%% CI %.1f-%.1f%%)\n" % (
        st["hands"], st["draws"], st["a_hands"], decided, 100 * p, 100 * lo, 100 * hi))
    h = max(1, st["hands"])
    w("average points per hand, A minus B: %+.2f\n" % (st["a_points"] / h))
    w("per hand:            %8s %8s\n" % ("A", "B"))
    for key, label in (("gin", "gin"), ("knock", "knock won"), ("undercut", "undercut (scored)"),
                       ("uc_tie", "  of which ties")):
        w("  %-18s %7.1f%% %7.1f%%\n" % (label, 100 * st["a_" + key] / h, 100 * st["b_" + key] / h))
    w("  %-18s %7.1f%%\n" % ("drawn", 100 * st["draws"] / h))
    for side, name in (("a", a_name), ("b", b_name)):
        t = st[side + "_times"]
        w("decision time %-8s median %.3f ms, max %.3f ms over %d decisions (host Python)\n" % (
            name, 1000 * median(t), 1000 * (max(t) if t else 0), len(t)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="hard", help="bot A (easy normal hard simple or module:function)")
    ap.add_argument("--b", default="simple", help="bot B")
    ap.add_argument("--matches", type=int, default=1000, help="matches (even: each deal sequence twice)")
    ap.add_argument("--seed", type=int, default=1, help="first match seed")
    ap.add_argument("--rules", default="cardems", help="a preset name (cardems classic oklahoma bonus) or a rules line")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = ap.parse_args(argv)
    parse_rules(args.rules)
    make_bot(args.a, 0)
    make_bot(args.b, 0)
    nseq = max(1, args.matches // 2)
    lo = args.seed
    hi = args.seed + nseq
    jobs = max(1, args.jobs)
    chunks = []
    step = max(1, min(25, nseq // (jobs * 4) or 1))
    s = lo
    while s < hi:
        chunks.append((args.a, args.b, args.rules, s, min(hi, s + step)))
        s += step
    total = new_stats()
    if jobs == 1:
        for c in chunks:
            merge(total, run_sequences(c))
    else:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            for st in pool.imap_unordered(run_sequences, chunks):
                merge(total, st)
    report(total, args.a, args.b, args.rules, args.seed)
    return total


if __name__ == "__main__":
    main()
