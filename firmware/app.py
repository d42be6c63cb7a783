"""The game program: screens over the engine, driven one step at a time.

The device entry point (and the simulator, and the tests) build an App with
its ports and call step() in a loop:

    app = App(display, buttons, clock_ms, storage, sound=None, seed=None,
              entropy=None)
    while True:
        wait = app.step()      # ms until it next needs a step
        sleep(min(wait, poll interval))

display: show(buf) -> bytes sent, contrast(v).  buttons: firmware.buttons
.Buttons.  clock_ms(): milliseconds (may wrap at 2**30 like ticks_ms).
storage: load(name, decode=None) -> (value | None, message | None),
save(name, payload), remove(name) (firmware.storage.Storage).  sound:
None, or anything with play(name) for 'draw' 'discard' 'knock' 'gin' 'win'
'lose' 'error'. entropy: n -> n random bytes (firmware/entropy.py: the
board's on the device, the web page and in the simulator's play): a new
match then deals committed hands from a 16-byte secret drawn from it, and
its AI gets a seed drawn from it too (engine/deal.py); without it (tests,
scripted runs) a match deals by deal numbers from its seed, as before.

step() polls the buttons once, hands their events to the current screen,
lets time pass (the AI moves after a readable delay, the AI speed setting),
redraws only when the screen says something changed (all of it, or only
the part that changed: firmware.screens.Screen.redraw), and shows the
frame; then, while any is left, works on the reviews of the player's hands
for a slice of time (firmware/reviews.py) and asks to be stepped again at
once. review_factory(match, index, player) makes a hand's review (tests
give a stand-in; by default engine.review.Review).

Saves: after every completed turn the game save ("game",
firmware/gamesave.py: the statistics and the match in one commit, so a
turn played again after a power cut is never counted twice), then at a
hand's end the match's game record (firmware/records.py); the settings
when they change ("settings", firmware/settings.py). At start every damage
or reset the storage recovered from is shown once (notes, one message
each): a damaged save was set aside and an older one resumed, or a new
match starts; a save that could not be read now (no memory, a read error)
is kept untouched. Older firmware's "stats" and "match" saves are read
once and written as the game save.

A save the flash refuses (full: OSError 28, or any write error) is said at
once in a banner over the screen (banner: FLASH FULL or SAVE FAILED, with
what to do; firmware/savefail.py, imported only then); on a full flash
the older matches' game records are deleted (Records.free), then the
backup copies of the saves (Storage.free_backups), the save tried again
after each. A save still refused is tried again at the next turn (the
game save is made after every turn; a refused settings save goes with
it), and play goes on: what was saved before stays as it was, so a
restart resumes it, never an older state. The first save that goes
through again says so.

Idle (DESIGN, OLED burn-in): dim after 60 s without a press, blank after
300 s; any press wakes the screen and does nothing else.
"""

from firmware.compat import const, collect, heap_free, hold_reserve, let_reserve_go, unload
from firmware import fb
from firmware.buttons import ticks_diff
from firmware import gamesave
from firmware.settings import Settings, Stats, playable
from firmware.storage import KEPT, NEWER, RESUMED
from firmware.reviews import Reviews
import engine

GAME = "game"     # the storage name of the game save (statistics and match)

DIM_MS = const(60000)
BLANK_MS = const(300000)
DIM_CONTRAST = const(0x01)
HELD_POLL_MS = const(10)
MAX_WAIT_MS = const(60000)
BANNER_MS = const(6000)         # a banner stays this long (or until a press)
_SEED_MASK = const(0x3FFFFFFF)

AWAKE = const(0)
DIM = const(1)
BLANK = const(2)


def default_player(level, seed):
    from engine.ai import Player
    return Player(level, seed)


def ai_seed(match_seed):
    """The AI's seed for a match that deals by deal numbers (tests and
    scripted runs, and matches saved before committed deals): a value from
    the match seed. A match with a deal secret has its own AI seed, drawn
    from the board's entropy apart from the secret (App.new_match)."""
    return engine.fingerprint(match_seed & _SEED_MASK)


