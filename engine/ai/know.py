"""What a player knows, read from its view into suit masks and small ints.

`Know.fill(view)` reads an engine View or an ObsView without allocating:
own masks, the discard pile rebuilt from the move log, the cards the
opponent took and still holds, the ones it discarded or left lying as the
upcard, its last discard, the stock's size and draws so far, the knock
limit and the card just taken (R4). Every decision is made from `Know`.
"""
from ..compat import const
from ..cards import NO_CARD
from ..hand import DRAW_STOCK, PASS, DISCARD, TOOK

PH_OFFER = const(0)
PH_DRAW = const(1)
PH_DISCARD = const(2)
PH_OTHER = const(3)


def bits(x):
    """Number of set bits of a small int."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def load4(h, m, c=NO_CARD):
    """The suit masks m into h, less card c (if given); returns h."""
    h[0] = m[0]
    h[1] = m[1]
    h[2] = m[2]
    h[3] = m[3]
    if c != NO_CARD:
        h[c // 13] &= ~(1 << (c % 13))
    return h


def in_meld(m, u):
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
        self.key_hand = -1
        self.key_n = 0
        self.new_hand = True         # the last fill started a new hand
        self.init_up = NO_CARD
        self.olast = NO_CARD         # the opponent's last discard (not a knock)
        self.olast_rank = 12         # its rank (a king when none yet)
        self.oprev_rank = 12         # the rank of its discard before that (a king when none)
        self.odn = 0                 # the opponent's discards this hand
        self.gin_bonus = 25          # R10 (the rules of the view, if it has them)
        self.uc_bonus = 25
        self.stop_at = 0             # R11: 0; V3: 2 (the hand ends at this stock)
        self.scores = [0, 0]         # the match scores, ours first (R12)
        self.target = 100

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
        view.load_scores(self.scores)
        log = view.log
        ls = view.log_seat
        n = len(log)
        hno = view.hand_no
        # A new hand: another hand number, or a log shorter than last time
        # (an obs has no hand number: every obs is read afresh).
        self.new_hand = hno is None or hno != self.key_hand or n < self.key_n
        self.key_hand = hno
        self.key_n = n
        self._hand_start(view)
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
        odn = 0
        last = 255
        olast = NO_CARD
        oprev = NO_CARD
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
                    oprev = olast
                    olast = c
                    odn += 1
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
        self.olast_rank = 12 if olast == NO_CARD else olast % 13
        self.oprev_rank = 12 if oprev == NO_CARD else oprev % 13
        self.odn = odn
        self.stock_only = self.phase == PH_DRAW and last == PASS
        self.taken = NO_CARD
        if self.phase == PH_DISCARD and n and ls[n - 1] == seat and last >= TOOK:
            self.taken = last - TOOK

    def _hand_start(self, view):
        # The first upcard (the pile's bottom card unless it was taken) and
        # the rules' stock stop; read every time, so a player given views of
        # several matches never keeps a stale one.
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
        if r is None:
            self.stop_at = 0
            self.gin_bonus = 25
            self.uc_bonus = 25
            self.target = getattr(view, "target", 100)   # an obs (obs.py)
        else:
            self.stop_at = r.stop_at
            self.gin_bonus = r.gin_bonus
            self.uc_bonus = r.undercut_bonus
            self.target = r.target
