"""A Pico made of fakes, for runs of many starts on the MicroPython unix
port: firmware/main.py as the board runs it, with the fake `machine` and
`rp2` (host_tests/firmware/kit/fakes), the emulated clock (host_tests/firmware/kit/
vclock: seconds of the board's time pass in a fraction of a second, the
sampler's timer firing on the way), a display emulator on the I2C pins it
is wired to, and the settings file and the saves in a folder of the host.

    micropython fakepico.py CASES.json WORKDIR

runs each case of the JSON list and prints one line per case,
"@@ " + JSON: {"name", "boots" (main.py runs), "screen" (the App's at the
end), "picture" (the display shows the App's frame), "lit" (its lit
pixels), "files" (the case's folder), "said" (the main console lines),
"errors"}. A case (host_tests/firmware/pico/test_recovery_campaign.py makes
them):

    name      a label
    file      the text of /board.json, or null for none
    display   [i2c id, sda, scl] the display is wired to, or null
    high, low GPIOs held high (a pull-up: the display's lines, a powered
              link cable's RX) or low (a cable to a board that is off)
    buttons   the six GPIOs the physical buttons (to GND) are wired to
    bootsel   [[from ms, to ms], ...] BOOTSEL held
    press     [[gpio, from ms, to ms], ...] a physical button held
    end       ms: Ctrl-C then (the run's end)
    keep      true: the case before's folder as it left it (the same
              board powered on again; `file`, when given, written over)
    all_said  true: every console line in "said", not only the main ones

A soft reset (machine.soft_reset) runs main.py again, the clock, the
chip's registers (mem32) and the wiring kept; a new case is a power-on.
Nothing is let go between starts (firmware.compat.unload does nothing
here): each start would compile the cold modules' source again, and the
settings loader's PATH, set to the case's folder, stays.
"""

import os
import sys

HERE = sys.argv[0].rsplit("/", 1)[0]
if not HERE.startswith("/"):
    HERE = os.getcwd() + "/" + HERE
ROOT = HERE.rsplit("/", 3)[0]
sys.path[:0] = [HERE + "/vclock", HERE + "/fakes", ROOT]

import builtins  # noqa: E402
import json  # noqa: E402

import time  # noqa: E402  (host_tests/firmware/kit/vclock)
import machine  # noqa: E402
import rp2  # noqa: E402

REAL_PRINT = print
SAID = []
builtins.print = lambda *a, **k: SAID.append(" ".join(str(x) for x in a))

from firmware import compat  # noqa: E402

_unload = compat.unload


def keep_loaded(name):
    return False


compat.unload = keep_loaded

from tools.sim.fakebus import FakeBus  # noqa: E402
import firmware.board.boardcfg as boardcfg  # noqa: E402
from firmware.pico import pico  # noqa: E402

MAIN = open(ROOT + "/firmware/main.py").read()
APPS = []
_run = pico.run


def run(**kw):
    app = _run(**kw)
    APPS.append(app)
    return app


pico.run = run


def rmtree(d):
    for n in os.listdir(d):
        p = d + "/" + n
        if os.stat(p)[0] & 0x4000:
            rmtree(p)
            os.rmdir(p)
        else:
            os.remove(p)



def stop():
    raise KeyboardInterrupt


def setter(levels, gpio, v):
    def f():
        if v is None:
            levels.pop(gpio, None)
        else:
            levels[gpio] = v
    return f


def bootsel(v):
    def f():
        rp2.BOOTSEL[0] = v
    return f


def one(case, work):
    d = work + "/case"
    try:
        if not case.get("keep"):
            rmtree(d)
    except OSError:
        try:
            os.mkdir(d)
        except OSError:
            pass
    boardcfg.PATH = d + "/board.json"
    pico.DATA_DIR = d + "/data"
    if case.get("file") is not None:
        with open(boardcfg.PATH, "w") as f:
            f.write(case["file"])
    emu = None
    buses = {}
    if case.get("display"):
        bus, emu = FakeBus.with_display(0x3C)
        buses[tuple(case["display"])] = bus
    machine.setup(bus=FakeBus.empty(), buses=buses, high=case.get("high", ()),
                  low=case.get("low", ()))
    machine.mem32.words.clear()
    rp2.BOOTSEL[0] = 0
    time.reset()
    for t0, t1 in case.get("bootsel", ()):
        time.at(t0, bootsel(1))
        time.at(t1, bootsel(0))
    for g, t0, t1 in case.get("press", ()):
        time.at(t0, setter(machine.LEVELS, g, 0))
        time.at(t1, setter(machine.LEVELS, g, None))
    time.at(case.get("end", 8000), stop)
    del SAID[:]
    del APPS[:]
    boots = 0
    errors = []
    while boots < 6:
        boots += 1
        del machine.TIMERS[:]            # a soft reset stops the soft timers
        try:
            exec(MAIN, {"__name__": "__main__"})
            break
        except SystemExit:
            continue                     # machine.soft_reset(): main.py again
        except Exception as e:           # main.py must never let one out
            errors.append(repr(e))
            break
    app = APPS[-1] if APPS else None
    picture = lit = None
    if emu is not None:
        lit = sum(bin(b).count("1") for b in emu.image()) if emu.display_on else 0
        if app is not None:
            picture = bool(emu.display_on and bytes(emu.image()) == bytes(app.canvas.buf))
    said = SAID[:] if case.get("all_said") else [
        s for s in SAID if s.startswith(("Recovery start", "Safe boot", "Stopped",
                                         "The game stopped", "BOOTSEL held"))]
    errors += [s for s in SAID if "error" in s and "stopped" in s]
    return {"name": case.get("name"), "boots": boots,
            "screen": app.screen_name if app is not None else None,
            "picture": picture, "lit": lit, "files": sorted(os.listdir(d)), "said": said,
            "errors": errors}


def main():
    cases = json.load(open(sys.argv[1]))
    work = sys.argv[2]
    for case in cases:
        try:
            r = one(case, work)
        except BaseException as e:       # the harness's own failure: reported, go on
            r = {"name": case.get("name"), "errors": ["harness: " + repr(e)]}
        REAL_PRINT("@@ " + json.dumps(r))


main()
