"""The recovery start on the emulated Pico (the frozen .uf2; tools/pico
presses BOOTSEL: the flash's chip select pulled low, which
rp2.bootsel_button() reads): with each /board.json that takes A and B away
from the physical buttons, BOOTSEL held 3 s while the game runs starts it
again with the defaults on the recovery start's screen, where the physical
B works (on to the HARDWARE page); the start after the next power-on reads
the file again. A file that makes B read held at every start (B on GP4,
which the display's pull-ups hold high): each start is a safe boot, the
third one explains it on the console and the screen, and BOOTSEL held
from 0.5 s to 3 s after power-on reaches the recovery start, where
BOOTSEL alone sets the file aside and goes on to the title. Slow (a boot
or three each)."""

import pytest

from pico_util import same_as_golden
from tools.pico import harness as h
from tools.sim import render


TAKES_A_AND_B = [b'{"btn_a": 22, "btn_b": 21}', b'{"btn_b": 22}',
                 b'{"buttons_active_low": false}']


def board(frozen, kit, data):
    # GP21 and GP22, where the file puts A and B, and GP2 and GP3, where it
    # may put the display, have nothing wired: they read their pull, as on
    # a real board
    return h.Pico(frozen, kit.bootrom, h.fs_image({"/board.json": data}),
                  floating=(2, 3, 21, 22))


def until(p, text, timeout_ms=30000, after=None):
    """Run until `text` is in this power-on's console (it may be already),
    after the last `after` when given."""
    out = p.output(boot=p.boot_no)
    if after is not None:
        out = out[out.rfind(after):] if after in out else ""
    if text not in out:
        p.run_until_text(text, timeout_ms)


def bootsel_after_power_on(p, timeout_ms=10000):
    """BOOTSEL pressed just after plugging in (past the boot ROM's look at
    it), held from 0.5 s to 3 s; returns once the recovery start's game
    runs."""
    p.run(500)
    p.bootsel(True)
    until(p, "Recovery start (BOOTSEL held", timeout_ms)
    p.run(max(0, 3000 - p.t / 1e6))
    p.bootsel(False)
    until(p, "Game running", after="Recovery start")


def blinks(p, ms=4000):
    """The LED's blinks in a row in the last `ms` (its pattern repeats
    every 2 s: a run of 100 ms blinks 200 ms apart, then dark)."""
    ons = [t for t, on in p.led_changes(p.t - ms * 1e6) if on]
    best = run = 1 if ons else 0
    for a, b in zip(ons, ons[1:]):
        run = run + 1 if b - a < 300 else 1
        best = max(best, run)
    return best


@pytest.mark.parametrize("data", TAKES_A_AND_B)
def test_bootsel_held_3s_brings_the_buttons_back(kit, frozen, data):
    with board(frozen, kit, data) as p:
        p.run_until_text("Game running", 30000)
        p.run(5500)                                # past the game's first seconds
        title = p.image()
        # the physical B does nothing on the title with this file: the
        # buttons are elsewhere or read the other way
        p.press("B", hold_ms=100, after_ms=300)
        assert p.image() == title
        p.bootsel(True)
        t = p.t
        p.run_until_text("BOOTSEL held: starting again", 5000)
        held_ms = (p.t - t) / 1e6
        assert 2900 <= held_ms <= 3300, held_ms
        p.bootsel(False)
        until(p, "Recovery start")
        p.run_until_text("Game running", 30000)
        p.run(500)
        out = p.output()
        start = out.rindex("Gin Rummy ")
        again = out[start:]
        assert "Recovery start (BOOTSEL held while the game ran)" in again
        assert "board.json:" not in again          # the file was not read
        assert "Traceback" not in out
        assert "The LED blinks three times" in again
        assert p.image() != title                  # the recovery start's screen
        p.press("B", hold_ms=100, after_ms=500)    # B works again: keep the file ...
        page = p.image()
        assert page != title                       # ... the HARDWARE page, its note below
        p.press("B", hold_ms=100, after_ms=500)    # ... and back to the title
        assert p.image() == title
        assert "/board.json" in p.files()          # kept
        # the next power-on reads the file again
        p.power_on()
        until(p, "Game running")
        assert "Recovery start" not in p.output(boot=p.boot_no)


