"""The play screen during the other player's turn (M_AI), and the texts of
its last turn: CPU THINKING, then CPU DREW STOCK / CPU TOOK Qs and
DISCARDED 7d (or KNOCKED), read back from the hand's log so a resumed game
shows them too. They stay until its next turn.

The other seat is the session's opponent (firmware/matchlife.py): the AI
decides in the pause of the AI speed setting (A hurries it) and moves when
it ends; the other board's player moves when its move comes. The screen
asks the opponent for the move (_ai_move) and shows it.

A mixin of firmware.screens.play.Play.
"""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import layout as L
from firmware.screens.play_modes import (M_AI, M_END, NOCARD, STOCK, PASSED, TEXT_X,
                                         TEXT_Y1, TEXT_Y2)
from engine.hand import DRAW_STOCK, PASS, DISCARD, KNOCK, TOOK

POLL_MS = 20            # an opponent whose move has not come is asked again within this


class AiTurn:
    # what the other player's turn says (a link match names the other board's)
    t_thinking = b"CPU THINKING"
    t_drew = b"CPU DREW STOCK"
    t_passed = b"CPU PASSED"
    t_took = b"CPU TOOK "
    t_turn = b"CPU'S TURN"

    def _ai_event(self, ev, now):
        if ev == btn.A:
            self.ai_due = now               # hurry the AI up
        return False

    def _ai_move(self, now):
        """The opponent's move, asked for once its pause is over (Play.tick;
        one whose move comes when it comes at every step), and shown."""
        m = self.app.match
        turn = m.hand.turn
        if self.app.session.opponent.play(m) is None:
            self.ai_due = now + POLL_MS
            return
        self._after_move(now)
        self._moved(now, turn)

    def _moved(self, now, turn):
        """After the opponent's move: its sound, and the save mark at its
        turn's end or the pause before its next move."""
        if self.mode == M_AI:
            self.ai_due = now + self.app.settings.speed_ms()
            self.app.play_sound("draw")
        elif self.mode != M_END:
            self._turn_done(now)
            self.app.play_sound("discard")

    def _sync_ai_text(self):
        """What the AI did on its last turn, read back from the hand's log
        (so a resumed game shows it too)."""
        self._read_last_turn(0)

    def _read_last_turn(self, me):
        """Read back from the hand's log the last turn of the seat that is
        not `me` (of either seat when me is None) into ai_took, ai_out and
        ai_knock; while that player is to move and has not moved yet,
        `thinking` instead. Returns that seat (None: nobody has moved)."""
        h = self.app.match.hand
        log = h.log
        seat = h.log_seat
        i = len(log) - 1
        self.ai_took = NOCARD
        self.ai_out = NOCARD
        self.ai_knock = False
        self.thinking = False
        if me is None:
            if i < 0:
                return None
            s = seat[i]
        else:
            s = 1 - me
            if self.mode == M_AI and (i < 0 or seat[i] == me):
                self.thinking = True
                return s
            while i >= 0 and seat[i] == me:
                i -= 1
        end = i
        while i >= 0 and seat[i] == s:
            i -= 1
        self._read_turn(log, i + 1, end)
        self.dirty = True
        return s

    def _read_turn(self, log, start, end):
        """What the turn logged in log[start..end] took and put down, into
        ai_took, ai_out and ai_knock."""
        for k in range(start, end + 1):
            code = log[k]
            if code == DRAW_STOCK:
                self.ai_took = STOCK
            elif code == PASS:
                self.ai_took = PASSED
            elif code >= TOOK:
                self.ai_took = code - TOOK
            elif code >= KNOCK:
                self.ai_out = code - KNOCK
                self.ai_knock = True
            elif code >= DISCARD:
                self.ai_out = code - DISCARD

    def _texts(self, c):
        """The other player's last turn, then the line of whose turn it is."""
        x0 = TEXT_X
        y1 = TEXT_Y1
        y2 = TEXT_Y2
        if self.thinking:
            c.text(self.t_thinking, x0, y1, 1, fb.BIG)
            if self.fresh:
                c.text(self.fp, x0, y2, 1, fb.BIG)
        elif self.ai_took == NOCARD and self.ai_out == NOCARD:
            x = c.text(b"HAND ", x0, y1, 1, fb.BIG)
            x = c.num(self.hand_no, x, y1, 1, fb.BIG)
            c.text(self.cut_tag, x, y1, 1, fb.BIG)
            c.text(self.fp, x0, y2, 1, fb.BIG)
        else:
            t = self.ai_took
            if t == STOCK:
                c.text(self.t_drew, x0, y1, 1, fb.BIG)
            elif t == PASSED:
                c.text(self.t_passed, x0, y1, 1, fb.BIG)
            elif t != NOCARD:
                x = c.text(self.t_took, x0, y1, 1, fb.BIG)
                L.big_card(c, t, x, y1)
            if self.ai_out != NOCARD:
                x = c.text(b"KNOCKED " if self.ai_knock else b"DISCARDED ", x0, y2, 1, fb.BIG)
                L.big_card(c, self.ai_out, x, y2)
        self._turn_line(c)

    def _ai_line(self, c, x0, y):
        c.text(self.t_turn, x0, y, 1, fb.BIG)

    def _ai_hints(self, c, y):
        x = L.hint(c, b"A", b"HURRY", 0, y)
        return L.hint(c, b"B", b"MENU", x, y)
