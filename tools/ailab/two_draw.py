"""What a two-draw lookahead would add to the hard AI's discards, and its cost.

    .venv/bin/python -m tools.ailab.two_draw --b hard-patient,simple --matches 2000 [--seed 500001] [--jobs 2] [--modes off,full,cheap] [--margin 16]

The hard level values a 10-card hand by one more stock draw
(engine/ai/evaluate.py, value10: the meld gains weighted up for the draws
after it). This tool plays hard (--a, tuning fields allowed as in
tools/ailab/panel.py) against each B on the arena's deals (tools/ailab/arena.py: the
same deals and seeds in every mode, so the modes compare pair for pair),
with its discard choice, and the discard weighed with a taken upcard,
re-ranked among the candidates within --margin (x1/16 points) of the best
by their value one stock draw later: over the unseen cards u, by their
stock weights, the better of throwing u straight back and keeping it with
a reply discard, each hand valued by value10, then weighed for the
opponent ending the hand first and charged for feeding it, as the choice
itself does. The choice's value for the draw decision stays value10's.

* off: hard as it plays (the arena's figures);
* full: every candidate within the margin, every reply within REPLY
  points of the lowest deadwood, every unseen card;
* cheap: the two best candidates, the replies of lowest deadwood, and only
  the draws that could pair or meld with one of those two cards (any
  other draw counts as thrown back).

Prints match wins (95% Wilson interval), points a hand (A's minus B's) and
value10 calls per decision of A (mean, 99th percentile, most): the cost in
the unit the device pays (hard as it plays makes about 5 a decision, at
most 13; its slowest decisions take 100-145 ms on a Pico, against a
400 ms budget). The calls the re-ranking repeats from the choice it
refines are not counted.
"""
import argparse
import sys
import time

from engine import CARDEMS
from engine.cards import CARD_VALUE, NO_CARD
from engine.melds import deadwood4, best_discard4, BIT_RANK
from tools.ailab import arena
from tools.ailab.ai_table import run_pair

MODES = ("off", "full", "cheap")
REPLY = 3     # full: replies within this of the lowest deadwood


def cards_of(h, skip=NO_CARD):
    """(suit, bit, card) for each card in the suit masks h but `skip`."""
    for s in range(4):
        left = h[s]
        while left:
            bit = left & -left
            left ^= bit
            c = s * 13 + BIT_RANK[bit % 37]
            if c != skip:
                yield s, bit, c


def partners(c, into):
    """Add to the suit masks `into` the cards that pair or meld with card
    c: its rank in the other suits, its suit neighbours within two (the
    draws the cheap mode values)."""
    s = c // 13
    b = 1 << (c % 13)
    for q in range(4):
        into[q] |= b if q != s else ((b << 1) | (b << 2) | (b >> 1) | (b >> 2)) & 0x1FFF


