"""The hand evaluator: what a 10-card hand is worth, and the best discard.

A 10-card hand is valued by its deadwood less the expected gain of one more
stock draw and the best discard. An unseen card that can join no meld with
the hand can only replace the highest-value deadwood card (one formula); a
card that can join a meld gets an exact best-discard search. The meld part
of the gain is weighted up (lam: x4 with a full stock, falling to x1 as it
runs out, and x1 while playing on with a knockable hand), standing for the
draws still to come: so pairs, two-card runs and gaps count by how many of
their completing cards are still live, and count less late in the hand
(x4 rather than x3.5: tools/ailab/panel.py --a hard@ev.t_lam=64, 4000 matches
a partner, seed 500001: greedy-gin +7.50 -> +7.93 points a hand,
hard-patient +2.41 -> +2.64, `simple` +6.87 -> +6.96, and at seed 300001
+6.87 -> +6.81; x3 played worse: `simple` +6.75). It
also counts less when the opponent's last discard was a low card
(x(v + 4)/14 for a card of value v): a player shedding low cards is close
to knocking, so the deadwood held now matters more than the draws to come.

A gin ends the hand with its bonus (R10) and no undercut, and stops the
opponent's own race: worth more than the deadwood it sheds. The hard
level takes GIN_DRAW points off the value for a sure gin on the next draw
(times the chance of one, the weight of the gin cards among the unseen),
and up to GIN_DRAW_PATIENT more against a player who waits for gin (the
habit's share of thresholds 0-2): there the hand is a race to gin, and a
hand one card from gin beats a lower one that is not. Against a quick
knocker the deadwood held matters more (the undercut, R10), so the bonus
stays small. (tools/ailab/panel.py, 600 matches a partner against greedy-gin,
greedy-1, simple and hard-patient: +0.6 and +0.9 points a hand at seeds
70001 and 90001; a fixed bonus as large as the patient partners want, 56
points, won 77.9% of 1500 matches against `simple` where none won 79.8%.)

The opponent may end the hand on its next turn, before our next draw: the
hard level weighs a hand's value with the deadwood it holds now by twice
that chance (KnockTerms.end_chance, at_risk; PEND: once, twice and four
times it played about alike, twice a little ahead), in the discard choice
and the draw alike. (tools/ailab/panel.py --a hard@ev.t_pend=0 against --a
hard, 4000 matches a partner, seed 200001: `simple` +6.21 -> +6.34 points
a hand, greedy-gin +6.48 -> +6.51; 2000 matches, seeds 1234 and 5555:
`simple` +0.10 and +0.14.)

Caught by a knock, the hand lays off cards on the knocker's melds (R9).
The hard level takes the expected layoff off the deadwood that at_risk
weighs (lay_prep, lay16): a deadwood card lays off by the chance that the
opponent holds the other three cards of its rank, plus the chance that it
holds the three suit neighbours above it, plus those below (its card
model's chances, multiplied), times LAYOFF/16. Four times that chance
plays best: a point laid off also makes an undercut (R10) likelier.
(tools/ailab/layoff_calibration.py, 200 matches against `simple`: at its knocks
we hold 15.5 points and lay off 1.8 without the term, 15.7 and 2.1 with
it, and undercut 37.1% -> 38.4% of them. tools/ailab/panel.py --a
hard@ev.t_lay=K --b greedy-gin,simple, 4000 matches a partner, seed
500001, K = 0 / 16 / 32 / 64 / 128: `simple` +6.48 / +6.63 / +6.76 /
+6.87 / +6.79 points a hand, greedy-gin +7.50 / +7.55 / +7.55 / +7.50 /
+7.45; seed 300001, 4000 matches against `simple`: +6.56 -> +6.87.)

Values are deadwood points x16 (lower is better).
"""
from ..compat import const
from ..cards import NO_CARD, CARD_VALUE
from ..melds import deadwood4, best_discard4, dsets, BIT_RANK
from ..tables import RUN_DW, DROP
from .evaluate_sets import SetsValue, GIN_VALUE

