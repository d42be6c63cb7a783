"""The three-player box game's session (V6): app.session while a box match
is in play (firmware/matchlife.py says what a session is).

Cold: imported only when a box match is made (3-PLAYER GAME on the
title: new_match()) or resumed from the game save (firmware/saves/saveload.py,
session_of), like engine.box.

The human is player 0, the two AIs players 1 and 2 (P2, P3). A box match
is saved with the statistics in the game save, as a two-player one is
(firmware/saves/gamesave.py), and its statistics are those of the games against
the CPU: the box session takes them over from the session before it, and
gives them to the next. The opponent is BoxAis, the two AI players at the
settings' level, made when first needed (after a resume too) and made
again when the level changes; seeded from the match's AI seed when it has
one.
"""

from firmware.matchlife import Session, ai_seed


def new_match(app):
    """A new three-player match (V6: engine.box.BoxMatch, the roles drawn
    by the engine) at the box rules with the settings' target, its session
    in play (with the statistics of the one before), saved at once; with
    an entropy source, waiting for the player's cut (firmware/cutwait.py)."""
    from engine.box import BOX_RULES, BoxMatch

    t = app.settings.target
    rules = BOX_RULES if t == BOX_RULES.target else BOX_RULES.copy(target=t)
    life = app.life
    seed = life.next_seed()
    if life.entropy is not None:
        # waiting for the player's cut (firmware/cutwait.py)
        from firmware.cutwait import begin

        begin(app, rules, seed, BoxSession, Session, True)
        return
    s = BoxSession(app, app.session.stats)
    app.session = s
    s.start(life.make_match(rules, seed, BoxMatch))


class BoxSession(Session):
    kind = "box"

    def __init__(self, app, stats, match=None):
        self.app = app
        self.stats = stats
        self.match = match
        self.opponent = BoxAis(self)

    def resume(self):
        self.opponent = BoxAis(self)     # its AIs are made when first needed

    def screen(self, name):
        return "box_play" if name == "play" else name

    def hand_over(self, res):
        """Count a finished hand (and match) in the statistics, from the
        human's side: the hands the human played as box or captain (a hand
        sat out is not the human's), and the match."""
        m = self.match
        seat = m.seat_of(0)
        if seat is not None:
            self.stats.record_hand(res, seat)
        if m.winner is not None:
            self.stats.record_match(m)          # reads .winner: player 0 is the human
        self.app.saving.hand_counted()

    def follow_level(self):
        pass                    # BoxAis.players() follows it


class BoxAis:
    """The other seats of a box match: the two AI players. The AI to move
    thinks in slices in its pause (engine.ai.box_ai.Think: an AI sitter's
    advice, then the mover's own choice, a slice a step); the captain
    weighs the advice when it moves (engine.ai.box_ai.consider), so a
    human sitter's advice given in the pause counts. `answer` is the AI
    captain's answer to the human sitter's advice, (captain, follows,
    words), after the move it answered, else None."""

    plans_ahead = True
    told = None

    def __init__(self, session):
        self.session = session
        self.ais = None
        self.level = None
        self.plan = None             # (the mover's own choice, an AI sitter's advice)
        self.busy = None             # the Think while its slices remain
        self.answer = None

    def players(self):
        """[None, AI of P2, AI of P3] at the settings' level."""
        app = self.session.app
        level = app.settings.level
        if self.ais is not None and self.level == level:
            return self.ais
        m = self.session.match
        a = getattr(m, "ai_seed", None)
        if a is None:           # a match dealt by deal numbers
            s1 = ai_seed((m.seed + 1) & 0x3FFFFFFF)
            s2 = ai_seed((m.seed + 2) & 0x3FFFFFFF)
        else:                   # drawn from the board's entropy with the match
            s1 = a
            s2 = (a * 69069 + 12345) & 0x3FFFFFFF
        f = app.life.player_factory
        self.ais = [None, f(level, s1), f(level, s2)]
        self.level = level
        return self.ais

    def think(self, m):
        t = self.busy
        try:
            if t is None:
                from engine.ai.box_ai import Think

                t = self.busy = Think(self.players(), m)
            if t.step():
                return
            self.plan = t.result()
        except Exception:               # an AI bug must not stop the game
            self.plan = (None, None)
        self.busy = None

    def play(self, m):
        from engine.ai.box_ai import consider

        if self.plan is None and self.busy is None:
            self.think(m)
        while self.busy is not None:
            self.think(m)               # its slices, to the end
        own, sit_advice = self.plan or (None, None)
        self.plan = None
        ais = self.players()
        p = m.to_move
        box, cap, sit = m.hand_roles
        answer = None
        action = own
        try:
            if own is None:
                raise ValueError("no move")
            if p == cap:
                v = m.view(p)
                adv = m.advice[1] if m.advice is not None else None
                if adv is None and sit != 0 and sit_advice is not None:
                    adv = sit_advice
                    m.advise(sit, adv)
                action, follows, words = consider(ais[p], v, adv, own)
                if sit == 0 and adv is not None:
                    answer = (cap, follows, words)
            why = m.act(action)
        except Exception as e:          # a bug in the AI must not stop the game
            why = str(e)
        if why is not None:
            action = m.legal()[0]
            m.act(action)
            answer = None
        self.answer = answer
        return action

    def forget(self):
        self.plan = None
        self.busy = None
