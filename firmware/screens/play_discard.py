"""The play screen while you discard (M_DISCARD): LEFT/RIGHT move along the
hand (wrapping round), A discards the selected card, UP (or holding A)
knocks with it after a confirmation (R6; gin at 0 deadwood, R7). A knock
the rules refuse shows the engine's reason and changes nothing.

A mixin of firmware.screens.play.Play: input, the discard and the knock,
the confirmation box, the line that says what to do and the key hints.
"""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import layout as L
from firmware.screens.play_modes import M_DISCARD, M_END, O_NONE, O_CONFIRM, P_HAND
import engine


class YourDiscard:
    def _discard_event(self, ev, now):
        """A button while choosing a discard; True if the frame may change."""
        if ev == btn.LEFT or ev == btn.RIGHT:
            return self._move_cursor(ev)
        if ev == btn.A:
            self._discard(now, False)
            return True
        if ev == btn.UP or ev == btn.LONG_A:
            self._ask_knock(now)
            return True
        return False

    def _move_cursor(self, ev):
        """LEFT or RIGHT along the hand, wrapping round. Only the hand and DW
        change (P_HAND: redrawn alone), so this returns False: no full
        frame is needed."""
        self._select((self.cur + (-1 if ev == btn.LEFT else 1)) % self.row.n)
        self.part |= P_HAND
        return False

    def _select(self, i):
        """Put the discard cursor on card i of the row. While a discard is
        chosen, DW is the deadwood that discarding that card leaves;
        otherwise the hand's deadwood (with 11 cards: after the best
        discard). Allocation-free."""
        self.cur = i
        if self.mode == M_DISCARD and self.row.n == 11:
            self.dw = self.app.match.hand.deadwood_without(self._seat(), self.row.cards[i])
        else:
            self.dw = self.best_dw

    def _discard(self, now, knock):
        c = self.row.cards[self.cur]
        action = ("knock:" if knock else "discard:") + engine.card_text(c)
        if not self._act(action, now):
            return
        self.app.play_sound("discard")
        self.src = 0
        self._after_move(now)
        if self.mode != M_END:
            self._turn_done(now)

    def _ask_knock(self, now):
        """UP: knock with the selected card, after a confirmation. A knock
        the rules refuse (R6) shows the engine's reason instead."""
        c = self.row.cards[self.cur]
        action = "knock:" + engine.card_text(c)
        m = self.app.match
        if action not in m.legal():
            self._act(action, now)       # refused: shows why, changes nothing
            return
        self.confirm_card = c
        self.confirm_dw = m.hand.deadwood_without(self._seat(), c)
        self.overlay = O_CONFIRM

    def _seat(self):
        """The human's seat in the hand."""
        return 0

    def _confirm_event(self, ev, now):
        if ev == btn.A:
            self.overlay = O_NONE
            self._discard(now, True)
            return True
        if ev == btn.B or ev == btn.LONG_B:
            self.overlay = O_NONE
            return True
        return False

    def _discard_line(self, c, x0, y):
        if self.can_knock:
            c.text(b"YOU CAN GIN!" if self.best_dw == 0 else b"YOU CAN KNOCK", x0, y, 1, fb.BIG)
        else:
            c.text(b"YOUR DISCARD", x0, y, 1, fb.BIG)

    def _discard_hints(self, c, y):
        x = L.key(c, b"<>", 0, y)
        x = L.hint(c, b"A", b"DISCARD", x, y)
        x = L.hint(c, L.KEY_UP, b"GIN" if self.limit == 0 else b"KNOCK", x, y)
        return L.hint(c, b"B", b"MENU", x, y)

    def _draw_confirm(self, c):
        L.box(c, 1, 9, 126, 38)
        gin = self.confirm_dw == 0
        L.text_c(c, b"GO GIN?" if gin else b"KNOCK?", 12, 1, fb.BIG)
        x = c.text(b"DISCARD", 14, 23, 1)
        x = L.small_card(c, self.confirm_card, x + 4, 23)
        x = c.text(b"DEADWOOD", x + 6, 23, 1)
        c.num(self.confirm_dw, x + 4, 23, 1)
        x = L.hint(c, b"A", b"GIN" if gin else b"KNOCK", 14, 36)
        L.hint(c, b"B", b"CANCEL", x + 8, 36)
