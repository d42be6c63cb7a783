"""Fake `microcontroller`: Pin, and nvm as a FakeNvm (the RP2040's flash sector)."""


class Pin:
    def __init__(self, name):
        self.name = name
        self.level = 1  # what the pin reads when nothing drives it (tests set it)

    def __repr__(self):
        return "board.%s" % self.name


class PowerCut(BaseException):
    """Raised by FakeNvm when the simulated power fails (BaseException, so
    no `except Exception` in the code under test can swallow it)."""


PAGE = 256


class FakeNvm:
    """microcontroller.nvm on the RP2040, as CircuitPython drives its one
    4 KB flash sector: reads by index or slice; a slice assignment whose
    target bytes are all erased (0xFF) is programmed page by page in
    place; any other erases the whole sector, then programs all of it
    again page by page in address order (CircuitPython's
    erase_and_write_sector). Programming can only clear bits.

    Every flash step is an event: an erase is one, each byte programmed is
    one. With `budget` set, the event past it raises PowerCut instead of
    happening and the nvm is dead (a cut: what was done stays; a cut
    inside the erase leaves the sector as it was, one after it an erased
    sector). `erases`, `pages` (page programs), `writes` (assignments) and
    `written` (bytes) count what happened."""

    def __init__(self, size=4096, fill=0xFF, data=None):
        self.data = bytearray(data) if data is not None else bytearray([fill]) * size
        self.budget = None
        self.power = None      # shared with other media: step() may cut them all
        self.events = 0
        self.dead = False
        self.erases = 0
        self.pages = 0
        self.writes = 0
        self.written = 0

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return bytearray(self.data[i])
        return self.data[i]

    def _event(self):
        if self.dead:
            raise PowerCut("dead")
        if self.budget is not None and self.events >= self.budget:
            self.dead = True
            raise PowerCut("power cut after %d flash events" % self.events)
        if self.power is not None:
            try:
                self.power.step()
            except BaseException:
                self.dead = True
                raise
        self.events += 1

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self.data))
            if step != 1 or stop - start != len(value):
                raise ValueError("nvm slice assignment must keep the length")
            value = bytes(value)
        else:
            start = i
            value = bytes((value,))
        if self.dead:
            raise PowerCut("dead")
        self.writes += 1
        n = len(value)
        if all(b == 0xFF for b in self.data[start:start + n]):
            self._program(start, value)
            return
        buf = bytearray(self.data)
        buf[start:start + n] = value
        self._event()
        self.erases += 1
        for k in range(len(self.data)):
            self.data[k] = 0xFF
        self._program(0, bytes(buf))

    def _room(self, n):
        """Events that may happen before a cut (at most n)."""
        room = n
        if self.budget is not None:
            room = min(room, self.budget - self.events)
        p = self.power
        if p is not None and p.budget is not None:
            room = min(room, p.budget - p.steps)
        return max(room, 0)

    def _program(self, start, value):
        n = len(value)
        if not self.dead and self._room(n) >= n:     # no cut inside: at once
            self.events += n
            if self.power is not None:
                self.power.steps += n
            self.pages += (start + n - 1) // PAGE - start // PAGE + 1 if n else 0
            d = self.data
            for k in range(n):
                d[start + k] &= value[k]
            self.written += n
            return
        page = -1
        for k in range(len(value)):
            if (start + k) // PAGE != page:
                page = (start + k) // PAGE
                self.pages += 1
            self._event()
            self.data[start + k] &= value[k]
            self.written += 1

    def image(self):
        return bytes(self.data)


nvm = FakeNvm()


class _Cpu:
    frequency = 125000000
    temperature = 27.0
    uid = b"\x00" * 8


cpu = _Cpu()


def reset():
    raise SystemExit("microcontroller.reset()")
