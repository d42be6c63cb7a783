"""Two boards' links in one process: a fake cable, a fake clock and faults.

Runs on CPython and on the MicroPython unix port (no f-strings, no
dataclasses, small ints), so the same fault campaigns check firmware/link/link.py
on both (host_tests/firmware/link/test_link.py, tools/link/faults.py).

- Clock: milliseconds that wrap at 2**30, started just before the wrap.
- Wire: one direction of the cable. Each write() is one frame (firmware/link/link.py
  writes a frame at a time); a fault may hit it: drop, corrupt (one byte
  flipped), dup (sent twice), delay (held back while later frames pass:
  a reorder), garbage (random bytes before it), cut (only its first part
  arrives). Bytes take 1 ms plus 87 us a byte (115200 baud).
- Board: a scripted player over a Link: sends its messages at random times,
  takes what comes, and saves (link state, messages sent, messages taken)
  after each, as the App saves after each turn. restart() makes a new Link
  from that save, as a power cut would.
- match(): both boards, a fault schedule, a cable cut and restarts; returns
  what each board took, for the exactly-once check.
"""

from engine.rules import Rules
from engine.version import VERSION
from firmware.link import link as lk

MASK = 0x3FFFFFFF
KINDS = ("drop", "corrupt", "dup", "delay", "reorder", "garbage", "cut")


class Rand:
    """A small reproducible generator (the same numbers on every runtime)."""

    def __init__(self, seed):
        self.x = (seed * 7919 + 17) & MASK

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & MASK
        return (self.x >> 8) % n

    def bytes(self, n):
        return bytes([self.below(256) for _ in range(n)])


class Clock:
    def __init__(self, start=MASK - 4000):
        self.t = start

    def __call__(self):
        return self.t & MASK

    def advance(self, ms):
        self.t += ms


class Wire:
    """One direction of the cable, with faults drawn per frame."""

    def __init__(self, clock, rand, rate=0, kinds=KINDS, plan=None):
        self.clock = clock
        self.rand = rand
        self.rate = rate          # faults per 1000 frames
        self.kinds = kinds
        self.plan = plan          # {frame number: kind}, instead of the rate
        self.queue = []           # [arrival ms (unwrapped), bytes] in arrival order
        self.floor = 0            # the arrival of the last frame in line
        self.cut = False
        self.frames = 0
        self.faults = {}
        for k in KINDS:
            self.faults[k] = 0
        self.faults["cable"] = 0

    def _put(self, data, delay=0, overtaken=False):
        at = self.clock.t + 1 + (len(data) * 87) // 1000 + delay
        if not overtaken:
            at = max(at, self.floor)
            self.floor = at
        q = self.queue
        i = len(q)
        while i > 0 and q[i - 1][0] > at:
            i -= 1
        q.insert(i, [at, data])

    def write(self, buf):
        data = bytes(buf)
        self.frames += 1
        if self.cut:
            self.faults["cable"] += 1
            return len(data)
        kind = None
        if self.plan is not None:
            kind = self.plan.get(self.frames - 1)
        elif self.rate and self.rand.below(1000) < self.rate:
            kind = self.kinds[self.rand.below(len(self.kinds))]
        if kind is None:
            self._put(data)
            return len(data)
        self.faults[kind] += 1
        r = self.rand
        if kind == "drop":
            pass
        elif kind == "corrupt":
            b = bytearray(data)
            i = r.below(len(b))
            b[i] ^= 1 << r.below(8)
            self._put(bytes(b))
        elif kind == "dup":
            self._put(data)
            self._put(data, r.below(40))
        elif kind == "delay":           # the line stalls: this and what follows
            self._put(data, 50 + r.below(600))
        elif kind == "reorder":         # this one is overtaken by what follows
            self._put(data, 50 + r.below(600), True)
        elif kind == "garbage":
            self._put(r.bytes(1 + r.below(40)) + data)
        elif kind == "cut":
            self._put(data[:r.below(len(data))])
        return len(data)

    def cut_cable(self, on):
        self.cut = on
        if on:
            self.flush()

    def flush(self):
        """What is on the way is lost (a cut cable; a board that is booting
        reads nothing)."""
        self.queue = []

    def ready(self):
        n = 0
        now = self.clock.t
        for at, data in self.queue:
            if at > now:
                break
            n += len(data)
        return n

    def take(self, n):
        out = bytearray()
        q = self.queue
        now = self.clock.t
        while q and len(out) < n and q[0][0] <= now:
            data = q[0][1]
            k = n - len(out)
            out.extend(data[:k])
            if k >= len(data):
                q.pop(0)
            else:
                q[0][1] = data[k:]
        return bytes(out)


class Port:
    """A board's UART: writes go out on one wire, reads come from the other."""

    def __init__(self, tx, rx):
        self.tx = tx
        self.rx = rx

    def any(self):
        return self.rx.ready()

    def read(self, n):
        return self.rx.take(n)

    def write(self, buf):
        return self.tx.write(buf)


class SilentPort:
    """A board's UART with nothing on the other end: nothing comes, what
    is written goes nowhere (a link screen left looking)."""

    def any(self):
        return 0

    def read(self, n):
        return b""

    def write(self, buf):
        return len(buf)


