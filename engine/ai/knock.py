"""Knock now or play on: the expected points of each (R6, R7, R9-R11).

Gin (0 deadwood) always. Easy and normal knock as soon as they can. Hard
compares, in points x16, the expected result of knocking now (EK) with
that of playing one more round and knocking then (EN), and knocks when
EK >= EN + t_bias. Both come from:

* The opponent's deadwood D now. Its prior shape P(D | n, v) comes from
  self-play (engine/ai/opp_tables.py, PRIOR): n its discards so far this
  hand, v the rank of its last discard. Its knock habit (habit.py) is a
  distribution w(T) over thresholds T = 0 (gin only) .. 10 (as soon as
  the rules allow): it has not knocked, so under T its D is above T, and
  the posterior weight of T is w(T) times P(D > T).
* Layoffs (R9): the unseen cards that would extend our runs or complete
  our three-card sets, each counted by the chance the opponent holds it,
  at half value (it must hold it as deadwood): L.
* EK = sum over T and D of the posterior times the knock's result with
  D' = D - L: D' - d if D' > d, else the undercut -(B_u + d - D') (R10).
* EN: the opponent draws and throws first. Its deadwood moves D -> D'
  (STEP, from self-play; D' = 0 is its gin: -(B_g + d)); under T it knocks
  when 0 < D' <= T and we score the undercut B_u + D' - d if d <= D', else
  lose d - D'; otherwise we draw, our deadwood falls to d' (exact, over
  the unseen cards weighted as the next stock card, engine/ai/model.py),
  and we go gin (B_g + D') or knock (the EK formula with d' and D'). If
  the stock runs out first (R11 / V3) that continuation is worth 0.
  Since play after that round is not looked at, EN slightly undervalues
  playing on; t_bias is tuned in the arena.
When the stock is at its end, playing on is a drawn hand (0): knock when
EK > 0.

All sums are cumulative over T (a threshold T keeps the deadwood buckets
above it), so the whole estimate is a few hundred small-int operations.
"""
from ..compat import const
from ..cards import CARD_VALUE
from ..melds import low_after_discard4, _BIT_RANK
from .opp_shape import D_BUCKETS, V_BUCKETS, D_MID, n_bucket, v_bucket, d_bucket
from .opp_tables import PRIOR, PRIOR2, STEP
from .habit import T_LEVELS

STYLE_ESTIMATE = const(0)
STYLE_EAGER = const(1)    # knock as soon as the rules allow (sparring)
STYLE_PATIENT = const(2)  # only gin, or the stock's last card (sparring)

ROUNDS = const(6)         # rounds of play looked at before the planned knock
END_KNOCK = const(2)      # with this few stock cards left anyone knocks
BIAS = const(80)          # (x16) playing on against a sure quick knocker: EN runs low
UPOUT = const(64)         # chance (x1/256) a card it holds is its next discard
FEED = const(64)          # the card model's pair chances overstate takes (x1/256)


