"""Size of the .mpy bundle that `make flash` copies, and its import time and
heap use on the MicroPython unix port (compared with importing the .py
sources, which the board would have to compile first).

    .venv/bin/python -m tools.bench.bench_boot [--runs N] [--out DIR]

Each figure is the median of N fresh interpreter runs. "boot" is what the
device imports before its first frame (main.py -> firmware.pico.pico -> the app,
the engine, the AI, the title screen); "all" is every module of the bundle.
The heap figure is gc.mem_alloc() after the imports and a gc.collect(): the
RAM the loaded code and its tables hold (on the Pico, .mpy bytecode is
loaded into RAM too). Host figures: the Pico's Cortex-M0+ at 125 MHz is
much slower, so use these to compare builds, not as device timings.
"""

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.deploy import deploy  # noqa: E402

BOOT = [
    "firmware.board.board", "firmware.compat", "firmware.buttons", "firmware.display.ssd1306",
    "firmware.saves.storage", "firmware.pico.pico", "firmware.display.fb", "firmware.display.font",
    "firmware.display.glyphs", "firmware.settings", "firmware.app", "engine", "engine.ai",
    "firmware.screens.title",
]

# A do-nothing machine module so firmware.pico.pico imports on the unix port.
MACHINE_STUB = """
class Pin:
    IN = 0
    PULL_UP = 1
    PULL_DOWN = 2
    def __init__(self, *a, **k): pass
    def value(self, v=None): return 1
class I2C:
    def __init__(self, *a, **k): pass
    def scan(self): return []
class Timer:
    PERIODIC = 1
    def __init__(self, *a, **k): pass
    def init(self, **k): pass
    def deinit(self): pass
"""

SCRIPT = """
import sys, os, gc, time
os.chdir(%(where)r)
del sys.path[:]
sys.path.append("")
sys.path.append(%(stub)r)
import machine
names = %(names)r
gc.collect()
base = gc.mem_alloc()
t0 = time.ticks_us()
for n in names:
    __import__(n)
t1 = time.ticks_us()
gc.collect()
print(time.ticks_diff(t1, t0), gc.mem_alloc() - base, len(names))
"""


def micropython():
    for c in (os.path.join(os.path.dirname(sys.executable), "micropython"),
              os.path.join(ROOT, ".venv", "bin", "micropython")):
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    raise SystemExit("MicroPython unix port not found: run `make venv`")


def all_modules(files):
    return sorted(f[:-4].replace("/", ".").replace(".__init__", "")
                  for f in files if f.endswith(".mpy"))


def measure(mp, where, stub, names, runs):
    """(median microseconds, median heap bytes) over `runs` fresh runs."""
    names = [n for n in names if _exists(where, n)]
    times = []
    heaps = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "imp.py")
        with open(path, "w") as f:
            f.write(SCRIPT % {"where": where, "stub": stub, "names": names})
        for _ in range(runs):
            r = subprocess.run([mp, "-X", "heapsize=4M", path], capture_output=True,
                               text=True, timeout=300)
            if r.returncode != 0:
                raise SystemExit("import failed:\n" + r.stdout + r.stderr)
            us, heap, n = (int(x) for x in r.stdout.split())
            times.append(us)
            heaps.append(heap)
    times.sort()
    heaps.sort()
    return times[len(times) // 2], heaps[len(heaps) // 2], len(names)


def measure_wasm(where, stub, names):
    """(microseconds, heap bytes) of one run on the 32-bit WebAssembly port,
    whose object sizes match the RP2040's (None when Node or the port is missing)."""
    names = [n for n in names if _exists(where, n)]
    launcher = os.path.join(ROOT, "tools", "kit", "run_wasm.mjs")
    if not os.path.exists(os.path.join(ROOT, "node_modules", "@micropython")):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "imp.py")
        with open(path, "w") as f:
            f.write(SCRIPT.replace("time.ticks_us()", "time.ticks_ms() * 1000")
                    % {"where": where, "stub": stub, "names": names})
        r = subprocess.run(["node", launcher, "--dirs", where + "," + stub, path],
                           capture_output=True, text=True, timeout=300, cwd=ROOT)
        if r.returncode != 0:
            return None
        us, heap, n = (int(x) for x in r.stdout.split())
        return us, heap


def _exists(where, name):
    p = os.path.join(where, *name.split("."))
    return any(os.path.exists(p + ext) for ext in (".py", ".mpy")) or \
        any(os.path.exists(os.path.join(p, "__init__" + ext)) for ext in (".py", ".mpy"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=deploy.DEFAULT_OUT)
    a = ap.parse_args(argv)
    out = os.path.abspath(a.out)
    files = deploy.build(out, quiet=True)

    sizes = {f: os.path.getsize(os.path.join(out, f)) for f in files}
    total = sum(sizes.values())
    print("bundle %s: %d files, %d bytes" % (os.path.relpath(out, ROOT), len(files), total))
    for pkg in deploy.PACKAGES:
        fs = [f for f in files if f.startswith(pkg + "/")]
        # a module the build writes (engine/build_commit.py) has no source in the tree
        src = sum(os.path.getsize(os.path.join(ROOT, f[:-4] + ".py")) for f in fs
                  if os.path.isfile(os.path.join(ROOT, f[:-4] + ".py")))
        print("  %-9s %6d bytes in %2d .mpy files (sources %6d bytes)"
              % (pkg + "/", sum(sizes[f] for f in fs), len(fs), src))
    print("  main.py   %6d bytes" % sizes["main.py"])
    big = sorted(files, key=lambda f: -sizes[f])[:5]
    print("  largest: " + ", ".join("%s %d" % (f, sizes[f]) for f in big))

    mp = micropython()
    with tempfile.TemporaryDirectory() as stub:
        with open(os.path.join(stub, "machine.py"), "w") as f:
            f.write(MACHINE_STUB)
        print("import on the MicroPython unix port (median of %d fresh runs):" % a.runs)
        for label, names in (("boot", BOOT), ("all", all_modules(files))):
            us_m, heap_m, n = measure(mp, out, stub, names, a.runs)
            us_s, heap_s, _ = measure(mp, ROOT, stub, names, a.runs)
            print("  %-4s %2d modules: .mpy %6.1f ms, heap %6d bytes | .py sources %6.1f ms, "
                  "heap %6d bytes" % (label, n, us_m / 1000.0, heap_m, us_s / 1000.0, heap_s))
        print("heap after the imports on the 32-bit WebAssembly port (object sizes as on "
              "the RP2040):")
        for label, names in (("boot", BOOT), ("all", all_modules(files))):
            got = measure_wasm(out, stub, names)
            if got is None:
                print("  %-4s (WebAssembly port not available: run make test first)" % label)
            else:
                print("  %-4s .mpy bundle: heap %6d bytes" % (label, got[1]))
    print("(host figures: compare builds with them; the Pico itself is much slower)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
