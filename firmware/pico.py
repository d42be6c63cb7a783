"""Hardware ports for the Raspberry Pi Pico, and the device's run loop.

Only this module and the entry point (firmware/main.py, the board's
/main.py) import `machine`. The pins and the display type come from the
board's settings (`cfg`: firmware/board.py's defaults and the settings
file /board.json: firmware/boardcfg.py).

- Bring-up: the code used only before play (the display's bring-up and
  its wiring messages, the buzzer's checks, the console keys' and the text
  view's setup, the preload) is firmware/bringup.py; run() imports it,
  brings the ports up and lets it go (let_go_bringup()), so on the .mpy
  bundle it is not on the heap through a match. open_display(), preload()
  and kept_settings() here import it again for a call.

- Display found elsewhere: when the configured I2C pins find no display,
  open_display() tries the usual RP2040 pin pairs (firmware/pinscan.py,
  skipping pairs that use a button or buzzer pin) at 0x3C and 0x3D, uses
  what it finds and says which settings make it permanent.

- Display: open_display() scans I2C, accepts the OLED at 0x3C or 0x3D
  (board.DISPLAY_ADDR first), drives an SH1106 when board.DISPLAY_TYPE says
  so, and when nothing answers prints in plain words what it found and what
  to check, then returns a HeadlessDisplay so the game keeps running:
  run() has it print each changed screen on the serial console as text
  (firmware.textview; board.HEADLESS_TEXT "blocks", "ascii" or "off").
  DisplayPort wraps the driver: an I2C error during play is reported once on
  the serial console and the game goes on.
- Buttons: ButtonPins.read() gives the mask of the six buttons (active low,
  internal pull-ups) in firmware.buttons bit order; Sampler calls
  Buttons.sample() from a machine.Timer every 2 ms, so a tap between two
  frames is latched. Keys typed on the serial console (mpremote) are
  pressed as buttons too (firmware.consolekeys.ConsoleKeys, or'ed into the
  pins' reading), with or without a display.
- Sound: with board.BUZZER_PIN set, a piezo on that pin plays the game's
  short sounds (firmware.sound) through PWM; the sampler's timer ends each
  note, so nothing waits for a sound.
- Clock: time.ticks_ms. Sleep: wait() sleeps in slices of the sampler's
  period and returns as soon as a press is waiting.
- Memory: IdleCollect. When the free heap runs low, the garbage is
  collected in a quiet stretch after a frame drawn whole (a move, a new
  screen: the steps that allocate) rather than inside the answer to a
  button. Not sooner: a collection leaves holes that make the next
  allocations search the heap (on the emulated Pico, a collection after
  every move made A's frame 10-15 ms later).
- run(): builds the ports, the storage (/data), the game records
  (/data/records, firmware.records) and the App, and steps it until Ctrl-C
  (mpremote) or an error, which is printed with advice; the timer and the
  buzzer are stopped either way so the REPL is left clean.
"""

import sys
import time

import machine

from firmware import board
from firmware.buttons import Buttons
from firmware.compat import const, unload
from firmware.port_common import HeadlessDisplay as _Headless
from firmware.port_common import bus_error, show_lines

SAMPLE_MS = const(2)  # button sampling period (debounce needs a few samples)
SLICE_MS = const(2)   # longest sleep between checks for a waiting press (the sampler's period)
GC_IDLE_MS = const(50)     # a quiet stretch at least this long after a new frame ...
GC_LOW_FREE = const(65536)  # ... with less free heap than this: collect then
DATA_DIR = "/data"  # saves, settings and statistics live here

# The clock port: milliseconds wrapping at 2**30 (small ints), and sleep.
clock_ms = time.ticks_ms
sleep_ms = time.sleep_ms

# -- display ------------------------------------------------------------------

class HeadlessDisplay(_Headless):
    """No display: the game runs on. With a `view` (run() attaches a
    firmware.textview.TextView) each changed frame is printed on the serial
    console as text; without one frames go nowhere. `why` says in a few
    words what bring-up found."""

    addr = None
    sh1106 = False

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
        self.sh1106 = driver.sh1106
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

    def reconfigure(self, sh1106, flip):
        """The HARDWARE page's choice, applied at once: another controller
        type sets the panel up again (its init sequence), a flip turns the
        picture; the next show() sends the whole frame."""
        d = self.driver
        try:
            if bool(sh1106) != bool(d.sh1106):
                from firmware.ssd1306 import SSD1306

                d = SSD1306(d.bus, d.addr, width=d.width, height=d.height,
                            sh1106=sh1106, flip=flip)
                self.driver = d
                self.sh1106 = d.sh1106
            elif bool(flip) != bool(d.flip):
                d.rotate(flip)
        except OSError as e:
            self._failed(e)
        d.invalidate()


SETTINGS_FILE = "/board.json"   # firmware.boardcfg.PATH
BOOT_CFG = []   # firmware/main.py leaves the settings here for run() (not as an argument)

# -- buttons ------------------------------------------------------------------

