"""The play screen of the three-player box game (V6).

    +--------------------------------------------------------------+
    | YOU CAP 34 | P2 BOX 12 | P3 SIT 50                            |  status
    | [##] [Qs]  P2 TOOK Qs                                         |
    | [##] [  ]  [SITTER] DISCARD 9h                                |  table
    |  31        YOUR DISCARD                                       |
    |  END 2                                                        |
    | [<>] [A] DISCARD [^] KNOCK [B] MENU                  DW 12    |  keys
    | the hand: yours, or the captain's while you sit out           |
    +--------------------------------------------------------------+

The status row always shows the three players with their roles this hand
(BOX, CAP captain, SIT sitter) and their scores. The table, the hand row,
the menu, the discard pile, hints and the knock confirmation are the
two-player screen's (firmware/screens/play.py); the game goes through
BoxMatch.act / advise only.

The human (player 0) may hold any role:
- box or captain: plays as in the two-player game against the AI in the
  other seat; the texts say what that player did on its last turn.
- captain: the AI sitter's advice (engine.ai.box_ai.sitter_advice: the AI
  hint on the captain's view) is shown on the table ("SITTER: TAKE 7h")
  and recorded with BoxMatch.advise; holding B shows it with its reason.
  The captain decides.
- sitter: the captain's cards are shown; the AI moves come at the AI
  speed setting (the captain's twice as slow, to leave time for advice).
  On the captain's turn A opens the advice: LEFT/RIGHT pick stock or pile
  (or a card), A advises that draw or discard, UP a knock with the card,
  B goes back. The AI captain then weighs it (engine.ai.box_ai.consider) and
  answers: "P2 FOLLOWS" or "P2 DECLINES" with its reason.

An AI captain with an AI sitter takes the sitter's advice through the
same consider(). The hand's end goes on to the box showdown / result.
"""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import layout as L
from firmware.screens.play import Play
from firmware.screens.play_modes import (M_DRAW, M_DISCARD, M_AI, M_END, O_NONE, O_MSG,
                                         NOCARD, STOCK, PASSED, TEXT_X, TEXT_Y1, TEXT_Y2,
                                         RULE_Y, TURN_Y, HINT_Y, MARK_X, MARK_Y)
from firmware.screens.box_common import NAMES, ROLE_TAGS
import engine
from engine.hand import action_code

# the AI sitter's advice to a human captain, by kind
A_NONE = 0
A_TAKE = 1
A_STOCK = 2
A_PASS = 3
A_DISCARD = 4
A_KNOCK = 5
_ADV_WORDS = (b"", b"TAKE", b"DRAW STOCK", b"PASS", b"DISCARD", b"KNOCK")


