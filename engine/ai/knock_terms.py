"""The terms of the knock estimate (knock.py): the opponent's deadwood
prior and its habit pooled into groups, what going gin scores, the
layoffs on our melds, our next draw and our side of the coming rounds;
and the tables they read, built once at import from opp_tables.py.
Allocation-free (KnockRule's buffers)."""
from ..compat import const
from ..cards import CARD_VALUE
from ..melds import BIT_RANK
from .opp_shape import D_BUCKETS, V_BUCKETS, P_BUCKETS, H_BUCKETS, n_bucket, v_bucket, p_bucket, d_bucket, below
from .opp_tables import PRIOR, PRIOR2, STEP, D_MEAN, HELD, HELD2, VPREV, VPREV2
from .habit import T_LEVELS

ROUNDS = const(3)         # rounds of play looked at before the planned knock
GROUPS = const(4)         # habit groups: T = 0, 1-4, 5-9, 10
GROUP_OF = bytes((0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3))   # T -> group


def _improvement():
    """IMP[d]: our expected deadwood (x16) after a draw that is not gin,
    from deadwood d (STEP's rows: never upwards, a drawn card can go back)."""
    out = bytearray(11 * 2)          # x16, two bytes each (up to 160)
    for d in range(11):
        j = d_bucket(d)
        o = j * D_BUCKETS
        tot = 0
        acc = 0
        for f in range(1, D_BUCKETS):
            p = STEP[o + f]
            v = D_MEAN[f] if f < j else d
            if v > d:
                v = d
            tot += p
            acc += p * v
        x = acc * 16 // tot if tot else d * 16
        out[2 * d] = x >> 8
        out[2 * d + 1] = x & 255
    return bytes(out)


IMP = _improvement()


def _sparse_step():
    """STEP's rows without their negligible entries (under 2/255), as bytes:
    SPARSE[SP_AT[i]:SP_AT[i + 1]] holds row i's (column, share) pairs."""
    at = [0] * (D_BUCKETS + 1)
    out = bytearray()
    for i in range(D_BUCKETS):
        at[i] = len(out)
        o = i * D_BUCKETS
        for j in range(D_BUCKETS):
            if STEP[o + j] >= 2:
                out.append(j)
                out.append(STEP[o + j])
    at[D_BUCKETS] = len(out)
    return bytes(out), tuple(at)


SPARSE, SP_AT = _sparse_step()
# BELOW[t * D_BUCKETS + j]: below(j, t) for thresholds 0..10
BELOW = bytes([min(255, below(j, t)) for t in range(11) for j in range(D_BUCKETS)])


