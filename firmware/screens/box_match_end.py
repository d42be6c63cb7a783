"""The end of a box game (V6: first to the target, 100, wins at once): the
winner, the three totals with the hands each won and played as box and
as captain, and the matches won on this device. A goes back to the
title (the save is gone; the statistics already count the match). A
match with a cut opens on its seal page (firmware/screens/seal.py), and
UP shows it again.

    +--------------------------------------------------------------+
    | MATCH OVER                                      14 HANDS     |
    |                  P2 WINS                                     |
    |      POINTS  WON  BOX  CAP                                   |
    | P2      104    6    8    4                                   |
    | YOU      61    4    5    6                                   |
    | P3       35    2    4    5                                   |
    | HANDS WON, HANDS AS BOX, AS CAP                              |
    | [A] TITLE    MATCHES WON 3 OF 7                              |
    +--------------------------------------------------------------+
"""

from firmware import buttons as btn
from firmware.display import fb
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.box_common import NAMES
from firmware.screens.match_end import cups, leave, match_over, matches_won
from firmware.screens.result import sealed


class BoxMatchEnd(Screen):
    name = "box_match_end"

    def __init__(self, app):
        super().__init__(app)
        self.winner = 0
        self.order = bytearray(3)        # players, highest total first
        self.scores = [0, 0, 0]
        self.won = [0, 0, 0]
        self.as_box = [0, 0, 0]
        self.as_cap = [0, 0, 0]
        self.hands = 0
        self.seal = False            # the match has a seal (UP shows it)

    def enter(self, **kw):
        self.dirty = True
        m = self.app.match
        self.winner = m.winner
        self.scores = list(m.scores)
        self.won = list(m.hands_won)
        self.hands = len(m.results)
        for p in range(3):
            self.as_box[p] = 0
            self.as_cap[p] = 0
        for _, roles in m.results:
            self.as_box[roles[0]] += 1
            self.as_cap[roles[1]] += 1
        order = sorted(range(3), key=lambda p: (-self.scores[p], p))
        for i in range(3):
            self.order[i] = order[i]
        self.seal = sealed(m)
        if not kw.get("again"):
            match_over(self.app, m.winner)

    def event(self, ev, now):
        if ev == btn.UP and self.seal:
            self.app.go("seal", then=self.name)
            return
        leave(self.app, ev)

    def draw(self, c):
        c.fill(0)
        L.title_bar(c, b"MATCH OVER")
        L.count_right(c, self.hands, b"HAND", b"HANDS", 2)
        won = self.winner == 0
        if won:
            cups(c, 10)
            L.text_c(c, b"YOU WIN!", 11, 1, fb.BIG)
        else:
            w = (len(NAMES[self.winner]) + 5) * 6
            x = c.text(NAMES[self.winner], (128 - w) // 2, 11, 1, fb.BIG)
            c.text(b" WINS", x, 11, 1, fb.BIG)
        # the three totals, highest first; the hands each won and played
        # as box and as captain (V6), said under the table
        y = 20
        c.text(b"POINTS", 30, y, 1)
        c.text(b"WON", 65, y, 1)
        c.text(b"BOX", 90, y, 1)
        c.text(b"CAP", 115, y, 1)
        for i in range(3):
            p = self.order[i]
            yy = y + 7 + 8 * i
            c.text(NAMES[p], 2, yy, 1, fb.BIG)
            _right(c, self.scores[p], 53, yy, fb.BIG)
            _right(c, self.won[p], 75, yy + 1, fb.SMALL)
            _right(c, self.as_box[p], 100, yy + 1, fb.SMALL)
            _right(c, self.as_cap[p], 126, yy + 1, fb.SMALL)
        c.text(b"HANDS WON, HANDS AS BOX, AS CAP", 2, 51, 1)
        x = L.hint(c, b"A", b"TITLE", 0, 58)
        matches_won(c, self.app.stats, x + 8, 58)


def _right(c, n, x_end, y, font):
    c.num(n, x_end - fb.num_width(n, font), y, 1, font)
