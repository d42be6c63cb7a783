"""The play screen while you draw (M_DRAW): LEFT/RIGHT choose the stock or
the discard pile (R3), A takes the top card. On the first turn under V1 the
upcard is offered: the stock side is PASS. After both passed (V1) only the
stock can be drawn.

A mixin of firmware.screens.play.Play: input, the draw itself, the line
that says what to do and the key hints.
"""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import layout as L
from firmware.screens.play_modes import M_DISCARD, M_AI, NOCARD, P_HAND, P_TABLE, P_TURN


class YourDraw:
    def _draw_event(self, ev, now):
        """A button while choosing a draw; True if the frame may change."""
        if ev == btn.LEFT or ev == btn.RIGHT:
            return self._pick_source()
        if ev == btn.A:
            return self._draw_card(now)
        if ev == btn.UP or ev == btn.LONG_A:
            # A knock ends a turn (R3): it comes with the discard.
            self.app.play_sound("error")
            self._message(b"DRAW FIRST", NOCARD,
                          "You knock with the card you discard: take a card, "
                          "then UP knocks (R3, R6).")
            return True
        return False

    def _pick_source(self):
        """The other of stock and pile. Only the table changes (P_TABLE:
        redrawn alone), so this returns False: no full frame is needed."""
        if self.stock_only:
            return False                    # V1: both passed, stock only
        self.src = 1 - self.src
        self.part |= P_TABLE
        return False

    def _draw_card(self, now):
        """A: take the chosen card (or pass, V1). True when the whole frame
        must be drawn again; a take with nothing else waiting to be drawn
        changes only the table, the turn line, the key hints and the hand
        (with DW), so only those are (P_TABLE | P_TURN | P_HAND): not the
        scores nor the other player's last turn, text that takes a Pico
        milliseconds to draw."""
        whole = self.dirty or not self.partial_take
        m = self.app.match
        before = m.view(0).hand
        if self.offer:
            action = "pass" if self.src == 0 else "draw_upcard"
        else:
            action = "draw_stock" if self.src == 0 else "draw_upcard"
        if not self._act(action, now):
            return True
        self.app.play_sound("draw")
        self._after_move(now)
        if self.mode == M_DISCARD:
            # The cursor starts on the card just drawn.
            for c in m.view(0).hand:
                if c not in before:
                    self._select(self.row.index_of(c))
                    break
            if not whole:
                self.dirty = False
                self.part |= P_TABLE | P_TURN | P_HAND
                return False
        elif action == "pass" and self.mode == M_AI:
            self._turn_done(now)
        return True

    def _draw_line(self, c, x0, y):
        """What the draw is: YOUR DRAW, or the V1 offer."""
        if self.offer and self.up != NOCARD:
            # V1: the upcard is offered
            x = c.text(b"TAKE ", x0, y, 1, fb.BIG)
            x = L.big_card(c, self.up, x, y)
            c.text(b"OR PASS", x + 4, y, 1, fb.BIG)
        elif self.stock_only:
            c.text(b"BOTH PASSED", x0, y, 1, fb.BIG)
        else:
            c.text(b"YOUR DRAW", x0, y, 1, fb.BIG)

    def _draw_hints(self, c, y):
        if self.stock_only:
            x = L.hint(c, b"A", b"DRAW FROM STOCK", 0, y)
        else:
            x = L.hint(c, b"<>", b"PICK", 0, y)
            x = L.hint(c, b"A", b"PASS" if self.offer and self.src == 0 else b"TAKE", x, y)
        return L.hint(c, b"B", b"MENU", x, y)
