"""A stand-in for MicroPython's `rp2` on the unix port (device tests):
bootsel_button() reads BOOTSEL[0] (1: the BOOTSEL button is held)."""

BOOTSEL = [0]


def bootsel_button():
    return BOOTSEL[0]
