"""HARDWARE: the board set up on the device, for someone without a computer.

Reached from SETTINGS (the HARDWARE row) or by holding A at power-on
(firmware/main.py). Rows:

    KEY TEST where the page opens: LEFT, RIGHT and A change nothing, so
             every button can be tried on the keys below
    PANEL    SSD1306 or SH1106 (the 1.3" modules): applied at once
    FLIP     the picture turned 180 degrees (panel upside down): at once
    BUTTONS  TO GND (pull-ups) or TO 3V3 (pull-downs): at once, on trial:
             with no press in TRIAL_MS it goes back (buttons wired the
             other way read nothing at all)
    SAVE     A writes the settings file (/board.json, firmware/boardcfg.py)

Under the rows the six buttons, drawn as keys, light up while held: a
button test. UP/DOWN choose, LEFT/RIGHT or A change, B goes back. With no
press for IDLE_MS the page leaves by itself, so a board whose buttons do
not work still gets to the game.

The choices live in app.board (firmware.boardset.Hardware, made here from
app.board_parts, which firmware.pico sets);
where there is none (the simulator, the CircuitPython port) the rows are
shown and changed, nothing is applied, and SAVE says it is not done on
this port.
"""

from firmware import buttons as btn
from firmware.buttons import ticks_diff
from firmware.compat import const
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.menu import Menu

IDLE_MS = const(45000)   # no press this long: back to the game
TRIAL_MS = const(8000)   # a new polarity with no press this long is undone
LIST_Y = 10
ROWS = 4
KEYS_Y = 47
HINT_Y = 57

_ROWS = ("test", "panel", "flip", "buttons", "save")
_LABELS = [b"KEY TEST", b"PANEL", b"FLIP", b"BUTTONS", b"SAVE"]
# The six keys drawn left to right: (label, bit).
_KEYS = ((b"<", btn.LEFT), (b">", btn.RIGHT), (L.KEY_UP, btn.UP), (L.KEY_DOWN, btn.DOWN),
         (b"A", btn.A), (b"B", btn.B))
KEY_W = const(16)
KEY_GAP = const(5)


class _Choices:
    """The page's choices without a board port (the simulator, the
    CircuitPython port): in memory only."""

    def __init__(self):
        self._sh = False
        self._flip = False
        self._low = True

    def sh1106(self):
        return self._sh

    def flip(self):
        return self._flip

    def active_low(self):
        return self._low

    def set_display(self, sh1106, flip):
        self._sh = sh1106
        self._flip = flip

    def set_active_low(self, v):
        self._low = v

    def save(self):
        return "not on this port"


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

    def board(self):
        app = self.app
        b = getattr(app, "board", None)
        if b is None:
            parts = getattr(app, "board_parts", None)
            if parts is not None:
                from firmware.boardset import Hardware
                cfg, display, pins = parts
                b = Hardware(cfg, display=display, pins=pins)
            else:
                b = _Choices()
            app.board = b
        return b

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
        self.last = self.app.clock()
        self._values()

    def _values(self):
        b = self.board()
        v = self.menu.values
        v[0] = b""
        v[1] = b"SH1106" if b.sh1106() else b"SSD1306"
        v[2] = b"ON" if b.flip() else b"OFF"
        v[3] = b"TO GND" if b.active_low() else b"TO 3V3"
        v[4] = b""

    def _leave(self):
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
            b.set_display(not b.sh1106(), b.flip())
            self.status = b"PANEL SET UP AGAIN"
            self.app.apply_contrast()    # a new set-up starts at full contrast
        elif row == "flip":
            b.set_display(b.sh1106(), not b.flip())
            self.status = b"PICTURE TURNED"
        elif row == "buttons":
            old = b.active_low()
            b.set_active_low(not old)
            self.trial = (now, old)
            self.status = b"NO PRESS IN 8 S: UNDONE"
        elif ev == btn.A:
            why = b.save()
            if why is None:
                self.status = b"SAVED IN /BOARD.JSON"
            else:
                self.status = ("NOT SAVED: " + why).upper().encode()[:31]
        self._values()
        self.dirty = True

    def tick(self, now):
        """The trial polarity undone, the page left when idle, and the keys
        drawn again when the held buttons changed (the device loop wakes
        at every press and release: firmware.pico.wait)."""
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
        self.menu.draw(c, 0, LIST_Y, 128, ROWS)
        held = self.app.buttons.held() & btn.ALL
        self.shown = held
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
        if self.status:
            c.text(self.status, 1, HINT_Y + 1, 1)
        else:
            row = _ROWS[self.menu.sel]
            if row == "test":
                x = c.text(b"PRESS EACH KEY", 0, HINT_Y) + 3
            elif row == "save":
                x = L.hint(c, b"A", b"SAVE", 0, HINT_Y)
            else:
                x = L.hint(c, b"<>", b"CHANGE", 0, HINT_Y)
            L.hint(c, b"B", b"BACK", x, HINT_Y)
