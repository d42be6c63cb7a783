"""The chip's facts in one table (firmware/board/chip.py): the chip chosen from
sys.implementation._machine, the RP2040's and the RP2350's registers and
pin rules, and on a chip not in the table the features that need them off
and saying so: no register named (nothing written), the settings file's
pins not checked against a chip, no pin scan, no link UART."""

import pytest

from firmware.board import boardcfg, chip


@pytest.fixture
def chosen():
    """Choose a chip for a test (chip.current() looks it up once)."""
    was = chip._chosen[:]

    def choose(c):
        chip._chosen[:] = [c]
    yield choose
    chip._chosen[:] = was


@pytest.mark.parametrize("machine,want", [
    ("Raspberry Pi Pico with RP2040", chip.RP2040),
    ("Raspberry Pi Pico W with RP2040", chip.RP2040),
    ("Raspberry Pi Pico2 with RP2350", chip.RP2350),
    ("Raspberry Pi Pico 2 W with RP2350-RISCV", chip.RP2350),
    ("Raspberry Pi Pico with rp2040", chip.RP2040),          # CircuitPython's words
    ("ESP32 module with ESP32", chip.UNKNOWN),
    ("Some board with RP2354", chip.UNKNOWN),
])
def test_the_chip_is_chosen_from_the_machine_name(machine, want):
    assert chip.of(machine) is want


def test_a_host_runtime_stands_for_the_pico():
    assert chip.of("linux [GCC 14.2.1] version", host=True) is chip.RP2040
    assert chip.current() is chip.RP2040         # CPython: the simulator's and the tests' Pico


def test_each_chip_names_its_own_watchdog_scratch_register():
    # SCRATCH0 at WATCHDOG_BASE + 0x0C: 0x40058000 on the RP2040,
    # 0x400D8000 on the RP2350 (where 0x40058000 is PLL_USB)
    assert chip.RP2040.scratch == 0x40058000 + 0x0C
    assert chip.RP2350.scratch == 0x400D8000 + 0x0C
    assert chip.UNKNOWN.scratch is None


def test_the_uart_rules_of_each_chip(chosen):
    chosen(chip.RP2040)
    assert [chip.uart_of(t, t + 1) for t in (0, 4, 8, 12, 16, 20, 24, 28)] == [0, 1, 1, 0, 0, 1,
                                                                               1, 0]
    assert chip.uart_of(2, 3) is None and chip.uart_of(8, 10) is None
    assert chip.uart_of(28, 29) == 0 and chip.uart_of(29, 30) is None
    chosen(chip.RP2350)                    # any even GPIO is a TX (the UART's aux pins)
    assert [chip.uart_of(t, t + 1) for t in (0, 2, 4, 6, 8, 10, 12, 14)] == [0, 0, 1, 1, 1, 1, 0, 0]
    assert chip.uart_of(3, 4) is None
    chosen(chip.UNKNOWN)
    assert chip.uart_of(0, 1) is None


def test_the_usual_i2c_pairs_keep_the_i2c_rule():
    for i2c_id, pairs in chip.I2C_PAIRS:
        for sda, scl in pairs:
            assert chip.i2c_pair_ok(i2c_id, sda, scl)
            assert not chip.i2c_pair_ok(1 - i2c_id, sda, scl)


def test_the_header_pins_leave_out_the_boards_own(chosen):
    chosen(chip.RP2040)
    assert chip.header_pins() == tuple(range(23)) + (26, 27, 28)
    assert chip.gp(4) == "GP4 (pin 6)" and chip.gp(28) == "GP28 (pin 34)"
    assert chip.gp(25) == "GP25"            # not on the header
    chosen(chip.UNKNOWN)
    assert chip.header_pins() == () and chip.gp(4) == "GP4"


def test_the_link_pairs_follow_the_chip(chosen):
    from firmware.board.boardset import link_txs

    chosen(chip.RP2040)
    assert link_txs() == [0, 4, 8, 12, 16, 20]
    chosen(chip.RP2350)
    assert link_txs() == [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 26]


def test_on_a_chip_not_in_the_table_the_features_that_need_it_are_off(chosen, tmp_path):
    from firmware.link import linkport

    chosen(chip.UNKNOWN)
    said = []
    p = tmp_path / "board.json"
    p.write_text('{"btn_a": 40, "i2c_sda": 6}')
    cfg = boardcfg.load(str(p), said.append)
    assert said[0].startswith("Checking the pins of board.json against the chip's needs the "
                              "chip's facts") and said[0].endswith("it is off.")
    assert cfg.BTN_A == 40 and cfg.I2C_SDA == 6   # not checked against a chip it does not know
    with pytest.raises(ValueError, match="The link's UART needs the chip's facts"):
        linkport.uart_of(8, 9)
    chosen(chip.RP2040)
    said = []
    cfg = boardcfg.load(str(p), said.append)
    assert "btn_a = 40 is not a GPIO of the RP2040 (0..29)" in said[0] and cfg.BTN_A == 14


def test_a_pin_of_the_rp2350_is_named_as_its_own(chosen, tmp_path):
    chosen(chip.RP2350)
    said = []
    p = tmp_path / "board.json"
    p.write_text('{"btn_a": 30}')
    boardcfg.load(str(p), said.append)
    assert "btn_a = 30 is not a GPIO of the RP2350 (0..29)" in said[0]


def test_no_pin_scan_on_a_chip_not_in_the_table(chosen, monkeypatch):
    import os
    import sys

    from devutil import ROOT

    import time

    monkeypatch.syspath_prepend(os.path.join(ROOT, "host_tests", "firmware", "kit", "fakes"))
    for name in ("ticks_ms", "sleep_ms"):        # MicroPython's, named by firmware.pico.picoports
        monkeypatch.setattr(time, name, lambda *a: 0, raising=False)
    import machine

    machine.setup()
    from firmware.pico import pinscan

    chosen(chip.UNKNOWN)
    said = []
    assert pinscan.scan_pairs(boardcfg.config(), lambda c: "I2C0", said.append) is None
    assert said == [chip.why_not("Looking for the display on other pins")]
    assert not [e for e in machine.LOG if e[0] == "i2c"]      # no bus was tried
    for m in ("firmware.pico.pinscan", "firmware.pico.picoports", "machine"):
        sys.modules.pop(m, None)