MARGIN = const(6)        # discard candidates: deadwood within this of the best
MARGIN_NORMAL = const(3)  # ... for normal (fewer candidates: faster)
DANGER = const(1)        # (x1/16) points charged per unit of danger (at 3
                         # the charge, on the card model's guesses, lost more
                         # against a player racing for gin than it won
                         # against a quick knocker)
DANGER_SCALE = const(10)  # danger x (deadwood left + this) / (10 + this)
LAM_EARLY = const(64)    # (x1/16) weight of meld gains with a full stock ...
LAM_LATE = const(16)     # ... falling to this as the stock runs out
LAM_WAIT = const(16)     # ... and this while playing on with a knockable hand
DANGER_PATIENT = const(0)
LAM_EAGER = const(0)      # (a cut of 128 against `simple` and hard knocking at
                          # once lost 0.6-0.9 points a hand: 400 matches each)
LAM_PATIENT = const(0)
LAM_LOW = const(4)       # meld gains x (v + this) / (10 + this), v: the value
                         # of the opponent's last discard
GIN_DRAW = const(256)    # (x16) a sure gin on the next draw, above its deadwood
GIN_DRAW_PATIENT = const(1000)  # (x16) ... and more, at a sure patient player
LAYOFF = const(64)       # (x1/16) scale of the layoff chances (0: off)
PEND = const(512)        # (x1/256) weight of the opponent's chance to end the hand next turn
                         # (at_risk; 0: off)