class KnockTerms:
    """KnockRule's terms (its buffers are made in KnockRule.__init__)."""

    # -- the opponent ------------------------------------------------------------
    def _prior(self, k):
        """The prior shape of the opponent's deadwood now (self.pr, sums to
        about 255): the two fitted shapes (its turn, its last discard) mixed
        by its learned style, each times the factors of the pickups it still
        holds (HELD: kept pickups are in melds; counted by the card model's
        fill for this view) and of the rank of its discard before the last
        (VPREV)."""
        vb = v_bucket(k.olast_rank)
        row = (n_bucket(k.odn) * V_BUCKETS + vb) * D_BUCKETS
        # the pickups it still holds: the cards of its hand the model knows
        n = 10 - self.model.nopp
        oh = (n if n < H_BUCKETS else H_BUCKETS - 1) * D_BUCKETS
        ov = (vb * P_BUCKETS + p_bucket(k.oprev_rank)) * D_BUCKETS
        mix = self.habit.mix
        pr = self.pr
        tot = 0
        for i in range(D_BUCKETS):
            # x16 (64 x 64 >> 8), then x4096 with the mix: under 2**30
            a = PRIOR[row + i] * HELD[oh + i] * VPREV[ov + i] >> 8
            b = PRIOR2[row + i] * HELD2[oh + i] * VPREV2[ov + i] >> 8
            x = (a * mix + b * (256 - mix)) >> 12
            pr[i] = x
            tot += x
        if tot > 0:
            for i in range(D_BUCKETS):
                pr[i] = pr[i] * 255 // tot
        return pr

    def _groups(self, lim):
        """The habit pooled into GROUPS: weights gw and, per group, the share
        (x1/256) of each bucket it would knock with (kf)."""
        w = self.habit.w
        gw = self.gw
        kf = self.kf
        for g in range(GROUPS):
            gw[g] = 0
        for i in range(GROUPS * D_BUCKETS):
            kf[i] = 0
        for t in range(T_LEVELS):
            g = GROUP_OF[t]
            x = w[t]
            gw[g] += x
            thr = lim if t == T_LEVELS - 1 or t > lim else t
            o = g * D_BUCKETS
            if thr <= 10:
                ob = thr * D_BUCKETS
                for j in range(D_BUCKETS):
                    kf[o + j] += x * BELOW[ob + j]
            else:                        # a V5 limit above 10
                for j in range(D_BUCKETS):
                    kf[o + j] += x * below(j, thr)
        for g in range(GROUPS):
            x = gw[g]
            o = g * D_BUCKETS
            for j in range(D_BUCKETS):
                kf[o + j] = kf[o + j] // x if x else 0
            kf[o] = 256                  # deadwood 0: it would have gone gin

    def end_chance(self, k):
        """The chance (x1/256) that the opponent ends the hand on its next
        turn (a knock under its threshold, or gin): over the habit's groups,
        its deadwood now (the prior less the part it would have knocked
        with) one step along STEP. The evaluator weighs the deadwood we
        hold now by it (a hand that may be caught before its next draw)."""
        pr = self._prior(k)
        self._groups(k.limit)
        gw = self.gw
        kf = self.kf
        num = 0
        den = 0
        for g in range(GROUPS):
            w = gw[g]
            if not w:
                continue
            o = g * D_BUCKETS
            for i in range(D_BUCKETS):
                # its weight (under 2**16) and its share that ends next turn
                p = (pr[i] * (256 - kf[o + i]) >> 8) * w >> 4
                if not p:
                    continue
                e = 0
                for x in range(SP_AT[i], SP_AT[i + 1], 2):
                    e += SPARSE[x + 1] * kf[o + SPARSE[x]]
                den += p
                num += (p >> 4) * (e >> 8)
        return num * 16 // den if den else 0

    def gin_value(self, k):
        """What going gin scores (x16): the gin bonus and the opponent's
        expected deadwood (R10; no layoffs, R9)."""
        pr = self._prior(k)
        self._groups(k.limit)
        gw = self.gw
        kf = self.kf
        num = 0
        den = 0
        for g in range(GROUPS):
            x = gw[g] >> 4
            if not x:
                continue
            o = g * D_BUCKETS
            for i in range(D_BUCKETS):
                p = pr[i] * (256 - kf[o + i]) >> 8
                num += x * p * D_MEAN[i]
                den += x * p
        ed = num * 16 // den if den else 160
        return k.gin_bonus * 16 + ed

    # -- our side ----------------------------------------------------------------
    def _layoff(self, k, h):
        """Expected deadwood (x16) the opponent lays off on our melds."""
        model = self.model
        tot = 0
        for s in range(4):
            x = h[s]
            w = x & (x >> 1) & (x >> 2)
            run = w | (w << 1) | (w << 2)
            ext = ((run << 1) | (run >> 1)) & ~x & 0x1FFF
            while ext:
                bit = ext & -ext
                ext ^= bit
                c = s * 13 + BIT_RANK[bit % 37]
                tot += model.p(k, c) * CARD_VALUE[c]
        a = h[0]
        b = h[1]
        c = h[2]
        d = h[3]
        three = ((a & b & (c | d)) | (c & d & (a | b))) & ~(a & b & c & d)
        while three:
            bit = three & -three
            three ^= bit
            r = BIT_RANK[bit % 37]
            miss = 0 if not a & bit else 1 if not b & bit else 2 if not c & bit else 3
            tot += model.p(k, miss * 13 + r) * CARD_VALUE[r]
        return tot // 32         # x16 / 256 (chance) / 2 (held as deadwood)

    def _our_draw(self, h, dw):
        """Our next draw: self.g1 the chance (x1/256) that it is gin,
        self.up_gin the chance the opponent throws us a gin card first;
        returns our expected deadwood (x16) after a draw that is not gin.
        From the evaluator's exact pass over the unseen cards (value10:
        each one as the next stock card, the best discard after it)."""
        ev = self.ev
        ev.value10(h)
        model = self.model
        tot = model.ps_sum
        gin = ev.g_ps
        self.g1 = gin * 256 // tot if tot else 0
        # the opponent holds a gin card with chance po = 256 - ps
        upg = (256 * ev.g_n - gin) * self.t_upout >> 8
        self.up_gin = upg if upg < 256 else 256
        ng = tot - gin
        return ev.v1 * tot // ng if ng > 0 else dw * 16

    def _our_rounds(self, dw, lay, bu, first):
        """Per round m = 1..ROUNDS and bucket j of the opponent's deadwood:
        uc (its knock with bucket j's mean in round m: our undercut or our
        loss), kr (our knock after our m-th draw); gins[m] (our gin chance at
        that draw), dm[m] (our deadwood, x16, during round m)."""
        uc = self.uc
        kr = self.kr
        gins = self.gins
        dm = self.dm
        g1 = self.g1
        ug = self.up_gin
        d16 = dw * 16
        for m in range(1, ROUNDS + 1):
            dm[m] = d16
            if m == 1:
                nxt = first
                gins[1] = ug + ((256 - ug) * g1 >> 8)
            else:
                d = (d16 + 8) >> 4
                nxt = (IMP[2 * d] << 8) | IMP[2 * d + 1] if d <= 10 else d16
                gins[m] = g1
            o = (m - 1) * D_BUCKETS
            for j in range(D_BUCKETS):
                dj = D_MEAN[j] * 16
                uc[o + j] = bu + dj - d16 if d16 <= dj else dj - d16
                x = dj - lay
                if x < 0:
                    x = 0
                kr[o + j] = x - nxt if x > nxt else -(bu + nxt - x)
            d16 = nxt
