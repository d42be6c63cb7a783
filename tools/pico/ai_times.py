"""AI decision times inside the real App on an emulated Pico.

    .venv/bin/python -m tools.pico.ai_times [--levels easy,normal,hard]
        [--matches 5] [--seed 1] [--human easy] [--slow-ms 400] [--squeeze KB]
        [--last-target POINTS]
        [--root DIR | --frozen [UF2]] [--firmware F.uf2 --bootrom FILE]

For each level the board boots afresh (stock MicroPython with the .mpy
bundle of --root, or the frozen build) and plays --matches whole matches in
the real App with its real ports: the display on I2C, the button sampler,
saves in /data. The human seat is a bot (engine.ai Player at --human)
pressing the buttons through the debounce (tools/pico/onboard/aibench.py).
Each AI decision is timed on the device with time.ticks_us() around
Player.choose() in the play screen (with the App's slices, Player.begin,
step and result: begin(), and a line for the whole think: begin(), every
step, the total a move). Prints per level: decisions, median,
p99, max (ms), the minimum gc.mem_free() before a decision and after a
collection (at hand ends), how many decisions a collection ran inside
(the slowest with and without one), the decisions the AI had to make again
without the heap lock, the button samples lost, the C stack in use when the
AI is asked, and the positions slower than --slow-ms as
`save HEX` lines (engine.loads(bytes.fromhex(HEX)); the AI to move is
m.to_move). --squeeze KB plays with KB of the heap taken and cut up before
the game starts (a stress of the game's memory). Emulated time: rp2040js
runs flash at zero wait states, a real Pico (XIP cache misses) is 10-40%
slower.
"""

import argparse
import sys
import time

from tools.pico import session


def percentile(xs, q):
    """The q-quantile of xs (nearest rank)."""
    s = sorted(xs)
    if not s:
        return 0
    k = max(0, min(len(s) - 1, int(round(q * len(s) + 0.5)) - 1))
    return s[k]


def parse(out):
    """{'ai': [(level, us, free)], 'gc': [free], 'slow': [...], 'free': n,
    'matches': [(s0, s1)]} from the board's @ lines."""
    r = {"ai": [], "gc": [], "slow": [], "free": None, "matches": [], "harness": 0,
         "lost": (0, 0), "slices": [], "reviewed": [], "lat": {"hand": [], "end": []}}
    for line in out.splitlines():
        f = line.split()
        if not f or not f[0].startswith("@"):
            continue
        if f[0] == "@ai":
            r["ai"].append((f[1], int(f[2]), int(f[3]), int(f[4]) if len(f) > 4 else 0,
                            int(f[5]) if len(f) > 5 else 0))
        elif f[0] == "@slices":
            r["slices"].append(tuple(int(x) for x in f[2:6]))
        elif f[0] == "@gc":
            r["gc"].append(int(f[1]))
        elif f[0] == "@slow":
            r["slow"].append((f[1], int(f[2]), int(f[3]), f[4]))
        elif f[0] == "@free":
            r["free"] = int(f[1])
        elif f[0] == "@lost":
            r["lost"] = (int(f[1]), int(f[2]))
        elif f[0] == "@harness":
            r["harness"] = int(f[1])
        elif f[0] == "@lat":
            r["lat"][f[1]].append(int(f[2]))
        elif f[0] == "@match":
            r["matches"].append((int(f[2]), int(f[3])))
        elif f[0] == "@reviewed":
            r["reviewed"].append((int(f[1]), int(f[2])))
    return r


# The bench's own heap (aibench's code and state, not the game's): the
# modules the game imports anyway first, then aibench alone.
HARNESS = ("import gc\nimport firmware.pico.pico\ngc.collect()\n_f0 = gc.mem_free()\n"
           "import aibench\ngc.collect()\nprint('@harness %d' % (_f0 - gc.mem_free()))\n")


