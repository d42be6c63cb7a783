"""The device AI: three levels (easy, normal, hard) and the hint.

The AI reads only a player's view: an engine View (engine/view.py) or an
ObsView over the plain-data `obs` dict of the arena and the OpenSpiel
adapter. Both fill one record, `Know`: own suit masks, the discard pile as
masks (rebuilt from the move log), the cards the opponent took and still
holds, the cards it discarded, the upcards it left lying, the stock's size,
the knock limit and the card just taken (R4). Every decision is made from
`Know` alone.

Strategy (hard)
---------------
* Opponent model. Unseen cards are in no known place: not ours, not in the
  pile, not known to be held by the opponent (it took them from the pile and
  has not thrown them back). Each gets a weight for "the opponent holds it":
  the same-rank cards and the one- and two-away suit neighbours of a card it
  discarded or left lying as the upcard are less likely (it had no use for
  that card), those around a card it picked up more likely (it made a meld
  with it). The weights are normalised to the number of unknown cards in its
  hand; the rest of each unseen card's chance is "next stock card".
* Hand value. A 10-card hand is valued by its deadwood less the expected
  gain of one more stock draw and the best discard. An unseen card that can
  join no meld with the hand can only replace the highest-value deadwood
  card (one formula); a card that can join a meld gets an exact best-discard
  search. The meld part of the gain is weighted up (x3 with a full stock,
  falling to x1 as it runs out, and x1 while playing on with a knockable
  hand), standing for the draws still to come: so pairs, two-card runs and
  gaps count by how many of their completing cards are still live, and
  count less late in the hand. It also counts less when the opponent's
  last discard was a low card (x(v + 4)/14 for a card of value v): a player
  shedding low cards is close to knocking, so the deadwood held now
  matters more than the draws to come.
* Discard: among the cards whose removal leaves deadwood within 6 of the
  lowest, the one giving the best hand value, less a charge for feeding the
  opponent: for each pair of cards that would meld with the discard, the
  chance the opponent holds both (from the model; a card it is known to
  hold counts fully) times the deadwood that pair would stop costing it.
  The charge grows with the deadwood the discard leaves us (x(d + 10)/20):
  feeding an opponent hurts most when it knocks and catches us high.
* Draw: take the upcard (never to discard it at once, R4) when the best
  hand after taking it is worth more than the current hand after a stock
  draw (its value improved by one more draw's expected gain), or when it
  lets the player knock and it would.
* Knock: gin (0 deadwood) always. Otherwise hard knocks early only when the
  opponent's deadwood, estimated from the value of its last discard (a
  player shedding its highest deadwood card keeps none above that value),
  the stock draws so far and its pickups, promises a win of 32 points or
  more (in practice rarely, early in a hand). Otherwise it keeps its
  low deadwood and plays on: it may reach gin (+25), and an opponent that
  knocks into a lower or equal deadwood is undercut (+25, R10). Measured
  against `simple` (every knockable position, the knock played out on a
  copy of the game beside the real continuation): playing on scored 21
  points a hand on average where knocking would have scored 12; only in
  the first two or three turns did knocking score more. When the stock is
  two cards from its end (R11 / V3) it knocks rather than let the hand die.

Levels: normal uses the same lookahead (meld gains at x1) over fewer
discard candidates (deadwood within 3 of the lowest), without the opponent
model and the danger charge, and knocks as soon as it can. Easy
plays like a beginner: it discards the highest unmelded card, one time in
four any unmelded card, takes the upcard only for a finished meld, and
knocks at once. The hint is always hard's move, with a few words of why.

Hot paths allocate nothing: every buffer is made in Player(), the inner
evaluators are engine.melds.deadwood4 / best_discard4 (masks in, ints out),
arithmetic is on small ints, action strings come from a prebuilt table, and
nothing depends on dict or set order (the moves are the same on every
runtime for a given seed). A decision reads the view through its
allocation-free accessors (load_masks, pile_card, the log bytearrays).
"""
from .compat import const
from .cards import NO_CARD, CARD_VALUE, card, card_text
from .melds import deadwood4, best_discard4, _BIT_RANK
from .hand import DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD, KNOCK, TOOK, action_code
from .rng import Rng

