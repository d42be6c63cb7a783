"""The HARDWARE page (firmware/screens/hardware.py) in the simulator, with
the device's display port (firmware.pico.picoports.DisplayPort, on the fake
`machine`) over an emulated panel: SH1106 and flip applied at once, the
buttons lit while held, SAVE writing /board.json (its other keys kept),
a refused write said on the screen, the polarity trial undone with no
press, the page left by itself with no press, the buttons' pins learned
by pressing them, the buzzer's pin and its test beep, the recovery
start's note; and the version on the title and in SETTINGS.
"""

import json
import os
import sys

import pytest

from firmware.board import boardcfg, boardset

from firmware.display import fb
from firmware import buttons as btn
from firmware.display.ssd1306 import SSD1306
from tools.sim import render
from tools.sim.fakebus import FakeBus
from tools.sim.simulator import Sim
from screen_text import shows
from ui_golden import Golden

FAKES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                     "firmware", "kit", "fakes")


@pytest.fixture
def pico(monkeypatch):
    """firmware.pico.picoports on CPython: the fake `machine`, and MicroPython's
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
    from firmware.pico import picoports as p
    yield p
    for m in ("firmware.pico.picoports", "firmware.pico.pico", "machine"):
        sys.modules.pop(m, None)


class Pins:
    def __init__(self):
        self.calls = []
        self.learned = []

    def set_active_low(self, v):
        self.calls.append(v)

    def set_pins(self, numbers):
        self.learned.append(tuple(numbers))


def board_sim(tmp_path, pico, sh1106_panel=True, opener=open):
    """A Sim whose panel is an SH1106 driven (at first) as an SSD1306, as
    a .uf2 with the default settings drives a 1.3\" module."""
    sim = Sim()
    sim.bus, sim.emu = FakeBus.with_display(0x3C, sh1106=sh1106_panel)
    port = pico.DisplayPort(SSD1306(sim.bus, 0x3C), out=lambda s: None)
    sim.app.display = port
    pins = Pins()
    path = str(tmp_path / "board.json")
    sim.app.board = boardset.Hardware(boardcfg.load(path, lambda s: None), path=path,
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
    assert sim.app.board.controller() == "ssd1306"
    sim.press("D")
    sim.press("R")                      # the panel's whole frame goes out each step
    # PANEL: SSD1306 -> SH1106, the picture now sits where it should
    assert sim.app.board.controller() == "sh1106"
    assert sim.image() == bytes(canvas)
    sim.keys("D A")                     # FLIP on
    assert sim.app.board.flip()
    assert sim.image() == render.turned(canvas)
    sim.keys("D D D D D A")             # SAVE
    assert sim.app.screen.status == b"SAVED IN /BOARD.JSON"
    # every row's value: the file's buzzer as the page showed it, the pins
    assert json.loads((tmp_path / "board.json").read_text()) == {
        "btn_a": 14, "buzzer": 16, "display": "sh1106", "flip": True,
        "buttons_active_low": True, "btn_left": 10, "btn_right": 11, "btn_up": 12,
        "btn_down": 13, "btn_b": 15, "link_tx": 8, "link_rx": 9}
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
            assert sim.app.board.controller() == "ssd1306" and not sim.app.board.flip()
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


# -- the buttons' pins, learned; the buzzer's pin and its beep ----------------

def to_row(sim, name):
    from firmware.screens import hardware as H
    to_hardware(sim)
    for _ in range(H._ROWS.index(name)):
        sim.press("D")


def on_bar(sim, text):
    """`text` on the selected row (dark on the bar, the BIG font)."""
    return shows(sim.image(), text, fb.BIG, lit_on_dark=False)


def learn(sim, machine, pins, hold_ms=60, gap_ms=60):
    """Press (low: buttons to GND) each GPIO of `pins` in turn."""
    for n in pins:
        machine.LEVELS[n] = 0
        sim.run(hold_ms, 5)
        del machine.LEVELS[n]
        sim.run(gap_ms, 5)


def test_the_buttons_pins_are_learned_by_pressing_each_one(tmp_path, pico):
    import machine
    sim, pins = board_sim(tmp_path, pico, sh1106_panel=False)
    to_row(sim, "pins")
    assert on_bar(sim, b"A GP14 B GP15")
    sim.press("A", settle=False)
    sim.run(30, 5)
    page = sim.app.screen
    assert page.learn is not None and shows(sim.image(), b"PRESS THE BUTTON FOR", fb.BIG)
    new = [20, 21, 22, 26, 27, 15]              # any free pins, B's own kept
    learn(sim, machine, new[:2])
    assert page.learn[1] == new[:2] and shows(sim.image(), b"GP20")
    learn(sim, machine, new[2:])
    assert page.learn is None and pins.learned == [tuple(new)]
    assert sim.app.board.button_pins() == tuple(new)
    assert page.status == b"PINS LEARNED: SAVE KEEPS THEM"
    sim.run(400, 5)
    assert on_bar(sim, b"A GP27 B GP15")
    sim.keys("D D D A")                          # SAVE
    d = json.loads((tmp_path / "board.json").read_text())
    assert [d[k] for k in boardset.BUTTON_KEYS] == new
    said = []
    cfg = boardcfg.load(str(tmp_path / "board.json"), said.append)
    assert said == [] and cfg.BUTTON_PINS == tuple(new)


def test_learning_ignores_the_display_pins_and_a_pin_held_throughout(tmp_path, pico):
    import machine
    sim, pins = board_sim(tmp_path, pico, sh1106_panel=False)
    to_row(sim, "pins")
    machine.LEVELS[7] = 0                        # low before learning began: wired for good
    sim.press("A", settle=False)
    sim.run(30, 5)
    machine.LEVELS[4] = 0                        # SDA: not a button's
    learn(sim, machine, [20])
    machine.LEVELS[20] = 0                       # held on: learned once only
    sim.run(200, 5)
    assert sim.app.screen.learn[1] == [20]
    del machine.LEVELS[4], machine.LEVELS[7], machine.LEVELS[20]


def test_learning_with_no_press_leaves_the_pins_as_they_were(tmp_path, pico):
    sim, pins = board_sim(tmp_path, pico, sh1106_panel=False)
    to_row(sim, "pins")
    sim.press("A", settle=False)
    sim.run(10500, 50)
    page = sim.app.screen
    assert page.learn is None and page.status == b"NO PRESS: PINS AS BEFORE"
    assert pins.learned == [] and sim.app.board.button_pins() == (10, 11, 12, 13, 14, 15)
    assert sim.screen == "hardware"


def test_the_buzzer_row_chooses_a_free_pin_and_beeps_on_it(tmp_path, pico):
    import machine
    sim, _ = board_sim(tmp_path, pico, sh1106_panel=False)
    to_row(sim, "buzzer")
    assert on_bar(sim, b"OFF")
    b = sim.app.board
    seen = []
    for _ in range(len(b.free_pins()) + 1):
        sim.press("R")
        seen.append(b.buzzer_pin())
    assert seen[-1] is None                      # round to OFF
    assert set(seen[:-1]) & {4, 5, 10, 11, 12, 13, 14, 15, 23, 24, 25, 29} == set()
    while b.buzzer_pin() != 16:
        sim.press("R")
    assert on_bar(sim, b"GP16")
    del machine.LOG[:]
    sim.press("A", settle=False)
    sim.run(20, 5)
    assert ("pwm", 16, boardset.BEEP_HZ, 0x8000) in machine.LOG
    sim.run(300, 5)
    assert machine.LOG[-2:] == [("pwm", 16, boardset.BEEP_HZ, 0), ("pwm_deinit", 16)]
    sim.keys("D D A")                            # SAVE
    assert json.loads((tmp_path / "board.json").read_text())["buzzer"] == 16


def test_the_beep_on_the_games_own_buzzer_pin_leaves_it_to_the_game(tmp_path, pico):
    import machine
    (tmp_path / "board.json").write_text('{"buzzer": 16}')
    sim, _ = board_sim(tmp_path, pico, sh1106_panel=False)
    to_row(sim, "buzzer")
    sim.press("A", settle=False)
    sim.run(300, 5)
    assert ("pwm_deinit", 16) not in machine.LOG
    assert machine.LOG[-1] == ("pwm", 16, boardset.BEEP_HZ, 0)


def test_the_link_row_chooses_a_free_uart_pair_and_the_next_link_match_opens_it(tmp_path, pico):
    (tmp_path / "board.json").write_text('{"buzzer": 16, "btn_a": 20}')
    sim, _ = board_sim(tmp_path, pico, sh1106_panel=False)
    to_row(sim, "link")
    assert on_bar(sim, b"GP8 GP9") and shows(sim.image(), b"TX GP8 RX GP9")
    b = sim.app.board
    seen = []
    for _ in range(6):
        sim.press("R")
        seen.append(b.link_pins())
    # the display's GP4/5, the buttons' GP10-13, 15 and 20 and the buzzer's
    # GP16 leave GP0/1 and GP8/9 (and the pair in use)
    assert seen == [(0, 1), (8, 9)] * 3
    assert sim.app.screen.status == b"TX GP8 RX GP9: NEXT LINK"
    sim.press("L")
    assert b.link_pins() == (0, 1) and on_bar(sim, b"GP0 GP1")
    assert shows(sim.image(), b"TX GP0 RX GP1: NEXT LINK")
    sim.keys("D A")                              # SAVE
    saved = json.loads((tmp_path / "board.json").read_text())
    assert (saved["link_tx"], saved["link_rx"]) == (0, 1)
    cfg = boardcfg.load(str(tmp_path / "board.json"), lambda s: None)
    assert (cfg.LINK_TX, cfg.LINK_RX) == (0, 1)
    # the next link match opens the chosen pins, not the ones the boot read
    import machine
    from firmware.pico import pico as P
    del machine.LOG[:]
    port = P._link_uart((8, 9), sim.app)
    assert port.tx == 0 and port.rx == 1 and port.id == 0


def test_the_link_row_without_a_board(tmp_path):
    sim = Sim()
    to_row(sim, "link")
    assert on_bar(sim, b"GP8 GP9")
    sim.press("R")
    assert sim.app.board.link_pins() == (16, 17)   # GP10-15 are the buttons
    sim.keys("L L")
    assert sim.app.board.link_pins() == (0, 1)


def test_the_rows_without_a_board_say_so(tmp_path):
    sim = Sim()
    to_row(sim, "pins")
    sim.press("A")
    assert sim.app.screen.status == b"NOT ON THIS PORT"
    sim.keys("D R")
    assert on_bar(sim, b"GP0")
    sim.press("A")
    assert sim.app.screen.status == b"NO BEEP: NOT ON THIS PORT"


def test_golden_hardware_rows_learning_and_the_recovery_note(tmp_path, pico):
    import machine
    g = Golden(tmp_path)
    sim = Sim()
    to_row(sim, "buzzer")
    g.check(sim, "hardware_rows")
    sim, _ = board_sim(tmp_path, pico, sh1106_panel=False)
    to_row(sim, "pins")
    sim.press("A", settle=False)
    learn(sim, machine, [20, 21])
    g.check(sim, "hardware_learn")
    sim = Sim()
    sim.app.go("hardware", back=None, prev=sim.app.screen, note=b"DEFAULTS: BOARD.JSON IGNORED")
    sim.settle()
    g.check(sim, "hardware_recovery")
    g.finish()


# -- the recovery start's screen (firmware/screens/recovery.py) -------------

def recovery_sim(tmp_path, pico, data=b'{"btn_b": 4, "buttons_active_low": false}'):
    """A Sim on the recovery start's screen, the title behind it, with the
    device's board port over a real /board.json in tmp_path."""
    sim, _ = board_sim(tmp_path, pico, sh1106_panel=False)
    if data is not None:
        (tmp_path / "board.json").write_bytes(data)
    sim.app.go("recovery", prev=sim.app.screen)
    sim.settle()
    return sim


def test_golden_the_recovery_start_offers_to_set_the_file_aside(tmp_path, pico):
    g = Golden(tmp_path)
    sim = recovery_sim(tmp_path, pico)
    assert sim.screen == "recovery"
    assert shows(sim.image(), b"A OR BOOTSEL: SET IT ASIDE")
    g.check(sim, "recovery_offer")
    sim.press("A")                      # set aside: renamed, not deleted
    assert not (tmp_path / "board.json").exists()
    assert (tmp_path / "board.json.aside").read_bytes() == b'{"btn_b": 4, "buttons_active_low": false}'
    g.check(sim, "recovery_set_aside")
    sim.press("A")                      # on to the title, as the start showed it
    assert sim.screen == "title"
    g.finish()


def test_a_second_file_set_aside_takes_the_next_name_and_none_is_renamed_over(tmp_path, pico):
    (tmp_path / "board.json.aside").write_bytes(b"the first")
    sim = recovery_sim(tmp_path, pico, b'{"flip": true}')
    sim.press("A")
    assert (tmp_path / "board.json.aside").read_bytes() == b"the first"
    assert (tmp_path / "board.json.aside2").read_bytes() == b'{"flip": true}'


def test_no_file_to_set_aside_is_said_and_b_keeps_it_on_the_hardware_page(tmp_path, pico):
    sim = recovery_sim(tmp_path, pico, None)
    sim.press("A")
    assert shows(sim.image(), b"NOT SET ASIDE: NO ") and sim.screen == "recovery"
    sim = recovery_sim(tmp_path, pico, b'{"flip": true}')
    sim.press("B")                      # keep it: the HARDWARE page, its note
    assert sim.screen == "hardware" and sim.app.screen.status == b"DEFAULTS: BOARD.JSON IGNORED"
    assert (tmp_path / "board.json").exists()
    sim.press("B")
    assert sim.screen == "title"


def test_the_recovery_screen_in_the_simulator_sets_nothing_aside(tmp_path):
    sim = Sim()
    sim.app.go("recovery", prev=sim.app.screen)
    sim.settle()
    sim.press("A")
    assert shows(sim.image(), b"NOT SET ASIDE: NOT ON THIS")
