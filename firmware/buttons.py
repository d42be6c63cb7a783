"""Button input without hardware: debounce, latch, auto-repeat, long press.

The port supplies `read()`, returning a mask of the buttons pressed now
(bits below; active-low pins already inverted), and the millisecond clock
(`time.ticks_ms()`, wrapping at 2**30).

    buttons = Buttons(read)
    # optional, often: from a timer or pin IRQ, so short taps are latched
    buttons.sample(time.ticks_ms())
    # once per frame
    buttons.poll(time.ticks_ms())
    ev = buttons.event()
    while ev:
        ...            # LEFT, RIGHT, UP, DOWN, A, B, LONG_A, LONG_B
        ev = buttons.event()

Rules:
- Debounce: a button's new reading is accepted when `confirm` samples in a
  row (2) agree on it, at least `settle_ms` (2 ms) apart, and not sooner
  than `lockout_ms` (20 ms) after that button's last accepted change. Counting samples, not time, means a
  one-sample glitch is never a change, however long the gap before the
  next sample (the sampler is a soft timer: a frame or a flash write can
  hold it off for 25 ms and more); the lockout swallows contact bounce up
  to 20 ms after a press or a release, so a bouncing tap is one press. A
  deliberate press is accepted at its second sample (2-4 ms with the
  device's 2 ms sampler). `confirm=1` is for readers that debounce already
  (CircuitPython's keypad) or are sampled only at their edges (a pin IRQ).
- Latch: accepted changes go into a small preallocated event queue, so a tap
  that starts and ends between two frames is still reported at the next
  frame, provided sample() ran during it (a timer every few ms).
- Direction buttons (not in `long_mask`) report on press. Those in
  `repeat_mask` (LEFT, RIGHT) repeat while held: first after
  `repeat_delay_ms` (400), then every `repeat_ms` (120); a repeat is the same
  event as a press.
- Buttons in `long_mask` (A, B) report on release (A or B), or, once held for
  `long_ms` (600), report LONG_A / LONG_B at that moment and nothing on
  release.
- `suppress()` mutes the buttons held now until they are released (a press
  that only woke the screen, B held at boot).

sample(), poll() and event() allocate nothing; sample() may run in an
interrupt (re-entry is skipped).
"""

from firmware.compat import const

# Bits of the mask read() returns, in pin-map order. A press event is the
# button's bit.
LEFT = const(0x01)
RIGHT = const(0x02)
UP = const(0x04)
DOWN = const(0x08)
A = const(0x10)
B = const(0x20)
ALL = const(0x3F)
NBUTTONS = const(6)

# Events: 0 means none; a press is the button's bit; LONG is or'ed in.
NONE = const(0)
LONG = const(0x40)
LONG_A = const(0x50)
LONG_B = const(0x60)

CONFIRM = const(2)        # samples in a row that must agree on a change
SETTLE_MS = const(2)      # ... the first of them at least this long before
LOCKOUT_MS = const(20)    # no second change of a button sooner than this
REPEAT_DELAY_MS = const(400)
REPEAT_MS = const(120)
LONG_MS = const(600)

_TICKS_MASK = const(0x3FFFFFFF)
_TICKS_HALF = const(0x20000000)

NAMES = ("LEFT", "RIGHT", "UP", "DOWN", "A", "B")


def ticks_diff(a, b):
    """a - b for millisecond ticks that wrap at 2**30 (as time.ticks_diff)."""
    d = (a - b) & _TICKS_MASK
    if d >= _TICKS_HALF:
        d = d - _TICKS_MASK - 1
    return d


def event_name(ev):
    """'LEFT', 'LONG_B'... for logs and tests (allocates; not for hot paths)."""
    if not ev:
        return "NONE"
    bit = ev & ALL
    i = 0
    while bit > 1:
        bit >>= 1
        i += 1
    return ("LONG_" if ev & LONG else "") + NAMES[i]


