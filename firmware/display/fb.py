"""The 128x64 1-bit framebuffer the game draws into, and its text routines.

The picture lives in a 1024-byte bytearray in the SSD1306's own layout
(MONO_VLSB): byte (y >> 3) * 128 + x holds column x of page y >> 3, bit y & 7.
The display driver sends that bytearray as it is.

Where MicroPython's `framebuf` exists it does the pixel work in C. Elsewhere
(CPython for the simulator, CircuitPython) `FrameBuffer` below is a
pure-Python stand-in with the same methods and the same results pixel for
pixel (host_tests/firmware/display/test_fb_identity.py compares both); it supports
MONO_VLSB only, which is all the game uses.

`framebuf.text` is never used: its 8x8 font differs between implementations.
Text goes through `Canvas.text` with the game's own fonts (font.py): each
font is one FrameBuffer holding its glyphs side by side, and a character is
copied from it into a glyph-sized cell that is then blitted.

Nothing here allocates per call except `Canvas.text` given a `str` (one
encode on MicroPython); give it bytes, e.g. b"KNOCK", or use `Canvas.num`,
in redraw paths.
"""

from firmware.compat import const
from firmware.display import font as _font

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
BUF_SIZE = const(1024)

SMALL = _font.SMALL
BIG = _font.BIG

try:
    from framebuf import FrameBuffer, MONO_VLSB

    NATIVE = True
except ImportError:
    NATIVE = False
    MONO_VLSB = 0

    class FrameBuffer:
        """Pure-Python stand-in for `framebuf.FrameBuffer` (MONO_VLSB only).

        Same clipping and argument rules as the C version, so both draw the
        same bytes.
        """

        def __init__(self, buf, width, height, format=MONO_VLSB, stride=0):
            if format != MONO_VLSB:
                raise ValueError("only MONO_VLSB is supported")
            self.buf = buf
            self.width = width
            self.height = height
            self.stride = stride if stride > 0 else width
            if len(buf) < ((height + 7) >> 3) * self.stride:
                raise ValueError("buffer too small")

        # -- helpers (already clipped coordinates) --
        def _fill(self, x, y, w, h, c):
            buf = self.buf
            stride = self.stride
            ye = y + h
            while y < ye:
                top = y & 7
                n = 8 - top
                if n > ye - y:
                    n = ye - y
                mask = ((1 << n) - 1) << top
                i = (y >> 3) * stride + x
                end = i + w
                if c:
                    while i < end:
                        buf[i] |= mask
                        i += 1
                else:
                    mask ^= 0xFF
                    while i < end:
                        buf[i] &= mask
                        i += 1
                y += n

        def _set(self, x, y, c):
            i = (y >> 3) * self.stride + x
            if c:
                self.buf[i] |= 1 << (y & 7)
            else:
                self.buf[i] &= 0xFF ^ (1 << (y & 7))

        def _get(self, x, y):
            return (self.buf[(y >> 3) * self.stride + x] >> (y & 7)) & 1

        # -- the framebuf API --
        def fill(self, c):
            self._fill(0, 0, self.width, self.height, c)

        def fill_rect(self, x, y, w, h, c):
            if (h < 1 or w < 1 or x + w <= 0 or y + h <= 0
                    or y >= self.height or x >= self.width):
                return
            xe = x + w
            if xe > self.width:
                xe = self.width
            ye = y + h
            if ye > self.height:
                ye = self.height
            if x < 0:
                x = 0
            if y < 0:
                y = 0
            self._fill(x, y, xe - x, ye - y, c)

        def hline(self, x, y, w, c):
            self.fill_rect(x, y, w, 1, c)

        def vline(self, x, y, h, c):
            self.fill_rect(x, y, 1, h, c)

        def rect(self, x, y, w, h, c, f=False):
            if f:
                self.fill_rect(x, y, w, h, c)
            else:
                self.fill_rect(x, y, w, 1, c)
                self.fill_rect(x, y + h - 1, w, 1, c)
                self.fill_rect(x, y, 1, h, c)
                self.fill_rect(x + w - 1, y, 1, h, c)

        def pixel(self, x, y, c=None):
            if 0 <= x < self.width and 0 <= y < self.height:
                if c is None:
                    return self._get(x, y)
                self._set(x, y, c)
            return None

        def line(self, x1, y1, x2, y2, c):
            dx = x2 - x1
            sx = 1
            if dx <= 0:
                dx = -dx
                sx = -1
            dy = y2 - y1
            sy = 1
            if dy <= 0:
                dy = -dy
                sy = -1
            steep = dy > dx
            if steep:
                x1, y1 = y1, x1
                dx, dy = dy, dx
                sx, sy = sy, sx
            e = 2 * dy - dx
            w = self.width
            h = self.height
            for _ in range(dx):
                if steep:
                    if 0 <= y1 < w and 0 <= x1 < h:
                        self._set(y1, x1, c)
                elif 0 <= x1 < w and 0 <= y1 < h:
                    self._set(x1, y1, c)
                while e >= 0:
                    y1 += sy
                    e -= 2 * dx
                x1 += sx
                e += 2 * dy
            if 0 <= x2 < w and 0 <= y2 < h:
                self._set(x2, y2, c)

        def blit(self, src, x, y, key=-1, palette=None):
            sw = src.width
            sh = src.height
            if x >= self.width or y >= self.height or -x >= sw or -y >= sh:
                return
            x0 = x if x > 0 else 0
            y0 = y if y > 0 else 0
            x1 = -x if x < 0 else 0
            y1 = -y if y < 0 else 0
            x0end = x + sw
            if x0end > self.width:
                x0end = self.width
            y0end = y + sh
            if y0end > self.height:
                y0end = self.height
            while y0 < y0end:
                cx1 = x1
                cx0 = x0
                while cx0 < x0end:
                    col = src._get(cx1, y1)
                    if palette is not None:
                        col = palette._get(col, 0)
                    if col != key:
                        self._set(cx0, y0, col)
                    cx0 += 1
                    cx1 += 1
                y0 += 1
                y1 += 1

        def scroll(self, xstep, ystep):
            if xstep < 0:
                sx = 0
                xend = self.width + xstep
                dx = 1
            else:
                sx = self.width - 1
                xend = xstep - 1
                dx = -1
            if ystep < 0:
                y = 0
                yend = self.height + ystep
                dy = 1
            else:
                y = self.height - 1
                yend = ystep - 1
                dy = -1
            while y != yend:
                x = sx
                while x != xend:
                    self._set(x, y, self._get(x - xstep, y - ystep))
                    x += dx
                y += dy


