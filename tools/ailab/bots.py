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
"""
from engine.cards import NO_CARD
from engine.melds import best_discard4, deadwood4, _BIT_RANK
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


class SwitcherBot(GreedyBot):
    """A greedy knocker changing its threshold every 2-4 hands."""

    STYLES = (0, 1, 3, 5, 10)

    def __init__(self, seed=0):
        GreedyBot.__init__(self, 10, False, seed, "switcher")
        self.rng = Rng(seed % (1 << 30))
        self.hand = None
        self.left = 0
        self.n_log = 0

    def choose(self, view):
        hno = getattr(view, "hand_no", None)
        n = len(view.log)
        if hno is not None:
            new = hno != self.hand
        else:
            new = n < self.n_log or self.left == 0
        self.hand = hno
        self.n_log = n
        if new:
            if self.left <= 0:
                self.left = 2 + self.rng.below(3)
                t = self.threshold
                while t == self.threshold:
                    t = self.STYLES[self.rng.below(len(self.STYLES))]
                self.threshold = t
            self.left -= 1
        return GreedyBot.choose(self, view)


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
                c = s * 13 + _BIT_RANK[bit % 37]
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


def hard_variant(style, seed):
    """The hard AI knocking at once ('eager') or only at gin or the stock's
    last card ('patient')."""
    from engine.ai.knock import STYLE_EAGER, STYLE_PATIENT
    p = Player("hard", seed)
    p.knock.style = STYLE_EAGER if style == "eager" else STYLE_PATIENT
    p.name = "hard-" + style
    return p


GREEDY = (("gin", 0), ("1", 1), ("3", 3), ("5", 5), ("10", 10))
NAMES = ("easy", "normal", "hard", "simple") + tuple(
    "greedy-" + g + e for g, _ in GREEDY for e in ("", "-end")) + (
    "switcher", "lookahead-3", "lookahead-6", "hard-eager", "hard-patient")


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
    raise ValueError("unknown bot %r (%s, or module:function)" % (name, " ".join(NAMES)))
