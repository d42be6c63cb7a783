"""The controller emulator follows the datasheet protocol (tools/ssd1306_emu)."""

import errno

import pytest

from tools.sim.fakebus import EIO, ENODEV, CountingBus, FakeBus
from tools.sim.ssd1306_emu import SSD1306Emu


def cmds(*b):
    return bytes((0x00,) + b)


def data(*b):
    return bytes((0x40,) + b)


def on(emu):
    # upright orientation and display on
    emu.write(cmds(0xA1, 0xC8, 0xAF))


def px(img, x, y):
    return (img[(y >> 3) * 128 + x] >> (y & 7)) & 1


def test_reset_state_is_page_mode_display_off():
    e = SSD1306Emu()
    assert e.mode == 2
    assert not e.display_on
    assert e.contrast == 0x7F
    assert e.image() == bytes(1024)


def test_page_mode_writes_at_the_page_and_column_pointers():
    e = SSD1306Emu()
    on(e)
    e.write(cmds(0xB3, 0x05, 0x12))  # page 3, column 0x25
    e.write(data(0xFF, 0x01))
    img = e.image()
    assert img[3 * 128 + 0x25] == 0xFF
    assert img[3 * 128 + 0x26] == 0x01


def test_horizontal_mode_wraps_inside_the_window():
    e = SSD1306Emu()
    on(e)
    e.write(cmds(0x20, 0x00, 0x21, 10, 11, 0x22, 2, 3))
    e.write(data(1, 2, 3, 4, 5))  # 10,11 on page 2; 10,11 on page 3; back to 10 page 2
    assert e.ram[2 * 128 + 10] == 5
    assert e.ram[2 * 128 + 11] == 2
    assert e.ram[3 * 128 + 10] == 3
    assert e.ram[3 * 128 + 11] == 4


def test_vertical_mode_walks_pages_first():
    e = SSD1306Emu()
    e.write(cmds(0x20, 0x01, 0x21, 0, 127, 0x22, 0, 1))
    e.write(data(1, 2, 3))
    assert e.ram[0] == 1
    assert e.ram[128] == 2
    assert e.ram[1] == 3


def test_page_commands_are_ignored_outside_page_mode():
    e = SSD1306Emu()
    e.write(cmds(0x20, 0x00, 0x21, 4, 127, 0x22, 0, 7))
    e.write(cmds(0xB5, 0x00, 0x10))
    e.write(data(9))
    assert e.ram[4] == 9


def test_arguments_are_not_taken_for_commands():
    e = SSD1306Emu()
    # contrast 0xAF must not turn the display on; charge pump arg 0x14
    # must not set a column; scroll setup takes six arguments
    e.write(cmds(0x81, 0xAF, 0x8D, 0x14, 0x26, 0x00, 0xA7, 0x00, 0xA6, 0x00, 0xFF))
    assert not e.display_on
    assert e.contrast == 0xAF
    assert not e.inverse
    assert e.charge_pump is True
    assert e.unknown == []
    assert e._pending is None


def test_arguments_may_follow_in_single_command_units():
    e = SSD1306Emu()
    # Co=1 control bytes, one command byte each
    e.write(bytes((0x80, 0x81, 0x80, 0x10, 0x80, 0xAF)))
    assert e.contrast == 0x10
    assert e.display_on


def test_co_bit_lets_commands_and_data_share_a_transaction():
    e = SSD1306Emu()
    on(e)
    e.write(bytes((0x80, 0xB1, 0x80, 0x02, 0x80, 0x10, 0xC0, 0x55, 0x40, 0x66, 0x77)))
    assert e.ram[128 + 2] == 0x55
    assert e.ram[128 + 3] == 0x66
    assert e.ram[128 + 4] == 0x77


def test_display_off_invert_and_entire_on():
    e = SSD1306Emu()
    on(e)
    e.write(data(0x01))
    assert px(e.image(), 0, 0) == 1
    e.write(cmds(0xA7))
    img = e.image()
    assert px(img, 0, 0) == 0 and px(img, 1, 0) == 1
    e.write(cmds(0xA6, 0xA5))
    assert e.image() == b"\xff" * 1024
    e.write(cmds(0xA4, 0xAE))
    assert e.image() == bytes(1024)


def test_segment_remap_and_com_direction_mirror_the_picture():
    e = SSD1306Emu()
    on(e)
    e.write(data(0x01))  # RAM column 0, row 0
    assert px(e.image(), 0, 0) == 1
    e.write(cmds(0xA0))
    assert px(e.image(), 127, 0) == 1
    e.write(cmds(0xC0))
    assert px(e.image(), 127, 63) == 1
    e.write(cmds(0xA1))
    assert px(e.image(), 0, 63) == 1


def test_start_line_scrolls_the_rows():
    e = SSD1306Emu()
    on(e)
    e.write(cmds(0xB1))
    e.write(data(0x01))  # row 8
    e.write(cmds(0x48))  # start line 8
    assert px(e.image(), 0, 0) == 1


def test_unknown_commands_are_recorded():
    e = SSD1306Emu()
    e.write(cmds(0xFC))
    assert e.unknown == [0xFC]


def test_sh1106_shows_columns_2_to_129_in_page_mode_only():
    e = SSD1306Emu(sh1106=True)
    on(e)
    e.write(cmds(0xB0, 0x00, 0x10))
    e.write(data(0xFF, 0xFF, 0x01))
    img = e.image()
    assert img[0] == 0x01  # RAM column 2 is the first visible one
    e.write(cmds(0x21))  # not an SH1106 command
    assert 0x21 in e.unknown
    e.write(cmds(0xB7, 0x01, 0x18))  # column 129 = last visible
    e.write(data(0x80))
    assert e.image()[7 * 128 + 127] == 0x80


def test_sh1106_column_pointer_stays_on_its_page():
    e = SSD1306Emu(sh1106=True)
    e.write(cmds(0xB2, 0x02, 0x18))  # column 130
    e.write(data(1, 2, 3, 4))
    assert e.ram[2 * 132 + 130] == 1
    assert e.ram[2 * 132 + 131] == 4
    assert e.ram[3 * 132 + 0] == 0


def test_fake_bus_without_a_device_raises_the_configured_errno():
    for err in (EIO, ENODEV):
        bus = FakeBus.empty(error=err)
        assert bus.scan() == []
        with pytest.raises(OSError) as ei:
            bus.writeto(0x3C, b"\x00\xaf")
        assert ei.value.args[0] == err
    assert ENODEV == errno.ENODEV and EIO == errno.EIO


def test_fake_bus_with_a_display_at_0x3d():
    bus, emu = FakeBus.with_display(addr=0x3D)
    assert bus.scan() == [0x3D]
    with pytest.raises(OSError):
        bus.writeto(0x3C, b"\x00\xaf")
    bus.writevto(0x3D, [b"\x00", b"\xaf"])
    assert emu.display_on
    assert bus.bytes == 3 and bus.transactions == 1


def test_fake_bus_can_fail_midway():
    bus, emu = FakeBus.with_display(fail_after=1)
    bus.writeto(0x3C, b"\x00\xaf")
    with pytest.raises(OSError):
        bus.writeto(0x3C, b"\x00\xae")
    assert emu.display_on


def test_counting_bus_counts_address_byte_and_payload():
    bus = CountingBus()
    bus.writeto(0x3C, b"\x40\x01\x02")
    bus.writevto(0x3C, [b"\x40", b"\x01"])
    assert bus.bytes == 4 + 3
    assert bus.transactions == 2
    assert bus.wrong_addr == 0
