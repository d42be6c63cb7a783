"""The game program: screens over the engine, driven one step at a time.

The device entry point (and the simulator, the web page, the tests) makes
the App with every port at once (firmware/ports.py), starts it, and steps
it in a loop:

    app = App(Ports(display, buttons, clock, storage, sound=None, seed=None,
                    player_factory=None, review_factory=None, entropy=None,
                    link_port=None, records=None, board_parts=None))
    app.start()                # the saves read, the first screen opened
    while True:
        wait = app.step()      # ms until it next needs a step
        sleep(min(wait, poll interval))

Making the App reads, writes and draws nothing: start() reads the saves
and opens the first screen (the notes of the start, then the title), and
the first step() draws it. So the title a start opens is made once, with
every port it offers (LINK) already there. The ports (Ports):

display: show(buf) -> bytes sent, contrast(v).  buttons: firmware.buttons
.Buttons.  clock(): milliseconds (may wrap at 2**30 like ticks_ms).
storage: firmware.saves.storage.Storage (load, save, remove).  sound: None, or
anything with play(name) for 'draw' 'discard' 'knock' 'gin' 'win' 'lose'
'error'.  seed: the seeds of new matches (None: the clock's).
player_factory(level, seed): the AI players (default engine.ai.Player).
review_factory(match, index, player): a hand's review (tests give a
stand-in; by default engine.review.Review).  entropy(n): n random bytes
for the deal secrets (None: matches deal from their seeds).  link_port():
the link cable's port (any/read/write), or None: no LINK on the title.
records: firmware.saves.records.Records, a game record per hand end, or None.
board_parts: (kept settings, display, pins) of the HARDWARE page
(firmware.pico.pico), or None.

The App is the loop, the screen router and the idle handling; it holds
what every screen reads (settings; match and stats, those of the session)
and three parts: app.session, the kind of match in play with its match,
statistics, opponent, save and screens (against the CPU, the box game,
over the link: firmware/matchlife.py says what a session is), which the
App routes the screens through (go) and steps (step), and which a new
one replaces whole; app.saving (firmware/saves/saving.py: the saves, the game
records, the notes of a start, a save the flash refuses); and app.life
(firmware/matchlife.py: new and resumed matches and their AIs; seed,
player_factory and entropy go to it).

step() polls the buttons once, hands their events to the current screen,
lets time pass (the AI moves after a readable delay, the AI speed setting),
redraws only when the screen says something changed (all of it, or only
the part that changed: firmware.screens.Screen.redraw), and shows the
frame; a save asked for in the step waits until then (Saving.flush). Then,
while any is left, it works on the reviews of the player's hands for a
slice of time (firmware/reviews.py) and asks to be stepped again at once.

Banners (show_banner: FLASH FULL, SAVE FAILED) are drawn by the loop over
whatever screen shows, until their time is over or a press; they live
here because only the loop knows both.

Idle (DESIGN, OLED burn-in): dim after 60 s without a press, blank after
300 s; any press wakes the screen and does nothing else.
"""

from firmware.compat import const, collect, heap_free, hold_reserve, let_reserve_go, locked, unload
from firmware.display import fb
from firmware.buttons import ticks_diff
from firmware.saves.saving import Saving
from firmware.matchlife import Life
from firmware.reviews import Reviews

DIM_MS = const(60000)
BLANK_MS = const(300000)
DIM_CONTRAST = const(0x01)
HELD_POLL_MS = const(10)
MAX_WAIT_MS = const(60000)
BANNER_MS = const(6000)         # a banner stays this long (or until a press)

AWAKE = const(0)
DIM = const(1)
BLANK = const(2)


