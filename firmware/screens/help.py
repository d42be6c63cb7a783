"""A short rules and controls guide, a few pages of the small font.
LEFT/RIGHT (or UP/DOWN, or A) turn pages; B goes back where it came from."""

from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L

PAGES = (
    (b"GOAL", (
        b"MAKE MELDS: SETS OF 3-4 CARDS",
        b"OF ONE RANK, RUNS OF 3+ IN ONE",
        b"SUIT. ACE IS LOW: A23, NOT QKA.",
        b"DEADWOOD: THE CARDS IN NO MELD",
        b"(A=1, 2-10 FACE VALUE, JQK=10).",
        b"THE GAME ARRANGES YOUR MELDS.",
        b"FIRST TO 100 POINTS WINS.",
    )),
    (b"YOUR TURN", (
        b"DRAW THE TOP CARD OF THE STOCK",
        b"OR OF THE DISCARD PILE, THEN",
        b"DISCARD ONE CARD. A CARD JUST",
        b"TAKEN FROM THE PILE CAN'T BE",
        b"DISCARDED IN THE SAME TURN.",
        b"STOCK EMPTY AFTER A DISCARD:",
        b"THE HAND IS DRAWN, NO SCORE.",
    )),
    (b"KNOCKING", (
        b"WITH 10 OR LESS DEADWOOD LEFT",
        b"AFTER YOUR DISCARD YOU MAY",
        b"KNOCK: THE HAND ENDS AND BOTH",
        b"HANDS ARE SHOWN. THE DEFENDER",
        b"LAYS DEADWOOD OFF ON YOUR",
        b"MELDS. YOU SCORE THE DEADWOOD",
        b"DIFFERENCE.",
    )),
    (b"GIN, UNDERCUT", (
        b"GIN: KNOCK WITH 0 DEADWOOD.",
        b"SCORES 25 + THE DEFENDER'S",
        b"DEADWOOD, NO LAYOFFS.",
        b"UNDERCUT: IF THE DEFENDER'S",
        b"DEADWOOD IS NOT HIGHER THAN",
        b"THE KNOCKER'S, THE DEFENDER",
        b"SCORES THE DIFFERENCE + 25.",
    )),
    (b"CONTROLS", (
        b"<> MOVE   A TAKE / DISCARD",
        b"UP   KNOCK WITH THE CARD",
        b"B    MENU: HINT, DISCARD PILE,",
        b"     RULES, QUIT TO TITLE",
        b"HOLD B   HINT AT ONCE",
        b"THE MATCH IS SAVED EVERY TURN:",
        b"CONTINUE IT FROM THE TITLE.",
    )),
    (b"OTHER RULES", (
        b"SETTINGS, RULES (NEW MATCHES):",
        b"CLASSIC: THE FIRST UPCARD IS",
        b"OFFERED (TAKE OR PASS), THE",
        b"HAND ENDS AT 2 STOCK CARDS.",
        b"OKLAHOMA: ALSO THE FIRST",
        b"UPCARD SETS THE KNOCK LIMIT.",
        b"BONUS: +100 GAME, +25 A HAND.",
    )),
)


class Help(Screen):
    name = "help"

    def __init__(self, app):
        super().__init__(app)
        self.page = 0
        self.back = "title"

    def enter(self, back="title", **kw):
        self.dirty = True
        self.page = 0
        self.back = back

    def event(self, ev, now):
        n = len(PAGES)
        if ev == btn.RIGHT or ev == btn.DOWN or ev == btn.A:
            self.page = (self.page + 1) % n
            self.dirty = True
        elif ev == btn.LEFT or ev == btn.UP:
            self.page = (self.page - 1) % n
            self.dirty = True
        elif ev == btn.B or ev == btn.LONG_B:
            self.app.go(self.back)

    def draw(self, c):
        c.fill(0)
        title, lines = PAGES[self.page]
        L.title_bar(c, title)
        x = 126 - 4 * 3
        c.num(len(PAGES), x + 8, 2, 0)
        c.text(b"/", x + 4, 2, 0)
        c.num(self.page + 1, x, 2, 0)
        for i in range(len(lines)):
            c.text(lines[i], 1, 11 + 6 * i, 1)
        x = L.hint(c, b"<>", b"PAGE", 0, 58)
        L.hint(c, b"B", b"BACK", x + 4, 58)
