"""CircuitPython button port: keypad events into firmware.buttons.

`keypad.Keys` on the six pins (`value_when_pressed=False`, `pull=True`;
keypad scans and debounces in the background). KeypadButtons is a
firmware.buttons.Buttons whose poll() (once per frame) first drains the
keypad events into the button mask, sampling at each event's own
timestamp, so a tap that began and ended between two frames is still one
press. keypad has debounced them already, so each event is accepted as
it comes (Buttons' confirm=1, no lockout of its own).
"""

import time

from firmware.board import board as cfg
from firmware.buttons import Buttons, ticks_diff
from firmware.compat import const

from cphw import pin

SLICE_MS = const(10)  # longest sleep between checks for a waiting press


def make_keys(cfg=cfg):
    """keypad.Keys on the six button pins, in firmware.buttons bit order
    (key_number i = bit i = cfg.BUTTON_PINS[i])."""
    import keypad

    pins = tuple(pin(n) for n in cfg.BUTTON_PINS)
    return keypad.Keys(pins, value_when_pressed=not cfg.BUTTONS_ACTIVE_LOW, pull=True)


class KeypadButtons(Buttons):
    """firmware.buttons.Buttons fed by keypad events.

    poll(now) (the App calls it once per frame, the wait loop every few ms)
    drains the keypad's event queue: each event updates the mask of buttons
    down and is sampled at its own timestamp, so firmware.buttons sees the
    press and the release of a short tap at the times they happened (keypad
    reports them at least one scan interval, 20 ms, apart) and reports the
    tap even when both arrive in one poll. An overflowed queue is cleared and
    the keypad reset: buttons still held come back as new presses."""

    def __init__(self, keys, clock, event=None, **kw):
        kw.setdefault("confirm", 1)        # keypad debounced each event already
        kw.setdefault("lockout_ms", 0)
        Buttons.__init__(self, self._read_mask, **kw)
        self.keys = keys
        self.clock = clock
        self.mask = 0
        if event is None:
            import keypad

            event = keypad.Event()
        self._ev = event  # reused by get_into: draining allocates nothing

    def _read_mask(self):
        return self.mask

    def drain(self):
        q = self.keys.events
        if q.overflowed:
            q.clear()
            self.mask = 0
            self.keys.reset()
        ev = self._ev
        at = self.clock.at
        while q.get_into(ev):
            bit = 1 << ev.key_number
            if ev.pressed:
                self.mask |= bit
            else:
                self.mask &= ~bit
            self.sample(at(ev.timestamp))

    def poll(self, now):
        self.drain()
        return Buttons.poll(self, now)


def wait(buttons, clock, ms, sleep=None):
    """Sleep up to `ms` milliseconds; return early once a press is waiting."""
    if ms is None or ms <= 0:
        return
    if sleep is None:
        sleep = time.sleep
    end = (clock() + ms) & 0x3FFFFFFF
    while True:
        now = clock()
        left = ticks_diff(end, now)
        if left <= 0 or buttons.poll(now):
            return
        sleep((left if left < SLICE_MS else SLICE_MS) / 1000)
