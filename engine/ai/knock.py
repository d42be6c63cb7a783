"""Knock now or play on: the expected points of each (R6, R7, R9-R11).

Gin (0 deadwood) always. Easy and normal knock as soon as they can. Hard
compares, in points x16, the expected result of knocking now (EK) with the
best plan of playing on for m = 1..ROUNDS more rounds and knocking then
(EN), and knocks when EK >= EN + bias. Both come from:

* The opponent's deadwood D now, in the buckets of opp_shape.py. Its shape
  P(D | n, v) comes from self-play, measured at the moments a player holds a
  knockable hand (opp_tables.py: PRIOR for a player keeping its deadwood
  lowest, PRIOR2 for one keeping cards for its draws, mixed by the style
  habit.py learned): n its discards so far this hand, v the rank of its last
  discard; times the factors of two more things seen (naive Bayes, each
  measured alone): how many of the cards it took from the pile it still
  holds (HELD: kept pickups are in melds) and the rank of its discard
  before the last (VPREV: a low card then a high one is a drawn card thrown
  at once by a low hand); tools/ailab/fit_opponent.py measures them at the same
  moments as the prior.
* Its knock habit (habit.py): weights w(T) over thresholds T = 0 (gin only)
  .. 10 (knocks as soon as the rules allow), the estimate for the part of
  the hand the stock is in (Habit.use: early or late), pooled into four groups (gin
  only; 1-4; 5-9; at once), each with the share of every bucket it would
  have knocked with. It has not knocked, so under a group the deadwood is
  in the part it would not knock with, and the group's posterior weight is
  its w times the prior mass left.
* Layoffs (R9): the unseen cards that would extend our runs or complete
  our three-card sets, each counted by the chance the opponent holds it,
  at half value (it must hold it as deadwood): L.
* EK: over the posterior, the knock's result with D' = D - L: D' - d if
  D' > d, else the undercut -(B_u + d - D') (R10).
* A round of playing on: first the opponent's turn. It may take our
  discard c: to meld it (the card model's chance that it holds a pair for
  c, scaled by FEED), which lowers its deadwood by half that pair and its
  highest card; or, when that brings it under its threshold, to knock.
  Otherwise its deadwood moves along STEP (self-play; 0 is its gin,
  -(B_g + d)). Where it knocks with D' we score the undercut B_u + D' - d
  if d <= D', else lose d - D'. Then our draw: we go gin with the chance
  the exact next-draw search found (each unseen card weighted as the next
  stock card, plus the chance the opponent throws us a gin card, UPOUT),
  +(B_g + D'); later rounds keep that chance (the same outs), and our
  deadwood falls as STEP's rows say on average.
* The plan "knock after m rounds" is worth the hands that ended on the way
  plus, for the rest, the knock with our deadwood then against its D then.
  If the stock runs out first (R11 / V3) the rest is a drawn hand (0).
  One more plan knocks not at all within the ROUNDS: the hands that ended
  on the way, the rest still an open race (0). Without it, where the
  opponent is likely low every plan knocks into the likely undercut, and
  playing on was valued far below what it scored (tools/ailab/knock_calibration.py
  --a hard@knock.t_wait=0 --b greedy-gin,hard-patient --matches 150
  --seed 7: 7-11 points a hand below where the undercut risk is over half;
  0-5 with this plan).
  Planning one fixed knock undervalues playing on against a quick knocker
  (it may knock into our undercut on any later turn): `bias` (BIAS times the
  weight of "knocks at once") is on playing on's side, with a margin
  (MARGIN; while the stock is full, MARGIN_EARLY leans the other way, toward
  knocking: the AI lab's search knocks there where hard played on).
When the stock is at its end, playing on is a drawn hand (0): knock when
EK > 0.

Every outcome above (val, uc, kr, the gins) is weighed by the match it
leaves (equity.py): in "points at this score", E(after) - E(now) over the
worth of a typical 25-point swing, so early in a match a point is a point
and near its end points past the target count for nothing. The biases
scale with what an undercut's or a gin's extra points over a small knock's
are worth at this score (sw): nothing when a small knock already wins the
match.

The terms (the opponent's prior and habit groups, layoffs, our draws)
are worked out in knock_terms.py.

Cost: for the two heaviest habit groups, a round is one step of the
opponent's deadwood along STEP's non-negligible entries (SPARSE, about half
of 12 x 12); our side is a few numbers a round. Allocation-free.
"""
from ..compat import const
from ..cards import CARD_VALUE
from .opp_shape import D_BUCKETS, d_bucket
from .opp_tables import D_MEAN
from .habit import T_LEVELS
from .equity import Equity
from .knock_terms import KnockTerms, ROUNDS, GROUPS, SPARSE, SP_AT

