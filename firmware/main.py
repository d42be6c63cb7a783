"""Device entry point. tools/deploy/deploy.py copies this file to the board's
/main.py (as source: MicroPython runs /main.py at every boot); the rest of
the game is in /engine and /firmware as .mpy files. In the frozen build
(`make uf2`, manifest.py) this file is the frozen main.py, which MicroPython
runs instead of any /main.py, and the frozen modules come first on sys.path,
so copies left on the filesystem by `make flash` do not shadow them.

Safe boot: holding B while powering on (or pressing reset) skips the game
and leaves the REPL free, so `mpremote` can always reach the board. This
check uses nothing but `machine.Pin`, so it works even if the game's files
are broken.
"""

import sys
import time

import machine

SAFE_BOOT = (
    "Safe boot: B was held at power-on, so the game did not start.\n"
    "The REPL is free: mpremote can reach the board (mpremote repl, make flash).\n"
    "To play, release B and press reset or power the board again."
)


def b_held():
    """True when B is down for most of ~25 ms after power-on."""
    try:
        from firmware.board import BTN_B, BUTTONS_ACTIVE_LOW
    except Exception:
        BTN_B, BUTTONS_ACTIVE_LOW = 15, True
    P = machine.Pin
    pin = P(BTN_B, P.IN, P.PULL_UP if BUTTONS_ACTIVE_LOW else P.PULL_DOWN)
    down = 0 if BUTTONS_ACTIVE_LOW else 1
    time.sleep_ms(5)  # let the pull-up charge the line
    n = 0
    for _ in range(10):
        if pin.value() == down:
            n += 1
        time.sleep_ms(2)
    return n >= 8


FROZEN = ".frozen"


def prefer_frozen():
    """Frozen modules first on sys.path (the stock firmware has no frozen
    engine or firmware, so the filesystem's are found next). True when the
    game is frozen into this firmware while /engine or /firmware copies
    are on the filesystem."""
    if FROZEN not in sys.path:
        return False
    sys.path.remove(FROZEN)
    sys.path.insert(0, FROZEN)
    try:
        import os
        import firmware

        here = os.listdir("/")
        return firmware.__file__.endswith(".py") and ("firmware" in here or "engine" in here)
    except Exception:
        return False


def main():
    if prefer_frozen():
        print("Note: the game is frozen into this firmware; the /engine and /firmware folders on "
              "the filesystem are not used (mpremote rm -r :engine :firmware frees the space).")
    if b_held():
        print(SAFE_BOOT)
        try:
            from firmware import pico

            d, _ = pico.open_display(out=lambda s: None)
            pico.show_lines(d, ("SAFE BOOT", "REPL IS FREE", "", "RESET TO PLAY"))
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
    pico.run()


main()
