"""Issue 9, check 1: the real Adafruit driver (adafruit_displayio_ssd1306 on
Blinka's displayio, i2cdisplaybus and bitmaptools) behind cpdisplay.DisplayPort
writes to a recording fake I2C bus; the SSD1306 emulator's picture rebuilt
from those writes equals the game's framebuffer on every screen of the UI's
end-to-end test (host_tests/ui/test_ui_e2e.py), driven through the same key
script with a fake clock, the buttons coming in as keypad events.

The UI test's functions run as they are, with its Sim, CheckedSim and Golden
replaced by the CircuitPython ones (cpsim.py): a change to that script is
picked up here.
"""

import os
import sys

import pytest

import cpsim

UI = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ui")
if UI not in sys.path:
    sys.path.insert(0, UI)

import test_ui_e2e  # noqa: E402


@pytest.fixture
def cp_ui(monkeypatch):
    monkeypatch.setattr(test_ui_e2e, "Sim", cpsim.CPSim)
    monkeypatch.setattr(test_ui_e2e, "CheckedSim", cpsim.CheckedCPSim)
    monkeypatch.setattr(test_ui_e2e, "Golden", cpsim.ScreenCheck)
    cpsim.ScreenCheck.seen = []
    return test_ui_e2e


def test_golden_match_screens_through_circuitpython(cp_ui, tmp_path):
    cp_ui.test_ui_golden_match(tmp_path)
    seen = cpsim.ScreenCheck.seen
    for name in ("01_title", "02_play_your_draw", "04_play_menu", "06_play_hint",
                 "09_play_ai_thinking", "13_play_knock_confirm", "15_result",
                 "17_match_end", "19_settings", "20_stats", "21_rules_1"):
        assert name in seen
    assert any(n.startswith("14_showdown_") for n in seen)


def test_boot_with_saves_screens_through_circuitpython(cp_ui, tmp_path):
    cp_ui.test_ui_golden_boot_with_saves(tmp_path)
    assert {"22_title_continue", "23_play_resumed", "24_title_new_match_confirm",
            "25_save_damaged"} <= set(cpsim.ScreenCheck.seen)


def test_drawn_hand_screens_through_circuitpython(cp_ui, tmp_path):
    cp_ui.test_ui_golden_drawn_hand(tmp_path)
    assert "26_result_drawn_hand" in cpsim.ScreenCheck.seen


def test_real_ai_match_through_circuitpython(cp_ui):
    cp_ui.test_ui_real_ai_match_to_the_end()


def test_full_frame_seam_shows_the_same_screens():
    """DisplayPort(narrow=False), the plain seam (the whole 8x1024 bitmap in
    one TileGrid), shows the same pictures, a full frame each time."""
    sim = cpsim.CheckedCPSim(seed=1, narrow=False, settings={"speed": "fast"})
    sim.settle()
    cpsim.assert_panel_is_framebuffer(sim)
    for k in ("A", "R", "L", "B", "D", "A", "B", "B"):
        sim.bus.reset_counts()
        sim.press(k)
    assert sim.app.last_bytes in (0, 1040)


def test_narrowed_frames_cost_less_than_full_ones():
    """A cursor move on the play screen sends only the changed columns of
    the changed pages: far less than a full frame (1040 bytes)."""
    sim = cpsim.CheckedCPSim(seed=1, settings={"speed": "fast"})
    sim.settle()
    sim.press("A")                        # a new match: the play screen
    assert sim.screen == "play"
    sim.press("R")                        # the cursor to the discard pile
    sim.press("L")
    for k in ("R", "L", "R", "L"):
        sim.sent = []
        sim.press(k)
        assert sim.sent, "the cursor move drew nothing"
        assert all(0 < n < 400 for n in sim.sent), sim.sent
