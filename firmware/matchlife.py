"""The matches and their AIs: app.life, and the session of a match against
the CPU, which the other kinds of match build on.

firmware.app.App makes one Life; the title and the start call it:

    life = Life(app, seed=None, player_factory=None, entropy=None)
    life.new_match()            # NEW MATCH: a new session against the CPU, saved
                                # (with an entropy source: waiting for the
                                # player's cut, firmware/cutwait.py)
    life.make_match(rules, seed, cls=None)   # a match without a cut, its deal drawn
    life.draw()                 # a deal secret and an AI seed from the entropy
    life.new_ai(match, stats)   # the AI of a two-player match
    life.hinter()               # the hint's player (made when first asked)
    life.hard_player()          # the player that reviews the hands
    ai_seed(match_seed), default_player(level, seed)

A session is one kind of match with all that is its own; the App holds
one, app.session, routes the screens through it and steps it, and a new
one takes its place whole (a new match, a link match and back: the only
writes of app.session); nothing outside a session writes its fields. The
first is made at start from the game save (firmware/saves/saveload.py), its AI
once the saves are read (resume()). Session (here) is a match against the
CPU; firmware/boxgame.py's BoxSession the three-player game (V6, made by
boxgame.new_match), firmware/link/linkmatch.py's LinkSession a match against
another board. Each has:

    s.kind              "cpu", "box" or "link"
    s.match             its match (app.match reads it), None once let go
    s.stats             its statistics (app.stats reads it)
    s.opponent          the other seat (below)
    s.other             the other player's name on the screens: b"CPU"
    s.save_name         its save: "game" (firmware/saves/gamesave.py), "link"
    s.payload(held, finished)   that save's bytes (firmware/saves/saving.py
                        writes them; `held` and `finished` are the game
                        save's, gamesave.encode)
    s.screen(name)      the screen it shows for `name` (App.go)
    s.tick(now)         on every step of the App's loop: ms until it needs
                        the next, or None
    s.resume()          at start, once the saves are read: its AI for the
                        match resumed
    s.start(match)      a new match: its AI, saved
    s.hand_over(res)    a hand's end: counted in the statistics, saved
    s.follow_level()    the settings' AI level changed
    s.forget_style()    SETTINGS: FORGET MY STYLE
    s.reset_stats()     STATISTICS: RESET
    s.end()             the match end seen: the match let go

The opponent is what the play screen asks for the other seat's moves
(firmware/screens/play_ai.py): the AI (a Session answers for its AI
itself); the box game's two AIs (boxgame.BoxAis); the other board's
player (linkmatch.OtherBoard):

    o.plans_ahead   True: it decides while the screen shows its pause (a
                    slice of think() a step) and moves when the pause
                    ends; False: its move comes when it comes, asked for
                    at every step
    o.plan          its move, decided, until played (None: not yet)
    o.busy          while slices of its deciding remain (None: none)
    o.think(m)      a slice of deciding its move in match m (the first
                    begins)
    o.play(m)       its move, played through m.act and returned; None
                    while it has none
    o.told(m)       the player on this board just made m's last move; or
                    None: nothing to tell
    o.forget()      the position changed: any plan goes

The screens call Life's and the session's methods rather than delegating
methods on App: the App's code (on the heap from the .mpy bundle) stays
that of the loop and the router, and a call costs one attribute lookup
more.

With an entropy source (the board's, the web page's, the simulator's
play), a new match deals committed hands from a 16-byte secret drawn from
it and the player's cut (firmware/cutwait.py: the match commitment is
shown before the cut is given), and its AI gets a seed drawn from it too
(engine/deal.py, engine/cut.py); without one
(tests, scripted runs) a match deals by deal numbers from its seed, and its
AI's seed comes from the match seed (ai_seed). The seeds of new matches are
the clock's, or a sequence from the seed given (tests).

The hard AI starts each match from the style it learned of this player in
earlier matches (kept with the statistics) and learns on from the match's
own showdowns (engine/ai/habit.py); only at a match's end does what it
learned go into the statistics, so a resumed match never counts a hand
twice.

engine.box and firmware/boxgame.py are imported only for a box match: a
two-player game never loads them.
"""

