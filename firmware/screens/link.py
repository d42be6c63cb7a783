"""The link screen: the two boards find each other and make the deal.

    +------------------------------------------+
    |                   LINK                   |
    | Looking for the other board: TX to RX,   |
    | RX to TX, GND.                           |
    |                                          |
    | YOU ARE P1: YOU PLAY FIRST               |
    | [B] TITLE                                |
    +------------------------------------------+

It says what the link says (firmware.link.link.Link.words(): looking, linked,
lost, noise, a refusal), then the deal (engine/linkdeal.py); once the
match is dealt and the boards are linked it goes to the table by itself.
When the link match cannot go on (a refusal, a deal refused, a move the
rules refuse, matches that differ) it says why: A starts a new link match
on this board (the other must too), B goes back to the title. Once this
board has revealed its secret (the deal bound, docs/LINK.md), A ends the
link match as the other board's forfeit instead, and says so, whenever
the match cannot go on from this side (stopped, the other not linked or
holding back its reveal); nothing else makes a new deal in its place. B always goes back to the title; the
link match stays in its save, and LINK on the title takes it up again
(the same deal, after a refusal too). DOWN shows the link statistics (the games
against the CPU have their own).
"""

from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L


class LinkScreen(Screen):
    name = "link"

    def __init__(self, app):
        super().__init__(app)
        self.words = ""
        self.lines = []
        self.seat = b""
        self.forfeit = False

    def enter(self, **kw):
        self.dirty = True
        self.words = ""
        self._sync()

    def _sync(self):
        g = self.app.session
        w = g.words()
        seat = b""
        forfeit = g.waiting_on_other()
        if g.role is not None:
            seat = b"YOU ARE " + (b"P1" if g.role == 0 else b"P2")
            m = g.match
            if forfeit:
                seat += b". A: " + g.other + b" FORFEITS"
            elif m is not None:
                seat += b": YOU PLAY FIRST" if m.hand.first == 0 else b": " + g.other + b" FIRST"
        if w != self.words or seat != self.seat or forfeit != self.forfeit:
            self.forfeit = forfeit
            self.words = w
            self.lines = L.wrap(w, 31)[:5]
            self.seat = seat
            self.dirty = True

    def event(self, ev, now):
        g = self.app.session
        if ev == btn.B or ev == btn.LONG_B:
            self.app.go("title")
        elif ev == btn.DOWN:
            self.app.go("stats")
        elif ev == btn.A and (g.stopped is not None or g.waiting_on_other()):
            g.new_match()
            self._sync()

    def tick(self, now):
        g = self.app.session
        if g.stopped is None and g.match is not None and g.linked() and not g.finishing:
            self.app.go("play", new_hand=True)
            return 0
        self._sync()
        return 100

    def draw(self, c):
        c.fill(0)
        L.title_bar(c, b"LINK")
        lines = self.lines
        for i in range(len(lines)):
            L.rich_text(c, lines[i], 2, 12 + 7 * i)
        c.text(self.seat, 2, 49, 1)
        x = L.hint(c, b"B", b"TITLE", 0, 58)
        x = L.hint(c, L.KEY_DOWN, b"STATS", x + 4, 58)
        if self.forfeit:
            L.hint(c, b"A", b"END", x + 4, 58)
        elif self.app.session.stopped is not None:
            L.hint(c, b"A", b"NEW", x + 4, 58)