class Evaluator(SetsValue):
    def __init__(self, model, hard):
        self.model = model
        self.m = [0, 0, 0, 0]        # scratch 11-card hand
        self.h = [0, 0, 0, 0]        # scratch 10-card hand
        self.lam = LAM_EARLY
        self.v1 = 0                  # the last value10 without the lam weight
        self.g_ps = 0                # ... the stock weight (model.ps) of its gin cards
        self.g_n = 0                 # ... and how many there are
        self.dc_value = 0            # value of the hand the last discard leaves
        self.dc_dw = 0               # ... and its deadwood
        self.t_margin = MARGIN if hard else MARGIN_NORMAL
        self.t_danger = DANGER if hard else 0
        self.t_dsc = DANGER_SCALE
        self.t_lam = LAM_EARLY if hard else 16
        self.t_lam2 = LAM_LATE if hard else 16
        self.t_lamw = LAM_WAIT if hard else -1
        self.t_lv = LAM_LOW if hard else -1   # -1: off
        self.t_gin = GIN_DRAW if hard else 0
        self.t_ginp = GIN_DRAW_PATIENT if hard else 0
        self.gin_w = 0               # (x16) this decision's gin bonus (set_lam)
        self.p_end = 0               # (x1/256) the opponent ends the hand next turn
        self.t_pend = PEND if hard else 0
        self.t_lay = LAYOFF if hard else 0
        self.lay = bytearray(52)     # per card of ours: chance (x1/256) it lays off
        # tuning hooks on the opponent's style (habit.py; all 0: off, the
        # arena found no setting that wins): more danger against a player
        # who plays for gin, a lower meld weight against a quick knocker
        # or a patient one
        self.t_dpat = DANGER_PATIENT   # (x1/256) extra danger at a sure patient
        self.t_leager = LAM_EAGER      # (x1/256) meld weight cut at a sure eager
        self.t_lpat = LAM_PATIENT      # (x1/256) ... and at a sure patient player
        self.patient = 0             # (x1/256) the habit's share of T <= 2
        self.eager = 0               # (x1/256) its share of T = 10

    def set_lam(self, k):
        """The meld-gain weight for this decision (stock left, the
        opponent's last discard), and the gin bonus (the opponent's habit)."""
        st = k.stock if k.stock < 31 else 31
        lam = self.t_lam2 + (self.t_lam - self.t_lam2) * st // 31
        if self.t_lv >= 0 and k.olast != NO_CARD:
            # an opponent shedding low cards is near its knock: the draws
            # still to come count for less
            vl = CARD_VALUE[k.olast]
            lam = lam * (vl + self.t_lv) // (10 + self.t_lv)
        if self.t_leager:
            lam -= lam * self.t_leager * self.eager >> 16
        if self.t_lpat:
            lam -= lam * self.t_lpat * self.patient >> 16
        self.lam = lam
        self.gin_w = self.t_gin + (self.t_ginp * self.patient >> 8)

    def value10(self, h):
        """Expected deadwood (x16) of the 10-card hand in suit masks `h` after
        one more stock draw and the best discard. `h` is restored."""
        a = h[0]
        b = h[1]
        c = h[2]
        d = h[3]
        if (a & b & (c | d)) | (c & d & (a | b)):
            return self._value10_sets(h)
        # No rank held three times: the deadwood is per-suit runs (RUN_DW),
        # and a draw that makes no set changes one suit's runs only.
        rd = RUN_DW
        dw = rd[a] + rd[b] + rd[c] + rd[d]
        if dw == 0:
            self.v1 = 0
            return GIN_VALUE
        # DROP[x] - 128: the most a removal in suit x lowers the deadwood
        # (0: an empty suit); the best and second best suit, so "a removal
        # elsewhere" is one lookup.
        dr = DROP
        top = dr[a]
        top_s = 0
        top2 = 0
        for s in range(1, 4):
            r = dr[h[s]]
            if r > top:
                top2 = top
                top = r
                top_s = s
            elif r > top2:
                top2 = r
        top -= 128
        top2 -= 128
        hv = top if top > 0 else 0
        model = self.model
        ul = model.ul
        ps = model.ps
        cv = CARD_VALUE
        gm = 0
        gs = 0
        gp = 0
        gn = 0
        for i in range(model.un):
            u = ul[i]
            s = u // 13
            ub = 1 << (u % 13)
            n = 0
            if a & ub:
                n += 1
            if b & ub:
                n += 1
            if c & ub:
                n += 1
            if d & ub:
                n += 1
            if n >= 2:
                # u makes a set, the hand's only one: the full search
                # (melds.low_after_discard4's, called at its set search)
                e = dsets(a | ub if s == 0 else a, b | ub if s == 1 else b,
                           c | ub if s == 2 else c, d | ub if s == 3 else d, ub)
                gm += ps[u] * (dw - e)
                if e == 0:
                    gp += ps[u]
                    gn += 1
                continue
            x = h[s]
            xu = x | ub
            grown = rd[xu]
            if grown >= rd[x] + cv[u]:
                # joins no run: it can only replace the highest deadwood card
                if cv[u] < hv:
                    gs += ps[u] * (hv - cv[u])
                continue
            # joins a run: discard in its own suit, or the best card elsewhere
            base = dw - rd[x] + grown
            e = base + 128 - dr[xu]
            other = top2 if top_s == s else top
            if other > -128:
                r = base - other
                if r < e:
                    e = r
            gm += ps[u] * (dw - e)
            if e == 0:
                gp += ps[u]
                gn += 1
        return self._result(dw, gm, gs, gp, gn)

    def _result(self, dw, gm, gs, gp, gn):
        """value10's value from the sums over the unseen cards (gains in
        melds gm and by a lower card gs, the gin cards' weight gp and
        count gn, all weighted by model.ps); keeps v1, g_ps and g_n."""
        sps = self.model.ps_sum
        gm = gm * 16 // sps
        gs = gs * 16 // sps
        self.v1 = dw * 16 - gm - gs
        self.g_ps = gp
        self.g_n = gn
        # a gin next draw (gp / sps its chance) is worth more than its deadwood
        return dw * 16 - gs - self.lam * gm // 16 - self.gin_w * gp // sps

    def at_risk(self, v, d16):
        """A hand's value v (x16) given that the opponent may end the hand
        on its next turn, before our next draw (p_end): then the deadwood
        held after this turn, d16 (x16), is what counts."""
        pe = self.p_end
        return v + (pe * (d16 - v) >> 8) if pe else v

    def lay_prep(self, k, m):
        """Per card of the hand m: the chance (x1/256) that it lays off on
        the opponent's melds when it knocks (R9)."""
        model = self.model
        lay = self.lay
        kk = self.t_lay
        for s in range(4):
            left = m[s]
            while left:
                bit = left & -left
                left ^= bit
                r = BIT_RANK[bit % 37]
                c = s * 13 + r
                q = 256
                for t in range(4):
                    if t != s:
                        q = q * model.p(k, t * 13 + r) >> 8
                if r <= 9:
                    q += model.p(k, c + 1) * model.p(k, c + 2) * model.p(k, c + 3) >> 16
                if r >= 3:
                    q += model.p(k, c - 1) * model.p(k, c - 2) * model.p(k, c - 3) >> 16
                q = q * kk >> 4
                lay[c] = 255 if q > 255 else q

    def lay16(self, h):
        """Expected deadwood (x16) the hand h lays off (lay_prep's chances
        over its deadwood cards: those in no run, at no rank held three
        times)."""
        t = (h[0] & h[1] & (h[2] | h[3])) | (h[2] & h[3] & (h[0] | h[1]))
        lay = self.lay
        cv = CARD_VALUE
        tot = 0
        for s in range(4):
            x = h[s]
            w = x & (x >> 1) & (x >> 2)
            left = x & ~(w | (w << 1) | (w << 2) | t)
            while left:
                bit = left & -left
                left ^= bit
                c = s * 13 + BIT_RANK[bit % 37]
                tot += cv[c] * lay[c]
        return tot >> 4

    def discard_choice(self, k, danger, limit, forbid):
        """Best discard for the 11-card hand in self.m (never `forbid`, R4).
        Returns the card; self.dc_value is the value of the hand it leaves
        (without the danger term, so draws can be compared), self.dc_dw its
        deadwood. `danger`:
        charge for feeding the opponent (hard)."""
        m = self.m
        h = self.h
        bd = best_discard4(m, forbid)
        lo = bd >> 6
        if lo <= limit and self.t_lamw >= 0:
            self.lam = self.t_lamw      # playing on at low deadwood
        found = False
        best = 0
        best_c = bd & 63
        best_v = 0
        best_e = 0
        best_d = lo
        model = self.model
        lay = self.t_lay and self.p_end
        if lay:
            self.lay_prep(k, m)
        for s in range(4):
            x = m[s]
            left = x
            while left:
                bit = left & -left
                left ^= bit
                c = s * 13 + BIT_RANK[bit % 37]
                if c == forbid:
                    continue
                h[0] = m[0]
                h[1] = m[1]
                h[2] = m[2]
                h[3] = m[3]
                h[s] = x ^ bit
                dwc = deadwood4(h[0], h[1], h[2], h[3])
                if dwc > lo + self.t_margin:
                    continue
                d16 = dwc * 16
                if lay:
                    d16 -= self.lay16(h)
                r = self.value10(h)
                e = self.at_risk(r, d16)
                v = e
                if danger:
                    dg = self.t_danger * model.danger(k, c)
                    if self.t_dpat:
                        dg += dg * self.t_dpat * self.patient >> 16
                    # feeding costs more the more deadwood we would be
                    # caught with when the opponent knocks
                    v += dg * (dwc + self.t_dsc) // ((10 + self.t_dsc) * 16)
                cv = CARD_VALUE[c]
                if not found or v < best or (v == best and cv > best_v):
                    found = True
                    best = v
                    best_c = c
                    best_v = cv
                    best_e = e
                    best_d = dwc
        self.dc_value = best_e
        self.dc_dw = best_d
        return best_c
