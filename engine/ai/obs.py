"""The plain-data observation: the arena, the OpenSpiel adapter and
bring-your-own bots (README: the obs format)."""
from ..cards import card, card_text
from ..melds import deadwood4
from ..hand import DRAW_UPCARD, TOOK, action_code


def _log_of(moves):
    """(log codes, seats) of a list of [seat, action text] moves."""
    log = bytearray()
    log_seat = bytearray()
    for mv in moves:
        seat, act = mv[0], mv[1]
        code = action_code(act)
        if code == DRAW_UPCARD:
            if not act.startswith("draw_upcard:"):
                raise ValueError("obs moves name the card taken: 'draw_upcard:Qs', not %r" % act)
            code = TOOK + card(act[12:])
        log.append(code)
        log_seat.append(seat)
    return log, log_seat


class _Outcome:
    def __init__(self, knocker_deadwood):
        self.knocker_deadwood = knocker_deadwood


class _Past:
    """A finished hand of an obs's `history` (README: the obs format)."""

    def __init__(self, h):
        self.log, self.log_seat = _log_of(h.get("moves", []))
        self.knocker = h.get("knocker")
        self.winner = None if self.knocker is None else h.get("winner", self.knocker)
        self.outcome = None
        self.masks = None
        self.limit = h.get("knock_card", 10)
        hands = h.get("hands")
        if self.knocker is not None and hands:
            self.masks = []
            for cs in hands:
                m = [0, 0, 0, 0]
                for t in cs:
                    c = card(t)
                    m[c // 13] |= 1 << (c % 13)
                self.masks.append(m)
            k = self.masks[self.knocker]
            self.outcome = _Outcome(deadwood4(k[0], k[1], k[2], k[3]))


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
        self.target = obs.get("target", 100)
        # the rules the hand is played under, when the obs names them (a
        # rules line, engine.rules.Rules.text()): the AI reads the stock's
        # stop (V3) and the bonuses from them; else Cardems's
        self.rules = None
        line = obs.get("rules")
        if line is not None:
            from ..rules import Rules
            r = Rules.from_text(line)
            if "target" in obs:
                r = r.copy(target=self.target)
            self.target = r.target
            self.rules = r
        self.opponent_known = [card(t) for t in obs.get("opponent_known", [])]
        self.legal = list(obs.get("legal", []))
        self.moves = obs.get("moves", [])
        self.deal = None
        self.hand_no = None
        log, log_seat = _log_of(self.moves)
        self._past = [_Past(h) for h in obs.get("history", [])]
        self.log = log
        self.log_seat = log_seat
        t = None
        if self.phase == "discard" and len(log) and log_seat[-1] == self.seat \
                and log[-1] >= TOOK:
            t = log[-1] - TOOK
        self.taken = t

    # -- finished hands (obs["history"]), for the hard AI's habit estimate
    @property
    def hands_over(self):
        return len(self._past)

    def past_result(self, i):
        return self._past[i]

    def past_log(self, i):
        return self._past[i].log

    def past_log_seat(self, i):
        return self._past[i].log_seat

    def past_limit(self, i):
        return self._past[i].limit

    def past_masks(self, i, seat, out):
        m = self._past[i].masks
        if m is None:
            return False
        out[0], out[1], out[2], out[3] = m[seat]
        return True

    def pile_card(self, i):
        p = self.pile
        return p[i] if 0 <= i < len(p) else None

    def load_scores(self, out):
        out[0] = self.scores[0]
        out[1] = self.scores[1]

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
        "target": view.rules.target,
        "rules": view.rules.text(),
        "history": history_of(view),
    }


def history_of(view):
    """The obs "history" of an engine View: every finished hand of the match,
    its moves, and, when its showdown showed them, both final hands."""
    out = []
    n = getattr(view, "hands_over", 0)
    for i in range(n):
        r = view.past_result(i)
        log = view.past_log(i)
        ls = view.past_log_seat(i)
        h = {"moves": [[ls[j], _text(log[j])] for j in range(len(log))],
             "knocker": r.knocker, "knock_card": view.past_limit(i)}
        if r.winner is not None:
            h["winner"] = r.winner
            hands = []
            for seat in (0, 1):
                m = [0, 0, 0, 0]
                view.past_masks(i, seat, m)
                hands.append([card_text(s * 13 + b) for s in range(4)
                              for b in range(13) if m[s] >> b & 1])
            h["hands"] = hands
        out.append(h)
    return out


def _text(code):
    from ..hand import action_text
    return action_text(code)
