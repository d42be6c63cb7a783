"""UI benchmark: the play screen's redraw time and allocation, the I2C bytes
of a cursor move and of a whole turn, and the firmware bundle's import time.

Runs the real app (firmware.app.App with the device AI) on the MicroPython
unix port, the closest thing to the Pico on a host (a 125 MHz Cortex-M0+ is
several times slower: compare builds with these numbers, do not read them
as device timings), with a fake clock, fake buttons pressed through the
real debounce logic, and the real SSD1306 driver on a counting I2C bus.
Bus bytes count everything on the wire: address, control, command and data
bytes.

    .venv/bin/python -m tools.bench.bench_ui

Targets (issue 4): play-screen redraw <= 0.2 ms and allocation-free under
micropython.heap_lock(); a cursor move <= 256 bytes on the bus.
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The scenario: shared with host_tests/ui/test_ui_micropython.py. Defines
# rig() -> (app, press, run) and the play states that are checked.
SCENARIO = r'''
import gc
try:
    import micropython
    from time import ticks_us, ticks_diff
except ImportError:
    micropython = None
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

from firmware import buttons as btn
from firmware.buttons import Buttons
from firmware.display.ssd1306 import SSD1306
from tools.kit.memstorage import MemStorage
from tools.sim.fakebus import CountingBus


class Rig:
    def __init__(self, seed=3, level="normal", link_port=None):
        from firmware.app import App
        from firmware.ports import Ports
        self.t = 1000
        self.mask = 0
        self.bus = CountingBus()
        self.display = SSD1306(self.bus)
        self.buttons = Buttons(self.read)
        st = MemStorage()
        st.save("settings", b"level=%s\nspeed=fast\n" % level.encode())
        self.app = App(Ports(self.display, self.buttons, self.clock, st, seed=seed,
                             link_port=link_port))
        self.app.start()
        self.app.step()

    def read(self):
        return self.mask

    def clock(self):
        return self.t

    def run(self, ms):
        end = self.t + ms
        while self.t < end:
            w = self.app.step()
            if w > 5:
                w = 5
            if w < 1:
                w = 1
            self.t += w

    def press(self, bit, hold=40):
        b0 = self.bus.bytes
        self.mask = bit
        self.run(hold)
        self.mask = 0
        self.run(20)
        return self.bus.bytes - b0

    def settle(self):
        """Step until the app waits for input."""
        for i in range(100000):
            w = self.app.step()
            if w > 5000:
                return
            self.t += w if w > 0 else 1


def locked(fn):
    """1 if fn() ran without allocating (heap_lock), 0 if it allocated,
    -1 where heap_lock does not exist (CPython)."""
    if micropython is None:
        fn()
        return -1
    gc.collect()
    micropython.heap_lock()
    try:
        fn()
        ok = 1
    except MemoryError:
        ok = 0
    micropython.heap_unlock()
    return ok


def play_states(r):
    """Yield (name, play screen) through the states the play screen shows."""
    app = r.app
    r.press(btn.A)                    # title: NEW MATCH
    play = app.screen
    yield "your draw", play
    r.press(btn.RIGHT)
    yield "pile chosen", play
    r.press(btn.LEFT)
    r.press(btn.A)                    # draw from the stock
    yield "your discard, 11 cards", play
    r.press(btn.RIGHT)
    yield "cursor moved", play
    r.press(btn.UP)                   # knock refused: the reason
    yield "message", play
    r.press(btn.A)
    r.press(btn.B)
    yield "menu", play
    r.press(btn.DOWN)
    r.press(btn.DOWN)
    r.press(btn.A)
    yield "discard pile", play
    r.press(btn.B)
    play.overlay = 2                  # the knock confirmation box
    play.confirm_card = play.row.cards[0]
    play.confirm_dw = 7
    yield "knock confirmation", play
    play.overlay = 0
    r.mask = btn.A                    # discard; the AI's turn begins
    r.run(40)
    r.mask = 0
    r.run(20)
    yield "cpu thinking", play
    r.run(420)
    yield "cpu drew", play
    r.settle()
    yield "cpu discarded, your draw", play
'''

BENCH = r'''
def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def bench():
    r = Rig()
    c = r.app.canvas
    print("play screen redraw (draw into the framebuffer):")
    ok_all = 1
    worst = 0
    for name, play in play_states(r):
        play.draw(c)
        ok = locked(lambda: play.draw(c))
        if ok == 0:
            ok_all = 0
        ts = []
        for i in range(101):
            t0 = ticks_us()
            play.draw(c)
            ts.append(ticks_diff(ticks_us(), t0))
        m = median(ts)
        if m > worst:
            worst = m
        print("  %-28s median %6.1f us  %s" % (
            name, m, {1: "allocation-free", 0: "ALLOCATES", -1: ""}[ok]))
    print("  worst median %.3f ms (target <= 0.2 ms); heap_lock: %s" % (
        worst / 1000.0, {1: "no allocation in any state", 0: "ALLOCATION FOUND", -1: "n/a"}[
            ok_all if micropython else -1]))

    r = Rig()
    r.press(btn.A)
    r.press(btn.A)                    # your discard: 11 cards
    play = r.app.screen
    play.cur = 4
    play.dirty = True
    r.run(20)
    moves = []
    for i in range(4):
        moves.append(r.press(btn.RIGHT))
    play.cur = play.row.n - 1
    play.dirty = True
    r.run(20)
    wrap = r.press(btn.RIGHT)
    print("I2C bytes for a cursor move: %d (next card; target <= 256), "
          "%d (wrapping from the last card to the first)" % (max(moves), wrap))

    # A whole turn: your draw and discard, the AI's draw and discard.
    r.settle()
    b0 = r.bus.bytes
    f0 = r.app.frames
    r.press(btn.A)                    # draw from the stock
    r.press(btn.A)                    # discard the card drawn
    r.settle()
    print("I2C bytes for a full turn (both players): %d in %d frames" % (
        r.bus.bytes - b0, r.app.frames - f0))

    # Is a whole step (input, cursor move, redraw, driver) allocation-free?
    r.press(btn.A)                    # draw: the cursor is in the hand
    play.cur = 0
    r.mask = btn.RIGHT
    r.app.step()                      # the reading changes...
    r.t += 6                          # ...and is steady past the debounce
    f0 = r.app.frames
    def one_step():
        r.app.step()
    ok = locked(one_step)
    r.mask = 0
    r.run(30)
    if micropython:
        print("app.step() with a cursor move, redraw and show: %s" % (
            "allocation-free" if ok == 1 and play.cur == 1 and r.app.frames == f0 + 1
            else "allocates (or did not move)"))


    # Memory: everything loaded, a match in play (the Pico budget is 64 KB;
    # this 64-bit port's objects are about twice the RP2040's size).
    if micropython:
        r = None
        gc.collect()
        base = gc.mem_alloc()
        r = Rig()
        r.press(btn.A)
        r.press(btn.A)
        gc.collect()
        print("heap held by the app with a match in play: %d bytes "
              "(64-bit port; code loaded before: %d bytes)" % (gc.mem_alloc() - base, base))


bench()
'''

IMPORT_SCRIPT = r'''
import sys, time
sys.path.insert(0, %(root)r)
t0 = time.ticks_us()
import firmware.app
for m in ("title", "play", "showdown", "result", "match_end", "settings",
          "stats", "help", "message"):
    __import__("firmware.screens." + m)
import engine.ai
print(time.ticks_diff(time.ticks_us(), t0))
'''


def micropython_path():
    cand = os.path.join(os.path.dirname(sys.executable), "micropython")
    return cand if os.path.exists(cand) else shutil.which("micropython")


def run_mp(script, cwd=ROOT):
    mp = micropython_path()
    fd, path = tempfile.mkstemp(suffix=".py")
    with os.fdopen(fd, "w") as f:
        f.write(script)
    try:
        r = subprocess.run([mp, "-X", "heapsize=4M", path], capture_output=True,
                           text=True, cwd=cwd, timeout=600)
    finally:
        os.unlink(path)
    if r.returncode:
        raise SystemExit("micropython failed:\n%s%s" % (r.stdout, r.stderr))
    return r.stdout


def import_times(runs=5):
    """Median import time (ms) of the app, its screens and the engine in a
    fresh interpreter: from .py sources and from the .mpy bundle."""
    out = {}
    srcs = []
    for _ in range(runs):
        srcs.append(int(run_mp(IMPORT_SCRIPT % {"root": ROOT}).split()[-1]))
    out["sources"] = sorted(srcs)[runs // 2] / 1000.0
    try:
        from tools.deploy import deploy
    except Exception:
        return out
    tmp = tempfile.mkdtemp(prefix="bundle_")
    try:
        deploy.build(tmp, quiet=True)
        ts = []
        for _ in range(runs):
            ts.append(int(run_mp(IMPORT_SCRIPT % {"root": tmp}, cwd=tmp).split()[-1]))
        out["mpy"] = sorted(ts)[runs // 2] / 1000.0
    except (Exception, SystemExit) as e:
        out["mpy_error"] = str(e).splitlines()[0]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def main():
    mp = micropython_path()
    if mp is None:
        print("MicroPython unix port not found (.venv/bin/micropython); nothing to measure")
        return 1
    print("== MicroPython unix port (%s)" % mp)
    prologue = "import sys\nsys.path.insert(0, %r)\n" % ROOT
    print(run_mp(prologue + SCENARIO + BENCH).rstrip())
    t = import_times()
    line = "import time of the firmware bundle (app, screens, engine, AI): %.1f ms from .py" % t["sources"]
    if "mpy" in t:
        line += ", %.1f ms from .mpy (what make flash copies)" % t["mpy"]
    elif "mpy_error" in t:
        line += " (.mpy bundle not built: %s)" % t["mpy_error"]
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
