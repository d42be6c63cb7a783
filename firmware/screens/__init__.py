"""The screens: one module per screen, all driven by firmware.app.App.

A screen gets button events, may ask for a timed tick, and draws the whole
frame into the app's Canvas when it is marked dirty:

    enter(**kw)        becomes the current screen (marks itself dirty)
    event(ev, now)     a button event (firmware.buttons: LEFT ... LONG_B)
    tick(now)          time passes; returns ms until it needs the next tick,
                       or None when nothing is pending
    draw(canvas)       the full frame (only called when `dirty`)
    redraw(canvas, part)  only `part` of the frame (called when `dirty` is
                       not set but `part` is: bits of what changed, e.g. a
                       cursor move). The canvas then still holds this
                       screen's last frame, so redrawing those regions gives
                       the very pixels a full draw would. The default draws
                       everything.

Screens never change engine state except through Match.act / next_hand.
"""


class Screen:
    name = "?"
    part = 0


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

    def redraw(self, canvas, part):
        self.draw(canvas)
