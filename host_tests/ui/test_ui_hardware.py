"""The HARDWARE page (firmware/screens/hardware.py) in the simulator, with
the device's display port (firmware.picoports.DisplayPort, on the fake
`machine`) over an emulated panel: SH1106 and flip applied at once, the
buttons lit while held, SAVE writing /board.json (its other keys kept),
a refused write said on the screen, the polarity trial undone with no
press, the page left by itself with no press; and the version on the
title and in SETTINGS.
"""

import json
import os
import sys

import pytest

from firmware import boardcfg, boardset, fb
from firmware import buttons as btn
from firmware.ssd1306 import SSD1306
from tools.sim import render
from tools.sim.fakebus import FakeBus
from tools.sim.simulator import Sim
from screen_text import shows
from ui_golden import Golden

FAKES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                     "device", "fakes")


@pytest.fixture
def pico(monkeypatch):
    """firmware.picoports on CPython: the fake `machine`, and MicroPython's
    time functions it names at import."""
    import time
    monkeypatch.syspath_prepend(FAKES)
    for name, f in (("ticks_ms", lambda: int(time.monotonic() * 1000) & 0x3FFFFFFF),
                    ("ticks_us", lambda: int(time.monotonic() * 1e6) & 0x3FFFFFFF),
                    ("ticks_add", lambda a, b: (a + b) & 0x3FFFFFFF),
                    ("ticks_diff", btn.ticks_diff),
                    ("sleep_ms", lambda ms: None)):
        monkeypatch.setattr(time, name, f, raising=False)
    import machine
    machine.setup()
    from firmware import picoports as p
    yield p
    for m in ("firmware.picoports", "firmware.pico", "machine"):
        sys.modules.pop(m, None)


class Pins:
    def __init__(self):
        self.calls = []

    def set_active_low(self, v):
        self.calls.append(v)


def board_sim(tmp_path, pico, sh1106_panel=True, opener=open):
    """A Sim whose panel is an SH1106 driven (at first) as an SSD1306, as
    a .uf2 with the default settings drives a 1.3\" module."""
    sim = Sim()
    sim.bus, sim.emu = FakeBus.with_display(0x3C, sh1106=sh1106_panel)
    port = pico.DisplayPort(SSD1306(sim.bus, 0x3C), out=lambda s: None)
    sim.app.display = port
    pins = Pins()
    sim.app.board = boardset.Hardware(boardcfg.config(), path=str(tmp_path / "board.json"),
                                      display=port, pins=pins, opener=opener)
    return sim, pins


def to_hardware(sim):
    sim.keys("D A")                    # title: SETTINGS
    assert sim.screen == "settings"
    st = sim.app.screen
    while st.keys[st.menu.sel] != "hardware":
        sim.press("D")
    sim.press("A")
    assert sim.screen == "hardware"


def lit(buf, x, y):
    return render.pixel(buf, x, y)


def test_sh1106_and_flip_apply_at_once_and_save_writes_the_file(tmp_path, pico):
    (tmp_path / "board.json").write_text('{"btn_a": 14, "buzzer": 16}')
    sim, _ = board_sim(tmp_path, pico)
    to_hardware(sim)
    canvas = sim.app.canvas.buf
    sim.keys("R")                       # KEY TEST: nothing changes
    assert not sim.app.board.sh1106()
    sim.press("D")
    sim.press("R")                      # the panel's whole frame goes out each step
    # PANEL: SSD1306 -> SH1106, the picture now sits where it should
    assert sim.app.board.sh1106()
    assert sim.image() == bytes(canvas)
    sim.keys("D A")                     # FLIP on
    assert sim.app.board.flip()
    assert sim.image() == render.turned(canvas)
    sim.keys("D D A")                   # SAVE
    assert sim.app.screen.status == b"SAVED IN /BOARD.JSON"
    assert json.loads((tmp_path / "board.json").read_text()) == {
        "btn_a": 14, "buzzer": 16, "display": "sh1106", "flip": True,
        "buttons_active_low": True}
    said = []
    cfg = boardcfg.load(str(tmp_path / "board.json"), said.append)
    assert said == [] and cfg.DISPLAY_TYPE == "sh1106" and cfg.DISPLAY_FLIP
    sim.press("B")
    assert sim.screen == "settings"
    st = sim.app.screen
    assert st.keys[st.menu.sel] == "hardware"


def test_the_panel_shifted_before_the_choice(tmp_path, pico):
    sim, _ = board_sim(tmp_path, pico)
    to_hardware(sim)
    assert sim.image() != bytes(sim.app.canvas.buf)   # SSD1306 set-up on an SH1106


