"""The Raspberry Pi Pico's run loop: the buttons, their sampler, the
sleep between steps, the idle collection, and run().

Only the firmware's Pico modules (this one, firmware/pico/picoports.py,
firmware/pico/bringup.py, firmware/pico/pinscan.py) and the entry point
(firmware/main.py, the board's /main.py) import `machine`. The pins come
from the board's settings (`cfg`: firmware/board/board.py's defaults and the
settings file /board.json: firmware/board/boardcfg.py).

- Bring-up: what is used only before play is firmware/pico/bringup.py: the
  display's bring-up (the I2C scan, SSD1306 or SH1106, the other usual
  pin pairs when the configured ones find nothing: firmware/pico/pinscan.py)
  and its wiring messages, the buzzer's checks, the console keys' and the
  text view's setup, the preload. run() imports it, brings the ports up
  and lets it go (let_go_bringup()), so on the .mpy bundle it is not on the
  heap through a match. open_display(), preload() and kept_settings() here
  import it again for a call (the safe boot, the bench's scripts).
- The ports both use are firmware/pico/picoports.py: DisplayPort (an I2C error
  during play is reported once and the game goes on), HeadlessDisplay
  (no display: the screens go to the serial console as text), Buzzer,
  the clock (time.ticks_ms), the on-board LED.
- Buttons: ButtonPins.read() gives the mask of the six buttons (active low
  with pull-ups, or active high with pull-downs) in firmware.buttons bit
  order; Sampler calls Buttons.sample() from a machine.Timer every 2 ms,
  so a tap between two frames is latched. Keys typed on the serial
  console (mpremote) are pressed as buttons too
  (firmware.pico.consolekeys.ConsoleKeys, or'ed into the pins' reading), with
  or without a display.
- Sound: the sampler's timer ends each note of firmware.sound, so nothing
  waits for a sound. The same timer blinks the on-board LED
  (firmware.pico.picoports.Led): a sign of life when the screen stays dark.
- Sleep: wait() sleeps in slices of the sampler's period and returns as
  soon as a press is waiting.
- Frames on the C stack: the sampler's tick and the sleep's slices run
  with the heap locked (firmware.compat.locked: they allocate nothing),
  so the frames of their calls are on the C stack. Taken from the heap,
  searched for among a hand's garbage, those frames (two every 2 ms from
  the tick, two more a slice) took half the core by the fourth turn of a
  hand, and a cursor move 70 ms instead of 20.
- Memory: IdleCollect. When the free heap runs low, the garbage is
  collected in a quiet stretch after a frame drawn whole (a move, a new
  screen: the steps that allocate) rather than inside the answer to a
  button. Not sooner: a collection leaves holes that make the next
  allocations search the heap (on the emulated Pico, a collection after
  every move made A's frame 10-15 ms later).
- run(): builds the ports, the storage (/data), the game records
  (/data/records, firmware.saves.records) and the App, and steps it
  (firmware.port_common.play) until Ctrl-C (mpremote) or an error, which is
  printed with advice; the timer and the buzzer are stopped either way so
  the REPL is left clean.
"""

import time

import machine

from firmware.board import board
from firmware.buttons import A, Buttons
from firmware.compat import const, locked, unload
from firmware.pico.picoports import (HEADLESS, RECOVERING, RUNNING, Onboard, ask_recovery, clock_ms,
                                sleep_ms)
from firmware.port_common import play, show_lines

SAMPLE_MS = const(2)  # button sampling period (debounce needs a few samples)
SLICE_MS = const(2)   # longest sleep between checks for a waiting press (the sampler's period)
GC_IDLE_MS = const(50)     # a quiet stretch at least this long after a new frame ...
GC_LOW_FREE = const(65536)  # ... with less free heap than this: collect then
DATA_DIR = "/data"  # saves, settings and statistics live here
# Free heap at the start below which a match does not fit: a hard match
# takes about 26 KB of the heap as it goes (the release .uf2: 137 KB free at
# the title, 111 KB at the least), and its imports need runs, not only
# bytes. The .mpy bundle on an RP2040's stock MicroPython has about 15 KB.
LOW_HEAP = const(40960)
LOW_HEAP_SAID = (
    "Too little memory for a match: %d bytes free, where a match needs about %d. The game's "
    "code is in RAM (the .mpy bundle on stock MicroPython); a new match will run out of "
    "memory. Install the release's gin-rummy-pico-<version>.uf2 (hold BOOTSEL while "
    "plugging the Pico in, copy it onto RPI-RP2; the saves stay), then make flash for "
    "changes.")
