"""Each level's policy: Player(level, seed).choose(view) -> an action string."""
from ..compat import const
from ..cards import NO_CARD
from ..melds import deadwood4, best_discard4, BIT_RANK
from ..hand import DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD, KNOCK
from ..rng import Rng
from .know import Know, PH_OFFER, PH_DRAW, PH_DISCARD, in_meld, load4
from .model import CardModel
from .evaluate import Evaluator
from .knock import KnockRule
from .habit import Habit
from .action_text import ACTION_TEXT   # every action string, by code
# what the last decision found, for the hint's words (why.py)
from .action_text import (WHY_NONE, WHY_KNOCK, WHY_DISCARD, WHY_TAKE_MELD, WHY_TAKE_KNOCK,
                          WHY_TAKE_LOWER, WHY_KNOCK_LATER)
from .locked import locked_decision, PART_ALL, PART_FIRST, PART_REST

TAKE_BIAS = const(4)     # (x1/16) taking the upcard must beat drawing by this
RHO = const(16)          # (x1/16) weight of the next draw's gain when drawing

LEVELS = ("easy", "normal", "hard")


def in_meld_now(m, s, bit):
    """Is the card (suit s, bit) in m part of a possible meld of m?"""
    m[s] ^= bit
    r = in_meld(m, s * 13 + BIT_RANK[bit % 37])
    m[s] ^= bit
    return r