class TwoDraw:
    """A hard Player whose evaluator's discard choice is re-ranked by the
    value one stock draw later (mode full or cheap; off: as it plays), its
    value10 calls per decision appended to `calls`."""

    def __init__(self, player, mode, margin, calls):
        if mode not in MODES:
            raise ValueError("unknown mode %r (%s)" % (mode, ", ".join(MODES)))
        ev = getattr(player, "ev", None)
        if ev is None or not ev.t_danger:
            raise ValueError("A must be a hard player (it has the danger charge)")
        self.player = player
        self.name = getattr(player, "name", "hard")
        self.ev = ev
        self.mode = mode
        self.margin = margin
        self.calls = calls
        self.n = 0
        self.plain_value10 = ev.value10
        self.plain_choice = ev.discard_choice
        ev.value10 = self.value10
        if mode != "off":
            ev.discard_choice = self.discard_choice

    def value10(self, h):
        self.n += 1
        return self.plain_value10(h)

    def choose(self, view):
        self.n = 0
        a = self.player.choose(view)
        self.calls.append(self.n)
        return a

    def candidates(self, k, danger, forbid):
        """The discards of the 11 cards in ev.m the choice weighs, best
        first: (value with the danger charge, -card value, card, value10
        at risk, deadwood, deadwood at risk x16, the charge); value10 here
        is the choice's own, so not counted."""
        ev = self.ev
        m = ev.m
        lo = best_discard4(m, forbid) >> 6
        lay = ev.t_lay and ev.p_end
        out = []
        for s, bit, c in cards_of(m, forbid):
            h = list(m)
            h[s] ^= bit
            dwc = deadwood4(h[0], h[1], h[2], h[3])
            if dwc > lo + ev.t_margin:
                continue
            d16 = dwc * 16 - (ev.lay16(h) if lay else 0)
            e = ev.at_risk(self.plain_value10(h), d16)
            dv = 0
            if danger:
                dg = ev.t_danger * ev.model.danger(k, c)
                if ev.t_dpat:
                    dg += dg * ev.t_dpat * ev.patient >> 16
                dv = dg * (dwc + ev.t_dsc) // ((10 + ev.t_dsc) * 16)
            out.append((e + dv, -CARD_VALUE[c], c, e, dwc, d16, dv))
        out.sort()
        return [x for x in out if x[0] <= out[0][0] + self.margin]

    def discard_choice(self, k, danger, limit, forbid):
        c0 = self.plain_choice(k, danger, limit, forbid)
        cands = self.candidates(k, danger, forbid)
        if self.mode == "cheap":
            cands = cands[:2]
        if len(cands) < 2:
            return c0
        rel = None
        if self.mode == "cheap":
            rel = [0, 0, 0, 0]
            for x in cands:
                partners(x[2], rel)
        ev = self.ev
        best = None
        for _, ncv, c, e, dwc, d16, dv in cands:
            h = list(ev.m)
            h[c // 13] ^= 1 << (c % 13)
            w = ev.at_risk(self.after_draw(h, rel), d16) + dv
            if best is None or (w, ncv) < best[0]:
                best = ((w, ncv), c, e, dwc)
        _, c, e, dwc = best
        ev.dc_value = e
        ev.dc_dw = dwc
        return c

    def after_draw(self, h, rel=None):
        """The value (x16) of the 10-card hand h one stock draw later: for
        each unseen card u by its stock weight, the best value10 of
        throwing u back or keeping it with a reply discard (cheap: only the
        draws in the suit masks rel, the replies of lowest deadwood)."""
        ev = self.ev
        model = ev.model
        base = ev.value10(h)
        reply = 0 if self.mode == "cheap" else REPLY
        tot = 0
        for i in range(model.un):
            u = model.ul[i]
            p = model.ps[u]
            su = u // 13
            ub = 1 << (u % 13)
            if rel is not None and not rel[su] & ub:
                tot += p * base
                continue
            g = list(h)
            g[su] |= ub
            lo = best_discard4(g, NO_CARD) >> 6
            best = base
            for s, bit, c in cards_of(g, u):
                t = list(g)
                t[s] ^= bit
                if deadwood4(t[0], t[1], t[2], t[3]) <= lo + reply:
                    v = ev.value10(t)
                    if v < best:
                        best = v
            tot += p * best
        return tot // model.ps_sum


def run_sequences(args):
    """Worker: deal sequences [lo, hi) from both seats, as
    arena.run_sequences; `how` is "mode:margin"."""
    a_spec, b_spec, how, lo, hi = args
    mode, _, margin = how.partition(":")
    st = arena.new_stats()
    st["a_calls"] = []

    def pair(a, b, a_seat):
        return TwoDraw(a, mode, int(margin), st["a_calls"]), b, None
    return arena.play_sequences(CARDEMS, a_spec, b_spec, lo, hi, st, pair)


def line(mode, st, secs):
    n = st["matches"]
    p, lo, hi = arena.wilson(st["a_matches"], n)
    h = max(1, st["hands"])
    calls = sorted(st["a_calls"]) or [0]
    return "%-5s %5.1f%% (%4.1f-%4.1f)  %5d  pts/h %+6.2f  value10 calls a decision: mean %5.1f p99 %4d max %4d  %4.0fs" % (
        mode, 100 * p, 100 * lo, 100 * hi, n, st["a_points"] / float(h),
        sum(calls) / float(len(calls)), calls[int(0.99 * (len(calls) - 1))], calls[-1], secs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="hard")
    ap.add_argument("--b", default="hard-patient,simple")
    ap.add_argument("--matches", type=int, default=400)
    ap.add_argument("--seed", type=int, default=500001)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--margin", type=int, default=16)
    args = ap.parse_args(argv)
    modes = args.modes.split(",")
    for mo in modes:
        if mo not in MODES:
            ap.error("unknown mode %r (%s)" % (mo, ", ".join(MODES)))
    for b in args.b.split(","):
        print("%s vs %s, %d matches (seat-balanced, seed %d), Cardems rules, margin %d" % (
            args.a, b, args.matches, args.seed, args.margin))
        for mo in modes:
            t0 = time.time()
            st = run_pair(args.a, b, args.matches, args.seed, args.jobs,
                          "%s:%d" % (mo, args.margin), run_sequences)
            print(line(mo, st, time.time() - t0))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
