"""HARDWARE: the board set up on the device, for someone without a computer.

Reached from SETTINGS (the HARDWARE row) or by holding A at power-on
(firmware/main.py). Rows:

    KEY TEST where the page opens: LEFT, RIGHT and A change nothing, so
             every button can be tried on the keys below
    PANEL    the display controller, SSD1306 or SH1106 (the 1.3"
             modules; firmware.board.board.DISPLAY_TYPES): applied at once
    FLIP     the picture turned 180 degrees (panel upside down): at once
    BUTTONS  TO GND (pull-ups) or TO 3V3 (pull-downs): at once, on trial:
             with no press in TRIAL_MS it goes back (buttons wired the
             other way read nothing at all)
    PINS     the buttons' GPIOs (A's and B's shown): A learns them, "press
             the button for LEFT", RIGHT, ... B, watching every free GPIO
             of the header, so buttons wired to any free pins work without
             a computer; used at once once all six are learned, undone
             with no press in LEARN_MS
    BUZZER   OFF or the GPIO of a piezo: LEFT/RIGHT choose, A sounds a
             test beep on it; the game uses it from the next start
    LINK     the link cable's TX and RX (docs/LINK.md): LEFT/RIGHT choose
             among the UART pin pairs no other part uses; used from the
             next link match
    SAVE     A writes the settings file (/board.json, firmware/board/boardcfg.py):
             every row's value

Under the rows the six buttons, drawn as keys, light up while held: a
button test. UP/DOWN choose, LEFT/RIGHT or A change, B goes back. With no
press for IDLE_MS the page leaves by itself, so a board whose buttons do
not work still gets to the game.

The choices live in app.board (firmware.board.boardset.Hardware, made here from
app.board_parts, which firmware.pico.pico sets);
where there is none (the simulator, the CircuitPython port) the rows are
shown and changed, nothing is applied, and SAVE says it is not done on
this port.
"""

from firmware import buttons as btn
from firmware.display import fb
from firmware.buttons import ticks_diff
from firmware.compat import const
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.menu import Menu

IDLE_MS = const(45000)   # no press this long: back to the game
TRIAL_MS = const(8000)   # a new polarity with no press this long is undone
LEARN_MS = const(10000)  # learning the pins: no new press this long ends it, pins as before
LOOK_MS = const(10)      # learning: the free pins read this often
BEEP_MS = const(150)     # the test beep
QUIET_MS = const(300)    # after learning, the presses made for it are not acted on
LIST_Y = 10
ROWS = 4
KEYS_Y = 47
HINT_Y = 57

_ROWS = ("test", "panel", "flip", "buttons", "pins", "buzzer", "link", "save")
_LABELS = [b"KEY TEST", b"PANEL", b"FLIP", b"BUTTONS", b"PINS", b"BUZZER", b"LINK", b"SAVE"]
_NAMES = (b"LEFT", b"RIGHT", b"UP", b"DOWN", b"A", b"B")   # in firmware.buttons' bit order
# The six keys drawn left to right: (label, bit).
_KEYS = ((b"<", btn.LEFT), (b">", btn.RIGHT), (L.KEY_UP, btn.UP), (L.KEY_DOWN, btn.DOWN),
         (b"A", btn.A), (b"B", btn.B))
KEY_W = const(16)
KEY_GAP = const(5)