def sprites(data, w, h):
    """Cut packed MONO_VLSB data into a list of w x h FrameBuffers.

    Each glyph takes ((h + 7) >> 3) * w bytes. The sprites share one
    bytearray (framebuf needs a writable buffer) through memoryview slices.
    Called at import time only.
    """
    n = ((h + 7) >> 3) * w
    ba = bytearray(data)
    mv = memoryview(ba)
    return [FrameBuffer(mv[i:i + n], w, h, MONO_VLSB) for i in range(0, len(ba), n)]


def _sheet(data, w, h):
    """A font's glyphs side by side in one FrameBuffer: glyph i is columns
    i * w .. i * w + w - 1. A glyph no taller than a page (8 rows) is w
    column bytes, so the packed data is the sheet's own layout."""
    if h > 8:
        raise ValueError("a glyph sheet holds glyphs of one page")
    return FrameBuffer(bytearray(data), len(data), h, MONO_VLSB)


def _small_index():
    """Glyph number in SMALL_SHEET of each character code - 32 (95 of
    them): lowercase as uppercase, anything else as '?'."""
    chars = _font.SMALL_CHARS
    table = bytearray([chars.find("?")] * 95)
    for i in range(len(chars)):
        o = ord(chars[i])
        table[o - 32] = i
        if 65 <= o <= 90:
            table[o] = i  # lowercase (code o + 32) as uppercase
    return bytes(table)


def char_sprites(chars):
    """FrameBuffers of the SMALL font's glyphs for the characters of
    `chars` (str or bytes), one each, for drawing with blit (the cards' ranks)."""
    n = _font.SMALL_W
    idx = _small_index()
    out = []
    for ch in chars:
        i = idx[(ch if isinstance(ch, int) else ord(ch)) - 32] * n
        out.append(FrameBuffer(bytearray(_font.SMALL_DATA[i:i + n]), n, _font.SMALL_H, MONO_VLSB))
    return out


