"""The hard level's deeper look, in the pause its move stays on screen for.

Player.begin(view) makes hard's decision as it always has (the fast path)
and, when that decision is a discard (after a stock draw, or the discard
planned with a taken upcard, Player._take), sets up a second look here;
Player.step() then does it a slice at a time, and Player.result() is the
move. The look re-ranks the close discard candidates by their value one
stock draw later (tools/ailab/two_draw.py's "cheap" mode): for each
candidate the 10-card hand it leaves, over the unseen cards u that could
pair or meld with a candidate (by the card model's stock weights), the
better of throwing u back and keeping it with a reply discard of lowest
deadwood, each hand valued by Evaluator.value10; any other draw counts as
thrown back. That value, weighed for the opponent ending the hand first
and charged for feeding it as the choice itself is, picks the discard.

The work is counted in units (a value10 call, or the best-discard search
of a drawn card), never in time: a budget of BUDGET units a decision and
SLICE units a step, so a seed gives the same moves on every runtime and
machine, however the slices are spread. The draws are valued in turn for
every candidate: when the budget runs out, the draws not reached count as
thrown back for all, so a look cut short still compares the candidates
on the same draws (a smaller "cheap" look). It
reads only what the fast path read from the view (the card model, the
evaluator's terms), draws nothing from the player's rng, and allocates
nothing once made: a step runs with the heap locked (locked.py says why);
anything a step raises ends the look with the fast choice (counted in
`failed`).

Between begin() and the last step the player must not be asked anything
else (its evaluator and card model hold the view's terms): Player's other
entry points drop a look in progress.
"""
from ..compat import const, heap_lock, heap_unlock
from ..cards import CARD_VALUE, NO_CARD
from ..melds import deadwood4, best_discard4, BIT_RANK
from ..hand import DRAW_UPCARD, DISCARD, KNOCK
from .know import PH_DISCARD

BUDGET = const(20)     # work units a decision, at most
SLICE = const(2)       # ... a step
CANDS = const(2)       # candidates valued: the fast choice and the next best
MAXC = const(4)        # (the most t_cands can ask for)
MARGIN = const(16)     # (x1/16 points) ... within this of the fast choice's value

S_IDLE = const(0)      # nothing to do: `code` is the move
S_DRAW = const(1)      # next: the draw ul[j] for candidate i
S_REPLY = const(2)     # next: a reply discard to the draw u


def partners(c, into):
    """Add to the suit masks `into` the cards that pair or meld with card
    c: its rank in the other suits, its suit neighbours within two (the
    draws the look values; tools/ailab/two_draw.py's cheap mode too)."""
    s = c // 13
    b = 1 << (c % 13)
    for q in range(4):
        into[q] |= b if q != s else ((b << 1) | (b << 2) | (b >> 1) | (b >> 2)) & 0x1FFF


