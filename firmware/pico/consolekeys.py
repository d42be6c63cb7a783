"""Keys typed on the serial console as the six buttons.

Keys (KeyDecoder, the simulator's map):

  arrows              LEFT RIGHT UP DOWN
  z, Enter, space     A            x, Backspace      B
  Z                   hold A       X                 hold B
  q, Ctrl-C           QUIT (the simulator quits; on the board Ctrl-C stops
                      the game, q is ignored)

ConsoleKeys reads stdin without blocking and turns each key into a press of
that button: held TAP_MS (HOLD_MS for Z / X), then released for GAP_MS, one
key at a time, so keys typed quickly (or pasted) are played in order. Its
read() is or'ed into the button pins' reading and goes through the same
debounce and latch as the real buttons (firmware.buttons).

A typed key is never lost to a busy loop: the debounce takes a change at
its second reading, no sooner than its lockout after the button's last
change, so the press (and the release after it) lasts until read() itself
has returned it over SEEN_MS, however late the readings come: a loop step
longer than the tap (the simulator's text view reads the whole panel back
after a frame, about 300 ms) does not end a press the debounce has read
only once (host_tests/firmware/pico/test_device_headless.py,
host_tests/ui/test_ui_tmux.py).

Ctrl-C on the board: the game stops, and the bytes typed after the Ctrl-C
are left for the REPL. That is how mpremote reaches a board that runs the
game: it sends "\r\x03" (stop), then "\r\x01" (the raw REPL) at once, and
MicroPython's USB console catches the Ctrl-C as an interrupt, clears what
came before it and keeps what comes after. When the game read the console
between the interrupt and its stop (the interrupt landed in the button
sampler's timer callback, which only notes it), it took the "\r\x01" as
keys, the REPL never saw the Ctrl-A and mpremote said "could not enter raw
repl". So on the board (`hold_intr`: micropython.kbd_intr) the console's
interrupt is off while the game reads the console, a Ctrl-C arriving then
comes in the data, and the reading stops at it (`interrupted`); before
reading, `stop.ctrl_c` (the sampler's note) is looked at with the
interrupt already off, so no interrupt can land unseen between the look
and the reading. Elsewhere (the simulator, the tests) Ctrl-C is QUIT.
"""

import sys

from firmware.compat import const
from firmware import buttons as btn
from firmware.buttons import ticks_diff

TAP_MS = const(60)      # how long a typed key holds its button down
GAP_MS = const(40)      # released this long before the next typed key
HOLD_MS = const(700)    # Z / X: a long press of A / B (firmware.buttons LONG_MS 600)
# Each phase of a key (held, then released) lasts until read() has returned
# it at least this long after its first reading of it: two readings that far
# apart take the change whatever the loop did meanwhile (firmware.buttons:
# the second reading, 2 ms settle, 20 ms lockout after the last change).
SEEN_MS = const(25)

QUIT = const(0x80)      # decoder result: the simulator quits
CTRL_C = const(3)

_TICKS_MASK = const(0x3FFFFFFF)


class KeyDecoder:
    """Bytes from a terminal -> button codes (see the module docstring).

    feed(byte) returns 0 (nothing yet), a button bit, LONG | bit (hold), or
    QUIT. Arrow keys are ESC [ A..D or ESC O A..D; an LF right after a CR is
    the same Enter."""

    def __init__(self):
        self._esc = 0       # 0, 1 after ESC, 2 after ESC [ or ESC O
        self._cr = False

    def feed(self, c):
        esc = self._esc
        cr = self._cr
        self._cr = c == 13
        if esc == 1:
            if c == 91 or c == 79:          # '[' 'O'
                self._esc = 2
                return 0
            self._esc = 0
        elif esc == 2:
            self._esc = 0
            if c == 65:
                return btn.UP
            if c == 66:
                return btn.DOWN
            if c == 67:
                return btn.RIGHT
            if c == 68:
                return btn.LEFT
            return 0
        if c == 27:
            self._esc = 1
            return 0
        if c == 122 or c == 13 or c == 32:   # z CR space
            return btn.A
        if c == 10:
            return 0 if cr else btn.A
        if c == 120 or c == 127 or c == 8:   # x DEL BS
            return btn.B
        if c == 90:                          # Z
            return btn.LONG_A
        if c == 88:                          # X
            return btn.LONG_B
        if c == 113 or c == 81 or c == 3:    # q Q Ctrl-C
            return QUIT
        return 0