# Each font is one sheet (a FrameBuffer per glyph took 7 KB of the Pico's
# heap): a character is copied from its sheet into its font's cell, then the
# cell is blitted; neither allocates.
SMALL_SHEET = _sheet(_font.SMALL_DATA, _font.SMALL_W, _font.SMALL_H)
BIG_SHEET = _sheet(_font.BIG_DATA, _font.BIG_W, _font.BIG_H)   # printable ASCII in order
SMALL_INDEX = _small_index()
_SMALL_CELL = FrameBuffer(bytearray(_font.SMALL_W), _font.SMALL_W, _font.SMALL_H, MONO_VLSB)
_BIG_CELL = FrameBuffer(bytearray(_font.BIG_W), _font.BIG_W, _font.BIG_H, MONO_VLSB)
_FALLBACK = 31  # '?' - 32

# Blitting through this palette with key=1 draws a sprite's set pixels as 0
# and leaves the rest alone (framebuf maps through the palette, then keys).
_INVERT = FrameBuffer(bytearray(2), 2, 1, MONO_VLSB)
_INVERT.pixel(0, 0, 1)
_INVERT.pixel(1, 0, 0)

# A page (8 rows across the screen) of each colour, for whole-page fills.
_PAGE0 = bytes(WIDTH)
_PAGE1 = b"\xff" * WIDTH