class Buttons:
    def __init__(self, read, repeat_mask=LEFT | RIGHT, long_mask=A | B,
                 confirm=CONFIRM, settle_ms=SETTLE_MS, lockout_ms=LOCKOUT_MS,
                 repeat_delay_ms=REPEAT_DELAY_MS,
                 repeat_ms=REPEAT_MS, long_ms=LONG_MS, queue_size=16):
        if queue_size & (queue_size - 1):
            raise ValueError("queue_size must be a power of two")
        if confirm != 1 and confirm != 2:
            raise ValueError("confirm is 1 or 2 samples")
        self._read = read
        self.repeat_mask = repeat_mask & ~long_mask
        self.long_mask = long_mask
        self.confirm = confirm
        self.settle_ms = settle_ms
        self.lockout_ms = lockout_ms
        self.repeat_delay_ms = repeat_delay_ms
        self.repeat_ms = repeat_ms
        self.long_ms = long_ms
        self._raw = 0  # last reading
        self._raw_t = 0  # when it was first seen
        self._stable = 0  # debounced state
        self._mute = 0  # held buttons that report nothing until released
        self._long_done = 0  # long_mask buttons whose LONG has been reported
        self._t = [0] * NBUTTONS  # press time (long) / next repeat time
        self._chg = [0] * NBUTTONS  # when each button last changed (lockout)
        self._locked = 0  # buttons whose lockout may still run
        self._q = bytearray(queue_size)
        self._qmask = queue_size - 1
        self._head = 0  # next to read (consumer only)
        self._tail = 0  # next to write (producer only)
        self._busy = False
        self.dropped = 0  # events lost to a full queue
        self.last_change = 0  # ticks of the last accepted press or release

    # -- producer side --
    def _push(self, ev):
        t = self._tail
        nt = (t + 1) & self._qmask
        if nt == self._head:
            self.dropped += 1
            return
        self._q[t] = ev
        self._tail = nt

    def sample(self, now):
        """Read the buttons once; call as often as possible (timer, IRQ)."""
        if self._busy:
            return
        self._busy = True
        try:
            raw = self._read() & ALL
            if raw != self._raw:
                self._raw = raw
                self._raw_t = now
                if self.confirm > 1:
                    raw = self._stable  # seen once: no change yet
            elif self.confirm > 1 and ticks_diff(now, self._raw_t) < self.settle_ms:
                raw = self._stable      # seen again too soon
            change = raw ^ self._stable
            if change & self._locked:
                change = self._unlocked(change, now)
            if change:
                self._accept(self._stable ^ change, now)
            if self._stable & ~self._mute & (self.repeat_mask | self.long_mask):
                self._timers(now)
        finally:
            self._busy = False

    def _unlocked(self, change, now):
        """`change` without the buttons still in their lockout."""
        chg = self._chg
        bit = 1
        i = 0
        while i < NBUTTONS:
            if change & self._locked & bit:
                if ticks_diff(now, chg[i]) < self.lockout_ms:
                    change &= ~bit
                else:
                    self._locked &= ~bit
            bit <<= 1
            i += 1
        return change

    def _accept(self, new, now):
        old = self._stable
        pressed = new & ~old
        released = old & ~new
        self._stable = new
        self.last_change = now
        if self.lockout_ms:
            self._locked |= pressed | released
        mute = self._mute
        t = self._t
        chg = self._chg
        bit = 1
        i = 0
        while i < NBUTTONS:
            if (pressed | released) & bit:
                chg[i] = now
            if pressed & bit:
                if bit & self.long_mask:
                    t[i] = now
                else:
                    self._push(bit)
                    if bit & self.repeat_mask:
                        t[i] = (now + self.repeat_delay_ms) & _TICKS_MASK
            elif released & bit:
                if bit & self.long_mask and not (mute | self._long_done) & bit:
                    self._push(bit)
                self._long_done &= ~bit
            bit <<= 1
            i += 1
        self._mute = mute & ~released

    def _timers(self, now):
        held = self._stable & ~self._mute
        t = self._t
        bit = 1
        i = 0
        while i < NBUTTONS:
            if held & bit:
                if bit & self.repeat_mask:
                    if ticks_diff(now, t[i]) >= 0:
                        self._push(bit)
                        nt = t[i] + self.repeat_ms
                        if ticks_diff(now, nt) >= 0:
                            nt = now + self.repeat_ms  # fell behind: no burst
                        t[i] = nt & _TICKS_MASK
                elif bit & self.long_mask & ~self._long_done:
                    if ticks_diff(now, t[i]) >= self.long_ms:
                        self._push(bit | LONG)
                        self._long_done |= bit
            bit <<= 1
            i += 1

    # -- consumer side --
    def poll(self, now):
        """Sample once more and return how many events wait; once a frame."""
        self.sample(now)
        return (self._tail - self._head) & self._qmask

    def event(self):
        """The next event, or NONE (0) when there is none."""
        h = self._head
        if h == self._tail:
            return NONE
        ev = self._q[h]
        self._head = (h + 1) & self._qmask
        return ev

    def clear(self):
        """Drop every waiting event."""
        self._head = self._tail

    def suppress(self):
        """Mute the buttons held now until they are released."""
        self._mute |= self._stable

    def held(self):
        """The debounced mask of buttons down now."""
        return self._stable

    def idle_ms(self, now):
        """Milliseconds since the last accepted press or release."""
        return ticks_diff(now, self.last_change)
