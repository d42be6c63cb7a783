"""Turn a 128x64 MONO_VLSB framebuffer (1024 bytes) into something to look at.

to_text(buf)      32 lines of 128 half-block characters (two pixel rows each)
to_quads(buf)     32 lines of 64 quadrant-block characters (2x2 pixels each)
to_braille(buf)   16 lines of 64 braille characters (2x4 pixels each)
from_text(lines)  any of those three back into a 1024-byte buffer (tests)
to_art(buf, ...)  '#'/'.' rows of a region, for tests and glyph reviews
to_image(buf)     a Pillow image; to_png(buf, path) writes it
from_png(path)    a PNG to_png wrote (any whole-number scale) back into a buffer (tests)
turned(buf)       the picture turned 180 degrees (a flipped panel)

Host only (CPython): the simulator and the tests use it, the device never.
"""

WIDTH = 128
HEIGHT = 64

# (upper pixel, lower pixel) -> character
_HALF = (" ", "\u2584", "\u2580", "\u2588")  # index = upper * 2 + lower

ON = (255, 255, 255)
OFF = (0, 0, 0)
OLED_BLUE = (150, 215, 255)


def pixel(buf, x, y, width=WIDTH):
    return (buf[(y >> 3) * width + x] >> (y & 7)) & 1


def to_text(buf, width=WIDTH, height=HEIGHT):
    """Render as (height + 1) // 2 lines of `width` characters joined by
    newlines: '\u2580' upper pixel lit, '\u2584' lower, '\u2588' both, ' ' none."""
    lines = []
    for row in range(0, height, 2):
        page = (row >> 3) * width
        sh = row & 7
        chars = []
        for x in range(width):
            b = buf[page + x]
            up = (b >> sh) & 1
            lo = (b >> (sh + 1)) & 1 if row + 1 < height else 0
            chars.append(_HALF[up * 2 + lo])
        lines.append("".join(chars))
    return "\n".join(lines)


# 2x2 pixels -> character, index = upper-left + 2 upper-right + 4 lower-left
# + 8 lower-right
_QUAD = (" \u2598\u259d\u2580\u2596\u258c\u259e\u259b"
         "\u2597\u259a\u2590\u259c\u2584\u2599\u259f\u2588")
# braille dot bits of the 2x4 cell, by (column, row)
_BRAILLE = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


def _cells(buf, cw, ch, width, height, char):
    lines = []
    for y in range(0, height, ch):
        out = []
        for x in range(0, width, cw):
            out.append(char(buf, x, y))
        lines.append("".join(out))
    return "\n".join(lines)


def to_quads(buf, width=WIDTH, height=HEIGHT):
    """Render as height // 2 lines of width // 2 quadrant blocks."""
    def char(b, x, y):
        return _QUAD[pixel(b, x, y, width) | pixel(b, x + 1, y, width) << 1
                     | pixel(b, x, y + 1, width) << 2 | pixel(b, x + 1, y + 1, width) << 3]
    return _cells(buf, 2, 2, width, height, char)


def to_braille(buf, width=WIDTH, height=HEIGHT):
    """Render as height // 4 lines of width // 2 braille characters (each
    dot a pixel; an empty cell is U+2800, the blank braille pattern)."""
    def char(b, x, y):
        v = 0
        for dx in range(2):
            for dy in range(4):
                if pixel(b, x + dx, y + dy, width):
                    v |= _BRAILLE[dx][dy]
        return chr(0x2800 + v)
    return _cells(buf, 2, 4, width, height, char)


def from_text(lines, width=WIDTH, height=HEIGHT):
    """The buffer that to_text, to_quads or to_braille drew `lines` from
    (the kind is told by the line length and the characters)."""
    buf = bytearray(width * height // 8)

    def put(x, y):
        buf[(y >> 3) * width + x] |= 1 << (y & 7)

    for row, ln in enumerate(lines):
        for col, ch in enumerate(ln):
            o = ord(ch)
            if ch in _HALF and len(ln) == width:
                v = _HALF.index(ch)
                if v & 2:
                    put(col, 2 * row)
                if v & 1:
                    put(col, 2 * row + 1)
            elif 0x2800 <= o <= 0x28FF:
                v = o - 0x2800
                for dx in range(2):
                    for dy in range(4):
                        if v & _BRAILLE[dx][dy]:
                            put(2 * col + dx, 4 * row + dy)
            else:
                v = _QUAD.index(ch)
                for k, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
                    if v >> k & 1:
                        put(2 * col + dx, 2 * row + dy)
    return bytes(buf)


def to_art(buf, x=0, y=0, w=WIDTH, h=HEIGHT, on="#", off=".", width=WIDTH):
    """The region as h strings of w characters, one per pixel row."""
    rows = []
    for yy in range(y, y + h):
        rows.append("".join(on if pixel(buf, xx, yy, width) else off
                            for xx in range(x, x + w)))
    return rows


def to_image(buf, scale=4, on=ON, off=OFF, width=WIDTH, height=HEIGHT, grid=False):
    """A Pillow RGB image, each pixel a scale x scale square. With `grid`,
    a one-pixel dark line separates the squares (an OLED look; scale >= 3)."""
    from PIL import Image

    small = Image.new("1", (width, height), 0)
    px = small.load()
    for yy in range(height):
        base = (yy >> 3) * width
        sh = yy & 7
        for xx in range(width):
            if (buf[base + xx] >> sh) & 1:
                px[xx, yy] = 1
    img = Image.new("RGB", (width, height), off)
    img.paste(on, (0, 0, width, height), small)
    if scale != 1:
        img = img.resize((width * scale, height * scale), Image.NEAREST)
    if grid and scale >= 3:
        gpx = img.load()
        gap = tuple(c // 4 for c in off) if any(off) else (0, 0, 0)
        for yy in range(height * scale):
            for xx in range(width * scale):
                if xx % scale == scale - 1 or yy % scale == scale - 1:
                    gpx[xx, yy] = gap
    return img


def to_png(buf, path, scale=4, on=ON, off=OFF, width=WIDTH, height=HEIGHT, grid=False):
    """Write the framebuffer as a PNG (deterministic bytes for equal input)."""
    to_image(buf, scale, on, off, width, height, grid).save(path, format="PNG", optimize=False)
    return path


def from_png(path, width=WIDTH, height=HEIGHT):
    """The MONO_VLSB buffer of a PNG to_png wrote (any whole-number scale)."""
    from PIL import Image

    im = Image.open(path).convert("1")
    scale = im.size[0] // width
    buf = bytearray(width * height // 8)
    for y in range(height):
        for x in range(width):
            if im.getpixel((x * scale, y * scale)):
                buf[(y >> 3) * width + x] |= 1 << (y & 7)
    return bytes(buf)


def turned(buf, width=WIDTH, height=HEIGHT):
    """The MONO_VLSB buffer turned 180 degrees (what a flipped panel shows)."""
    out = bytearray(len(buf))
    for y in range(height):
        for x in range(width):
            if pixel(buf, x, y, width):
                yy, xx = height - 1 - y, width - 1 - x
                out[(yy >> 3) * width + xx] |= 1 << (yy & 7)
    return bytes(out)


if __name__ == "__main__":
    import sys

    data = open(sys.argv[1], "rb").read()
    if len(sys.argv) > 2:
        to_png(data, sys.argv[2])
    else:
        print(to_text(data))
