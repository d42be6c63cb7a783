"""Settings: AI level and speed, the rules for new matches (a preset, then
every variant one by one: V1 upcard offer, V2 Oklahoma, V3 two-card stop,
V4 end bonuses, V5 match target, knock limit and who plays first), screen
brightness and sound, and YOUR STYLE: what the hard AI has learned of how
the player knocks (NEW, QUICK, PATIENT or MIXED); A, then A again, makes it
forget. HARDWARE (A) opens the board's page (firmware/screens/hardware.py:
the key test, display type and flip, the buttons' polarity and pins, the
buzzer, the link's pins, and SAVE into the settings file). The last row, ABOUT,
shows the game's version (engine/version.py).

A scrolling list, four rows at a time, the value on the right. UP/DOWN
choose, LEFT/RIGHT (or A) change, B saves and goes back. The line under the
list says what the chosen row does. Choosing a preset sets every rule row;
changing a rule row makes the rules CUSTOM (or the preset they then equal).
The rules apply to new matches; a match in progress keeps the rules it
started with (they are in its save).
"""

from firmware import buttons as btn
from firmware import settings as S
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.menu import Menu

ROWS = 4
LIST_Y = 10
ABOUT_Y = 49
HINT_Y = 58

# (key, label, what it does). The rule rows are the Settings' RULE_FIELDS.
_ROWS = (
    ("level", b"AI LEVEL", b"HOW WELL THE CPU PLAYS"),
    ("speed", b"AI SPEED", b"HOW LONG CPU MOVES STAY SHOWN"),
    ("rules", b"RULES", b""),
    ("upcard_offer", b"UPCARD OFFER", b"FIRST UPCARD: TAKE IT OR PASS"),
    ("oklahoma", b"OKLAHOMA", b"UPCARD SETS LIMIT, ACE: GIN ONLY"),
    ("stop_at", b"2-CARD STOP", b"HAND DRAWN AT 2 STOCK CARDS"),
    ("match_bonus", b"END BONUS", b"+100, +25 A HAND WON, SHUTOUT X2"),
    ("target", b"MATCH TO", b"POINTS THAT WIN THE MATCH"),
    ("knock_limit", b"KNOCK LIMIT", b"MOST DEADWOOD TO KNOCK WITH"),
    ("first", b"FIRST", b""),
    ("brightness", b"SCREEN", b"SCREEN BRIGHTNESS"),
    ("sound", b"SOUND", b"SOUNDS ON OR OFF"),
    ("style", b"YOUR STYLE", b"A: HARD FORGETS HOW YOU KNOCK"),
    ("hardware", b"HARDWARE", b"A: PANEL, BUTTONS, BUZZER, LINK"),
    ("about", b"VERSION", b"GIN RUMMY, MIT LICENCE"),
)
_RULE_KEYS = ("rules", "upcard_offer", "oklahoma", "stop_at", "match_bonus",
              "target", "knock_limit", "first")
_PRESET_ABOUT = {
    "cardems": b"DEFAULT: KNOCK 10, FIRST TO 100",
    "classic": b"UPCARD OFFER + 2-CARD STOP",
    "oklahoma": b"OFFER, STOP, UPCARD SETS LIMIT",
    "bonus": b"UPCARD OFFER + END BONUSES",
    "custom": b"YOUR OWN MIX OF THE RULES BELOW",
}
_FIRST_TEXT = {"human": b"YOU", "alternate": b"ALTERNATE", "loser": b"LOSER"}
_FIRST_ABOUT = {
    "human": b"YOU START EVERY HAND",
    "alternate": b"YOU AND THE CPU TAKE TURNS",
    "loser": b"LOSER OF A HAND STARTS THE NEXT",
}
_BRIGHT_TEXT = {"low": b"DIM", "medium": b"MEDIUM", "high": b"BRIGHT"}
_OKLAHOMA_LIMIT = b"OKLAHOMA ON: THE UPCARD SETS IT"
_OPTIONS = {
    "level": S.LEVELS,
    "speed": S.SPEEDS,
    "rules": S.RULES,
    "brightness": S.BRIGHTNESS,
    "sound": (0, 1),
}
for _k, _opts in S.RULE_FIELDS:
    _OPTIONS[_k] = _opts


def style_text(style):
    """What the hard AI has learned of the player's knocking, in a word
    (engine/ai/habit.py's record: thresholds 0..10 early in a hand, the
    style mix, thresholds 0..10 late; an older record has the first two)."""
    if not style or len(style) < 11:
        return b"NEW"
    # the early part's weights, and the late part's when the record has it
    parts = (0, 12) if len(style) >= 23 else (0,)
    tot = 0
    pat = 0
    quick = 0
    for o in parts:
        tot += sum(style[o:o + 11])
        pat += style[o] + style[o + 1] + style[o + 2]
        quick += style[o + 10]
    tot = tot or 1
    if pat * 2 > tot:
        return b"PATIENT"
    if quick * 2 > tot:
        return b"QUICK"
    return b"MIXED"


