"""Scripted presses on a fake clock, the one way: the simulator's --keys
(tools/sim/simulator.py), the web page's test mode (web/webport.py,
?fakeclock=1) and the emulated Pico's on-board script
(tools/pico/onboard/keyscript.py) all step the app through KeyScript, so
the same seed and keys give the same frames on all three.

A key is held TAP_MS ms (LONG_HOLD_MS for a long one) while the app is
stepped at least every SAMPLE_MS ms (the device samples the buttons from
a timer), released for RELEASE_MS ms, then time advances until the app
waits for input (settle: a wait longer than SETTLE_LIMIT_MS with no button
held). Key names: L R U D A B (or LEFT RIGHT UP DOWN), LA LB (or LONG_A
LONG_B, Z X) for a long A / B, wN to let N ms pass.

Not part of the game: the game never imports it, and the .mpy bundle and
the mip package leave it out (tools/deploy/deploy.py, HOST_ONLY); the web
page packs it, and the emulated Pico gets it with its on-board script.
"""

from firmware import buttons as btn

KEY_BITS = {
    "L": btn.LEFT, "LEFT": btn.LEFT,
    "R": btn.RIGHT, "RIGHT": btn.RIGHT,
    "U": btn.UP, "UP": btn.UP,
    "D": btn.DOWN, "DOWN": btn.DOWN,
    "A": btn.A, "B": btn.B,
}
LONG_KEYS = {"LA": btn.A, "LONG_A": btn.A, "Z": btn.A,
             "LB": btn.B, "LONG_B": btn.B, "X": btn.B}

KEY_HELP = "L R U D A B (or LEFT RIGHT UP DOWN), LA LB (or Z X) for a long A / B, wN to wait N ms"

TAP_MS = 50
SAMPLE_MS = 5
LONG_HOLD_MS = 700
RELEASE_MS = 20
SETTLE_LIMIT_MS = 5000   # a wait longer than this means: waiting for input
FAKE_T0 = 1000


def bad_key(key):
    """Why `key` is not a scripted key name, or None."""
    k = key.upper()
    if k in KEY_BITS or k in LONG_KEYS or (k.startswith("W") and k[1:].isdigit()):
        return None
    return "unknown key %r in --keys: use %s" % (key, KEY_HELP)


class FakeClock:
    """Milliseconds that pass only when told."""

    def __init__(self, t=FAKE_T0):
        self.t = t

    def __call__(self):
        return self.t & 0x3FFFFFFF

    def advance(self, ms):
        self.t += ms


class KeyScript:
    """The stepping, for a class that has `clock` (a FakeClock), `buttons`
    (a firmware Buttons reading `mask`), `mask` (the buttons held) and
    `tick()` (one app step: the ms until the next one is due)."""

    def run(self, ms, max_step=None):
        """Let `ms` pass, stepping whenever the app asks to (and at least
        every `max_step` ms)."""
        clock = self.clock
        end = clock.t + ms
        while True:
            w = self.tick()
            if w < 1:
                w = 1
            if max_step and w > max_step:
                w = max_step
            if clock.t + w > end:
                clock.t = end
                self.tick()
                return
            clock.advance(w)

    def settle(self):
        """Advance time until the app waits for input (or a long timer)."""
        for _ in range(10000):
            w = self.tick()
            if w > SETTLE_LIMIT_MS and not self.buttons.held():
                return
            self.clock.advance(w if w > 1 else 1)
        raise RuntimeError("the app never settled")

    def hold(self, bit, ms):
        """Press `bit` for `ms`, then release it (sampled every SAMPLE_MS)."""
        self.mask = bit
        self.run(ms, SAMPLE_MS)
        self.mask = 0
        self.run(RELEASE_MS, SAMPLE_MS)

    def key(self, key):
        """Play one scripted key, without settling; ValueError for a name
        that is not one."""
        k = key.upper()
        if k.startswith("W") and k[1:].isdigit():
            self.run(int(k[1:]))
        elif k in LONG_KEYS:
            self.hold(LONG_KEYS[k], LONG_HOLD_MS)
        elif k in KEY_BITS:
            self.hold(KEY_BITS[k], TAP_MS)
        else:
            raise ValueError(bad_key(key))