class BoxPlay(Play):
    name = "box_play"
    partial_take = False               # its rows follow the roles: drawn whole
    result_screen = "box_result"
    showdown_screen = "box_showdown"

    def __init__(self, app):
        super().__init__(app)
        self.roles = (0, 1, 2)            # box, captain, sitter of the hand
        self.role_of = bytearray(3)       # player -> 0 box, 1 captain, 2 sitter
        self.score3 = [0, 0, 0]
        self.sitter = False               # the human sits this hand out
        self.committed = False            # the hand's deal is a committed one
        self.advising = False             # the human sitter picks advice
        self.who = 1                      # whose last turn the texts show
        self.mover = 1                    # the player to move
        self.adv_kind = A_NONE            # the AI sitter's advice to the human
        self.adv_card = NOCARD
        self.adv_words = ""

    # -- state -----------------------------------------------------------
    def enter(self, **kw):
        self.advising = False
        super().enter(**kw)
        self._sync_turn(self.app.clock())

    def _sync(self):
        super()._sync()
        m = self.app.match
        r = m.hand_roles
        self.roles = r
        for i in range(3):
            self.role_of[r[i]] = i
        self.sitter = r[2] == 0
        p = m.to_move
        self.mover = r[1] if p is None else p
        self.committed = m.hand.deal is None     # a committed deal: fp is DEAL #...

    def _sync_scores(self):
        """The three totals; once the hand is over, as they were until the
        showdown shows why they change."""
        m = self.app.match
        for i in range(3):
            self.score3[i] = m.scores[i]
        if m.to_move is None:
            res, roles = m.results[-1]
            if res.winner is not None:
                # hand seat 1 is the box, seat 0 the captain
                self.score3[roles[0] if res.winner == 1 else roles[1]] -= res.points

    def _ai_delay(self):
        """ms before the next AI move: the AI speed setting, twice that for
        a captain while the human sits out (time to give advice)."""
        ms = self.app.settings.speed_ms()
        if self.sitter and self.app.match.to_move == self.roles[1]:
            return 2 * ms
        return ms

    def _sync_turn(self, now):
        """After every move: the advice for a human captain, and more time
        before an AI captain moves while the human sits out."""
        self.adv_kind = A_NONE
        if self.mode == M_AI:
            self.ai_due = now + self._ai_delay()
        elif (self.mode == M_DRAW or self.mode == M_DISCARD) and not self.advising \
                and self.roles[1] == 0:
            self._sitter_advice()

    def _sitter_advice(self):
        """The AI sitter advises the human captain (V6)."""
        from engine.ai.box_ai import sitter_advice
        m = self.app.match
        sit = self.roles[2]
        try:
            act, words = sitter_advice(self.app.session.opponent.players()[sit], m.view(sit))
        except Exception:             # an AI bug must not stop the game
            return
        if m.advise(sit, act) is not None:
            return
        self.adv_words = words
        self.adv_card = NOCARD
        if act == "draw_upcard":
            self.adv_kind = A_TAKE
            self.adv_card = self.up
        elif act == "draw_stock":
            self.adv_kind = A_STOCK
        elif act == "pass":
            self.adv_kind = A_PASS
        else:
            self.adv_kind = A_KNOCK if act.startswith("knock") else A_DISCARD
            self.adv_card = engine.card(act[-2:])
        self.dirty = True

    def _sync_ai_text(self):
        """The last turn of the other player (the latest turn of either
        while the human sits out), read back from the hand's log."""
        m = self.app.match
        self.dirty = True
        s = self._read_last_turn(m.seat_of(0))
        self.who = self.roles[1] if s is None else m.player_at(s)

    def _after_move(self, now):
        super()._after_move(now)
        self._sync_turn(now)

    # -- the AI players ----------------------------------------------------
    # The session's opponent (firmware/boxgame.py: BoxAis) thinks in slices
    # in the pause and moves when it ends (Play.tick, AiTurn._ai_move).

    def _moved(self, now, turn):
        if self.mode == M_END:
            pass
        elif self.app.match.hand.turn != turn:
            self._turn_done(now)
            self.app.play_sound("discard")
        else:
            self.app.play_sound("draw")
        answer = self.app.session.opponent.answer
        if answer is not None:
            # the captain's answer to the human sitter's advice
            title = NAMES[answer[0]] + (b" FOLLOWS" if answer[1] else b" DECLINES")
            self._message(title, NOCARD, answer[2])

    # -- the human ---------------------------------------------------------
    def _seat(self):
        """The seat of the hand shown: the human's, or the captain's (0)
        while the human sits out."""
        s = self.app.match.seat_of(0)
        return 0 if s is None else s

    def _hint(self, now):
        if self.adv_kind == A_NONE:
            super()._hint(now)
            return
        # a human captain: the sitter's advice and why
        if self.adv_kind == A_TAKE:
            self.src = 1
        elif self.adv_kind == A_STOCK or self.adv_kind == A_PASS:
            self.src = 0
        else:
            i = self.row.index_of(self.adv_card)
            if i >= 0:
                self.cur = i
        self._message(b"SITTER: " + _ADV_WORDS[self.adv_kind], self.adv_card,
                      self.adv_words)

    def _open_advice(self):
        m = self.app.match
        self.advising = True
        self.mode = M_DISCARD if m.phase == "discard" else M_DRAW
        self.src = 0
        if self.cur >= self.row.n:
            self.cur = 0
        self._select(self.cur)

    def _advise(self, action, now):
        """The human sitter advises the captain (BoxMatch.advise)."""
        m = self.app.match
        why = m.advise(0, action)
        if why is not None:
            try:
                why = m.hand.check(action_code(action)) or why
            except ValueError:
                pass
            self.app.play_sound("error")
            self._message(b"NOT ALLOWED", NOCARD, why)
            return
        self._close_advice(now)

    def _close_advice(self, now):
        """Back to watching: the captain moves after the AI pause."""
        self.advising = False
        self.mode = M_AI
        self.ai_due = now + self.app.settings.speed_ms()
        self._select(self.cur)

    def _advice_event(self, ev, now):
        if ev == btn.B:
            self._close_advice(now)
            return True
        if ev == btn.LONG_B:
            self._hint(now)             # the AI's view of the captain's move
            return True
        if ev == btn.LEFT or ev == btn.RIGHT:
            return self._move(ev)
        if self.mode == M_DRAW:
            if ev == btn.A:
                if self.src == 1:
                    self._advise("draw_upcard", now)
                else:
                    self._advise("pass" if self.offer else "draw_stock", now)
                return True
            return False
        c = engine.card_text(self.row.cards[self.cur])
        if ev == btn.A:
            self._advise("discard:" + c, now)
            return True
        if ev == btn.UP or ev == btn.LONG_A:
            self._advise("knock:" + c, now)
            return True
        return False

    def _event(self, ev, now):
        if self.overlay == O_MSG and self.mode == M_AI:
            # any key closes the message; the next AI move comes a full
            # pause later (time to advise the captain's next decision)
            super()._event(ev, now)
            self.ai_due = now + self._ai_delay()
            return True
        if self.overlay == O_NONE:
            if self.advising:
                return self._advice_event(ev, now)
            if self.mode == M_AI and self.sitter and ev == btn.A \
                    and self.app.match.to_move == self.roles[1]:
                self._open_advice()
                return True
        return super()._event(ev, now)

    def _menu_pick(self, i, now):
        if i == 1 and self.sitter and not self.advising:
            self._message(b"HINT", NOCARD,
                          "You sit out this hand: on the captain's turn, A gives advice.")
        else:
            super()._menu_pick(i, now)

    # -- the end of the hand ------------------------------------------------
    def _hand_over(self, now):
        self.advising = False
        super()._hand_over(now)

    def _last_result(self):
        return self.app.match.results[-1][0]     # (HandResult, roles)

    def _set_end_text(self, res):
        if res.kind == "draw":
            super()._set_end_text(res)
            return
        p = self.app.match.player_at(res.knocker)
        if res.kind == "gin":
            self.end_kind = b"YOU GO GIN!" if p == 0 else NAMES[p] + b" GOES GIN!"
        else:
            self.end_kind = b"YOU KNOCK!" if p == 0 else NAMES[p] + b" KNOCKS!"

    # -- drawing (allocation-free) ----------------------------------------
    def _status(self, c):
        """YOU BOX 34 | P2 CAP 12 | P3 SIT 50: every player's role and score."""
        c.fill_rect(0, 0, 128, 7, 1)
        x = 1
        for p in range(3):
            if p:
                c.vline(x + 1, 0, 7, 0)
                x += 5
            x = c.text(NAMES[p], x, 1, 0) + 2
            x = c.text(ROLE_TAGS[self.role_of[p]], x, 1, 0) + 2
            x = c.num(self.score3[p], x, 1, 0)
        if self.mark:
            L.save_mark(c, MARK_X, MARK_Y, 1)

    def _texts(self, c):
        x0 = TEXT_X
        y1 = TEXT_Y1
        y2 = TEXT_Y2
        who = NAMES[self.who]
        if self.thinking:
            x = c.text(who, x0, y1, 1, fb.BIG)
            c.text(b" THINKING", x, y1, 1, fb.BIG)
        elif self.ai_took == NOCARD and self.ai_out == NOCARD:
            if self.committed and self.fresh:
                # the commitment to the deal (engine/deal.py) while the
                # hand is new; the hand result's proof page reveals it
                c.text(self.fp, x0, y1, 1, fb.BIG)
            else:
                x = c.text(b"HAND ", x0, y1, 1, fb.BIG)
                c.num(self.hand_no, x, y1, 1, fb.BIG)
            cap = self.roles[1]
            x = c.text(NAMES[cap], x0, y2, 1, fb.BIG)
            c.text(b" START" if cap == 0 else b" STARTS", x, y2, 1, fb.BIG)
        else:
            t = self.ai_took
            if t != NOCARD:
                x = c.text(who, x0, y1, 1, fb.BIG)
                if t == STOCK:
                    c.text(b" DREW STOCK", x, y1, 1, fb.BIG)
                elif t == PASSED:
                    c.text(b" PASSED", x, y1, 1, fb.BIG)
                else:
                    x = c.text(b" TOOK ", x, y1, 1, fb.BIG)
                    L.big_card(c, t, x, y1)
            if self.ai_out != NOCARD and self.adv_kind == A_NONE:
                x = c.text(b"KNOCKED " if self.ai_knock else b"DISCARDED ", x0, y2, 1, fb.BIG)
                L.big_card(c, self.ai_out, x, y2)
        if self.adv_kind != A_NONE:
            # a human captain: the sitter's advice
            c.fill_rect(x0, y2, 128 - x0, 8, 0)
            x = L.key(c, b"SITTER", x0, y2 + 1)
            x = c.text(_ADV_WORDS[self.adv_kind], x, y2, 1, fb.BIG)
            if self.adv_card != NOCARD:
                L.big_card(c, self.adv_card, x + 6, y2)
        self._turn_line(c)

    def _turn_line(self, c):
        if not self.advising:
            super()._turn_line(c)
            return
        x0 = TEXT_X
        c.hline(x0, RULE_Y, 128 - x0, 1)
        x = c.text(b"ADVICE FOR ", x0, TURN_Y, 1, fb.BIG)
        x = c.text(NAMES[self.roles[1]], x, TURN_Y, 1, fb.BIG)
        c.text(b"?", x, TURN_Y, 1, fb.BIG)

    def _ai_line(self, c, x0, y):
        x = c.text(NAMES[self.mover], x0, y, 1, fb.BIG)
        c.text(b"'S TURN", x, y, 1, fb.BIG)

    def _redraw_dw(self, c):
        """DW stands at the right of the key hints here: that row again."""
        self._redraw_hints(c)

    def _hints(self, c):
        y = HINT_Y
        mode = self.mode
        if self.advising:
            if mode == M_DRAW:
                x = 0
                if not self.stock_only:
                    x = L.hint(c, b"<>", b"PICK", x, y)
                x = L.hint(c, b"A", b"ADVISE", x, y)
            else:
                x = L.key(c, b"<>", 0, y)
                x = L.hint(c, b"A", b"ADVISE", x, y)
                x = L.hint(c, L.KEY_UP, b"KNOCK", x, y)
            x = L.hint(c, b"B", b"BACK", x, y)
        elif mode == M_AI and self.sitter and self.mover == self.roles[1]:
            x = L.hint(c, b"A", b"ADVISE", 0, y)
            x = L.hint(c, b"B", b"MENU", x, y)
        else:
            x = super()._hints(c)
        # the deadwood of the hand shown; while the human sits out, whose
        # cards those are (the captain's): P3'S CARDS, or P3 where the
        # hints leave no room
        r = 127 - fb.num_width(self.dw)
        c.num(self.dw, r, y, 1)
        r -= 9
        c.text(b"DW", r, y, 1)
        if self.sitter:
            cap = NAMES[self.roles[1]]
            w = fb.text_width(cap) + fb.text_width(b"'S CARDS")
            if r - w - 4 >= x:
                c.text(b"'S CARDS", c.text(cap, r - w - 4, y, 1), y, 1)
            else:
                c.text(cap, r - fb.text_width(cap) - 4, y, 1)
        return x
