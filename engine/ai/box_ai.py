"""V6: the sitter's advice and the AI captain weighing it.

Seed 003: the captain "may take advice from the third, sitting-out player
(the captain decides)". Two functions, both reading only a player's view
(`BoxMatch.view(p)`: the captain's cards for the captain and the sitter):

sitter_advice(player, view) -> (action, words)
    The sitter's suggestion for the captain: the AI's hint (`Player.hint`,
    the hard level's move and why) on the captain's view. The action is
    named as `BoxMatch.legal()` names it ("draw_upcard", not
    "draw_upcard:7h"), so it can go to `BoxMatch.advise` as it is.

consider(player, view, advice) -> (action, follows, words)
    The AI captain's move when the sitter advised `advice` (None: no
    advice). The captain first makes up its own mind (`player.choose`),
    then follows the advice when it is legal and not clearly worse by the
    captain's own measure:
      * discard or knock: the deadwood left after the advised card goes
        is at most TOLERANCE above what its own choice leaves; a gin is
        never given up for a plain knock or a discard;
      * take the upcard: only when the upcard lowers the hand's deadwood
        (after the best discard, never the upcard itself, R4);
      * draw from the stock / pass instead of taking: unless the upcard
        lowers the deadwood by more than TOLERANCE or lets it knock at once.
    The answer says so in a few words: "follows: discard 9h",
    "keeps 9h: it makes a run", "draws: 7h no help".

Deterministic: the same view and advice give the same answer (the easy
level's own choice draws from its seeded generator, as always). The
returned action is always legal for the view.
"""
from ..cards import NO_CARD, CARD_VALUE, card, card_text
from ..melds import deadwood4, best_discard4

TOLERANCE = 2       # deadwood points of slack before advice is "clearly worse"


def plain(action):
    """An action as BoxMatch.legal() names it: 'draw_upcard:7h' -> 'draw_upcard'."""
    if action is not None and action.startswith("draw_upcard"):
        return "draw_upcard"
    return action


def sitter_advice(player, view):
    """(action, words): the sitter's suggestion for the captain (V6)."""
    act, words = player.hint(view)
    return plain(act), words


def say(action, upcard=None):
    """'discard:9h' -> 'discard 9h', 'draw_upcard' -> 'take 7h' (words)."""
    a = plain(action)
    if a == "draw_stock":
        return "draw stock"
    if a == "pass":
        return "pass"
    if a == "draw_upcard":
        return "take" if upcard is None else "take " + card_text(upcard)
    kind, _, t = a.partition(":")
    return kind + " " + t


def _masks(view):
    m = [0, 0, 0, 0]
    view.load_masks(m)
    return m


def _without(m, c):
    """Deadwood of masks m without card c."""
    s = c // 13
    b = 1 << (c % 13)
    m[s] ^= b
    d = deadwood4(m[0], m[1], m[2], m[3])
    m[s] ^= b
    return d


def _meld_kind(m, c):
    """'run', 'set' or None: what card c (in m) can make with the others."""
    s = c // 13
    r = c % 13
    x = m[s]
    for lo in (r - 2, r - 1, r):
        if lo >= 0 and lo + 2 <= 12 and (x >> lo) & 7 == 7:
            return "run"
    n = 0
    for t in range(4):
        if m[t] >> r & 1:
            n += 1
    return "set" if n >= 3 else None


def _fallback(view, legal):
    """A legal action when the AI's own is not (never expected): the
    lowest-deadwood discard, else the first legal action."""
    best = None
    m = _masks(view)
    for a in legal:
        if a.startswith("knock:") or a.startswith("discard:"):
            d = _without(m, card(a[-2:]))
            if best is None or d < best[0]:
                best = (d, a)
    return best[1] if best is not None else legal[0]


class Think:
    """The AI's move in the box game in slices, as the App asks a two-player
    AI (begin, step while True, result): the AI sitter's advice when an AI
    captain is to move (a hint: one slice), then the mover's own choice
    (Player.begin, and its step when begin left one). result() is
    (own move, the AI sitter's advice or None); consider() then weighs
    advice against the own move at the moment of the move, so advice a
    human sitter gives meanwhile still counts."""

    def __init__(self, ais, match):
        p = match.to_move
        _box, cap, sit = match.hand_roles
        self.player = ais[p]
        self.view = match.view(p)
        self.adviser = None
        if p == cap and sit != 0 and match.advice is None:
            self.adviser = (ais[sit], match.view(sit))
        self.advice = None
        self.own = None
        self.stage = 0

    def step(self):
        """One slice; True while slices remain."""
        if self.stage == 0:
            self.stage = 1
            if self.adviser is not None:
                self.advice = sitter_advice(self.adviser[0], self.adviser[1])[0]
                self.adviser = None
                return True
        pl = self.player
        if self.stage == 1:
            self.stage = 2
            begin = getattr(pl, "begin", None)
            if begin is None:
                self.own = pl.choose(self.view)
                return False
            self.own = begin(self.view)
            if self.own is None:
                return True
        if self.own is None:
            if pl.step():
                return True
            self.own = pl.result()
        return False

    def result(self):
        return self.own, self.advice


def consider(player, view, advice, own=None):
    """(action, follows, words): the captain's move given the sitter's
    advice; `own`: its own choice when already made (Think), else asked
    of `player` here."""
    legal = view.legal
    own = plain(player.choose(view) if own is None else own)
    if own not in legal:
        own = _fallback(view, legal)
    up = view.upcard
    if advice is None:
        return own, False, say(own, up)
    adv = plain(advice)
    if adv not in legal:
        return own, False, "%s: not allowed now" % say(adv, up)
    if adv == own:
        return own, True, "follows: " + say(adv, up)
    m = _masks(view)
    if view.phase == "discard":
        ca = card(adv[-2:])
        co = card(own[-2:])
        da = _without(m, ca)
        do = _without(m, co)
        if own.startswith("knock:") and do == 0 and da != 0:
            return own, False, "goes gin: discards %s" % card_text(co)
        if da <= do + TOLERANCE:
            return adv, True, "follows: " + say(adv, up)
        kind = _meld_kind(m, ca)
        dw11 = deadwood4(m[0], m[1], m[2], m[3])
        if kind is not None and da != dw11 - CARD_VALUE[ca]:
            return own, False, "keeps %s: it makes a %s" % (card_text(ca), kind)
        return own, False, "keeps %s: %d more deadwood" % (card_text(ca), da - do)
    # the draw (or V1's offer): does the upcard improve the hand?
    now = deadwood4(m[0], m[1], m[2], m[3])
    gain = 0
    after = now
    kind = None
    if up is not None and up != NO_CARD:
        s = up // 13
        b = 1 << (up % 13)
        m[s] |= b
        after = best_discard4(m, up) >> 6
        kind = _meld_kind(m, up)
        m[s] ^= b
        gain = now - after
    if adv == "draw_upcard":
        if gain > 0:
            return adv, True, "follows: " + say(adv, up)
        verb = "passes" if own == "pass" else "draws"
        return own, False, "%s: %s no help" % (verb, card_text(up))
    # advised the stock (or a pass); its own choice is to take the upcard
    if gain > 0 and after <= view.knock_limit:
        return own, False, "takes %s: then knocks" % card_text(up)
    if gain > TOLERANCE:
        if kind is not None:
            return own, False, "takes %s: makes a %s" % (card_text(up), kind)
        return own, False, "takes %s: %d less deadwood" % (card_text(up), gain)
    return adv, True, "follows: " + say(adv, up)
