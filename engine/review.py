"""The review of one player's decisions in a finished hand.

    r = Review(match, index, seat, Player("hard"))   # allocates here only
    while r.step():          # one small piece of work per call
        pass
    r.n, r.total             # decisions reviewed, their summed cost (x16)
    r.shown()                # the worst ones worth showing, worst first
    review_text.words(r.record(i))   # a decision in a few words

The hand is dealt again from its deal number and its moves are played
again, so at each decision of `seat` the reviewer sees the view that seat
had then: its own cards, the pile, the moves so far and the hands finished
before this one (from which the hard level learns the opponent's knock
habit), never the opponent's cards or the showdown. A decision is every
move with a choice in it: take the upcard or the stock (or pass it, V1),
the discard, knock or play on (R6, R7). A draw after both passed (V1) is
forced and not reviewed.

At each decision the hard level makes its own choice (what Player.choose,
and so the hint, would have said), and appraise's terms (engine/ai/appraise.py)
value it and the move played, in points x16 from the seat's side. The cost
is how much more the hard level's choice was worth, 0 when the move played
is the same or valued as well. Costs of SHOW_MIN (a point) or more are
worth showing. The hard level's own moves so cost nothing.

Each step does at most one of: teaching the player one earlier hand,
replaying up to the next decision and the first part of the hard level's
choice there (up to its knock estimate: Player.choose_first), the rest of
that choice (the discard search: Player.choose_rest), valuing one move
(one hand value or one knock estimate).
Nothing is allocated after Review() is made.
"""
from .compat import const
from .hand import (Hand, DRAW, DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD, KNOCK, TOOK)
from .rng import deck_for
from .view import View
from .ai.appraise import (begin, discard_setup, discard_value, left_deadwood,
                          knock_gain, stock_value, upcard_value)

SHOW_MIN = const(16)    # (x16) a decision costing a point or more is shown
SHOWN = const(3)        # at most this many are shown, worst first
COST_MAX = const(65535)
REC_LEN = const(9)      # bytes of record(): see review_text.py

F_TOOK = const(1)       # the opponent took the card at once (from the pile)
F_MELDED = const(2)     # ... and it was in its melds at the showdown

_LEARN = const(0)       # what step() does next: learn one earlier hand,
_NEXT = const(1)        # find the next decision,
_VALUE1 = const(2)      # value the first of the two moves compared,
_VALUE2 = const(3)      # the second, then record the decision
_DONE = const(4)
_CHOOSE = const(5)      # the rest of the hard level's choice


class _ReplayHand(Hand):
    """A Hand dealt again, whose move log goes into buffers made at the
    start (a Hand's own log grows as it is played: that allocates)."""

    def __init__(self, src, rules, deck):
        Hand.__init__(self, rules, deck, src.first, src.deal)
        n = len(src.log)
        self.full = bytearray(n)
        self.full_seat = bytearray(n)
        self.n = 0

    def _log(self, seat, code):
        self.full[self.n] = code
        self.full_seat[self.n] = seat
        self.n += 1


class _Table:
    """What a View reads of a match, as it was during hand `index`: the
    hand being played again, the scores before it, the finished hands
    before it (their showdowns teach the hard level)."""

    def __init__(self, match, index, hand):
        self.hand = hand
        self.winner = None
        self.rules = match.rules
        self.results = match.results
        self.hands = match.hands
        self.hand_no = index + 1
        self.n_over = index
        s = [0, 0]
        for i in range(index):
            r = match.results[i]
            if r.winner is not None:
                s[r.winner] += r.points
        self.scores = s


class _PastView(View):
    """A seat's View of a _Table: only the hands finished before it."""

    @property
    def hands_over(self):
        return self._match.n_over


