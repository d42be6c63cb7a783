"""CircuitPython clock port: milliseconds wrapping at 2**30.

supervisor.ticks_ms(), which wraps at 2**29 (first about 65 s after
power-on), extended by Clock to wrap at 2**30 like MicroPython's
time.ticks_ms, which firmware.buttons.ticks_diff and the App expect.
supervisor is imported where used, so the clock can be tested on any
Python.
"""


class Clock:
    """clock_ms() for the App: milliseconds wrapping at 2**30.

    supervisor.ticks_ms() wraps at 2**29; each wrap seen flips the 2**29 bit
    here, so the result runs on continuously as long as it is read at least
    once every 2**29 ms (6 days; the run loop reads it every few ms). Values
    stay below 2**30: small ints, no allocation."""

    def __init__(self, ticks=None):
        if ticks is None:
            import supervisor

            ticks = supervisor.ticks_ms
        self._ticks = ticks
        self._last = ticks()
        self._high = 0

    def __call__(self):
        t = self._ticks()
        if t < self._last:
            self._high ^= 0x20000000
        self._last = t
        return t | self._high

    def at(self, raw):
        """The clock value of an earlier supervisor.ticks_ms() reading (a
        keypad event's timestamp), taken less than 2**29 ms ago."""
        now = self()
        return (now - ((self._last - raw) & 0x1FFFFFFF)) & 0x3FFFFFFF
