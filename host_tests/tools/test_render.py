"""tools/sim/render.py: terminal half-blocks and PNG output of a framebuffer."""

import hashlib

from PIL import Image

from firmware.display import fb
from tools.sim import render
from tools.sim.ssd1306_emu import SSD1306Emu


def test_text_is_32_lines_of_128_characters():
    lines = render.to_text(bytes(1024)).split("\n")
    assert len(lines) == 32
    assert all(len(ln) == 128 and set(ln) == {" "} for ln in lines)


def test_half_blocks_pair_two_pixel_rows():
    c = fb.Canvas()
    c.pixel(0, 0, 1)  # upper only
    c.pixel(1, 1, 1)  # lower only
    c.pixel(2, 2, 1)
    c.pixel(2, 3, 1)  # both, in the second text row
    c.pixel(127, 63, 1)  # lower, last row, last column
    lines = render.to_text(c.buf).split("\n")
    assert lines[0][:3] == "\u2580\u2584 "
    assert lines[1][:3] == "  \u2588"
    assert lines[31][127] == "\u2584"


def test_art_reads_pixels_as_characters():
    c = fb.Canvas()
    c.rect(1, 1, 3, 3, 1)
    assert render.to_art(c.buf, 0, 0, 5, 5) == [".....", ".###.", ".#.#.", ".###.", "....."]


def test_png_is_scaled_and_deterministic(tmp_path):
    c = fb.Canvas()
    c.text("GIN", 0, 0, 1, fb.BIG)
    p1 = render.to_png(c.buf, str(tmp_path / "a.png"))
    p2 = render.to_png(c.buf, str(tmp_path / "b.png"))
    d1 = open(p1, "rb").read()
    assert d1 == open(p2, "rb").read()
    img = Image.open(p1)
    assert img.size == (512, 256)
    assert img.getpixel((0, 0)) == (0, 0, 0)
    # 'G' top row starts at x=1 (".###."): a lit 4x4 square
    assert img.getpixel((4 * 1 + 1, 1)) == render.ON
    assert hashlib.sha256(d1).hexdigest() == hashlib.sha256(open(p2, "rb").read()).hexdigest()


def test_png_with_oled_tint_and_grid(tmp_path):
    c = fb.Canvas()
    c.fill(1)
    p = render.to_png(c.buf, str(tmp_path / "t.png"), scale=3, on=render.OLED_BLUE, grid=True)
    img = Image.open(p)
    assert img.size == (384, 192)
    assert img.getpixel((0, 0)) == render.OLED_BLUE
    assert img.getpixel((2, 2)) == (0, 0, 0)


def test_emulator_renders_through_the_same_functions(tmp_path):
    e = SSD1306Emu()
    e.write(bytes((0x00, 0xA1, 0xC8, 0xAF)))
    e.write(bytes((0x40, 0x03)))
    assert e.to_text().split("\n")[0][0] == "\u2588"
    p = e.to_png(str(tmp_path / "e.png"), scale=1)
    assert Image.open(p).size == (128, 64)
