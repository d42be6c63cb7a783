"""What the two device ports share: firmware/pico.py (MicroPython) and
circuitpython/cpports.py (CircuitPython). Plain Python that imports no
hardware module, so both runtimes can load it.
"""

# The addresses an SSD1306 or SH1106 module answers at, tried after
# board.DISPLAY_ADDR.
ADDRESSES = (0x3C, 0x3D)


def display_address(found, cfg):
    """The display's address among the I2C addresses `found`: board.py's
    DISPLAY_ADDR first, then 0x3C and 0x3D; -1 when none of them answered."""
    for a in (cfg.DISPLAY_ADDR,) + ADDRESSES:
        if a in found:
            return a
    return -1


def bus_error(port, e):
    """A display port's I2C error `e`: the first one since the display last
    answered is reported through port.out; port.errors counts them."""
    if not port.errors:
        port.out("The display stopped answering on I2C (%s). The game goes on; "
                 "check the display's wires." % (e,))
    port.errors += 1


class HeadlessDisplay:
    """No display: frames go nowhere, the game runs on."""

    headless = True
    last_bytes = 0

    def show(self, buf, full=False):
        return 0

    def contrast(self, value):
        pass

    def power(self, on):
        pass

    def invert(self, on):
        pass

    def invalidate(self):
        pass


def show_lines(display, lines):
    """Best effort: a few lines of text on the display (safe boot, errors)."""
    if display is None or display.headless:
        return
    try:
        from firmware import fb

        c = fb.Canvas()
        y = 2
        for s in lines:
            c.text(s, 2, y, 1, fb.BIG)
            y += 10
        display.show(c.buf, True)
    except Exception:
        pass
