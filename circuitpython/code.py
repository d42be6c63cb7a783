"""CircuitPython entry point (the CIRCUITPY drive's /code.py).

tools/deploy/deploy_circuitpython.py copies this file to the drive's root with
boot.py and the ports (cp*.py) beside it, the game in /engine and
/firmware, and installs the Adafruit display driver into /lib with circup.

Safe boot: holding B while powering on skips the game,
so the serial console's REPL is free at once (and boot.py leaves the drive
writable for the computer). The check (cpsafe.py) uses only `digitalio`,
so it works even if the game's files are broken.
"""

from cpsafe import b_held

SAFE_BOOT = (
    "Safe boot: B was held at power-on, so the game did not start.\n"
    "The REPL is free (press any key in the serial console). The CIRCUITPY\n"
    "drive can be written as usual (make flash-circuitpython).\n"
    "To play, release B, then unplug the board and plug it in again, or press\n"
    "Ctrl-D in the REPL."
)


def main():
    if b_held():
        print(SAFE_BOOT)
        try:
            import cpports
            from firmware.port_common import safe_screen

            safe_screen(lambda: cpports.open_display(out=lambda s: None)[0])
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
