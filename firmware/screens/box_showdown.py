"""The showdown of a box game hand (V6): the two-player showdown
(firmware/screens/showdown.py: melds, layoffs, deadwood, the score as its
sum, the deal number) with the players named (YOU, P2, P3) and their
roles, and the box result screen after it. Undercut scores 10 here
(BOX_RULES)."""

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

    def _name(self, seat):
        return NAMES[self.players[seat]]

    def _who(self, c, seat, x, y):
        # hand seat 0 is the captain (role 1), seat 1 the box (role 0)
        x = c.text(NAMES[self.players[seat]], x, y, 1)
        return c.text(ROLE_TAGS[1 - seat], x + 4, y, 1)
