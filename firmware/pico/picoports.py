"""The Pico's ports that the run loop (firmware/pico/pico.py) and the
bring-up (firmware/pico/bringup.py) both use: the display port and its headless
stand-in, the buzzer, the clock, the settings file's path. Its own module so
that the bring-up, imported for the boot and let go, and the run loop import
these from one place and not from each other.
"""

import time

import machine

from firmware.compat import const
from firmware.port_common import HeadlessDisplay as NoDisplay
from firmware.port_common import bus_error

SETTINGS_FILE = "/board.json"   # firmware.board.boardcfg.PATH

# The clock port: milliseconds wrapping at 2**30 (small ints), and sleep.
clock_ms = time.ticks_ms
sleep_ms = time.sleep_ms

# -- display ------------------------------------------------------------------

class HeadlessDisplay(NoDisplay):
    """No display: the game runs on. With a `view` (run() attaches a
    firmware.display.textview.TextView) each changed frame is printed on the serial
    console as text; without one frames go nowhere. `why` says in a few
    words what bring-up found."""

    addr = None
    controller = None

    def __init__(self, why="no display"):
        self.why = why
        self.view = None

    def show(self, buf, full=False):
        v = self.view
        if v is not None:
            try:
                v.show(buf, full)
            except OSError:
                pass  # the console went away; the game goes on
        return 0  # no bytes on the I2C bus


class DisplayPort:
    """The OLED driver with bus errors caught: the first error is reported
    on the console, the game goes on, and the picture is resent in full once
    the display answers again."""

    headless = False

    def __init__(self, driver, out=print):
        self.driver = driver
        self.out = out
        self.addr = driver.addr
        self.controller = driver.controller   # "ssd1306", "sh1106" (firmware.display.ssd1306)
        self.errors = 0  # bus errors since the display last answered
        self.last_bytes = 0

    def _failed(self, e):
        bus_error(self, e)

    def show(self, buf, full=False):
        try:
            n = self.driver.show(buf, full)
        except OSError as e:
            self._failed(e)
            self.last_bytes = 0
            return 0
        if self.errors:
            self.errors = 0
            self.out("The display answers again.")
        self.last_bytes = n
        return n

    def _cmd(self, name, arg):
        try:
            getattr(self.driver, name)(arg)
        except OSError as e:
            self._failed(e)

    def contrast(self, value):
        self._cmd("contrast", value)

    def power(self, on):
        self._cmd("power", on)

    def invert(self, on):
        self._cmd("invert", on)

    def invalidate(self):
        self.driver.invalidate()

    def reconfigure(self, controller, flip):
        """The HARDWARE page's choice, applied at once: another controller
        (its driver class, firmware.display.ssd1306.driver) sets the panel up
        again, a flip turns the picture; the next show() sends the whole
        frame."""
        d = self.driver
        try:
            if controller != d.controller:
                from firmware.display.ssd1306 import driver

                d = driver(controller)(d.bus, d.addr, width=d.width, height=d.height,
                                       flip=flip)
                self.driver = d
                self.controller = d.controller
            elif bool(flip) != bool(d.flip):
                d.rotate(flip)
        except OSError as e:
            self._failed(e)
        d.invalidate()


# -- sound --------------------------------------------------------------------

class Buzzer:
    """A passive piezo on a PWM pin: tone(hz) sounds it, tone(0) stops it."""

    def __init__(self, pin, duty=0x8000):
        self.pwm = machine.PWM(machine.Pin(pin))
        self.duty = duty
        self.pwm.duty_u16(0)

    def tone(self, hz):
        if hz:
            self.pwm.freq(hz)
            self.pwm.duty_u16(self.duty)
        else:
            self.pwm.duty_u16(0)

    def off(self):
        try:
            self.pwm.duty_u16(0)
            self.pwm.deinit()
        except Exception:
            pass


# -- the board's own LED and BOOTSEL button -------------------------------------

BLINK_MS = const(100)    # a blink: this long on, then this long off
CYCLE_MS = const(2000)   # the running patterns repeat this often
FAIL_MS = const(100)     # stopped on an error: on and off this fast
RUNNING = 1              # blinks a cycle: the game runs, the display answers
HEADLESS = 2             # the game runs, no display answered
RECOVERING = 3           # the recovery start: the defaults, /board.json unread
LOOK_MS = const(100)     # BOOTSEL is read this often ...
HOLD_MS = const(3000)    # ... and held this long asks for the recovery start,
QUICK_MS = const(5000)   # ... or, in the game's first seconds,
QUICK_LOOKS = const(2)   # ... down at this many looks in a row

# The recovery start's flag: a watchdog scratch register the chip's table
# names (firmware/board/chip.py: SCRATCH0, which a soft reset keeps and a power
# cut or a reset clears), so no start after the next one is touched. The
# boot puts its address here (asked); on a chip
# not in the table it stays None and nothing is written.
RECOVERY = const(0x0DEFA017)
SCRATCH = [None]


def ask_recovery():
    """The next start (a soft reset) ignores /board.json: True; False on a
    chip whose scratch register is not known (nothing is written)."""
    a = SCRATCH[0]
    if a is None:
        return False
    machine.mem32[a] = RECOVERY
    return True