def _outcome(storage, name):
    o = getattr(storage, "outcome", None)
    return o.get(name) if o else None


class App:
    def __init__(self, display, buttons, clock_ms, storage, sound=None,
                 seed=None, player_factory=None, review_factory=None, entropy=None):
        self.display = display
        self.entropy = entropy
        self.buttons = buttons
        self.clock = clock_ms
        self.storage = storage
        self.sound = sound
        self.player_factory = player_factory or default_player
        self.canvas = fb.Canvas()
        self._blank = bytearray(fb.BUF_SIZE)
        self._seed = seed
        self.last_bytes = 0          # bus bytes of the last frame shown
        self.frames = 0              # frames drawn (for tests and benches)
        self.full_frames = 0         # ... of them drawn whole (after a state change)
        self.match = None
        self.ai = None
        self.hint_player = None      # the hint's evaluator, made when first asked
        self.saved_at = 0
        self.save_error = None       # the last save the flash refused, if any
        self.save_failing = None     # while saves are refused: why (else None)
        self.banner = None           # (title, lines) drawn over the screen, or None
        self._banner_until = 0
        self._banner_at = None       # when a refused save was last said
        self._freed_at = None        # when room made on a full flash was last said
        self._banner_new = False
        self._unsaved = []           # names whose last save was refused
        self.records = None          # firmware.records.Records: a record per hand end
        self.board = None            # firmware.boardset.Hardware: the HARDWARE page's port
        self.board_parts = None      # (kept settings, display, pins) it is made of (firmware.pico)
        # the reviews of the player's hands, made between frames
        self.reviews = Reviews(review_factory, self.hard_player)
        self.screen = None
        self._screens = {}
        self._stepping = False       # inside step(): saves wait for the frame
        self._save_due = False
        now = clock_ms()
        self._input_t = now
        self.idle = AWAKE

        self.notes = []              # (title, text) still to show, once each
        self.held = None             # match bytes kept unread (no memory at boot)
        self._record_due = None      # a match whose record must be written again
        self._finished = None        # a finished match in the save until its record is written
        self._record_after_save = None  # a record to write once the save is done
        self._load_saves()
        try:
            display.contrast(self.settings.contrast())
        except Exception:
            pass
        m = self.match
        if m is not None:
            self.ai = self._new_ai(m)
            if m.phase == "hand_over":
                # The commit that ended this hand may have come just before
                # a cut, before its game record was written.
                self._record_due = m
        elif self._finished is not None:
            self._record_due = self._finished
        if self._fresh_after_damage:
            # A damaged save was set aside: start over and tell the player.
            self.new_match()
            self.show_notes("play")
            return
        self.show_notes("title")

    # -- saves -------------------------------------------------------------
    def _load_saves(self):
        """Settings, then the game save (statistics and match); every damage
        or reset is noted for the player (self.notes), and what was
        recovered is written back at once, so the next start is quiet."""
        st = self.storage
        payload, msg = st.load("settings")
        self.settings = Settings.decode(payload)
        self._rewrite = False
        self._fresh_after_damage = False
        self._note(msg, _outcome(st, "settings"), b"SETTINGS",
                   " The settings are those of the save resumed.",
                   " The settings are the defaults again.")
        game, msg = st.load(GAME, gamesave.decode)
        outcome = _outcome(st, GAME)
        if game is None and msg is None:
            game = self._legacy()
        else:
            self._note_game(msg, outcome)
        if game is None:
            game = gamesave.Game(Stats())
        self.stats = game.stats
        self.match = game.match
        self.held = game.held
        if getattr(game, "finished", None) is not None:
            # the commit that ended a match, and then a cut before its
            # record: the record first, then a commit without the match
            self._finished = game.finished
        if self.held is not None:
            self.notes.append((b"MATCH NOT LOADED",
                               "Not enough memory to load the saved match. It is kept; "
                               "press reset to try again (a new match replaces it)."))
        if self._rewrite:
            self._store("settings", self.settings.encode())
            self.save_match()

    def _note(self, msg, outcome, what, resumed, fresh):
        """Note a load's message for the player: `what` (b"SAVE", ...) and
        the sentence saying what follows from it."""
        if not msg:
            return False
        if outcome == KEPT:
            self.notes.append((what + b" NOT READ", msg))
            return False
        self._rewrite = True
        if outcome == RESUMED:
            self.notes.append((what + b" RESTORED", msg + resumed))
            return False
        if outcome == NEWER:
            self.notes.append((b"NEWER " + what, msg + fresh))
            return True
        self.notes.append((what + (b" DAMAGED" if what == b"SAVE" else b" RESET"), msg + fresh))
        return True

    def _note_game(self, msg, outcome):
        if self._note(msg, outcome, b"SAVE", " The match and statistics are those of the "
                      "save resumed.", " A new match starts; the statistics count from 0."):
            self._fresh_after_damage = True

    def _legacy(self):
        """The statistics and match of older firmware ("stats" and "match"
        saves), as a Game; written as the game save, then the old ones go
        (a cut between: the game save wins at the next start)."""
        st = self.storage
        sp, m1 = st.load("stats")
        self._note(m1, _outcome(st, "stats"), b"STATS", " The statistics are those of "
                   "the save resumed.", " The statistics count from 0.")
        match, m2 = st.load("match", engine.loads)
        self._note_game(m2, _outcome(st, "match"))
        if sp is None and match is None:
            return None
        try:
            stats = Stats.decode(sp)
        except ValueError as e:
            stats = Stats()
            self.notes.append((b"STATS RESET", "The statistics could not be read (%s); "
                               "they count from 0." % e))
        if match is not None and (match.winner is not None or playable(match.rules)):
            match = None
        self._fresh_after_damage = self._fresh_after_damage and match is None
        self.stats = stats
        self.match = match
        self.held = None
        if self._store(GAME, gamesave.encode(stats, match)):
            self._store("stats")
            self._store("match")
        return gamesave.Game(stats, match)

    def show_notes(self, then):
        """Show the notes one after the other (each once), then `then`."""
        if self.notes:
            title, text = self.notes.pop(0)
            self.go("message", title=title, text=text, then=then)
        else:
            self.go(then)

    def next_note(self):
        """The next (title, text) to show, or None (the message screen)."""
        return self.notes.pop(0) if self.notes else None

    # -- screens ---------------------------------------------------------
    def screen_named(self, name):
        s = self._screens.get(name)
        if s is None:
            let_reserve_go()     # importing from the .mpy bundle opens a file (firmware.compat)
            try:
                try:
                    cls = class_of_screen(name)
                except MemoryError:
                    if self.match_in_progress():
                        raise
                    self._make_room()
                    cls = class_of_screen(name)
            finally:
                hold_reserve()
            s = cls(self)
            self._screens[name] = s
        return s

    def _make_room(self):
        """With no match in play (none, or a finished one), a screen's
        import found no room: from the .mpy bundle its file and code need
        runs of the heap, and a match's end leaves the heap at its most cut
        up (the title failed to import there when it was let go during a
        two-player match; it still is during the three-player game). Let go
        what is made again when next needed, the screens not showing (their
        modules stay) and the hint's player, and collect; the import is
        then tried once more. In a match, or if that fails too, the device
        loop starts the game again from the save (firmware.pico)."""
        for n in list(self._screens):
            if self._screens[n] is not self.screen:
                del self._screens[n]
        self.hint_player = None
        collect()

    def go(self, name, **kw):
        s = self.screen_named(name)
        self.screen = s
        s.enter(**kw)

    def let_go(self, name, modules):
        """On MicroPython, forget screen `name` (not the one showing) and
        unload `modules`: their functions and classes are made on the heap
        even when the code is frozen in flash (the match end's screen and
        words: ~1.3 KB), and a screen shown once a match need not stay for
        the next one; it is imported again when next shown. On CPython
        nothing is let go (a test may hold the classes)."""
        if heap_free() is None or self.screen is self._screens.get(name):
            return
        self._screens.pop(name, None)
        for m in modules:
            unload(m)

    @property
    def screen_name(self):
        return self.screen.name if self.screen else None

    # -- the match -------------------------------------------------------
    def next_seed(self):
        if self._seed is None:
            s = self.clock() & _SEED_MASK
        else:
            s = self._seed & _SEED_MASK
            self._seed = (s * 69069 + 12345) & _SEED_MASK
        return s

    def rules(self):
        """The rules of a new match: the settings' preset or custom fields
        (V1-V5); a match in progress keeps the ones in its save."""
        return self.settings.match_rules()

    def new_match(self):
        seed = self.next_seed()
        # the last match's AI goes before the new one is made: on the .mpy
        # bundle's heap two hard players at once may not fit
        self.ai = None
        self.held = None
        collect()
        self.match = self.make_match(self.rules(), seed)
        self.ai = self._new_ai(self.match)
        self.save_match()

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
        return cls(rules, seed, secret=secret, ai_seed=ai)

    def _new_ai(self, m):
        """The AI for match `m`, at the settings' level, with the match's
        own AI seed (saved with it: a resumed match plays on the same); the hard
        level starts from the style it learned of this player in earlier
        matches (the statistics keep it) and learns on from the match's own
        showdowns (engine/ai/habit.py)."""
        s = getattr(m, "ai_seed", None)
        ai = self.player_factory(self.settings.level, ai_seed(m.seed) if s is None else s)
        habit = getattr(ai, "habit", None)
        if habit is not None:
            try:
                habit.load(self.stats.style or None)
            except Exception:
                habit.neutral()
        return ai

    def _keep_style(self):
        """A match is over: what the hard AI learned of the player's style
        becomes the start of the next match's (kept with the statistics).
        Only at a match's end, so a resumed match never counts a hand twice."""
        ai = self.ai
        habit = getattr(ai, "habit", None)
        if habit is None or getattr(ai, "level", None) != "hard":
            return
        try:
            habit.learn(self.match.view(1), 1)     # its last showdown too
            self.stats.style = habit.record()
        except Exception:
            pass

    def forget_style(self):
        """Settings: FORGET MY STYLE. The hard AI forgets how the player
        knocks, for this match and the next ones."""
        self.stats.reset("style")
        habit = getattr(self.ai, "habit", None)
        if habit is not None:
            habit.neutral()
        self.save_match()

    def match_in_progress(self):
        return self.match is not None and self.match.phase != "match_over"

    def _store(self, name, payload=None):
        """Save (or, with no payload, remove) through the storage port. A
        flash that refuses (full, worn, out of memory) must not stop the
        game: firmware/savefail.py makes room on a full flash and tries
        again, says a save still refused (a banner), keeps the error in
        save_error for the console; the save is tried again at the next
        turn while play goes on. (Imported only when a save fails: its
        code stays off the heap otherwise.)"""
        try:
            if payload is None:
                self.storage.remove(name)
            else:
                self.storage.save(name, payload)
        except (OSError, MemoryError) as e:
            from firmware import savefail

            return savefail.refused(self, name, payload, e)
        if self.save_failing is not None:
            from firmware import savefail

            savefail.stored(self, name, 0)
        return True

    def show_banner(self, title, text, ms=BANNER_MS):
        """Say `text` under `title` over the current screen at once, for
        `ms` or until a press (the press still counts)."""
        try:
            from firmware.screens import layout as L

            self.banner = (title, L.wrap(text, 31)[:4])
        except MemoryError:
            self.banner = (title, [])
        self._banner_until = self.clock() + ms
        self._banner_new = True
        if self.screen is not None:
            self.screen.dirty = True

    def _draw_banner(self, c):
        from firmware.screens import layout as L

        title, lines = self.banner
        h = 11 + 7 * len(lines)
        c.fill_rect(0, 0, fb.WIDTH, h, 0)
        L.title_bar(c, title)
        for i in range(len(lines)):
            L.rich_text(c, lines[i], 2, 11 + 7 * i)
        c.hline(0, h - 1, fb.WIDTH, 1)

    def save_match(self):
        """Commit the game: the statistics and the match in play (none once
        it is over) in one write (firmware/gamesave.py). Inside step() the
        write waits until the frame is on the display (a turn's save costs
        tens of ms of flash erase and program: the player sees the move
        first); a power cut then still resumes the last completed turn."""
        if self._stepping:
            self._save_due = True
            return
        self._save_now()

    def _save_now(self):
        self._save_due = False
        if "settings" in self._unsaved:        # refused before: tried again
            self._store("settings", self.settings.encode())
        try:
            payload = gamesave.encode(self.stats, self.match, self.held, self._finished)
        except MemoryError as e:
            self.save_error = "could not save %s: %s" % (GAME, e)
            return
        if self._store(GAME, payload):
            self.saved_at = self.clock()

    def hand_over(self, result):
        """Count a finished hand (and match) in the statistics."""
        self.stats.record_hand(result)
        if self.match.end is not None:
            self.stats.record_match(self.match.end)
            self._keep_style()
            # the match's AI has made its last move: its heap (a hard
            # player, about 3 KB) is free for the screens that follow (on
            # the .mpy bundle the title's import at the match's end ran
            # out of memory); the next match makes its own
            self.ai = None
        self.hand_counted()

    def hand_counted(self):
        """After a hand end is counted in the statistics: one commit of the
        statistics with the match, and the match's game record (a refused
        save does not stop play). The record is written from the match, so
        it is written after the commit it reflects. At the match's end that
        commit keeps the finished match (never resumed) and the one after
        the record drops it, so a record never runs ahead of the match a
        start resumes (gamesave.Game.finished)."""
        m = self.match
        if m is not None and m.winner is not None and self.records is not None:
            # The commit that ends the match keeps it (never resumed) until
            # its record is written; the commit after the record drops it.
            self._finished = m
        self.save_match()
        if self._save_due:
            self._record_after_save = m   # step() writes it after the save
        else:
            self._keep_record(m)

    def _keep_record(self, m):
        if self.records is not None and m is not None:
            self.records.keep_match(m)   # never raises
            if m is self._finished:
                self._finished = None
                self.save_match()        # the finished match leaves the save

    def hard_player(self):
        """The hard player of the hint (made when first needed), which also
        reviews the hands (firmware/reviews.py); a hint player that cannot
        review (a test's stand-in) gets a hard engine.ai Player beside it."""
        from firmware.reviews import is_reviewer, default_reviewer
        if self.hint_player is None:
            self.hint_player = self.player_factory("hard", 1)
        if is_reviewer(self.hint_player):
            return self.hint_player
        return default_reviewer(1)

    def abandon_match(self):
        self.match = None
        self.ai = None
        self.held = None
        self.save_match()

    def save_settings(self):
        """Store the settings; a new AI level applies to the match in play."""
        self._store("settings", self.settings.encode())
        m = self.match
        if self.match_in_progress() and getattr(self.ai, "level", None) != self.settings.level:
            self.ai = self._new_ai(m)
        self.apply_contrast()

    def apply_contrast(self):
        self._contrast(self.settings.contrast())

    def reset_stats(self):
        self.stats = Stats()
        self.save_match()

    def play_sound(self, name):
        if self.sound is not None and self.settings.sound:
            try:
                self.sound.play(name)
            except Exception:
                pass

    # -- the loop --------------------------------------------------------
    def step(self):
        """Poll input once, advance, redraw if needed; ms until the next step."""
        self._stepping = True
        try:
            wait = self._step()
        finally:
            self._stepping = False
        if self._save_due:
            self._save_now()
        if self._record_after_save is not None:
            self._keep_record(self._record_after_save)
            self._record_after_save = None
        if self._banner_new:
            self._banner_new = False
            wait = 0                   # drawn at the next step, at once
        return wait

    def _step(self):
        now = self.clock()
        if self._record_due is not None and self.records is not None:
            self._keep_record(self._record_due)
            self._record_due = None
        b = self.buttons
        b.poll(now)
        if self.idle != AWAKE:
            if b.held() or b.poll(now):
                # Any press wakes the screen and does nothing else.
                b.suppress()
                b.clear()
                self._wake(now)
        else:
            ev = b.event()
            while ev:
                self._input_t = now
                if self.banner is not None:
                    self._end_banner()          # a press ends it (and still counts)
                self.screen.event(ev, now)
                ev = b.event()
            if b.held():
                self._input_t = now
        wait = self.screen.tick(now)
        if self.banner is not None:
            left = ticks_diff(self._banner_until, now)
            if left <= 0:
                self._end_banner()
            elif wait is None or left < wait:
                wait = left
        s = self.screen
        if (s.dirty or s.part) and self.idle != BLANK:
            part = s.part
            s.part = 0
            if s.dirty:
                s.dirty = False
                s.draw(self.canvas)
                self.full_frames += 1
            else:
                s.redraw(self.canvas, part)   # e.g. a cursor move
            if self.banner is not None:
                self._draw_banner(self.canvas)
            self.frames += 1
            self.last_bytes = self.display.show(self.canvas.buf)
        else:
            self.last_bytes = 0
        if self._review_work():
            wait = 0
        if self.screen.dirty or self.screen.part:
            wait = 0
        return self._idle_wait(now, wait)

    def _end_banner(self):
        self.banner = None
        self.screen.dirty = True

    def _review_work(self):
        """A slice of the hand reviews (firmware/reviews.py) after the
        frame; True while work is left. The finished match's review goes
        into the statistics once it is all made."""
        rv = self.reviews
        rv.follow(self.match)
        if not rv.pending():
            return False
        more = rv.work(self.clock)
        if rv.count(self.stats):
            self.save_match()          # the statistics, in the game save
        return more

    def _idle_wait(self, now, wait):
        quiet = ticks_diff(now, self._input_t)
        if self.idle == AWAKE and quiet >= DIM_MS:
            self.idle = DIM
            self._contrast(DIM_CONTRAST)
        if self.idle == DIM and quiet >= BLANK_MS:
            self.idle = BLANK
            self.last_bytes += self.display.show(self._blank)
        if self.buttons.held():
            w = HELD_POLL_MS
        elif self.idle == AWAKE:
            w = DIM_MS - quiet
        elif self.idle == DIM:
            w = BLANK_MS - quiet
        else:
            w = MAX_WAIT_MS
        if wait is not None and wait < w:
            w = wait
        if w < 0:
            w = 0
        return w if w < MAX_WAIT_MS else MAX_WAIT_MS

    def _contrast(self, v):
        try:
            self.display.contrast(v)
        except Exception:
            pass

    def _wake(self, now):
        if self.idle == BLANK:
            self.screen.dirty = True
        self.idle = AWAKE
        self._input_t = now
        self._contrast(self.settings.contrast())


