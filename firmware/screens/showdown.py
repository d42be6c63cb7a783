"""The showdown: both hands laid open after a knock or gin (R7-R10).

    +----------------------------------------------------------+
    | UNDERCUT!                                DEAL 84113920    |
    | YOU KNOCKED                               DEADWOOD 8      |
    | [knocker's melds, the laid-off cards lit] [deadwood]      |
    | CPU  LAID OFF 9h 9s                       DEADWOOD 7      |
    | [melds of the defender] [deadwood left]                   |
    | CPU: 1 + 25 UNDERCUT = 26                     [A] NEXT    |
    +----------------------------------------------------------+

The knocker's melds are the arrangement the engine chose (R8); the
defender's cards laid off onto them (R9) are drawn lit (inverted) at the
end of the meld they extend, and named in the defender's line. After gin
nothing is laid off (R9), and the line says so. The last line is the score
as its sum (R10, firmware/screens/scoring.py). The header names the deal:
its commitment, as shown when the hand started (the hand result's proof
page reveals its seed and nonce), or for a match dealing by deal numbers
the deal number, which lets anyone replay the hand.
"""

from firmware.display import fb
from firmware import buttons as btn
from firmware.display import glyphs
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.scoring import score_sum

HINT_X = 104       # A NEXT, right of the sum

K_TEXT_Y = 10       # the knocker's line ...
K_CARDS_Y = 16      # ... and cards
D_TEXT_Y = 33       # the defender's
D_CARDS_Y = 39
SUM_Y = 58          # the score as its sum, and the key


class Showdown(Screen):
    name = "showdown"
    result_screen = "result"         # where A goes

    def __init__(self, app):
        super().__init__(app)
        self.top = L.HandRow()
        self.bottom = L.HandRow()
        self.kind = b""
        self.gin = False
        self.knocker = 0
        self.winner = 0
        self.points = 0
        self.k_dw = 0
        self.d_dw = 0
        self.laid = b""              # the cards laid off (R9), in meld order
        self.sum = b""
        self.deal = 0
        self.commit = None           # b"DEAL #..." of a committed deal

    def enter(self, **kw):
        self.dirty = True
        self.who = (b"YOU", self.app.session.other)
        m = self.app.match
        res = self._last_result()
        o = res.outcome
        h = m.hand
        k = res.knocker
        self.knocker = k
        self.winner = res.winner
        self.points = res.points
        self.gin = res.kind == "gin"
        self.kind = {"gin": b"GIN!", "knock": b"KNOCK", "undercut": b"UNDERCUT!"}[res.kind]
        self.sum = score_sum(res)
        # the sum's line ends before A NEXT: DEADWOOD shortened to DW where
        # it would run under the hint (the box game's longer names, 2-digit
        # deadwoods)
        end = 1 + fb.text_width(self._name(self.winner) + b": " + self.sum) - 1
        if end > HINT_X - 3 and self.sum.startswith(b"DEADWOOD "):
            self.sum = b"DW " + self.sum[9:]
        self.deal = h.deal
        self.commit = None if h.deal is not None else b"DEAL #" + h.commit.encode()
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
        kdead = sorted([c for c in kc if c not in used], key=L.dead_key)
        self.top.build(groups, kdead, o.knocker_deadwood, marked=laid)
        dused = [c for g in o.defender_melds for c in g]
        ddead = sorted([c for c in dc if c not in dused and c not in laid],
                       key=L.dead_key)
        dgroups = [sorted(g) for g in o.defender_melds]
        self.bottom.build(dgroups, ddead, o.defender_deadwood)
        self.k_dw = o.knocker_deadwood
        self.d_dw = o.defender_deadwood
        # named in the order they are drawn on the knocker's melds
        self.laid = bytes([c for g in groups for c in g if c in laid])

    def _last_result(self):
        """The HandResult of the hand just ended."""
        return self.app.match.results[-1]

    def event(self, ev, now):
        if ev == btn.A:
            self.app.go(self.result_screen)

    def draw(self, c):
        c.fill(0)
        self._header(c)
        # the knocker's hand, with the defender's layoffs on its melds
        x = self._who(c, self.knocker, 1, K_TEXT_Y)
        c.text(b"WENT GIN" if self.gin else b"KNOCKED", x + 4, K_TEXT_Y, 1)
        self._deadwood(c, self.k_dw, K_TEXT_Y, b"DEADWOOD")
        self.top.draw(c, K_CARDS_Y, -1, False)
        # the defender's, and what it laid off
        x = self._who(c, 1 - self.knocker, 1, D_TEXT_Y) + 4
        self._layoffs(c, x, D_TEXT_Y)
        self.bottom.draw(c, D_CARDS_Y, -1, False)
        # the score as its sum
        x = c.text(self._name(self.winner), 1, SUM_Y, 1)
        x = c.text(b": ", x, SUM_Y, 1)
        c.text(self.sum, x, SUM_Y, 1)
        L.hint(c, b"A", b"NEXT", HINT_X, SUM_Y)

    def _layoffs(self, c, x, y):
        """LAID OFF and the cards, or NO LAYOFFS ON CPU GIN (R9), then the
        deadwood left. Where the cards do not fit before DEADWOOD, it is
        shortened to DW; where they still do not, their count is shown."""
        n = len(self.laid)
        gin = None
        if self.gin:
            # naming who went gin, as the line above does; "NO LAYOFFS (R9)" where
            # the name does not fit before the deadwood
            who = self._name(self.knocker)
            gin = b"NO LAYOFFS ON " + (b"YOUR" if who == b"YOU" else who) + b" GIN"
            if x + fb.text_width(gin) - 1 > self._deadwood_x(self.d_dw, b"DW") - 4:
                gin = b"NO LAYOFFS (R9)"
            w = fb.text_width(gin) - 1
        elif n:
            w = fb.text_width(b"LAID OFF") + 2 + n * 12 - 3
        else:
            w = 0
        label = b"DEADWOOD"
        if x + w > self._deadwood_x(self.d_dw, label) - 4:
            label = b"DW"
        end = self._deadwood_x(self.d_dw, label) - 4
        self._deadwood(c, self.d_dw, y, label)
        if self.gin:
            c.text(gin, x, y, 1)
        elif n:
            x = c.text(b"LAID OFF", x, y, 1) + 2
            if x + n * 12 - 3 > end:
                x = c.num(n, x, y, 1)
                c.text(b" CARDS, LIT", x, y, 1)
                return
            for i in range(n):
                x = glyphs.draw_card_inline(c, self.laid[i], x, y) + 2

    def _header(self, c):
        """The kind of win on a lit band, the deal number at its right."""
        L.title_bar(c, self.kind)
        if self.commit is not None:
            c.text(self.commit, 126 - fb.text_width(self.commit), 2, 0)
            return
        x = 126 - fb.num_width(self.deal)
        c.num(self.deal, x, 2, 0)
        c.text(b"DEAL", x - 20, 2, 0)

    def _name(self, seat):
        return self.who[seat]

    def _who(self, c, seat, x, y):
        return c.text(self._name(seat), x, y, 1)

    def _deadwood_x(self, dw, label):
        """Where `label` starts when the deadwood is right-aligned."""
        return 126 - fb.num_width(dw) - fb.text_width(label) - 3

    def _deadwood(self, c, dw, y, label):
        x = 126 - fb.num_width(dw)
        c.num(dw, x, y, 1)
        c.text(label, self._deadwood_x(dw, label), y, 1)
