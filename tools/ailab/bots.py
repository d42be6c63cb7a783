"""Sparring partners for the arena (tools/ailab/arena.py, tools/ailab/ai_table.py).

Every bot here has `choose(view) -> action string` and works with an engine
View or an engine.ai.ObsView; `make(name, seed)` builds one by name (NAMES
lists them, `--b NAME` takes them).

`simple`: Neller's SimpleGinRummyPlayer, written from its published
description (the EAAI-2021 Gin Rummy challenge's reference player):
- draw: take the upcard only if it would be part of a meld with cards in the
  hand (a set or a run containing it), or if taking it lets the player knock
  this turn; otherwise draw from the stock (in the first-upcard offer: pass);
- discard: the card leaving the lowest deadwood, i.e. the highest-deadwood
  unmelded card, never the card just taken from the pile (R4); ties: the
  engine's rule (higher value, then lower card);
- knock as soon as the deadwood allows (gin when it is 0).

`greedy-T` (T = gin, 1, 3, 5, 10): simple's draws and discards, but it
knocks only at deadwood <= T (`greedy-gin`: gin only), and takes the upcard
"to knock" only under that threshold. `greedy-T-end`: the same, but once the
stock is nearly out (3 cards or fewer before the hand's end, R11 / V3) it
knocks at any deadwood the rules allow.

`switcher`: a greedy knocker whose threshold changes every few hands
(2 to 4, from its seed) among gin, 1, 3, 5 and 10: a player changing style
to catch an opponent that learns.

`lookahead-N` (N = 3, 6): an independent one-draw-lookahead player: it
discards the card leaving the lowest expected deadwood after one more
stock draw (unseen cards equally likely), takes the upcard when that beats
the stock's expectation, goes gin when it can and otherwise plays on for gin
until the stock has fewer than N cards before its end, then knocks as soon
as it can.

`hard-eager`, `hard-patient`: the hard AI knocking as soon as it can, or
never before gin until the stock's last card (it still knocks then).
`hard-switcher`: the hard AI switching between those two every hand or
two (1 or 2 hands a style, from its seed).
`hard-frozen`: the hard AI with its knock habit frozen at its prior (it
learns nothing of the opponent's knocking): what hard's learning is
measured against, on the same deals.

Partners that attack the habit's learning: each plays its draws and
discards as `lookahead-3` does and changes only how it knocks, "quick"
(as soon as the rules allow) or "patient" (gin, or knock as soon as it can
once the stock has fewer than 3 cards before its end, lookahead-3's rule):
`switch-N` (N = 1, 2, 3): N hands quick, N hands patient, and so on (which
comes first from its seed); `quick-then-patient`: quick for the match's
first two hands, patient from then on; `patient-then-quick` the reverse;
`counter`: works out hard's own estimate of its habit (engine/ai/habit.py,
fed from what its own view shows at each showdown, as any player could)
and plays each hand the style opposite to what that estimate leans to;
`early-knock-late-gin`: quick while the stock holds more than EKLG_STOCK
cards before its end, patient from then on.
"""
from engine.cards import NO_CARD
from engine.melds import best_discard4, deadwood4, BIT_RANK
from engine.ai import ACTION_TEXT, Player
from engine.hand import DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD, KNOCK
from engine.rng import Rng


def makes_meld(m, c):
    """Would card c be part of a meld with the cards of suit masks m?"""
    s = c // 13
    r = c % 13
    bit = 1 << r
    n = 0
    for t in range(4):
        if t != s and m[t] & bit:
            n += 1
    if n >= 2:
        return True
    x = m[s] | bit
    for lo in (r - 2, r - 1, r):
        if lo >= 0 and lo + 2 <= 12 and (x >> lo) & 7 == 7:
            return True
    return False


def stock_left(view):
    """Cards the stock has before the hand ends (R11: 0; V3: 2)."""
    r = getattr(view, "rules", None)
    return view.stock_size - (getattr(r, "stop_at", 0) if r is not None else 0)


