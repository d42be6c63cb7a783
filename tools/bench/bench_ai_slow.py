"""The hard AI's regression set of slow positions, timed on the unix port
and (when the firmware is given) on an emulated Pico.

    .venv/bin/python -m tools.bench.bench_ai_slow [--pico] [--root DIR] [--repeat 3]

tools/ailab/data/ai_slow_positions.txt holds positions that were once the
slowest hard decisions seen in whole matches on the device (each line:
the AI's seed and the match's save, hex). Each is loaded
(engine.loads), and a fresh Player("hard", seed) decides for the player
to move, timed with time.ticks_us() after a collection; the fastest of
--repeat runs is kept on the unix port (the host may preempt it; the
emulated Pico's time does not depend on the host). With --pico (and
PICO_FIRMWARE / PICO_BOOTROM set as for tools/pico/run.py) the same
snippet runs on the emulated board from the .mpy bundle of --root (or,
with --frozen UF2, from the game frozen into that firmware, as a player
runs it: frozen code runs from flash, slower than .mpy in the heap), and
the ratio of the two is printed per position.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tools", "ailab", "data", "ai_slow_positions.txt")

SNIPPET = """
import time, gc, engine
from engine.ai import Player
POS = %r
for i in range(len(POS)):
    seed, h = POS[i]
    best = 0
    for r in range(%d):
        m = engine.loads(bytes.fromhex(h))
        p = Player("hard", seed)
        v = m.view(m.to_move)
        gc.collect()
        t = time.ticks_us()
        a = p.choose(v)
        dt = time.ticks_diff(time.ticks_us(), t)
        if r == 0 or dt < best:
            best = dt
    print("POS", i, a, best)
"""


def positions(path=DATA):
    out = []
    with open(path) as f:
        for line in f:
            m = re.search(r"AI hard seed (\d+).* save ([0-9a-f]+)", line)
            if m:
                out.append((int(m.group(1)) & 0x3FFFFFFF, m.group(2)))
    return out


def parse(text):
    got = {}
    for line in text.splitlines():
        m = re.search(r"POS (\d+) (\S+) (\d+)", line)
        if m:
            got[int(m.group(1))] = (m.group(2), int(m.group(3)))
    return got


def run_unix(root, pos, repeat):
    mp = os.path.join(ROOT, ".venv", "bin", "micropython")
    code = "import sys\nsys.path.insert(0, %r)\n" % root + SNIPPET % (pos, repeat)
    r = subprocess.run([mp, "-X", "heapsize=237000", "-c", code], capture_output=True, text=True)
    if r.returncode:
        sys.exit("unix port failed:\n" + r.stderr)
    return parse(r.stdout)


def run_pico(root, pos, frozen=None):
    where = ["--frozen", frozen] if frozen else ["--root", root]
    r = subprocess.run([sys.executable, "-m", "tools.pico.run"] + where +
                       ["--raw", "-c", SNIPPET % (pos, 1)], cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        sys.exit("emulated Pico failed:\n" + r.stdout + r.stderr)
    return parse(r.stdout)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=ROOT, help="the tree whose engine/ is timed")
    ap.add_argument("--pico", action="store_true", help="also on the emulated Pico")
    ap.add_argument("--frozen", metavar="UF2", help="... with the game frozen into this firmware"
                    " (make uf2) rather than --root's .mpy files in its heap")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--file", default=DATA, help="positions (lines with 'AI hard seed N ... save HEX')")
    a = ap.parse_args(argv)
    pos = positions(a.file)
    ux = run_unix(os.path.abspath(a.root), pos, a.repeat)
    pi = run_pico(os.path.abspath(a.root), pos, a.frozen) if a.pico else {}
    print("hard AI, %d slow positions (%s)" % (len(pos), os.path.relpath(a.file, ROOT)))
    print("%3s %-14s %9s %11s %6s" % ("#", "move", "unix us", "Pico ms", "ratio"))
    us = []
    ms = []
    for i in range(len(pos)):
        act, t = ux.get(i, ("?", 0))
        us.append(t)
        line = "%3d %-14s %9d" % (i, act, t)
        if i in pi:
            pact, pt = pi[i]
            ms.append(pt / 1000)
            line += " %11.1f %6.0f" % (pt / 1000, pt / t if t else 0)
            if pact != act:
                line += "  (Pico chose %s)" % pact
        print(line)
    us.sort()
    print("unix port: median %d us, max %d us" % (us[len(us) // 2], us[-1]))
    if ms:
        ms.sort()
        print("emulated Pico: median %.1f ms, max %.1f ms (flash at zero wait states: a real Pico"
              " is 10-40%% slower)" % (ms[len(ms) // 2], ms[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
