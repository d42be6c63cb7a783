"""The showdown: both hands laid open after a knock or gin (R7-R10).

    +----------------------------------------------------------+
    | KNOCK                                    DEAL 84113920    |
    | YOU KNOCKED                               DEADWOOD 7      |
    | [melds of the knocker, laid-off cards inverted] [dead]    |
    | CPU             LAID OFF 6                DEADWOOD 12     |
    | [melds of the defender] [deadwood left]                   |
    | YOU SCORE 11                                   [A] NEXT   |
    +----------------------------------------------------------+

The knocker's melds are the arrangement the engine chose (R8); the
defender's cards laid off onto them (R9) are drawn inverted at the end of
the meld they extend. The deal number lets anyone replay the hand.
"""

from firmware import fb
from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L
from engine.cards import CARD_VALUE

WHO = (b"YOU", b"CPU")
SCORES = (b"YOU SCORE", b"CPU SCORES")


class Showdown(Screen):
    name = "showdown"
    result_screen = "result"         # where A goes

    def __init__(self, app):
        super().__init__(app)
        self.top = L.HandRow()
        self.bottom = L.HandRow()
        self.kind = b""
        self.knocker = 0
        self.winner = 0
        self.points = 0
        self.k_dw = 0
        self.d_dw = 0
        self.laid = 0
        self.deal = 0

    def enter(self, **kw):
        self.dirty = True
        m = self.app.match
        res = self._last_result()
        o = res.outcome
        h = m.hand
        k = res.knocker
        self.knocker = k
        self.winner = res.winner
        self.points = res.points
        self.kind = {"gin": b"GIN!", "knock": b"KNOCK", "undercut": b"UNDERCUT!"}[res.kind]
        self.deal = h.deal
        kc = h.cards_of(k)
        dc = h.cards_of(1 - k)
        # Knocker: each meld with the defender's layoffs on it (R9).
        groups = [list(ml) for ml in o.knocker_melds]
        laid = []
        for c, i in o.layoffs:
            groups[i].append(c)
            laid.append(c)
        groups = [sorted(g) for g in groups]
        used = [c for g in o.knocker_melds for c in g]
        kdead = sorted([c for c in kc if c not in used], key=L._dead_key)
        self.top.build(groups, kdead, o.knocker_deadwood, marked=laid)
        dused = [c for g in o.defender_melds for c in g]
        ddead = sorted([c for c in dc if c not in dused and c not in laid],
                       key=L._dead_key)
        dgroups = [sorted(g) for g in o.defender_melds]
        self.bottom.build(dgroups, ddead, o.defender_deadwood)
        self.k_dw = o.knocker_deadwood
        self.d_dw = o.defender_deadwood
        self.laid = 0
        for c in laid:
            self.laid += CARD_VALUE[c]

    def _last_result(self):
        """The HandResult of the hand just ended."""
        return self.app.match.results[-1]

    def event(self, ev, now):
        if ev == btn.A:
            self.app.go(self.result_screen)

    def draw(self, c):
        c.fill(0)
        self._header(c)
        self._knocker_row(c)
        # the defender's
        c.text(WHO[1 - self.knocker], 1, 33, 1)
        if self.laid:
            x = c.text(b"LAID OFF", 24, 33, 1)
            c.num(self.laid, x + 4, 33, 1)
        self._deadwood(c, self.d_dw, 33)
        self.bottom.draw(c, 39, -1, False)
        x = c.text(SCORES[self.winner], 1, 56, 1, fb.BIG)
        c.num(self.points, x + 6, 56, 1, fb.BIG)
        L.hint(c, b"A", b"NEXT", 102, 57)

    def _header(self, c):
        """The kind of win on a lit band, the deal number at its right."""
        L.title_bar(c, self.kind)
        x = 126 - fb.num_width(self.deal)
        c.num(self.deal, x, 2, 0)
        c.text(b"DEAL", x - 20, 2, 0)

    def _knocker_row(self, c):
        """The knocker's hand, with the defender's layoffs on its melds."""
        x = self._who(c, self.knocker, 1, 11)
        c.text(b"WENT GIN" if self.k_dw == 0 else b"KNOCKED", x + 4, 11, 1)
        self._deadwood(c, self.k_dw, 11)
        self.top.draw(c, 17, -1, False)

    def _who(self, c, seat, x, y):
        return c.text(WHO[seat], x, y, 1)

    def _deadwood(self, c, dw, y):
        x = 126 - fb.num_width(dw)
        c.num(dw, x, y, 1)
        c.text(b"DEADWOOD", x - 36, y, 1)
