"""The device AI: three levels (easy, normal, hard) and the hint.

The AI reads only a player's view: an engine View (engine/view.py) or an
ObsView over the plain-data `obs` dict of the arena and the OpenSpiel
adapter. Both fill one record, `Know`: own suit masks, the discard pile as
masks (rebuilt from the move log), the cards the opponent took and still
holds, the cards it discarded, the upcards it left lying, the stock's size,
the knock limit, the card just taken (R4) and the scores. Every decision is
made from `Know` alone.

Strategy (hard)
---------------
* Unseen cards are those in no known place: not ours, not in the pile, not
  known to be held by the opponent. Each gets a weight for "the opponent
  holds it": cards of the rank of a card the opponent discarded or left as
  upcard, and its suit neighbours (one and two ranks away), are less likely;
  those around a card it picked up are more likely. The weights are
  normalised so they sum to the number of unknown cards in its hand; the
  rest of each unseen card's chance is "next stock card".
* A 10-card hand is valued by its expected deadwood after one more stock
  draw and the best discard (one-step lookahead). An unseen card that can
  join no meld with the hand only swaps with the highest-value deadwood
  card, which a value histogram handles; a card that can join a meld gets
  an exact best-discard search. So pairs, two-card runs and gaps count by
  how many of their completing cards are still live.
* Discard: among the cards whose removal leaves deadwood near the minimum,
  the one minimising that expected deadwood plus the danger of feeding the
  opponent (the chance that it holds two cards making a meld with the card,
  from the weights above; a card it already holds counts fully) times a
  weight in deadwood points.
* Draw: take the upcard when the best hand after taking it (and its
  discard, never the upcard itself, R4) is worth more than a stock draw: the
  current hand's one-step value, improved by the expected gain of one more
  draw. Always take it when it lets the player knock at once.
* Knock: gin (0 deadwood) always. Otherwise knock when the deadwood is within
  the limit and low enough for the stage of the hand: early any legal knock,
  later (fewer stock cards, the opponent having picked up cards) only lower
  deadwood, as the defender's deadwood shrinks and layoffs make undercuts
  likelier; near the end the knock is taken at once (the stock running out
  scores nothing).

Levels: normal uses the same lookahead without the opponent model or the
danger term and knocks as soon as it can; easy keeps pairs but otherwise
plays like a beginner (discards the highest unmelded card, sometimes a
random one, takes the upcard only for a finished meld, knocks at once).

Hot paths allocate nothing: every buffer is made in Player(), the inner
evaluators are engine.melds.deadwood4 / best_discard4 (masks in, ints out),
arithmetic is on small ints, action strings come from a prebuilt table, and
nothing depends on dict or set order (the moves are the same on every
runtime for a given seed). Once per hand `Know` reads the pile's first card
and the scores (a few small allocations).
"""
from .compat import const
from .cards import NO_CARD, CARD_VALUE, card, card_text, RANKS, SUITS
from .melds import deadwood4, best_discard4, _BIT_RANK
from .hand import DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD, KNOCK, TOOK
from .rng import Rng

PH_OFFER = const(0)
PH_DRAW = const(1)
PH_DISCARD = const(2)
PH_OTHER = const(3)

# Tuning (integers; deadwood points are scaled by 16 in values).
_MARGIN = (12)        # discard candidates: deadwood within this of the best
_W_DANGER = (6)       # deadwood points lost when the opponent melds our discard
_TAKE_BIAS = (4)      # (x1/16) taking the upcard must win by this much
_RHO = (16)           # (x1/16) next draw's expected gain, relative to this one's
_P_MAX = const(240)        # cap on a card's "opponent holds it" chance (x1/256)

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


