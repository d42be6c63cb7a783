"""The display looked for on the usual I2C pin pairs of the Pico's header
(firmware/board/chip.py: I2C_PAIRS), when the configured pins find none
(firmware.pico.pico.open_display at boot); on a chip not in that table, not at
all (it says so).

Its own module, imported only then: a board whose display answers on its
configured pins never loads it (from the .mpy bundle its code would stay on
the heap for the whole game).
"""

import machine

from firmware.board import chip
from firmware.pico.picoports import SETTINGS_FILE
from firmware.port_common import display_address


def _pins_in_use(cfg):
    pins = list(cfg.BUTTON_PINS)
    bz = getattr(cfg, "BUZZER_PIN", None)
    if bz is not None:
        pins.append(bz)
    return pins


def scan_pairs(cfg, where, out=print):
    """The display on the usual pin pairs other than the configured one (a
    pair that uses a button or the buzzer pin, or whose SDA or SCL reads
    low with the pull-up, is skipped): (bus, address, found) and `cfg` set
    to them, with a console line naming the settings that make it
    permanent; None (and a line) when no pair has a display at 0x3C or
    0x3D. `where(cfg)` names the bus for the messages."""
    if not chip.current().name:
        out(chip.why_not("Looking for the display on other pins"))
        return None
    P = machine.Pin
    busy = _pins_in_use(cfg)
    for i2c_id, pairs in chip.I2C_PAIRS:
        for sda, scl in pairs:
            if (i2c_id, sda, scl) == (cfg.I2C_ID, cfg.I2C_SDA, cfg.I2C_SCL):
                continue
            if sda in busy or scl in busy:
                continue
            try:
                # an I2C bus idles high (its pull-ups): a line that reads low
                # has no bus on it, and probing it would wait out each
                # address's clock-stretch timeout
                if P(sda, P.IN, P.PULL_UP).value() != 1 or P(scl, P.IN, P.PULL_UP).value() != 1:
                    continue
                bus = machine.I2C(i2c_id, sda=P(sda), scl=P(scl), freq=cfg.I2C_FREQ)
                found = bus.scan()
            except Exception:
                continue
            if len(found) > 8:
                continue        # lines stuck low answer everywhere: no display there
            addr = display_address(found, cfg)
            if addr < 0:
                continue
            was = where(cfg)
            cfg.I2C_ID, cfg.I2C_SDA, cfg.I2C_SCL = i2c_id, sda, scl
            out("Display found at 0x%02X on %s, not on %s: using it. To keep it, SAVE on "
                "the HARDWARE page (SETTINGS > HARDWARE), or put "
                "\"i2c_id\": %d, \"i2c_sda\": %d, \"i2c_scl\": %d in %s."
                % (addr, where(cfg), was, i2c_id, sda, scl, SETTINGS_FILE))
            cfg.found_by_scan = True
            return bus, addr, found
    out("No display at 0x3C or 0x3D on the other usual I2C pin pairs either.")
    return None
