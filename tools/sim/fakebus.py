"""Stand-ins for machine.I2C on a host.

FakeBus     forwards writes to emulated devices (tools.sim.ssd1306_emu), counts
            bytes and transactions, and can be set up with no display, a
            display at 0x3D, or a bus that fails like a real one.
CountingBus counts and drops; it allocates nothing, so it also runs on the
            MicroPython unix port under micropython.heap_lock().

Byte counts include the address byte of each transaction (what the wire
carries, start/stop and ACK bits aside).
"""

ENODEV = 19  # ESP32-style "no device at this address"
EIO = 5  # rp2 hardware I2C reports a missing ACK as EIO
ETIMEDOUT = 110


class FakeBus:
    """A fake I2C bus: `devices` maps addresses to objects with write(data).

    error: the errno raised for an address with no device (EIO by default,
    as the rp2 port does; ENODEV as on ESP32). fail_after: raise that error
    after this many successful writes (a loose wire), or None.
    """

    def __init__(self, devices=None, error=EIO, fail_after=None):
        self.devices = dict(devices or {})
        self.error = error
        self.fail_after = fail_after
        self.bytes = 0
        self.transactions = 0
        self.log = None  # set to a list to record (addr, bytes) per write

    @classmethod
    def with_display(cls, addr=0x3C, sh1106=False, width=128, height=64, **kw):
        from tools.sim.ssd1306_emu import SSD1306Emu

        emu = SSD1306Emu(width, height, sh1106=sh1106)
        return cls({addr: emu}, **kw), emu

    @classmethod
    def empty(cls, error=EIO):
        return cls({}, error=error)

    def reset_counts(self):
        self.bytes = 0
        self.transactions = 0

    def scan(self):
        return sorted(self.devices)

    def _check(self, addr):
        if addr not in self.devices:
            raise OSError(self.error)
        if self.fail_after is not None:
            if self.fail_after <= 0:
                raise OSError(self.error)
            self.fail_after -= 1

    def writeto(self, addr, buf, stop=True):
        self._check(addr)
        data = bytes(buf)
        self.bytes += 1 + len(data)
        self.transactions += 1
        if self.log is not None:
            self.log.append((addr, data))
        self.devices[addr].write(data)
        return len(data)

    def writevto(self, addr, vector, stop=True):
        self._check(addr)
        data = b"".join(bytes(v) for v in vector)
        self.bytes += 1 + len(data)
        self.transactions += 1
        if self.log is not None:
            self.log.append((addr, data))
        self.devices[addr].write(data)
        return len(data)

    def readfrom(self, addr, n, stop=True):
        self._check(addr)
        return bytes(n)


class CountingBus:
    """Counts bytes and transactions of writes to `addr`; keeps no data."""

    def __init__(self, addr=0x3C):
        self.addr = addr
        self.bytes = 0
        self.transactions = 0
        self.wrong_addr = 0

    def scan(self):
        return [self.addr]

    def writeto(self, addr, buf, stop=True):
        if addr != self.addr:
            self.wrong_addr += 1
        self.bytes += 1 + len(buf)
        self.transactions += 1
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        n = 0
        for v in vector:
            n += len(v)
        if addr != self.addr:
            self.wrong_addr += 1
        self.bytes += 1 + n
        self.transactions += 1
        return n
