"""The match and its AIs, from a new match to its end: app.life.

firmware.app.App makes one Life; the screens call it directly:

    life = Life(app, seed=None, player_factory=None, entropy=None)
    life.new_match()           # NEW MATCH: made, its AI made, saved
    life.new_box_match()       # 3-PLAYER GAME (V6): made, saved
    life.make_match(rules, seed, cls=None)   # a match, its deal drawn
    life.resume()              # at start: the AI of the match resumed
    life.ai                    # the two-player match's AI (None once over)
    life.box_ais()             # [None, AI of P2, AI of P3] of a box match
    life.hand_over(result)     # a two-player hand's end: counted, saved
    life.follow_level()        # the settings' AI level changed
    life.forget_style()        # SETTINGS: FORGET MY STYLE
    life.hinter()              # the hint's player (made when first asked)
    life.hard_player()         # the player that reviews the hands
    ai_seed(match_seed), default_player(level, seed)

The match itself is app.match (every screen reads it), the statistics
app.stats, and what is saved goes through app.saving (firmware/saving.py).
The screens call Life's methods rather than delegating methods on App: the
App's code (on the heap from the .mpy bundle) stays that of the loop and
the router, and a call costs one attribute lookup more.

With an entropy source (the board's, the web page's, the simulator's
play), a new match deals committed hands from a 16-byte secret drawn from
it, and its AI gets a seed drawn from it too (engine/deal.py); without one
(tests, scripted runs) a match deals by deal numbers from its seed, and its
AI's seed comes from the match seed (ai_seed). The seeds of new matches are
the clock's, or a sequence from the seed given (tests).

The hard AI starts each match from the style it learned of this player in
earlier matches (kept with the statistics) and learns on from the match's
own showdowns (engine/ai/habit.py); only at a match's end does what it
learned go into the statistics, so a resumed match never counts a hand
twice.

The three-player game's AIs (V6) are engine.ai.Player objects at the
settings' level, one per AI player, made when first needed (after a resume
too) and made again when the match or the level changes; seeded from the
match's AI seed when it has one. engine.box is imported only for a box
match: a two-player game never loads it.
"""

from firmware.compat import const, collect
import engine

_SEED_MASK = const(0x3FFFFFFF)


def default_player(level, seed):
    from engine.ai import Player
    return Player(level, seed)


def ai_seed(match_seed):
    """The AI's seed for a match that deals by deal numbers (tests and
    scripted runs, and matches saved before committed deals): a value from
    the match seed. A match with a deal secret has its own AI seed, drawn
    from the board's entropy apart from the secret (Life.make_match)."""
    return engine.fingerprint(match_seed & _SEED_MASK)


