"""Turn a 128x64 MONO_VLSB framebuffer (1024 bytes) into something to look at.

to_text(buf)      32 lines of 128 half-block characters (two pixel rows each)
to_art(buf, ...)  '#'/'.' rows of a region, for tests and glyph reviews
to_image(buf)     a Pillow image; to_png(buf, path) writes it

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


if __name__ == "__main__":
    import sys

    data = open(sys.argv[1], "rb").read()
    if len(sys.argv) > 2:
        to_png(data, sys.argv[2])
    else:
        print(to_text(data))