class Deep:
    def __init__(self, player):
        self.p = player
        ev = self.ev = player.ev
        # the fast path's discard choice records its candidates for the look
        ev.dc_c = bytearray(11)
        ev.dc_v = [0] * 11
        ev.dc_e = [0] * 11
        ev.dc_r = [0] * 11
        ev.dc_d16 = [0] * 11
        ev.dc_d = bytearray(11)
        self.t_budget = BUDGET
        self.t_slice = SLICE
        self.t_cands = CANDS
        self.t_margin = MARGIN
        self.code = 0              # the move (the fast one until the look finds better)
        self.state = S_IDLE
        self.used = 0              # units spent on this decision
        self.units = 0             # ... and over all decisions (a tool's figure)
        self.steps = 0             # steps with work done, all decisions
        self.failed = 0            # looks ended by an exception
        self.take = False          # the look is at the discard planned with a taken upcard
        self.m = [0, 0, 0, 0]      # the eleven cards
        self.g = [0, 0, 0, 0]      # the hand after a candidate, and then a draw
        self.rel = [0, 0, 0, 0]    # the draws that count (pair or meld with a candidate)
        self.nc = 0
        self.cc = bytearray(MAXC)  # candidate cards
        self.cr = [0] * MAXC          # ... value10 of the hand each leaves
        self.cd = [0] * MAXC          # ... its deadwood at risk (x16)
        self.cx = [0] * MAXC          # ... the danger charge
        self.cw = [0] * MAXC          # ... its best with the draw u; in the end its value
        self.tot = [0] * MAXC         # ... its sum over the draws so far
        self.lam = 0
        self.i = 0                 # the candidate being valued with the draw u
        self.j = 0                 # the draw (index in the model's unseen list)
        self.u = NO_CARD           # the draw being valued ...
        self.lo = 0                # ... its lowest deadwood
        self.ub = 0                # ... the best value found for it
        self.rs = 0                # ... the replies: suit, and cards left in it
        self.rl = 0

    def start(self, code):
        """After the fast path chose `code`: set up the look, if any."""
        self.code = code
        self.state = S_IDLE
        self.used = 0
        p = self.p
        ev = self.ev
        k = p.k
        n = ev.dc_k
        if n < 2 or self.t_budget <= 0:
            return
        if k.phase == PH_DISCARD:
            if code < DISCARD or code >= KNOCK:
                return
            c0 = code - DISCARD
            self.take = False
        elif code == DRAW_UPCARD and DISCARD <= p.pre_code < KNOCK and p.pre_n >= 0:
            c0 = p.pre_code - DISCARD
            self.take = True
        else:
            return
        # the fast choice among the recorded candidates
        i0 = -1
        for i in range(n):
            if ev.dc_c[i] == c0:
                i0 = i
        if i0 < 0:
            return                  # the record is not this decision's
        cc = self.cc
        cr = self.cr
        cd = self.cd
        cx = self.cx
        cc[0] = c0
        cr[0] = ev.dc_r[i0]
        cd[0] = ev.dc_d16[i0]
        cx[0] = ev.dc_v[i0] - ev.dc_e[i0]
        top = ev.dc_v[i0] + self.t_margin
        nc = 1
        want = self.t_cands if self.t_cands <= MAXC else MAXC
        limit = k.limit
        while nc < want:
            # the next best by value, then the higher card value (the
            # choice's own order), among those left: no knock to weigh
            b = -1
            bv = 0
            bc = 0
            for i in range(n):
                c = ev.dc_c[i]
                v = ev.dc_v[i]
                if v > top or ev.dc_d[i] <= limit:
                    continue
                dup = False
                for t in range(nc):
                    if cc[t] == c:
                        dup = True
                if dup:
                    continue
                if b < 0 or v < bv or (v == bv and CARD_VALUE[c] > CARD_VALUE[bc]):
                    b = i
                    bv = v
                    bc = c
            if b < 0:
                break
            cc[nc] = bc
            cr[nc] = ev.dc_r[b]
            cd[nc] = ev.dc_d16[b]
            cx[nc] = bv - ev.dc_e[b]
            nc += 1
        if nc < 2:
            return
        self.nc = nc
        m = ev.m
        self.m[0] = m[0]
        self.m[1] = m[1]
        self.m[2] = m[2]
        self.m[3] = m[3]
        rel = self.rel
        rel[0] = rel[1] = rel[2] = rel[3] = 0
        for t in range(nc):
            partners(cc[t], rel)
        self.lam = ev.lam
        tot = self.tot
        for t in range(nc):
            tot[t] = 0
        self.i = 0
        self.j = 0
        self.state = S_DRAW

    def _candidate(self, i):
        """Start candidate i on the draw u: its hand and u into g."""
        self.i = i
        c = self.cc[i]
        g = self.g
        m = self.m
        g[0] = m[0]
        g[1] = m[1]
        g[2] = m[2]
        g[3] = m[3]
        g[c // 13] ^= 1 << (c % 13)
        u = self.u
        g[u // 13] |= 1 << (u % 13)

    def stop(self):
        """Drop a look in progress (the move stays the fast one)."""
        self.state = S_IDLE

    def step(self):
        """One slice of the look: True while work remains."""
        if self.state == S_IDLE:
            return False
        lock = heap_lock is not None
        if lock:
            heap_lock()
        try:
            more = self._work()
        except Exception:
            # not a bare except: while the heap is locked nothing here may
            # allocate (a name to match, no tuple)
            more = False
            self.state = S_IDLE
            self.failed += 1
        finally:
            if lock:
                heap_unlock()
        return more

    def _work(self):
        """Units of work until the slice or the budget is spent. The draws
        are taken in turn, each valued for every candidate before the next
        (a draw counts when all have it): when the budget runs out, the
        draws not reached count as thrown straight back for all, so the
        candidates still compare on the same draws."""
        ev = self.ev
        ev.lam = self.lam
        model = ev.model
        ul = model.ul
        ps = model.ps
        g = self.g
        rel = self.rel
        cr = self.cr
        tot = self.tot
        nc = self.nc
        n = 0
        units = self.t_slice
        budget = self.t_budget
        self.steps += 1
        while True:
            if self.state == S_DRAW:
                j = self.j
                if j >= model.un:
                    self._finish()
                    return False
                u = ul[j]
                if not rel[u // 13] & (1 << (u % 13)):
                    p = ps[u]
                    for i in range(nc):
                        tot[i] += p * cr[i]      # thrown straight back
                    self.j = j + 1
                    continue
                if self.used >= budget:
                    # the draws left: thrown back, for every candidate
                    while j < model.un:
                        p = ps[ul[j]]
                        for i in range(nc):
                            tot[i] += p * cr[i]
                        j += 1
                    self.j = j
                    self._finish()
                    return False
                if n >= units:
                    return True
                # the draw u for candidate i (0 first)
                self.u = u
                self._candidate(self.i)
                self.lo = best_discard4(g, NO_CARD) >> 6
                n += 1
                self.used += 1
                self.units += 1
                self.ub = cr[self.i]
                self.rs = 0
                self.rl = g[0]
                self.state = S_REPLY
            else:
                s = self.rs
                left = self.rl
                u = self.u
                lo = self.lo
                while True:
                    if not left:
                        s += 1
                        if s == 4:
                            break
                        left = g[s]
                        continue
                    bit = left & -left
                    if s * 13 + BIT_RANK[bit % 37] == u:
                        left ^= bit
                        continue
                    g[s] ^= bit
                    if deadwood4(g[0], g[1], g[2], g[3]) <= lo:
                        if self.used >= budget or n >= units:
                            g[s] ^= bit
                            self.rs = s
                            self.rl = left
                            if self.used < budget:
                                return True
                            # out of budget inside the draw: it counts as
                            # thrown back for all (none has it yet)
                            self.i = 0
                            self.state = S_DRAW
                            break
                        v = ev.value10(g)
                        n += 1
                        self.used += 1
                        self.units += 1
                        if v < self.ub:
                            self.ub = v
                    g[s] ^= bit
                    left ^= bit
                if self.state == S_DRAW:
                    continue
                i = self.i
                self.cw[i] = self.ub           # candidate i's best with u
                if i + 1 < nc:
                    self.i = i + 1
                    self.state = S_DRAW        # the same draw, the next candidate
                    continue
                p = ps[u]
                cw = self.cw
                for t in range(nc):
                    tot[t] += p * cw[t]
                self.i = 0
                self.j += 1
                self.state = S_DRAW

    def _finish(self):
        """The look is over: each candidate's value one draw later, weighed
        as the choice weighs it; the best, then the higher card value, is
        the discard."""
        self.state = S_IDLE
        ev = self.ev
        sps = self.ev.model.ps_sum
        cc = self.cc
        cw = self.cw
        tot = self.tot
        for t in range(self.nc):
            cw[t] = ev.at_risk(tot[t] // sps, self.cd[t]) + self.cx[t]
        b = 0
        for t in range(1, self.nc):
            if cw[t] < cw[b] or (cw[t] == cw[b] and CARD_VALUE[cc[t]] > CARD_VALUE[cc[b]]):
                b = t
        if b == 0:
            return
        if self.take:
            self.p.pre_code = DISCARD + cc[b]
        else:
            self.code = DISCARD + cc[b]
