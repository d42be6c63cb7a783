"""The end of a match (R12): the winner, the final score, hands won and,
under the bonus rules (V4), the bonus breakdown. A goes back to the title
(the match save is gone; the statistics already count the match)."""

from firmware import fb
from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L

# A 15x12 trophy, column bytes (2 pages).
_CUP = fb.sprites(
    b"\x00\x0e\x11\x11\x1f\xff\xff\xff\xff\xff\x1f\x11\x11\x0e\x00"
    b"\x00\x00\x00\x08\x08\x0c\x0f\x0f\x0f\x0c\x08\x08\x00\x00\x00", 15, 12)[0]


class MatchEnd(Screen):
    name = "match_end"

    def __init__(self, app):
        super().__init__(app)
        self.end = None
        self.scores = [0, 0]
        self.hands = 0

    def enter(self, **kw):
        self.dirty = True
        m = self.app.match
        self.end = m.end
        self.scores = list(m.scores)
        self.hands = len(m.results)
        self.app.play_sound("win" if m.end.winner == 0 else "lose")
        # The match is over: nothing left to resume.
        self.app.save_match()

    def event(self, ev, now):
        if ev == btn.A or ev == btn.B:
            self.app.match = None
            self.app.go("title")

    def draw(self, c):
        c.fill(0)
        e = self.end
        L.title_bar(c, b"MATCH OVER")
        won = e.winner == 0
        if won:
            c.glyph(_CUP, 4, 13)
            c.glyph(_CUP, 109, 13)
        L.text_c(c, b"YOU WIN!" if won else b"CPU WINS", 15, 1, fb.BIG)
        x = c.text(b"YOU", 18, 26, 1, fb.BIG)
        x = c.num(self.scores[0], x + 6, 26, 1, fb.BIG)
        x = c.text(b"-", x + 6, 26, 1, fb.BIG)
        x = c.num(self.scores[1], x + 6, 26, 1, fb.BIG)
        c.text(b"CPU", x + 6, 26, 1, fb.BIG)
        bonus = e.game_bonus + e.hand_bonus + e.shutout_bonus
        y = 36 if bonus else 37
        x = c.text(b"HANDS WON", 2, y, 1)
        x = c.num(e.hands_won[0], x + 4, y, 1)
        x = c.text(b"-", x + 2, y, 1)
        x = c.num(e.hands_won[1], x + 2, y, 1)
        x = c.text(b"OF", x + 4, y, 1)
        c.num(self.hands, x + 4, y, 1)
        if bonus:
            # V4: game 100, 25 a hand won, shutout doubles the hand points
            x = c.text(b"BONUS: GAME", 2, 43, 1)
            x = c.num(e.game_bonus, x + 4, 43, 1)
            x = c.text(b"HANDS", x + 6, 43, 1)
            c.num(e.hand_bonus, x + 4, 43, 1)
            x = 2
            if e.shutout_bonus:
                x = c.text(b"SHUTOUT", x, 50, 1)
                x = c.num(e.shutout_bonus, x + 4, 50, 1) + 6
            x = c.text(b"YOU" if won else b"CPU", x, 50, 1)
            x = c.text(b"TOTAL", x + 4, 50, 1)
            c.num(e.total, x + 4, 50, 1)
        else:
            st = self.app.stats
            x = c.text(b"MATCHES WON", 2, 45, 1)
            x = c.num(st.matches_won, x + 4, 45, 1)
            x = c.text(b"OF", x + 4, 45, 1)
            c.num(st.matches, x + 4, 45, 1)
        L.hint(c, b"A", b"TITLE", 0, 58)
