"""The play screen: the table during a hand.

    +--------------------------------------------------------------+
    | YOU 23   CPU 45   H2                             DW 12  [s]   |  status
    | [##] [Qs]  CPU TOOK Qs                                        |
    | [##] [  ]  DISCARDED 7d                                       |  table
    |  31        YOUR DRAW                                          |
    | [<>] PICK  [A] TAKE  [B] MENU                                 |  key hints
    |  _______   ___________                                        |  melds
    | [5s][6s][7s] [9h][9d][9c]   [2c][Jd][Kh][Ks]                  |  hand
    +--------------------------------------------------------------+

Always on screen: the hand grouped by the engine's best melds (R5) with the
deadwood set apart, the running deadwood, the top discard, the stock count,
both scores, whose turn, and what the AI did last (it stays until the AI's
next turn). The AI's hand is never drawn here.

Variants: the upcard offer (V1) reads "TAKE Qs OR PASS", the stock side
is PASS; after both passed only the stock can be drawn. A knock limit other
than 10 (V2 Oklahoma, V5) replaces the hand number in the status row:
"LIMIT 7", or "GIN ONLY" after an ace upcard (UP then means gin). The
two-card stop (V3) shows "END 2" under the stock count.

Controls: your draw: LEFT/RIGHT pick stock or pile, A takes. Your discard:
LEFT/RIGHT move (wrap), A discards, UP knocks with that card (asks first).
B opens the menu (hint, discard pile, rules, quit); holding B asks for a
hint at once. Every move goes through Match.act; an illegal one shows the
engine's reason and changes nothing.

Redraw is allocation-free: _sync() caches everything the frame needs when
the game state changes (the meld grouping is built once per hand change);
draw() only reads those fields.
"""

from firmware.compat import const
from firmware import fb, glyphs
from firmware import buttons as btn
from firmware.buttons import ticks_diff
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.menu import Menu
import engine
from engine.hand import DRAW_STOCK, PASS, DISCARD, KNOCK, TOOK

M_DRAW = const(0)      # your draw (or the V1 take/pass offer)
M_DISCARD = const(1)   # your discard or knock
M_AI = const(2)        # the AI is moving
M_END = const(3)       # the hand is over; a pause before the showdown

O_NONE = const(0)
O_MSG = const(1)
O_CONFIRM = const(2)
O_MENU = const(3)
O_PILE = const(4)

NOCARD = const(255)
STOCK = const(254)
PASSED = const(253)

HAND_Y = const(50)
TABLE_Y = const(12)
STOCK_X = const(3)
PILE_X = const(16)
TEXT_X = const(31)
HINT_Y = const(41)
MARK_MS = const(700)

_MENU_ITEMS = [b"RESUME", b"HINT", b"DISCARD PILE", b"RULES", b"QUIT TO TITLE"]