def value_text(st, key, stats=None):
    """The value of row `key` as shown on the right."""
    if key == "style":
        return style_text(stats.style if stats is not None else b"")
    if key == "hardware":
        return b""
    if key == "about":
        from engine.version import VERSION
        return VERSION.encode()
    v = getattr(st, key)
    if key == "rules":
        return v.upper().encode()
    if key == "knock_limit" and st.oklahoma:
        return b"UPCARD"                   # V2 overrides the limit
    if key in ("sound", "upcard_offer", "oklahoma", "match_bonus", "stop_at"):
        return b"ON" if v else b"OFF"
    if key == "first":
        return _FIRST_TEXT[v]
    if key == "brightness":
        return _BRIGHT_TEXT[v]
    if isinstance(v, int):
        return str(v).encode()
    return v.upper().encode()


def about_text(st, key):
    """One line on what row `key` does with its value."""
    if key == "rules":
        return _PRESET_ABOUT[st.rules]
    if key == "first":
        return _FIRST_ABOUT[st.first]
    if key == "knock_limit" and st.oklahoma:
        return _OKLAHOMA_LIMIT
    if key == "about":
        from engine.version import COMMIT
        if COMMIT:                         # a development build that knows it
            return b"COMMIT " + COMMIT.encode()
    for k, _, about in _ROWS:
        if k == key:
            return about
    return b""


class SettingsScreen(Screen):
    name = "settings"

    def __init__(self, app):
        super().__init__(app)
        self.keys = [k for k, _, _ in _ROWS]
        self.menu = Menu([label for _, label, _ in _ROWS], [b""] * len(_ROWS))
        self.about = b""
        self.changed = False
        self.forget = False          # YOUR STYLE: A once more forgets it

    def enter(self, at=None, **kw):
        self.dirty = True
        self.menu.sel = self.keys.index(at) if at in self.keys else 0
        self.menu.top = 0
        self.changed = False
        self._values()

    def _values(self):
        st = self.app.settings
        for i in range(len(self.keys)):
            self.menu.values[i] = value_text(st, self.keys[i], self.app.stats)
        self.about = about_text(st, self.keys[self.menu.sel])
        if self.forget and self.keys[self.menu.sel] == "style":
            self.menu.values[self.menu.sel] = b"FORGET?"
            self.about = b"A AGAIN: FORGET IT. OTHER: KEEP"

    def change(self, key, step):
        """Step row `key`'s value by +1 or -1 (wrapping round)."""
        st = self.app.settings
        if key == "about":
            return False
        if key == "hardware":
            if self.changed:
                self.app.save_settings()
                self.changed = False
            self.app.go("hardware", back="settings")
            return False
        if key == "style":
            if self.forget:
                self.app.session.forget_style()   # the statistics save at once
                self.forget = False
            else:
                self.forget = True
            self._values()
            self.dirty = True
            return False
        if key == "knock_limit" and st.oklahoma:
            return False                    # V2 sets it: nothing to change
        opts = _OPTIONS[key]
        if key == "rules":
            cur = st.rules
            if cur in opts:
                i = (opts.index(cur) + step) % len(opts)
            else:                           # custom: to the first / last preset
                i = 0 if step > 0 else len(opts) - 1
            st.set_preset(opts[i])
            return True
        i = (opts.index(getattr(st, key)) + step) % len(opts)
        if key in _RULE_KEYS:
            st.set_rule(key, opts[i])
        else:
            setattr(st, key, opts[i])
        return True

    def event(self, ev, now):
        if ev == btn.UP or ev == btn.DOWN:
            self.menu.move(ev)
            self.forget = False
            self._values()
            self.dirty = True
            return
        if ev == btn.LEFT or ev == btn.RIGHT or ev == btn.A:
            key = self.keys[self.menu.sel]
            if key == "hardware" and ev != btn.A:
                return
            if not self.change(key, -1 if ev == btn.LEFT else 1):
                return
            self.changed = True
            self.dirty = True
            self._values()
            if key == "brightness":
                self.app.apply_contrast()       # seen at once, saved on B
            return
        if ev == btn.B or ev == btn.LONG_B:
            self.forget = False
            if self.changed:
                self.app.save_settings()
            self.app.go("title")

    def draw(self, c):
        c.fill(0)
        L.title_bar(c, b"SETTINGS")
        key = self.keys[self.menu.sel]
        if key in _RULE_KEYS:
            c.text(b"FOR NEW MATCHES", 66, 2, 0)
        self.menu.draw(c, 0, LIST_Y, 128, ROWS)
        c.hline(0, LIST_Y + ROWS * 9 + 1, 128, 1)
        c.text(self.about, 1, ABOUT_Y, 1)
        x = L.key(c, L.KEY_UP, 0, HINT_Y)
        x = L.hint(c, L.KEY_DOWN, b"CHOOSE", x, HINT_Y)
        x = L.hint(c, b"<>", b"CHANGE", x, HINT_Y)
        L.hint(c, b"B", b"DONE", x, HINT_Y)
