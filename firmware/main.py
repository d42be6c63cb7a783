"""Device entry point, in each of the ways the game goes onto a Pico:

- the release firmware (`make uf2`, `make flash`): this file is
  firmware/main.mpy in the ROMFS image at /rom, and the firmware's frozen
  main.py (firmware/pico/romboot.py) imports it, with /rom first on sys.path;
- the .mpy bundle on stock MicroPython (`make flash` onto a board without
  a ROMFS partition): tools/deploy/deploy.py copies it to the board's
  /main.py (as source: MicroPython runs /main.py at every boot), the rest
  of the game in /engine and /firmware as .mpy files;
- the game frozen into the firmware (`make uf2-frozen`, manifest.py): it is
  the frozen main.py, which MicroPython runs instead of any /main.py.
Either way the game's modules come from the firmware's flash first (the
frozen modules, /rom), so copies left on the filesystem by an earlier
bundle do not shadow them.

What runs once at a start (the LED, the version line, the settings
/board.json, the safe boot with B held, the recovery start with BOOTSEL,
the HARDWARE page with A held) is firmware/pico/start.py, let go before the
game (firmware.pico.pico.run): compiled from source at every start, this
file's code stays on the heap as long as the game runs, so it holds only
what must come first (the frozen modules first on sys.path) and the
calls. Without the game's files it says so and leaves the REPL free.
"""

import sys

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


def main():
    frozen_too = prefer_frozen()       # first: the imports below take the frozen copies
    try:
        from firmware.pico import pico          # the game's own first: the cold ones after it
        from firmware.pico.start import start

        hardware = start(frozen_too)
    except Exception as e:
        sys.print_exception(e)
        print("The game could not start: its files on the board are missing or broken.\n"
              "Copy them again with `make flash`. The REPL is free.")
        return
    # this frame lasts the whole game: firmware/pico/start.py leaves the heap,
    # and so does this module's boot helper (compiled from this source on
    # the bundle, it would stay on the heap with the module's globals)
    start = None
    sys.modules.pop("firmware.pico.start", None)
    del sys.modules["firmware.pico"].start
    g = globals()
    for name in ("prefer_frozen", "FROZEN", "ROM"):
        g.pop(name, None)
    g = None
    if hardware is None:
        return                                 # the safe boot: the REPL is free
    pico.run(hardware=hardware)


main()
