"""A vertical menu in the BIG font with an inverted bar on the selected row.

Items are bytes labels; an item may carry a value (bytes) drawn right
aligned, for settings. UP/DOWN move with wrap-around; the caller handles A/B.
"""

from firmware.display import fb
from firmware import buttons as btn

ROW = 9


class Menu:
    def __init__(self, items, values=None, sel=0, row=ROW):
        self.items = items
        self.row = row
        self.values = values        # None or a list of bytes, one per item
        self.sel = sel
        self.top = 0                # first row shown (scrolling)

    def move(self, ev):
        """Handle UP/DOWN (and LEFT/RIGHT when there are no values); True if
        the selection moved."""
        n = len(self.items)
        if not n:
            return False
        if ev == btn.UP or (ev == btn.LEFT and self.values is None):
            self.sel = (self.sel - 1) % n
            return True
        if ev == btn.DOWN or (ev == btn.RIGHT and self.values is None):
            self.sel = (self.sel + 1) % n
            return True
        return False

    def draw(self, canvas, x, y, w, rows):
        """Draw up to `rows` rows from (x, y), w wide, scrolled so the
        selection shows; a scroll bar on the right when not all fit."""
        n = len(self.items)
        rh = self.row
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + rows:
            self.top = self.sel - rows + 1
        if n > rows:
            # track and thumb, 2 px wide at the right edge
            h = rows * rh
            canvas.vline(x + w - 1, y, h, 1)
            th = h * rows // n
            ty = y + (h - th) * self.top // (n - rows)
            canvas.fill_rect(x + w - 2, ty, 2, th, 1)
            w -= 3
        for r in range(rows):
            i = self.top + r
            if i >= n:
                break
            yy = y + r * rh
            c = 1
            if i == self.sel:
                canvas.fill_rect(x, yy, w, rh, 1)
                c = 0
            canvas.text(self.items[i], x + 2, yy + 1, c, fb.BIG)
            if self.values is not None:
                v = self.values[i]
                if v:
                    vx = x + w - 8 - len(v) * 6
                    canvas.text(v, vx, yy + 1, c, fb.BIG)
                    if i == self.sel:
                        # < > around the value: LEFT/RIGHT change it
                        canvas.text(b"<", vx - 6, yy + 1, c, fb.BIG)
                        canvas.text(b">", x + w - 7, yy + 1, c, fb.BIG)
