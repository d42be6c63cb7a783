"""The displayio seam of cpdisplay.DisplayPort: orientation pixel by pixel, the
narrowed refresh, a flipped panel, the SH1106, contrast and bus errors; the
pictures come from the SSD1306 emulator fed with the recorded I2C writes."""

import random

import pytest

import busio
import cpdisplay
from firmware.board import board as board_cfg
from firmware.display import fb


class Cfg:
    pass


for _k in dir(board_cfg):
    if _k.isupper():
        setattr(Cfg, _k, getattr(board_cfg, _k))


def cfg(**kw):
    c = type("C", (Cfg,), {})
    for k, v in kw.items():
        setattr(c, k, v)
    return c


def rig(narrow=True, sh1106=False, flip=False, addr=0x3C):
    i2c, emu = busio.I2C.with_display(addr=addr, sh1106=sh1106)
    lines = []
    d, _ = cpdisplay.open_display(i2c, narrow=narrow, out=lines.append,
                                cfg=cfg(DISPLAY_TYPE="sh1106" if sh1106 else "ssd1306",
                                        DISPLAY_FLIP=flip))
    assert not d.headless, lines
    i2c.reset_counts()
    return d, i2c, emu, lines


def rotated(buf):
    out = bytearray(len(buf))
    for y in range(64):
        for x in range(128):
            if buf[(y >> 3) * 128 + x] >> (y & 7) & 1:
                X, Y = 127 - x, 63 - y
                out[(Y >> 3) * 128 + X] |= 1 << (Y & 7)
    return bytes(out)


@pytest.mark.parametrize("narrow", [True, False])
def test_every_bit_of_the_buffer_lands_on_its_pixel(narrow):
    """Byte (y >> 3) * 128 + x, bit y & 7 is pixel (x, y): one pixel at a
    time in a column of each page and a row of each bit."""
    d, i2c, emu, _ = rig(narrow)
    c = fb.Canvas()
    points = [(x, y) for y in range(64) for x in (0, 1, 63, 127) if (x + y) % 3 == 0]
    points += [(x, 37) for x in range(0, 128, 9)]
    for x, y in points:
        c.fill(0)
        c.pixel(x, y, 1)
        d.show(c.buf)
        img = emu.image()
        assert img == c.buf, (x, y)
        assert img[(y >> 3) * 128 + x] == 1 << (y & 7)


def test_random_frames_match_and_cost_what_the_port_says():
    for narrow in (True, False):
        d, i2c, emu, _ = rig(narrow)
        c = fb.Canvas()
        rnd = random.Random(7)
        for _ in range(25):
            c.fill_rect(rnd.randrange(128), rnd.randrange(64), rnd.randrange(1, 40),
                        rnd.randrange(1, 30), rnd.randrange(2))
            i2c.reset_counts()
            n = d.show(c.buf)
            assert n == i2c.bytes
            assert emu.image() == c.buf


def test_an_unchanged_frame_sends_nothing():
    d, i2c, emu, _ = rig()
    c = fb.Canvas()
    c.text(b"GIN", 10, 10)
    assert d.show(c.buf) > 0
    i2c.reset_counts()
    assert d.show(c.buf) == 0 and i2c.bytes == 0


def test_narrowed_refresh_sends_only_changed_columns_of_changed_pages():
    d, i2c, emu, _ = rig()
    c = fb.Canvas()
    c.text(b"GIN RUMMY", 2, 2, 1, fb.BIG)
    d.show(c.buf)
    i2c.reset_counts()
    c.fill_rect(40, 20, 10, 2, 1)       # page 2, columns 40..49
    assert d.show(c.buf) == cpdisplay.WINDOW_BYTES + 10
    assert len(i2c.log) == 3            # column window, page window, data
    assert i2c.log[-1][1] == b"\x40" + bytes(c.buf[2 * 128 + 40:2 * 128 + 50])
    i2c.reset_counts()
    c.pixel(0, 0, 1)
    c.pixel(127, 63, 1)                 # two pages, one column each
    assert d.show(c.buf) == 2 * (cpdisplay.WINDOW_BYTES + 1)
    assert emu.image() == c.buf


def test_the_plain_seam_sends_a_full_frame_every_time():
    d, i2c, emu, _ = rig(narrow=False)
    c = fb.Canvas()
    d.show(c.buf)
    c.pixel(5, 5, 1)
    i2c.reset_counts()
    assert d.show(c.buf) == cpdisplay.FULL_FRAME_BYTES == i2c.bytes
    assert [len(data) for _, data in i2c.log] == [6, 6, 1025]


def test_invalidate_resends_everything():
    d, i2c, emu, _ = rig()
    c = fb.Canvas()
    c.fill(1)
    d.show(c.buf)
    d.invalidate()
    i2c.reset_counts()
    assert d.show(c.buf) == i2c.bytes == 8 * (cpdisplay.WINDOW_BYTES + 128)


def test_a_panel_mounted_upside_down():
    d, i2c, emu, _ = rig(flip=True)
    c = fb.Canvas()
    c.text(b"TOP", 0, 0, 1, fb.BIG)
    c.fill_rect(100, 50, 20, 8, 1)
    d.show(c.buf)
    assert emu.image() == rotated(c.buf)
    c.fill_rect(0, 30, 10, 3, 1)
    d.show(c.buf)
    assert emu.image() == rotated(c.buf)


def test_sh1106_shows_the_frame_in_its_visible_columns():
    d, i2c, emu, lines = rig(sh1106=True)
    assert "SH1106" in lines[-1]
    c = fb.Canvas()
    rnd = random.Random(3)
    for i in range(6):
        c.fill(0)
        c.fill_rect(rnd.randrange(128), rnd.randrange(64), rnd.randrange(1, 40),
                    rnd.randrange(1, 30), 1)
        i2c.reset_counts()
        n = d.show(c.buf)
        assert n == i2c.bytes == cpdisplay.SH1106_FRAME_BYTES
        assert emu.image() == c.buf


def test_contrast_and_power_reach_the_controller():
    d, i2c, emu, _ = rig()
    for v in (0x01, 0x10, 0x60, 0xCF, 0x00, 0xFF):
        d.contrast(v)
        assert emu.contrast == v
    d.power(False)
    assert not emu.display_on
    d.power(True)
    assert emu.display_on


def test_a_bus_error_is_reported_once_and_the_game_goes_on():
    d, i2c, emu, lines = rig()
    c = fb.Canvas()
    d.show(c.buf)
    i2c.fail = OSError(5, "EIO")
    c.fill_rect(0, 0, 30, 30, 1)
    assert d.show(c.buf) == 0
    c.fill_rect(40, 0, 30, 30, 1)
    d.show(c.buf)                       # no exception escapes
    d.contrast(10)
    assert sum("stopped answering" in ln for ln in lines) == 1


def test_other_devices_but_no_display():
    from tools.sim.ssd1306_emu import SSD1306Emu

    i2c = busio.I2C(devices={0x68: SSD1306Emu()})
    lines = []
    d, _ = cpdisplay.open_display(i2c, out=lines.append)
    assert d.headless
    assert "other devices answered: 0x68" in lines[0]
    assert d.show(bytes(1024)) == 0
