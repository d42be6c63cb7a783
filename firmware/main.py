"""Device entry point. tools/deploy/deploy.py copies this file to the board's
/main.py (as source: MicroPython runs /main.py at every boot); the rest of
the game is in /engine and /firmware as .mpy files. In the frozen build
(`make uf2`, manifest.py) this file is the frozen main.py, which MicroPython
runs instead of any /main.py, and the frozen modules come first on sys.path,
so copies left on the filesystem by `make flash` do not shadow them.

What runs once at a start (the LED, the version line, the settings
/board.json, the safe boot with B held, the recovery start with BOOTSEL,
the HARDWARE page with A held) is firmware/start.py, let go before the
game (firmware.pico.run): compiled from source at every start, this
file's code stays on the heap as long as the game runs, so it holds only
what must come first (the frozen modules first on sys.path) and the
calls. Without the game's files it says so and leaves the REPL free.
"""

import sys

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
    frozen_too = prefer_frozen()       # first: the imports below take the frozen copies
    try:
        from firmware import pico          # the game's own first: the cold ones after it
        from firmware.start import start

        hardware = start(frozen_too)
    except Exception as e:
        sys.print_exception(e)
        print("The game could not start: its files on the board are missing or broken.\n"
              "Copy them again with `make flash`. The REPL is free.")
        return
    # this frame lasts the whole game: firmware/start.py leaves the heap
    start = None
    sys.modules.pop("firmware.start", None)
    del sys.modules["firmware"].start
    if hardware is None:
        return                                 # the safe boot: the REPL is free
    pico.run(hardware=hardware)


main()