STYLE_ESTIMATE = const(0)
STYLE_EAGER = const(1)    # knock as soon as the rules allow (sparring)
STYLE_PATIENT = const(2)  # only gin, or the stock's last card (sparring)

END_KNOCK = const(2)      # with this few stock cards left anyone knocks
BIAS = const(240)         # (x16) playing on, against a sure quick knocker
MARGIN = const(48)        # (x16) playing on, always (the estimate of playing on falls short by about this)
# ... while the stock holds EARLY cards or more: there, knocking is worth
# more than the estimate says (the AI lab's search over samples of the
# hidden cards knocks where hard played on mostly while the stock is long;
# paired 1000 matches against hard at +16: docs/AI.md, "How strong can it be")
MARGIN_EARLY = const(-16)
EARLY = const(20)
UPOUT = const(64)         # chance (x1/256) a card it holds is its next discard
FEED = const(64)          # the card model's pair chances overstate takes (x1/256)
EQUITY = const(1)         # weigh outcomes by the match they leave (equity.py) ...
WAIT = const(1)           # weigh the plan of no knock within ROUNDS too
NEAR = const(100)         # ... once a player needs this many points (of 100) or fewer
BIG = const(480)          # (x16) an undercut's or a gin's points ...
SMALL = const(160)        # ... and a small knock's: the biases scale with the gap

_SCRATCH = (
    [0] * D_BUCKETS,              # gv: our gin against bucket j
    [0] * (ROUNDS + 1),           # og: its gin in round m
    [0] * D_BUCKETS,              # pr: the prior shape now
    [0] * GROUPS,                 # gw: habit weight per group
    [0] * (GROUPS * D_BUCKETS),   # kf: share a group knocks with
    [0] * D_BUCKETS,              # val: knocking now, per bucket
    [0] * (D_BUCKETS * ROUNDS),   # uc: its knock in round m
    [0] * (D_BUCKETS * ROUNDS),   # kr: our knock after round m
    [0] * (ROUNDS + 1),           # gins: our gin chance at draw m
    [0] * (ROUNDS + 1),           # dm: our deadwood (x16) in round m
    [0] * D_BUCKETS,              # b, b2: the opponent's deadwood, a round apart
    [0] * D_BUCKETS,
    [0] * (ROUNDS + 2),           # plan: knocking after m rounds (0: now;
                                  # ROUNDS + 1: no knock in the horizon)
)