# The screens every match passes through (firmware.pico imports them at boot).
MATCH_SCREENS = ("play", "showdown", "result", "match_end")


def class_of_screen(name):
    """The class of screen `name`, its module imported."""
    if name == "title":
        from firmware.screens.title import Title as cls
    elif name == "play":
        from firmware.screens.play import Play as cls
    elif name == "showdown":
        from firmware.screens.showdown import Showdown as cls
    elif name == "result":
        from firmware.screens.result import Result as cls
    elif name == "match_end":
        from firmware.screens.match_end import MatchEnd as cls
    elif name == "settings":
        from firmware.screens.settings import SettingsScreen as cls
    elif name == "stats":
        from firmware.screens.stats import StatsScreen as cls
    elif name == "review":
        from firmware.screens.review import HandReview as cls
    elif name == "match_review":
        from firmware.screens.review import MatchReview as cls
    elif name == "help":
        from firmware.screens.help import Help as cls
    elif name == "message":
        from firmware.screens.message import Message as cls
    elif name == "hardware":
        from firmware.screens.hardware import HardwareScreen as cls
    elif name.startswith("box_"):
        # V6: the three-player box game's screens
        from firmware.screens.box_common import screen_class
        cls = screen_class(name)
    else:
        raise ValueError("no screen %r" % name)
    return cls