from firmware.compat import const, collect, heap_free, hold_reserve, let_reserve_go, unload
from firmware.saves import gamesave
from firmware.settings import Stats
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
        self.hint_player = None      # the hint's evaluator, made when first asked
        self._seed = seed

    def next_seed(self):
        if self._seed is None:
            s = self.app.clock() & _SEED_MASK
        else:
            s = self._seed & _SEED_MASK
            self._seed = (s * 69069 + 12345) & _SEED_MASK
        return s

    def new_match(self):
        """A new two-player match against the CPU at the settings' rules
        (V1-V5; a match in progress keeps the ones in its save), its AI,
        saved at once."""
        app = self.app
        seed = self.next_seed()
        if self.entropy is not None:
            # a deal the device cannot choose: the match waits for the
            # player's cut (firmware/cutwait.py, cold)
            from firmware.cutwait import begin

            begin(app, app.settings.match_rules(), seed, Session, Session)
            return
        # the last match and its AI go before the new ones are made: on
        # the .mpy bundle's heap two hard players at once may not fit
        s = Session(app, app.session.stats)
        app.session = s
        app.saving.held = None
        collect()
        s.start(self.make_match(app.settings.match_rules(), seed))

    def make_match(self, rules, seed, cls=None):
        """A new match (an engine.Match, or `cls`: a V6 BoxMatch) without a
        cut: with the entropy source, its deal secret and its AI's seed
        drawn from it (draw), a match of record format 4, whose secret
        the device drew alone (the App's new matches with an entropy
        source wait for the player's cut instead: firmware/cutwait.py);
        without one, a match dealing from its seed."""
        if cls is None:
            cls = engine.Match
        if self.entropy is None:
            return cls(rules, seed)
        secret, ai = self.draw()
        return cls(rules, seed, secret=secret, ai_seed=ai)

    def draw(self):
        """(deal secret, AI seed): 16 bytes and a number below 2**30 drawn
        from the entropy source, one after the other (neither tells the
        other)."""
        e = self.entropy
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
        return secret, ((b[0] & 63) << 24) | (b[1] << 16) | (b[2] << 8) | b[3]

    def deal(self):
        """The match a cut was just given for (app.session.pending, set by
        firmware/cutwait.py's deal; the title's tick calls this, the cut's
        code off the heap): made at the settings' AI level, saved, its
        first hand shown; engine/cut.py is let go until the hand's end
        (firmware/screens/result.py, let_cut_go)."""
        app = self.app
        s = app.session
        box, rules, seed, secret, ai, cut = s.pending
        s.pending = None
        collect()
        # the match's deal imports engine/cut.py: from the .mpy bundle that
        # opens its file, for which the reserve's run is let go
        let_reserve_go()
        try:
            import engine.cut  # noqa: F401
        finally:
            hold_reserve()
        if box:
            from engine.box import BoxMatch as cls
        else:
            cls = engine.Match
        s.start(cls(rules, seed, secret=secret, ai_seed=ai, cut=cut, level=app.settings.level))
        app.go("play", new_hand=True)
        if heap_free() is not None:
            unload("engine.cut")
            # (a start that found the cut given: firmware/saves/saveload.py)
            unload("firmware.cutwait")
            unload("firmware.saves.cutsave")
        if box:
            # the box table is larger: the title is let go until the match
            # is left (firmware/screens/title.py, _table)
            app.let_go("title", ("firmware.screens.title",))

    def new_ai(self, m, stats):
        """The AI for match `m`, at the settings' level, with the match's
        own AI seed (saved with it: a resumed match plays on the same); the
        hard level starts from the style it learned of this player (in
        `stats`)."""
        s = getattr(m, "ai_seed", None)
        ai = self.player_factory(self.app.settings.level, ai_seed(m.seed) if s is None else s)
        habit = getattr(ai, "habit", None)
        if habit is not None:
            try:
                habit.load(stats.style or None)
            except Exception:
                habit.neutral()
        return ai

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


