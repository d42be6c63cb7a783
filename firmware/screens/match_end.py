"""The end of a match (R12): the winner, the final score, hands won and,
under the bonus rules (V4), the bonus breakdown. A goes back to the title
(the match save is gone; the statistics already count the match). A line
sums up the review of the player's hands; DOWN shows the match review
(firmware/screens/review.py). A match with a cut (engine/cut.py) opens on
its seal page (firmware/screens/seal.py, a screen of its own: its code is
loaded at the match end only), which A leaves for this one; UP here shows
the seal again.

V4 breakdown, the winner's side, one line each, figures on the right:

    HAND POINTS                    126
    GAME BONUS                     100
    25 X 3 HANDS WON                75
    SHUTOUT: ALL HANDS WON         126   (or NO SHUTOUT  0)
    ----------------------------------
    YOUR TOTAL                     427   (CPU TOTAL when the CPU won)
"""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.result import sealed

# A 15x12 trophy, column bytes (2 pages).
_CUP = fb.sprites(
    b"\x00\x0e\x11\x11\x1f\xff\xff\xff\xff\xff\x1f\x11\x11\x0e\x00"
    b"\x00\x00\x00\x08\x08\x0c\x0f\x0f\x0f\x0c\x08\x08\x00\x00\x00", 15, 12)[0]


# the small font's characters in a line drawn at x = 2 (4 px each, 3 px the last)
LINE_CHARS = 31


def review_summary(total, n):
    """b'REVIEW -1.0 EACH, 60 DECISIONS' (b'0.0' when the cost rounds to
    nothing), shorter where a long match's count would not fit the line."""
    from engine.review_text import cost
    each = cost(total, n)
    line = "REVIEW %s EACH, %d DECISIONS" % (each, n)
    if len(line) > LINE_CHARS:
        line = "REVIEW %s EACH OF %d" % (each, n)
    return line.encode()

def cups(c, y):
    """The winner's two trophies, at the left and right edges."""
    c.glyph(_CUP, 4, y)
    c.glyph(_CUP, 109, y)


def match_over(app, winner):
    """On entering a match end: the win or lose sound, and the save goes
    (the match is over: nothing left to resume)."""
    app.play_sound("win" if winner == 0 else "lose")
    app.saving.save_match()


def leave(app, ev):
    """A or B: back to the title, the match let go. This screen and its
    module stay for the next match (firmware.pico.pico preloads them): from the
    .mpy bundle, importing them again at a match's end, the heap at its
    fullest and most cut up, ran out of memory."""
    if ev == btn.A or ev == btn.B:
        app.session.end()
        app.go("title")


def matches_won(c, st, x, y):
    """MATCHES WON n OF m, from the statistics."""
    x = c.text(b"MATCHES WON", x, y, 1)
    x = c.num(st.matches_won, x + 4, y, 1)
    x = c.text(b"OF", x + 4, y, 1)
    c.num(st.matches, x + 4, y, 1)


