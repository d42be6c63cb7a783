"""The screens: one module per screen, all driven by firmware.app.App.

A screen gets button events, may ask for a timed tick, and draws the whole
frame into the app's Canvas when it is marked dirty:

    enter(**kw)        becomes the current screen (marks itself dirty)
    event(ev, now)     a button event (firmware.buttons: LEFT ... LONG_B)
    tick(now)          time passes; returns ms until it needs the next tick,
                       or None when nothing is pending
    draw(canvas)       the full frame (only called when `dirty`)

Screens never change engine state except through Match.act / next_hand.
"""


class Screen:
    name = "?"

    def __init__(self, app):
        self.app = app
        self.dirty = True

    def enter(self, **kw):
        self.dirty = True

    def event(self, ev, now):
        pass

    def tick(self, now):
        return None

    def draw(self, canvas):
        canvas.fill(0)