class Player:
    """An AI player. `choose(view)` -> a legal action string; or as the
    App asks, in slices during the AI's pause: begin(view), step() while it
    is True, result(). Every level decides whole in begin(), so step() has
    nothing to do; the slices are the seam a longer think would use."""

    def __init__(self, level="hard", seed=0):
        if level not in LEVELS:
            raise ValueError("level must be easy, normal or hard, not %r" % (level,))
        self.level = level
        self.lv = LEVELS.index(level)
        hard = level == "hard"
        self.rng = Rng(seed)
        self.k = Know()
        self.model = CardModel()
        self.ev = Evaluator(self.model, hard)
        self.habit = Habit()
        self.knock = KnockRule(self.model, self.habit, self.ev)
        self.m = self.ev.m           # scratch hands (shared with the evaluator)
        self.h = self.ev.h
        # what the last decision found, for the hint
        self.why_kind = 0
        self.why_val = 0
        self._hard = None            # the hint's own hard player (other levels)
        self.t_bias = TAKE_BIAS
        self.t_rho = RHO
        # the discard planned when the upcard was taken (see _take), reused
        # when the discard decision that follows finds the same hand
        self.pre_n = -1
        self.pre_hand = -1
        self.pre_m = [0, 0, 0, 0]
        self.pre_code = 0
        self.pre_kind = 0
        self.pre_val = 0
        self.d_x = 0                 # the best discard _setup found (best_discard4)
        self.pe_hand = -1            # the turn _end_chance last worked out
        self.pe_n = -1
        self.pe_val = 0
        self.unlocked = 0            # decisions made again without the heap lock (locked.py)
        self.code = 0                # begin()'s choice
        self.view = None             # ... and its view (result() legalises for it)

    # -- entry points ----------------------------------------------------------
    def choose(self, view):
        """The action for the player to move in `view` (a legal action string)."""
        self.k.fill(view)
        if self.lv == 2:
            self.habit.learn(view, self.k.seat)
        self.code = locked_decision(self, view, PART_ALL, self.lv)
        self.view = view
        return self._text(self.code)

    def begin(self, view):
        """Start the decision for `view`; then step() until it is False, and
        result() is the move (together as choose(view) decides). Every
        level decides whole here, so there are no steps. Hard's decision
        split into choose_first here and choose_rest in step() was tried:
        inside the App on the emulated Pico the step took up to 600-900 ms
        (80-130 ms alone, allocating nothing and running no collection;
        the cause was not found), so it is asked for whole (docs/AI.md).
        Returns the move."""
        self.choose(view)
        return self.result()

    def step(self):
        """One bounded slice of the work begin() left: True while work
        remains (none: begin() decides whole)."""
        return False

    def result(self):
        """The move for begin()'s view."""
        return self._text(self.code)

    def _text(self, code):
        legalise = getattr(self.view, "legalise", None)   # an obs (obs.py)
        if legalise is not None:
            return legalise(ACTION_TEXT[code], self)
        return ACTION_TEXT[code]

    def choose_first(self, view):
        """The hard level's choice in two steps for the hand review (each
        about half of a decision's time): choose_first(view) is the action
        code chosen, or -1, and then choose_rest(view) with the same view
        is. Together they choose as choose(view) does, also when the player
        was asked about other views in between (as the hint asks)."""
        k = self.k
        k.fill(view)
        self.habit.learn(view, k.seat)
        return locked_decision(self, view, PART_FIRST, 2)

    def choose_rest(self, view):
        """See choose_first: the view read again, its terms prepared again
        (no knock estimate), the choice made."""
        k = self.k
        k.fill(view)
        self.habit.learn(view, k.seat)
        return locked_decision(self, view, PART_REST, 2)

    def hint(self, view):
        """(action, reason): hard's move for this view and why, in a few words
        (the hint button). Not a hot path: the reason is a new string."""
        if self.level != "hard":
            if self._hard is None:
                self._hard = Player("hard")
            return self._hard.hint(view)
        k = self.k
        k.fill(view)
        self.habit.learn(view, k.seat)
        code = locked_decision(self, view, PART_ALL, 2)
        act = ACTION_TEXT[code]
        legalise = getattr(view, "legalise", None)
        if legalise is not None:
            act = legalise(act, self)
        from .why import why             # the hint's words: loaded when asked
        return act, why(self, k, code)

    # -- decisions -----------------------------------------------------------------
    def _prepare(self, k, lv):
        self.model.fill(k, lv >= 2)
        ev = self.ev
        if lv >= 2:
            h = self.habit
            h.use(k.stock)
            ev.patient = h.patient() >> 4       # W_TOTAL 4096 -> x1/256
            ev.eager = h.w[10] >> 4
        ev.set_lam(k)
        ev.p_end = self._end_chance(k) * ev.t_pend >> 8 if lv >= 2 and ev.t_pend else 0

    def _end_chance(self, k):
        """KnockTerms.end_chance for this view, worked out once a turn: the
        draw and the discard that follows it see the opponent as it was
        (keyed by the hand and the log's length at the draw)."""
        n = k.key_n - 1 if k.phase == PH_DISCARD else k.key_n
        hno = k.key_hand
        if hno is None or k.new_hand or hno != self.pe_hand or n != self.pe_n:
            self.pe_val = self.knock.end_chance(k)
            self.pe_hand = -1 if hno is None else hno
            self.pe_n = n
        return self.pe_val

    def _decide_first(self, k, lv):
        """A decision as far as its knock check: the move when that settles
        it (a planned discard, a knock, taking the upcard to knock, easy's
        moves), else -1 and _decide_rest makes it (the hand review makes
        the two parts in separate steps: choose_first, choose_rest)."""
        if k.phase == PH_DISCARD:
            if self._planned(k):
                return self.pre_code
            x = self._setup(k, lv)
            dw = x >> 6
            if dw <= k.limit and self._knocks(k, lv, dw, x & 63):
                self.why_kind = WHY_KNOCK
                self.why_val = dw
                return KNOCK + (x & 63)
            if lv == 0:
                return DISCARD + self._easy_discard(k, x & 63)
            return -1
        if k.phase == PH_OFFER or k.phase == PH_DRAW:
            no = PASS if k.phase == PH_OFFER else DRAW_STOCK
            if k.up == NO_CARD or k.stock_only:
                return no
            self.why_kind = WHY_NONE
            if lv == 0:
                # easy: only for a finished meld
                if in_meld(load4(self.m, k.mine), k.up):
                    self.why_kind = WHY_TAKE_MELD
                    return DRAW_UPCARD
                return no
            x = self._setup(k, lv)
            after = x >> 6
            if after <= k.limit and self._knocks(k, lv, after, x & 63):
                self._take(k, KNOCK + (x & 63), WHY_KNOCK, after)
                self.why_kind = WHY_TAKE_KNOCK
                self.why_val = after
                return DRAW_UPCARD
            return -1
        raise ValueError("no decision to make in this phase")

    def _setup(self, k, lv):
        """The eleven cards into self.m (a draw: the hand and the upcard),
        their best discard (best_discard4's answer, also kept in self.d_x)
        and, above easy, the terms prepared for this view."""
        m = load4(self.m, k.mine)
        if k.phase == PH_DISCARD:
            x = best_discard4(m, k.taken)
        else:
            up = k.up
            m[up // 13] |= 1 << (up % 13)
            x = best_discard4(m, up)
        if lv >= 1:
            self._prepare(k, lv)
        self.d_x = x
        return x

    def _decide_rest(self, k, lv):
        """The decision _decide_first left (-1), after _setup: the discard,
        or taking the upcard to lower the hand's value, or not."""
        ev = self.ev
        dw = self.d_x >> 6
        if k.phase == PH_DISCARD:
            c = ev.discard_choice(k, lv >= 2, k.limit, k.taken)
            if self._knocks_with(k, lv, c):
                return KNOCK + c
            self.why_kind = WHY_KNOCK_LATER if dw <= k.limit else WHY_DISCARD
            return DISCARD + c
        mine = k.mine
        up = k.up
        now = deadwood4(mine[0], mine[1], mine[2], mine[3])
        # the upcard is no longer a stock candidate: it is seen
        dc = ev.discard_choice(k, lv >= 2, k.limit, up)
        take = ev.dc_value
        if take + self.t_bias < self.stock_value(k, now, True):
            if self._knocks_with(k, lv, dc):
                self._take(k, KNOCK + dc, WHY_KNOCK, self.why_val)
            else:
                self._take(k, DISCARD + dc, WHY_KNOCK_LATER if dw <= k.limit else WHY_DISCARD, dw)
            self.why_kind = (WHY_TAKE_MELD if dw < now and in_meld(mine, up)
                             else WHY_TAKE_LOWER)
            self.why_val = dw
            return DRAW_UPCARD
        return PASS if k.phase == PH_OFFER else DRAW_STOCK

    def stock_value(self, k, now, prepared=False):
        """Value (x16, lower better) of drawing from the stock (or passing
        the V1 offer) with the hand's deadwood `now`: the hand less the
        next draw's expected gain, at risk of the opponent ending the hand
        first (Evaluator.at_risk: then the expected deadwood after the draw
        counts, less its expected layoffs). `prepared`: the discard choice
        with the upcard has just run for this view, so the evaluator's
        layoff chances of the hand's cards are set (lay_prep)."""
        ev = self.ev
        h = load4(self.h, k.mine)
        v0 = ev.value10(h)
        d16 = ev.v1
        if ev.t_lay and ev.p_end:
            if not prepared:
                ev.lay_prep(k, h)
            d16 -= ev.lay16(h)
        return ev.at_risk(v0 - self.t_rho * (now * 16 - ev.v1) // 16, d16)

    def _knocks(self, k, lv, dw, c):
        """Knock with deadwood dw, discarding c from the eleven cards in
        self.m (the knock rule sees the ten it keeps)?"""
        return self.knock.should_knock(k, lv, dw, load4(self.h, self.m, c), c)

    def _knocks_with(self, k, lv, c):
        """Hard: does the discard chosen for its value, c (not the lowest-
        deadwood one _decide_first weighed a knock with; its deadwood is
        the evaluator's dc_dw), leave a hand it would knock with? Throwing
        a card that keeps fewer draws can make a knock worth more than
        playing on (then why_* are set)."""
        if lv < 2 or c == self.d_x & 63:
            return False
        dw = self.ev.dc_dw
        if dw > k.limit or not self._knocks(k, lv, dw, c):
            return False
        self.why_kind = WHY_KNOCK
        self.why_val = dw
        return True

    def _take(self, k, code, kind, val):
        """Taking the upcard: its discard was decided with it (the hand
        after the take, the same cards seen, the same stock), so the
        discard decision that follows reuses it when it finds that hand."""
        load4(self.pre_m, self.m)
        self.pre_hand = k.key_hand if k.key_hand is not None else -1
        self.pre_n = k.key_n + 1 if k.key_hand is not None else -1
        self.pre_code = code
        self.pre_kind = kind
        self.pre_val = val

    def _planned(self, k):
        """Is this the discard decision _take planned (then why_* are set)?"""
        n = self.pre_n
        self.pre_n = -1
        if n != k.key_n or k.key_hand != self.pre_hand or k.taken == NO_CARD:
            return False
        pm = self.pre_m
        mine = k.mine
        if pm[0] != mine[0] or pm[1] != mine[1] or pm[2] != mine[2] or pm[3] != mine[3]:
            return False
        self.why_kind = self.pre_kind
        self.why_val = self.pre_val
        return True

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
                    cc = s * 13 + BIT_RANK[bit % 37]
                    if cc != k.taken and not in_meld_now(m, s, bit):
                        n += 1
            if n:
                j = self.rng.below(n)
                for s in range(4):
                    x = m[s]
                    left = x
                    while left:
                        bit = left & -left
                        left ^= bit
                        cc = s * 13 + BIT_RANK[bit % 37]
                        if cc != k.taken and not in_meld_now(m, s, bit):
                            if j == 0:
                                return cc
                            j -= 1
        return c
