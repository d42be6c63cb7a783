"""Settings: AI level, AI speed, match target, rules preset, brightness,
sound. UP/DOWN choose, LEFT/RIGHT (or A) change, B saves and goes back.
The match target and the rules apply to new matches; a match in progress
keeps the rules it started with."""

from firmware import buttons as btn
from firmware import settings as S
from firmware.screens import Screen
from firmware.screens import layout as L
from firmware.screens.menu import Menu

_LABELS = [b"AI LEVEL", b"AI SPEED", b"MATCH TO", b"RULES", b"SCREEN", b"SOUND"]


def _options():
    return (
        ("level", S.LEVELS),
        ("speed", S.SPEEDS),
        ("target", S.TARGETS),
        ("rules", S.RULES),
        ("brightness", S.BRIGHTNESS),
        ("sound", (0, 1)),
    )


def _text(key, v):
    if key == "sound":
        return b"ON" if v else b"OFF"
    if key == "brightness":
        return {"low": b"DIM", "medium": b"MEDIUM", "high": b"BRIGHT"}[v]
    if isinstance(v, int):
        return str(v).encode()
    return v.upper().encode()


class SettingsScreen(Screen):
    name = "settings"

    def __init__(self, app):
        super().__init__(app)
        self.opts = _options()
        self.menu = Menu(_LABELS, [b""] * len(_LABELS))
        self.changed = False

    def enter(self, **kw):
        self.dirty = True
        self.menu.sel = 0
        self.menu.top = 0
        self.changed = False
        self._values()

    def _values(self):
        st = self.app.settings
        for i in range(len(self.opts)):
            key, _ = self.opts[i]
            self.menu.values[i] = _text(key, getattr(st, key))

    def event(self, ev, now):
        if ev == btn.UP or ev == btn.DOWN:
            self.menu.move(ev)
            self.dirty = True
            return
        if ev == btn.LEFT or ev == btn.RIGHT or ev == btn.A:
            key, opts = self.opts[self.menu.sel]
            st = self.app.settings
            i = opts.index(getattr(st, key))
            i = (i - 1) % len(opts) if ev == btn.LEFT else (i + 1) % len(opts)
            setattr(st, key, opts[i])
            self.changed = True
            self.dirty = True
            self._values()
            if key == "brightness":
                self.app.apply_contrast()       # seen at once, saved on B
            return
        if ev == btn.B or ev == btn.LONG_B:
            if self.changed:
                self.app.save_settings()
            self.app.go("title")

    def draw(self, c):
        c.fill(0)
        L.title_bar(c, b"SETTINGS")
        self.menu.draw(c, 0, 10, 128, 5)
        c.fill_rect(0, 56, 128, 8, 0)
        key = self.opts[self.menu.sel][0]
        if key == "target" or key == "rules":
            c.text(b"FOR NEW MATCHES", 0, 58, 1)
            L.hint(c, b"B", b"DONE", 100, 58)
            return
        x = L.key(c, L.KEY_UP, 0, 58)
        x = L.hint(c, L.KEY_DOWN, b"CHOOSE", x, 58)
        x = L.hint(c, b"<>", b"CHANGE", x, 58)
        L.hint(c, b"B", b"DONE", x, 58)