class KnockRule(KnockTerms):
    def __init__(self, model, habit, ev):
        self.model = model
        self.habit = habit
        self.ev = ev             # the hand evaluator (its pass over our draws)
        self.style = STYLE_ESTIMATE
        self.t_bias = BIAS       # (x16) playing on, against a sure quick knocker
        self.t_margin = MARGIN   # (x16) playing on, always
        self.t_early = MARGIN_EARLY   # ... with EARLY stock cards or more
        self.t_feed = FEED       # (x1/256) weight of the model's meld-pair chance
        self.t_upout = UPOUT     # (x1/256) a card it holds is its next discard
        self.t_wait = WAIT       # 1: the plan of not knocking in the horizon counts
        self.t_eq = EQUITY       # 1: outcomes in match equity, 0: in points
        self.t_near = NEAR       # ... once a player needs this many points or fewer
        self.eqv = Equity()
        self.sw = 256            # (x1/256) the biases' scale at this match score
        # the estimate's scratch, written before it is read in every call of
        # estimate() and gin_value(): shared by every KnockRule (_SCRATCH)
        (self.gv, self.og, self.pr, self.gw, self.kf, self.val, self.uc, self.kr,
         self.gins, self.dm, self.b, self.b2, self.plan) = _SCRATCH
        self.ek = 0              # the last estimate (points x16), for the hint and tests
        self.en = 0
        self.up_gin = 0
        self.g1 = 0
        self.p_end = 0           # (x1/256) the opponent ends the hand next turn
        self.c = 0               # the card the last estimate's knock throws

    def should_knock(self, k, lv, dw, h, c):
        """Knock now with deadwood dw (<= the limit), h the ten cards the
        knock keeps (suit masks, restored), c the card it throws (the one
        playing on would throw too)?"""
        if dw == 0 or lv < 2 or self.style == STYLE_EAGER:
            return True
        left = k.stock - k.stop_at
        if self.style == STYLE_PATIENT:
            return left <= 0
        self.estimate(k, dw, h, c)
        if left <= 0:
            return self.ek > 0
        return self.ek >= self.en + self.play_on_bias(k)

    def play_on_bias(self, k):
        """(x16) what playing on is worth above its estimate EN, as
        should_knock weighs it: MARGIN (MARGIN_EARLY while the stock holds
        EARLY cards or more), and more against a quick knocker; none at the
        stock's end (playing on is then a drawn hand)."""
        if k.stock - k.stop_at <= 0:
            return 0
        mg = self.t_early if k.stock >= EARLY else self.t_margin
        b = mg + (self.t_bias * self.habit.w[T_LEVELS - 1] >> 12)
        return b * self.sw >> 8

    def _weigh(self, k, bg):
        """The outcomes of the estimate (val, uc, kr and the gins: gv ours
        against bucket j, og its in round m) in points at this match score
        (equity.py), or in plain points with t_eq = 0; sw the biases' scale."""
        gv = self.gv
        og = self.og
        dm = self.dm
        for j in range(D_BUCKETS):
            gv[j] = bg + D_MEAN[j] * 16
        for m in range(1, ROUNDS + 1):
            og[m] = -(bg + dm[m])
        self.sw = 256
        sc = k.scores
        near = self.t_near * k.target // 100
        if not self.t_eq or (k.target - sc[0] > near and k.target - sc[1] > near):
            return
        e = self.eqv
        e.set(sc[0], sc[1], k.target)
        # the biases stand for big outcomes the plan misses (undercuts, late
        # gins: about BIG) in place of a small knock (SMALL): their worth
        # at this score, as a share of what it is at the start
        x = (e.u(BIG) - e.u(SMALL)) * 256 // (BIG - SMALL)
        self.sw = 0 if x < 0 else 512 if x > 512 else x
        e.weigh(self.val, D_BUCKETS)
        e.weigh(gv, D_BUCKETS)
        e.weigh(self.uc, D_BUCKETS * ROUNDS)
        e.weigh(self.kr, D_BUCKETS * ROUNDS)
        e.weigh(og, ROUNDS + 1)

    # -- the estimate ------------------------------------------------------------
    def estimate(self, k, dw, h, c):
        """Set self.ek (knock now) and self.en (the best plan of knocking
        after 1..ROUNDS more rounds), points x16, for deadwood dw, the ten
        cards h kept and the card c thrown."""
        self.c = c
        lim = k.limit
        bu = k.uc_bonus * 16
        bg = k.gin_bonus * 16
        d16 = dw * 16
        lay = self._layoff(k, h)
        left = k.stock - k.stop_at
        first = self._our_draw(h, dw)
        self._our_rounds(dw, lay, bu, first)
        pr = self._prior(k)
        self._groups(lim)
        val = self.val
        for j in range(D_BUCKETS):
            x = D_MEAN[j] * 16 - lay
            if x < 0:
                x = 0
            val[j] = x - d16 if x > d16 else -(bu + d16 - x)
        self._weigh(k, bg)
        # our discard c if we play on: what taking it is worth to the opponent
        model = self.model
        model.feed(k, c)
        fp = model.f_p * self.t_feed >> 8
        fsave = model.f_save >> 1        # the pair counted at half
        vc = CARD_VALUE[c] * 16
        # its highest deadwood card: at most its last discard's value
        hv = CARD_VALUE[k.olast_rank] * 16 if k.olast_rank < 13 else 160
        uc = self.uc
        kr = self.kr
        gins = self.gins
        kf = self.kf
        gw = self.gw
        gv = self.gv
        ogin = self.og
        plan = self.plan
        for m in range(ROUNDS + 2):
            plan[m] = 0
        b = self.b
        b2 = self.b2
        # the two heaviest groups stand for the habit (the others' weight
        # goes with them): two steps of the opponent's deadwood a round
        g1st = 0
        for g in range(1, GROUPS):
            if gw[g] > gw[g1st]:
                g1st = g
        g2nd = 1 if g1st == 0 else 0
        for g in range(GROUPS):
            if g != g1st and gw[g] > gw[g2nd]:
                g2nd = g
        pw_tot = 0
        pend = 0
        for g in range(GROUPS):
            if g != g1st and g != g2nd:
                continue
            og = g * D_BUCKETS
            z = 0
            for i in range(D_BUCKETS):
                p = pr[i] * (256 - kf[og + i]) >> 8
                b[i] = p
                z += p
            if z <= 0:
                continue
            pw = gw[g] * z >> 12
            if pw <= 0:
                continue
            pw_tot += pw
            acc = 0
            for i in range(D_BUCKETS):
                if b[i]:
                    acc += b[i] * val[i]
            plan[0] += pw * (acc // z)
            ended = 0                    # value (x z) of the hands ended so far
            for m in range(1, ROUNDS + 1):
                if left < 2 * m - 1:
                    plan[m] += pw * (ended // z)   # no stock card for it: drawn
                    continue
                end_m = left - (2 * m - 1) <= END_KNOCK
                for j in range(D_BUCKETS):
                    b2[j] = 0
                for i in range(D_BUCKETS):
                    p = b[i]
                    if not p:
                        continue
                    if m == 1:
                        # it may take our discard: to meld it, or to knock
                        di = D_MEAN[i] * 16
                        h2 = hv if hv < di else di
                        if fp:
                            pm = p * fp >> 8
                            e = (di - fsave - h2) >> 4
                            b2[d_bucket(e if e > 0 else 0)] += pm * 255
                            p -= pm
                        e = (di + vc - h2) >> 4
                        if 0 < e < D_MEAN[i]:
                            kn = 256 if end_m else kf[og + d_bucket(e)]
                            if kn:
                                x = p * kn >> 8
                                b2[d_bucket(e)] += x * 255
                                p -= x
                    if p < 2:
                        continue
                    for x in range(SP_AT[i], SP_AT[i + 1], 2):
                        b2[SPARSE[x]] += p * SPARSE[x + 1]
                o = (m - 1) * D_BUCKETS
                out_m = 0
                for j in range(D_BUCKETS):
                    q = b2[j] >> 8
                    if not q:
                        b2[j] = 0
                        continue
                    if j == 0:
                        ended += q * ogin[m]
                        out_m += q
                        q = 0
                    else:
                        kn = 256 if end_m else kf[og + j]
                        if kn:
                            x = q * kn >> 8
                            ended += x * uc[o + j]
                            out_m += x
                            q -= x
                    b2[j] = q
                if m == 1:
                    pend += pw * out_m * 256 // z
                if left < 2 * m:
                    plan[m] += pw * (ended // z)   # it drew the last card: drawn
                    for j in range(D_BUCKETS):
                        b[j] = 0
                    continue
                # our draw: gin, or the planned knock
                gm = gins[m]
                cont = 0
                for j in range(D_BUCKETS):
                    q = b2[j]
                    if q:
                        x = q * gm >> 8
                        ended += x * gv[j]
                        q -= x
                        cont += q * kr[o + j]
                    b[j] = q
                plan[m] += pw * ((ended + cont) // z)
            # no knock within the horizon: the hands ended on the way; the
            # rest is still an open race (0)
            plan[ROUNDS + 1] += pw * (ended // z)
        if pw_tot <= 0:
            self.ek = 0
            self.en = 0
            self.p_end = 0
            return
        self.ek = plan[0] // pw_tot
        self.p_end = pend // pw_tot
        best = plan[1] // pw_tot
        for m in range(2, ROUNDS + 1 + self.t_wait):
            v = plan[m] // pw_tot
            if v > best:
                best = v
        self.en = best
