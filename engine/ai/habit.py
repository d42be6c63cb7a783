"""The opponent's knock habit, learned from the showdowns it has played.

Why the learning should not cost more than it earns
---------------------------------------------------
Hard knows nothing of a new player and plays a fixed, neutral policy: the
habit at its prior (hard-frozen in tools/ailab/bots.py plays it always).
Learning pays where the player keeps to what was learned. A player who
changes style (every hand, every few hands, after two hands) or who plays
against what hard believes (which anyone who studied the AI can work out
from the showdowns, as bots.py's `counter` does) turns every step away
from the prior into a step the wrong way. Three things bound that:

* Trust. Before a hand's evidence is taken in, the estimate and the prior
  each say how likely that evidence was (their weights times its
  likelihood over T). `trust` is the weight of "the estimate foretells
  this player" against "the prior does", moved by that Bayes factor: to
  its fourth power when the prior foretold the hand better (t_sq_down: a
  hand that goes against the estimate costs most of the trust at once), as
  it is when the estimate did (t_sq_up: trust comes back only with hands
  that keep to a style), kept within TRUST_LO..TRUST_HI so that it can
  always turn. Hard plays against
  w = prior + trust (estimate - prior). A player who keeps a style makes
  the estimate foretell it, the trust stays high and hard answers the
  style from the second hand on; a player who changes style makes the
  estimate foretell the hand it just left, the trust falls and hard plays
  near its neutral policy, which such a player cannot exploit more than it
  exploits hard-frozen. What learning can cost is bounded by the hands it
  takes the trust to fall: a hand or two a match.
* Two parts of the hand (below): a player who knocks at once early and
  waits for gin late keeps one style in each part, and is learned as such
  instead of as a switcher.
* FORGET: the estimate drifts back to the prior after every hand, so a
  few hands of one style cannot fix it for good.

Measured, paired against hard-frozen on the same deals (tools/ailab/ai_table.py
--paired-only, 1000 matches, seed 1, points of match wins): the fixed
patient player's gain is kept (lookahead-3 +4.5, 95% +1.9..+7.1) and the
counter's cost is down to -0.6 (-2.5..+1.3; -7.0 with one estimate and no
trust, -1.6 with the factor squared both ways); every row is in
docs/AI.md.

The estimate
------------

A player is modelled as knocking once its deadwood is at most its
threshold T: T = 10 knocks as soon as the rules allow (R6), T = 0 only goes
gin (R7). The estimate is a distribution over T = 0..10 (weights summing
to W_TOTAL), starting from a neutral prior (every T alike) or from what
earlier matches taught (the statistics file keeps it for the device's
player).

After each hand with a showdown (both hands are shown, R8) it learns:
* the opponent knocked with deadwood k > 0 while more than END_STOCK cards
  were left in the stock: T >= k, and the nearer T is to k the likelier
  (a player knocks near its threshold more often than far below it);
* the opponent was the defender and its hand after its last discard had
  deadwood e within the limit: it could have knocked and played on, T < e;
* the opponent knocked or went gin: its hand before its last draw (after
  its previous discard) is known exactly when it took the upcard, and is
  one of the eleven cards short otherwise (the stock card is any of them):
  where that hand was within the limit it played on then, T < e (weighted
  by the share of candidates that say so).
* its style: at a showdown as the defender, its deadwood after its last
  discard is likelier under one of two fitted shapes (opp_tables.py: a
  player keeping its deadwood lowest, or one keeping cards for its draws);
  `mix` is the weight of the first.
An observation that contradicts a T scales that T by EPS rather than
ruling it out (people are not thresholds), and after every hand the
estimate moves FORGET of the way back to the prior: a player who changes
style every few hands is followed within a hand or two, and a few hands
of one style cannot fix the estimate for good. A drawn hand shows no
cards; that the opponent never knocked through it makes a high T less
likely (by DRAWN_SLOPE per step of T).

Two estimates, by the stock: one for the part of a hand while the stock
holds EARLY_STOCK cards or more, one for after. A player may knock as soon
as it can early and wait for gin late (or the reverse); one threshold for
the whole hand then learns from its early knocks that it knocks late too,
and plays on far too little late in the hand (tools/ailab/knock_calibration.py
--b early-knock-late-gin: playing on's estimate fell 2-10 points short,
more as the stock ran down). A hand's observations are of its end (its
knock, the hands held at the last turns), so they teach the estimate of the
stock the hand ended at, fully, and the other one as far as COUPLE: most
players keep one style through a hand, so the other half still learns
nearly as fast, yet a player with two styles pulls them apart. `use(stock)`
picks the estimate the knock rule and the evaluator read (`w`).
"""
from ..compat import const
from ..melds import deadwood4
from ..hand import DRAW_STOCK, DISCARD, KNOCK, TOOK
from .opp_shape import D_BUCKETS, V_BUCKETS, n_bucket, v_bucket, d_bucket
from .opp_tables import PRIOR, PRIOR2