def _code_of(text):
    if text == "draw_stock":
        return DRAW_STOCK
    if text.startswith("draw_upcard"):
        return DRAW_UPCARD
    if text == "pass":
        return PASS
    if text.startswith("discard:"):
        return DISCARD + card(text[8:])
    if text.startswith("knock:"):
        return KNOCK + card(text[6:])
    raise ValueError("not an action: %r" % (text,))


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
        self.my_score = 0
        self.opp_score = 0
        self.opp_took = 0            # pickups by the opponent this hand
        self.turns = 0               # stock draws this hand (both players)
        self.key_deal = -1
        self.key_hand = -1
        self.init_up = NO_CARD

    def fill(self, view):
        """Read `view` (an engine View or an ObsView). Allocation-free in
        steady state; once per hand it reads the pile and the scores."""
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
        self.stock_only = self.phase == PH_DRAW and last == PASS
        self.taken = NO_CARD
        if self.phase == PH_DISCARD and n and ls[n - 1] == seat and last >= TOOK:
            self.taken = last - TOOK

    def _new_hand(self, view):
        # Once per hand (allocates): the first upcard and the scores.
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
            p = view.pile
            if p:
                init = p[0]
        self.init_up = init
        sc = view.scores
        self.my_score = sc[0]
        self.opp_score = sc[1]


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
        self.vh = bytearray(16)      # stock-weight histogram of non-melding values
        # what the last decision found, for the hint
        self.why_kind = 0
        self.why_val = 0
        self.t_margin = _MARGIN
        self.t_danger = _W_DANGER
        self.t_bias = _TAKE_BIAS
        self.t_rho = _RHO
        self.t_lam = 16
        self.v1 = 0
        self.t_knock = [0, 0, 0, 0, 0, 0, 0, 0]

    # -- entry points ----------------------------------------------------------
    def choose(self, view):
        """The action for the player to move in `view` (a legal action string)."""
        self.k.fill(view)
        code = self._decide(self.k, self.lv)
        if isinstance(view, ObsView):
            return view.legalise(ACTION_TEXT[code], self)
        return ACTION_TEXT[code]

    def hint(self, view):
        """(action, reason): hard's move for this view and why, in a few words."""
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
        nopp = 10 - nk
        if nopp < 0:
            nopp = 0
        if un == 0:
            self.ps_sum = 1
            return
        if lv >= 2:
            # evidence: discarded / left cards make their neighbours unlikely
            for s in range(4):
                ev = k.odisc[s] | k.opass[s]
                while ev:
                    bit = ev & -ev
                    ev ^= bit
                    self._nudge(s, _BIT_RANK[bit % 37], unseen, 2, 2, 3)
                ev = k.otook[s]
                while ev:
                    bit = ev & -ev
                    ev ^= bit
                    self._nudge(s, _BIT_RANK[bit % 37], unseen, 8, 8, 6)
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
        """Chance (x1/256) that the opponent can meld card c."""
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
        d = (p1 * p2 + p1 * p3 + p2 * p3) >> 8
        base = s * 13
        pm2 = self._p(k, base + r - 2) if r >= 2 else 0
        pm1 = self._p(k, base + r - 1) if r >= 1 else 0
        pp1 = self._p(k, base + r + 1) if r <= 11 else 0
        pp2 = self._p(k, base + r + 2) if r <= 10 else 0
        d += (pm2 * pm1 + pm1 * pp1 + pp1 * pp2) >> 8
        return d if d < 256 else 256

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
            return 0
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
        total = 0
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
                total += p * best
            else:
                e = dw + CARD_VALUE[u] - hv
                total += p * (e if e < dw else dw)
        v1 = total * 16 // self.ps_sum
        self.v1 = v1
        return dw * 16 - self.t_lam * (dw * 16 - v1) // 16

    def _discard_choice(self, k, lv, forbid):
        """Best discard code's card for the 11-card hand in self.m:
        returns score * 64 + card (score >= 0)."""
        m = self.m
        h = self.h
        bd = best_discard4(m, forbid)
        lo = bd >> 6
        best = -1
        best_c = bd & 63
        best_v = 0
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
                if deadwood4(h[0], h[1], h[2], h[3]) > lo + self.t_margin:
                    continue
                v = self._value10(h)
                if lv >= 2:
                    v += self.t_danger * self._danger(k, c) // 16
                cv = CARD_VALUE[c]
                if best < 0 or v < best or (v == best and cv > best_v):
                    best = v
                    best_c = c
                    best_v = cv
        if best < 0:
            best = 0
        return best * 64 + best_c

    def _should_knock(self, k, lv, dw):
        if dw == 0:
            return True
        if lv < 2:
            return True
        t = self.t_knock
        if t[0] and dw <= t[0] and k.stock >= t[1]:
            return False            # low: play on for gin (or an undercut)
        if k.stock < t[2] and dw > t[3]:
            return False
        return True

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
            y = self._discard_choice(k, lv, k.taken)
            self.why_kind = 2
            self.why_val = y >> 6
            return DISCARD + (y & 63)
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
        y = self._discard_choice(k, lv, up)
        take = y >> 6
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
        if code == DRAW_UPCARD:
            u = card_text(k.up)
            if self.why_kind == 4:
                return "take %s: then knock" % u
            if self.why_kind == 3:
                return "take %s: makes a meld" % u
            return "take %s: lowers deadwood" % u
        if code == DRAW_STOCK:
            return "draw: %s no help" % card_text(k.up) if k.up != NO_CARD else "draw from stock"
        if code == PASS:
            return "pass: %s no help" % card_text(k.up)
        c = code & 63
        if code >= KNOCK:
            if self.why_val == 0:
                return "gin! discard %s" % card_text(c)
            return "knock: %d deadwood, stock %d" % (self.why_val, k.stock)
        m = self.m
        s = c // 13
        bit = 1 << (c % 13)
        m[s] &= ~bit
        if _in_meld(m, c):
            return "discard %s: keeps better melds" % card_text(c)
        if self._danger(k, c) < 32:
            return "discard %s: dead card, safe" % card_text(c)
        return "discard %s: least useful" % card_text(c)


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
            code = _code_of(act)
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