class ButtonPins:
    """read(): the mask of buttons down now, bit i = board.BUTTON_PINS[i]
    (firmware.buttons bit order). Allocates nothing; safe in a timer."""

    def __init__(self, pins=None, active_low=None, cfg=board):
        if pins is None:
            pins = cfg.BUTTON_PINS
        if active_low is None:
            active_low = cfg.BUTTONS_ACTIVE_LOW
        self.numbers = tuple(pins)
        self.set_active_low(active_low)

    def set_active_low(self, active_low):
        """Pull-ups and pressed = 0 (buttons to GND), or pull-downs and
        pressed = 1 (buttons to 3V3): the HARDWARE page's choice."""
        P = machine.Pin
        pull = P.PULL_UP if active_low else P.PULL_DOWN
        pins = [P(n, P.IN, pull) for n in self.numbers]
        self.n = 0               # the sampler's timer reads none meanwhile
        self.pins = pins
        self.pressed_level = 0 if active_low else 1
        self.active_low = bool(active_low)
        self.n = len(pins)

    def read(self):
        pins = self.pins
        lv = self.pressed_level
        m = 0
        i = 0
        n = self.n
        while i < n:
            if pins[i].value() == lv:
                m |= 1 << i
            i += 1
        return m


class Inputs:
    """The pins' reading or'ed with the keys typed on the console."""

    def __init__(self, pins, keys):
        self._pins = pins.read
        self._keys = keys.read

    def read(self):
        return self._pins() | self._keys()


class Sampler:
    """Samples the buttons from a periodic machine.Timer (on the rp2 port a
    soft timer: the callback runs between bytecodes, so it also runs while
    the game computes; Buttons skips a sample that would re-enter). The
    same tick ends the notes of `sound` (firmware.sound.Sound) on time.
    A tick that fires on top of a deep stack (the AI's meld search) and
    finds no room ("maximum recursion depth exceeded") loses that one
    sample (counted in `deep`), as would one that allocated while the AI
    holds the heap locked; the next tick reads the buttons."""

    def __init__(self, buttons, period_ms=SAMPLE_MS, sound=None):
        self.buttons = buttons
        self.sound = sound
        self.interrupted = False
        self.deep = 0
        self._ticks = clock_ms
        self.timer = machine.Timer(-1)
        self.timer.init(mode=machine.Timer.PERIODIC, period=period_ms, callback=self._tick)

    def _tick(self, t):
        try:
            now = self._ticks()
            self.buttons.sample(now)
            s = self.sound
            if s is not None and s.playing:
                s.update(now)
        except KeyboardInterrupt:
            # Ctrl-C landed in the callback, where it would only be printed:
            # run() raises it in the loop instead.
            self.interrupted = True
        except RuntimeError:
            self.deep += 1               # no stack left for this sample
        except MemoryError:
            # the AI decides with the heap locked (engine/ai/locked.py):
            # a sample that allocated there is lost like a deep one
            self.deep += 1

    def stop(self):
        self.timer.deinit()


def wait(buttons, ms, keys=None, stop=None):
    """Sleep up to `ms` milliseconds; return early once a press is waiting,
    or once a button went down or up (A and B report on release: the
    HARDWARE page lights a key while it is held), or once `stop` (the
    Sampler) caught a Ctrl-C in its timer callback
    (stop.interrupted): an idle screen waits long, and the Ctrl-C waited
    with it (a second one, landing in the loop itself, got through).
    `keys` (consolekeys.ConsoleKeys): the console is read every slice."""
    if ms is None or ms <= 0:
        return
    ticks_ms = clock_ms
    end = time.ticks_add(ticks_ms(), ms)
    held = buttons.held()
    while True:
        now = ticks_ms()
        if keys is not None:
            keys.update(now)
        left = time.ticks_diff(end, now)
        if (left <= 0 or buttons.poll(now) or buttons.held() != held
                or (stop is not None and stop.interrupted)):
            return
        sleep_ms(left if left < SLICE_MS else SLICE_MS)


class IdleCollect:
    """after(ms), after each app.step(): collects the garbage (gc_collect)
    when a frame drawn whole since the last look (app.full_frames moved)
    is followed by at least GC_IDLE_MS of nothing to do, and mem_free()
    is under `low`. `collections` counts them (tests, benches)."""

    def __init__(self, app, gc_collect, mem_free, low=GC_LOW_FREE):
        self.app = app
        self.collect = gc_collect
        self.mem_free = mem_free
        self.low = low
        self.seen = getattr(app, "full_frames", None)   # None: an app that does not count them
        self.collections = 0

    def after(self, ms):
        app = self.app
        if self.seen is None or app.full_frames == self.seen or ms is None or ms < GC_IDLE_MS:
            return
        self.seen = app.full_frames
        if self.mem_free() < self.low:
            self.collect()
            self.collections += 1


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


# -- the device -------------------------------------------------------------------

def hw_seed():
    """A seed below 2**30 from the RP2040's random source."""
    try:
        import os

        b = os.urandom(4)
        return (b[0] << 22) | (b[1] << 14) | (b[2] << 6) | (b[3] >> 2)
    except Exception:
        return time.ticks_us() & 0x3FFFFFFF


