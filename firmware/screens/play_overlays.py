"""What the play screen shows over the table: the menu (B), a message (a
refusal with the engine's reason, a hint), and the discard pile. The menu
and the pile pause the game; any key closes a message or the pile.

A mixin of firmware.screens.play.Play.
"""

from firmware.compat import hold_reserve, let_reserve_go
from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import layout as L
from firmware.screens.menu import Menu
from firmware.screens.play_modes import M_DRAW, M_DISCARD, O_NONE, O_MSG, O_MENU, O_PILE, NOCARD
import engine

PILE_Y = 12          # the discard pile view: first row of cards
PILE_ROW = 8         # row pitch
PILE_PITCH = 13      # card pitch: 4 px between two cards
PILE_PER_ROW = 9

MENU_ITEMS = [b"RESUME", b"HINT", b"DISCARD PILE", b"RULES", b"QUIT TO TITLE"]


def new_menu():
    return Menu(MENU_ITEMS)


class Overlays:
    t_kept = b"CPU KEPT FROM THE PILE:"
    # -- the menu --------------------------------------------------------
    def _open_menu(self):
        self.menu.sel = 0
        self.overlay = O_MENU

    def _menu_event(self, ev, now):
        if self.menu.move(ev):
            return True
        if ev == btn.B or ev == btn.LONG_B:
            self.overlay = O_NONE
            return True
        if ev == btn.A:
            self.overlay = O_NONE
            self._menu_pick(self.menu.sel, now)
            return True
        return False

    def _menu_pick(self, i, now):
        if i == 1:
            if self.mode == M_DRAW or self.mode == M_DISCARD:
                self._hint(now)
            else:
                self._message(b"HINT", NOCARD, "Wait for your turn.")
        elif i == 2:
            self._open_pile()
        elif i == 3:
            self.app.go("help", back=self.name)
        elif i == 4:
            self.app.saving.save_match()
            self.app.go("title")

    def _draw_menu(self, c):
        c.fill_rect(0, 0, 128, 64, 0)
        L.title_bar(c, b"PAUSED")
        self.menu.draw(c, 0, 10, 128, 5)
        c.fill_rect(0, 56, 128, 8, 0)
        x = L.hint(c, b"A", b"OK", 0, 58)
        L.hint(c, b"B", b"BACK", x, 58)

    # -- a message and the hint -----------------------------------------
    def _message(self, title, card, text):
        self.msg_title = title
        self.msg_card = card
        self.msg_lines = L.wrap(text, 30)[:3]
        self.overlay = O_MSG
        self.dirty = True

    def _hint(self, now):
        m = self.app.match
        app = self.app
        hp = app.life.hinter()
        let_reserve_go()      # the hint's words are imported when first asked (firmware.compat)
        try:
            action, why = hp.hint(m.view(0))
        except Exception as e:
            self._message(b"NO HINT", NOCARD, str(e))
            return
        finally:
            hold_reserve()
        card = NOCARD
        if action == "draw_stock":
            title = b"HINT: DRAW STOCK"
            self.src = 0
        elif action == "pass":
            title = b"HINT: PASS"
            self.src = 0
        elif action.startswith("draw_upcard"):
            title = b"HINT: TAKE"
            card = self.up
            self.src = 1
        else:
            card = engine.card(action[-2:])
            title = b"HINT: KNOCK" if action.startswith("knock") else b"HINT: DISCARD"
            i = self.row.index_of(card)
            if i >= 0:
                self._select(i)
        self._message(title, card, why)

    def _draw_message(self, c):
        L.box(c, 1, 9, 126, 38)
        y = 12
        x = c.text(self.msg_title, 5, y, 1, fb.BIG)
        if self.msg_card != NOCARD:
            L.big_card(c, self.msg_card, x + 6, y)
        lines = self.msg_lines
        for i in range(len(lines)):
            L.rich_text(c, lines[i], 5, 22 + 7 * i)
        c.hline(2, 20, 124, 1)

    # -- the discard pile -------------------------------------------------
    def _open_pile(self):
        m = self.app.match
        v = m.view(0)
        p = v.pile
        p.reverse()
        self.pile_cards = bytes(p)
        self.known = bytes(v.opponent_known)
        self.overlay = O_PILE

    def _draw_pile(self, c):
        """The pile newest first, nine cards a row with room between them,
        the top card (the one that can be taken) lit; then what the CPU
        took from the pile and still holds (R3: only the top is ever
        available, the rest is history)."""
        c.fill_rect(0, 0, 128, 64, 0)
        L.title_bar(c, b"DISCARD PILE")
        p = self.pile_cards
        n = len(p)
        L.count_right(c, n, b"CARD", b"CARDS", 2)
        y = PILE_Y
        if not n:
            c.text(b"EMPTY", 2, y, 1)
            y += PILE_ROW
        for i in range(n):
            x = 3 + (i % PILE_PER_ROW) * PILE_PITCH
            if i == 0:
                c.fill_rect(x - 2, y - 2, 13, 9, 1)
                L.small_card(c, p[i], x, y, 0)
            else:
                L.small_card(c, p[i], x, y)
            if i % PILE_PER_ROW == PILE_PER_ROW - 1 or i == n - 1:
                y += PILE_ROW
        if n:
            c.text(b"TOP CARD FIRST, OLDEST LAST", 2, y, 1)
            y += 7
        x = c.text(self.t_kept, 2, y, 1) + 4
        k = self.known
        if not len(k):
            c.text(b"NONE", x, y, 1)
        for i in range(len(k)):
            x = L.small_card(c, k[i], x, y) + 2
        L.hint(c, b"B", b"BACK", 0, 58)