class Life:
    def __init__(self, app, seed=None, player_factory=None, entropy=None):
        self.app = app
        self.player_factory = player_factory or default_player
        self.entropy = entropy
        self.ai = None               # the two-player match's AI
        self.hint_player = None      # the hint's evaluator, made when first asked
        self._seed = seed
        self._box = None             # (match, level, AIs) of the three-player game

    def next_seed(self):
        if self._seed is None:
            s = self.app.clock() & _SEED_MASK
        else:
            s = self._seed & _SEED_MASK
            self._seed = (s * 69069 + 12345) & _SEED_MASK
        return s

    def new_match(self):
        """A new two-player match at the settings' rules (V1-V5; a match in
        progress keeps the ones in its save), its AI, saved at once."""
        app = self.app
        seed = self.next_seed()
        # the last match's AI goes before the new one is made: on the .mpy
        # bundle's heap two hard players at once may not fit
        self.ai = None
        app.saving.held = None
        collect()
        app.match = self.make_match(app.settings.match_rules(), seed)
        self.ai = self.new_ai(app.match)
        app.saving.save_match()

    def new_box_match(self):
        """A new three-player match (V6: engine.box.BoxMatch, the roles
        drawn by the engine) at the box rules with the settings' target,
        saved at once."""
        from engine.box import BOX_RULES, BoxMatch

        app = self.app
        t = app.settings.target
        rules = BOX_RULES if t == BOX_RULES.target else BOX_RULES.copy(target=t)
        seed = self.next_seed()
        app.match = self.make_match(rules, seed, BoxMatch)
        self.ai = None
        self._box = None
        app.saving.save_match()

    def box_ais(self):
        """[None, AI of P2, AI of P3] for the box match in play, at the
        settings' level (made again when the match or the level changes)."""
        m = self.app.match
        level = self.app.settings.level
        cur = self._box
        if cur is not None and cur[0] is m and cur[1] == level:
            return cur[2]
        a = getattr(m, "ai_seed", None)
        if a is None:           # a match dealt by deal numbers
            s1 = ai_seed((m.seed + 1) & _SEED_MASK)
            s2 = ai_seed((m.seed + 2) & _SEED_MASK)
        else:                   # drawn from the board's entropy with the match
            s1 = a
            s2 = (a * 69069 + 12345) & _SEED_MASK
        ais = [None, self.player_factory(level, s1), self.player_factory(level, s2)]
        self._box = (m, level, ais)
        return ais

    def make_match(self, rules, seed, cls=None):
        """A new match (an engine.Match, or `cls`: a V6 BoxMatch): with the
        entropy source, its deal secret and its AI's seed drawn from it, one
        after the other (neither tells the other); without one, a match
        dealing from its seed."""
        if cls is None:
            cls = engine.Match
        e = self.entropy
        if e is None:
            return cls(rules, seed)
        try:
            secret = bytes(e(16))
            b = e(4)
            if len(secret) != 16 or len(b) != 4:
                raise ValueError("short read")
        except Exception:
            # a source that failed now: the random module (seeded from the
            # hardware at start), never a match dealt from its seed
            from firmware.entropy import fallback

            e = fallback()
            secret = e(16)
            b = e(4)
        ai = ((b[0] & 63) << 24) | (b[1] << 16) | (b[2] << 8) | b[3]
        # NO CUT YET: the App has no screen that shows the match commitment
        # (engine.cut.secret_commitment) and takes the player's cut, so a
        # match is made without one: record format 4, whose secret the
        # device draws alone and whose records chain no transcript and end
        # with no seal. With a cut: cls(..., cut=the player's, level=...).
        return cls(rules, seed, secret=secret, ai_seed=ai)

    def new_ai(self, m):
        """The AI for match `m`, at the settings' level, with the match's
        own AI seed (saved with it: a resumed match plays on the same); the
        hard level starts from the style it learned of this player."""
        app = self.app
        s = getattr(m, "ai_seed", None)
        ai = self.player_factory(app.settings.level, ai_seed(m.seed) if s is None else s)
        habit = getattr(ai, "habit", None)
        if habit is not None:
            try:
                habit.load(app.stats.style or None)
            except Exception:
                habit.neutral()
        return ai

    def resume(self):
        """At start: the AI of the match resumed from the save."""
        if self.app.match is not None:
            self.ai = self.new_ai(self.app.match)

    def follow_level(self):
        """The settings were changed: a new AI level applies to the match
        in play."""
        app = self.app
        if app.match_in_progress() and getattr(self.ai, "level", None) != app.settings.level:
            self.ai = self.new_ai(app.match)

    def hand_over(self, result):
        """Count a finished two-player hand (and match) in the statistics,
        then save (Saving.hand_counted)."""
        app = self.app
        app.stats.record_hand(result)
        if app.match.end is not None:
            app.stats.record_match(app.match.end)
            self._keep_style()
            # the match's AI has made its last move: its heap (a hard
            # player, about 3 KB) is free for the screens that follow (on
            # the .mpy bundle the title's import at the match's end ran
            # out of memory); the next match makes its own
            self.ai = None
        app.saving.hand_counted()

    def _keep_style(self):
        """A match is over: what the hard AI learned of the player's style
        becomes the start of the next match's (kept with the statistics)."""
        ai = self.ai
        habit = getattr(ai, "habit", None)
        if habit is None or getattr(ai, "level", None) != "hard":
            return
        try:
            habit.learn(self.app.match.view(1), 1)     # its last showdown too
            self.app.stats.style = habit.record()
        except Exception:
            pass

    def forget_style(self):
        """Settings: FORGET MY STYLE. The hard AI forgets how the player
        knocks, for this match and the next ones."""
        self.app.stats.reset("style")
        habit = getattr(self.ai, "habit", None)
        if habit is not None:
            habit.neutral()
        self.app.saving.save_match()

    def hinter(self):
        """The hint's player, made when first asked (App lets it go when a
        screen's import needs the room)."""
        if self.hint_player is None:
            self.hint_player = self.player_factory("hard", 1)
        return self.hint_player

    def hard_player(self):
        """The hard player of the hint, which also reviews the hands
        (firmware/reviews.py); a hint player that cannot review (a test's
        stand-in) gets a hard engine.ai Player beside it."""
        from firmware.reviews import is_reviewer, default_reviewer

        hp = self.hinter()
        if is_reviewer(hp):
            return hp
        return default_reviewer(1)
