"""RECOVERY START: the first screen of the recovery start (BOOTSEL held
after power-on, in the safe boot or while the game ran: firmware/main.py),
which runs on the default settings with /board.json unread.

    RECOVERY START
    BOARD.JSON IS NOT READ: THE
    DEFAULT SETTINGS ARE IN USE.
    A OR BOOTSEL: SET IT ASIDE
    (RENAMED, NOT DELETED).
    B: KEEP IT, HARDWARE PAGE.

A (or BOOTSEL, which firmware.pico.pico reads as A in this start, so no button
needs to be wired right) renames the file (set_aside(): to
/board.json.aside, or .aside2 ... .aside9 when that name is taken, never
deleted, never renamed over another) and says to what; A again goes on to
the title. B keeps the file and opens the HARDWARE page (whose SAVE
writes what it shows into the file), from which B goes on to the title.
Only this start imports this module.
"""

from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L

NOTE = b"DEFAULTS: BOARD.JSON IGNORED"   # the HARDWARE page's status line after B
ASIDE = ".aside"      # /board.json -> /board.json.aside
MAX_ASIDE = 9         # ... .aside2 .. .aside9, then no more
ASK = [b"BOARD.JSON IS NOT READ: THE", b"DEFAULT SETTINGS ARE IN USE.",
       b"A OR BOOTSEL: SET IT ASIDE", b"(RENAMED, NOT DELETED).", b"B: KEEP IT, HARDWARE PAGE."]


class RecoveryScreen(Screen):
    name = "recovery"

    def __init__(self, app):
        super().__init__(app)
        self.prev = None
        self.lines = []
        self.done = False

    def enter(self, prev=None, **kw):
        """`prev`: the screen the start showed (the title), shown again
        at the end as it was."""
        self.dirty = True
        self.prev = prev if prev is not self else None
        self.done = False
        self.lines = ASK

    def _path(self):
        """The settings file's path: the HARDWARE page's port's, or the
        one the start read (app.board_parts); None where the port has no
        file (the simulator)."""
        app = self.app
        b = getattr(app, "board", None)
        if b is not None:
            return getattr(b, "path", None)
        parts = getattr(app, "board_parts", None)
        return parts[0][3] if parts is not None else None

    def event(self, ev, now):
        if ev != btn.A and ev != btn.B:
            return
        if self.done:
            if ev == btn.A:
                self._leave()
            else:
                self._hardware(None)
            return
        if ev == btn.B:
            self._hardware(NOTE)
            return
        path = self._path()
        new, why = (None, "not on this port") if path is None else set_aside(path)
        if new is not None:
            text = ("SET ASIDE AS %s. THE NEXT STARTS USE THE DEFAULTS; SAVE ON THE "
                    "HARDWARE PAGE WRITES A NEW FILE." % ("/" + new.split("/")[-1]).upper())
        else:
            text = "NOT SET ASIDE: %s." % why.upper()
        self.lines = L.wrap(text, 31)[:6]
        self.done = True
        self.dirty = True

    def _hardware(self, note):
        self.app.go("hardware", back=None, prev=self.prev, note=note)
        self.prev = None

    def _leave(self):
        app = self.app
        prev = self.prev
        self.prev = None
        if prev is not None:
            app.screen = prev            # as the start showed it
            prev.dirty = True
        else:
            app.show_notes("title")

    def draw(self, c):
        c.fill(0)
        L.title_bar(c, b"RECOVERY START")
        lines = self.lines
        for i in range(len(lines)):
            L.rich_text(c, lines[i], 1, 12 + 7 * i)
        if self.done:
            x = L.hint(c, b"A", b"CONTINUE", 0, 57)
            L.hint(c, b"B", b"HARDWARE", x, 57)
        else:
            x = L.hint(c, b"A", b"SET ASIDE", 0, 57)
            L.hint(c, b"B", b"KEEP", x, 57)


def set_aside(path, fs=None):
    """Rename the settings file at `path` to path + ASIDE (or ASIDE2 ...
    ASIDE9, the first name not taken): (new path, None), or (None, why in
    a few words: no file, no free name, the flash refused it)."""
    if fs is None:
        import os as fs
    try:
        fs.stat(path)
    except OSError:
        return None, "no " + path
    for k in range(1, MAX_ASIDE + 1):
        new = path + ASIDE + ("" if k == 1 else str(k))
        try:
            fs.stat(new)
            continue                 # taken: never renamed over
        except OSError:
            pass
        try:
            fs.rename(path, new)
        except OSError as e:
            return None, "the flash refused it (%s)" % (e,)
        return new, None
    return None, "%d files set aside already" % MAX_ASIDE
