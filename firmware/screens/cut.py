"""A new match's commitment and the player's cut (firmware/cutwait.py,
docs/FAIRNESS.md): a cold screen, imported when a new match waits for its
cut and let go once its first hand is dealt.

First the match commitment, drawn and saved before this screen shows
(MATCH # and 16 hex digits: what to note); A goes on to the cut:

    | YOUR CUT                      |
    | MATCH #3FA09C21B7D4E2F0       |
    |   [A] [7] [ ] [ ]             |
    | ^v CHANGE  <> PLACE           |
    | A DEAL  B TITLE               |

CUT_LEN places, each blank until the player chooses a sign (0-9, A-Z:
UP and DOWN go through them, LEFT and RIGHT move between the places). No
place has a sign the device chose: A deals only once every place has
one, and says so otherwise, changing nothing. B, on either page, goes
back to the title without dealing (the waiting match goes).
"""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware import cutwait

CUT_LEN = 4
SIGNS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"   # engine.cut's alphabet: UP from blank gives A
BLANK = 32

COMMIT = 0          # the pages
CUT = 1

_BOX_W = 16
_GAP = 6
_BOX_X = (128 - CUT_LEN * _BOX_W - (CUT_LEN - 1) * _GAP) // 2
_BOX_Y = 19
_BOX_H = 14


class CutScreen(Screen):
    name = "cut"

    def __init__(self, app):
        super().__init__(app)
        self.page = COMMIT
        self.cells = [bytearray(1) for _ in range(CUT_LEN)]
        self.pos = 0
        self.refused = False         # A was pressed with a place blank
        self.commit = b""            # b"MATCH #..."
        self.hex = b""               # its hex digits
        self.head = b"NEW MATCH"

    def enter(self, **kw):
        self.dirty = True
        w = self.app.session.wait
        self.commit = cutwait.commitment(w)
        self.hex = self.commit[7:]
        self.head = b"3-PLAYER GAME" if w.box else b"NEW MATCH"
        self.page = COMMIT
        for c in self.cells:
            c[0] = BLANK
        self.pos = 0
        self.refused = False

    def text(self):
        """The cut as given so far (str), blanks as spaces."""
        return "".join(chr(c[0]) for c in self.cells)

    def event(self, ev, now):
        app = self.app
        if ev == btn.B:
            cutwait.drop(app)
            return
        if self.page == COMMIT:
            if ev == btn.A:
                self.page = CUT
                self.dirty = True
            return
        cell = self.cells[self.pos]
        if ev == btn.UP or ev == btn.DOWN:
            i = SIGNS.find(bytes(cell))
            if i < 0:
                i = 0 if ev == btn.UP else len(SIGNS) - 1
            else:
                i = (i + (1 if ev == btn.UP else -1)) % len(SIGNS)
            cell[0] = SIGNS[i]
            self.refused = False
        elif ev == btn.LEFT:
            self.pos = (self.pos - 1) % CUT_LEN
        elif ev == btn.RIGHT:
            self.pos = (self.pos + 1) % CUT_LEN
        elif ev == btn.A:
            cut = self.text()
            if " " in cut:
                # every place is the player's: none is filled in for them
                self.refused = True
                app.play_sound("error")
            else:
                cutwait.deal(app, cut)
                return
        else:
            return
        self.dirty = True

    def draw(self, c):
        c.fill(0)
        if self.page == COMMIT:
            self._draw_commit(c)
            return
        L.title_bar(c, b"YOUR CUT")
        L.text_c(c, self.commit, 11, 1)
        for i in range(CUT_LEN):
            x = _BOX_X + i * (_BOX_W + _GAP)
            lit = 1 if i == self.pos else 0
            if lit:
                c.fill_rect(x, _BOX_Y, _BOX_W, _BOX_H, 1)
            else:
                L.box(c, x, _BOX_Y, _BOX_W, _BOX_H)
            c.text(self.cells[i], x + 6, _BOX_Y + 4, 1 - lit, fb.BIG)
        if self.refused:
            L.text_c(c, b"CHOOSE A SIGN IN EVERY PLACE", 36, 1)
        else:
            L.text_c(c, b"4 SIGNS OF YOURS: A-Z, 0-9", 36, 1)
        x = L.key(c, L.KEY_UP, 0, 46)
        x = L.hint(c, L.KEY_DOWN, b"CHANGE", x, 46)
        L.hint(c, b"<>", b"PLACE", x + 4, 46)
        x = L.hint(c, b"A", b"DEAL", 0, 58)
        L.hint(c, b"B", b"TITLE", x + 4, 58)

    def _draw_commit(self, c):
        L.title_bar(c, self.head)
        L.text_c(c, b"THE DEALS' SECRET IS DRAWN:", 11, 1)
        L.text_c(c, b"MATCH #", 19, 1, fb.BIG)
        L.text_c(c, self.hex, 28, 1, fb.BIG)
        L.text_c(c, b"NOTE IT. YOUR CUT COMES NEXT:", 39, 1)
        L.text_c(c, b"EVERY DEAL COMES FROM BOTH.", 46, 1)
        x = L.hint(c, b"A", b"CUT", 0, 58)
        L.hint(c, b"B", b"TITLE", x + 4, 58)
