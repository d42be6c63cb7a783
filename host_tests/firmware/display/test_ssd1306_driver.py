"""The display driver: what it sends rebuilds the framebuffer exactly in the
emulated controller, it sends little for small changes, and show() allocates
nothing on MicroPython."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.display import fb, glyphs
from firmware.display.ssd1306 import SH1106, SSD1306, detect, driver
from fwtest_util import draw_ops, random_ops, run_micropython
from tools.sim.fakebus import FakeBus


def setup(sh1106=False, flip=False, addr=0x3C):
    bus, emu = FakeBus.with_display(addr=addr, sh1106=sh1106)
    d = driver("sh1106" if sh1106 else "ssd1306")(bus, addr=addr, flip=flip)
    return bus, emu, d


def rotated(buf):
    out = bytearray(1024)
    for y in range(64):
        for x in range(128):
            if (buf[(y >> 3) * 128 + x] >> (y & 7)) & 1:
                yy = 63 - y
                out[(yy >> 3) * 128 + 127 - x] |= 1 << (yy & 7)
    return out


@pytest.mark.parametrize("sh1106", [False, True])
def test_init_leaves_a_blank_lit_display_and_no_unknown_commands(sh1106):
    bus, emu, d = setup(sh1106)
    assert emu.display_on
    assert emu.unknown == []
    assert emu._pending is None
    assert emu.image() == bytes(1024)
    assert emu.seg_remap and emu.com_reverse
    if not sh1106:
        assert emu.mode == 0  # horizontal addressing
        assert emu.charge_pump is True
    else:
        assert emu.charge_pump is True  # DC-DC on


_scene = st.integers(0, 2**32 - 1)


@settings(max_examples=30)
@given(st.lists(_scene, min_size=1, max_size=6), st.booleans(), st.booleans())
def test_emulated_panel_shows_the_framebuffer_after_every_show(seeds, sh1106, flip):
    bus, emu, d = setup(sh1106, flip)
    c = fb.Canvas()
    sprites = []
    for seed in seeds:
        rnd = random.Random(seed)
        draw_ops(c, random_ops(rnd, rnd.randint(1, 6)), sprites)
        n0 = bus.bytes
        sent = d.show(c.buf)
        assert sent == bus.bytes - n0 == d.last_bytes
        want = rotated(c.buf) if flip else c.buf
        assert emu.image() == want
        assert emu.unknown == []


@pytest.mark.parametrize("sh1106", [False, True])
def test_incremental_updates_of_every_span_width(sh1106):
    bus, emu, d = setup(sh1106)
    c = fb.Canvas()
    d.show(c.buf)
    for w in range(1, 129):
        x = (w * 37) % (129 - w)
        c.invert_rect(x, (w * 5) % 60, w, 1 + w % 20)
        d.show(c.buf)
        assert emu.image() == c.buf, w


@pytest.mark.parametrize("sh1106", [False, True])
def test_unchanged_frame_sends_nothing(sh1106):
    bus, emu, d = setup(sh1106)
    c = fb.Canvas()
    c.text("HELLO", 0, 0)
    d.show(c.buf)
    bus.reset_counts()
    assert d.show(c.buf) == 0
    assert bus.bytes == 0 and bus.transactions == 0


@pytest.mark.parametrize("sh1106", [False, True])
def test_single_8x8_change_costs_under_40_bytes(sh1106):
    bus, emu, d = setup(sh1106)
    c = fb.Canvas()
    c.text("SCORE 12", 0, 0, 1, fb.BIG)
    d.show(c.buf)
    for x, y in ((40, 16), (43, 21), (0, 0), (120, 56)):
        c.invert_rect(x, y, 8, 8)
        n = d.show(c.buf)
        assert n < 40, (x, y, n)
        assert emu.image() == c.buf


def test_cursor_move_in_a_hand_is_cheap():
    bus, emu, d = setup()
    c = fb.Canvas()
    for i in range(10):
        glyphs.draw_card(c, i * 5, 2 + i * 10, 49, i == 3)
    d.show(c.buf)
    c.fill_rect(0, 46, 128, 18, 0)
    for i in range(10):
        glyphs.draw_card(c, i * 5, 2 + i * 10, 49, i == 4)
    n = d.show(c.buf)
    assert emu.image() == c.buf
    assert n < 120


@pytest.mark.parametrize("sh1106,expected", [(False, 8 + 8 * 130), (True, 8 * (5 + 130))])
def test_full_show_sends_every_page(sh1106, expected):
    bus, emu, d = setup(sh1106)
    c = fb.Canvas()
    c.fill(1)
    assert d.show(c.buf, full=True) == expected
    assert emu.image() == c.buf
    assert d.show(c.buf, full=True) == expected


def test_a_bus_error_makes_the_next_show_resend_everything():
    bus, emu, d = setup()
    c = fb.Canvas()
    c.text("ONE", 0, 0)
    d.show(c.buf)
    c.text("TWO", 0, 20)
    bus.fail_after = 1
    with pytest.raises(OSError):
        d.show(c.buf)
    bus.fail_after = None
    c.text("3", 0, 40)
    assert d.show(c.buf) >= 1048
    assert emu.image() == c.buf


def test_invalidate_forces_a_full_frame():
    bus, emu, d = setup()
    c = fb.Canvas()
    d.show(c.buf)
    emu.write(bytes((0x40, 0xFF)))  # someone scribbled on the panel
    d.invalidate()
    d.show(c.buf)
    assert emu.image() == c.buf


def test_a_new_buffer_object_is_compared_too():
    bus, emu, d = setup()
    a = fb.Canvas()
    b = fb.Canvas()
    a.text("A", 0, 0)
    b.text("B", 0, 0)
    d.show(a.buf)
    d.show(b.buf)
    assert emu.image() == b.buf
    d.show(a.buf)
    assert emu.image() == a.buf


def test_contrast_invert_power_and_rotate():
    bus, emu, d = setup()
    c = fb.Canvas()
    c.pixel(0, 0, 1)
    d.show(c.buf)
    d.contrast(0x10)
    assert emu.contrast == 0x10
    d.invert(True)
    assert emu.inverse
    d.invert(False)
    d.power(False)
    assert not emu.display_on
    d.power(True)
    d.rotate(True)
    assert emu.image() == rotated(c.buf)
    d.rotate(False)
    assert emu.image() == c.buf


def test_a_display_at_0x3d_works_when_told():
    bus, emu, d = setup(addr=0x3D)
    c = fb.Canvas()
    c.text("OK", 0, 0)
    d.show(c.buf)
    assert emu.image() == c.buf


def test_detect_finds_the_display_address():
    bus, _ = FakeBus.with_display(addr=0x3D)
    assert detect(bus) == 0x3D
    bus, _ = FakeBus.with_display(addr=0x3C)
    assert detect(bus, preferred=0x3D) == 0x3C
    assert detect(FakeBus.empty()) == -1


def test_missing_display_raises_oserror_at_init():
    with pytest.raises(OSError):
        SSD1306(FakeBus.empty())


def test_128x32_panel():
    bus, emu = FakeBus.with_display(height=32)
    d = SSD1306(bus, height=32)
    buf = bytearray(512)
    buf[3] = 0x81
    buf[3 * 128 + 127] = 0x18
    d.show(buf)
    assert emu.image() == buf


HEAP_SCRIPT = r'''
import micropython
from firmware.display import fb, glyphs
from firmware.display.ssd1306 import SH1106, SSD1306
from tools.sim.fakebus import CountingBus

def frames(d, c, counts):
    i = 0
    n = len(counts) - 2
    while i < n:
        w = 1 + (i * 13) % 128
        c.invert_rect((i * 7) % (129 - w), (i * 11) % 60, w, 1 + i % 17)
        glyphs.draw_card(c, i % 52, (i * 10) % 120, 49, i & 1)
        counts[i] = d.show(c.buf)
        i += 1
    counts[n] = d.show(c.buf)          # nothing changed
    counts[n + 1] = d.show(c.buf, True)  # everything

def run(sh1106):
    bus = CountingBus()
    c = fb.Canvas()
    d = (SH1106 if sh1106 else SSD1306)(bus)
    d.show(c.buf)
    counts = [0] * 202
    frames(d, c, counts)  # warm-up: creates the page views once
    b0 = bus.bytes
    micropython.heap_lock()
    try:
        frames(d, c, counts)
        ok = 1
    except MemoryError:
        ok = 0
    micropython.heap_unlock()
    print(ok, sum(counts), bus.bytes - b0, counts[-2], counts[-1])

run(False)
run(True)
'''


def test_show_allocates_nothing_on_micropython():
    lines = run_micropython(HEAP_SCRIPT).strip().splitlines()
    assert len(lines) == 2
    for line, full in zip(lines, (1048, 1080)):
        ok, total, counted, unchanged, full_bytes = map(int, line.split())
        assert ok == 1, "show() allocated under heap_lock"
        assert total == counted  # show()'s return values add up to the bus count
        assert unchanged == 0
        assert full_bytes == full


def test_a_controller_is_a_name_with_its_driver_class():
    # firmware.board.board.DISPLAY_TYPES are the settings file's "display"
    # values: each names a driver class; nothing else does
    from firmware.board import board

    assert [driver(n).controller for n in board.DISPLAY_TYPES] == list(board.DISPLAY_TYPES)
    assert driver("sh1106") is SH1106 and issubclass(SH1106, SSD1306)
    assert (SSD1306.col_offset, SH1106.col_offset) == (0, 2)
    with pytest.raises(ValueError):
        driver("sh1107")
