"""Device entry point, in each of the ways the game goes onto a Pico:

- the release firmware (`make uf2`, `make flash`): this file is
  firmware/main.mpy in the ROMFS image at /rom, and the firmware's frozen
  main.py (firmware/romboot.py) imports it, with /rom first on sys.path;
- the .mpy bundle on stock MicroPython (`make flash` onto a board without
  a ROMFS partition): tools/deploy/deploy.py copies it to the board's
  /main.py (as source: MicroPython runs /main.py at every boot), the rest
  of the game in /engine and /firmware as .mpy files;
- the game frozen into the firmware (`make uf2-frozen`, manifest.py): it is
  the frozen main.py, which MicroPython runs instead of any /main.py.
Either way the game's modules come from the firmware's flash first (the
frozen modules, /rom), so copies left on the filesystem by an earlier
bundle do not shadow them.

The first console line names the game and its version (engine/version.py).
The board's settings are firmware/board.py's defaults and the settings file
/board.json (firmware/boardcfg.py); they are read once here and passed to
the ports (firmware.pico.run(cfg=...)), and the loader is let go.

Safe boot: holding B while powering on skips the game
and leaves the REPL free, so `mpremote` can always reach the board. This
check uses nothing but `machine.Pin` (and board.py's B pin when the
settings cannot be read), so it works even if the game's files are broken.

Recovery start: BOOTSEL held for 3 s while the game runs starts it again
(firmware.pico.recover) with the default settings, /board.json unread,
on the HARDWARE page (firmware.boardcfg.boot), whatever the file says
about the buttons. The flag that asks for it lives in a register a power
cut clears (firmware.picoports.take_recovery), so it is never left set.

HARDWARE page: holding A while powering on starts the game on that page
(display type, flip, button test, the settings file). A is read both ways,
with a pull-up (a button to GND) and with a pull-down (a button to 3V3),
so a board whose buttons are wired the other way from the settings still
reaches the page, and that polarity is used for this start.
"""

import sys
import time

import machine

SAFE_BOOT = (
    "Safe boot: B was held at power-on, so the game did not start.\n"
    "The REPL is free: mpremote can reach the board (mpremote repl, make flash).\n"
    "To play, release B, then unplug the board and plug it in again."
)


def held(n, active_low):
    """True when pin `n` reads pressed for most of ~25 ms."""
    P = machine.Pin
    pin = P(n, P.IN, P.PULL_UP if active_low else P.PULL_DOWN)
    down = 0 if active_low else 1
    time.sleep_ms(5)  # let the pull-up charge the line
    k = 0
    for _ in range(10):
        if pin.value() == down:
            k += 1
        time.sleep_ms(2)
    return k >= 8


def b_held(cfg=None):
    """True when B is down for most of ~25 ms after power-on."""
    try:
        if cfg is None:
            from firmware import board as cfg
        pin, low = cfg.BTN_B, cfg.BUTTONS_ACTIVE_LOW
    except Exception:
        pin, low = 15, True
    return held(pin, low)


def board_config():
    """(cfg, hardware) from firmware.boardcfg.boot(): the version line,
    the board's settings (/board.json) and A held at power-on; (None,
    False) when the game's files cannot give them."""
    try:
        from firmware.boardcfg import boot
        from firmware.picoports import take_recovery

        return boot(held, recovery=take_recovery())
    except Exception as e:
        print("Gin Rummy: the board settings could not be read (%s): using "
              "firmware/board.py's." % (e,))
        return None, False


FROZEN = ".frozen"


ROM = "/rom/"


def prefer_frozen():
    """Frozen modules first on sys.path (the stock firmware has no frozen
    engine or firmware, so the filesystem's are found next; the release
    firmware's romboot put /rom, the game's ROMFS image, before them).
    True when the game comes from the firmware's flash (frozen, or the
    ROMFS image) while /engine or /firmware copies are on the filesystem."""
    if FROZEN not in sys.path:
        return False
    sys.path.remove(FROZEN)
    sys.path.insert(0, FROZEN)
    try:
        import os
        import firmware

        here = os.listdir("/")
        f = firmware.__file__
        in_flash = f.endswith(".py") or f.startswith(ROM)
        return in_flash and ("firmware" in here or "engine" in here)
    except Exception:
        return False


def led_on():
    """The on-board LED on, steady: starting (the game's loop blinks it
    from then on), or safe boot (firmware.picoports.Led has the table)."""
    try:
        machine.Pin("LED", machine.Pin.OUT).value(1)
    except Exception:   # a board without an LED pin
        pass


def main():
    led_on()
    frozen_too = prefer_frozen()       # first: the imports below take the frozen copies
    cfg, hardware = board_config()     # the version line, then the settings' lines
    if frozen_too:
        print("Note: the game runs from the firmware's flash; the /engine and /firmware folders "
              "on the filesystem are not used (mpremote rm -r :engine :firmware frees the space).")
    if b_held(cfg):
        print(SAFE_BOOT)
        try:
            from firmware import pico
            from firmware.port_common import safe_screen

            safe_screen(lambda: pico.open_display(cfg=cfg or pico.board, out=lambda s: None,
                                                  scan=False)[0])
        except Exception:
            pass
        return
    try:
        from firmware import pico
    except Exception as e:
        sys.print_exception(e)
        print("The game could not start: its files on the board are missing or broken.\n"
              "Copy them again with `make flash`. The REPL is free.")
        return
    if hardware:
        print("A was held at power-on: the game starts on the HARDWARE page.")
    # this frame lasts the whole game: it keeps no reference to the
    # settings (an argument of the call would stay on its stack), so
    # pico.run can let them go once the ports are up
    pico.BOOT_CFG.append(cfg)
    cfg = None
    # nor the boot's helpers: compiled from this source, they would stay
    # on the heap through the game with the module's globals
    g = globals()
    for name in ("held", "b_held", "board_config", "prefer_frozen", "led_on", "SAFE_BOOT",
                 "FROZEN", "ROM"):
        g.pop(name, None)
    g = None
    pico.run(hardware=hardware)


main()