def asked():
    """How the recovery start was asked for (words for its console line),
    or None: the flag firmware.pico.pico.recover leaves for the soft reset
    (ask_recovery: in the chip's scratch register,
    cleared here, so once), or BOOTSEL down as this start begins (pressed
    just after power-on: the boot ROM looks at it only at the moment of
    reset; firmware.board.boardrescue.bootsel_held). The register's address is
    left for the running game (SCRATCH: None on a chip not in
    firmware/board/chip.py's table, where nothing is read or written)."""
    try:
        import rp2
    except ImportError:              # not a Pico
        return None
    from firmware.board import chip

    a = SCRATCH[0] = chip.current().scratch
    if a is not None and machine.mem32[a] == RECOVERY:
        machine.mem32[a] = 0
        return "while the game ran"
    if not rp2.bootsel_button():
        return None
    from firmware.board.boardrescue import bootsel_held

    return "as the board started" if bootsel_held() else None


class Onboard:
    """The Pico's own LED and BOOTSEL button, which work whatever is wired
    to the pins.

    The LED (machine.Pin("LED"): GP25 on the Pico the release is built
    for, RPI_PICO; a Pico W's LED hangs off its radio chip, which that
    build does not drive) is a sign of life when the screen stays dark:

        off                 no game running (not flashed, the ROM's USB
                            drive, stopped by Ctrl-C)
        on                  starting (under a second; the .mpy bundle
                            about three), or safe boot
        1 blink every 2 s   the game runs (RUNNING)
        2 blinks every 2 s  the game runs without a display (HEADLESS)
        3 blinks every 2 s  the recovery start (RECOVERING)
        fast blinking       the game stopped on an error (fail())

    BOOTSEL (rp2.bootsel_button(), or `bootsel`) is read every LOOK_MS.
    Down at QUICK_LOOKS looks in a row in the first QUICK_MS (a press
    right after plugging in reaches the game once it runs), or for HOLD_MS
    later, it sets `fired`: the run loop then starts again into the
    recovery start (firmware/pico/pico.py). In the recovery start (`recovery`)
    it never fires: once it has been up, `down` says it is held, and the
    run loop reads it as A (firmware.pico.pico.Inputs), so that start's screen
    can be answered with no button wired right.

    tick() is called by the button sampler's timer every `tick_ms`: it
    counts, switches the LED on a blink's edges only and reads BOOTSEL
    every LOOK_MS, allocating nothing, so none of it needs a timer of its
    own; it returns True once BOOTSEL has been held long enough. Without
    an LED pin or BOOTSEL (another board) that part does nothing."""

    def __init__(self, blinks=RUNNING, tick_ms=2, pin="LED", bootsel=None, recovery=False):
        try:
            self.pin = machine.Pin(pin, machine.Pin.OUT)
        except Exception:      # no such pin on this board
            self.pin = None
        if bootsel is None:
            try:
                import rp2

                bootsel = rp2.bootsel_button
            except (ImportError, AttributeError):
                pass
        self.bootsel = bootsel
        self.per = BLINK_MS // tick_ms      # ticks a blink's half
        self.cycle = CYCLE_MS // tick_ms    # ticks a cycle
        self.look = LOOK_MS // tick_ms      # ticks between two readings of BOOTSEL
        self.need = HOLD_MS // LOOK_MS      # readings held in a row
        self.quick = 0 if recovery else QUICK_MS // LOOK_MS   # readings left in the first seconds
        self.recovery = recovery
        self.armed = not recovery           # the recovery start: BOOTSEL up once first
        self.down = False
        self.edges = 2 * blinks
        self.n = 0
        self.held = 0
        self.fired = False
        self.timer = None

    def tick(self):
        n = self.n
        if n % self.per == 0:
            k = n // self.per
            if k <= self.edges and self.pin is not None:
                self.pin.value(k < self.edges and not k & 1)
        if n % self.look == 0 and self.bootsel is not None:
            q = self.quick
            if q:
                self.quick = q - 1
            if not self.bootsel():
                self.held = 0
                self.armed = True
                self.down = False
            elif self.armed:
                self.held += 1
                if self.recovery:
                    self.down = True
                elif self.held >= (QUICK_LOOKS if q else self.need):
                    self.fired = True
        n += 1
        self.n = 0 if n >= self.cycle else n
        return self.fired

    def rearm(self):
        """After a recovery that could not be asked for (firmware.pico.pico.recover)."""
        self.fired = False
        self.held = 0
        self.armed = False

    def fail(self):
        """Fast blinking from now on, by a timer of its own (the loop that
        ticked the LED has stopped; the REPL's soft reset ends it)."""
        p = self.pin
        if p is None:
            return
        try:
            self.timer = machine.Timer(-1, mode=machine.Timer.PERIODIC, period=FAIL_MS,
                                       callback=self._flip)
        except Exception:
            p.value(1)

    def _flip(self, t):
        self.pin.toggle()

    def off(self):
        if self.pin is not None:
            self.pin.value(0)
