"""The rules and controls, a few pages of the small font: every rule with
its id (R1-R14, the variants V1-V6), as in docs/RULES.md and in the
refusals the game shows ("... (R4)"); what T, DW, the bars and the lit
cards on the screen mean. LEFT/RIGHT (or UP/DOWN, or A) turn pages; B goes
back where it came from."""

from firmware.display import fb
from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L

# Each page: a title, then up to LINES lines of up to 31 characters. The
# rule ids are the ones of docs/RULES.md and of the refusals ("(R4)").
PAGES = (
    (b"CARDS", (
        b"R1 ACE IS LOW. VALUES: A = 1,",
        b"2 TO 10 AS MARKED, J Q K = 10.",
        b"T IS THE TEN (T AND ITS SUIT).",
        b"R5 MELDS: A SET IS 3 OR 4 CARDS",
        b"OF ONE RANK, A RUN 3 OR MORE IN",
        b"A ROW IN ONE SUIT (A23 IS ONE,",
        b"QKA IS NOT), NO CARD IN TWO.",
    )),
    (b"DEADWOOD", (
        b"R5 DEADWOOD: THE CARDS IN NO",
        b"MELD, AT THEIR VALUES. THE GAME",
        b"ARRANGES YOUR MELDS FOR THE",
        b"LEAST, EACH UNDER A BAR, THE",
        b"DEADWOOD AT THE RIGHT.",
        b"DW, TOP RIGHT: YOUR DEADWOOD.",
        b"CHOOSING A DISCARD: WHAT STAYS.",
    )),
    (b"YOUR TURN", (
        b"R2 10 CARDS EACH, ONE FACE UP:",
        b"THE DISCARD PILE. THE REST IS",
        b"THE STOCK. YOU PLAY FIRST.",
        b"R3 DRAW THE TOP CARD OF STOCK",
        b"OR PILE, THEN DISCARD ONE CARD",
        b"OR KNOCK WITH IT. R4 THE CARD",
        b"JUST TAKEN CAN'T GO BACK THEN.",
    )),
    (b"KNOCKING", (
        b"R6 WITH 10 OR LESS DEADWOOD",
        b"LEFT AFTER YOUR DISCARD, KNOCK",
        b"(UP): THE HAND ENDS.",
        b"R8 BOTH HANDS SHOW THEIR MELDS.",
        b"R9 THE DEFENDER LAYS DEADWOOD",
        b"OFF ONTO THE KNOCKER'S MELDS",
        b"(SHOWN LIT). NONE AFTER GIN.",
    )),
    (b"SCORING", (
        b"R7 GIN: KNOCK WITH 0 DEADWOOD.",
        b"R10 KNOCK: THE KNOCKER SCORES",
        b"THE DEADWOOD DIFFERENCE.",
        b"UNDERCUT (DEFENDER NOT HIGHER):",
        b"THE DEFENDER SCORES IT + 25.",
        b"GIN: THE DEFENDER'S DEADWOOD",
        b"+ 25.",
    )),
    (b"HAND AND MATCH", (
        b"R11 NO STOCK LEFT AFTER A",
        b"DISCARD: THE HAND IS DRAWN.",
        b"THE PILE IS NEVER TURNED OVER.",
        b"R14 ALSO DRAWN: 40 TURNS WITH",
        b"NO DRAW FROM THE STOCK.",
        b"R12 FIRST TO 100 POINTS WINS.",
        b"R13 OTHER RULES: V1-V6, NEXT.",
    )),
    (b"CONTROLS", (
        b"<> MOVE   A TAKE / DISCARD",
        b"UP   KNOCK WITH THE RAISED CARD",
        b"B    MENU: HINT, DISCARD PILE,",
        b"     RULES, QUIT TO TITLE",
        b"HOLD B   HINT AT ONCE",
        b"THE MATCH IS SAVED EVERY TURN:",
        b"CONTINUE IT FROM THE TITLE.",
    )),
    (b"VARIANTS", (
        b"SETTINGS, RULES (NEW MATCHES):",
        b"V1 UPCARD OFFER: THE FIRST",
        b"UPCARD IS TAKEN OR PASSED.",
        b"V2 OKLAHOMA: ITS VALUE IS THE",
        b"KNOCK LIMIT, AN ACE: GIN ONLY.",
        b"V3 2-CARD STOP: THE HAND IS",
        b"DRAWN AT 2 STOCK CARDS LEFT.",
    )),
    (b"MORE VARIANTS", (
        b"V4 END BONUS: THE WINNER GETS",
        b"+100 AND +25 A HAND WON, AND",
        b"HAND POINTS TWICE IF IT WON",
        b"EVERY HAND.",
        b"V5 MATCH TO, KNOCK LIMIT AND",
        b"WHO PLAYS FIRST: YOU, BY TURNS",
        b"OR THE LOSER OF A HAND.",
    )),
    (b"PRESETS", (
        b"CARDEMS: NONE OF THEM, KNOCK AT",
        b"10, FIRST TO 100.",
        b"CLASSIC: V1 AND V3.",
        b"OKLAHOMA: V1, V2 AND V3.",
        b"BONUS: V1 AND V4.",
        b"CUSTOM: YOUR OWN MIX.",
    )),
    (b"3 PLAYERS", (
        b"V6 BOX GAME: THE BOX PLAYS THE",
        b"CAPTAIN, THE THIRD SITS OUT AND",
        b"ADVISES THE CAPTAIN. THE BOX",
        b"WINS: IT STAYS, THE OTHER TWO",
        b"SWAP. IT LOSES: IT SITS OUT,",
        b"CAPTAIN TO BOX, SITTER CAPTAIN.",
        b"UNDERCUT 10. V1 AND V3 APPLY.",
    )),
)
LINES = 7
LINE_Y = 11
LINE_PITCH = 6


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
        n = len(PAGES)
        x = 127 - fb.num_width(n) - 4 - fb.num_width(self.page + 1)
        x = c.num(self.page + 1, x, 2, 0)
        x = c.text(b"/", x, 2, 0)
        c.num(n, x, 2, 0)
        for i in range(len(lines)):
            c.text(lines[i], 1, LINE_Y + LINE_PITCH * i, 1)
        x = L.hint(c, b"<>", b"PAGE", 0, 58)
        L.hint(c, b"B", b"BACK", x + 4, 58)