PH_OFFER = const(0)
PH_DRAW = const(1)
PH_DISCARD = const(2)
PH_OTHER = const(3)

# Tuning (integers; values are deadwood points x16). Measured with
# tools/arena.py against the `simple` baseline (see the README).
_MARGIN = const(6)       # discard candidates: deadwood within this of the best
_MARGIN_NORMAL = const(3)  # ... for normal (fewer candidates: faster)
_DANGER = const(3)       # (x1/16) points charged per unit of danger (see _danger)
_DANGER_SCALE = const(10)  # danger x (deadwood left + this) / (10 + this)
_TAKE_BIAS = const(4)    # (x1/16) taking the upcard must beat drawing by this
_RHO = const(16)         # (x1/16) weight of the next draw's gain when drawing
_LAM_EARLY = const(48)   # (x1/16) weight of meld gains with a full stock ...
_LAM_LATE = const(16)    # ... falling to this as the stock runs out
_LAM_WAIT = const(16)    # ... and this while playing on with a knockable hand
_KNOCK_MARGIN = const(32)  # knock early only for an estimated win this large
_LAM_LOW = const(4)      # meld gains x (v + this) / (10 + this), v: the value
                         # of the opponent's last discard
_KNOCK_END = const(2)    # knock whenever the stock is this close to its end
_P_MAX = const(240)      # cap on a card's "opponent holds it" chance (x1/256)

# Every action string, built once so a decision returns one without allocating.
ACTION_TEXT = [None] * 192
ACTION_TEXT[DRAW_STOCK] = "draw_stock"
ACTION_TEXT[DRAW_UPCARD] = "draw_upcard"
ACTION_TEXT[PASS] = "pass"
for _c in range(52):
    ACTION_TEXT[DISCARD + _c] = "discard:" + card_text(_c)
    ACTION_TEXT[KNOCK + _c] = "knock:" + card_text(_c)
del _c

LEVELS = ("easy", "normal", "hard")