LOW_HEAP_SHOWN = ("The game's code is in RAM here (stock MicroPython): a match runs out of "
                  "memory. Install the release .uf2; the saves stay.")

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

    def set_pins(self, numbers):
        """Other GPIOs for the six buttons (the HARDWARE page's learned
        pins), with the polarity in use."""
        self.n = 0
        self.numbers = tuple(numbers)
        self.set_active_low(self.active_low)

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
    """The pins' reading or'ed with the keys typed on the console (`keys`)
    and, in the recovery start, BOOTSEL as A (`onboard`: Onboard.down)."""

    def __init__(self, pins, keys=None, onboard=None):
        self._pins = pins.read
        self._keys = keys.read if keys is not None else None
        self._onboard = onboard

    def read(self):
        m = self._pins()
        k = self._keys
        if k is not None:
            m |= k()
        o = self._onboard
        if o is not None and o.down:
            m |= A
        return m


class Sampler:
    """Samples the buttons from a periodic machine.Timer (on the rp2 port a
    soft timer: the callback runs between bytecodes, so it also runs while
    the game computes; Buttons skips a sample that would re-enter). The
    same tick ends the notes of `sound` (firmware.sound.Sound) on time
    and ticks `onboard` (firmware.pico.picoports.Onboard: the LED's blinks,
    BOOTSEL's hold, which wakes the loop like a Ctrl-C).
    A tick that fires on top of a deep stack (the AI's meld search) and
    finds no room ("maximum recursion depth exceeded") loses that one
    sample (counted in `deep`), as would one that allocated (the tick runs
    with the heap locked, so that its calls' frames are on the C stack:
    the module's docstring); the next tick reads the buttons."""

    def __init__(self, buttons, period_ms=SAMPLE_MS, sound=None, onboard=None):
        self.buttons = buttons
        self.sound = sound
        self.onboard = onboard
        self.interrupted = False
        self.ctrl_c = False              # ... by a Ctrl-C (ConsoleKeys' `stop`)
        self.deep = 0
        self._ticks = clock_ms
        self._sample_now = self._sample    # bound once: a tick allocates nothing
        self.timer = machine.Timer(-1)
        self.timer.init(mode=machine.Timer.PERIODIC, period=period_ms, callback=self._tick)

    def _tick(self, t):
        # MicroPython raises a pending Ctrl-C at a jump, such as the one
        # past _sample's handlers once its `try` is left: there it is out
        # of _sample's reach and comes here (locked's `finally` unlocks the
        # heap on the way). `return` inside the `try` leaves no such jump
        # in this function's own try. Uncaught, the scheduler printed it
        # and the Ctrl-C was lost: mpremote could not reach the raw REPL.
        try:
            return locked(self._sample_now, None)
        except KeyboardInterrupt:
            self.interrupted = True
            self.ctrl_c = True
        except RuntimeError:
            # no room on the C stack for _sample's own frame (a tick on
            # top of a deep locked call): uncaught, the scheduler would
            # print a bare "RuntimeError:" on the console
            self.deep += 1

    def _sample(self, _):
        try:
            now = self._ticks()
            self.buttons.sample(now)
            s = self.sound
            if s is not None and s.playing:
                s.update(now)
            o = self.onboard
            if o is not None and o.tick():
                self.interrupted = True  # BOOTSEL held: wake the loop (Loop.pause)
        except KeyboardInterrupt:
            # Ctrl-C landed in the callback, where it would only be printed:
            # run() raises it in the loop instead. `ctrl_c` tells it from
            # BOOTSEL's wake-up (the console's keys stop only at a Ctrl-C)
            self.interrupted = True
            self.ctrl_c = True
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
    `keys` (consolekeys.ConsoleKeys): the console is read every slice.
    Nothing here allocates: the run loop calls it with the heap locked
    (Loop.pause, firmware.compat.locked), and should something allocate
    after all, it returns early."""
    if ms is None or ms <= 0:
        return
    ticks_ms = clock_ms
    try:
        end = time.ticks_add(ticks_ms(), ms)
        held = buttons.held()
        while True:
            now = ticks_ms()
            if keys is not None:
                keys.update(now)
            left = time.ticks_diff(end, now)
            if (left <= 0 or buttons.poll(now) or buttons.held() != held
                    or (stop is not None and stop.interrupted)
                    or (keys is not None and keys.interrupted)):
                return
            sleep_ms(left if left < SLICE_MS else SLICE_MS)
    except MemoryError:
        pass               # allocated after all (locked): the loop steps and waits again


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


# -- the device -------------------------------------------------------------------

def hw_seed():
    """A seed below 2**30 from the RP2040's random source."""
    try:
        import os

        b = os.urandom(4)
        return (b[0] << 22) | (b[1] << 14) | (b[2] << 6) | (b[3] >> 2)
    except Exception:
        return time.ticks_us() & 0x3FFFFFFF