def squeeze(kb):
    """Bench code that takes `kb` KB of the heap before the game starts, in
    496-byte pieces, and cuts it up with 20 holes of 80 bytes: the game
    played with less room than it has, as a stress of its memory (the holes
    take small allocations; no 1148-byte file block fits in one)."""
    if kb <= 0:
        return ""
    return ("_sq = [bytearray(496) for i in range(%d)]\n"
            "_sqh = [bytearray(80) for i in range(40)]\n"
            "for i in range(0, 40, 2):\n    _sqh[i] = None\n" % max(0, (kb * 1024 - 1600) // 512))


def run_level(a, level, progress=None):
    """Play a.matches matches at `level` on a fresh board; parse() of its lines."""
    with session.repl_board(a, onboard=("aibench",)) as p:
        code = HARNESS + squeeze(a.squeeze) + (
            "aibench.main(%r, matches=%d, seed=%d, human=%r, slow_us=%d, last_target=%d, "
            "entropy=%r)\n" % (level, a.matches, a.seed, a.human, a.slow_ms * 1000,
                               a.last_target, getattr(a, "entropy", False)))
        out, err = p.exec(code, timeout_ms=a.matches * 3600000, progress=progress)
        if "@done" not in out:
            raise SystemExit("the board stopped before the matches ended:\n%s%s"
                             % (out[-3000:], err))
        r = parse(out)
        r["emulated_s"] = p.t / 1e9
        r["host_s"] = p.host_ms / 1000.0
        r["frames"] = len(p.frames)
        r["frame_ms"] = sum(f.t1 - f.t0 for f in p.frames) / 1e6
        return r


def summary_line(level, r):
    us = [x[1] for x in r["ai"]]
    free = [x[2] for x in r["ai"]]
    return ("%-6s %3d matches %5d decisions  median %7.1f  p99 %7.1f  max %7.1f ms | "
            "mem_free min %6d, after collection min %6d" % (
                level, len(r["matches"]), len(us), percentile(us, 0.5) / 1000.0,
                percentile(us, 0.99) / 1000.0, max(us or [0]) / 1000.0,
                min(free or [0]), min(r["gc"] or [0])))


def slices_line(r):
    """The decisions in slices (the App's Player.begin, step, result): the
    first part, the slowest step, the whole think a move (ms, emulated)."""
    d = r["slices"]
    if not d:
        return None
    fast = [x[0] for x in d]
    total = [x[1] for x in d]
    return ("in slices: %d decisions | begin() median %.1f max %.1f ms | "
            "slowest step %.1f ms (%d steps at most) | think a move median %.1f p99 %.1f "
            "max %.1f ms" % (
                len(d), percentile(fast, 0.5) / 1000.0, max(fast) / 1000.0,
                max(x[3] for x in d) / 1000.0, max(x[2] for x in d),
                percentile(total, 0.5) / 1000.0, percentile(total, 0.99) / 1000.0,
                max(total) / 1000.0))


def gc_line(r):
    """The decisions a garbage collection ran inside (the free heap rose
    across the decision: the game's own allocations filled the heap), the
    slowest decision with and without one, the decisions made again without
    the heap lock, the button samples lost and the most C stack in use when
    the AI was asked."""
    with_gc = [x[1] for x in r["ai"] if x[3] > x[2]]
    rest = [x[1] for x in r["ai"] if x[3] <= x[2]]
    return ("a collection inside %d of %d decisions (max %.1f ms); without one: max %.1f ms; "
            "%d made again without the heap lock; %d button samples lost; C stack in use "
            "when asked: max %d B (the Pico's limit 7936 B)" % (
                len(with_gc), len(r["ai"]), max(with_gc or [0]) / 1000.0,
                max(rest or [0]) / 1000.0, r["lost"][0], r["lost"][1],
                max([x[4] for x in r["ai"]] or [0])))


def heap_line(r):
    """The game's own free heap with a match in progress: the minimum before
    a decision and after a collection, with the bench's heap added back."""
    free = [x[2] for x in r["ai"]]
    hb = r["harness"]
    return ("free heap with a match in progress (the game alone): min %d B (%.0f KB) before a "
            "decision, %d B (%.0f KB) after a collection [the bench's own %d B added back]" % (
                min(free or [0]) + hb, (min(free or [0]) + hb) / 1024.0,
                min(r["gc"] or [0]) + hb, (min(r["gc"] or [0]) + hb) / 1024.0, hb))


def lat_line(r):
    """A hand's start (A on a hand result, from its release, to the end of
    the next hand's first frame) and the match end (the last hand's A to
    the match end's first frame), in emulated ms."""
    h = r["lat"]["hand"]
    e = r["lat"]["end"]
    return ("a hand's start: median %.1f, max %.1f ms (n=%d); the match end: median %.1f, "
            "max %.1f ms (n=%d) [A's release to the end of the first frame]" % (
                percentile(h, 0.5) / 1000.0, max(h or [0]) / 1000.0, len(h),
                percentile(e, 0.5) / 1000.0, max(e or [0]) / 1000.0, len(e)))


def hands_line(r):
    """The free heap after a collection at each hand's end (@gc lines, the
    bench's own heap still in it): how many, least, median, the last."""
    g = r["gc"]
    if not g:
        return "no hand ended"
    rv = r["reviewed"]
    return ("after a collection at each hand's end: %d hands, min %d B, median %d B, "
            "last %d B (the bench's own %d B still in the heap); hands reviewed by each "
            "match's end: %d of %d" % (
                len(g), min(g), percentile(g, 0.5), g[-1], r["harness"],
                sum(x[0] for x in rv), sum(x[1] for x in rv)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    session.add_arguments(ap)
    ap.add_argument("--levels", default="easy,normal,hard")
    ap.add_argument("--matches", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--human", default="easy", help="level of the bot in the human seat, or "
                    "greedy: a bot that takes no heap (the game's own free heap)")
    ap.add_argument("--slow-ms", type=int, default=400, help="print positions slower than this")
    ap.add_argument("--verbose", action="store_true", help="echo the board's console")
    ap.add_argument("--last-target", type=int, default=0, metavar="POINTS",
                    help="the last match plays to POINTS (50-500; the others to the settings' 100)")
    ap.add_argument("--squeeze", type=int, default=0, metavar="KB",
                    help="take KB of the heap, cut up, before the game starts (a memory stress)")
    a = ap.parse_args(argv)
    session.check(a)
    print("AI decisions in the real App on an emulated Pico (%s), %d matches per level, "
          "human seat: %s bot, seed %d%s" % (session.label(a), a.matches, a.human, a.seed,
                                              ", %d KB of the heap squeezed out" % a.squeeze
                                              if a.squeeze else ""))
    print("(emulated time; rp2040js runs flash at zero wait states: a real Pico is "
          "10-40% slower)")
    slow = []
    for level in a.levels.split(","):
        t0 = time.time()
        r = run_level(a, level, session.echo if a.verbose else None)
        print(summary_line(level, r) + "  [%.0f s emulated, %.0f s host, %d frames]" % (
            r["emulated_s"], time.time() - t0, r["frames"]))
        if slices_line(r):
            print("       " + slices_line(r))
        print("       " + gc_line(r))
        if a.human == "greedy":
            print("       " + heap_line(r))
        print("       " + hands_line(r))
        print("       " + lat_line(r))
        sys.stdout.flush()
        slow += r["slow"]
    if slow:
        print("decisions slower than %d ms (engine.loads(bytes.fromhex(HEX)); the AI is "
              "m.to_move; Player(level, seed)):" % a.slow_ms)
        for level, us, seed, hx in sorted(slow, key=lambda x: -x[1]):
            print("%7.1f ms %s seed %d save %s" % (us / 1000.0, level, seed, hx))
    return 0


if __name__ == "__main__":
    sys.exit(main())
