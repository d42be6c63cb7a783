"""The start of a board, between firmware/main.py and the game
(firmware.pico.pico.run): the LED on, the version line, the settings
(firmware.board.boardcfg.boot: /board.json, or the defaults in a recovery
start), the buttons held at power-on, the safe boot. main.py imports this
module, calls start() and lets it go before the game: from the .mpy
bundle main.py is compiled from source at every start and its code stays
on the heap through the game, so what runs once lives here.

- Safe boot: B held at power-on skips the game and leaves the REPL free,
  so `mpremote` can always reach the board. With the game's files broken
  main.py says so and the REPL is free as well.
- Recovery start: the default settings, /board.json unread, whatever it
  says about the pins (firmware.board.boardrescue; the screen offers to set the
  file aside). BOOTSEL (the Pico's own button, which no settings file can
  move) asks for it: held as this start begins (the boot ROM takes
  BOOTSEL only at the moment of reset, so a press just after plugging in
  reaches the game), held in the safe boot's first seconds
  (boardrescue.WATCH_MS), held for a moment in the game's first seconds
  or for 3 s at any time (firmware.pico.pico.recover: a soft reset with a flag
  in a register a power cut clears, firmware.pico.picoports.asked, so it is
  never left set).
- A button held at every start: the six buttons are read together at
  power-on (held()), and one held at boardrescue.HELD_STARTS starts in a
  row is explained on the console and the screen (which button, which
  pin, what /board.json says, how to recover): a file can put B on a pin
  that something holds at the pressed level, which makes every start a
  safe boot.
- HARDWARE page: A held at power-on starts the game on that page. A is
  read both ways, with a pull-up (a button to GND) and with a pull-down
  (a button to 3V3), so a board whose buttons are wired the other way
  from the settings still reaches the page, and that polarity is used
  for this start.
"""

import time

import machine

SAFE_BOOT = (
    "Safe boot: B was held at power-on, so the game did not start.\n"
    "The REPL is free: mpremote can reach the board (mpremote repl, make flash).\n"
    "To play, release B, unplug the Pico and plug it in again."
)


def held(pins, active_low):
    """The mask of `pins` that read pressed for most of ~25 ms, read
    together (bit i: pins[i])."""
    P = machine.Pin
    pull = P.PULL_UP if active_low else P.PULL_DOWN
    ps = [P(n, P.IN, pull) for n in pins]
    down = 0 if active_low else 1
    k = [0] * len(ps)
    time.sleep_ms(5)  # let the pulls charge the lines
    for _ in range(10):
        for i in range(len(ps)):
            if ps[i].value() == down:
                k[i] += 1
        time.sleep_ms(2)
    m = 0
    for i in range(len(ps)):
        if k[i] >= 8:
            m |= 1 << i
    return m


def b_held(cfg=None):
    """True when B was down at power-on (cfg.held, read with the other
    buttons), or reads down now for most of ~25 ms."""
    try:
        if cfg is None:
            from firmware.board import board as cfg
        if getattr(cfg, "held", None) is not None:
            return bool(cfg.held & 0x20)         # firmware.buttons.B
        pin, low = cfg.BTN_B, cfg.BUTTONS_ACTIVE_LOW
    except Exception:
        pin, low = 15, True
    return held((pin,), low) != 0


def board_config(why=None):
    """(cfg, hardware) from firmware.board.boardcfg.boot(): the version line,
    the board's settings (/board.json) and the buttons held at power-on,
    or the defaults in a recovery start (`why`; boot() also looks at
    BOOTSEL and the flag firmware.pico.pico.recover leaves); (None, False)
    when the game's files cannot give them."""
    try:
        from firmware.board.boardcfg import boot
        from firmware.pico.picoports import asked

        return boot(held, recovery=why, ask=asked)
    except Exception as e:
        print("Gin Rummy: the board settings could not be read (%s): using "
              "firmware/board/board.py's." % (e,))
        return None, False


def safe_boot(cfg):
    """B held at power-on: the REPL is left free (False), after
    boardrescue.WATCH_MS in which BOOTSEL asks for the recovery start
    instead (True). The screen says SAFE BOOT, or why B read as held at
    every start (cfg.stuck), on the display's pins, or the defaults' when
    those find none (the file may have moved it)."""
    print(SAFE_BOOT)
    try:
        from firmware.board.boardrescue import WATCHING, WATCH_MS, bootsel_held
    except Exception:            # the game's files broken: the REPL is free
        return False
    stuck = getattr(cfg, "stuck", None)
    try:
        from firmware.board import board
        from firmware.pico import bringup
        from firmware.port_common import SAFE_LINES, show_lines

        d = bringup.open_display(cfg=cfg or board, out=quiet, scan=False)[0]
        if d.headless and cfg is not None:
            d = bringup.open_display(cfg=board, out=quiet, scan=False)[0]
        if stuck is None:
            show_lines(d, SAFE_LINES)
        else:
            small_lines(d, ("SAFE BOOT: " + stuck[0], "") + stuck[2])
    except Exception:
        pass
    print(WATCHING)
    return bootsel_held(WATCH_MS)


def quiet(s):
    pass


def small_lines(display, lines):
    """Up to 8 lines of 31 characters in the small font on `display`."""
    if display.headless:
        return
    from firmware.display import fb

    c = fb.Canvas()
    for i in range(len(lines)):
        c.text(lines[i], 1, 1 + 8 * i, 1)
    display.show(c.buf, True)


def led_on():
    """The on-board LED on, steady: starting (the game's loop blinks it
    from then on), or safe boot (firmware.pico.picoports.Onboard has the table)."""
    try:
        machine.Pin("LED", machine.Pin.OUT).value(1)
    except Exception:   # a board without an LED pin
        pass


def start(frozen_too=False):
    """The start up to the game: True or False (A held: the HARDWARE page
    first), with the settings left in firmware.pico.pico.BOOT_CFG for run(); or
    None when the REPL is to be left free (the safe boot)."""
    led_on()
    cfg, hardware = board_config()     # the version line, then the settings' lines
    if frozen_too:
        print("Note: the game runs from the firmware's flash; the /engine and /firmware folders "
              "on the filesystem are not used (mpremote rm -r :engine :firmware frees the space).")
    if not getattr(cfg, "recovery", False) and b_held(cfg):
        if not safe_boot(cfg):
            return None
        cfg, hardware = board_config("in the safe boot")
    from firmware.pico import pico

    if hardware:
        print("A was held at power-on: the game starts on the HARDWARE page.")
    # main.py's frame lasts the whole game: the settings go to run() this
    # way, not as an argument of the call, which would stay on its stack,
    # so pico.run can let them go once the ports are up
    pico.BOOT_CFG.append(cfg)
    return bool(hardware)