class App:
    def __init__(self, ports):
        self.display = ports.display
        self.buttons = ports.buttons
        self.clock = ports.clock
        self.storage = ports.storage
        self.sound = ports.sound
        self.canvas = fb.Canvas()
        self.last_bytes = 0          # bus bytes of the last frame shown
        self.frames = 0              # frames drawn (for tests and benches)
        self.full_frames = 0         # ... of them drawn whole (after a state change)
        self.session = None          # the kind of match in play, made at start()
        self.banner = None           # (title, lines, until) drawn over the screen, or None
        self._banner_new = False
        # the saves, the records, the notes (firmware/saves/saving.py)
        self.saving = Saving(self, ports.records)
        # the match and its AIs, new to over (firmware/matchlife.py)
        self.life = Life(self, ports.seed, ports.player_factory, ports.entropy)
        self.link_port = ports.link_port   # () -> the link's port, or None: no LINK
        self.board = None            # firmware.board.boardset.Hardware: the HARDWARE page's port
        self.board_parts = ports.board_parts   # what it is made of (firmware.pico.pico)
        # the reviews of the player's hands, made between frames
        self.reviews = Reviews(ports.review_factory, self.life.hard_player)
        self.screen = None
        self._screens = {}
        self._part = 0               # what the frame being painted redraws (_paint)
        self._paint_now = self._paint_frame    # bound once (locked() takes it)
        self._input_t = 0
        self.idle = AWAKE

    def start(self):
        """Read the saves (settings, statistics, the match in play: its
        session) and open the first screen: the notes the start leaves for
        the player, one after the other, then the title, or the table of a
        new match when a damaged save was set aside. The first step() draws
        it."""
        self._input_t = self.clock()
        fresh = self.saving.load()      # self.settings, self.session
        self.apply_contrast()
        self.session.resume()
        if fresh:
            # A damaged save was set aside: start over and tell the player.
            self.life.new_match()
            self.show_notes("play")
            return
        self.show_notes("title")

    @property
    def match(self):
        """The match in play (an engine Match, a BoxMatch), or None: the
        session's."""
        return self.session.match

    @property
    def stats(self):
        return self.session.stats

    def show_notes(self, then):
        """Show the notes of the start (Saving.notes) one after the other
        (each once), then `then`."""
        note = self.saving.next_note()
        if note:
            self.go("message", title=note[0], text=note[1], then=then)
        else:
            self.go(then)

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
        """With no match in play, a screen's import found no room (from the
        .mpy bundle its file and code need runs of the heap, at their
        scarcest at a match's end): let go the screens not showing (their
        modules stay) and the hint's player, and collect; the import is
        tried once more. In a match, or if that fails too, the device loop
        starts the game again from the save (firmware.pico.pico)."""
        for n in list(self._screens):
            if self._screens[n] is not self.screen:
                del self._screens[n]
        self.life.hint_player = None
        collect()

    def go(self, name, **kw):
        # the session's own screen for `name` (the box game's or a link
        # match's table); the title ends a link match (LinkSession.screen)
        s = self.screen_named(self.session.screen(name))
        self.screen = s
        s.enter(**kw)

    def let_go(self, name, modules):
        """On MicroPython, forget screen `name` and unload `modules`
        (firmware.compat.unload: their functions and classes are on the
        heap even when frozen); it is imported again when next shown (the
        one showing stays until the next is: App.go). On CPython nothing
        is let go (a test may hold the classes)."""
        if heap_free() is None:
            return
        self._screens.pop(name, None)
        for m in modules:
            unload(m)

    @property
    def screen_name(self):
        return self.screen.name if self.screen else None

    def match_in_progress(self):
        return self.match is not None and self.match.phase != "match_over"

    # -- banners: said over any screen (firmware/saves/savefail.py says a refused save)
    def show_banner(self, title, text, ms=BANNER_MS):
        """Say `text` under `title` over the current screen at once, for
        `ms` or until a press (the press still counts)."""
        try:
            from firmware.screens import layout as L

            lines = L.wrap(text, 31)[:6]        # 6 lines: the banner ends at y 53
        except MemoryError:
            lines = []
        self.banner = (title, lines, self.clock() + ms)
        self._banner_new = True
        if self.screen is not None:
            self.screen.dirty = True

    def _draw_banner(self, c):
        from firmware.screens import layout as L

        title, lines, _ = self.banner
        h = 11 + 7 * len(lines)
        c.fill_rect(0, 0, fb.WIDTH, h, 0)
        L.title_bar(c, title)
        for i in range(len(lines)):
            L.rich_text(c, lines[i], 2, 11 + 7 * i)
        c.hline(0, h - 1, fb.WIDTH, 1)

    def save_settings(self):
        """Store the settings; a new AI level applies to the match in play."""
        self.saving.store("settings", self.settings.encode())
        self.session.follow_level()
        self.apply_contrast()

    def apply_contrast(self):
        self._contrast(self.settings.contrast())

    def play_sound(self, name):
        if self.sound is not None and self.settings.sound:
            try:
                self.sound.play(name)
            except Exception:
                pass

    # -- the loop --------------------------------------------------------
    def step(self):
        """Poll input once, advance, redraw if needed; ms until the next step."""
        sv = self.saving
        sv.stepping = True
        try:
            wait = self._step()
        finally:
            sv.stepping = False
        sv.flush()
        if self._banner_new:
            self._banner_new = False
            wait = 0                   # drawn at the next step, at once
        return wait

    def _step(self):
        now = self.clock()
        self.saving.catch_up()
        sw = self.session.tick(now)     # a link match polls its link on every screen
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
        if sw is not None and (wait is None or sw < wait):
            wait = sw
        if self.banner is not None:
            left = ticks_diff(self.banner[2], now)
            if left <= 0:
                self._end_banner()
            elif wait is None or left < wait:
                wait = left
        s = self.screen
        if (s.dirty or s.part) and self.idle != BLANK:
            self._part = s.part
            s.part = 0
            full = s.dirty
            s.dirty = False
            if full:
                self.full_frames += 1
            self._paint(full)
            self.frames += 1
        else:
            self.last_bytes = 0
        if self.reviews.after_frame(self.match, self.clock, self.stats, self.saving):
            wait = 0
        if self.screen.dirty or self.screen.part:
            wait = 0
        return self._idle_wait(now, wait)

    def _paint(self, full):
        """Draw the frame (whole, or the screen's `_part`: e.g. a cursor
        move) and show it, with the heap locked: the screens draw and the
        driver sends without allocating, so every frame of their calls is
        on the C stack (firmware.compat.locked). A screen whose drawing
        allocates after all is drawn again unlocked (a drawing starts by
        clearing what it draws; a send cut short is sent whole again)."""
        try:
            locked(self._paint_now, full)
        except MemoryError:
            self._paint_frame(full)

    def _paint_frame(self, full):
        s = self.screen
        if full:
            s.draw(self.canvas)
        else:
            s.redraw(self.canvas, self._part)
        if self.banner is not None:
            self._draw_banner(self.canvas)
        self.last_bytes = self.display.show(self.canvas.buf)

    def _end_banner(self):
        self.banner = None
        self.screen.dirty = True

    def _idle_wait(self, now, wait):
        quiet = ticks_diff(now, self._input_t)
        if self.idle == AWAKE and quiet >= DIM_MS:
            self.idle = DIM
            self._contrast(DIM_CONTRAST)
        if self.idle == DIM and quiet >= BLANK_MS:
            self.idle = BLANK
            # the canvas itself goes dark (no 1 KB buffer kept for it): the
            # screen is drawn whole again at the wake (_wake: dirty), and
            # nothing is drawn while blank (step)
            self.canvas.fill(0)
            self.last_bytes += self.display.show(self.canvas.buf)
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
        self.apply_contrast()


# The screens every match passes through (firmware.pico.pico imports them at boot).
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
    elif name == "seal":             # a match's seal, at its end (firmware/screens/seal.py)
        from firmware.screens.seal import SealScreen as cls
    elif name == "cut":              # a new match's commitment and cut (firmware/cutwait.py)
        from firmware.screens.cut import CutScreen as cls
    elif name == "hardware":
        from firmware.screens.hardware import HardwareScreen as cls
    elif name == "recovery":         # the recovery start's first screen (firmware/main.py)
        from firmware.screens.recovery import RecoveryScreen as cls
    elif name == "link":             # a link match's screens (LinkSession.screen)
        from firmware.screens.link import LinkScreen as cls
    elif name == "link_play":
        from firmware.screens.link_play import LinkPlay as cls
    elif name == "box_play":         # V6: the three-player box game's (BoxSession.screen)
        from firmware.screens.box_play import BoxPlay as cls
    elif name == "box_showdown":
        from firmware.screens.box_showdown import BoxShowdown as cls
    elif name == "box_result":
        from firmware.screens.box_result import BoxResult as cls
    elif name == "box_match_end":
        from firmware.screens.box_match_end import BoxMatchEnd as cls
    else:
        raise ValueError("no screen %r" % name)
    return cls
