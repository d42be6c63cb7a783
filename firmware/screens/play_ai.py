"""The play screen during the AI's turn (M_AI), and the texts of the other
player's last turn: CPU THINKING, then CPU DREW STOCK / CPU TOOK Qs and
DISCARDED 7d (or KNOCKED), read back from the hand's log so a resumed game
shows them too. They stay until the AI's next turn. The AI moves after the
AI speed setting's pause; A hurries it.

A mixin of firmware.screens.play.Play.
"""

from firmware import fb
from firmware import buttons as btn
from firmware.screens import layout as L
from firmware.screens.play_modes import (M_AI, M_END, NOCARD, STOCK, PASSED, TEXT_X,
                                         TEXT_Y1, TEXT_Y2)
from engine.hand import DRAW_STOCK, PASS, DISCARD, KNOCK, TOOK


class AiTurn:
    plans_ahead = True      # the AI decides at the start of its pause
    # what the other player's turn says (a link match names the other board's)
    t_thinking = b"CPU THINKING"
    t_drew = b"CPU DREW STOCK"
    t_passed = b"CPU PASSED"
    t_took = b"CPU TOOK "
    t_turn = b"CPU'S TURN"

    def _plan_ai(self):
        """The AI's move for the position on screen (kept in ai_plan until
        the pause ends): its first slice, and ai_busy while slices remain
        (a player without them chooses at once; a begin() that leaves the
        move to its steps returns None). A bug in the AI must not stop
        the game: the move is then the first legal one."""
        m = self.app.match
        ai = self.app.life.ai
        self.ai_busy = None
        try:
            begin = getattr(ai, "begin", None)
            if begin is None:
                self.ai_plan = ai.choose(m.view(1))
            else:
                self.ai_plan = begin(m.view(1))
                self.ai_busy = ai
        except Exception:
            self.ai_plan = m.legal()[0]

    def _ai_step(self):
        """One slice of the AI's work; when it is done, its move into
        ai_plan. A bug in a step keeps the first slice's choice (the first
        legal move when it had none); a player that is no longer the App's
        (a new game) decides again."""
        ai = self.ai_busy
        if ai is not self.app.life.ai:
            self.ai_busy = None
            self.ai_plan = None
            return
        try:
            if ai.step():
                return
            self.ai_plan = ai.result()
        except Exception:
            if self.ai_plan is None:
                self.ai_plan = self.app.match.legal()[0]
        self.ai_busy = None

    def _ai_event(self, ev, now):
        if ev == btn.A:
            self.ai_due = now               # hurry the AI up
        return False

    def _ai_move(self, now):
        m = self.app.match
        if self.ai_plan is None and self.ai_busy is None:
            self._plan_ai()
        while self.ai_busy is not None:
            self._ai_step()
        why = m.act(self.ai_plan)
        self.ai_plan = None
        if why is not None:
            # The AI must never stall the game; fall back to a legal move.
            m.act(m.legal()[0])
        self._after_move(now)
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
            c.num(self.hand_no, x, y1, 1, fb.BIG)
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
