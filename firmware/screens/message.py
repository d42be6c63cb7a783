"""A message the player must read, e.g. a damaged save set aside at boot.

enter(title=b'...', text='...', then='title'): A (or B) goes on to `then`.
"""

from firmware import buttons as btn
from firmware.screens import Screen
from firmware.screens import layout as L


class Message(Screen):
    name = "message"

    def __init__(self, app):
        super().__init__(app)
        self.title = b""
        self.lines = []
        self.then = "title"

    def enter(self, title=b"", text="", then="title", **kw):
        self.dirty = True
        self.title = title
        self.lines = L.wrap(text, 31)[:6]
        self.then = then

    def event(self, ev, now):
        if ev == btn.A or ev == btn.B:
            note = self.app.saving.next_note()   # more to tell first (Saving.notes)
            if note is not None:
                self.enter(title=note[0], text=note[1], then=self.then)
            elif self.then == "play":
                self.app.go("play", new_hand=True)
            else:
                self.app.go(self.then)

    def draw(self, c):
        c.fill(0)
        L.title_bar(c, self.title)
        lines = self.lines
        for i in range(len(lines)):
            L.rich_text(c, lines[i], 2, 13 + 7 * i)
        L.hint(c, b"A", b"CONTINUE", 0, 58)