def _bits(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def _in_meld(m, u):
    """Can card u be part of a meld with the cards of suit masks m (u not in m)?"""
    s = u // 13
    bit = 1 << (u % 13)
    n = 0
    if m[0] & bit:
        n += 1
    if m[1] & bit:
        n += 1
    if m[2] & bit:
        n += 1
    if m[3] & bit:
        n += 1
    if n >= 2:
        return True
    x = m[s] | bit
    w = x & (x >> 1) & (x >> 2)
    return (w & ((7 << (u % 13)) >> 2)) != 0


class Know:
    """What the player knows, as suit masks and small ints (preallocated)."""

    def __init__(self):
        self.mine = [0, 0, 0, 0]     # own cards
        self.dead = [0, 0, 0, 0]     # the discard pile (upcard included)
        self.oppk = [0, 0, 0, 0]     # opponent took these and still holds them
        self.otook = [0, 0, 0, 0]    # opponent took these this hand
        self.odisc = [0, 0, 0, 0]    # opponent discarded these this hand
        self.opass = [0, 0, 0, 0]    # upcards the opponent left (drew stock / passed)
        self.stk = bytearray(64)     # the pile rebuilt from the log
        self.seat = 0
        self.phase = PH_OTHER
        self.up = NO_CARD
        self.taken = NO_CARD
        self.stock = 31
        self.limit = 10
        self.stock_only = False
        self.opp_took = 0            # pickups by the opponent this hand
        self.turns = 0               # stock draws this hand (both players)
        self.key_deal = -1
        self.key_hand = -1
        self.init_up = NO_CARD
        self.olast = NO_CARD         # the opponent's last discard (not a knock)
        self.stop_at = 0             # R11: 0; V3: 2 (the hand ends at this stock)

    def fill(self, view):
        """Read `view` (an engine View or an ObsView); allocation-free."""
        self.seat = seat = view.seat
        view.load_masks(self.mine)
        ph = view.phase
        if ph == "discard":
            self.phase = PH_DISCARD
        elif ph == "draw":
            self.phase = PH_DRAW
        elif ph == "first_upcard":
            self.phase = PH_OFFER
        else:
            self.phase = PH_OTHER
        up = view.upcard
        self.up = NO_CARD if up is None else up
        self.stock = view.stock_size
        self.limit = view.knock_limit
        log = view.log
        ls = view.log_seat
        n = len(log)
        deal = view.deal
        hno = view.hand_no
        if deal is None or deal != self.key_deal or hno != self.key_hand:
            self.key_deal = deal
            self.key_hand = hno
            self._new_hand(view)
        dead = self.dead
        oppk = self.oppk
        otook = self.otook
        odisc = self.odisc
        opass = self.opass
        for s in range(4):
            dead[s] = 0
            oppk[s] = 0
            otook[s] = 0
            odisc[s] = 0
            opass[s] = 0
        stk = self.stk
        stk[0] = self.init_up
        sp = 1
        opp = 1 - seat
        took = 0
        turns = 0
        last = 255
        olast = NO_CARD
        for i in range(n):
            code = log[i]
            who = ls[i]
            if code >= TOOK:
                sp -= 1
                if who == opp:
                    c = code - TOOK
                    oppk[c // 13] |= 1 << (c % 13)
                    otook[c // 13] |= 1 << (c % 13)
                    took += 1
            elif code >= DISCARD:
                c = code & 63
                stk[sp] = c
                sp += 1
                if who == opp:
                    b = 1 << (c % 13)
                    oppk[c // 13] &= ~b
                    odisc[c // 13] |= b
                    olast = c
            else:
                if code == DRAW_STOCK:
                    turns += 1
                if who == opp and sp > 0:
                    c = stk[sp - 1]
                    if c < 52:
                        opass[c // 13] |= 1 << (c % 13)
            last = code
        for i in range(sp):
            c = stk[i]
            if c < 52:
                dead[c // 13] |= 1 << (c % 13)
        if self.up != NO_CARD:
            c = self.up
            dead[c // 13] |= 1 << (c % 13)
        for s in range(4):
            dead[s] &= ~self.mine[s]
        self.opp_took = took
        self.turns = turns
        self.olast = olast
        self.stock_only = self.phase == PH_DRAW and last == PASS
        self.taken = NO_CARD
        if self.phase == PH_DISCARD and n and ls[n - 1] == seat and last >= TOOK:
            self.taken = last - TOOK

    def _new_hand(self, view):
        # Once per hand: the first upcard, and the rules' stock stop.
        log = view.log
        init = NO_CARD
        depth = 1
        for i in range(len(log)):
            code = log[i]
            if code >= TOOK:
                depth -= 1
                if depth == 0:
                    init = code - TOOK
                    break
            elif code >= DISCARD:
                depth += 1
        if init == NO_CARD:
            c = view.pile_card(0)
            if c is not None:
                init = c
        self.init_up = init
        r = getattr(view, "rules", None)
        self.stop_at = getattr(r, "stop_at", 0) if r is not None else 0


class Player:
    """An AI player. `choose(view)` -> a legal action string."""

    def __init__(self, level="hard", seed=0):
        if level not in LEVELS:
            raise ValueError("level must be easy, normal or hard, not %r" % (level,))
        self.level = level
        self.lv = LEVELS.index(level)
        self.rng = Rng(seed)
        self.k = Know()
        self.m = [0, 0, 0, 0]        # scratch hand
        self.h = [0, 0, 0, 0]        # scratch 10-card hand for the evaluator
        self.unseen = [0, 0, 0, 0]
        self.ul = bytearray(52)      # unseen cards
        self.un = 0
        self.po = [0] * 52           # opponent holds it (x1/256)
        self.ps = [0] * 52           # next stock card weight (256 - po)
        self.ps_sum = 1
        # what the last decision found, for the hint
        self.why_kind = 0
        self.why_val = 0
        self.v1 = 0
        self.dc_value = 0
        self.lam = _LAM_EARLY
        self._hard = None            # the hint's own hard player (other levels)
        # tuning, per level (instance fields so the arena can try others)
        self.t_margin = _MARGIN if level == "hard" else _MARGIN_NORMAL
        self.t_danger = _DANGER if level == "hard" else 0
        self.t_bias = _TAKE_BIAS
        self.t_rho = _RHO
        self.t_lam = _LAM_EARLY if level == "hard" else 16
        self.t_lam2 = _LAM_LATE if level == "hard" else 16
        self.t_kt = _KNOCK_MARGIN
        self.t_kend = _KNOCK_END
        self.t_lamw = _LAM_WAIT if level == "hard" else -1
        # the defender's deadwood x16 ~ c0 + c1 * (value of its last discard)
        #   - c2 * (stock draws so far) - c3 * (its pickups)
        self.t_kc = (172, 40, 11, 55)
        self.t_lv = _LAM_LOW if level == "hard" else -1   # -1: off
        self.t_dsc = _DANGER_SCALE
        # x/4 weights of an unseen card's same-rank and +-1, +-2 suit
        # neighbours after the opponent discarded / left / took a card
        self.t_nd = (2, 2, 3)
        self.t_np = (2, 2, 3)
        self.t_nt = (8, 8, 6)

    # -- entry points ----------------------------------------------------------
    def choose(self, view):
        """The action for the player to move in `view` (a legal action string)."""
        self.k.fill(view)
        code = self._decide(self.k, self.lv)
        if isinstance(view, ObsView):
            return view.legalise(ACTION_TEXT[code], self)
        return ACTION_TEXT[code]

    def hint(self, view):
        """(action, reason): hard's move for this view and why, in a few words
        (the hint button). Not a hot path: the reason is a new string."""
        if self.level != "hard":
            if self._hard is None:
                self._hard = Player("hard")
            return self._hard.hint(view)
        k = self.k
        k.fill(view)
        code = self._decide(k, 2)
        act = ACTION_TEXT[code]
        if isinstance(view, ObsView):
            act = view.legalise(act, self)
        return act, self._why(k, code)

    # -- the model ---------------------------------------------------------------
    def _model(self, k, lv):
        """Unseen cards, their chance of being in the opponent's hand and of
        being the next stock card."""
        mine = k.mine
        un = 0
        ul = self.ul
        po = self.po
        ps = self.ps
        unseen = self.unseen
        nk = 0
        for s in range(4):
            u = 0x1FFF & ~(mine[s] | k.dead[s] | k.oppk[s])
            unseen[s] = u
            nk += _bits(k.oppk[s])
            left = u
            while left:
                bit = left & -left
                left ^= bit
                c = s * 13 + _BIT_RANK[bit % 37]
                ul[un] = c
                un += 1
                po[c] = 64
        self.un = un
        st = k.stock if k.stock < 31 else 31
        self.lam = self.t_lam2 + (self.t_lam - self.t_lam2) * st // 31
        if self.t_lv >= 0 and k.olast != NO_CARD:
            # an opponent shedding low cards is near its knock: the draws
            # still to come count for less
            vl = CARD_VALUE[k.olast]
            self.lam = self.lam * (vl + self.t_lv) // (10 + self.t_lv)
        nopp = 10 - nk
        if nopp < 0:
            nopp = 0
        if un == 0:
            self.ps_sum = 1
            return
        if lv >= 2:
            # evidence: discarded / left cards make their neighbours unlikely
            nd = self.t_nd
            np_ = self.t_np
            nt = self.t_nt
            for s in range(4):
                ev = k.odisc[s]
                while ev:
                    bit = ev & -ev
                    ev ^= bit
                    self._nudge(s, _BIT_RANK[bit % 37], unseen, nd[0], nd[1], nd[2])
                ev = k.opass[s] & ~k.odisc[s]
                while ev:
                    bit = ev & -ev
                    ev ^= bit
                    self._nudge(s, _BIT_RANK[bit % 37], unseen, np_[0], np_[1], np_[2])
                ev = k.otook[s]
                while ev:
                    bit = ev & -ev
                    ev ^= bit
                    self._nudge(s, _BIT_RANK[bit % 37], unseen, nt[0], nt[1], nt[2])
        tot = 0
        for i in range(un):
            tot += po[ul[i]]
        sps = 0
        for i in range(un):
            c = ul[i]
            p = po[c] * nopp * 256 // tot
            if p > _P_MAX:
                p = _P_MAX
            po[c] = p
            q = 256 - p
            ps[c] = q
            sps += q
        self.ps_sum = sps if sps > 0 else 1

    def _nudge(self, s, r, unseen, f0, f1, f2):
        """Scale (x f/4) the weights of rank r's other suits (f0) and of
        suit s's neighbours of r at distance one (f1) and two (f2)."""
        po = self.po
        bit = 1 << r
        for t in range(4):
            if t != s and unseen[t] & bit:
                c = t * 13 + r
                w = (po[c] * f0) >> 2
                po[c] = 4 if w < 4 else (4096 if w > 4096 else w)
        u = unseen[s]
        for dr in (-2, -1, 1, 2):
            q = r + dr
            if 0 <= q <= 12 and (u >> q) & 1:
                c = s * 13 + q
                w = (po[c] * (f2 if dr == -2 or dr == 2 else f1)) >> 2
                po[c] = 4 if w < 4 else (4096 if w > 4096 else w)

    def _p(self, k, c):
        """Chance (x1/256) that the opponent holds card c."""
        s = c // 13
        bit = 1 << (c % 13)
        if k.oppk[s] & bit:
            return 256
        if self.unseen[s] & bit:
            return self.po[c]
        return 0

    def _danger(self, k, c):
        """How much discarding card c may help the opponent: for each pair
        of cards that would make a meld with c (two of its rank, or suit
        neighbours), the chance the opponent holds both times the deadwood
        they would stop counting, summed (x1/256 chance x points / 13; a
        pair of tens it surely holds: about 394; capped at 512)."""
        s = c // 13
        r = c % 13
        p1 = p2 = p3 = 0
        i = 0
        for t in range(4):
            if t == s:
                continue
            p = self._p(k, t * 13 + r)
            if i == 0:
                p1 = p
            elif i == 1:
                p2 = p
            else:
                p3 = p
            i += 1
        base = s * 13
        v = CARD_VALUE
        d = (p1 * p2 + p1 * p3 + p2 * p3) * 2 * v[c]
        pm2 = self._p(k, base + r - 2) if r >= 2 else 0
        pm1 = self._p(k, base + r - 1) if r >= 1 else 0
        pp1 = self._p(k, base + r + 1) if r <= 11 else 0
        pp2 = self._p(k, base + r + 2) if r <= 10 else 0
        if pm1:
            if pm2:
                d += pm2 * pm1 * (v[base + r - 2] + v[base + r - 1])
            if pp1:
                d += pm1 * pp1 * (v[base + r - 1] + v[base + r + 1])
        if pp1 and pp2:
            d += pp1 * pp2 * (v[base + r + 1] + v[base + r + 2])
        d //= 3328                  # 13 * 256
        return d if d < 512 else 512

    # -- the evaluator -------------------------------------------------------------
    def _value10(self, h):
        """Expected deadwood (x16) of the 10-card hand in suit masks `h` after
        one more stock draw and the best discard. `h` is restored."""
        a = h[0]
        b = h[1]
        c = h[2]
        d = h[3]
        dw = deadwood4(a, b, c, d)
        if dw == 0:
            self.v1 = 0
            return -3200            # gin: nothing is better
        # hv: the most one card's removal lowers the deadwood (the highest
        # deadwood card); a card that joins no meld swaps with it.
        hv = 0
        for s in range(4):
            x = h[s]
            left = x
            while left:
                bit = left & -left
                left ^= bit
                h[s] = x ^ bit
                r = dw - deadwood4(h[0], h[1], h[2], h[3])
                if r > hv:
                    hv = r
            h[s] = x
        ul = self.ul
        ps = self.ps
        gm = 0
        gs = 0
        for i in range(self.un):
            u = ul[i]
            p = ps[u]
            if _in_meld(h, u):
                s = u // 13
                ub = 1 << (u % 13)
                h[s] |= ub
                best = dw
                for t in range(4):
                    x = h[t]
                    left = x
                    while left:
                        bit = left & -left
                        left ^= bit
                        if t == s and bit == ub:
                            continue
                        h[t] = x ^ bit
                        e = deadwood4(h[0], h[1], h[2], h[3])
                        if e < best:
                            best = e
                    h[t] = x
                    if best == 0:
                        break
                h[s] ^= ub
                gm += p * (dw - best)
            else:
                e = dw + CARD_VALUE[u] - hv
                if e < dw:
                    gs += p * (dw - e)
        sps = self.ps_sum
        gm = gm * 16 // sps
        gs = gs * 16 // sps
        self.v1 = dw * 16 - gm - gs
        return dw * 16 - gs - self.lam * gm // 16

    def _discard_choice(self, k, lv, forbid):
        """Best discard for the 11-card hand in self.m (never `forbid`, R4).
        Returns the card; self.dc_value is the value of the hand it leaves
        (without the danger term, so draws can be compared)."""
        m = self.m
        h = self.h
        bd = best_discard4(m, forbid)
        lo = bd >> 6
        if lo <= k.limit and self.t_lamw >= 0:
            self.lam = self.t_lamw      # playing on at low deadwood
        found = False
        best = 0
        best_c = bd & 63
        best_v = 0
        best_e = 0
        for s in range(4):
            x = m[s]
            left = x
            while left:
                bit = left & -left
                left ^= bit
                c = s * 13 + _BIT_RANK[bit % 37]
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
                e = self._value10(h)
                v = e
                if lv >= 2:
                    dg = self.t_danger * self._danger(k, c)
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
        self.dc_value = best_e
        return best_c

    def _should_knock(self, k, lv, dw):
        """Knock now (dw <= the limit)? Gin always; easy and normal at once.
        Hard knocks early only for a large estimated win: otherwise it keeps
        its low deadwood, playing for gin or for the undercut when the
        opponent knocks (R10), and knocks when the stock is nearly out (R11)."""
        if dw == 0 or lv < 2:
            return True
        if k.stock - k.stop_at <= self.t_kend:
            return True
        # The defender's deadwood, estimated from the value of its last
        # discard (a player shedding its highest deadwood card holds no
        # unmelded card above it), the stock draws so far and its pickups.
        vl = CARD_VALUE[k.olast] if k.olast != NO_CARD else 10
        c = self.t_kc
        est = c[0] + c[1] * vl - c[2] * k.turns - c[3] * k.opp_took
        return est - dw * 16 >= self.t_kt * 16

    # -- decisions -----------------------------------------------------------------
    def _decide(self, k, lv):
        m = self.m
        mine = k.mine
        if k.phase == PH_DISCARD:
            m[0] = mine[0]
            m[1] = mine[1]
            m[2] = mine[2]
            m[3] = mine[3]
            x = best_discard4(m, k.taken)
            dw = x >> 6
            if dw <= k.limit and self._should_knock(k, lv, dw):
                self.why_kind = 1
                self.why_val = dw
                return KNOCK + (x & 63)
            if lv == 0:
                return DISCARD + self._easy_discard(k, x & 63)
            self._model(k, lv)
            c = self._discard_choice(k, lv, k.taken)
            self.why_kind = 6 if dw <= k.limit else 2
            return DISCARD + c
        if k.phase == PH_OFFER or k.phase == PH_DRAW:
            if k.up != NO_CARD and not k.stock_only and self._wants_up(k, lv):
                return DRAW_UPCARD
            if k.phase == PH_OFFER:
                return PASS
            return DRAW_STOCK
        raise ValueError("no decision to make in this phase")

    def _easy_discard(self, k, c):
        # A beginner: mostly the highest unmelded card, now and then any
        # unmelded card.
        if self.rng.below(4) == 0:
            m = self.m
            n = 0
            for s in range(4):
                x = m[s]
                left = x
                while left:
                    bit = left & -left
                    left ^= bit
                    cc = s * 13 + _BIT_RANK[bit % 37]
                    if cc != k.taken and not _in_meld_now(m, s, bit):
                        n += 1
            if n:
                j = self.rng.below(n)
                for s in range(4):
                    x = m[s]
                    left = x
                    while left:
                        bit = left & -left
                        left ^= bit
                        cc = s * 13 + _BIT_RANK[bit % 37]
                        if cc != k.taken and not _in_meld_now(m, s, bit):
                            if j == 0:
                                return cc
                            j -= 1
        return c

    def _wants_up(self, k, lv):
        mine = k.mine
        m = self.m
        up = k.up
        m[0] = mine[0]
        m[1] = mine[1]
        m[2] = mine[2]
        m[3] = mine[3]
        self.why_kind = 0
        if lv == 0:
            # easy: only for a finished meld
            if _in_meld(m, up):
                self.why_kind = 3
                return True
            return False
        now = deadwood4(mine[0], mine[1], mine[2], mine[3])
        m[up // 13] |= 1 << (up % 13)
        after = best_discard4(m, up) >> 6
        if after <= k.limit and self._should_knock(k, lv, after):
            self.why_kind = 4
            self.why_val = after
            return True
        self._model(k, lv)
        # the upcard is no longer a stock candidate: it is seen
        self._discard_choice(k, lv, up)
        take = self.dc_value
        h = self.h
        h[0] = mine[0]
        h[1] = mine[1]
        h[2] = mine[2]
        h[3] = mine[3]
        v0 = self._value10(h)
        stock = v0 - self.t_rho * (now * 16 - self.v1) // 16
        if take + self.t_bias < stock:
            self.why_kind = 3 if after < now and _in_meld(mine, up) else 5
            self.why_val = after
            return True
        return False

    def _why(self, k, code):
        """A few words for the 128x64 screen (allocates; not a hot path)."""
        mine = k.mine
        m = [mine[0], mine[1], mine[2], mine[3]]
        if code == DRAW_UPCARD:
            u = k.up
            t = card_text(u)
            if self.why_kind == 4:
                return "take %s: then knock" % t
            s = u // 13
            x = m[s] | (1 << (u % 13))
            w = x & (x >> 1) & (x >> 2)
            if w & ((7 << (u % 13)) >> 2):
                return "take %s: makes a run" % t
            if _in_meld(m, u):
                return "take %s: makes a set" % t
            return "take %s: lowers deadwood" % t
        if code == DRAW_STOCK:
            if k.up == NO_CARD or k.stock_only:
                return "draw from the stock"
            return "draw: %s no help" % card_text(k.up)
        if code == PASS:
            return "pass: %s no help" % card_text(k.up)
        c = code & 63
        t = card_text(c)
        if code >= KNOCK:
            if self.why_val == 0:
                return "gin! discard %s" % t
            return "knock: %d deadwood, stock %d" % (self.why_val, k.stock)
        if self.why_kind == 6:
            return "discard %s: knock later" % t
        # what kind of card goes
        dw11 = deadwood4(m[0], m[1], m[2], m[3])
        s = c // 13
        m[s] ^= 1 << (c % 13)
        dead_card = deadwood4(m[0], m[1], m[2], m[3]) == dw11 - CARD_VALUE[c]
        m[s] ^= 1 << (c % 13)
        if not dead_card:
            return "discard %s: breaks a meld" % t
        hi = 0
        hic = c
        for s2 in range(4):
            for r in range(13):
                if m[s2] >> r & 1:
                    x = s2 * 13 + r
                    m[s2] ^= 1 << r
                    if deadwood4(m[0], m[1], m[2], m[3]) == dw11 - CARD_VALUE[x]:
                        if CARD_VALUE[x] > hi:
                            hi = CARD_VALUE[x]
                            hic = x
                    m[s2] ^= 1 << r
        m[s] ^= 1 << (c % 13)
        if _in_meld(m, c):
            return "discard %s: weakest draw" % t
        if CARD_VALUE[c] >= hi:
            return "discard %s: highest dead card" % t
        if self._danger(k, hic) > self._danger(k, c) + 16:
            return "discard %s: safer than %s" % (t, card_text(hic))
        return "discard %s: keeps draws" % t


def _in_meld_now(m, s, bit):
    """Is the card (suit s, bit) in m part of a possible meld of m?"""
    m[s] ^= bit
    r = _in_meld(m, s * 13 + _BIT_RANK[bit % 37])
    m[s] ^= bit
    return r


# ---------------------------------------------------------------------------
# The plain-data observation (arena, OpenSpiel adapter, bring-your-own bots).

class ObsView:
    """A view-like object over the plain-data `obs` dict (see README).

    Gives the attributes the AI reads (seat, phase, load_masks, upcard, pile,
    stock_size, knock_limit, log/log_seat derived from `moves`, scores, ...)
    so the same Player plays from an obs."""

    def __init__(self, obs):
        self.obs = obs
        self.seat = obs["seat"]
        self.phase = obs["phase"]
        self._hand_cards = sorted([card(t) for t in obs["hand"]])
        up = obs.get("upcard")
        self.upcard = None if up is None else card(up)
        self.discard_pile = [card(t) for t in obs.get("discard_pile", [])]
        self.pile = self.discard_pile + ([] if self.upcard is None else [self.upcard])
        self.stock_size = obs["stock_size"]
        self.knock_limit = obs.get("knock_card", 10)
        self.scores = list(obs.get("scores", [0, 0]))
        self.opponent_known = [card(t) for t in obs.get("opponent_known", [])]
        self.legal = list(obs.get("legal", []))
        self.moves = obs.get("moves", [])
        self.deal = None
        self.hand_no = None
        log = bytearray()
        log_seat = bytearray()
        for mv in self.moves:
            seat, act = mv[0], mv[1]
            code = action_code(act)
            if code == DRAW_UPCARD:
                if not act.startswith("draw_upcard:"):
                    raise ValueError("obs moves name the card taken: 'draw_upcard:Qs', not %r" % act)
                code = TOOK + card(act[12:])
            log.append(code)
            log_seat.append(seat)
        self.log = log
        self.log_seat = log_seat
        t = None
        if self.phase == "discard" and len(log) and log_seat[-1] == self.seat \
                and log[-1] >= TOOK:
            t = log[-1] - TOOK
        self.taken = t

    def pile_card(self, i):
        p = self.pile
        return p[i] if 0 <= i < len(p) else None

    def load_masks(self, out):
        out[0] = out[1] = out[2] = out[3] = 0
        for c in self._hand_cards:
            out[c // 13] |= 1 << (c % 13)

    @property
    def hand(self):
        return list(self._hand_cards)

    @property
    def deadwood(self):
        return self.obs.get("deadwood")

    def legalise(self, act, player):
        """The AI's action if legal here, else the nearest legal one (for
        rule sets such as OpenSpiel's whose legal moves differ)."""
        legal = self.legal
        if not legal or act in legal:
            return act
        if act.startswith("discard:") and "knock:" + act[8:] in legal:
            return "knock:" + act[8:]
        if act.startswith("knock:") and "discard:" + act[6:] in legal:
            return "discard:" + act[6:]
        if act == "draw_stock" and "pass" in legal:
            return "pass"
        if act == "pass" and "draw_stock" in legal:
            return "draw_stock"
        if act == "draw_upcard" and "draw_stock" in legal:
            return "draw_stock"
        # a discard or knock that this rule set refuses: the lowest deadwood
        best = None
        for a in legal:
            if a.startswith("knock:"):
                return a
        for a in legal:
            if a.startswith("discard:"):
                c = card(a[8:])
                rest = [x for x in self._hand_cards if x != c]
                m = [0, 0, 0, 0]
                for x in rest:
                    m[x // 13] |= 1 << (x % 13)
                dw = deadwood4(m[0], m[1], m[2], m[3])
                if best is None or dw < best[0]:
                    best = (dw, a)
        if best is not None:
            return best[1]
        return legal[0]


def obs_from_view(view):
    """The plain-data obs dict (README) of an engine View."""
    hand = view.hand
    up = view.upcard
    return {
        "seat": view.seat,
        "phase": view.phase,
        "hand": [card_text(c) for c in hand],
        "upcard": None if up is None else card_text(up),
        "discard_pile": [card_text(c) for c in view.discard_pile],
        "opponent_known": [card_text(c) for c in view.opponent_known],
        "stock_size": view.stock_size,
        "knock_card": view.knock_limit,
        "deadwood": view.deadwood,
        "moves": [[mv[0], mv[1]] for mv in view.moves],
        "legal": list(view.legal),
        "scores": list(view.scores),
    }
