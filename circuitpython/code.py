"""CircuitPython entry point (the CIRCUITPY drive's /code.py).

tools/deploy_circuitpython.py copies this file to the drive's root with
cpports.py beside it, the game in /engine and /firmware, and installs the
Adafruit display driver into /lib with circup.

Safe boot: holding B while powering on (or pressing reset) skips the game,
so the serial console's REPL is free at once. The check uses only
`digitalio`, so it works even if the game's files are broken.
"""

import time

import board
import digitalio

SAFE_BOOT = (
    "Safe boot: B was held at power-on, so the game did not start.\n"
    "The REPL is free (press any key in the serial console). The CIRCUITPY\n"
    "drive can be written as usual (make flash-circuitpython).\n"
    "To play, release B and press reset, or press Ctrl-D in the REPL."
)


def b_held():
    """True when B is down for most of ~25 ms after power-on."""
    try:
        from firmware.board import BTN_B, BUTTONS_ACTIVE_LOW
    except Exception:
        BTN_B, BUTTONS_ACTIVE_LOW = 15, True
    pin = digitalio.DigitalInOut(getattr(board, "GP%d" % BTN_B))
    try:
        pin.switch_to_input(pull=digitalio.Pull.UP if BUTTONS_ACTIVE_LOW
                            else digitalio.Pull.DOWN)
        down = not BUTTONS_ACTIVE_LOW
        time.sleep(0.005)  # let the pull-up charge the line
        n = 0
        for _ in range(10):
            if pin.value == down:
                n += 1
            time.sleep(0.002)
    finally:
        pin.deinit()  # keypad takes the pin over
    return n >= 8


def main():
    if b_held():
        print(SAFE_BOOT)
        try:
            import cpports

            d, _ = cpports.open_display(out=lambda s: None)
            cpports.show_lines(d, ("SAFE BOOT", "REPL IS FREE", "", "RESET TO PLAY"))
        except Exception:
            pass
        return
    try:
        import cpports
    except Exception as e:
        try:
            import traceback

            traceback.print_exception(e)
        except Exception:
            print(repr(e))
        print("The game could not start: its files on the CIRCUITPY drive are missing or "
              "broken. Copy them again with `make flash-circuitpython DRIVE=...`.")
        return
    cpports.run()


main()
