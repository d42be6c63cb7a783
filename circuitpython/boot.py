"""CircuitPython boot.py (the CIRCUITPY drive's /boot.py, run once at power-on).

The game keeps its saves in microcontroller.nvm; across the rare rewrite of
that flash sector it also writes them to a file on the drive
(circuitpython/cpnvm.py), which needs the drive writable for the game. Only
one side can write the drive: so it is the game's, unless B is held at
power-on, which leaves it to the computer (to copy a new version with
`make flash-circuitpython`) and starts no game (code.py's safe boot).
"""

import storage

try:
    from cpsafe import b_held

    held = b_held()
except Exception:  # the files are broken: leave the drive to the computer
    held = True
if not held:
    storage.remount("/", readonly=False)
