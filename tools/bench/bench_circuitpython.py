"""CircuitPython display benchmark: the frame hand-over of the CircuitPython
port next to the MicroPython port's, on the host.

The frames are the game's own (title, play screen, cursor moves on the play
screen, from the simulator). For each scenario:

- CircuitPython port: cpports.DisplayPort.show() = bitmaptools.readinto of
  the 1 KB buffer + (narrowed: compare with the shadow, blit the changed
  columns) + display.refresh() through the real adafruit_displayio_ssd1306
  driver on Blinka's displayio, onto a counting fake I2C bus. Both the
  default narrowed port and the plain seam (the whole bitmap shown, a full
  frame per refresh).
- MicroPython port: firmware/display/ssd1306.py SSD1306.show() on the MicroPython
  unix port with tools/fakebus.CountingBus (as tools/bench/bench_display.py).

Times are the host's (Blinka is pure Python, so its refresh is far slower
than CircuitPython's C displayio, while the unix port is the MicroPython
bytecode the Pico runs): read them as relative. The bus bytes are what the
device sends; the I2C time at 400 kHz is estimated from them (9 clocks a
byte, about two byte-times of start/stop per write).

    .venv/bin/python -m tools.bench.bench_circuitpython
"""

import io
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.kit import cpenv  # noqa: E402

cpenv.install()   # the fakes before Blinka's board, busio, microcontroller...
CPDIR = cpenv.CPDIR

I2C_HZ = 400000
REPEAT = 20


def i2c_ms(nbytes, writes):
    return (nbytes + 2 * writes) * 9 * 1000.0 / I2C_HZ


def game_frames():
    """{scenario: [frames]}: real screens from the simulator."""
    from tools.sim.simulator import Sim

    sim = Sim(seed=1, settings={"speed": "fast"})
    sim.settle()
    title = bytes(sim.app.canvas.buf)
    sim.press("A")
    play = bytes(sim.app.canvas.buf)
    moves = []
    for k in ("R", "L", "L", "L", "R", "R"):
        sim.press(k)
        moves.append(bytes(sim.app.canvas.buf))
    return {
        "full screen change (title <-> play)": [title, play],
        "cursor move on the play screen": moves,
        "unchanged frame": [play],
    }


def load_cpports():
    import importlib.util

    spec = importlib.util.spec_from_file_location("cpports", os.path.join(CPDIR, "cpports.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules["cpports"] = mod
    spec.loader.exec_module(mod)
    return mod


class Counter:
    """A device that keeps nothing (the bus counts)."""

    def write(self, data):
        pass


def bench_circuitpython(frames, narrow):
    import busio
    import displayio

    cpports = load_cpports()
    stop = getattr(displayio, "_stop_background", None)
    if stop is not None:
        stop()
    i2c = busio.I2C(devices={0x3C: Counter()})
    d, _ = cpports.open_display(i2c, narrow=narrow, out=lambda s: None)
    out = {}
    for name, fr in frames.items():
        d.show(fr[-1])
        i2c.reset_counts()
        n = 0
        t0 = time.perf_counter()
        for r in range(REPEAT):
            for f in fr:
                d.show(f)
                n += 1
        dt = time.perf_counter() - t0
        out[name] = (dt * 1000.0 / n, i2c.bytes / n, i2c.writes / n)
    displayio.release_displays()
    return out


def readinto_ms(frames):
    import bitmaptools
    import displayio

    bmp = displayio.Bitmap(8, 1024, 2)
    f = next(iter(frames.values()))[0]
    st = io.BytesIO(f)
    t0 = time.perf_counter()
    for _ in range(REPEAT):
        st.seek(0)
        bitmaptools.readinto(bmp, st, 1)
    return (time.perf_counter() - t0) * 1000.0 / REPEAT


MP_SCRIPT = r'''
import sys
sys.path.insert(0, %(root)r)
from time import ticks_us, ticks_diff
from firmware.display.ssd1306 import SSD1306
from tools.sim.fakebus import CountingBus
frames = {}
order = []
for line in open(%(path)r):
    name, hexes = line.rstrip("\n").split("\t")
    frames.setdefault(name, []).append(bytearray(bytes.fromhex(hexes)))
    if name not in order:
        order.append(name)
bus = CountingBus()
d = SSD1306(bus)
for name in order:
    fr = frames[name]
    d.show(fr[-1])
    bus.bytes = 0
    bus.transactions = 0
    n = 0
    t0 = ticks_us()
    for r in range(%(repeat)d):
        for f in fr:
            d.show(f)
            n += 1
    us = ticks_diff(ticks_us(), t0)
    print("%%s\t%%f\t%%f\t%%f" %% (name, us / 1000 / n, bus.bytes / n, bus.transactions / n))
'''


def micropython_path():
    cand = os.path.join(os.path.dirname(sys.executable), "micropython")
    return cand if os.path.exists(cand) else shutil.which("micropython")


def bench_micropython(frames):
    mp = micropython_path()
    if mp is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        for name, fr in frames.items():
            for b in fr:
                f.write("%s\t%s\n" % (name, b.hex()))
        path = f.name
    try:
        script = MP_SCRIPT % {"root": ROOT, "path": path, "repeat": REPEAT}
        r = subprocess.run([mp, "-c", script], capture_output=True, text=True, cwd=ROOT)
    finally:
        os.remove(path)
    if r.returncode:
        print(r.stdout, r.stderr)
        raise SystemExit("micropython run failed")
    out = {}
    for line in r.stdout.splitlines():
        name, ms, nb, wr = line.split("\t")
        out[name] = (float(ms), float(nb), float(wr))
    return out


def main():
    frames = game_frames()
    cols = [("CircuitPython port (narrowed), Blinka", bench_circuitpython(frames, True)),
            ("CircuitPython plain seam (full frames), Blinka", bench_circuitpython(frames, False))]
    mp = bench_micropython(frames)
    mp_name = "MicroPython port ssd1306.show(), unix port"
    if mp is None:
        print("MicroPython unix port not found; its column is left out")
    else:
        cols.append((mp_name, mp))
    print("bitmaptools.readinto of one 1 KB frame into the 8x1024 bitmap (Blinka): %.3f ms"
          % readinto_ms(frames))
    print()
    print("Frame hand-over per frame, on this host (%s); bus bytes include address bytes;"
          % sys.platform)
    print("I2C time estimated at 400 kHz. Host times are relative: Blinka is pure Python,")
    print("CircuitPython's displayio is C; the unix port runs the bytecode the Pico runs.")
    for name in frames:
        print()
        print("== %s" % name)
        for label, res in cols:
            ms, nb, wr = res[name]
            print("  %-48s %8.3f ms   %6.0f bytes in %4.1f writes   I2C ~%5.1f ms"
                  % (label, ms, nb, wr, i2c_ms(nb, wr)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