T_LEVELS = const(11)     # thresholds 0 (gin only) .. 10
W_TOTAL = const(4096)
EPS = const(40)          # (x1/256) weight kept by a T an observation contradicts
FORGET = const(20)       # (x1/256) pulled back towards the prior after each hand
END_STOCK = const(3)     # a knock this close to the stock's end says little
KNOCK_EPS = const(20)    # likelihood (x1/4096) of a knock above the threshold
DRAWN_SLOPE = const(20)  # a drawn hand: T's likelihood 256 - this * T (x1/256)
EARLY_STOCK = const(20)  # the early estimate: the stock holds this many cards or more
COUPLE = const(64)       # (x1/256) how far a hand teaches the other part's estimate
EARLY_SLOPE = const(12)  # a hand played past the early part without a knock:
                         # the early T's likelihood 256 - this * T (x1/256)
TRUST0 = const(240)      # (x1/256) trust in the learned estimate at a match's start
TRUST_LO = const(16)     # ... kept within these, so that it can always turn
TRUST_HI = const(248)
RECORD_SIZE = const(23)  # bytes of record(): the early weights, the mix, the late weights
OLD_RECORD = const(12)   # a record of one estimate (both parts start from it)


class Habit:
    def __init__(self):
        self.prior = [0] * T_LEVELS          # the early part's prior ...
        self.prior2 = [0] * T_LEVELS         # ... and the late part's
        self.we = [0] * T_LEVELS             # the estimate while the stock is early
        self.wl = [0] * T_LEVELS             # ... and late
        self.w = self.we                     # the one use() picked
        self.t_couple = COUPLE
        self.wb = [0] * T_LEVELS             # what use() made of an estimate and the trust
        self.trust = TRUST0      # (x1/256) how far w moves from the prior to the estimate
        self.t_trust = 1         # 1: w = prior + trust (estimate - prior); 0: the estimate
        self.t_trust0 = TRUST0
        self.t_sq_down = 2       # the Bayes factor squared this many times when it
        self.t_sq_up = 0         # lowers the trust (to its 4th power), and when it raises it
        self.t_eslope = EARLY_SLOPE
        self.lik = [0] * T_LEVELS
        self.m = [0, 0, 0, 0]
        self.held = [0, 0, 0, 0]
        self.agree = [0] * T_LEVELS
        self.mix = 128           # (x1/256) how much it plays like a deadwood
                                 # minimiser (PRIOR) rather than a drawer (PRIOR2)
        self.mix0 = 128
        self.seen = 0            # finished hands learned from
        self.neutral()

    # -- the estimate ------------------------------------------------------------
    def neutral(self):
        """Forget everything: the neutral prior. Neither style is favoured:
        a third on knocking at once (T = 10), a third on gin only (T = 0),
        a third spread over the thresholds between."""
        self.mix0 = 128
        p = self.prior
        p[0] = W_TOTAL // 3
        p[T_LEVELS - 1] = W_TOTAL // 3
        for t in range(1, T_LEVELS - 1):
            p[t] = W_TOTAL // (3 * (T_LEVELS - 2))
        self._norm(self.prior)
        for t in range(T_LEVELS):
            self.prior2[t] = p[t]
        self.restart()

    def restart(self):
        """A new match: start again from the prior."""
        for t in range(T_LEVELS):
            self.we[t] = self.prior[t]
            self.wl[t] = self.prior2[t]
        self.w = self.we
        self.trust = self.t_trust0
        self.mix = self.mix0
        self.seen = 0

    def use(self, stock):
        """The estimate for a hand whose stock holds `stock` cards: `w`
        (read by the knock rule and the evaluator) is set to it."""
        early = stock >= EARLY_STOCK
        est = self.we if early else self.wl
        g = self.trust
        if not self.t_trust:
            self.w = est
            return est
        p = self.prior if early else self.prior2
        wb = self.wb
        for t in range(T_LEVELS):
            wb[t] = p[t] + (g * (est[t] - p[t]) >> 8)
        self._norm(wb)
        self.w = wb
        return wb

    def fix(self, weights):
        """Set both parts' estimates to `weights` (T_LEVELS numbers, any
        scale): the knock rule's tests and tools hold a habit fixed."""
        for t in range(T_LEVELS):
            self.we[t] = weights[t]
            self.wl[t] = weights[t]
        self._norm(self.we)
        self._norm(self.wl)

    def record(self):
        """The estimate as RECORD_SIZE bytes (the early thresholds' weights,
        the style mix, the late thresholds' weights; 0..255 each), to keep
        between matches (the statistics file). Its first OLD_RECORD bytes
        are laid out as a record of one estimate was."""
        out = bytearray(RECORD_SIZE)
        we = self.we
        wl = self.wl
        for t in range(T_LEVELS):
            x = we[t] * 255 // W_TOTAL
            out[t] = x if x < 256 else 255
            x = wl[t] * 255 // W_TOTAL
            out[OLD_RECORD + t] = x if x < 256 else 255
        out[T_LEVELS] = self.mix if self.mix < 256 else 255
        return bytes(out)

    def load(self, data):
        """Start matches from a record() kept earlier (half-way back to
        neutral: a new match may be a new player); a record of one
        estimate (OLD_RECORD bytes) starts both parts; bad data: neutral."""
        self.neutral()
        if data is None or (len(data) != RECORD_SIZE and len(data) != OLD_RECORD):
            return
        late = OLD_RECORD if len(data) == RECORD_SIZE else 0
        te = 0
        tl = 0
        for t in range(T_LEVELS):
            te += data[t]
            tl += data[late + t]
        if te <= 0 or tl <= 0:
            return
        self.mix0 = (data[T_LEVELS] + 128) // 2
        pe = self.prior
        pl = self.prior2
        for t in range(T_LEVELS):
            pe[t] = (data[t] * W_TOTAL // te + pe[t]) // 2   # and neutral
            pl[t] = (data[late + t] * W_TOTAL // tl + pl[t]) // 2
        self._norm(pe)
        self._norm(pl)
        self.restart()

    def patient(self):
        """Share (of W_TOTAL) of thresholds 0..2: plays for gin."""
        w = self.w
        return w[0] + w[1] + w[2]

    @staticmethod
    def _norm(w):
        tot = 0
        for t in range(T_LEVELS):
            tot += w[t]
        if tot <= 0:
            for t in range(T_LEVELS):
                w[t] = W_TOTAL // T_LEVELS
            tot = (W_TOTAL // T_LEVELS) * T_LEVELS
        for t in range(T_LEVELS):
            x = w[t] * W_TOTAL // tot
            w[t] = x if x > 0 else 1

    # -- learning ----------------------------------------------------------------
    def learn(self, view, me):
        """Take in the match's hands finished since the last call (views
        without a match history, such as an obs, teach nothing)."""
        n = getattr(view, "hands_over", None)
        if n is None:
            return
        if n < self.seen:
            self.restart()           # another match
        while self.seen < n:
            self._learn_hand(view, self.seen, me)
            self.seen += 1
            self._forget(self.we, self.prior)
            self._forget(self.wl, self.prior2)
            self.mix = (self.mix * (256 - FORGET) + self.mix0 * FORGET) >> 8

    @staticmethod
    def _forget(w, p):
        for t in range(T_LEVELS):
            w[t] = (w[t] * (256 - FORGET) + p[t] * FORGET) >> 8
        Habit._norm(w)

    def _learn_hand(self, view, i, me):
        r = view.past_result(i)
        if r.winner is None:
            # drawn: no cards are shown, but it never knocked in a whole
            # hand, which an eager knocker seldom manages (early too)
            lik = self.lik
            for t in range(T_LEVELS):
                lik[t] = 256 - DRAWN_SLOPE * t
            self._apply(0)
            return
        opp = 1 - me
        lim = view.past_limit(i)
        f = self.m
        view.past_masks(i, opp, f)
        lik = self.lik
        for t in range(T_LEVELS):
            lik[t] = 256
        log = view.past_log(i)
        ls = view.past_log_seat(i)
        n = len(log)
        stock = 31
        for j in range(n):
            if log[j] == DRAW_STOCK:
                stock -= 1
        if r.knocker != opp:
            e = deadwood4(f[0], f[1], f[2], f[3])
            self._style(e, log, ls, opp)
            if e > lim:
                return
            self._below(e)
            self._apply(stock)
            return
        # The opponent knocked (or went gin) with its last move.
        last_draw = -1
        prev_disc = -1
        for j in range(n):
            code = log[j]
            if ls[j] != opp:
                continue
            if code == DRAW_STOCK or code >= TOOK:
                last_draw = j
            elif DISCARD <= code < KNOCK and j < n - 1:
                prev_disc = j
        k = r.outcome.knocker_deadwood if r.outcome is not None else 0
        stop = getattr(getattr(view, "rules", None), "stop_at", 0)
        if k > 0 and stock - stop > END_STOCK:
            self._knocked(k)
        x = log[n - 1] - KNOCK           # its knock discard
        if prev_disc >= 0 and last_draw > prev_disc:
            self._before_last_draw(f, x, log[last_draw], lim, view, i, opp, last_draw)
        self._apply(stock)

    def _knocked(self, k):
        """It knocked with deadwood k > 0. Under a threshold T >= k a knock
        lands on k with chance (2k + T) / (T (2T + 1)): players knock near
        their threshold more often than far under it (measured: an eager
        knocker's knocks rise from 7% at 1 to 17% at 10); T < k contradicts."""
        lik = self.lik
        for t in range(T_LEVELS):
            if t < k:
                x = KNOCK_EPS
            else:
                x = (2 * k + t) * 4096 // (t * (2 * t + 1))
            lik[t] = lik[t] * x >> 8

    def _style(self, e, log, ls, opp):
        """Its deadwood e after its last discard: which prior shape (a
        minimiser's, PRIOR, or a drawer's, PRIOR2) made it likelier."""
        n = 0
        last = 12
        for j in range(len(log)):
            code = log[j]
            if ls[j] == opp and DISCARD <= code < KNOCK:
                n += 1
                last = (code - DISCARD) % 13
        row = (n_bucket(n) * V_BUCKETS + v_bucket(last)) * D_BUCKETS + d_bucket(e)
        a = self.mix * (PRIOR[row] + 2)
        b = (256 - self.mix) * (PRIOR2[row] + 2)
        m = a * 256 // (a + b)
        self.mix = 8 if m < 8 else (248 if m > 248 else m)

    def _below(self, e):
        """It held deadwood e (within the limit) and did not knock: T < e."""
        lik = self.lik
        for t in range(e, T_LEVELS):
            lik[t] = lik[t] * EPS >> 8

    def _before_last_draw(self, f, x, draw, lim, view, i, opp, j_draw):
        # Its eleven cards were f + x; before the draw it held them less the
        # card drawn: the taken upcard, or one of the cards it did not
        # already hold for sure (pickups still held).
        s = x // 13
        f[s] |= 1 << (x % 13)
        if draw >= TOOK:
            c = draw - TOOK
            f[c // 13] &= ~(1 << (c % 13))
            e = deadwood4(f[0], f[1], f[2], f[3])
            f[c // 13] |= 1 << (c % 13)
            if e <= lim:
                self._below(e)
        else:
            held = self._held_before(view, i, opp, j_draw)
            # for each threshold, the share of candidate draws it agrees with
            cnt = 0
            agree = self.agree
            for t in range(T_LEVELS):
                agree[t] = 0
            for t2 in range(4):
                left = f[t2] & ~held[t2]
                while left:
                    bit = left & -left
                    left ^= bit
                    f[t2] ^= bit
                    e = deadwood4(f[0], f[1], f[2], f[3])
                    f[t2] ^= bit
                    cnt += 1
                    # it played on with e: every T >= e is contradicted
                    top = e if e <= lim else T_LEVELS
                    for t in range(top):
                        agree[t] += 1
            if cnt:
                lik = self.lik
                for t in range(T_LEVELS):
                    a = agree[t] * 256 // cnt
                    lik[t] = lik[t] * (EPS + ((256 - EPS) * a >> 8)) >> 8
        f[s] &= ~(1 << (x % 13))

    def _held_before(self, view, i, opp, j_draw):
        """Masks of the cards the opponent took from the pile before move
        j_draw of hand i and had not thrown back."""
        h = self.held
        h[0] = h[1] = h[2] = h[3] = 0
        log = view.past_log(i)
        ls = view.past_log_seat(i)
        for j in range(j_draw):
            if ls[j] != opp:
                continue
            code = log[j]
            if code >= TOOK:
                c = code - TOOK
                h[c // 13] |= 1 << (c % 13)
            elif code >= DISCARD:
                c = code & 63
                h[c // 13] &= ~(1 << (c % 13))
        return h

    def _apply(self, stock):
        """The hand's likelihoods (lik) into the estimate of the part of
        the stock it ended in (a drawn hand, stock 0: both fully), and
        tempered by COUPLE into the other: lik mixed with its mean."""
        lik = self.lik
        early = stock >= EARLY_STOCK
        w = self.we if early else self.wl
        o = self.wl if early else self.we
        cp = self.t_couple
        # how well the estimate foretold this hand, against the prior: the
        # Bayes factor (to the 4th power when it is under 1) moves the trust
        p = self.prior if early else self.prior2
        a = 0
        b = 0
        for t in range(T_LEVELS):
            a += w[t] * lik[t]
            b += p[t] * lik[t]
        sq = self.t_sq_down if a < b else self.t_sq_up
        while True:
            while a >= 16384 or b >= 16384:  # small ints on a 32-bit port
                a >>= 1
                b >>= 1
            if sq <= 0:
                break
            a *= a
            b *= b
            sq -= 1
        tr = self.trust
        d = tr * a + (256 - tr) * b
        if d > 0:
            tr = tr * a * 256 // d
            self.trust = TRUST_LO if tr < TRUST_LO else (TRUST_HI if tr > TRUST_HI else tr)
        tot = 0
        for t in range(T_LEVELS):
            w[t] = w[t] * lik[t] >> 8
            tot += lik[t]
        self._norm(w)
        if stock <= 0:
            for t in range(T_LEVELS):
                o[t] = o[t] * lik[t] >> 8
        else:
            mean = tot // T_LEVELS
            for t in range(T_LEVELS):
                x = (lik[t] * cp + mean * (256 - cp)) >> 8
                o[t] = o[t] * x >> 8
        if not early:
            # it played through the early part without knocking, which a
            # quick knocker seldom manages
            sl = self.t_eslope
            for t in range(T_LEVELS):
                o[t] = o[t] * (256 - sl * t) >> 8
        self._norm(o)
