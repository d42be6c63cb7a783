"""The game program: screens over the engine, driven one step at a time.

The device entry point (and the simulator, and the tests) build an App with
its ports and call step() in a loop:

    app = App(display, buttons, clock_ms, storage, sound=None, seed=None)
    while True:
        wait = app.step()      # ms until it next needs a step
        sleep(min(wait, poll interval))

display: show(buf) -> bytes sent, contrast(v).  buttons: firmware.buttons
.Buttons.  clock_ms(): milliseconds (may wrap at 2**30 like ticks_ms).
storage: load(name, decode=None) -> (value | None, message | None),
save(name, payload), remove(name) (firmware.storage.Storage).  sound:
None, or anything with play(name) for 'draw' 'discard' 'knock' 'gin' 'win'
'lose' 'error'.

step() polls the buttons once, hands their events to the current screen,
lets time pass (the AI moves after a readable delay, the AI speed setting),
redraws only when the screen says something changed, and shows the frame.

Saves: the match after every completed turn ("match", engine.dumps), the
settings and the statistics when they change ("settings", "stats",
firmware.settings). A damaged match save is set aside by the storage; the
app then starts a new match and says so.

Idle (DESIGN, OLED burn-in): dim after 60 s without a press, blank after
300 s; any press wakes the screen and does nothing else.
"""

from firmware.compat import const
from firmware import fb
from firmware.buttons import ticks_diff
from firmware.settings import Settings, Stats
import engine

DIM_MS = const(60000)
BLANK_MS = const(300000)
DIM_CONTRAST = const(0x01)
HELD_POLL_MS = const(10)
MAX_WAIT_MS = const(60000)
_SEED_MASK = const(0x3FFFFFFF)

AWAKE = const(0)
DIM = const(1)
BLANK = const(2)


def default_player(level, seed):
    from engine.ai import Player
    return Player(level, seed)


class App:
    def __init__(self, display, buttons, clock_ms, storage, sound=None,
                 seed=None, player_factory=None):
        self.display = display
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
        self.match = None
        self.ai = None
        self.hint_player = None      # the hint's evaluator, made when first asked
        self.saved_at = 0
        self.save_error = None       # the last save the flash refused, if any
        self.records = None          # firmware.records.Records: a record per hand end
        self.screen = None
        self._screens = {}
        self._stepping = False       # inside step(): saves wait for the frame
        self._save_due = False
        now = clock_ms()
        self._input_t = now
        self.idle = AWAKE

        payload, _ = storage.load("settings")
        self.settings = Settings.decode(payload)
        payload, _ = storage.load("stats")
        self.stats = Stats.decode(payload)
        try:
            display.contrast(self.settings.contrast())
        except Exception:
            pass

        match, msg = storage.load("match", engine.loads)
        if match is not None and match.phase != "match_over":
            self.match = match
            self.ai = self.player_factory(self.settings.level, match.seed & _SEED_MASK)
        if msg:
            # R: a damaged save was set aside; start over and tell the player.
            if self.match is None:
                self.new_match()
                # The storage says what it did with the damaged data (files
                # are kept aside as .bad; the nvm port has nowhere to keep it).
                self.go("message", title=b"SAVE DAMAGED",
                        text=msg if isinstance(msg, str) else
                        "Your saved match could not be read. A new match starts.",
                        then="play")
                return
            self.go("message", title=b"SAVE RESTORED",
                    text="The newest save was damaged; the one before it "
                         "was restored.", then="title")
            return
        self.go("title")

    # -- screens ---------------------------------------------------------
    def screen_named(self, name):
        s = self._screens.get(name)
        if s is None:
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
            elif name == "help":
                from firmware.screens.help import Help as cls
            elif name == "message":
                from firmware.screens.message import Message as cls
            elif name.startswith("box_"):
                # V6: the three-player box game's screens
                from firmware.screens.box_common import screen_class
                cls = screen_class(name)
            else:
                raise ValueError("no screen %r" % name)
            s = cls(self)
            self._screens[name] = s
        return s

    def go(self, name, **kw):
        s = self.screen_named(name)
        self.screen = s
        s.enter(**kw)

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
        self.match = engine.Match(self.rules(), seed)
        self.ai = self.player_factory(self.settings.level, seed)
        self.save_match()

    def match_in_progress(self):
        return self.match is not None and self.match.phase != "match_over"

    def _store(self, name, payload=None):
        """Save (or, with no payload, remove) through the storage port. A
        flash that refuses (full, worn) must not stop the game: the error is
        kept in save_error for the console and play goes on."""
        try:
            if payload is None:
                self.storage.remove(name)
            else:
                self.storage.save(name, payload)
            return True
        except OSError as e:
            self.save_error = "could not save %s: %s" % (name, e)
            return False

    def save_match(self):
        """Save the match. Inside step() the save waits until the frame is
        on the display (a turn's save costs tens of ms of flash erase and
        program: the player sees the move first); a power cut then still
        resumes the last completed turn."""
        if self._stepping:
            self._save_due = True
            return
        self._save_now()

    def _save_now(self):
        self._save_due = False
        m = self.match
        if m is None:
            return
        if m.phase == "match_over":
            ok = self._store("match")
        else:
            ok = self._store("match", engine.dumps(m))
        if ok:
            self.saved_at = self.clock()

    def hand_over(self, result):
        """Count a finished hand (and match) in the statistics."""
        self.stats.record_hand(result)
        if self.match.end is not None:
            self.stats.record_match(self.match.end)
        self.hand_counted()

    def hand_counted(self):
        """After a hand end is counted in the statistics: they, the match
        and its game record are kept (a refused save does not stop play)."""
        self._store("stats", self.stats.encode())
        self.save_match()
        if self.records is not None:
            self.records.keep_match(self.match)   # never raises

    def abandon_match(self):
        self.match = None
        self.ai = None
        self._store("match")

    def save_settings(self):
        """Store the settings; a new AI level applies to the match in play."""
        self._store("settings", self.settings.encode())
        m = self.match
        if m is not None and getattr(self.ai, "level", None) != self.settings.level:
            self.ai = self.player_factory(self.settings.level, m.seed & _SEED_MASK)
        self.apply_contrast()

    def apply_contrast(self):
        self._contrast(self.settings.contrast())

    def reset_stats(self):
        self.stats = Stats()
        self._store("stats", self.stats.encode())

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
        return wait

    def _step(self):
        now = self.clock()
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
                self.screen.event(ev, now)
                ev = b.event()
            if b.held():
                self._input_t = now
        wait = self.screen.tick(now)
        s = self.screen
        if s.dirty and self.idle != BLANK:
            s.dirty = False
            s.draw(self.canvas)
            self.frames += 1
            self.last_bytes = self.display.show(self.canvas.buf)
        else:
            self.last_bytes = 0
        if self.screen.dirty:
            wait = 0
        return self._idle_wait(now, wait)

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
