"""Button to the end of its frame, over whole matches on the emulated Pico.

    .venv/bin/python -m tools.pico.latency [--uf2 FILE[=LABEL] ...] [--bundle]
        [--matches 1] [--target 100] [--hands N] [--cache off|on|both]
        [--firmware F.uf2 --bootrom FILE]

Each build boots on a new board (a frozen .uf2, build/gin-rummy-pico.uf2
unless --uf2 names others; --bundle: the .mpy bundle of this tree on the
stock firmware) with the settings of a match to --target against the hard
AI, and the simple player of tools/pico/two_picos.py plays it off the panel
from the title's NEW MATCH to the match's end (--hands N: stop after N
hands): LEFT/RIGHT to choose the stock or the pile and to move along the
hand, A to take, to discard, to knock (after UP) and to go on. For each
press, the time to the end of the first frame that shows something new:

- a direction (LEFT/RIGHT at the table) from the press, A in play (a take,
  a discard, a knock's confirmation) from the release (A acts when
  released), as tools/pico/figures.py measures them;
- by the human's turn within the hand: 1-3, 4-8, 9 and later;
- a press no new frame answers within UNANSWERED_MS counts as unanswered
  (lost); the player presses again after its patience.

With --cache on the flash is read through the model of the XIP cache
(tools/pico/xipcache.mjs), as on a real Pico; off, at zero wait states
(rp2040js); both: each build twice. The bundle's run also reports its
free heap each time the player reads the panel, read from the board's RAM
(the heap's allocation table, found once through the REPL before the
game starts again with a soft reset), so no code of the bench's is on
the board. The player presses REACT_MS after the last frame at the
soonest, and the bundle collects its garbage 50 ms after every move's
frame (its heap is under firmware.pico.pico.GC_LOW_FREE): the figure is the
heap after a collection, or after a cursor move that allocates nothing
since.

Goals (the device's budget): a direction on its frame in <= 20 ms at the
median and <= 40 ms at worst, A in <= 60 ms and <= 120 ms, at every turn:
goals() checks each turn group's median and the whole run's worst;
regressions() compares two builds' medians (more than 10% worse). `make
release` runs both against the previous release (tools/deploy/release.py).
Whole matches take host minutes each: `make bench` runs --quick (two
hands, no cache model), a release the full run.
"""

import argparse
import os
import sys
import time

from tools.pico import harness as h
from tools.pico import two_picos as lp

DIRECTION = "direction"
A = "A"
KINDS = (DIRECTION, A)
GROUPS = ((1, 3, "turn 1-3"), (4, 8, "turn 4-8"), (9, None, "turn 9+"))
UNANSWERED_MS = 1000
REACT_MS = 150        # the player reads the panel this long after its last frame
# (kind): (median at most, worst at most), ms
GOALS = {DIRECTION: (20.0, 40.0), A: (60.0, 120.0)}
WORSE = 0.10          # a median more than this much worse than the previous build's
MIN_COMPARED = 20     # presses a group needs on both sides to be compared
LEVEL = "hard"


class Recorder:
    """The presses of the player (two_picos.Player's on_press), each with
    the human's turn within the hand it belongs to."""

    def __init__(self):
        self.rows = []        # (kind, turn, press ns, release ns, image before the press)
        self.hand = None
        self.turn = 0
        self.drawing = False
        self.before = None    # the panel's image when the player read it

    def hook(self, player, key, kind, lines, t_press, t_release):
        top = lines[0] if lines else ""
        if top.startswith("YOU ") and " HAND " in top:
            hand = top.split(" HAND ", 1)[1].split()[0]
            keys = next((ln for ln in lines if " B MENU" in ln), "")
            drawing = "A TAKE" in keys or "A PASS" in keys
            if hand != self.hand:
                self.hand, self.turn, self.drawing = hand, 0, False
            if drawing and not self.drawing:
                self.turn += 1
            self.drawing = drawing
        if kind == "cursor":
            self.rows.append((DIRECTION, self.turn, t_press, t_release, self.before))
        elif kind == "move":
            self.rows.append((A, self.turn, t_press, t_release, self.before))