class _Choices:
    """The page's choices without a board port (the simulator, the
    CircuitPython port): in memory only."""

    def __init__(self):
        from firmware.board import board

        self._ctl = board.DISPLAY_TYPE
        self._flip = False
        self._low = True
        self._pins = board.BUTTON_PINS
        self._buzzer = board.BUZZER_PIN
        self._link = (board.LINK_TX, board.LINK_RX)

    def controller(self):
        return self._ctl

    def flip(self):
        return self._flip

    def active_low(self):
        return self._low

    def set_display(self, controller, flip):
        self._ctl = controller
        self._flip = flip

    def set_active_low(self, v):
        self._low = v

    def button_pins(self):
        return self._pins

    def buzzer_pin(self):
        return self._buzzer

    def next_buzzer(self, step):
        from firmware.board.chip import header_pins

        choices = [None] + [n for n in header_pins() if n not in (4, 5) + tuple(self._pins)]
        i = choices.index(self._buzzer) if self._buzzer in choices else 0
        self._buzzer = choices[(i + step) % len(choices)]

    def link_pins(self):
        return self._link

    def next_link(self, step):
        from firmware.board.boardset import next_pair
        from firmware.board.chip import header_pins

        busy = (4, 5, self._buzzer) + tuple(self._pins)
        self._link = next_pair(self._link, [n for n in header_pins() if n not in busy], step)

    def beep(self, on):
        return "not on this port" if on else None

    def watch(self):
        return None

    def save(self):
        return "not on this port"


def board_of(app):
    """app.board, made the first time from app.board_parts (a
    firmware.board.boardset.Hardware), or the in-memory _Choices where the port
    gave none."""
    b = getattr(app, "board", None)
    if b is None:
        parts = getattr(app, "board_parts", None)
        if parts is not None:
            from firmware.board.boardset import Hardware
            cfg, display, pins = parts
            b = Hardware(cfg, display=display, pins=pins)
        else:
            b = _Choices()
        app.board = b
    return b