class Canvas(FrameBuffer):
    """The screen: a 128x64 FrameBuffer over `buf` plus the game's text.

    All drawing clips at the edges. `buf` is the 1024-byte bytearray that the
    display driver's `show(buf)` sends.

    Inherited primitives (framebuf's, C on MicroPython), colours 0 or 1:
        fill(c)  pixel(x, y[, c])  hline(x, y, w, c)  vline(x, y, h, c)
        rect(x, y, w, h, c[, fill])  fill_rect(x, y, w, h, c)
        line(x1, y1, x2, y2, c)  blit(sprite, x, y[, key[, palette]])
        scroll(dx, dy)
    Pass their arguments by position: the C methods take no keywords.
    Added here: clear, fill_rows, text, char, num, glyph, invert_rect,
    round_rect. fill() is done a page at a time.

    framebuf's C loops go pixel by pixel (on the RP2040 about 1 us a pixel
    for a blit, 0.25 us for a fill); a page row of `buf` is contiguous, so
    whole pages are filled with one slice assignment instead.
    """

    def __init__(self, buf=None):
        if buf is None:
            buf = bytearray(BUF_SIZE)
        self.buf = buf
        super().__init__(buf, WIDTH, HEIGHT, MONO_VLSB)
        mv = memoryview(buf)
        self.pages = [mv[p * WIDTH:(p + 1) * WIDTH] for p in range(PAGES)]

    def fill(self, c):
        """Every pixel in colour c (the same pixels as framebuf's fill)."""
        src = _PAGE1 if c else _PAGE0
        for pg in self.pages:
            pg[:] = src

    def clear(self):
        self.fill(0)

    def fill_rows(self, y, h, c):
        """Rows y .. y + h - 1 across the whole width in colour c (clipped):
        fill_rect(0, y, WIDTH, h, c), with the whole pages in it done as in
        fill()."""
        ye = y + h
        if y < 0:
            y = 0
        if ye > HEIGHT:
            ye = HEIGHT
        top = (y + 7) & ~7
        if top > ye:
            top = ye
        if top > y:
            self.fill_rect(0, y, WIDTH, top - y, c)
        src = _PAGE1 if c else _PAGE0
        pages = self.pages
        while top + 8 <= ye:
            pages[top >> 3][:] = src
            top += 8
        if top < ye:
            self.fill_rect(0, top, WIDTH, ye - top, c)

    def glyph(self, g, x, y, c=1):
        """Draw the set pixels of sprite `g` in colour `c`; the rest stays."""
        if c:
            self.blit(g, x, y, 0)
        else:
            self.blit(g, x, y, 1, _INVERT)

    def char(self, o, x, y, c=1, font=SMALL):
        """Draw the character with code `o`; return the x after it."""
        adv = 6 if font else 4
        if o != 32 and -adv < x < WIDTH:
            if o < 32 or o > 126:
                o = _FALLBACK
            else:
                o -= 32
            if font:
                cell = _BIG_CELL
                cell.blit(BIG_SHEET, -5 * o, 0)
            else:
                cell = _SMALL_CELL
                cell.blit(SMALL_SHEET, -3 * SMALL_INDEX[o], 0)
            if c:
                self.blit(cell, x, y, 0)
            else:
                self.blit(cell, x, y, 1, _INVERT)
        return x + adv

    def text(self, s, x, y, c=1, font=SMALL):
        """Draw `s` (bytes, bytearray or str) with its top-left at (x, y).

        Fixed advance: 4 px (SMALL, 3x5 glyphs) or 6 px (BIG, 5x7 glyphs).
        Returns the x after the last character. A str costs one encode on
        MicroPython; bytes draw without allocating.
        """
        if isinstance(s, str):
            s = s.encode()
        if font:
            adv = 6
            gw = 5
            sheet = BIG_SHEET
            cell = _BIG_CELL
        else:
            adv = 4
            gw = 3
            sheet = SMALL_SHEET
            cell = _SMALL_CELL
        for i in range(len(s)):
            if x >= WIDTH:
                return x + (len(s) - i) * adv
            o = s[i]
            if o != 32 and x > -adv:
                if o < 32 or o > 126:
                    o = _FALLBACK
                else:
                    o -= 32
                cell.blit(sheet, -gw * (SMALL_INDEX[o] if gw == 3 else o), 0)
                if c:
                    self.blit(cell, x, y, 0)
                else:
                    self.blit(cell, x, y, 1, _INVERT)
            x += adv
        return x

    def num(self, n, x, y, c=1, font=SMALL):
        """Draw the integer `n` in decimal without building a string."""
        adv = 6 if font else 4
        if n < 0:
            x = self.char(45, x, y, c, font)  # '-'
            n = -n
        digits = 1
        t = n
        while t >= 10:
            t //= 10
            digits += 1
        end = x + digits * adv
        px = end - adv
        while True:
            self.char(48 + n % 10, px, y, c, font)
            n //= 10
            if not n:
                break
            px -= adv
        return end

    def invert_rect(self, x, y, w, h):
        """Flip every pixel in the rectangle (clipped)."""
        if x < 0:
            w += x
            x = 0
        if y < 0:
            h += y
            y = 0
        if x + w > WIDTH:
            w = WIDTH - x
        if y + h > HEIGHT:
            h = HEIGHT - y
        if w < 1 or h < 1:
            return
        buf = self.buf
        ye = y + h
        while y < ye:
            top = y & 7
            n = 8 - top
            if n > ye - y:
                n = ye - y
            mask = ((1 << n) - 1) << top
            i = (y >> 3) * WIDTH + x
            end = i + w
            while i < end:
                buf[i] ^= mask
                i += 1
            y += n

    def round_rect(self, x, y, w, h, c=1, f=False):
        """A rectangle with its four corner pixels left out."""
        if f:
            self.fill_rect(x + 1, y, w - 2, h, c)
            self.fill_rect(x, y + 1, 1, h - 2, c)
            self.fill_rect(x + w - 1, y + 1, 1, h - 2, c)
        else:
            self.fill_rect(x + 1, y, w - 2, 1, c)
            self.fill_rect(x + 1, y + h - 1, w - 2, 1, c)
            self.fill_rect(x, y + 1, 1, h - 2, c)
            self.fill_rect(x + w - 1, y + 1, 1, h - 2, c)


def text_width(s, font=SMALL):
    """Width in pixels that `text` advances over `s`."""
    return len(s) * (6 if font else 4)


def num_width(n, font=SMALL):
    """Width in pixels that `Canvas.num` advances over `n`."""
    w = 1
    if n < 0:
        w = 2
        n = -n
    while n >= 10:
        n //= 10
        w += 1
    return w * (6 if font else 4)
