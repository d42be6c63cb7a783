"""The device AI: three levels (easy, normal, hard) and the hint.

The AI reads only a player's view (engine/view.py) or the plain-data `obs`
of the arena (ObsView): its own masks, the discard pile, the stock's size,
the move log and the public counters. Both fill one internal record
(`Know`), from which every decision is made.
"""
from .compat import const
from .cards import NO_CARD, CARD_VALUE, card, card_text
from .melds import deadwood4, best_discard4
from .hand import DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD, KNOCK, TOOK
from .rng import Rng

PH_OFFER = const(0)
PH_DRAW = const(1)
PH_DISCARD = const(2)
PH_OTHER = const(3)

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


class Know:
    """What the player knows, as suit masks and small ints (preallocated)."""

    def __init__(self):
        self.mine = [0, 0, 0, 0]     # own cards
        self.dead = [0, 0, 0, 0]     # the discard pile (upcard included)
        self.oppk = [0, 0, 0, 0]     # opponent took these and still holds them
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
        if deal != self.key_deal or hno != self.key_hand or deal is None:
            self.key_deal = deal
            self.key_hand = hno
            self._new_hand(view)
        dead = self.dead
        oppk = self.oppk
        odisc = self.odisc
        opass = self.opass
        for s in range(4):
            dead[s] = 0
            oppk[s] = 0
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
                    opass[c // 13] |= 1 << (c % 13)
            last = code
        for i in range(sp):
            c = stk[i]
            dead[c // 13] |= 1 << (c % 13)
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
        self.rng = Rng(seed)
        self.k = Know()
        self.m = [0, 0, 0, 0]

    def choose(self, view):
        """The action for the player to move in `view` (a legal action string)."""
        self.k.fill(view)
        return ACTION_TEXT[self._decide(self.k)]

    def hint(self, view):
        """(action, reason): hard's move and why, in a few words."""
        k = Know()
        k.fill(view)
        code = self._decide(k)
        return ACTION_TEXT[code], self._why(k, code)

    # -- decisions -----------------------------------------------------------
    def _decide(self, k):
        m = self.m
        mine = k.mine
        if k.phase == PH_DISCARD:
            m[0] = mine[0]
            m[1] = mine[1]
            m[2] = mine[2]
            m[3] = mine[3]
            x = best_discard4(m, k.taken)
            c = x & 63
            if (x >> 6) <= k.limit:
                return KNOCK + c
            return DISCARD + c
        if k.phase == PH_OFFER or k.phase == PH_DRAW:
            if k.up != NO_CARD and not k.stock_only and self._wants_up(k):
                return DRAW_UPCARD
            if k.phase == PH_OFFER:
                return PASS
            return DRAW_STOCK
        raise ValueError("no decision to make in this phase")

    def _wants_up(self, k):
        mine = k.mine
        now = deadwood4(mine[0], mine[1], mine[2], mine[3])
        m = self.m
        up = k.up
        m[0] = mine[0]
        m[1] = mine[1]
        m[2] = mine[2]
        m[3] = mine[3]
        m[up // 13] |= 1 << (up % 13)
        after = best_discard4(m, up) >> 6
        return after < now

    def _why(self, k, code):
        if code == DRAW_UPCARD:
            return "take %s: lowers deadwood" % card_text(k.up)
        if code == DRAW_STOCK:
            return "draw: upcard no help"
        if code == PASS:
            return "pass: upcard no help"
        c = code & 63
        if code >= KNOCK:
            return "knock, discard %s" % card_text(c)
        return "discard %s: least deadwood" % card_text(c)


# ---------------------------------------------------------------------------
# The plain-data observation (arena, OpenSpiel adapter, bring-your-own bots).

_PHASES = ("first_upcard", "draw", "discard")


class ObsView:
    """A view-like object over the plain-data `obs` dict (see README).

    Gives the attributes the AI reads (seat, phase, load_masks, upcard, pile,
    stock_size, knock_limit, log/log_seat derived from `moves`, scores, ...)
    so the same Player plays from an obs."""

    def __init__(self, obs):
        self.obs = obs
        self.seat = obs["seat"]
        self.phase = obs["phase"]
        self._hand_cards = [card(t) for t in obs["hand"]]
        self._hand_cards.sort()
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
            if code == DRAW_UPCARD and act.startswith("draw_upcard:"):
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

    @property
    def my_turn(self):
        return True


def obs_from_view(view):
    """The plain-data obs dict (README) of an engine View."""
    hand = view.hand
    ph = view.phase
    n = len(hand)
    dw = view.deadwood
    return {
        "seat": view.seat,
        "phase": ph,
        "hand": [card_text(c) for c in hand],
        "upcard": None if view.upcard is None else card_text(view.upcard),
        "discard_pile": [card_text(c) for c in view.discard_pile],
        "opponent_known": [card_text(c) for c in view.opponent_known],
        "stock_size": view.stock_size,
        "knock_card": view.knock_limit,
        "deadwood": dw,
        "moves": [[mv[0], mv[1]] for mv in view.moves],
        "legal": list(view.legal),
        "scores": list(view.scores),
    }