class HardwareScreen(Screen):
    name = "hardware"

    def __init__(self, app):
        super().__init__(app)
        self.menu = Menu(_LABELS, [b""] * len(_ROWS), 0)
        self.back = "settings"
        self.prev = None         # the screen to go back to as it was (back=None)
        self.status = b""
        self.shown = 0           # the held buttons last drawn
        self.seen = 0            # every button seen held since entering
        self.last = 0            # when the last press came
        self.trial = None        # (when, old polarity) while BUTTONS is on trial
        # while learning the pins: [watched, learned, held, since, seen,
        # start (until the first look)]
        self.learn = None
        self.beep_at = None      # when the test beep began
        self.quiet_until = None  # after learning: presses ignored until then

    def board(self):
        return board_of(self.app)

    def enter(self, back="settings", prev=None, note=None, **kw):
        """`back`: the screen B goes to; None (at power-on): back to `prev`,
        the screen that was showing, as it was (the title, or a message the
        boot had for the player). `note`: the status line's first words
        (the recovery start's)."""
        self.dirty = True
        self.back = back
        self.prev = prev if prev is not self else None
        self.menu.sel = 0
        self.menu.top = 0
        self.status = note or b""
        self.seen = 0
        self.trial = None
        self.learn = None
        self.beep_at = None
        self.quiet_until = None
        self.last = self.app.clock()
        self._values()

    def _values(self):
        b = self.board()
        v = self.menu.values
        v[0] = b""
        v[1] = b.controller().upper().encode()
        v[2] = b"ON" if b.flip() else b"OFF"
        v[3] = b"TO GND" if b.active_low() else b"TO 3V3"
        pins = b.button_pins()
        v[4] = b"A GP%d B GP%d" % (pins[4], pins[5])
        bz = b.buzzer_pin()
        v[5] = b"OFF" if bz is None else b"GP%d" % bz
        tx, rx = b.link_pins()
        v[6] = b"GP%d GP%d" % (tx, rx)   # TX, RX (the status line names them)
        v[7] = b""

    def _leave(self):
        self.board().beep(False)
        app = self.app
        prev = self.prev
        self.prev = None
        if self.back is not None:
            app.go(self.back, at="hardware")
        elif prev is not None:
            app.screen = prev            # as it was: a message keeps its text
            prev.dirty = True
        else:
            app.show_notes("title")

    def event(self, ev, now):
        self.last = now
        if self.learn is not None:
            return                       # learning: the presses are the pins' (tick)
        if self.quiet_until is not None:
            if ticks_diff(now, self.quiet_until) < 0:
                return                   # the last learned button's own release
            self.quiet_until = None
        self.trial = None                # a press came: the polarity works
        if ev == btn.UP or ev == btn.DOWN:
            self.menu.move(ev)
            self.dirty = True
            return
        if ev == btn.B or ev == btn.LONG_B:
            self._leave()
            return
        if ev != btn.LEFT and ev != btn.RIGHT and ev != btn.A:
            return
        b = self.board()
        row = _ROWS[self.menu.sel]
        if row == "test":
            return
        if row == "panel":
            from firmware.board.board import DISPLAY_TYPES as types

            i = types.index(b.controller()) if b.controller() in types else -1
            b.set_display(types[(i + (-1 if ev == btn.LEFT else 1)) % len(types)], b.flip())
            self.status = b"PANEL SET UP AGAIN"
            self.app.apply_contrast()    # a new set-up starts at full contrast
        elif row == "flip":
            b.set_display(b.controller(), not b.flip())
            self.status = b"PICTURE TURNED"
        elif row == "buttons":
            old = b.active_low()
            b.set_active_low(not old)
            self.trial = (now, old)
            self.status = b"NO PRESS IN 8 S: UNDONE"
        elif row == "pins":
            watched = b.watch()
            if watched is None:
                self.status = b"NOT ON THIS PORT"
            else:
                self.learn = [watched, [], None, now, None, now]
                self.status = b""
        elif row == "buzzer":
            if ev == btn.A:
                why = b.beep(True)
                if why is None:
                    self.beep_at = now
                    self.status = b"BEEP? SAVE KEEPS IT"
                else:
                    self.status = ("NO BEEP: " + why).upper().encode()[:31]
            else:
                b.next_buzzer(1 if ev == btn.RIGHT else -1)
                self.beep_at = None
                self.status = b"A: TEST BEEP"
        elif row == "link":
            if ev == btn.A:
                return
            b.next_link(1 if ev == btn.RIGHT else -1)
            self.status = b"TX GP%d RX GP%d: NEXT LINK" % b.link_pins()
        elif ev == btn.A:
            why = b.save()
            if why is None:
                self.status = b"SAVED IN /BOARD.JSON"
            else:
                self.status = ("NOT SAVED: " + why).upper().encode()[:31]
        self._values()
        self.dirty = True

    def _learning(self, now):
        """One look at the free pins while learning: a pin newly read
        pressed twice in a row (LOOK_MS apart) is the next button's, once
        the one before was released; all six learned and released: used
        at once. At the first look the pins that read pressed already are
        left out. The wait until the next look."""
        b = self.board()
        st = self.learn
        watched, got, held, since, seen, start = st
        level = b.pressed_level()
        if start is not None:
            # the first look, the pulls settled: a pin that reads pressed
            # before any press (wired to GND or 3V3 for good) is not watched
            watched = st[0] = [w for w in watched if w[1].value() != level]
            st[5] = None
            return LOOK_MS
        down = None
        for n, pin in watched:
            if pin.value() == level and n not in got:
                down = n
                break
        if held is not None:
            for n, pin in watched:
                if n == held and pin.value() != level:
                    held = st[2] = None      # released
                    break
        if held is None and down is not None:
            if seen == down:                 # read pressed twice: learned
                got.append(down)
                st[2] = down
                st[3] = now
                st[4] = None
                self.dirty = True
            else:
                st[4] = down
        elif down is None:
            st[4] = None
        if len(got) == 6 and st[2] is None:
            self.learn = None
            b.set_button_pins(got)
            self.quiet_until = now + QUIET_MS
            self.status = b"PINS LEARNED: SAVE KEEPS THEM"
            self._values()
            self.dirty = True
            return None
        if ticks_diff(now, st[3]) >= LEARN_MS:
            self.learn = None
            self.status = b"NO PRESS: PINS AS BEFORE"
            self.dirty = True
            return None
        return LOOK_MS

    def tick(self, now):
        """The trial polarity undone, the test beep ended, the pins
        learned, the page left when idle, and the keys drawn again when
        the held buttons changed (the device loop wakes at every press and
        release: firmware.pico.pico.wait)."""
        if self.beep_at is not None:
            left = BEEP_MS - ticks_diff(now, self.beep_at)
            if left > 0:
                return left
            self.beep_at = None
            self.board().beep(False)
        if self.learn is not None:
            self.last = now
            w = self._learning(now)
            if w is not None:
                return w
        if self.trial is not None and ticks_diff(now, self.trial[0]) >= TRIAL_MS:
            self.board().set_active_low(self.trial[1])
            self.trial = None
            self.status = b"NO PRESS: BUTTONS AS BEFORE"
            self._values()
            self.dirty = True
        idle = ticks_diff(now, self.last)
        if idle >= IDLE_MS:
            self._leave()
            return None
        held = self.app.buttons.held() & btn.ALL
        self.seen |= held
        if held != self.shown:
            self.dirty = True
        wait = IDLE_MS - idle
        if self.trial is not None:
            t = TRIAL_MS - ticks_diff(now, self.trial[0])
            if t < wait:
                wait = t
        return wait

    def draw(self, c):
        c.fill(0)
        L.title_bar(c, b"HARDWARE")
        held = self.app.buttons.held() & btn.ALL
        self.shown = held
        st = self.learn
        if st is not None:
            got = st[1]
            i = len(got) if len(got) < 6 else 5
            c.text(b"PRESS THE BUTTON FOR", 1, LIST_Y + 1, 1, fb.BIG)
            c.text(_NAMES[i], 1, LIST_Y + 12, 1, fb.BIG)
            x = 1
            for n in got:
                x = c.text(b"GP%d" % n, x, LIST_Y + 24) + 4
            held = 0
            for k in range(len(got)):
                held |= _KEYS[k][1]
        else:
            self.menu.draw(c, 0, LIST_Y, 128, ROWS)
        x = 1
        for label, bit in _KEYS:
            on = held & bit
            if on:
                c.fill_rect(x, KEYS_Y, KEY_W, 9, 1)
            else:
                c.rect(x, KEYS_Y, KEY_W, 9, 1)
            if label == L.KEY_UP or label == L.KEY_DOWN:
                c.glyph(L.ARROWS[0 if label == L.KEY_UP else 1], x + 5, KEYS_Y + 2,
                        0 if on else 1)
            else:
                c.text(label, x + 6, KEYS_Y + 2, 0 if on else 1)
            if self.seen & bit and not on:
                c.pixel(x + KEY_W - 2, KEYS_Y + 1, 1)   # tested: a dot
            x += KEY_W + KEY_GAP
        if st is not None:
            c.text(b"NO PRESS IN 10 S: UNDONE", 1, HINT_Y + 1, 1)
        elif self.status:
            c.text(self.status, 1, HINT_Y + 1, 1)
        else:
            row = _ROWS[self.menu.sel]
            if row == "test":
                x = c.text(b"PRESS EACH KEY", 0, HINT_Y) + 3
            elif row == "save":
                x = L.hint(c, b"A", b"SAVE", 0, HINT_Y)
            elif row == "pins":
                x = L.hint(c, b"A", b"LEARN", 0, HINT_Y)
            elif row == "link":
                tx, rx = self.board().link_pins()
                x = c.text(b"TX GP%d RX GP%d" % (tx, rx), 0, HINT_Y) + 4
            elif row == "buzzer":
                x = L.hint(c, b"<>", b"PIN", 0, HINT_Y)
                x = L.hint(c, b"A", b"BEEP", x, HINT_Y)
            else:
                x = L.hint(c, b"<>", b"CHANGE", 0, HINT_Y)
            L.hint(c, b"B", b"BACK", x, HINT_Y)