class Session:
    """A match against the CPU (the module's docstring says what every
    session has). Made with the game save's statistics and its match (at
    start: resume()), or with none (a new match: start()).

    Its other seat is its AI, `player` (an engine.ai Player, deciding in
    slices: begin, step, result; or a test's stand-in with choose() only),
    and the session answers the play screen for it itself: it is its own
    opponent (a class of its own would keep about 250 bytes more of the
    .mpy bundle's heap, which a match's first save needs). A bug in the AI
    must not stop the game: its move is then the first legal one."""

    kind = "cpu"
    other = b"CPU"
    save_name = gamesave.NAME
    # the opponent's (the module's docstring)
    plans_ahead = True
    told = None                  # the player's moves are nothing to the AI
    player = None
    plan = None
    busy = None
    pending = None               # a match to deal from a cut just given (Life.deal)

    def __init__(self, app, stats, match=None):
        self.app = app
        self.stats = stats
        self.match = match
        self.opponent = self

    def resume(self):
        """At start (and at a new level): the AI of the match in play."""
        if self.match is not None:
            self.player = self.app.life.new_ai(self.match, self.stats)
            self.forget()

    def start(self, match):
        """Play `match` (new) against its AI; saved at once."""
        self.match = match
        self.resume()
        self.app.saving.save_match()

    def payload(self, held, finished):
        return gamesave.encode(self.stats, self.match, held, finished)

    def screen(self, name):
        return name

    def tick(self, now):
        return None

    def hand_over(self, res):
        """Count a finished two-player hand (and match) in the statistics,
        then save (Saving.hand_counted)."""
        st = self.stats
        st.record_hand(res)
        end = self.match.end
        if end is not None:
            st.record_match(end)
            # What the hard AI learned of the player's style becomes the
            # start of the next match's (kept with the statistics).
            ai = self.player
            habit = getattr(ai, "habit", None)
            if habit is not None and getattr(ai, "level", None) == "hard":
                try:
                    habit.learn(self.match.view(1), 1)     # its last showdown too
                    st.style = habit.record()
                except Exception:
                    pass
            # the match's AI has made its last move: its heap (a hard
            # player, about 3 KB) is free for the screens that follow (on
            # the .mpy bundle the title's import at the match's end ran
            # out of memory); the next match makes its own
            self.player = None
        self.app.saving.hand_counted()

    def follow_level(self):
        """The settings were changed: a new AI level applies to the match
        in play."""
        m = self.match
        if m is not None and m.phase != "match_over" \
                and getattr(self.player, "level", None) != self.app.settings.level:
            self.resume()

    def forget_style(self):
        """Settings: FORGET MY STYLE. The hard AI forgets how the player
        knocks, for this match and the next ones."""
        self.stats.reset("style")
        habit = getattr(self.player, "habit", None)
        if habit is not None:
            habit.neutral()
        self.app.saving.save_match()

    def reset_stats(self):
        """STATISTICS: RESET. The statistics count from 0, saved at once."""
        self.stats = Stats()
        self.app.saving.save_match()

    def end(self):
        """The match end was seen: the match is let go (nothing of it is
        left to resume)."""
        self.match = None

    # -- the opponent: the AI ----------------------------------------------
    def think(self, m):
        """A slice of deciding the AI's move for the position in `m` (kept
        in plan until played; busy while slices remain): the first begins
        (a player without slices chooses at once; a begin() that leaves
        the move to its steps returns None). A bug keeps the first slice's
        choice, or the first legal move when it had none."""
        ai = self.busy
        try:
            if ai is None:
                ai = self.player
                begin = getattr(ai, "begin", None)
                if begin is None:
                    self.plan = ai.choose(m.view(1))
                    return
                self.plan = begin(m.view(1))
                self.busy = ai
            elif not ai.step():
                self.plan = ai.result()
                self.busy = None
        except Exception:
            if self.plan is None:
                self.plan = m.legal()[0]
            self.busy = None

    def play(self, m):
        if self.plan is None and self.busy is None:
            self.think(m)
        while self.busy is not None:
            self.think(m)
        a = self.plan
        self.plan = None
        if m.act(a) is not None:
            # The AI must never stall the game; fall back to a legal move.
            a = m.legal()[0]
            m.act(a)
        return a

    def forget(self):
        self.plan = None
        self.busy = None
