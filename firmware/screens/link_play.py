"""The play screen of a link match: the table as against the CPU, with the
other seat played by the other board's moves (firmware/link/linkmatch.py).

The player's moves go through Match.act as ever and then to the other
board (the session's opponent, linkmatch.OtherBoard: told). On the
other's turn the screen shows WAITING FOR P2 (or P1), and under it what
the link says when it is not simply linked (LINK LOST, LOOKING, NOISE ON
CABLE, P2 NOT READY: the other has not taken the last move); it asks the
opponent for the other's move at every step (LinkSession.take_move,
played through Match.act with its legality check) and shows it as the
CPU's is shown: P2 DREW STOCK, DISCARDED 7d. The menu,
the discard pile, the rules and the hand stay as they are in a game
against the CPU while the other player thinks; a move that comes while
the menu is open is played at once, the menu staying open.
"""

from firmware.display import fb
from firmware.link import link as lk
from firmware.screens.play import Play
from firmware.screens.play_ai import POLL_MS
from firmware.screens.play_modes import M_AI, O_NONE, TEXT_X, TEXT_Y2
from firmware.screens import layout as L


class LinkPlay(Play):
    name = "link_play"

    def enter(self, **kw):
        o = self.app.session.other
        self.t_other = o
        self.t_kept = o + b" KEPT FROM THE PILE:"
        self.t_thinking = b"WAITING FOR " + o
        self.t_drew = o + b" DREW STOCK"
        self.t_passed = o + b" PASSED"
        self.t_took = o + b" TOOK "
        self.t_turn = o + b"'S TURN"
        self.t_gin = o + b" GOES GIN!"
        self.t_knocks = o + b" KNOCKS!"
        self.net = b""
        Play.enter(self, **kw)

    def tick(self, now):
        if self.mode == M_AI:
            net = self._net_words(self.app.session)
            if net != self.net:
                self.net = net
                self.dirty = True
            if self.overlay != O_NONE:
                self._ai_move(now)      # a move that comes while the menu is open
        w = Play.tick(self, now)
        return POLL_MS if w is None or w > POLL_MS else w

    def _net_words(self, g):
        link = g.link
        s = link.status
        if s == lk.LINKED:
            return b"" if not link.stalled() else g.other + b" NOT READY"
        if link.words() == lk.WORDS_NOISE:
            return b"NOISE ON CABLE"
        return b"LINK LOST" if s == lk.LOST else b"LOOKING"

    def _texts(self, c):
        Play._texts(self, c)
        if self.thinking and self.net:
            c.fill_rect(TEXT_X, TEXT_Y2, 128 - TEXT_X, 8, 0)
            c.text(self.net, TEXT_X, TEXT_Y2, 1, fb.BIG)

    def _ai_hints(self, c, y):
        return L.hint(c, b"B", b"MENU", 0, y)
