"""The title screen: continue / new match / settings / statistics / rules /
3-player game.

LINK (on a board with a link port: the cable's UART, the simulator's
socket) plays the player of another board (firmware/link/linkmatch.py,
imported only then); going to the title ends the link match's part of
the heap (LinkSession.screen: the link match stays in its save and LINK
takes it up again).

CONTINUE shows only when a match is in progress (resumed from the save at
boot, or left through the play menu); it goes back to the two-player or
the three-player (V6 box game) table. All six entries fit on the screen. Starting a new match over one in
progress asks first.
"""

from firmware.display import fb, glyphs
from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.menu import Menu
from engine.version import VERSION

_ITEMS = {
    "continue": b"CONTINUE",
    "new": b"NEW MATCH",
    "box": b"3-PLAYER GAME",
    "settings": b"SETTINGS",
    "stats": b"STATISTICS",
    "rules": b"RULES",
    "link": b"LINK",
}

_LET_GO = ("firmware.screens.title",)
_VERSION = ("V" + VERSION).encode()

ROW = 8        # menu rows: all six entries show, CONTINUE included
ROWS = 6


class Title(Screen):
    name = "title"

    def __init__(self, app):
        super().__init__(app)
        self.keys = []
        self.menu = Menu([])
        self.confirm = False
        self.pending = "new"         # what the NEW MATCH? question starts

    def enter(self, **kw):
        self.dirty = True
        self.confirm = False
        keys = []
        if self.app.match_in_progress():
            keys.append("continue")
        keys.extend(("new", "settings", "stats", "rules", "box"))
        if self.app.link_port is not None:
            keys.append("link")
        # Back from settings, statistics or rules: the cursor stays there.
        last = self.keys[self.menu.sel] if self.keys else None
        sel = keys.index(last) if last in keys and last in ("settings", "stats", "rules") else 0
        self.keys = keys
        self.menu = Menu([_ITEMS[k] for k in keys], None, sel, ROW)

    def tick(self, now):
        # a cut was just given (firmware/cutwait.py's deal): the match is
        # dealt here, in the same step, the cut screen's code let go
        if getattr(self.app.session, "pending", None) is not None:
            self.app.life.deal()
        return None

    def event(self, ev, now):
        if getattr(self.app.session, "pending", None) is not None:
            return                   # the deal comes at this step's tick
        if self.confirm:
            if ev == btn.A:
                self.confirm = False
                self._new(self.pending)
            elif ev == btn.B or ev == btn.LONG_B:
                self.confirm = False
                self.dirty = True
            return
        if self.menu.move(ev):
            self.dirty = True
            return
        if ev != btn.A:
            return
        k = self.keys[self.menu.sel]
        app = self.app
        if k == "continue":
            self._table()
        elif k == "new" or k == "box":
            if app.match_in_progress():
                self.pending = k
                self.confirm = True
                self.dirty = True
            else:
                self._new(k)
        elif k == "settings":
            app.go("settings")
        elif k == "stats":
            app.go("stats")
        elif k == "link":
            self._link()
        else:
            app.go("help", back="title")

    def _new(self, k="new"):
        if k == "box":
            # V6: the human and two AIs; the engine draws the roles
            from firmware.boxgame import new_match

            new_match(self.app)
        else:
            self.app.life.new_match()
        self._table(new_hand=True)

    def _link(self):
        """LINK: firmware/link/linkstart.py (cold: imported by LINK only)."""
        from firmware.link.linkstart import start

        start(self.app)

    def _table(self, **kw):
        """To the table (the session's: App.go). In a two-player match this
        screen and its module stay (2.5 KB of heap from the .mpy bundle):
        let go, the title was imported again at the match's end, the heap
        at its most cut up, and from the bundle found no run for its file
        there (the board restarted from the save). The three-player game's
        table is larger and not loaded at boot: there the title is let go
        until the match is left (App.let_go) and made again, cursor at the
        top."""
        app = self.app
        app.go("play", **kw)
        if app.session.kind == "box":
            app.let_go("title", _LET_GO)

    def draw(self, c):
        c.fill(0)
        # The name between the four suits.
        x = L.text_c(c, b"GIN RUMMY", 0, 1, fb.BIG)
        glyphs.draw_suit(c, 0, 22, 0)
        glyphs.draw_suit(c, 1, 29, 0)
        glyphs.draw_suit(c, 2, x + 3, 0)
        glyphs.draw_suit(c, 3, x + 10, 0)
        self.menu.draw(c, 0, 9, 128, ROWS)
        x = L.key(c, L.KEY_UP, 0, 58)
        x = L.hint(c, L.KEY_DOWN, b"CHOOSE", x, 58)
        L.hint(c, b"A", b"OK", x + 4, 58)
        # the version, small in the corner (engine/version.py)
        c.text(_VERSION, 128 - 4 * len(_VERSION), 58, 1)
        if self.confirm:
            c.fill_rect(0, 56, 128, 8, 0)
            L.box(c, 1, 11, 126, 45)
            L.text_c(c, b"NEW MATCH?", 16, 1, fb.BIG)
            L.text_c(c, b"THE MATCH IN PLAY ENDS", 28, 1)
            x = L.hint(c, b"A", b"NEW", 16, 43)
            L.hint(c, b"B", b"KEEP PLAYING", x + 6, 43)