class MatchEnd(Screen):
    name = "match_end"

    def __init__(self, app):
        super().__init__(app)
        self.end = None
        self.scores = [0, 0]
        self.hands = 0
        self.bonus = False
        self.hands_label = b""
        self.review = b""
        self.seal = False            # the match has a seal (UP shows it)

    def enter(self, **kw):
        self.dirty = True
        o = self.app.session.other
        self.other = o
        self.wins = o + b" WINS"
        self.total = o + b" TOTAL"
        m = self.app.match
        self.end = m.end
        self.scores = list(m.scores)
        self.hands = len(m.results)
        e = m.end
        self.bonus = bool(m.rules.match_bonus)
        # V4: 25 for each hand the winner won
        self.hands_label = ("25 X %d HAND%s WON" % (
            e.hands_won[e.winner], "" if e.hands_won[e.winner] == 1 else "S")).encode()
        self.review = b""
        self._review_line()
        self.seal = sealed(m)
        if not kw.get("again"):
            match_over(self.app, m.end.winner)

    def _review_line(self):
        """The review's summary once made (True), REVIEWING till then."""
        rv = self.app.reviews
        done = rv.match_done()
        if done and rv.n == 0:
            # no hand reviewed (the .mpy bundle has no heap for a review):
            # the review's words are not loaded for a line with no figures
            # (from the bundle their code, and engine.review's that they
            # import, took 8 KB of heap for every later match)
            line = b"HANDS NOT REVIEWED"
        elif done:
            try:
                line = review_summary(rv.total, rv.n)
            except MemoryError:          # the .mpy bundle's heap, at its fullest
                line = ("REVIEW: %d DECISIONS" % rv.n).encode()
        else:
            line = b"REVIEWING YOUR HANDS..."
        if line != self.review:
            self.review = line
            self.dirty = True
        return done

    def tick(self, now):
        return None if self._review_line() else 100

    def event(self, ev, now):
        if ev == btn.DOWN:
            self.app.go("match_review")
            return
        if ev == btn.UP and self.seal:
            self.app.go("seal", then=self.name)
            return
        leave(self.app, ev)

    def draw(self, c):
        c.fill(0)
        e = self.end
        L.title_bar(c, b"MATCH OVER")
        won = e.winner == 0
        if self.bonus:
            self._draw_bonus(c, e, won)
            self._hints(c)
            return
        if won:
            cups(c, 13)
        L.text_c(c, b"YOU WIN!" if won else self.wins, 15, 1, fb.BIG)
        x = c.text(b"YOU", 18, 26, 1, fb.BIG)
        x = c.num(self.scores[0], x + 6, 26, 1, fb.BIG)
        x = c.text(b"-", x + 6, 26, 1, fb.BIG)
        x = c.num(self.scores[1], x + 6, 26, 1, fb.BIG)
        c.text(self.other, x + 6, 26, 1, fb.BIG)
        x = c.text(b"HANDS WON", 2, 37, 1)
        x = c.num(e.hands_won[0], x + 4, 37, 1)
        x = c.text(b"-", x + 2, 37, 1)
        x = c.num(e.hands_won[1], x + 2, 37, 1)
        x = c.text(b"OF", x + 4, 37, 1)
        c.num(self.hands, x + 4, 37, 1)
        matches_won(c, self.app.stats, 2, 45)
        c.text(self.review, 2, 51, 1)
        self._hints(c)

    def _hints(self, c):
        x = L.hint(c, b"A", b"TITLE", 0, 58)
        x = L.hint(c, L.KEY_DOWN, b"REVIEW", x + 4, 58)
        if self.seal:
            L.hint(c, L.KEY_UP, b"SEAL", x + 4, 58)

    def _draw_bonus(self, c, e, won):
        """V4: the winner's hand points, game bonus, 25 a hand won, the
        shutout bonus and the total, one line each."""
        if won:
            cups(c, 10)
        L.text_c(c, b"YOU WIN!" if won else self.wins, 10, 1, fb.BIG)
        # the final score, centred: YOU n - m CPU
        w = 4 * 10 + fb.num_width(self.scores[0]) + fb.num_width(self.scores[1])
        x = c.text(b"YOU ", (128 - w) // 2, 18, 1)
        x = c.num(self.scores[0], x, 18, 1)
        x = c.text(b" - ", x, 18, 1)
        x = c.num(self.scores[1], x, 18, 1)
        x = c.text(b" ", x, 18, 1)
        c.text(self.other, x, 18, 1)
        _line(c, b"HAND POINTS", e.hand_points[e.winner], 25)
        _line(c, b"GAME BONUS", e.game_bonus, 31)
        _line(c, self.hands_label, e.hand_bonus, 37)
        if e.shutout_bonus:
            _line(c, b"SHUTOUT: ALL HANDS WON", e.shutout_bonus, 43)
        else:
            _line(c, b"NO SHUTOUT", 0, 43)
        c.hline(2, 49, 124, 1)
        _line(c, b"YOUR TOTAL" if won else self.total, e.total, 51)


def _line(c, label, n, y):
    """A label on the left, the figure right-aligned at the right edge."""
    c.text(label, 2, y, 1)
    c.num(n, 126 - fb.num_width(n), y, 1)