class Reading(lp.Player):
    """The simple player, keeping the panel's picture at each reading (the
    frame a press must change), and with `heap` (HeapTable) the free heap
    then, in `free`. It reads the panel REACT_MS after its last frame at
    the soonest, as a player does (and the game collects its garbage in
    such a quiet stretch after a move's frame: firmware.pico.pico.IdleCollect)."""

    def __init__(self, board, recorder, heap=None, **kw):
        super().__init__(board, on_press=recorder.hook, entry="NEW MATCH", **kw)
        self.recorder = recorder
        self.heap = heap
        self.free = []

    def act(self):
        b = self.board
        if b.frames and b.t - b.frames[-1].t1 < REACT_MS * 1e6:
            return None
        self.recorder.before = b.image()
        key = super().act()
        if key is not None and self.heap is not None:
            self.free.append(self.heap.free(self.board))
        return key


MEM_INFO = "import gc, micropython\ngc.collect()\nmicropython.mem_info(1)\n"


class HeapTable:
    """Where MicroPython's heap keeps its allocation table on a board (2
    bits a 16-byte block, 0: free): found at the REPL by matching the
    first blocks of micropython.mem_info(1)'s map against the RAM below
    the pool (the place that agrees best, on nine blocks in ten at least:
    the REPL's own few objects may have come and gone since); free(board)
    counts the free blocks there now."""

    def __init__(self, p):
        import re

        out, err = p.exec(MEM_INFO)
        total = int(re.search(r"GC: total: (\d+)", out).group(1))
        pool = int(re.search(r"GC memory layout; from ([0-9a-f]+)", out).group(1), 16)
        blocks = "".join(re.findall(r"^[0-9a-f]{8}: (\S+)$", out, re.M))[:512]
        want = [0 if c == "." else 1 for c in blocks]     # free, or not
        self.n = total // 64               # table bytes: 4 blocks a byte
        ram = p.peek(SRAM, pool - SRAM)
        best, self.at = 0, None
        for i in range(0, len(ram) - self.n, 4):
            got = _kinds(ram[i:i + len(want) // 4])
            score = sum(1 for a, b in zip(got, want) if (a != 0) == b)
            if score > best:
                best, self.at = score, SRAM + i
        if best * 10 < len(want) * 9:
            raise RuntimeError("the heap's allocation table was not found in RAM")

    def free(self, p):
        table = p.peek(self.at, self.n)
        return 16 * sum(_FREE[b] for b in table)


SRAM = 0x20000000
# free blocks in a table byte (four 2-bit kinds, 0 free)
_FREE = [sum(1 for k in range(4) if not (b >> (2 * k)) & 3) for b in range(256)]


def _kinds(table):
    return [(b >> (2 * k)) & 3 for b in table for k in range(4)]


def answers(board, rows):
    """[(kind, turn, ms or None)]: each press to the end of the first frame
    after it (A: after its release) that differs from the picture before
    it, None when none came within UNANSWERED_MS."""
    import bisect

    starts = [f.t0 for f in board.frames]
    out = []
    for kind, turn, t_press, t_release, before in rows:
        t = t_press if kind == DIRECTION else t_release
        ms = None
        for f in board.frames[bisect.bisect_left(starts, t):]:
            if f.t0 - t > UNANSWERED_MS * 1e6:
                break
            if f.image != before:
                ms = (f.t1 - t) / 1e6
                break
        out.append((kind, turn, ms))
    return out


def play(firmware, bootrom, files, target=100, hands=None, cache=False, matches=1,
         out=None, limit_s=7200, heap=False):
    """Play `matches` matches (or `hands` hands) on one board; a dict:
    'presses' [(kind, turn, ms)], 'free' [free heap bytes at the player's
    presses, with `heap`], 'emulated_s', 'host_s', 'hands'."""
    files = dict(files)
    files.update(lp.settings_files(target, LEVEL))
    t0 = time.time()
    presses = []
    free = []
    played = 0
    with lp.Single(firmware, bootrom, h.fs_image(files), xip_cache=cache) as p:
        p.run_until_text("Game running", 60000)
        table = None
        if heap:
            p.interrupt()
            table = HeapTable(p)
            p.type(b"\x04")                  # a soft reset: the game starts again
            p.run_until_text("Game running", 60000)
        for _ in range(matches):
            rec = Recorder()
            player = Reading(p, rec, table)

            def until(pl):
                return pl[0].final is not None or (hands is not None and pl[0].showdowns >= hands)

            lp.play([player], p.run, until=until, limit_s=limit_s, out=out)
            played += player.showdowns
            p.run(500)                       # the last frames closed
            presses += answers(p, rec.rows)
            free += player.free
            if hands is not None:
                break
            player.final = None
            p.press("A", after_ms=1500)      # the match end: back to the title
        return {"presses": presses, "free": free, "emulated_s": p.t / 1e9,
                "host_s": time.time() - t0, "hands": played}


# -- figures ---------------------------------------------------------------------------

def percentile(xs, q):
    s = sorted(xs)
    if not s:
        return None
    k = max(0, min(len(s) - 1, int(round(q * len(s) + 0.5)) - 1))
    return s[k]


def stats(presses, kind, lo=1, hi=None):
    """{'n', 'median', 'p99', 'max', 'unanswered'} of `kind`'s presses in
    turns lo..hi (hi None: no end)."""
    ms = [m for k, t, m in presses if k == kind and t >= lo and (hi is None or t <= hi)]
    got = [m for m in ms if m is not None]
    return {"n": len(got), "median": percentile(got, 0.5), "p99": percentile(got, 0.99),
            "max": max(got) if got else None, "unanswered": len(ms) - len(got)}


def _ms(x):
    return "-" if x is None else "%.1f" % x


def table(results):
    """The bench's table: a row per build, cache setting and button kind:
    presses, median / p99 / max, the median and max of each turn group,
    presses unanswered. `results`: [(label, cache, play() result)]."""
    head = "%-22s %-5s %-9s %5s %7s %7s %7s" % ("build", "cache", "button", "n", "median",
                                                "p99", "max")
    for _, _, name in GROUPS:
        head += " | %-13s" % (name + " med/max")
    head += " | lost"
    lines = [head, "-" * len(head)]
    for label, cache, r in results:
        for kind in KINDS:
            s = stats(r["presses"], kind)
            row = "%-22s %-5s %-9s %5d %7s %7s %7s" % (label, "on" if cache else "off", kind,
                                                       s["n"], _ms(s["median"]), _ms(s["p99"]),
                                                       _ms(s["max"]))
            for lo, hi, _ in GROUPS:
                g = stats(r["presses"], kind, lo, hi)
                row += " | %-13s" % ("%s/%s" % (_ms(g["median"]), _ms(g["max"])) if g["n"] else "-")
            row += " | %d" % s["unanswered"]
            lines.append(row)
    return "\n".join(lines)


def goals(r):
    """The goals `r` (a play() result) breaks, in words ([] when none):
    each kind's median in every turn group and the worst of the run, and
    no press unanswered."""
    broken = []
    for kind in KINDS:
        med_goal, max_goal = GOALS[kind]
        for lo, hi, name in GROUPS:
            g = stats(r["presses"], kind, lo, hi)
            if g["n"] and g["median"] > med_goal:
                broken.append("%s median %.1f ms in %s (goal %.0f)" % (kind, g["median"], name,
                                                                       med_goal))
        s = stats(r["presses"], kind)
        if s["n"] and s["max"] > max_goal:
            broken.append("%s worst %.1f ms (goal %.0f)" % (kind, s["max"], max_goal))
        if s["unanswered"]:
            broken.append("%d %s presses unanswered" % (s["unanswered"], kind))
    return broken


def regressions(new, old):
    """The medians of `new` more than WORSE above `old`'s, in words: each
    kind's, whole and in each turn group both have MIN_COMPARED presses of."""
    worse = []
    for kind in KINDS:
        for lo, hi, name in ((1, None, "all turns"),) + GROUPS:
            a, b = stats(new["presses"], kind, lo, hi), stats(old["presses"], kind, lo, hi)
            if a["n"] < MIN_COMPARED or b["n"] < MIN_COMPARED:
                continue
            if a["median"] > b["median"] * (1 + WORSE):
                worse.append("%s median %.1f ms in %s, was %.1f (+%.0f%%)" % (
                    kind, a["median"], name, b["median"], 100.0 * (a["median"] / b["median"] - 1)))
    return worse


def heap_line(r):
    f = r["free"]
    if not f:
        return "free heap: not read"
    return ("free heap at the player's presses (collected): least %d B, median %d B "
            "(%d readings)"
            % (min(f), sorted(f)[len(f) // 2], len(f)))


def run_builds(builds, bootrom, target=100, hands=None, caches=(False,), matches=1, log=None):
    """play() each (label, firmware, files) of `builds` with each cache
    setting (with files: a bundle, its free heap read too); [(label,
    cache, result)]."""
    results = []
    for label, firmware, files in builds:
        for cache in caches:
            r = play(firmware, bootrom, files, target, hands, cache, matches, heap=bool(files))
            results.append((label, cache, r))
            if log is not None:
                log("%s, cache %s: %d hands, %.0f s emulated, %.0f s host" % (
                    label, "on" if cache else "off", r["hands"], r["emulated_s"], r["host_s"]))
    return results


def mpy_zip_files(path):
    """{board path: bytes} of a release's .mpy bundle zip (its one folder's
    files; the note left out): what `make flash` copies."""
    import zipfile

    files = {}
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            rel = name.split("/", 1)[1] if "/" in name else ""
            if rel and not name.endswith("/") and rel != "INSTALL.txt":
                files["/" + rel] = z.read(name)
    return files


def release_check(new, old, firmware, bootrom, bundle=None, matches=1, log=print):
    """The latency bench for a release: `new` and `old` are (label, .uf2)
    (old None: no release before), each a whole match per cache setting
    (off, on); `bundle` (label, {path: bytes}) the new .mpy bundle, with
    the cache off. Prints the table; returns the problems in words ([]:
    none): the new build's goals with each cache setting, its medians
    against the old build's, presses the bundle left unanswered."""
    builds = ([(old[0], old[1], {})] if old else []) + [(new[0], new[1], {})]
    results = run_builds(builds, bootrom, caches=(False, True), matches=matches, log=log)
    if bundle is not None:
        results += run_builds([(bundle[0], firmware, bundle[1])], bootrom, caches=(False,),
                              matches=matches, log=log)
    log(table(results))
    got = {(label, cache): r for label, cache, r in results}
    problems = []
    for cache in (False, True):
        where = "cache %s" % ("on" if cache else "off")
        r = got[(new[0], cache)]
        problems += ["%s, %s: %s" % (new[0], where, b) for b in goals(r)]
        if old:
            problems += ["%s against %s, %s: %s" % (new[0], old[0], where, w)
                         for w in regressions(r, got[(old[0], cache)])]
    if bundle is not None:
        r = got[(bundle[0], False)]
        log("%s: %s" % (bundle[0], heap_line(r)))
        lost = sum(stats(r["presses"], k)["unanswered"] for k in KINDS)
        if lost:
            problems.append("%s: %d presses unanswered" % (bundle[0], lost))
    for pr in problems:
        log("  " + pr)
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uf2", action="append", default=[], metavar="FILE[=LABEL]",
                    help="a frozen build to measure (default build/gin-rummy-pico.uf2)")
    ap.add_argument("--bundle", action="store_true",
                    help="also the .mpy bundle of this tree on the stock firmware (on an "
                         "RP2040 it has too little memory for a match: docs/DEVICE.md)")
    ap.add_argument("--matches", type=int, default=1)
    ap.add_argument("--target", type=int, default=100)
    ap.add_argument("--hands", type=int, default=None, help="stop each run after N hands")
    ap.add_argument("--cache", choices=("off", "on", "both"), default="off")
    ap.add_argument("--quick", action="store_true", help="two hands, no cache model")
    ap.add_argument("--firmware", default=h.find("PICO_FIRMWARE")[0])
    ap.add_argument("--bootrom", default=h.find("PICO_BOOTROM")[0])
    a = ap.parse_args(argv)
    if not (a.firmware and a.bootrom and os.path.isfile(a.firmware)
            and os.path.isfile(a.bootrom)):
        print("emulated Pico latency skipped: " + (h.Kit.find()[1] or "no kit"))
        return 0
    if a.quick:
        a.hands, a.cache = 2, "off"
    builds = []
    for spec in a.uf2 or [os.path.join(h.ROOT, "build", "gin-rummy-pico.uf2")]:
        path, _, label = spec.partition("=")
        if not os.path.isfile(path):
            print("%s not built (make uf2): skipped" % path)
            continue
        builds.append((label or os.path.basename(path), path, {}))
    if a.bundle:
        builds.append((".mpy bundle", a.firmware, h.board_files()))
    if not builds:
        return 0
    caches = {"off": (False,), "on": (True,), "both": (False, True)}[a.cache]
    print("Button to the end of its frame on the emulated Pico, %s against %s AI, the "
          "panel-reading player (ms; cache: the XIP cache model, off = zero-wait flash)"
          % ("%d hands" % a.hands if a.hands else "%d match(es) to %d" % (a.matches, a.target),
             LEVEL))
    sys.stdout.flush()
    results = run_builds(builds, a.bootrom, a.target, a.hands, caches, a.matches,
                         log=lambda s: (print("  " + s), sys.stdout.flush()))
    print(table(results))
    for label, cache, r in results:
        if r["free"]:
            print("%s (cache %s): %s" % (label, "on" if cache else "off", heap_line(r)))
        broken = goals(r)
        print("%s (cache %s): goals %s" % (label, "on" if cache else "off",
                                           "met" if not broken else "broken: " + "; ".join(broken)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
