"""Setup for the CircuitPython port tests.

tools/kit/cpenv.install() puts tools/kit/fakes/circuitpython/ (stand-ins for
CircuitPython's built-in board, busio, digitalio, keypad, microcontroller,
storage and supervisor) first on sys.path and circuitpython/ last (first,
its code.py would shadow the standard library's `code` module, which pdb
imports); then cpports and its modules are imported. Blinka's displayio, busdisplay, i2cdisplaybus and
bitmaptools (from the pinned adafruit-circuitpython-displayio-ssd1306
dependencies) run for real.
"""

import pytest

from tools.kit import cpenv

cpenv.install()
import cpports  # noqa: E402,F401


def _stop_blinka_background():
    """Blinka's displayio polls its displays from a thread every 1 ms (for
    auto_refresh, which the port never uses). Stopped, so that tests may
    replace time.sleep and the fake clock moves only when a test moves it."""
    import displayio

    stop = getattr(displayio, "_stop_background", None)
    if stop is not None:
        stop()


_stop_blinka_background()


@pytest.fixture(autouse=True)
def fresh_fakes():
    """Every test starts with released displays, a fresh nvm, pins idle."""
    import board
    import busio
    import digitalio
    import displayio
    import microcontroller
    import storage
    import supervisor

    displayio.release_displays()
    microcontroller.nvm = microcontroller.FakeNvm()
    storage.getmount("/").readonly = True
    supervisor.set_ms(0)
    board.release_all()
    digitalio.DigitalInOut.claimed.clear()
    busio.last_bus = None
    yield
    displayio.release_displays()
