"""The chip's facts: the RP2040 (Pico, Pico W) and the RP2350 (Pico 2,
Pico 2 W) in one table, the chip chosen once from
sys.implementation._machine ("Raspberry Pi Pico with RP2040",
"Raspberry Pi Pico2 with RP2350"; CircuitPython writes "rp2040").

    from firmware.board import chip
    c = chip.current()
    c.name        "RP2040", "RP2350", or "" on a chip not in the table
                  (UNKNOWN)
    c.scratch     the watchdog's SCRATCH0 (a soft reset keeps it, a power
                  cut clears it; the SDK and the boot ROM use 4..7): the
                  recovery start's flag (firmware.pico.picoports); None: no
                  register of this chip is ever written
    c.npins       GPIOs GP0 .. GP(npins - 1); 0 when not known
    c.internal    {gpio: words}: what the Pico board wires there itself
    c.uart_step   a UART's TX is every `uart_step`th GPIO (RP2040: GP0, 4,
                  8 ...; RP2350: any even GPIO), its RX the next one

and i2c_pair_ok(), uart_of(), a GPIO's pin on the header (gp()), and the
usual I2C pin pairs the boot looks for a display on (I2C_PAIRS).

On a chip not in the table (another MicroPython port) what needs these
facts is off and says so (why_not()): the recovery start through a soft
reset, the checks of the pins in /board.json, the pin scan, the link's
UART. The host runtimes (CPython, the unix and WebAssembly ports: the
simulator, the web page, the tests) stand for the Pico, an RP2040.

Both chips' GPIO functions put I2C block (n >> 1) & 1 on GPIO n, SDA on
the even ones, SCL on the odd ones, and a UART's pins in groups of eight:
UART0 on GP0-3, 12-19 and 28-29, UART1 on GP4-11 and 20-27 (machine_i2c.h
and machine_uart.c of the rp2 port check the same). The RP2350B (48 GPIOs)
is not told apart from the Pico 2's RP2350A: GP30 .. GP47 are refused.

Needed at boot and by the HARDWARE page: a cold module, let go with the
bring-up (firmware.pico.pico.let_go_bringup).
"""

import sys

# Physical pin numbers of the Pico boards' GPIOs (the same on the Pico,
# the Pico W, the Pico 2 and the Pico 2 W), 0 where none (GP23-25 are
# wired on the board itself).
_HEADER = bytes((1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22,
                 24, 25, 26, 27, 29, 0, 0, 0, 31, 32, 34))

# The Pico boards' own wiring (the W's radio uses the same four GPIOs).
INTERNAL = {23: "GP23 sets the power supply's mode", 24: "GP24 senses USB power",
            25: "GP25 is the on-board LED", 29: "GP29 measures VSYS"}

# The usual I2C pin pairs (SDA, SCL) of each block on the Pico's header.
I2C_PAIRS = (
    (0, ((0, 1), (4, 5), (8, 9), (12, 13), (16, 17), (20, 21))),
    (1, ((2, 3), (6, 7), (10, 11), (14, 15), (18, 19), (26, 27))),
)


class Chip:
    """One row of the table (see the module's docstring)."""

    def __init__(self, name, scratch, npins, internal, uart_step):
        self.name = name
        self.scratch = scratch
        self.npins = npins
        self.internal = internal
        self.uart_step = uart_step


RP2040 = Chip("RP2040", 0x4005800C, 30, INTERNAL, 4)   # WATCHDOG_BASE 0x40058000
RP2350 = Chip("RP2350", 0x400D800C, 30, INTERNAL, 2)   # WATCHDOG_BASE 0x400D8000
UNKNOWN = Chip("", None, 0, {}, 0)

_chosen = []


def of(s, host=False):
    """The Chip whose name `s` (sys.implementation._machine) holds; the
    RP2040 on a host runtime (`host`); else UNKNOWN."""
    s = s.upper()
    for c in (RP2040, RP2350):
        if c.name in s:
            return c
    return RP2040 if host else UNKNOWN


def current():
    """This board's Chip (looked up once): a host runtime is CPython (no
    _machine) or MicroPython's unix and WebAssembly ports."""
    if not _chosen:
        impl = sys.implementation
        _chosen.append(of(getattr(impl, "_machine", ""), not hasattr(impl, "_machine")
                          or sys.platform in ("linux", "webassembly")))
    return _chosen[0]


def why_not(s):
    """The words of a feature `s` that is off on a chip not in the table."""
    return ("%s needs the chip's facts, and this board's (%s) is not an RP2040 or an "
            "RP2350: it is off." % (s, getattr(sys.implementation, "_machine", "?")))


def gp(n):
    """'GP4 (pin 6)': a GPIO as printed on the board and its pin number."""
    if current().name and 0 <= n < len(_HEADER) and _HEADER[n]:
        return "GP%d (pin %d)" % (n, _HEADER[n])
    return "GP%d" % n


def i2c_pair_ok(i2c_id, sda, scl):
    """True when SDA and SCL are pins of I2C block `i2c_id` (SDA on
    GP(4k + 2 * id), SCL on GP(4k + 2 * id + 1))."""
    return sda % 4 == 2 * i2c_id and scl % 4 == 2 * i2c_id + 1


def uart_of(tx, rx):
    """The UART (0 or 1) whose TX and RX these GPIOs are, or None: TX on
    every uart_step-th GPIO, RX the next one, both below npins."""
    c = current()
    if (c.uart_step == 0 or type(tx) is not int or type(rx) is not int
            or tx % c.uart_step != 0 or rx != tx + 1 or not 0 <= tx < c.npins - 1):
        return None
    return ((tx + 4) >> 3) & 1


def header_pins():
    """The GPIOs on the header a button, the buzzer or the link may use
    (all but the board's own wiring)."""
    c = current()
    return tuple(n for n in range(c.npins) if n not in c.internal)