def hw_entropy():
    """The RP2040's random source as an entropy source (firmware/entropy.py:
    os.urandom, the ring oscillator's bits)."""
    from firmware import entropy

    return entropy.board()


BRINGUP = "firmware.pico.bringup"


def _bringup():
    """firmware/pico/bringup.py, imported (again) for a call."""
    import firmware.pico.bringup as b

    return b


def let_go_bringup():
    """Forget firmware/pico/bringup.py, firmware/pico/pinscan.py and firmware/board/chip.py
    (sys.modules and the package's attributes) and collect: on the .mpy bundle their code
    leaves the heap. True when the bring-up was loaded."""
    import gc

    m = unload(BRINGUP)
    unload("firmware.pico.pinscan")      # the pin scan: only when no display answered
    unload("firmware.board.chip")         # the chip's facts, for the bring-up's words
    gc.collect()
    return m


def open_display(bus=None, cfg=board, out=print, scan=None):
    """firmware.pico.bringup.open_display (the safe boot, the bench's scripts)."""
    return _bringup().open_display(bus, cfg, out, scan)


def preload(out=print):
    """firmware.pico.bringup.preload (the bench's scripts)."""
    return _bringup().preload(out)


def _link_pins(cfg):
    """(tx, rx) of the link cable, or the words of a pin another part has
    (the wiring's pins keep theirs: LINK then says what to set)."""
    tx = getattr(cfg, "LINK_TX", board.LINK_TX)
    rx = getattr(cfg, "LINK_RX", board.LINK_RX)
    used = list(cfg.BUTTON_PINS) + [cfg.I2C_SDA, cfg.I2C_SCL, cfg.BUZZER_PIN]
    for p in (tx, rx):
        if p in used:
            return "GP%d is wired to another part: set link_tx and link_rx in /board.json" % p
    return (tx, rx)


def _link_uart(pins, app=None):
    """The link cable's UART on the pins the boot read, or on those the
    HARDWARE page's LINK row chose since (firmware.board.boardset.Hardware)."""
    b = getattr(app, "board", None)
    if b is not None and getattr(b, "link_moved", False):
        pins = b.link_pins()
    if isinstance(pins, str):
        raise ValueError(pins)
    from firmware.link.linkport import open_uart

    return open_uart(pins[0], pins[1])


def kept_settings(cfg):
    """firmware.pico.bringup.kept_settings."""
    return _bringup().kept_settings(cfg)


class Loop:
    """run()'s step and pause (firmware.port_common.play): the console's
    keys read before each step, the idle collection after it (`idle`, an
    IdleCollect set once the App exists), the sleep until a press, a
    Ctrl-C the sampler caught in its timer raised here, and BOOTSEL held
    (the sampler's onboard.fired): recover()."""

    def __init__(self, buttons, keys, sampler, display=None, out=print):
        self.buttons = buttons
        self.keys = keys
        self.sampler = sampler
        self.display = display
        self.out = out
        self.idle = None
        self._wait = self._sleep         # bound once (locked() takes it)

    def _sleep(self, ms):
        wait(self.buttons, ms, self.keys, self.sampler)

    def step(self, app):
        keys = self.keys
        if keys is not None:
            keys.update(clock_ms())
            if keys.interrupted:
                raise KeyboardInterrupt    # Ctrl-C typed on the console
        ms = app.step()
        self.idle.after(ms)
        return ms

    def pause(self, ms):
        sampler = self.sampler
        locked(self._wait, ms)
        keys = self.keys
        if keys is not None and keys.interrupted:
            raise KeyboardInterrupt        # Ctrl-C typed on the console
        if sampler.interrupted:
            o = sampler.onboard
            if o is not None and o.fired:
                recover(self.display, self.out)   # returns only where it cannot
                o.rearm()
                sampler.interrupted = False
                return
            raise KeyboardInterrupt


