"""A stand-in for MicroPython's `machine` on the unix port (device tests).

Put this folder first on sys.path, then call setup() before the code under
test imports machine:

    import machine
    machine.setup(bus=FakeBus.with_display(0x3D)[0], low=[15])

Pin levels: every pin reads 1 (pulled up, nothing pressed) unless listed
in `low`; LEVELS can be changed at any time. I2C(...) returns a wrapper of
the given tools.sim.fakebus bus (or raises `i2c_error` to model pins the port
refuses); `scan_error` makes scan() raise. `buses` maps (id, sda, scl) to
a bus of its own: a display wired to other pins (the other pins then
find `bus`). Timers never fire by themselves:
fire_timers() runs their callbacks. PWM logs each duty change (the
buzzer). LOG records what the code set up; LED the levels the on-board
LED (Pin("LED")) was set to, in order. mem32 is a memory of 32-bit words,
0 until written (mem32.words), the addresses read listed (mem32.reads),
which setup() leaves as it was (a soft reset keeps the chip's registers).
"""

try:
    from micropython import heap_lock as _lock, heap_unlock as _unlock
except ImportError:          # CPython
    _lock = _unlock = None

LEVELS = {}
LOG = []
LED = []
TIMERS = []
_bus = None
_scan_error = None
_i2c_error = None
BUSES = {}


def setup(bus=None, low=(), scan_error=None, i2c_error=None, buses=None, high=()):
    global _bus, _scan_error, _i2c_error
    LEVELS.clear()
    for n in low:
        LEVELS[n] = 0
    for n in high:
        LEVELS[n] = 1
    BUSES.clear()
    BUSES.update(buses or {})
    del LOG[:]
    del LED[:]
    del TIMERS[:]
    _bus = bus
    _scan_error = scan_error
    _i2c_error = i2c_error


def _let_go():
    """A real pin or PWM allocates nothing; these stand-ins keep logs (a
    list, tuples), and the sampler's tick runs with the heap locked
    (firmware.pico.pico.locked): the lock is let go for the log. Returns the
    depth to lock again (_lock_again)."""
    if _unlock is None:
        return 0
    try:
        bytearray(1)
        return 0
    except MemoryError:
        pass
    n = 1
    while _unlock():
        n += 1
    return n


def _lock_again(n):
    while n:
        _lock()
        n -= 1


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1):
        self.id = id
        self.pull = pull
        if mode != -1:
            LOG.append(("pin", id, mode, pull))

    def value(self, v=None):
        """A pin listed in LEVELS reads that level (driven by a pressed
        button); any other reads its pull: 1 with the pull-up (or none),
        0 with the pull-down."""
        if v is None:
            return LEVELS.get(self.id, 0 if self.pull == Pin.PULL_DOWN else 1)
        v = 1 if v else 0
        n = _let_go()
        try:
            LEVELS[self.id] = v
            if self.id == "LED":
                LED.append(v)
        finally:
            _lock_again(n)

    def toggle(self):
        self.value(1 - self.value())


class I2C:
    def __init__(self, id, sda=None, scl=None, freq=400000):
        LOG.append(("i2c", id, sda.id if sda else None, scl.id if scl else None, freq))
        if _i2c_error is not None:
            raise _i2c_error
        key = (id, sda.id if sda else None, scl.id if scl else None)
        self.bus = BUSES[key] if key in BUSES else _bus

    def scan(self):
        if _scan_error is not None:
            raise OSError(_scan_error)
        return [] if self.bus is None else self.bus.scan()

    def writeto(self, addr, buf, stop=True):
        if self.bus is None:
            raise OSError(5)
        return self.bus.writeto(addr, buf, stop)

    def writevto(self, addr, vector, stop=True):
        if self.bus is None:
            raise OSError(5)
        return self.bus.writevto(addr, vector, stop)


class UART:
    """The link cable's UART: its id, baud rate and pins, logged; nothing
    comes in."""

    def __init__(self, id, baudrate=115200, tx=None, rx=None, rxbuf=256):
        self.id = id
        self.tx = tx.id if tx else None
        self.rx = rx.id if rx else None
        LOG.append(("uart", id, baudrate, self.tx, self.rx))

    def any(self):
        return 0

    def read(self, n=-1):
        return None

    def write(self, buf):
        return len(buf)


class Timer:
    PERIODIC = 1
    ONE_SHOT = 0

    def __init__(self, id=-1, **kw):
        self.id = id
        self.callback = None
        self.period = None
        self.running = False
        TIMERS.append(self)
        if kw:
            self.init(**kw)

    def init(self, mode=PERIODIC, period=-1, freq=-1, callback=None):
        self.mode = mode
        self.period = period
        self.callback = callback
        self.running = True
        LOG.append(("timer", mode, period))

    def deinit(self):
        self.running = False
        LOG.append(("timer_deinit",))


class PWM:
    """Logs ("pwm", pin, freq, duty) at every change of a sounding pin."""

    def __init__(self, pin, freq=None, duty_u16=None):
        self.pin = pin.id
        self._freq = 1000
        self._duty = 0
        LOG.append(("pwm_init", self.pin))

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        n = _let_go()
        try:
            LOG.append(("pwm", self.pin, self._freq, d))
        finally:
            _lock_again(n)

    def deinit(self):
        LOG.append(("pwm_deinit", self.pin))


class _Mem:
    def __init__(self):
        self.words = {}
        self.reads = []

    def __getitem__(self, addr):
        self.reads.append(addr)
        return self.words.get(addr, 0)

    def __setitem__(self, addr, v):
        self.words[addr] = v & 0xFFFFFFFF


mem32 = _Mem()


def fire_timers(n=1):
    for _ in range(n):
        for t in TIMERS:
            if t.running and t.callback is not None:
                t.callback(t)


def reset():
    raise SystemExit("machine.reset()")


def soft_reset():
    LOG.append(("soft_reset",))
    raise SystemExit("machine.soft_reset()")


def unique_id():
    return b"\x01\x02\x03\x04\x05\x06\x07\x08"