class ConsoleKeys:
    """Keys typed on the console as button presses.

    read(): the buttons a typed key holds down now (or it into the pins'
    reading; safe in a timer callback, allocates nothing); its readings end
    each press and each gap (SEEN_MS). update(now): call from the main
    loop, often: reads waiting bytes and starts the next queued key once
    the last one's gap is over. feed(byte) queues a byte without reading
    stdin (tests).

    `hold_intr` (the board: micropython.kbd_intr): the console's Ctrl-C
    interrupt is turned off while stdin is read and on again after, and
    reading stops at a Ctrl-C (`interrupted`), the bytes after it left
    unread. `stop` (the board: the button sampler): an object whose
    `ctrl_c` says that a Ctrl-C already stopped the game elsewhere (its
    `interrupted` is also BOOTSEL waking the loop, which stops no reading);
    then nothing more is read (see the module docstring)."""

    def __init__(self, clock_ms, stream=None, poll_stdin=True, hold_intr=None, stop=None):
        self._clock = clock_ms
        self.mask = 0
        self._until = 0
        # 0 idle, 1 held, 2 released (gap), 3 the gap is over: update()
        # starts the next key. read() moves 1 -> 2 -> 3, update() 0/3 -> 1,
        # so a timer's read() between two of update()'s lines is harmless.
        self._phase = 0
        self._seen = False            # read() has seen this phase
        self._seen_t = 0              # ... first at this time
        self._long = False            # ... and again SEEN_MS later
        self._q = bytearray(32)
        self._head = 0
        self._tail = 0
        self.dec = KeyDecoder()
        self.keys = 0                 # keys typed (for tests and the console)
        self.quit = False             # q or Ctrl-C was typed
        self.interrupted = False      # a Ctrl-C was read: the board's game stops
        self.hold_intr = hold_intr
        self.stop = stop
        self._one = bytearray(1)
        self._poll = None
        if poll_stdin:
            self._open(sys.stdin if stream is None else stream)

    def _open(self, stream):
        try:
            try:
                import select
            except ImportError:
                import uselect as select
            p = select.poll()
            p.register(stream, select.POLLIN)
            self._poll = p
            self._ipoll = getattr(p, "ipoll", None)
            self._src = getattr(stream, "buffer", stream)
            if sys.implementation.name != "micropython":
                import os
                fd = stream.fileno()
                self._read1 = lambda: os.read(fd, 1)
            else:
                self._read1 = None
        except Exception:
            self._poll = None          # no console input on this port

    def _ready(self):
        ip = self._ipoll
        if ip is not None:
            for _ in ip(0):
                return True
            return False
        return bool(self._poll.poll(0))

    def _pump(self):
        """Read up to 16 waiting bytes into the queue; with `hold_intr`,
        the console's interrupt off meanwhile (the module docstring)."""
        hold = self.hold_intr
        if hold is None:
            self._read_some()
            return
        hold(-1)
        try:
            stop = self.stop
            if stop is not None and stop.ctrl_c:
                self.interrupted = True
            else:
                self._read_some()
        finally:
            hold(CTRL_C)

    def _read_some(self):
        n = 0
        while n < 16 and not self.interrupted and self._poll is not None and self._ready():
            if self._read1 is not None:
                b = self._read1()
                got = len(b)
                c = b[0] if got else 0
            else:
                got = self._src.readinto(self._one)
                c = self._one[0]
            if not got:                  # end of input: stop polling
                self._poll = None
                return
            self.feed(c)
            n += 1

    def feed(self, c):
        if c == CTRL_C:
            self.interrupted = True        # the board's game stops here
            self._head = self._tail        # the keys typed before it are not played
            self.mask = 0
            self._phase = 0
        code = self.dec.feed(c)
        if code == QUIT:
            self.quit = True               # the simulator quits; the board ignores it
            return
        if not code:
            return
        t = self._tail
        nt = (t + 1) & 31
        if nt == self._head:
            return                      # 31 keys waiting: drop
        self._q[t] = code
        self._tail = nt
        self.keys += 1

    def pending(self):
        return self._phase != 0 or self._head != self._tail

    def update(self, now):
        """Read the console; once the last key is over, start the next."""
        if self._poll is not None and not self.interrupted:
            self._pump()
        ph = self._phase
        if ph == 1 or ph == 2:
            return                      # read() ends the press and the gap
        self._phase = 0
        h = self._head
        if h == self._tail:
            return
        code = self._q[h]
        self._head = (h + 1) & 31
        self._until = (now + (HOLD_MS if code & btn.LONG else TAP_MS)) & _TICKS_MASK
        self._seen = False
        self._long = False
        self.mask = code & btn.ALL
        self._phase = 1

    def read(self):
        ph = self._phase
        if ph != 1 and ph != 2:
            return 0
        now = self._clock()
        if not self._seen:
            self._seen = True
            self._seen_t = now
        elif not self._long:
            self._long = ticks_diff(now, self._seen_t) >= SEEN_MS
        elif ticks_diff(now, self._until) >= 0:
            # Over (its time is up, even if the loop is busy, and the
            # debounce has read it twice, SEEN_MS apart): a press is
            # released, and this reading is its gap's first; a gap ends.
            if ph == 1:
                self._until = (now + GAP_MS) & _TICKS_MASK
                self._seen_t = now
                self._long = False
                self._phase = 2
            else:
                self._phase = 3
            return 0
        return self.mask if ph == 1 else 0