class GreedyBot:
    """Lowest deadwood always; knocks at deadwood <= threshold (0: gin)."""

    def __init__(self, threshold=10, end=False, seed=0, name=None):
        self.m = [0, 0, 0, 0]
        self.threshold = threshold
        self.end = end
        self.name = name or "greedy"

    def knock_at(self, view):
        """The deadwood this bot knocks at now."""
        t = self.threshold
        if self.end and stock_left(view) <= 3:
            t = 10
        return min(t, view.knock_limit)

    def choose(self, view):
        m = self.m
        view.load_masks(m)
        ph = view.phase
        lim = self.knock_at(view)
        if ph == "discard":
            t = view.taken
            x = best_discard4(m, NO_CARD if t is None else t)
            if (x >> 6) <= lim:
                return ACTION_TEXT[KNOCK + (x & 63)]
            return ACTION_TEXT[DISCARD + (x & 63)]
        up = view.upcard
        legal = view.legal
        take = False
        if up is not None and "draw_upcard" in legal:
            if makes_meld(m, up):
                take = True
            else:
                m[up // 13] |= 1 << (up % 13)
                take = (best_discard4(m, up) >> 6) <= lim
        if take:
            return ACTION_TEXT[DRAW_UPCARD]
        if ph == "first_upcard":
            return ACTION_TEXT[PASS]
        return ACTION_TEXT[DRAW_STOCK]


class SimpleBot(GreedyBot):
    name = "simple"

    def __init__(self, seed=0):
        GreedyBot.__init__(self, 10, False, seed, "simple")


class StyleClock:
    """Counts hands for a player that changes style: `tick(view)` is True
    when a new hand starts and the current style has run its course (after
    lo to lo + span - 1 hands, from the player's own generator)."""

    def __init__(self, seed, lo, span):
        self.rng = Rng(seed % (1 << 30))
        self.lo = lo
        self.span = span
        self.hand = None
        self.left = 0
        self.n_log = 0

    def tick(self, view):
        hno = getattr(view, "hand_no", None)
        n = len(view.log)
        if hno is not None:
            new = hno != self.hand
        else:
            new = n < self.n_log or self.left == 0
        self.hand = hno
        self.n_log = n
        if not new:
            return False
        due = self.left <= 0
        if due:
            self.left = self.lo + self.rng.below(self.span)
        self.left -= 1
        return due

    def other(self, styles, now):
        """A style of `styles` other than `now`, at random."""
        t = now
        while t == now:
            t = styles[self.rng.below(len(styles))]
        return t


class SwitcherBot(GreedyBot):
    """A greedy knocker changing its threshold every 2-4 hands."""

    STYLES = (0, 1, 3, 5, 10)

    def __init__(self, seed=0):
        GreedyBot.__init__(self, 10, False, seed, "switcher")
        self.clock = StyleClock(seed, 2, 3)

    def choose(self, view):
        if self.clock.tick(view):
            self.threshold = self.clock.other(self.STYLES, self.threshold)
        return GreedyBot.choose(self, view)


class HardSwitcher:
    """The hard AI changing its knock every hand or two between knocking at
    once and playing on for gin (hard-eager / hard-patient): the strongest
    sparring partner that changes style to stay ahead of an opponent that
    learns it."""

    def __init__(self, seed=0):
        from engine.ai.knock import STYLE_EAGER, STYLE_PATIENT
        self.styles = (STYLE_EAGER, STYLE_PATIENT)
        self.p = Player("hard", seed)
        self.p.knock.style = self.styles[0]
        self.clock = StyleClock(seed, 1, 2)
        self.name = "hard-switcher"

    def choose(self, view):
        kr = self.p.knock
        if self.clock.tick(view):
            kr.style = self.clock.other(self.styles, kr.style)
        return self.p.choose(view)


class LookaheadBot:
    """One-draw lookahead; plays on for gin until the stock runs low."""

    def __init__(self, until=6, seed=0):
        self.until = until
        self.name = "lookahead-%d" % until
        self.m = [0, 0, 0, 0]
        self.unseen = []

    def _unseen(self, view, m):
        seen = [0, 0, 0, 0]
        for c in view.pile:
            seen[c // 13] |= 1 << (c % 13)
        out = []
        for s in range(4):
            free = 0x1FFF & ~(m[s] | seen[s])
            for r in range(13):
                if free >> r & 1:
                    out.append(s * 13 + r)
        return out

    def _expect(self, h, unseen):
        """Expected deadwood x16 of the 10-card masks h after one stock
        draw and the best discard (unseen cards equally likely)."""
        tot = 0
        for u in unseen:
            s = u // 13
            b = 1 << (u % 13)
            h[s] |= b
            tot += best_discard4(h, NO_CARD) >> 6
            h[s] ^= b
        return tot * 16 // max(1, len(unseen))

    def _best(self, m, forbid, unseen):
        """The discard of the 11-card masks m leaving the lowest expected
        deadwood after the next draw (gin first; ties: lower deadwood now)."""
        best = None
        for s in range(4):
            x = m[s]
            left = x
            while left:
                bit = left & -left
                left ^= bit
                c = s * 13 + BIT_RANK[bit % 37]
                if c == forbid:
                    continue
                m[s] = x ^ bit
                dw = deadwood4(m[0], m[1], m[2], m[3])
                key = (-1, 0) if dw == 0 else (self._expect(m, unseen), dw)
                m[s] = x
                if best is None or key < best[0]:
                    best = (key, c)
        return best[1]

    def choose(self, view):
        m = self.m
        view.load_masks(m)
        ph = view.phase
        unseen = self._unseen(view, m)
        if ph == "discard":
            t = view.taken
            t = NO_CARD if t is None else t
            x = best_discard4(m, t)
            dw = x >> 6
            if dw == 0 or (dw <= view.knock_limit and stock_left(view) < self.until):
                return ACTION_TEXT[KNOCK + (x & 63)]
            return ACTION_TEXT[DISCARD + self._best(m, t, unseen)]
        up = view.upcard
        if up is not None and "draw_upcard" in view.legal:
            stock = self._expect(list(m), unseen)
            m[up // 13] |= 1 << (up % 13)
            after = best_discard4(m, up) >> 6
            if after * 16 < stock:
                return ACTION_TEXT[DRAW_UPCARD]
        if ph == "first_upcard":
            return ACTION_TEXT[PASS]
        return ACTION_TEXT[DRAW_STOCK]


class KnockStyleBot(LookaheadBot):
    """lookahead-3's draws and discards; its knock is quick or patient as
    `quick(view)` says (a subclass decides)."""

    def __init__(self, seed=0, name="knock-style"):
        LookaheadBot.__init__(self, 3, seed)
        self.name = name
        self.rng = Rng(seed % (1 << 30))
        self.last_quick = None       # the style of the last decision (tests)

    def quick(self, view):
        return False

    def choose(self, view):
        q = self.quick(view)
        self.last_quick = q
        self.until = 1000 if q else 3
        return LookaheadBot.choose(self, view)


class PeriodSwitcher(KnockStyleBot):
    """`period` hands quick, `period` hands patient, ...; which first from
    the seed (its bit 1: the arena's seeds for B, 2s + 2, alternate it
    from one deal sequence to the next)."""

    def __init__(self, period, seed=0):
        KnockStyleBot.__init__(self, seed, "switch-%d" % period)
        self.period = period
        self.first = (seed >> 1) & 1

    def quick(self, view):
        return ((view.hand_no - 1) // self.period + self.first) % 2 == 0


class PhaseSwitcher(KnockStyleBot):
    """One style for the match's first `hands` hands, the other after."""

    def __init__(self, quick_first, seed=0, hands=2):
        KnockStyleBot.__init__(self, seed, "quick-then-patient" if quick_first else "patient-then-quick")
        self.quick_first = quick_first
        self.hands = hands

    def quick(self, view):
        return (view.hand_no <= self.hands) == self.quick_first


class CounterBot(KnockStyleBot):
    """Plays each hand the style opposite to what hard believes of it: a
    copy of hard's habit estimate (engine/ai/habit.Habit, from its prior)
    fed the match's finished hands from this player's own view (the
    showdowns show both hands to both players), learning about this
    player as hard does. Quick when the estimate's share of thresholds 0-2
    (patient) is above its share of 10 (knocks at once), else patient;
    hard's estimate for the part of the hand the stock is in (Habit.use)."""

    def __init__(self, seed=0):
        from engine.ai.habit import Habit
        KnockStyleBot.__init__(self, seed, "counter")
        self.habit = Habit()

    def quick(self, view):
        h = self.habit
        h.learn(view, 1 - view.seat)     # hard's seat: it learns of us
        h.use(view.stock_size)           # what it believes of this part of the hand
        return h.patient() > h.w[10]


EKLG_STOCK = 20


class EarlyKnockLateGin(KnockStyleBot):
    """Quick while the stock holds more than EKLG_STOCK cards before the
    hand's end, patient from then on."""

    def __init__(self, seed=0):
        KnockStyleBot.__init__(self, seed, "early-knock-late-gin")
        self.stock = EKLG_STOCK

    def quick(self, view):
        return stock_left(view) > self.stock


def hard_frozen(seed):
    """The hard AI learning nothing of its opponent's knocking: the habit
    stays at its prior."""
    p = Player("hard", seed)
    p.habit.learn = lambda view, me: None
    p.name = "hard-frozen"
    return p


def hard_variant(style, seed):
    """The hard AI knocking at once ('eager') or only at gin or the stock's
    last card ('patient')."""
    from engine.ai.knock import STYLE_EAGER, STYLE_PATIENT
    p = Player("hard", seed)
    p.knock.style = STYLE_EAGER if style == "eager" else STYLE_PATIENT
    p.name = "hard-" + style
    return p


# the partners that attack the habit's learning (ai_table.py's section)
ADAPT = ("switch-1", "switch-2", "switch-3", "quick-then-patient",
         "patient-then-quick", "counter", "early-knock-late-gin")
GREEDY = (("gin", 0), ("1", 1), ("3", 3), ("5", 5), ("10", 10))
NAMES = ("easy", "normal", "hard", "simple") + tuple(
    "greedy-" + g + e for g, _ in GREEDY for e in ("", "-end")) + (
    "switcher", "lookahead-3", "lookahead-6", "hard-eager", "hard-patient",
    "hard-switcher", "hard-frozen") + ADAPT
# players of the lab only, left out of NAMES (a match of theirs takes seconds
# to minutes): the expert of tools/ailab/expert_search.py
LAB = ("expert",)


def tuned(player, spec):
    """Set the tuning fields of `spec`, "knock.t_bias=16,ev.t_lam=40": a
    dotted attribute path of the Player, an int or a comma-free tuple
    "a/b/c" of ints. For trying settings in the arena: hard@knock.t_bias=16."""
    for item in spec.split(","):
        path, _, val = item.partition("=")
        parts = path.strip().split(".")
        obj = player
        for p in parts[:-1]:
            obj = getattr(obj, p)
        if not hasattr(obj, parts[-1]):
            raise ValueError("no tuning field %r" % path)
        v = tuple(int(x) for x in val.split("/")) if "/" in val else int(val)
        setattr(obj, parts[-1], v)
    return player


def make(name, seed=0):
    """A bot by name (NAMES); NAME@field=value,... tunes a Player (tuned())."""
    if "@" in name:
        base, _, spec = name.partition("@")
        p = make(base, seed)
        return tuned(p, spec)
    if name == "simple":
        return SimpleBot(seed)
    if name in ("easy", "normal", "hard"):
        return Player(name, seed)
    if name.startswith("greedy-"):
        rest = name[7:]
        end = rest.endswith("-end")
        if end:
            rest = rest[:-4]
        for g, t in GREEDY:
            if rest == g:
                return GreedyBot(t, end, seed, name)
    if name == "switcher":
        return SwitcherBot(seed)
    if name.startswith("lookahead-") and name[10:] in ("3", "6"):
        return LookaheadBot(int(name[10:]), seed)
    if name in ("hard-eager", "hard-patient"):
        return hard_variant(name[5:], seed)
    if name == "hard-switcher":
        return HardSwitcher(seed)
    if name == "hard-frozen":
        return hard_frozen(seed)
    if name.startswith("switch-") and name[7:] in ("1", "2", "3"):
        return PeriodSwitcher(int(name[7:]), seed)
    if name in ("quick-then-patient", "patient-then-quick"):
        return PhaseSwitcher(name.startswith("quick"), seed)
    if name == "counter":
        return CounterBot(seed)
    if name == "early-knock-late-gin":
        return EarlyKnockLateGin(seed)
    if name == "expert":
        from tools.ailab.expert_search import Expert
        return Expert(seed)
    raise ValueError("unknown bot %r (%s, or module:function)" % (name, " ".join(NAMES + LAB)))