def test_buttons_light_up_while_held(tmp_path, pico):
    sim, _ = board_sim(tmp_path, pico, sh1106_panel=False)
    to_hardware(sim)
    from firmware.screens import hardware as H
    x_of = {}
    x = 1
    for _, bit in H._KEYS:
        x_of[bit] = x
        x += H.KEY_W + H.KEY_GAP
    for bit in (btn.LEFT, btn.RIGHT, btn.A, btn.B):     # on KEY TEST: they change nothing
        img = sim.image()
        assert not lit(img, x_of[bit] + 1, H.KEYS_Y + 1)
        sim.mask = bit
        sim.run(30, 5)
        img = sim.image()
        assert img == bytes(sim.app.canvas.buf)
        assert lit(img, x_of[bit] + 1, H.KEYS_Y + 1), btn.event_name(bit)
        others = [b for b in x_of if b != bit]
        assert not any(lit(img, x_of[b] + 1, H.KEYS_Y + 1) for b in others)
        sim.mask = 0
        sim.run(30, 5)
        if bit != btn.B:
            assert sim.screen == "hardware" and sim.app.screen.menu.sel == 0
            assert not sim.app.board.sh1106() and not sim.app.board.flip()
    assert sim.screen == "settings"     # B's release left the page


def test_a_refused_write_is_said_on_the_screen(tmp_path, pico):
    class Full:
        def __init__(self, path, mode):
            if "w" in mode:
                raise OSError(28, "No space left on device")
            self.f = open(path, mode)

        def read(self, n=-1):
            return self.f.read(n)

        def close(self):
            self.f.close()

    sim, _ = board_sim(tmp_path, pico, sh1106_panel=False, opener=Full)
    to_hardware(sim)
    sim.keys("U A")                     # SAVE (the list wraps)
    assert sim.app.screen.status == b"NOT SAVED: THE FLASH IS FULL"
    assert not (tmp_path / "board.json").exists()
    assert shows(sim.image(), b"NOT SAVED: THE FLASH IS FULL")


def test_a_polarity_with_no_press_is_undone(tmp_path, pico):
    sim, pins = board_sim(tmp_path, pico, sh1106_panel=False)
    to_hardware(sim)
    sim.keys("D D D A")                 # BUTTONS: TO 3V3, on trial
    assert pins.calls == [False] and not sim.app.board.active_low()
    sim.run(9000)
    assert pins.calls == [False, True] and sim.app.board.active_low()
    assert sim.app.screen.status == b"NO PRESS: BUTTONS AS BEFORE"
    sim.keys("A")                       # again, and a press keeps it
    sim.keys("U")
    sim.run(9000)
    assert pins.calls == [False, True, False] and not sim.app.board.active_low()


def test_the_page_leaves_by_itself_with_no_press(tmp_path, pico):
    sim, _ = board_sim(tmp_path, pico)
    sim.app.go("hardware", back=None, prev=sim.app.screen)   # as at power-on, A held
    sim.run(44000)
    assert sim.screen == "hardware"
    sim.run(2000)
    assert sim.screen == "title"


def test_at_power_on_a_message_of_the_boot_waits_behind_the_page(tmp_path):
    # a damaged save's message was showing: after the page it is still there
    sim = Sim()
    sim.app.go("message", title=b"SAVE RESTORED", text="The save before is back.",
               then="title")
    msg = sim.app.screen
    sim.app.go("hardware", back=None, prev=msg)
    sim.settle()
    sim.press("B")
    assert sim.app.screen is msg and msg.title == b"SAVE RESTORED"
    assert sim.image() == bytes(sim.app.canvas.buf)


def test_the_page_without_a_board_says_so(tmp_path):
    sim = Sim()
    to_hardware(sim)
    sim.keys("U A")
    assert sim.app.screen.status == b"NOT SAVED: NOT ON THIS PORT"


def test_golden_hardware_page(tmp_path):
    g = Golden(tmp_path)
    sim = Sim()
    to_hardware(sim)
    g.check(sim, "hardware")
    g.finish()


def test_the_version_on_the_title_and_in_settings():
    from engine.version import VERSION
    sim = Sim()
    assert sim.screen == "title"
    assert shows(sim.image(), ("V" + VERSION).encode(), rows=range(56, 59))
    sim.keys("D A U")                   # SETTINGS, the last row (selected: dark on lit)
    assert shows(sim.image(), b"VERSION", fb.BIG, lit_on_dark=False)
    assert shows(sim.image(), VERSION.encode(), fb.BIG, lit_on_dark=False)
