"""The showdown of a box game hand (V6): the two-player showdown
(firmware/screens/showdown.py: melds, layoffs, deadwood, the deal number)
with the players named (YOU, P2, P3) and their roles, and the box
result screen after it. Undercut scores 10 here (BOX_RULES)."""

from firmware import fb
from firmware.screens import layout as L
from firmware.screens.showdown import Showdown
from firmware.screens.box_common import NAMES, ROLE_TAGS


class BoxShowdown(Showdown):
    name = "box_showdown"
    result_screen = "box_result"

    def __init__(self, app):
        super().__init__(app)
        self.players = bytearray(2)      # hand seat -> player

    def enter(self, **kw):
        super().enter(**kw)
        m = self.app.match
        for s in range(2):
            self.players[s] = m.player_at(s)

    def _last_result(self):
        return self.app.match.results[-1][0]     # (HandResult, roles)

    def _who(self, c, seat, x, y):
        # hand seat 0 is the captain (role 1), seat 1 the box (role 0)
        x = c.text(NAMES[self.players[seat]], x, y, 1)
        return c.text(ROLE_TAGS[1 - seat], x + 4, y, 1)

    def draw(self, c):
        c.fill(0)
        self._header(c)
        self._knocker_row(c)
        # the defender's
        x = self._who(c, 1 - self.knocker, 1, 33)
        if self.laid:
            x = c.text(b"LAID OFF", x + 4, 33, 1)
            c.num(self.laid, x + 4, 33, 1)
        self._deadwood(c, self.d_dw, 33)
        self.bottom.draw(c, 39, -1, False)
        p = self.players[self.winner]
        x = c.text(NAMES[p], 1, 56, 1, fb.BIG)
        x = c.text(b" SCORE" if p == 0 else b" SCORES", x, 56, 1, fb.BIG)
        c.num(self.points, x + 6, 56, 1, fb.BIG)
        L.hint(c, b"A", b"NEXT", 102, 57)
