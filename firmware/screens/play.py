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

This module holds the screen's state, the switch between its modes and
time; each mode's input and drawing live in their own module (see
play_modes.py): the Play class is made of those mixins. B opens the menu
(hint, discard pile, rules, quit); holding B asks for a hint at once.
Every move goes through Match.act; an illegal one shows the engine's
reason and changes nothing.

Redraw is allocation-free: _sync() caches everything the frame needs when
the game state changes (the meld grouping is built once per hand change);
draw() only reads those fields. A cursor move redraws only what it changes
(redraw(): the hand band and DW, or the table), and so does a take (the
table, the turn line, the key hints, the hand and DW: not the scores nor
the other player's last turn), each region cleared and drawn as the full
frame draws it, so the pixels are the same.
"""

from firmware import buttons as btn
from firmware.buttons import ticks_diff
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.play_modes import (  # noqa: F401  (the modes, for other screens and tests)
    M_DRAW, M_DISCARD, M_AI, M_END, O_NONE, O_MSG, O_CONFIRM, O_MENU, O_PILE,
    NOCARD, STOCK, PASSED, HAND_Y, TEXT_X, RULE_Y, TURN_Y, HINT_Y, MARK_MS,
    P_HAND, P_TABLE, P_MARK, P_TURN, HAND_TOP, TABLE_Y, TABLE_LIFT, MARK_X, MARK_Y)
from firmware.screens.play_table import Table
from firmware.screens.play_draw import YourDraw
from firmware.screens.play_discard import YourDiscard
from firmware.screens.play_ai import AiTurn
from firmware.screens.play_overlays import Overlays, new_menu
from firmware.screens.play_end import HandEnd
from firmware.display import fb
import engine


class Play(Screen, Table, YourDraw, YourDiscard, AiTurn, HandEnd, Overlays):
    name = "play"
    partial_take = True              # a take redraws only what it changes (play_draw.py)
    result_screen = "result"         # where an ended hand goes: drawn ...
    showdown_screen = "showdown"     # ... or won

    def __init__(self, app):
        super().__init__(app)
        self.row = L.HandRow()
        self.mode = M_DRAW
        self.overlay = O_NONE
        self.src = 0                  # draw cursor: 0 stock (or pass), 1 pile
        self.cur = 0                  # discard cursor: index in self.row
        self.ai_due = 0                # when the other seat's pause ends (play_ai.py)
        self.end_due = 0
        self.mark_until = 0
        self.mark = False
        self.menu = new_menu()
        # cached for draw()
        self.me = 0
        self.opp = 0
        self.dw = 0                   # DW: the deadwood shown in the status row
        self.best_dw = 0              # with 11 cards: after the best discard
        self.stock = 0
        self.up = NOCARD
        self.pile_n = 0
        self.hand_no = 1
        self.fp = b""                 # the deal's commitment (or fingerprint) text
        self.cut_tag = b""            # b" CUT ABCD" in a match with a cut
        self.fresh = True             # no move made yet in this hand
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
        else:
            self.mode = M_AI
            self.ai_due = now + self.app.settings.speed_ms()
        self.app.session.opponent.forget()
        self._select(self.cur)
        self._sync_ai_text()

    def _sync(self):
        """Cache what the frame shows. Allocates; once per state change."""
        m = self.app.match
        v = m.view(0)
        cards = v.hand
        dw, groups, dead = L.melds_and_dead(cards, engine.best_melds)
        self.row.build(groups, dead, dw)
        self.best_dw = v.deadwood
        self._sync_scores()
        self.stock = v.stock_size
        up = v.upcard
        self.up = NOCARD if up is None else up
        self.pile_n = m.hand.pile_n
        self.hand_no = m.hand_no
        # While the hand is new: the commitment to its deal (engine/deal.py;
        # the hand result's proof page reveals the seed and nonce that give
        # it), or for a match dealing by deal numbers the deal's fingerprint.
        h = m.hand
        self.fp = b"DEAL #" + (h.commit if h.deal is None
                               else engine.fingerprint_text(h.deal)).encode()
        # beside HAND n, in a match with a player's cut (engine/cut.py):
        # the cut that enters every deal, with the DEAL # it gave (a link
        # match's cut is the other board's secret: not shown)
        cut = m.cut
        self.cut_tag = b"" if cut is None or m.seats == "link link" else b" CUT " + cut.encode()
        self.fresh = not m.hand.log
        self.offer = m.phase == "first_upcard"
        self.stock_only = m.hand.stock_only and m.phase == "draw"
        self.limit = v.knock_limit
        self.stop_at = m.rules.stop_at
        self.can_knock = m.phase == "discard" and m.to_move == 0 and self.best_dw <= self.limit
        if self.cur >= self.row.n:
            self.cur = 0
        self.dw = self.best_dw
        self.dirty = True

    def _sync_scores(self):
        """Both totals for the status row. Once the hand is over they stay
        as they were until the showdown shows why they change."""
        m = self.app.match
        self.me = m.scores[0]
        self.opp = m.scores[1]
        if m.to_move is None:
            res = self._last_result()
            if res.winner == 0:
                self.me -= res.points
            elif res.winner == 1:
                self.opp -= res.points

    # -- acting ----------------------------------------------------------
    def _act(self, action, now):
        """Play `action` for the human through Match.act; on a refusal show
        the engine's reason (nothing changed). True when it was played."""
        m = self.app.match
        why = m.act(action)
        if why is not None:
            self.app.play_sound("error")
            self._message(b"NOT ALLOWED", NOCARD, why)
            return False
        told = self.app.session.opponent.told
        if told is not None:
            told(m)                       # (the other board's: the move goes to it)
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
        self.app.session.opponent.forget()
        self._select(self.cur)
        self._sync_ai_text()

    def _turn_done(self, now):
        self.app.saving.save_match()
        self.mark = True
        self.mark_until = now + MARK_MS

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
            return self._confirm_event(ev, now)
        if ov == O_MENU:
            return self._menu_event(ev, now)
        mode = self.mode
        if mode == M_END:
            return self._end_event(ev, now)
        if ev == btn.B:
            self._open_menu()
            return True
        if ev == btn.LONG_B:
            if mode == M_DRAW or mode == M_DISCARD:
                self._hint(now)
                return True
            return False
        if mode == M_DRAW:
            return self._draw_event(ev, now)
        if mode == M_DISCARD:
            return self._discard_event(ev, now)
        return self._ai_event(ev, now)

    def _move(self, ev):
        """LEFT or RIGHT while choosing a draw (the other source) or a
        discard (the card cursor, wrapping). Sets `part` to what it
        changed and returns False: no full frame is needed."""
        if self.mode == M_DRAW:
            return self._pick_source()
        return self._move_cursor(ev)

    # -- time ------------------------------------------------------------
    def tick(self, now):
        wait = None
        if self.mark:
            left = ticks_diff(self.mark_until, now)
            if left <= 0:
                self.mark = False
                self.part |= P_MARK
            else:
                wait = left
        opp = self.app.session.opponent
        if self.overlay == O_MENU or self.overlay == O_PILE:
            if opp.busy is not None:
                opp.think(self.app.match)  # the AI thinks on, a slice a tick
                return 0
            return wait                   # paused while the menu is open
        if self.mode == M_AI and self.overlay == O_NONE:
            if opp.plan is None and opp.busy is None and opp.plans_ahead:
                if self.dirty:
                    return 0              # show CPU THINKING first, then decide
                # Decide now, while the AI speed setting's pause runs: the
                # pause hides the thinking instead of adding to it.
                opp.think(self.app.match)
                now = self.app.clock()
            elif opp.busy is not None:
                # one slice of the AI's work a tick, the frame and the
                # buttons served between slices
                opp.think(self.app.match)
                now = self.app.clock()
            left = ticks_diff(self.ai_due, now)
            if opp.busy is not None or (opp.plan is None and opp.plans_ahead):
                return 0                  # work remains: the move waits for it
            if left <= 0 or not opp.plans_ahead:   # (the other board's: asked every step)
                self._ai_move(now)
                left = 0 if self.mode == M_END else ticks_diff(self.ai_due, now)
                if self.mode != M_AI and self.mode != M_END:
                    return wait
            if wait is None or left < wait:
                wait = left
        if self.mode == M_END and self.overlay == O_NONE:
            left = self._end_tick(now)
            if left is not None and (wait is None or left < wait):
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
        self._hand(c)
        if self.overlay == O_MSG:
            self._draw_message(c)
        elif self.overlay == O_CONFIRM:
            self._draw_confirm(c)

    def redraw(self, c, part):
        """Only the regions that changed (P_HAND, P_TABLE: a cursor move;
        with P_TURN, a take; P_MARK: the save mark went out): each is
        cleared and drawn by what draws it in the full frame, and nothing
        else draws there. With an overlay open, the whole frame."""
        if self.overlay != O_NONE:
            self.draw(c)
            return
        if part & P_TABLE:
            top = TABLE_Y - TABLE_LIFT
            c.fill_rect(0, top, TEXT_X, HINT_Y - 1 - top, 0)
            self._table(c)
            if self.offer:
                self._redraw_hints(c)    # V1: A says PASS or TAKE
        if part & P_TURN:
            # the turn line's text (the rule above it, the save mark at its
            # right and the table at its left stay), then the key hints
            c.fill_rect(TEXT_X, TURN_Y, MARK_X - TEXT_X, 7, 0)
            self._turn_line(c)
            self._redraw_hints(c)
        if part & P_HAND:
            c.fill_rows(HAND_TOP, 64 - HAND_TOP, 0)
            self._hand(c)
            self._redraw_dw(c)
        if part & P_MARK:
            c.fill_rect(MARK_X, MARK_Y, 5, 5, 0)
            if self.mark:
                L.save_mark(c, MARK_X, MARK_Y, 1)

    def _hand(self, c):
        self.row.draw(c, HAND_Y, self.cur if self.mode == M_DISCARD else -1, True)

    def _redraw_hints(self, c):
        c.fill_rows(HINT_Y - 1, 7, 0)
        self._hints(c)

    def _turn_line(self, c):
        """Under a rule: whose turn it is and what to do, or how the hand
        ended."""
        x0 = TEXT_X
        c.hline(x0, RULE_Y, 128 - x0, 1)
        mode = self.mode
        if mode == M_END:
            c.text(self.end_kind, x0, TURN_Y, 1, fb.BIG)
        elif mode == M_AI:
            self._ai_line(c, x0, TURN_Y)
        elif mode == M_DRAW:
            self._draw_line(c, x0, TURN_Y)
        else:
            self._discard_line(c, x0, TURN_Y)

    def _hints(self, c):
        """The key hints of the mode; returns the x after them."""
        mode = self.mode
        if mode == M_DRAW:
            return self._draw_hints(c, HINT_Y)
        if mode == M_DISCARD:
            return self._discard_hints(c, HINT_Y)
        if mode == M_AI:
            return self._ai_hints(c, HINT_Y)
        return L.hint(c, b"A", b"CONTINUE", 0, HINT_Y)