class Review:
    def __init__(self, match, index, seat, player):
        """Review `seat`'s decisions in finished hand `index` (0: the
        match's first) of `match` with `player`, a hard engine.ai.Player
        that is given views of this match only."""
        if index >= len(match.results):
            raise ValueError("hand %d of the match has not ended" % (index + 1))
        src = match.hands[index]
        self.src = src
        self.result = match.results[index]
        self.seat = seat
        self.index = index
        self.player = player
        deck = match.deck_of(index) if hasattr(match, "deck_of") else deck_for(src.deal)
        self.hand = h = _ReplayHand(src, match.rules, deck)
        self.view = _PastView(_Table(match, index, h), seat)
        log = src.log
        nmov = len(log)
        self.nmov = nmov
        nd = 0
        for j in range(nmov):
            if src.log_seat[j] == seat:
                nd += 1
        # the log as seen at each of the seat's moves (views of the buffers)
        self._logs = [None] * nd
        self._seats = [None] * nd
        i = 0
        for j in range(nmov):
            if src.log_seat[j] == seat:
                self._logs[i] = memoryview(h.full)[:j]
                self._seats[i] = memoryview(h.full_seat)[:j]
                i += 1
        self.at = bytearray(nd)          # per decision: its move in the log,
        self.turn = bytearray(nd)        # the seat's turn (T1 = its first draw),
        self.best = bytearray(nd)        # the hard level's choice (action code),
        self.up = bytearray(nd)          # the upcard then (draws),
        self.tdw = bytearray(nd)         # deadwood the move played leaves,
        self.bdw = bytearray(nd)         # ... and the hard level's choice,
        self.flags = bytearray(nd)       # F_TOOK, F_MELDED
        self.cost = [0] * nd             # its cost (x16)
        self.top = bytearray(SHOWN)      # the worst shown ones so far
        self.ntop = 0
        self.n = 0                       # decisions reviewed so far
        self.total = 0                   # their summed cost (x16)
        self.j = 0                       # the next move of the log to play
        self.t = 0                       # the seat's turns so far
        self.k_seat = 0                  # moves of the seat passed so far
        self.state = _LEARN
        self._resume = _NEXT             # where _LEARN goes once it is done
        self._v1 = 0
        self._code = 0                   # the move played (action code)
        self._j = 0                      # ... and where it is in the log

    # -- progress ------------------------------------------------------------
    @property
    def done(self):
        return self.state == _DONE

    def progress(self):
        """Percent of the hand's moves gone through."""
        return 100 if self.state == _DONE else self.j * 100 // (self.nmov or 1)

    def run(self):
        while self.step():
            pass
        return self

    # -- the work ------------------------------------------------------------
    def step(self):
        """Do one piece of the review; True while some is left."""
        st = self.state
        if st == _LEARN:
            self._learn()
        elif st == _NEXT:
            self._next()
        elif st == _VALUE1:
            self._value1()
        elif st == _VALUE2:
            self._value2()
        elif st == _CHOOSE:
            self._choose()
        return self.state != _DONE

    def _learn(self):
        """Teach the player one hand finished before this one (its habit
        learner takes in every hand its view shows as over; a player that
        has seen later hands starts again)."""
        t = self.view._match
        hb = self.player.habit
        if hb.seen > self.index:
            hb.restart()
        if hb.seen < self.index:
            t.n_over = hb.seen + 1
            hb.learn(self.view, self.seat)
            t.n_over = self.index
        if hb.seen == self.index:
            self.state = self._resume
            self._resume = _NEXT

    def _relearn(self, st):
        """True (and learning first) when the player was given views of
        other hands since the last step (the hint shares it)."""
        if self.player.habit.seen == self.index:
            return False
        self._resume = st
        self.state = _LEARN
        return True

    def _next(self):
        """Play the moves up to the seat's next decision and make the first
        part of the hard level's choice there."""
        if self._relearn(_NEXT):
            return
        src = self.src
        log = src.log
        ls = src.log_seat
        h = self.hand
        seat = self.seat
        while self.j < self.nmov:
            j = self.j
            code = log[j]
            if ls[j] == seat:
                draw = code < DISCARD or code >= TOOK
                if draw:
                    self.t += 1
                i = self.k_seat
                self.k_seat = i + 1
                if not (draw and h.phase == DRAW and h.stock_only):
                    h.log = self._logs[i]
                    h.log_seat = self._seats[i]
                    self._j = j
                    self._code = code if code < TOOK else DRAW_UPCARD
                    best = self.player.choose_first(self.view)
                    if best < 0:
                        self.state = _CHOOSE
                    else:
                        self._decide(best)
                    return
            if j == self.nmov - 1:
                break                    # the hand's last move: nothing follows
            self._play(j)
        self.j = self.nmov
        self.state = _DONE

    def _choose(self):
        """The rest of the hard level's choice (the view read again)."""
        if self._relearn(_CHOOSE):
            return
        self._decide(self.player.choose_rest(self.view))

    def _decide(self, best):
        """The hard level chose `best` (an action code) at the decision
        self._code was played at: note it, and value both unless equal."""
        j = self._j
        code = self._code
        i = self.n
        self.at[i] = j
        self.turn[i] = self.t if self.t < 255 else 255
        self.best[i] = best
        up = self.hand.upcard()
        self.up[i] = up
        self.tdw[i] = 0
        self.bdw[i] = 0
        self.flags[i] = self._flags(j, code, up)
        self.cost[i] = 0
        if best == code:
            self._record()
            return
        self.state = _VALUE1

    def _value1(self):
        """The hard level's choice valued (a draw: the stock, valued first
        as appraise does)."""
        if self._relearn(_VALUE1):
            return
        p = self.player
        k = begin(p, self.view)
        i = self.n
        if self._code < DISCARD:
            self._v1 = stock_value(p, k)
        else:
            discard_setup(p, k)
            self._v1 = _move_value(p, k, self.best[i])
            self.bdw[i] = left_deadwood(p)
        self.state = _VALUE2

    def _value2(self):
        """The move played valued (a draw: the upcard), and its cost. The
        view is read again: the player may have been asked for a hint
        since the last step."""
        if self._relearn(_VALUE2):
            return
        p = self.player
        k = begin(p, self.view)
        i = self.n
        code = self._code
        if code >= DISCARD:
            discard_setup(p, k)
        if code < DISCARD:
            vu = upcard_value(p, k)
            if code == DRAW_UPCARD:
                vb = self._v1
                vt = vu
            else:
                vb = vu
                vt = self._v1
        else:
            vt = _move_value(p, k, code)
            self.tdw[i] = left_deadwood(p)
            vb = self._v1
        c = vb - vt
        if c < 0:
            c = 0
        self.cost[i] = c if c < COST_MAX else COST_MAX
        self._record()

    def _record(self):
        """The decision at self.n is made: count it, keep the worst, and
        play the move."""
        i = self.n
        self.n = i + 1
        c = self.cost[i]
        self.total += c
        if c >= SHOW_MIN:
            self._keep(i)
        j = self.at[i]
        if j < self.nmov - 1:
            self._play(j)
        else:
            self.j = j + 1
        self.state = _NEXT if self.j < self.nmov else _DONE

    def _play(self, j):
        code = self.src.log[j]
        self.hand.apply(code if code < TOOK else DRAW_UPCARD)
        self.j = j + 1

    def _keep(self, i):
        """Insert decision i into the worst SHOWN (by cost, the earlier
        first on ties)."""
        top = self.top
        n = self.ntop
        cost = self.cost
        pos = n
        while pos > 0 and cost[top[pos - 1]] < cost[i]:
            pos -= 1
        if pos >= SHOWN:
            return
        last = n if n < SHOWN else SHOWN - 1
        while last > pos:
            top[last] = top[last - 1]
            last -= 1
        top[pos] = i
        if n < SHOWN:
            self.ntop = n + 1

    def _flags(self, j, code, up):
        """F_TOOK when the opponent took the card this move threw (or the
        upcard it passed on) at once, F_MELDED when it was then in the
        opponent's melds at the showdown (words only; no cost reads it)."""
        src = self.src
        if code >= KNOCK or code == DRAW_STOCK or code == DRAW_UPCARD:
            return 0
        c = up if code == PASS else code - DISCARD
        if j + 1 >= self.nmov or src.log[j + 1] != TOOK + c:
            return 0
        f = F_TOOK
        o = self.result.outcome
        if o is not None and o.melded(self.result.knocker != self.seat, c):
            f |= F_MELDED
        return f

    # -- the findings ---------------------------------------------------------
    def shown(self):
        """Indices of the decisions worth showing (cost >= SHOW_MIN), worst
        first, at most SHOWN (allocates: call when the review is done)."""
        return [self.top[i] for i in range(self.ntop)]

    def worst(self):
        """Index of the costliest decision (the first on ties), or -1."""
        return self.top[0] if self.ntop else -1

    def record(self, i):
        """Decision i as REC_LEN bytes, what review_text.words reads:
        turn, move played, hard level's choice, upcard, their deadwood,
        flags, cost (x16, 2 bytes)."""
        c = self.cost[i]
        return bytes((self.turn[i], self._played(i), self.best[i], self.up[i],
                      self.tdw[i], self.bdw[i], self.flags[i], c >> 8, c & 255))

    def _played(self, i):
        code = self.src.log[self.at[i]]
        return code if code < TOOK else DRAW_UPCARD


def _move_value(p, k, code):
    """appraise's value (x16) of discarding or knocking (code) in the
    discard phase; the ten cards it keeps are left in p.h."""
    c = code & 63
    v = discard_value(p, k, c)
    if code >= KNOCK:
        v += knock_gain(p, k, left_deadwood(p), c)
    return v


def points(cost):
    """A cost (x16) in whole points, rounded."""
    return (cost + 8) // 16
