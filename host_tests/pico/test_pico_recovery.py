"""The recovery start on the emulated Pico (the frozen .uf2; tools/pico
presses BOOTSEL: the flash's chip select pulled low, which
rp2.bootsel_button() reads): with each /board.json that takes A and B away
from the physical buttons, BOOTSEL held 3 s while the game runs starts it
again with the defaults on the HARDWARE page, where the physical B works;
the start after the next power-on reads the file again. Slow (a boot or
three each)."""

import pytest

from tools.pico import harness as h


TAKES_A_AND_B = [b'{"btn_a": 22, "btn_b": 21}', b'{"btn_b": 22}',
                 b'{"buttons_active_low": false}']


def board(frozen, kit, data):
    # GP21 and GP22, where the file puts A and B, have nothing wired: they
    # read their pull, as on a real board
    return h.Pico(frozen, kit.bootrom, h.fs_image({"/board.json": data}), floating=(21, 22))


@pytest.mark.parametrize("data", TAKES_A_AND_B)
def test_bootsel_held_3s_brings_the_buttons_back(kit, frozen, data):
    with board(frozen, kit, data) as p:
        p.run_until_text("Game running", 30000)
        p.run(500)
        title = p.image()
        # the physical B does nothing on the title with this file: the
        # buttons are elsewhere or read the other way
        p.press("B", hold_ms=100, after_ms=300)
        assert p.image() == title
        p.bootsel(True)
        t = p.t
        p.run_until_text("BOOTSEL was held for 3 s", 5000)
        held_ms = (p.t - t) / 1e6
        assert 2900 <= held_ms <= 3300, held_ms
        p.bootsel(False)
        p.run_until_text("Game running", 30000)
        p.run(500)
        out = p.output()
        start = out.rindex("Gin Rummy ")
        again = out[start:]
        assert "Recovery start (BOOTSEL was held for 3 s while the game ran)" in again
        assert "board.json:" not in again          # the file was not read
        assert "Traceback" not in out
        page = p.image()
        assert page != title                       # the HARDWARE page, its note below
        p.press("B", hold_ms=100, after_ms=500)    # B works again: back to the title
        assert p.image() == title
        # the next power-on reads the file again
        p.power_on()
        p.run_until_text("Game running", 30000)
        assert "Recovery start" not in p.output(boot=p.boot_no)


def test_a_power_cut_after_bootsel_fired_starts_as_usual(kit, frozen):
    with board(frozen, kit, TAKES_A_AND_B[0]) as p:
        p.run_until_text("Game running", 30000)
        p.bootsel(True)
        p.run_until_text("BOOTSEL was held for 3 s", 5000)
        p.bootsel(False)
        p.power_on()                                # the flag was in a register
        p.run_until_text("Game running", 30000)
        assert "Recovery start" not in p.output(boot=p.boot_no)


def test_the_hardware_page_learns_buttons_on_other_pins(kit, frozen):
    # six switches wired to GP16..GP21 instead of GP10..GP15: A held at
    # power-on opens the HARDWARE page (the default A, GP14, is still
    # wired here for that), PINS learns the new ones, and they work at once
    new = [16, 17, 18, 19, 20, 21]
    with h.Pico(frozen, kit.bootrom, None, floating=new) as p:
        p.pin("A", True)
        p.run_until_text("the game starts on the HARDWARE page", 5000)
        p.pin("A", False)
        p.run_until_text("Game running", 30000)
        p.run(300)
        for _ in range(4):                      # down to PINS
            p.press("D", hold_ms=60, after_ms=100)
        p.press("A", hold_ms=60, after_ms=200)  # learn
        for g in new:
            p.gpio(g, True)
            p.run(80)
            p.gpio(g, False)
            p.run(120)
        p.run(500)
        learned = p.image()
        p.press("B", hold_ms=60, after_ms=300)  # the old B: nothing now
        assert p.image() == learned
        p.gpio(21, True)                        # the new B leaves the page
        p.run(80)
        p.gpio(21, False)
        p.run(500)
        assert p.image() != learned
        assert "Traceback" not in p.output()