def test_a_power_cut_after_bootsel_fired_starts_as_usual(kit, frozen):
    with board(frozen, kit, TAKES_A_AND_B[0]) as p:
        p.run_until_text("Game running", 30000)
        p.run(5500)
        p.bootsel(True)
        p.run_until_text("BOOTSEL held: starting again", 5000)
        p.bootsel(False)
        p.power_on()                                # the flag was in a register
        until(p, "Game running")
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


# B on GP4, read active high: the display's pull-ups on GP4 hold it high,
# so B reads held at every start; the file also moves the display to I2C1
# GP2/GP3, where nothing is (the display stays on GP4/GP5)
HOLDS_B = (b'{"buttons_active_low": false, "btn_b": 4, "i2c_id": 1, "i2c_sda": 2, '
           b'"i2c_scl": 3}')


def test_a_file_that_holds_b_at_every_start_is_explained_and_bootsel_brings_it_back(
        kit, frozen, tmp_path):
    with board(frozen, kit, HOLDS_B) as p:
        # three starts in a row are safe boots: the third says why
        for n in (1, 2, 3):
            if n > 1:
                p.power_on()
            until(p, "Safe boot: B was held", 20000)
            until(p, "in the next 5 s", 5000)
            p.run(5200)                            # the BOOTSEL watch ends: the REPL
            out = p.output(boot=p.boot_no)
            assert "Game running" not in out
        assert "B (GP4 (pin 6)) has read as held at 3 starts in a row" in out
        assert '/board.json says "btn_b": 4 and "buttons_active_low": false' in out
        assert "press and hold BOOTSEL" in out
        # the explanation is on the screen too, the display found on GP4/GP5
        render.to_png(p.image(), str(tmp_path / "explained.png"))
        assert sum(bin(b).count("1") for b in p.image()) > 300
        p.power_on()
        bootsel_after_power_on(p, 5000)
        p.run(500)
        out = p.output(boot=p.boot_no)
        assert "board.json:" not in out and "Traceback" not in out
        assert "Recovery start (BOOTSEL held in the safe boot)" in out, out
        screen = p.image()
        # BOOTSEL alone answers: a tap sets the file aside, a tap goes on
        p.bootsel(True)
        p.run(300)
        p.bootsel(False)
        p.run(500)
        assert p.image() != screen                 # SET ASIDE AS /BOARD.JSON.ASIDE
        files = p.files()
        assert "/board.json" not in files and files["/board.json.aside"] == HOLDS_B
        p.bootsel(True)
        p.run(300)
        p.bootsel(False)
        p.run(800)
        assert same_as_golden(p.image(), "86_title_link", tmp_path)
        # the next start uses the defaults without a word
        p.power_on()
        p.run_until_text("Game running", 30000)
        assert "Safe boot" not in p.output(boot=p.boot_no)
        assert "/board.json.held" not in p.files()   # the count cleared


def test_bootsel_held_just_after_power_on_reaches_the_title_with_the_defaults(
        kit, frozen, tmp_path):
    # the file takes A and B away; BOOTSEL held from 0.5 s to 3 s after
    # power-on: the game, running by then, starts again into the recovery
    # start. (The .mpy bundle on an RP2040's stock MicroPython has too
    # little memory for a match: test_pico_boot.py.)
    files = {"/board.json": TAKES_A_AND_B[0]}
    fw = frozen
    with h.Pico(fw, kit.bootrom, h.fs_image(files), floating=(21, 22)) as p:
        bootsel_after_power_on(p)
        p.run(2500)
        assert "Traceback" not in p.output()
        assert blinks(p) == 3                      # the recovery start's LED
        p.press("A", hold_ms=100, after_ms=500)    # the physical A (the defaults' GP14)
        assert "/board.json.aside" in p.files(), p.output()[-1500:]
        p.press("A", hold_ms=100, after_ms=800)
        assert same_as_golden(p.image(), "86_title_link", tmp_path)
