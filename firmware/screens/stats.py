"""Statistics: matches, hands, wins, gins, knocks, undercuts, drawn hands
and the best hand score, over every match on this device, and the hand
reviews' running figure: the estimated cost per decision over the last few
matches (it falls as the player learns), next to the one over all of them.
B goes back; holding A resets them (after a confirmation). From the link
screen, the same for the link matches (app.stats is then theirs,
firmware/link/linkmatch.py), and B goes back there."""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L

# (label, attribute) for the left and right columns of each row
_ROWS = (
    (b"MATCHES", "matches", b"WON", "matches_won"),
    (b"HANDS", "hands", b"WON", "hands_won"),
    (b"GINS", "gins", b"KNOCKS", "knocks"),
    (b"UNDERCUTS", "undercuts", b"DRAWN", "draws"),
)


class StatsScreen(Screen):
    name = "stats"

    def __init__(self, app):
        super().__init__(app)
        self.confirm = False
        self.link = False

    def enter(self, **kw):
        self.dirty = True
        self.confirm = False
        link = self.app.session.kind == "link"
        self.back = "link" if link else "title"
        self.head = b"LINK STATISTICS" if link else b"STATISTICS"
        self.link = link

    def event(self, ev, now):
        if self.confirm:
            self.dirty = True
            if ev == btn.A:
                self.app.session.reset_stats()
            self.confirm = False
            return
        if ev == btn.LONG_A:
            self.confirm = True
            self.dirty = True
        elif ev == btn.B or ev == btn.A:
            self.app.go(self.back)

    def draw(self, c):
        c.fill(0)
        L.title_bar(c, self.head)
        st = self.app.stats
        y = 11
        for r in _ROWS:
            c.text(r[0], 2, y + 1, 1)
            v = getattr(st, r[1])
            c.num(v, 62 - fb.num_width(v, fb.BIG), y, 1, fb.BIG)
            c.text(r[2], 68, y + 1, 1)
            v = getattr(st, r[3])
            c.num(v, 126 - fb.num_width(v, fb.BIG), y, 1, fb.BIG)
            y += 8
        c.text(b"BEST HAND", 2, y + 1, 1)
        v = st.best_hand
        c.num(v, 62 - fb.num_width(v, fb.BIG), y, 1, fb.BIG)
        c.text(b"MATCH WIN%", 68, y + 1, 1)      # of the matches, not the hands above
        pct = st.matches_won * 100 // st.matches if st.matches else 0
        c.num(pct, 126 - fb.num_width(pct, fb.BIG), y, 1, fb.BIG)
        if self.link and st.forfeits:
            # link matches the other board left once the deal was bound
            # (firmware/link/linkmatch.py), among the matches won above
            x = c.text(b"WON AS THE OTHER'S FORFEIT", 2, 51, 1)
            c.num(st.forfeits, x + 4, 51, 1)
        else:
            review_line(c, st, 51)
        x = L.hint(c, b"B", b"BACK", 0, 58)
        c.text(b"HOLD", x + 8, 58, 1)
        L.hint(c, b"A", b"RESET", x + 28, 58)
        if self.confirm:
            L.box(c, 10, 16, 108, 32)
            L.text_c(c, b"RESET STATS?", 20, 1, fb.BIG, 10, 108)
            L.text_c(c, b"EVERY COUNT GOES TO 0", 30, 1, fb.SMALL, 10, 108)
            x = L.hint(c, b"A", b"RESET", 20, 40)
            L.hint(c, b"B", b"KEEP", x + 6, 40)


def review_line(c, st, y):
    """REVIEW -0.8 EACH (ALL -1.1): the running figure and the all-time
    cost per decision (points), or that no match has been reviewed yet."""
    if not st.review_matches:
        c.text(b"REVIEW: NO MATCH REVIEWED YET", 2, y, 1)
        return
    from firmware.screens.review import running_text
    x = c.text(b"REVIEW", 2, y, 1)
    x = c.text(running_text(st.review_avg), x + 4, y, 1)
    x = c.text(b"EACH (ALL", x + 4, y, 1)
    x += 4
    from firmware.stats import per_decision
    x = c.text(running_text(per_decision(st.review_cost, st.reviewed)), x, y, 1)
    c.text(b")", x, y, 1)