def recover(display, out=print):
    """BOOTSEL held while the game runs (firmware.pico.picoports.Onboard): start
    again (a soft reset, which runs main.py) into the recovery start, which
    ignores /board.json (firmware/main.py, firmware.board.boardcfg.boot). The
    game was saved after its last completed turn, as at any reset. On a
    chip whose scratch register is not known (firmware/board/chip.py) the flag
    cannot be left: it says so and the game goes on."""
    if not ask_recovery():
        from firmware.board import chip

        out(chip.why_not("The recovery start from a running game"))
        return
    out("BOOTSEL held: starting again with the default settings "
        "(/board.json is ignored for that start).")
    show_lines(display, ("BOOTSEL HELD", "STARTING AGAIN", "WITH DEFAULTS"))
    machine.soft_reset()


def new_app(loop, app_factory, display, buttons, storage, sound, seed, root, out, kept,
            pins, first, link_pins=None):
    """run()'s App (firmware.app.App unless `app_factory`), made with all its
    ports (the game records, the HARDWARE page's parts, the link cable on
    the pins _link_pins read) and started: the title, or first the screen
    the start opens on (`first`: firmware.pico.bringup.first_screen)."""
    import gc

    from firmware.ports import Ports
    from firmware.saves.records import Records

    entropy = None
    if app_factory is None:
        from firmware.app import App as app_factory

        # the deal secret and the AI's seed of every new match
        entropy = hw_entropy()
    # LINK on the title: the cable's UART
    link_port = lambda: _link_uart(link_pins, app)  # noqa: E731
    app = app_factory(Ports(display, buttons, clock_ms, storage, sound=sound,
                            seed=hw_seed() if seed is None else seed, entropy=entropy,
                            link_port=link_port,
                            records=Records(root.rstrip("/") + "/records", out=out),
                            board_parts=(kept, display, pins)))
    Ports = None                    # the App keeps the ports: their record goes
    unload("firmware.ports")
    app.start()
    if first is not None:
        buttons.suppress()          # the button held at power-on
        app.go(first[0], prev=app.screen, **first[1])   # then the screen the start showed
    for why in storage.damage:
        out("Save set aside: " + why)
    gc.collect()
    free = gc.mem_free()
    out("Game running (free memory %d bytes). Ctrl-C stops it and frees the REPL." % free)
    if free < LOW_HEAP:
        out(LOW_HEAP_SAID % (free, LOW_HEAP))
        if first is None:                   # (the recovery start's screen first)
            app.go("message", title=b"TOO LITTLE MEMORY", text=LOW_HEAP_SHOWN,
                   then=app.screen_name)
    loop.idle = IdleCollect(app, gc.collect, gc.mem_free)
    return app


def run(app_factory=None, root=None, max_steps=None, out=print, seed=None, cfg=None,
        hardware=False):
    """Bring up the ports and play until Ctrl-C or an error. Returns the App
    (None if it could not be built). `root`: where saves and records go
    (DATA_DIR). `cfg`: the board's settings (firmware.board.boardcfg.load_config(), read
    here when not given). `hardware`: start on the HARDWARE page (a button
    held at power-on, firmware/main.py)."""

    from firmware.saves.storage import Storage

    if cfg is None and BOOT_CFG:
        cfg = BOOT_CFG.pop()
    if root is None:
        root = DATA_DIR
    cfg, display, keys, sound, buzzer, kept, first = _bringup().start(cfg, out, hardware)
    recovery = first is not None and first[0] == "recovery"
    let_go_bringup()
    pins = ButtonPins(cfg=cfg)
    onboard = Onboard(RECOVERING if recovery else HEADLESS if display.headless else RUNNING,
                      SAMPLE_MS, recovery=recovery)
    buttons = Buttons(pins.read if keys is None and not recovery
                      else Inputs(pins, keys, onboard if recovery else None).read)
    link_pins = _link_pins(cfg)
    cfg = None                   # the HARDWARE page keeps `kept`: the Config itself goes
    sampler = Sampler(buttons, sound=sound, onboard=onboard)
    if keys is not None:
        keys.stop = sampler     # a Ctrl-C the sampler caught: the console is read no more
    storage = Storage(root)
    loop = Loop(buttons, keys, sampler, display, out)
    try:
        app = play(new_app, (loop, app_factory, display, buttons, storage, sound, seed, root,
                             out, kept, pins, first, link_pins),
                   loop.step, loop.pause, display, out, max_steps,
                   oom_advice=" If it happens again, check that only the game's files "
                   "are on the board (mpremote ls) and report it.",
                   restart=machine.soft_reset, stopped=onboard.fail)
    finally:
        sampler.stop()
        if buzzer is not None:
            buzzer.off()
        if onboard.timer is None:
            onboard.off()               # not stopped on an error: dark
    return app
