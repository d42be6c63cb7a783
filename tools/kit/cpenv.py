"""CircuitPython's built-in modules on CPython, for running circuitpython/
on the computer (the tests, tools/saves/savecuts.py, the benches).

fakes/circuitpython/ holds stand-ins for board, busio, digitalio, keypad,
microcontroller, storage and supervisor (its README.md). They are
top-level modules, as on the board, so they go on sys.path: first, before
Blinka's modules of the same names. circuitpython/ goes last: its modules
(cp*.py, boot.py) have names of their own, and its code.py must not shadow
the standard library's `code` (which pdb imports).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAKES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fakes", "circuitpython")
CPDIR = os.path.join(ROOT, "circuitpython")
NAMES = ("board", "busio", "digitalio", "keypad", "microcontroller", "storage", "supervisor")


def install():
    """The fakes first on sys.path and circuitpython/ last; a module of a
    fake's name imported from elsewhere (Blinka's) is forgotten, so the
    next import finds the fake."""
    if FAKES in sys.path:
        sys.path.remove(FAKES)
    sys.path.insert(0, FAKES)
    for name in NAMES:
        mod = sys.modules.get(name)
        if mod is not None and not (getattr(mod, "__file__", "") or "").startswith(FAKES):
            del sys.modules[name]
    if CPDIR not in sys.path:
        sys.path.append(CPDIR)
