"""The play screen's status row and table: both scores, the hand number (or
this hand's knock limit), the deadwood, the save mark; the stock with its
count and the top discard.

A mixin of firmware.screens.play.Play: it reads the fields Play._sync
caches and allocates nothing.
"""

from firmware.display import glyphs
from firmware.screens import layout as L
from firmware.screens.play_modes import (M_DRAW, NOCARD, TABLE_Y, TABLE_LIFT, STOCK_X, PILE_X,
                                         DW_X, MARK_X, MARK_Y)


class Table:
    t_other = b"CPU"              # the other player's name in the status row
    def _status(self, c):
        c.fill_rect(0, 0, 128, 7, 1)
        x = c.text(b"YOU", 2, 1, 0)
        c.num(self.me, x + 2, 1, 0)
        x = c.text(self.t_other, 33, 1, 0)
        c.num(self.opp, x + 2, 1, 0)
        if self.limit == 10:
            x = c.text(b"HAND", 64, 1, 0)
            c.num(self.hand_no, x + 2, 1, 0)
        elif self.limit == 0:
            # V2: an ace upcard; only gin ends the hand (or the stock)
            c.text(b"GIN ONLY", 61, 1, 0)
        else:
            # V2/V5: this hand's knock limit differs from the usual 10
            x = c.text(b"LIMIT", 62, 1, 0)
            c.num(self.limit, x + 2, 1, 0)
        self._status_dw(c)
        if self.mark:
            L.save_mark(c, MARK_X, MARK_Y, 1)

    def _status_dw(self, c):
        x = c.text(b"DW", DW_X, 1, 0)
        c.num(self.dw, x + 2, 1, 0)

    def _redraw_dw(self, c):
        """DW alone (a cursor move changes it): the status row right of
        DW_X holds nothing else."""
        c.fill_rect(DW_X, 0, 128 - DW_X, 7, 1)
        self._status_dw(c)

    def _table(self, c):
        y = TABLE_Y
        sel = self.mode == M_DRAW
        cw = glyphs.CARD_W
        ch = glyphs.CARD_H
        # The stock: a back, with a 1 px edge behind it while more than one
        # card is left; the count under it. The chosen pile is lifted and
        # drawn inverted.
        s_up = sel and self.src == 0
        if self.stock > 0:
            if self.stock > 1:
                c.hline(STOCK_X + 2, y + ch, cw - 2, 1)
                c.vline(STOCK_X + cw, y + 2, ch - 2, 1)
            if s_up:
                glyphs.draw_back(c, STOCK_X, y - TABLE_LIFT)
                c.invert_rect(STOCK_X + 1, y - TABLE_LIFT + 1, cw - 2, ch - 2)
            else:
                glyphs.draw_back(c, STOCK_X, y)
        else:
            glyphs.draw_slot(c, STOCK_X, y)
        y2 = y + ch + 2
        if self.offer:
            c.text(b"PASS", STOCK_X - 2, y2, 1)
        else:
            n = self.stock
            c.num(n, STOCK_X + 5 - (4 if n >= 10 else 2), y2, 1)
        if self.stop_at:
            # V3: the hand ends when this many stock cards are left
            x = c.text(b"END", STOCK_X - 2, y2 + 6, 1)
            c.num(self.stop_at, x + 1, y2 + 6, 1)
        p_up = sel and self.src == 1
        if self.up != NOCARD:
            if self.pile_n > 1:
                c.hline(PILE_X + 2, y + ch, cw - 2, 1)
                c.vline(PILE_X + cw, y + 2, ch - 2, 1)
            glyphs.draw_card(c, self.up, PILE_X, y - TABLE_LIFT if p_up else y, False, p_up)
        else:
            glyphs.draw_slot(c, PILE_X, y)
