"""The hand review and the match review (firmware/reviews.py makes them).

    +------------------------------------------------------+
    | HAND 3 REVIEW                                         |
    | T6 YOU THREW 8h: CPU MELDED IT                        |
    |    BETTER 9c                                     -7   |
    | T9 YOU COULD KNOCK (DW 6)                             |
    |    KNOCK WITH Kd                                -12   |
    | ...                                                   |
    | [A] NEXT HAND                             14 DECISIONS |
    +------------------------------------------------------+

Up to three decisions where the hard level's choice was worth most more
than the move played, worst first, with the cost in points. While the
review is being made the screen shows how far it is. From the hand result
(DOWN); A deals the next hand as there, B (or UP) goes back to it.

The match review (DOWN on the match end): decisions reviewed, the average
cost per decision, the costliest one, and the statistics' running figure
(the cost per decision over the last few matches).
"""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L

ENTRY_Y = (11, 26, 41)
LINE2 = 7                 # the second line of an entry, below the first
REFRESH_MS = 100          # while the review is made, redraw this often


def entry_lines(rec, width=40):
    """A record's two lines as drawable bytes (cards as glyph bytes) and
    its cost in points. Allocates: call when the review is done."""
    from engine.review_text import words
    first, second, pts = words(rec)
    return L.wrap(first, width)[0], L.wrap(second, width)[0], pts


def draw_entry(c, lines, y):
    """The decision's two lines at y, the cost at the right of the second."""
    L.rich_text(c, lines[0], 2, y)
    L.rich_text(c, lines[1], 14, y + LINE2)
    pts = lines[2]
    x = 126 - fb.num_width(pts) - 4
    x = c.text(b"-", x, y + LINE2, 1)
    c.num(pts, x, y + LINE2, 1)


def progress_note(c, label, pct, y):
    """REVIEWING... with a bar and the percent."""
    L.text_c(c, label, y, 1, fb.BIG)
    L.progress(c, 24, y + 12, 80, pct, 100)
    x = L.centre_x(4, 4)
    x = c.num(pct, x, y + 19, 1)
    c.text(b"%", x, y + 19, 1)


def average_text(total, n):
    """The cost per decision as shown: b'-1.3', or b'0.0'."""
    if n <= 0:
        return b"0.0"      # nothing reviewed: the review's words stay unloaded
    from engine.review_text import cost
    return cost(total, n).encode()


class _Awaited(Screen):
    """A screen showing a review once made, its progress till then:
    _check() takes the review (setting ready) or returns the percent."""

    back = "result"

    def __init__(self, app):
        super().__init__(app)
        self.ready = False
        self.pct = -1
        self.n = 0

    def enter(self, **kw):
        self.dirty = True
        self.ready = False
        self.pct = -1
        self._poll()

    def _poll(self):
        p = self._check()
        if self.ready:
            self.dirty = True
        elif p != self.pct:
            self.pct = p
            self.dirty = True

    def tick(self, now):
        if self.ready:
            return None
        self._poll()
        return None if self.ready else REFRESH_MS

    def event(self, ev, now):
        if ev == btn.A:
            self._next()
        elif ev == btn.B or ev == btn.UP:
            self.app.go(self.back, again=True)


class HandReview(_Awaited):
    name = "review"

    def __init__(self, app):
        super().__init__(app)
        self.index = 0
        self.entries = []

    def enter(self, **kw):
        self.index = len(self.app.match.results) - 1
        self.entries = []
        super().enter(**kw)

    def _check(self):
        rv = self.app.reviews
        r = rv.review_of(self.index)
        if r is None:
            return rv.progress(self.index)
        self.ready = True
        self.n = r[0]
        self.entries = [entry_lines(rec) for rec in r[1]]
        return 100

    def _next(self):
        from firmware.screens.result import go_on
        go_on(self.app, self.app.match.phase == "match_over", "match_end", "play")

    def draw(self, c):
        c.fill(0)
        L.bar(c, 0, 9)
        x = c.text(b"HAND", 2, 1, 0, fb.BIG)
        x = c.num(self.index + 1, x + 6, 1, 0, fb.BIG)
        c.text(b"REVIEW", x + 6, 1, 0, fb.BIG)
        if not self.ready:
            progress_note(c, b"REVIEWING...", self.pct, 20)
        elif self.app.reviews.lost == self.index:
            L.text_c(c, b"NOT REVIEWED", 18, 1, fb.BIG)
            L.text_c(c, b"TOO LITTLE MEMORY WAS FREE", 31, 1)
            L.text_c(c, b"THE NEXT HANDS ARE REVIEWED", 38, 1)
        elif not self.entries:
            L.text_c(c, b"NOTHING TO SHOW", 18, 1, fb.BIG)
            L.text_c(c, b"NO DECISION COST A POINT", 31, 1)
            L.text_c(c, b"BY THE HARD AI'S COUNT", 38, 1)
        else:
            for i in range(len(self.entries)):
                draw_entry(c, self.entries[i], ENTRY_Y[i])
        over = self.app.match.phase == "match_over"
        L.hint(c, b"A", b"MATCH RESULT" if over else b"NEXT HAND", 0, 58)
        if self.ready:
            L.count_right(c, self.n, b"DECISION", b"DECISIONS", 58, 1)


class MatchReview(_Awaited):
    name = "match_review"
    back = "match_end"

    def __init__(self, app):
        super().__init__(app)
        self.avg = b""
        self.worst = None
        self.worst_hand = 0

    def enter(self, **kw):
        self.worst = None
        super().enter(**kw)

    def _check(self):
        rv = self.app.reviews
        if not rv.match_done():
            # the hands so far, and the one being reviewed
            i = rv.next - 1 if rv.next else 0
            return (i * 100 + rv.progress(i)) // (len(self.app.match.results) or 1)
        self.ready = True
        self.n = rv.n
        self.avg = average_text(rv.total, rv.n)
        if rv.worst is not None:
            self.worst = entry_lines(rv.worst[2])
            self.worst_hand = rv.worst[1]
        return 100

    def _next(self):
        from firmware.screens.match_end import leave
        leave(self.app, btn.A)

    def draw(self, c):
        c.fill(0)
        L.title_bar(c, b"MATCH REVIEW")
        if not self.ready:
            progress_note(c, b"REVIEWING...", self.pct, 20)
        else:
            x = c.num(self.n, 2, 12, 1)
            c.text(b"DECISIONS REVIEWED", x + 4, 12, 1)
            x = c.text(b"COST", 2, 19, 1)
            x = c.text(self.avg, x + 4, 19, 1)
            c.text(b"A DECISION ON AVERAGE", x + 4, 19, 1)
            if self.worst is None:
                c.text(b"NONE COST A POINT OR MORE", 2, 28, 1)
            else:
                x = c.text(b"COSTLIEST, HAND", 2, 27, 1)
                c.num(self.worst_hand, x + 4, 27, 1)
                draw_entry(c, self.worst, 35)
            st = self.app.stats
            if st.review_matches:
                x = c.text(b"RECENT MATCHES", 2, 50, 1)
                x = c.text(running_text(st.review_avg), x + 4, 50, 1)
                c.text(b"EACH", x + 4, 50, 1)
        x = L.hint(c, b"A", b"TITLE", 0, 58)
        L.hint(c, b"B", b"BACK", x + 4, 58)


def running_text(avg):
    """The statistics' running cost (hundredths of a point a decision) as
    shown: b'-0.8', and b'0.0' (never b'-0.0') when it rounds to nothing."""
    t = (avg + 5) // 10
    return ("%s%d.%d" % ("-" if t else "", t // 10, t % 10)).encode()
