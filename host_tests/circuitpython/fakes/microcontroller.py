"""Fake `microcontroller`: Pin, and nvm as a FakeNvm."""


class Pin:
    def __init__(self, name):
        self.name = name
        self.level = 1  # what the pin reads when nothing drives it (tests set it)

    def __repr__(self):
        return "board.%s" % self.name


class PowerCut(Exception):
    """Raised by FakeNvm when the simulated power fails during a write."""


class FakeNvm:
    """A byte array like microcontroller.nvm: reads by index or slice,
    writes by slice assignment of the same length.

    cut_after: None, or how many more bytes may be written; the write that
    would go past it stores the bytes up to it (in address order) and raises
    PowerCut. writes counts write operations, written the bytes."""

    def __init__(self, size=4096, fill=0xFF, data=None):
        self.data = bytearray(data) if data is not None else bytearray([fill]) * size
        self.cut_after = None
        self.writes = 0
        self.written = 0

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return bytearray(self.data[i])
        return self.data[i]

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self.data))
            if step != 1 or stop - start != len(value):
                raise ValueError("nvm slice assignment must keep the length")
            value = bytes(value)
        else:
            start = i
            value = bytes((value,))
        self.writes += 1
        for k in range(len(value)):
            if self.cut_after is not None:
                if self.cut_after <= 0:
                    raise PowerCut("power cut after %d bytes" % k)
                self.cut_after -= 1
            self.data[start + k] = value[k]
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
