"""Display benchmark: driver show() time and bus bytes, glyph blit time.

Runs the firmware code on the MicroPython unix port (the closest thing to
the device on a host; a 125 MHz RP2040 is many times slower, so read the
times as relative) and on CPython (the simulator). The bus is a counting
fake, so the times are the driver's own work; the I2C time at 400 kHz is
estimated from the bytes and writes counted (9 clocks a byte, about two
byte-times of start/stop per write).

    .venv/bin/python -m tools.bench.bench_display
"""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BENCH = r'''
import gc
try:
    from time import ticks_us, ticks_diff
except ImportError:
    from time import perf_counter
    def ticks_us():
        return int(perf_counter() * 1000000)
    def ticks_diff(a, b):
        return a - b

gc.collect()
try:
    m0 = gc.mem_alloc()
except AttributeError:
    m0 = 0
from firmware.display import fb, glyphs
gc.collect()
try:
    m1 = gc.mem_alloc()
except AttributeError:
    m1 = 0
from firmware.display.ssd1306 import SH1106, SSD1306
from tools.sim.fakebus import CountingBus

def report(name, us, n, extra=""):
    print("%-40s %8.1f us%s" % (name, us / n, extra))

def on_bus(nbytes, ntrans):
    # bytes incl. address; I2C time at 400 kHz: 9 clocks a byte plus about
    # two byte-times of start/stop per transaction
    return "  %5d bytes %2d writes  I2C ~%5.2f ms" % (
        nbytes, ntrans, (nbytes + 2 * ntrans) * 9 / 400.0)

def bench_show(sh1106):
    tag = "sh1106" if sh1106 else "ssd1306"
    bus = CountingBus()
    c = fb.Canvas()
    d = (SH1106 if sh1106 else SSD1306)(bus)
    c.fill(1)
    d.show(c.buf)
    N = 50
    t0 = ticks_us()
    for i in range(N):
        n_full = d.show(c.buf, True)
    us = ticks_diff(ticks_us(), t0)
    tr = bus.transactions
    d.show(c.buf, True)
    report("show full frame [%s]" % tag, us, N, on_bus(n_full, bus.transactions - tr))
    t0 = ticks_us()
    for i in range(N):
        n_none = d.show(c.buf)
    report("show, nothing changed [%s]" % tag, ticks_diff(ticks_us(), t0), N, on_bus(n_none, 0))
    t0 = ticks_us()
    for i in range(N):
        c.invert_rect(40, 16, 8, 8)
        tr = bus.transactions
        n_small = d.show(c.buf)
    us = ticks_diff(ticks_us(), t0)
    report("invert 8x8 + show [%s]" % tag, us, N, on_bus(n_small, bus.transactions - tr))
    t0 = ticks_us()
    for i in range(N):
        c.invert_rect(43, 21, 8, 8)
        tr = bus.transactions
        n_small2 = d.show(c.buf)
    us = ticks_diff(ticks_us(), t0)
    report("invert 8x8 unaligned + show [%s]" % tag, us, N, on_bus(n_small2, bus.transactions - tr))
    # cursor move in a 10-card hand: clear the hand area, redraw, show
    c.fill(0)
    d.show(c.buf)
    sel = 0
    t0 = ticks_us()
    total = 0
    tr = bus.transactions
    for i in range(N):
        c.fill_rect(0, 46, 128, 18, 0)
        sel = (sel + 1) % 10
        for k in range(10):
            glyphs.draw_card(c, k * 5, 2 + k * 10, 49, k == sel)
        total += d.show(c.buf)
    report("cursor move: redraw hand + show [%s]" % tag, ticks_diff(ticks_us(), t0), N,
           on_bus(total // N, (bus.transactions - tr) // N))
    return n_full, n_small, n_small2, total // N

res = {}
for sh in (False, True):
    res[sh] = bench_show(sh)

c = fb.Canvas()
N = 200
t0 = ticks_us()
for i in range(N):
    c.text(b"GIN RUMMY 0123456789", 0, 0)
report("text SMALL, per char", ticks_diff(ticks_us(), t0), N * 20)
t0 = ticks_us()
for i in range(N):
    c.text(b"GIN RUMMY 0123456789", 0, 10, 1, fb.BIG)
report("text BIG, per char", ticks_diff(ticks_us(), t0), N * 20)
t0 = ticks_us()
for i in range(N):
    c.text(b"GIN RUMMY 0123456789", 0, 20, 0, fb.BIG)
report("text BIG colour 0, per char", ticks_diff(ticks_us(), t0), N * 20)
g = glyphs.SUITS[0]
t0 = ticks_us()
for i in range(N):
    c.blit(g, 3, 30, 0)
report("blit one 5x5 suit glyph", ticks_diff(ticks_us(), t0), N)
t0 = ticks_us()
for i in range(N):
    glyphs.draw_card(c, i % 52, 20, 40)
report("draw_card", ticks_diff(ticks_us(), t0), N)
t0 = ticks_us()
for i in range(N):
    c.invert_rect(0, 20, 128, 9)
report("invert_rect 128x9 (menu bar)", ticks_diff(ticks_us(), t0), N)
if m1:
    print("heap after importing fb + glyphs: %d bytes (this port's word size)" % (m1 - m0))
'''


def micropython_path():
    cand = os.path.join(os.path.dirname(sys.executable), "micropython")
    return cand if os.path.exists(cand) else shutil.which("micropython")


def run_micropython():
    mp = micropython_path()
    if mp is None:
        print("MicroPython unix port not found; skipping the device-like run")
        return None
    script = "import sys\nsys.path.insert(0, %r)\n" % ROOT + BENCH
    r = subprocess.run([mp, "-c", script], capture_output=True, text=True, cwd=ROOT)
    if r.returncode:
        print(r.stdout, r.stderr)
        raise SystemExit("micropython run failed")
    return r.stdout


def main():
    print("== MicroPython unix port (%s)" % (micropython_path() or "missing"))
    out = run_micropython()
    if out:
        print(out.rstrip())
    print()
    print("== CPython %s (the simulator's stand-in framebuffer)" % sys.version.split()[0])
    exec(BENCH, {"__name__": "bench"})


if __name__ == "__main__":
    main()
