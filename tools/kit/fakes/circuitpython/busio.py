"""Fake `busio`: I2C as a recording bus with a real lock.

Blinka's I2CDisplayBus spins on try_lock(), so try_lock() is True once and
False until unlock(), like the real bus. Devices are objects with
write(data) (tools.sim.ssd1306_emu.SSD1306Emu); each write is logged as
(address, bytes). `default_devices` builds the devices of a bus made by
code under test (busio.I2C(scl, sda)): an SSD1306 emulator at 0x3C unless a
test sets another factory.
"""


def _ssd1306_at_3c():
    from tools.sim.ssd1306_emu import SSD1306Emu

    return {0x3C: SSD1306Emu()}


default_devices = _ssd1306_at_3c
last_bus = None  # the last I2C built (tests read its emulator)


class I2C:
    def __init__(self, scl=None, sda=None, *, frequency=100000, timeout=255,
                 devices=None):
        global last_bus
        self.scl = scl
        self.sda = sda
        self.frequency = frequency
        self.devices = dict(default_devices() if devices is None else devices)
        self.locked = False
        self.log = []  # (address, bytes) per write
        self.bytes = 0  # on the wire: address byte + data, per write
        self.writes = 0
        self.fail = None  # an exception to raise on writes (a loose wire)
        self.deinited = False
        last_bus = self

    @classmethod
    def with_display(cls, addr=0x3C, sh1106=False):
        from tools.sim.ssd1306_emu import SSD1306Emu

        emu = SSD1306Emu(sh1106=sh1106)
        return cls(devices={addr: emu}), emu

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def scan(self):
        return sorted(self.devices)

    def writeto(self, address, buffer, *, start=0, end=None):
        if self.fail is not None:
            raise self.fail
        if address not in self.devices:
            raise OSError(5, "no device at 0x%02X" % address)
        data = bytes(buffer[start:end])
        self.log.append((address, data))
        self.bytes += 1 + len(data)
        self.writes += 1
        self.devices[address].write(data)

    def reset_counts(self):
        self.log = []
        self.bytes = 0
        self.writes = 0

    def deinit(self):
        self.deinited = True


class SPI:
    def __init__(self, clock, MOSI=None, MISO=None):
        pass
