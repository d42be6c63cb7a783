"""The seal page (FAIRNESS.md): the first screen of a match's end when the
match has a cut (engine/cut.py) and is against the CPU or the box game.
It shows SEAL # and the first 10 hex digits of the seal (the last hand,
the final scores and the winner) and what to note: the seal, the MATCH #
and the cut hold the game record. A (or B) goes on to the scores (the
match end, `then`), DOWN on a two-player match to its review; the scores'
UP comes back here.

A cold module: imported at the match end only and let go when left, so
that its code takes no heap while a match is played (the .mpy bundle's
heap: docs/DEVICE.md).

    +--------------------------------+
    | MATCH OVER                     |
    |  THE SEAL OF THE WHOLE MATCH:  |
    |       SEAL #3FA09C21B7         |
    |  NOTE IT WITH THE MATCH # AND  |
    |  YOUR CUT: THE THREE CHECK THE |
    |  RECORD: EVERY DEAL AND MOVE.  |
    | A SCORES  v REVIEW             |
    +--------------------------------+
"""

from firmware import buttons as btn
from firmware.display import fb
from firmware.screens import Screen
from firmware.screens import layout as L

_MODULES = ("firmware.screens.seal",)


def seal_text(m):
    """b"SEAL #" and the first COMMIT_HEX hex digits of the seal of match
    `m`, over (engine/cut.py)."""
    from engine.cut import seal
    from engine.deal import COMMIT_HEX
    from engine.sha256 import hex_text

    return b"SEAL #" + hex_text(seal(m)[:COMMIT_HEX // 2]).encode()


class SealScreen(Screen):
    name = "seal"

    def __init__(self, app):
        super().__init__(app)
        self.seal = b""
        self.then = "match_end"

    def enter(self, then="match_end", first=False, **kw):
        """`then`: the scores' screen (match_end, box_match_end); `first`:
        the match has just ended here (its sound, its save let go)."""
        self.dirty = True
        self.then = then
        m = self.app.match
        self.seal = seal_text(m)
        if first:
            from firmware.screens.match_end import match_over

            match_over(self.app, m.winner)

    def event(self, ev, now):
        if ev == btn.A or ev == btn.B:
            self._leave(self.then, again=True)
        elif ev == btn.DOWN and self.then == "match_end":
            self._leave("match_review")

    def _leave(self, name, **kw):
        app = self.app
        app.let_go("seal", _MODULES)
        app.go(name, **kw)

    def draw(self, c):
        c.fill(0)
        L.title_bar(c, b"MATCH OVER")
        L.text_c(c, b"THE SEAL OF THE WHOLE MATCH:", 12, 1)
        L.text_c(c, self.seal, 20, 1, fb.BIG)
        L.text_c(c, b"NOTE IT WITH THE MATCH # AND", 31, 1)
        L.text_c(c, b"YOUR CUT: THE THREE CHECK THE", 38, 1)
        L.text_c(c, b"RECORD: EVERY DEAL AND MOVE.", 45, 1)
        L.hint(c, b"A", b"SCORES", 0, 58)
        if self.then == "match_end":
            L.hint(c, L.KEY_DOWN, b"REVIEW", 44, 58)
