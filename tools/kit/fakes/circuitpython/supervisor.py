"""Fake `supervisor`: ticks_ms() reads a settable clock, wrapping at 2**29."""

TICKS_PERIOD = 1 << 29

now_ms = 0  # the fake clock, in ms (unbounded; ticks_ms wraps it)


def ticks_ms():
    return now_ms & (TICKS_PERIOD - 1)


def set_ms(ms):
    global now_ms
    now_ms = ms


def advance(ms):
    global now_ms
    now_ms += ms


class runtime:
    autoreload = True
    serial_connected = True