class KnockRule:
    def __init__(self, model, habit):
        self.model = model
        self.habit = habit
        self.style = STYLE_ESTIMATE
        self.t_bias = BIAS       # (x16) playing on must beat knocking by this
        self.t_feed = FEED       # (x1/256) weight of the model's meld-pair chance
        self.t_upout = UPOUT     # (x1/256) a card it holds is its next discard
        self.up_gin = 0
        self.g1 = 0
        self.r = [0] * 11        # our deadwood after our next draw (weights)
        self.val = [0] * D_BUCKETS
        self.pr = [0] * D_BUCKETS
        self.ucr = [0] * (D_BUCKETS * ROUNDS)
        self.kr = [0] * (D_BUCKETS * ROUNDS)
        self.gins = [0] * (ROUNDS + 1)
        self.dm = [0] * (ROUNDS + 1)
        self.cur = [0] * 11      # (grown for knock limits above 10, V5)
        self.nxt = [0] * 11
        self.b = [0] * D_BUCKETS
        self.b2 = [0] * D_BUCKETS
        self.plan = [0] * (ROUNDS + 1)
        self.ek = 0              # the last estimate, for the hint and tests
        self.en = 0

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
        # the plan undervalues playing on most against a quick knocker (it
        # may knock into our undercut on any later turn)
        bias = self.t_bias * self.habit.w[T_LEVELS - 1] >> 12
        return self.ek >= self.en + bias

    def _prior(self, k):
        """The prior shape of the opponent's deadwood now (self.pr, sums to
        about 255): the two fitted shapes mixed by its learned style."""
        row = (n_bucket(k.odn) * V_BUCKETS + v_bucket(k.olast_rank)) * D_BUCKETS
        mix = self.habit.mix
        pr = self.pr
        for i in range(D_BUCKETS):
            pr[i] = (PRIOR[row + i] * mix + PRIOR2[row + i] * (256 - mix)) >> 8
        return pr

    def gin_value(self, k):
        """What going gin scores (x16): the gin bonus and the opponent's
        expected deadwood (R10; no layoffs, R9)."""
        habit = self.habit
        w = habit.w
        pr = self._prior(k)
        num = 0
        den = 0
        for t in range(T_LEVELS):
            thr = k.limit if t == T_LEVELS - 1 else (t if t < k.limit else k.limit)
            for i in range(D_BUCKETS):
                if D_MID[i] > thr:
                    p = pr[i] * (w[t] >> 4)
                    num += p * D_MID[i]
                    den += p
        ed = num * 16 // den if den else 160
        return k.gin_bonus * 16 + ed

    # -- the estimate ------------------------------------------------------------
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
                c = s * 13 + _BIT_RANK[bit % 37]
                tot += model.p(k, c) * CARD_VALUE[c]
        a = h[0]
        b = h[1]
        c = h[2]
        d = h[3]
        three = ((a & b & (c | d)) | (c & d & (a | b))) & ~(a & b & c & d)
        while three:
            bit = three & -three
            three ^= bit
            r = _BIT_RANK[bit % 37]
            miss = 0 if not a & bit else 1 if not b & bit else 2 if not c & bit else 3
            tot += model.p(k, miss * 13 + r) * CARD_VALUE[r]
        return tot // 32         # x16 / 256 (chance) / 2 (held as deadwood)

    def _our_draw(self, h, dw):
        """r[d']: weight of our deadwood d' after the next stock draw and
        the best discard (d' <= dw: the drawn card can go back). Returns
        the total weight."""
        r = self.r
        for i in range(dw + 1):
            r[i] = 0
        model = self.model
        ul = model.ul
        ps = model.ps
        po = model.po
        tot = 0
        upg = 0
        for i in range(model.un):
            u = ul[i]
            s = u // 13
            bit = 1 << (u % 13)
            h[s] |= bit
            e = low_after_discard4(h[0], h[1], h[2], h[3])
            h[s] ^= bit
            p = ps[u]
            r[e if e < dw else dw] += p
            tot += p
            if e == 0:
                upg += po[u]
        # the opponent may throw us a gin card first (x1/256): each card
        # it holds is its next discard with chance t_upout / 256
        upg = upg * self.t_upout >> 8
        self.up_gin = upg if upg < 256 else 256
        return tot

    def _our_rounds(self, dw, lay, bu):
        """Our side of the plan, per round m = 1..ROUNDS and bucket j of the
        opponent's deadwood: kr (our knock after our m-th draw, if it was
        not gin), ucr (its knock during round m: our undercut or loss) and
        self.gins[m] (our gin chance at the m-th draw, x1/256), dm[m] (our
        mean deadwood x16 during round m). Our first draw is exact (r);
        later ones follow STEP (never upwards: a drawn card can go back)."""
        r = self.r
        cur = self.cur
        nxt = self.nxt
        for e in range(dw + 1):
            cur[e] = 0
        cur[dw] = 256                # before our next draw: dw for sure
        kr = self.kr
        ucr = self.ucr
        gins = self.gins
        dm = self.dm
        rtot = 0
        for e in range(dw + 1):
            rtot += r[e]
        for m in range(1, ROUNDS + 1):
            # during round m the opponent faces `cur` (not gin)
            tot = 0
            acc = 0
            for e in range(1, dw + 1):
                tot += cur[e]
                acc += cur[e] * e
            if tot <= 0:
                tot = 1
            dm[m] = acc * 16 // tot
            o = (m - 1) * D_BUCKETS
            for j in range(D_BUCKETS):
                dj = D_MID[j] * 16
                a2 = 0
                for e in range(1, dw + 1):
                    q = cur[e]
                    if q:
                        e16 = e * 16
                        a2 += q * (bu + dj - e16 if e16 <= dj else dj - e16)
                ucr[o + j] = a2 // tot
            # our m-th draw
            for e in range(dw + 1):
                nxt[e] = 0
            if m == 1:
                if rtot > 0:
                    for e in range(dw + 1):
                        nxt[e] = r[e] * 256 // rtot
                else:
                    nxt[dw] = 256
            else:
                # our gin chance stays what the exact first draw found (the
                # same outs); the other draws improve along STEP
                g1 = self.g1
                for e in range(1, dw + 1):
                    q = cur[e]
                    if not q:
                        continue
                    x = q * g1 >> 8
                    nxt[0] += x
                    q -= x
                    row = e * D_BUCKETS
                    moved = 0
                    for f in range(1, e):
                        x = q * STEP[row + f] >> 8
                        nxt[f] += x
                        moved += x
                    nxt[e] += q - moved
            tot = 0
            for e in range(dw + 1):
                tot += nxt[e]
            if tot <= 0:
                tot = 1
            gins[m] = nxt[0] * 256 // tot
            if m == 1:
                self.g1 = gins[1]
                ug = self.up_gin
                gins[1] = ug + ((256 - ug) * gins[1] >> 8)
            ng = tot - nxt[0]
            for j in range(D_BUCKETS):
                x = D_MID[j] * 16 - lay
                if x < 0:
                    x = 0
                a1 = 0
                for e in range(1, dw + 1):
                    q = nxt[e]
                    if q:
                        e16 = e * 16
                        a1 += q * (x - e16 if x > e16 else -(bu + e16 - x))
                kr[o + j] = a1 // ng if ng > 0 else 0
            # the next round starts from the draws that were not gin
            cur[0] = 0
            for e in range(1, dw + 1):
                cur[e] = nxt[e]

    def _room(self, dw):
        # deadwood values 0..dw: above 10 only with a V5 knock limit
        if len(self.r) <= dw:
            self.r = [0] * (dw + 1)
            self.cur = [0] * (dw + 1)
            self.nxt = [0] * (dw + 1)

    def estimate(self, k, dw, h, c):
        """Set self.ek (knock now) and self.en (the best of knocking after
        one to ROUNDS more rounds), points x16, for deadwood dw and the ten
        cards h."""
        habit = self.habit
        w = habit.w
        lim = k.limit
        bu = k.uc_bonus * 16
        bg = k.gin_bonus * 16
        d16 = dw * 16
        self._room(dw)
        lay = self._layoff(k, h)
        left = k.stock - k.stop_at
        self._our_draw(h, dw)
        self._our_rounds(dw, lay, bu)
        val = self.val
        kr = self.kr
        ucr = self.ucr
        gins = self.gins
        dm = self.dm
        for j in range(D_BUCKETS):
            x = D_MID[j] * 16 - lay
            if x < 0:
                x = 0
            val[j] = x - d16 if x > d16 else -(bu + d16 - x)
        pr = self._prior(k)
        # our discard c if we play on: the opponent's gain from taking it
        model = self.model
        model.feed(k, c)
        fp = model.f_p * self.t_feed >> 8
        fsave = model.f_save
        vc = CARD_VALUE[c] * 16
        # its highest deadwood card: at most its last discard's value
        hv_opp = (CARD_VALUE[k.olast_rank] if k.olast_rank < 13 else 10) * 16
        plan = self.plan
        for m in range(ROUNDS + 1):
            plan[m] = 0
        pw_tot = 0
        self.dbg = 0
        self.dbg2 = 0
        wsum = 0
        for t in range(T_LEVELS):
            wsum += w[t]
        b = self.b
        b2 = self.b2
        for t in range(T_LEVELS):
            if w[t] * 64 < wsum:
                continue             # under 1/64 of the estimate: left out
            thr = lim if t == T_LEVELS - 1 else (t if t < lim else lim)
            z = 0
            for i in range(D_BUCKETS):
                p = pr[i] if D_MID[i] > thr else 0
                b[i] = p
                z += p
            if z <= 0:
                continue
            pw = w[t] * z >> 12
            if pw <= 0:
                continue
            pw_tot += pw
            acc = 0
            dsum = 0
            for i in range(D_BUCKETS):
                if b[i]:
                    acc += b[i] * val[i]
                    dsum += b[i] * D_MID[i]
            plan[0] += pw * (acc // z)
            self.dbg += pw * dsum // z
            ended = 0                # value (x z) of hands that ended so far
            for m in range(1, ROUNDS + 1):
                if left < 2 * m - 1:
                    # no stock card for the opponent: the hand was drawn
                    plan[m] += pw * (ended // z)
                    continue
                # the opponent's turn: its deadwood moves along STEP
                thr_m = lim if left - (2 * m - 1) <= END_KNOCK else thr
                for j in range(D_BUCKETS):
                    b2[j] = 0
                for i in range(D_BUCKETS):
                    p = b[i]
                    if not p:
                        continue
                    if m == 1:
                        # first it may take our discard c: to meld it
                        # (feed), or, below its threshold, to knock
                        di = D_MID[i] * 16
                        hv = hv_opp if hv_opp < di else di
                        if fp:
                            # it holds a pair for c: melds it, throws its
                            # highest deadwood card (the pair counted at
                            # half: it need not have been deadwood)
                            e = (di - (fsave >> 1) - hv) >> 4
                            pm = p * fp >> 8
                            b2[d_bucket(e if e > 0 else 0)] += pm * 255
                            p -= pm
                        e = (di + vc - hv) >> 4
                        if 0 < e <= thr_m and e < D_MID[i]:
                            b2[d_bucket(e)] += p * 255
                            continue
                    o = i * D_BUCKETS
                    for j in range(D_BUCKETS):
                        b2[j] += p * STEP[o + j]
                o = (m - 1) * D_BUCKETS
                for j in range(D_BUCKETS):
                    q = b2[j] >> 8
                    b2[j] = q
                    if not q:
                        continue
                    if j == 0:
                        ended -= q * (bg + dm[m])
                        b2[j] = 0
                        if m == 1:
                            self.dbg2 += pw * q // z
                    elif D_MID[j] <= thr_m:
                        ended += q * ucr[o + j]
                        b2[j] = 0
                        if m == 1:
                            self.dbg2 += pw * q // z
                if left < 2 * m:
                    # it drew the last card and threw: the hand is drawn
                    plan[m] += pw * (ended // z)
                    for j in range(D_BUCKETS):
                        b[j] = 0
                    continue
                # our draw: gin, or the planned knock
                g = gins[m]
                cont = 0
                for j in range(D_BUCKETS):
                    q = b2[j]
                    if q:
                        gq = q * g >> 8
                        ended += gq * (bg + D_MID[j] * 16)
                        q -= gq
                        cont += q * kr[o + j]
                    b[j] = q
                plan[m] += pw * ((ended + cont) // z)
        if pw_tot <= 0:
            self.ek = 0
            self.en = 0
            return
        self.ek = plan[0] // pw_tot
        self.dbg = self.dbg // pw_tot
        self.dbg2 = self.dbg2 * 100 // pw_tot
        best = -99999
        for m in range(1, ROUNDS + 1):
            v = plan[m] // pw_tot
            if v > best:
                best = v
        self.en = best