class Play(Screen):
    name = "play"
    result_screen = "result"         # where an ended hand goes: drawn ...
    showdown_screen = "showdown"     # ... or won

    def __init__(self, app):
        super().__init__(app)
        self.row = L.HandRow()
        self.mode = M_DRAW
        self.overlay = O_NONE
        self.src = 0                  # draw cursor: 0 stock (or pass), 1 pile
        self.cur = 0                  # discard cursor: index in self.row
        self.ai_due = 0
        self.end_due = 0
        self.mark_until = 0
        self.mark = False
        self.menu = Menu(_MENU_ITEMS)
        # cached for draw()
        self.me = 0
        self.opp = 0
        self.dw = 0
        self.stock = 0
        self.up = NOCARD
        self.pile_n = 0
        self.hand_no = 1
        self.offer = False            # V1: first turn's take-or-pass
        self.stock_only = False       # V1: both passed; the stock it is
        self.can_knock = False
        self.limit = 10
        self.stop_at = 0
        self.ai_took = NOCARD         # STOCK, PASSED, a card, or NOCARD
        self.ai_out = NOCARD          # the AI's discard
        self.ai_knock = False
        self.thinking = False
        self.end_kind = b""
        self.msg_title = b""
        self.msg_card = NOCARD
        self.msg_lines = []
        self.confirm_card = NOCARD
        self.confirm_dw = 0
        self.pile_cards = b""
        self.known = b""
        self._counted = None          # the Hand whose end was counted

    # -- state -----------------------------------------------------------
    def enter(self, **kw):
        self.dirty = True
        self.overlay = O_NONE
        if kw.get("new_hand"):
            self.src = 0
            self.cur = 0
        now = self.app.clock()
        self._sync()
        m = self.app.match
        if m.to_move is None:
            # Resumed after the hand ended: straight on to its result.
            self.mode = M_END
            self.end_due = now
            self._counted = m.hand
            self._set_end_text(self._last_result())
        elif m.to_move == 0:
            self.mode = M_DISCARD if m.phase == "discard" else M_DRAW
            if self.cur >= self.row.n:
                self.cur = 0
        else:
            self.mode = M_AI
            self.ai_due = now + self.app.settings.speed_ms()
        self._sync_ai_text()

    def _sync(self):
        """Cache what the frame shows. Allocates; once per state change."""
        m = self.app.match
        v = m.view(0)
        cards = v.hand
        dw, groups, dead = L.melds_and_dead(cards, engine.best_melds)
        self.row.build(groups, dead, dw)
        self.dw = v.deadwood
        self.me = m.scores[0]
        self.opp = m.scores[1]
        self.stock = v.stock_size
        up = v.upcard
        self.up = NOCARD if up is None else up
        self.pile_n = m.hand.pile_n
        self.hand_no = m.hand_no
        self.offer = m.phase == "first_upcard"
        self.stock_only = m.hand.stock_only and m.phase == "draw"
        self.limit = v.knock_limit
        self.stop_at = m.rules.stop_at
        self.can_knock = m.phase == "discard" and m.to_move == 0 and self.dw <= self.limit
        self.dirty = True

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

    # -- acting ----------------------------------------------------------
    def _act(self, action, now):
        """Play `action` for the human through Match.act; on a refusal show
        the engine's reason (nothing changed). True when it was played."""
        why = self.app.match.act(action)
        if why is not None:
            self.app.play_sound("error")
            self._message(b"NOT ALLOWED", NOCARD, why)
            return False
        return True

    def _after_move(self, now):
        """Work out what comes next once a move has been played."""
        m = self.app.match
        self._sync()
        if m.to_move is None:
            self._hand_over(now)
        elif m.to_move == 0:
            self.mode = M_DISCARD if m.phase == "discard" else M_DRAW
        else:
            self.mode = M_AI
            self.ai_due = now + self.app.settings.speed_ms()
        self._sync_ai_text()

    def _turn_done(self, now):
        self.app.save_match()
        self.mark = True
        self.mark_until = now + MARK_MS

    def _hand_over(self, now):
        m = self.app.match
        res = self._last_result()
        self.mode = M_END
        self.end_due = now + self.app.settings.speed_ms() + 600
        self._set_end_text(res)
        if self._counted is not m.hand:
            self._counted = m.hand
            self._count_hand(res)
            self.mark = True
            self.mark_until = now + MARK_MS
        if res.kind == "gin":
            self.app.play_sound("gin")
        elif res.kind != "draw":
            self.app.play_sound("knock")

    def _last_result(self):
        """The HandResult of the hand just ended."""
        return self.app.match.results[-1]

    def _count_hand(self, res):
        """Count the ended hand (statistics, save, game record) once."""
        self.app.hand_over(res)

    def _set_end_text(self, res):
        if res.kind == "draw":
            stop = self.app.match.rules.stop_at
            if res.why != "stock":
                self.end_kind = b"HAND IS DRAWN"
            elif stop:
                # V3: the hand ends with cards still in the stock
                self.end_kind = ("STOCK DOWN TO %d" % stop).encode()
            else:
                self.end_kind = b"STOCK RAN OUT"
        elif res.kind == "gin":
            self.end_kind = b"YOU GO GIN!" if res.knocker == 0 else b"CPU GOES GIN!"
        else:
            self.end_kind = b"YOU KNOCK!" if res.knocker == 0 else b"CPU KNOCKS!"

    def _draw_card(self, now):
        m = self.app.match
        before = m.view(0).hand
        if self.offer:
            action = "pass" if self.src == 0 else "draw_upcard"
        else:
            action = "draw_stock" if self.src == 0 else "draw_upcard"
        if not self._act(action, now):
            return
        self.app.play_sound("draw")
        self._after_move(now)
        if self.mode == M_DISCARD:
            # The cursor starts on the card just drawn.
            for c in m.view(0).hand:
                if c not in before:
                    self.cur = self.row.index_of(c)
                    break
        elif action == "pass" and self.mode == M_AI:
            self._turn_done(now)

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
        self.confirm_dw = m.hand.deadwood_without(0, c)
        self.overlay = O_CONFIRM

    def _ai_move(self, now):
        m = self.app.match
        ai = self.app.ai
        try:
            why = m.act(ai.choose(m.view(1)))
        except Exception as e:          # a bug in the AI must not stop the game
            why = str(e)
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

    def _hint(self, now):
        m = self.app.match
        app = self.app
        hp = app.hint_player
        if hp is None:
            hp = app.player_factory("hard", 1)
            app.hint_player = hp
        try:
            action, why = hp.hint(m.view(0))
        except Exception as e:
            self._message(b"NO HINT", NOCARD, str(e))
            return
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
                self.cur = i
        self._message(title, card, why)

    def _message(self, title, card, text):
        self.msg_title = title
        self.msg_card = card
        self.msg_lines = L.wrap(text, 30)[:3]
        self.overlay = O_MSG
        self.dirty = True

    def _open_pile(self):
        m = self.app.match
        v = m.view(0)
        p = v.pile
        p.reverse()
        self.pile_cards = bytes(p)
        self.known = bytes(v.opponent_known)
        self.overlay = O_PILE

    # -- input -----------------------------------------------------------
    def event(self, ev, now):
        if self._event(ev, now):
            self.dirty = True

    def _event(self, ev, now):
        """Handle one button event; True if the frame may have changed."""
        ov = self.overlay
        if ov == O_MSG or ov == O_PILE:
            self.overlay = O_NONE           # any key closes it
            return True
        if ov == O_CONFIRM:
            if ev == btn.A:
                self.overlay = O_NONE
                self._discard(now, True)
                return True
            if ev == btn.B or ev == btn.LONG_B:
                self.overlay = O_NONE
                return True
            return False
        if ov == O_MENU:
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
        mode = self.mode
        if mode == M_END:
            if ev == btn.A:
                self.end_due = now
            return False
        if ev == btn.B:
            self.menu.sel = 0
            self.overlay = O_MENU
            return True
        if ev == btn.LONG_B:
            if mode == M_DRAW or mode == M_DISCARD:
                self._hint(now)
                return True
            return False
        if (mode == M_DRAW or mode == M_DISCARD) and (ev == btn.LEFT or ev == btn.RIGHT):
            return self._move(ev)
        if mode == M_DRAW:
            if ev == btn.A:
                self._draw_card(now)
                return True
        elif mode == M_DISCARD:
            if ev == btn.A:
                self._discard(now, False)
                return True
            if ev == btn.UP or ev == btn.LONG_A:
                self._ask_knock(now)
                return True
        elif mode == M_AI:
            if ev == btn.A:
                self.ai_due = now           # hurry the AI up
        return False

    def _move(self, ev):
        """LEFT or RIGHT while choosing a draw (the other source) or a
        discard (the card cursor, wrapping); False when nothing can move."""
        if self.mode == M_DRAW:
            if self.stock_only:
                return False                # V1: both passed, stock only
            self.src = 1 - self.src
            return True
        n = self.row.n
        if ev == btn.LEFT:
            self.cur = (self.cur - 1) % n
        else:
            self.cur = (self.cur + 1) % n
        return True

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
            self.app.save_match()
            self.app.go("title")

    # -- time ------------------------------------------------------------
    def tick(self, now):
        wait = None
        if self.mark:
            left = ticks_diff(self.mark_until, now)
            if left <= 0:
                self.mark = False
                self.dirty = True
            else:
                wait = left
        if self.overlay == O_MENU or self.overlay == O_PILE:
            return wait                   # paused while the menu is open
        if self.mode == M_AI and self.overlay == O_NONE:
            left = ticks_diff(self.ai_due, now)
            if left <= 0:
                self._ai_move(now)
                left = 0 if self.mode == M_END else ticks_diff(self.ai_due, now)
                if self.mode != M_AI and self.mode != M_END:
                    return wait
            if wait is None or left < wait:
                wait = left
        if self.mode == M_END and self.overlay == O_NONE:
            left = ticks_diff(self.end_due, now)
            if left <= 0:
                res = self._last_result()
                self.app.go(self.result_screen if res.kind == "draw" else self.showdown_screen)
                return 0
            if wait is None or left < wait:
                wait = left
        return wait

    # -- drawing (allocation-free) --------------------------------------
    def draw(self, c):
        c.fill(0)
        self._status(c)
        if self.overlay == O_MENU:
            self._draw_menu(c)
            return
        if self.overlay == O_PILE:
            self._draw_pile(c)
            return
        self._table(c)
        self._texts(c)
        self._hints(c)
        sel = self.cur if self.mode == M_DISCARD else -1
        self.row.draw(c, HAND_Y, sel, True)
        if self.overlay == O_MSG:
            self._draw_message(c)
        elif self.overlay == O_CONFIRM:
            self._draw_confirm(c)

    def _status(self, c):
        c.fill_rect(0, 0, 128, 7, 1)
        x = c.text(b"YOU", 2, 1, 0)
        c.num(self.me, x + 2, 1, 0)
        x = c.text(b"CPU", 33, 1, 0)
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
        x = c.text(b"DW", 96, 1, 0)
        c.num(self.dw, x + 2, 1, 0)
        if self.mark:
            L.save_mark(c, 122, 32, 1)

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
            glyphs.draw_back(c, STOCK_X, y, s_up)
            if s_up:
                c.invert_rect(STOCK_X + 1, y - 2, cw - 2, ch - 2)
        else:
            glyphs.draw_slot(c, STOCK_X, y)
        if self.offer:
            c.text(b"PASS", STOCK_X - 2, y + 16, 1)
        else:
            n = self.stock
            c.num(n, STOCK_X + 5 - (4 if n >= 10 else 2), y + 16, 1)
        if self.stop_at:
            # V3: the hand ends when this many stock cards are left
            x = c.text(b"END", STOCK_X - 2, y + 22, 1)
            c.num(self.stop_at, x + 1, y + 22, 1)
        p_up = sel and self.src == 1
        if self.up != NOCARD:
            if self.pile_n > 1:
                c.hline(PILE_X + 2, y + ch, cw - 2, 1)
                c.vline(PILE_X + cw, y + 2, ch - 2, 1)
            glyphs.draw_card(c, self.up, PILE_X, y, p_up, p_up)
        else:
            glyphs.draw_slot(c, PILE_X, y)

    def _texts(self, c):
        x0 = TEXT_X
        y1 = 9
        y2 = 18
        mode = self.mode
        if self.thinking:
            c.text(b"CPU THINKING", x0, y1, 1, fb.BIG)
        elif self.ai_took == NOCARD and self.ai_out == NOCARD:
            x = c.text(b"HAND ", x0, y1, 1, fb.BIG)
            c.num(self.hand_no, x, y1, 1, fb.BIG)
            c.text(b"YOU START", x0, y2, 1, fb.BIG)
        else:
            t = self.ai_took
            if t == STOCK:
                c.text(b"CPU DREW STOCK", x0, y1, 1, fb.BIG)
            elif t == PASSED:
                c.text(b"CPU PASSED", x0, y1, 1, fb.BIG)
            elif t != NOCARD:
                x = c.text(b"CPU TOOK ", x0, y1, 1, fb.BIG)
                L.big_card(c, t, x, y1)
            if self.ai_out != NOCARD:
                x = c.text(b"KNOCKED " if self.ai_knock else b"DISCARDED ", x0, y2, 1, fb.BIG)
                L.big_card(c, self.ai_out, x, y2)
        c.hline(x0, 28, 128 - x0, 1)
        y3 = 31
        if mode == M_END:
            c.text(self.end_kind, x0, y3, 1, fb.BIG)
        elif mode == M_AI:
            c.text(b"CPU'S TURN", x0, y3, 1, fb.BIG)
        else:
            self._your_turn(c, x0, y3)

    def _your_turn(self, c, x0, y3):
        """The line that says what the human's draw or discard is."""
        if self.mode == M_DRAW:
            if self.offer and self.up != NOCARD:
                # V1: the upcard is offered
                x = c.text(b"TAKE ", x0, y3, 1, fb.BIG)
                x = L.big_card(c, self.up, x, y3)
                c.text(b"OR PASS", x + 4, y3, 1, fb.BIG)
            elif self.stock_only:
                c.text(b"BOTH PASSED", x0, y3, 1, fb.BIG)
            else:
                c.text(b"YOUR DRAW", x0, y3, 1, fb.BIG)
        elif self.can_knock:
            c.text(b"YOU CAN GIN!" if self.dw == 0 else b"YOU CAN KNOCK", x0, y3, 1, fb.BIG)
        else:
            c.text(b"YOUR DISCARD", x0, y3, 1, fb.BIG)

    def _hints(self, c):
        y = HINT_Y
        mode = self.mode
        if mode == M_DRAW:
            if self.stock_only:
                x = L.hint(c, b"A", b"DRAW FROM STOCK", 0, y)
            else:
                x = L.hint(c, b"<>", b"PICK", 0, y)
                x = L.hint(c, b"A", b"PASS" if self.offer and self.src == 0 else b"TAKE", x, y)
            L.hint(c, b"B", b"MENU", x, y)
        elif mode == M_DISCARD:
            x = L.key(c, b"<>", 0, y)
            x = L.hint(c, b"A", b"DISCARD", x, y)
            x = L.hint(c, L.KEY_UP, b"GIN" if self.limit == 0 else b"KNOCK", x, y)
            L.hint(c, b"B", b"MENU", x, y)
        elif mode == M_AI:
            x = L.hint(c, b"A", b"HURRY", 0, y)
            L.hint(c, b"B", b"MENU", x, y)
        else:
            L.hint(c, b"A", b"CONTINUE", 0, y)

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

    def _draw_menu(self, c):
        c.fill_rect(0, 0, 128, 64, 0)
        L.title_bar(c, b"PAUSED")
        self.menu.draw(c, 0, 10, 128, 5)
        c.fill_rect(0, 56, 128, 8, 0)
        x = L.hint(c, b"A", b"OK", 0, 58)
        L.hint(c, b"B", b"BACK", x, 58)

    def _draw_pile(self, c):
        c.fill_rect(0, 0, 128, 64, 0)
        L.title_bar(c, b"DISCARD PILE")
        p = self.pile_cards
        n = len(p)
        x = 2
        y = 12
        for i in range(n):
            L.small_card(c, p[i], x, y)
            x += 10
            if x > 118:
                x = 2
                y += 7
        if not n:
            c.text(b"EMPTY", 2, y, 1)
        c.text(b"TOP CARD FIRST", 2, 40, 1)
        x = c.text(b"CPU KEPT FROM THE PILE:", 2, 48, 1)
        k = self.known
        if not len(k):
            c.text(b"NONE", x + 4, 48, 1)
        x += 4
        for i in range(len(k)):
            x = L.small_card(c, k[i], x, 48)
        L.hint(c, b"B", b"BACK", 0, 58)