def _print_exception(e):
    pe = getattr(sys, "print_exception", None)
    if pe is not None:
        pe(e)
    else:  # CPython
        import traceback

        traceback.print_exception(type(e), e, e.__traceback__)


def hw_entropy():
    """The RP2040's random source as an entropy source (firmware/entropy.py:
    os.urandom, the ring oscillator's bits)."""
    from firmware import entropy

    return entropy.board()


BRINGUP = "firmware.bringup"


def _bringup():
    """firmware/bringup.py, imported (again) for a call."""
    import firmware.bringup as b

    return b


def let_go_bringup():
    """Forget firmware/bringup.py and firmware/pinscan.py (sys.modules and
    the package's attributes) and collect: on the .mpy bundle their code
    leaves the heap. True when the bring-up was loaded."""
    import gc

    m = unload(BRINGUP)
    unload("firmware.pinscan")      # the pin scan: only when no display answered
    gc.collect()
    return m


def open_display(bus=None, cfg=board, out=print, scan=None):
    """firmware.bringup.open_display (the safe boot, the bench's scripts)."""
    return _bringup().open_display(bus, cfg, out, scan)


def preload(out=print):
    """firmware.bringup.preload (the bench's scripts)."""
    return _bringup().preload(out)


def kept_settings(cfg):
    """firmware.bringup.kept_settings."""
    return _bringup().kept_settings(cfg)


def run(app_factory=None, root=None, max_steps=None, out=print, seed=None, cfg=None,
        hardware=False):
    """Bring up the ports and play until Ctrl-C or an error. Returns the App
    (None if it could not be built). `root`: where saves and records go
    (DATA_DIR). `cfg`: the board's settings (firmware.boardcfg.load_config(), read
    here when not given). `hardware`: start on the HARDWARE page (a button
    held at power-on, firmware/main.py)."""
    import gc

    from firmware.storage import Storage
    from firmware.records import Records

    if cfg is None and BOOT_CFG:
        cfg = BOOT_CFG.pop()
    if root is None:
        root = DATA_DIR
    cfg, display, keys, sound, buzzer, kept = _bringup().start(cfg, out)
    let_go_bringup()
    pins = ButtonPins(cfg=cfg)
    buttons = Buttons(pins.read if keys is None else Inputs(pins, keys).read)
    cfg = None                   # the HARDWARE page keeps `kept`: the Config itself goes
    sampler = Sampler(buttons, sound=sound)
    storage = Storage(root)
    app = None
    try:
        kw = {}
        if app_factory is None:
            from firmware.app import App as app_factory

            # the deal secret and the AI's seed of every new match
            kw["entropy"] = hw_entropy()
        app = app_factory(display, buttons, clock_ms, storage, sound=sound,
                          seed=hw_seed() if seed is None else seed, **kw)
        app.saving.records = Records(root.rstrip("/") + "/records", out=out)
        app.board_parts = (kept, display, pins)   # the HARDWARE page's (firmware.boardset)
        if hardware:
            buttons.suppress()          # the button held at power-on
            app.go("hardware", back=None, prev=app.screen)  # then the screen the start showed
        for why in storage.damage:
            out("Save set aside: " + why)
        gc.collect()
        out("Game running (free memory %d bytes). Ctrl-C stops it and frees the REPL."
            % gc.mem_free())
        steps = 0
        idle_gc = IdleCollect(app, gc.collect, gc.mem_free)
        while True:
            if keys is not None:
                keys.update(clock_ms())
            ms = app.step()
            steps += 1
            idle_gc.after(ms)
            if max_steps is not None and steps >= max_steps:
                break
            wait(buttons, ms, keys, sampler)
            if sampler.interrupted:
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        out("Stopped by Ctrl-C. The REPL is free; press reset to play again.")
    except MemoryError as e:
        _print_exception(e)
        sv = getattr(app, "saving", None)
        if sv is not None and sv.saved_at and not sv.failing:
            # A turn was saved since this start: start again on a fresh heap,
            # which resumes it. A start that runs out before its first save
            # stops below instead, so this never loops. (Not while saves are
            # refused: the last one saved is older than the play on screen.)
            out("The game ran out of memory; it starts again from the last completed "
                "turn (saved).")
            try:
                show_lines(display, ("OUT OF MEMORY", "RESUMING..."))
            except MemoryError:
                pass
            machine.soft_reset()
        out("The game ran out of memory. Press reset; the match was saved after the "
            "last completed turn. If it happens again, check that only the game's files "
            "are on the board (mpremote ls) and report it.")
        show_lines(display, ("OUT OF MEMORY", "PRESS RESET"))
    except Exception as e:
        _print_exception(e)
        out("The game stopped with the error above. Press reset to play on: the match "
            "was saved after the last completed turn.")
        show_lines(display, ("ERROR", "PRESS RESET"))
    finally:
        sampler.stop()
        if buzzer is not None:
            buzzer.off()
    return app
