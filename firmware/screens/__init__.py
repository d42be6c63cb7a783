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


def is_box(match):
    """A V6 box match (engine.box.BoxMatch): told apart without importing
    the box game, which a two-player match never loads."""
    return match is not None and hasattr(match, "hand_roles")


def other_name(app):
    """The other player's name: b"CPU", or in a link match the other
    board's player (b"P1" or b"P2", firmware/linkmatch.py)."""
    g = getattr(app, "link", None)
    return b"CPU" if g is None else g.other


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