def entropy(seed):
    r = Rand(seed)
    return r.bytes


class Board:
    """A scripted player over a Link (see the module's docstring)."""

    def __init__(self, name, port, clock, rand, n, rules_text):
        self.name = name
        self.port = port
        self.clock = clock
        self.rand = rand
        self.n = n
        self.rules_text = rules_text
        self.boots = 0
        self.sent = 0
        self.taken = []
        self.saved = (None, 0, ())
        self.pace = 20            # a message in 50 steps, on average
        self.link = self._boot(None)

    def _boot(self, saved):
        self.boots += 1
        seed = self.rand.below(1 << 20) + self.boots
        return lk.Link(self.port, self.clock, entropy(seed), VERSION, self.rules_text, saved=saved)

    def message(self, i):
        return (self.name + " %d" % i).encode() + b"~}" * (i % 3)

    def save(self):
        self.saved = (self.link.state(), self.sent, tuple(self.taken))

    def restart(self):
        """A power cut: everything since the last save is gone, and the
        board boots for 0.7-1.5 s, deaf and mute, before its new Link runs
        (longer than a frame is ever held back on the wire, so no frame of
        either board's earlier life reaches the other's new one: no cable
        reorders frames across a restart)."""
        st, self.sent, taken = self.saved
        self.taken = list(taken)
        self.link = None
        self.boot_until = self.clock.t + 700 + self.rand.below(800)
        self.boot_state = st

    def step(self):
        if self.link is None:
            self.port.rx.flush()
            if self.clock.t < self.boot_until:
                return
            self.link = self._boot(self.boot_state)
        lnk = self.link
        lnk.poll()
        m = lnk.recv()
        while m is not None:
            self.taken.append(m)
            self.save()
            m = lnk.recv()
        if self.sent < self.n and lnk.linked() and self.rand.below(1000) < self.pace:
            lnk.send(self.message(self.sent))
            self.sent += 1
            self.save()

    def done(self, other):
        return (self.link is not None and self.sent == self.n and self.link.idle() and self.link.linked()
                and len(self.taken) >= other.n)


def match(seed, n=20, rate=150, kinds=KINDS, cable_cut=False, restarts=0,
          step_ms=7, max_ms=600000, rules_b=None, plans=(None, None)):
    """Two boards exchange n messages each over a faulty cable: `rate`
    faults a thousand frames of `kinds`, or the faults `plans` name (one
    {frame number: kind} a direction). Returns a dict: 'a', 'b' (the
    Boards), 'ms' (simulated time), 'hung' (not done by max_ms), 'faults'
    (by kind, both wires; "cable": frames written into the cut cable;
    "restart": boards restarted), 'frames'."""
    clock = Clock()
    rand = Rand(seed)
    ab = Wire(clock, Rand(seed + 1), rate, kinds, plans[0])
    ba = Wire(clock, Rand(seed + 2), rate, kinds, plans[1])
    rules_text = Rules().text()
    a = Board("A", Port(ab, ba), clock, Rand(seed + 3), n, rules_text)
    b = Board("B", Port(ba, ab), clock, Rand(seed + 4), n, rules_b or rules_text)
    # n messages at 20 a thousand steps: a board's last near n * 50 steps
    span = n * 50 * step_ms
    cut_at = 500 + rand.below(span) if cable_cut else -1
    cut_len = 4000 + rand.below(6000)
    restart_at = []
    for _ in range(restarts):
        restart_at.append(200 + rand.below(span))
    ms = 0
    while ms < max_ms:
        if cut_at >= 0 and ms == cut_at - cut_at % step_ms:
            ab.cut_cable(True)
            ba.cut_cable(True)
        if cut_at >= 0 and ms == (cut_at + cut_len) - (cut_at + cut_len) % step_ms:
            ab.cut_cable(False)
            ba.cut_cable(False)
        for t in restart_at:
            if ms == t - t % step_ms:
                (a if rand.below(2) else b).restart()
        a.step()
        b.step()
        if a.done(b) and b.done(a) and ms > max(restart_at or [0]) and (
                cut_at < 0 or ms > cut_at + cut_len):
            break
        clock.advance(step_ms)
        ms += step_ms
    faults = {}
    for k in ab.faults:
        faults[k] = ab.faults[k] + ba.faults[k]
    faults["restart"] = a.boots + b.boots - 2
    hung = not (a.done(b) and b.done(a))
    return {"a": a, "b": b, "ms": ms, "hung": hung, "faults": faults,
            "frames": ab.frames + ba.frames}


def tally(result):
    """(delivered once, lost, duplicated, out of order) over both directions."""
    once = lost = dup = order = 0
    for src, dst in ((result["a"], result["b"]), (result["b"], result["a"])):
        want = [src.message(i) for i in range(src.n)]
        for m in want:
            c = dst.taken.count(m)
            if c == 0:
                lost += 1
            elif c == 1:
                once += 1
            else:
                dup += 1
        if [m for m in dst.taken if m in want] != want:
            order += 1
    return once, lost, dup, order
