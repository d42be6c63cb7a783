"""Device figures from an emulated Pico (rp2040js), side by side for the
three ways the game goes onto a Pico, beside the MicroPython unix port's:

    romfs   the release: the game's .mpy in the ROMFS partition, run where
            they lie (`make uf2`, build/gin-rummy-pico.uf2; `make flash`
            writes the same image into the same partition)
    frozen  the game frozen into the firmware (`make uf2-frozen`,
            build/gin-rummy-pico-frozen.uf2)
    mpy     the .mpy bundle on stock MicroPython (`make flash` onto a
            board without a ROMFS partition): its code on the heap

    PICO_FIRMWARE=stock.uf2 PICO_BOOTROM=bootrom.ts .venv/bin/python -m tools.bench.bench_pico
        [--matches N] [--levels easy,normal,hard] [--builds frozen,romfs,mpy] [--title]

Per build: boot to the complete title frame; free heap at the title; button
to complete frame (a direction, A in play: tools/pico/figures.py); the AI's
decisions inside the real App over N whole matches per level
(tools/pico/ai_times.py: median / p99 / max, gc.mem_free() minimum before a
decision and after a collection); the free heap with a match in progress
for the game alone (hard AI, a human seat that takes no heap: minimum
before a decision and after a collection, the bench's own heap added
back), with a hand's start and the match end (A on a hand result to the
next screen's first frame). Then the speed ratio to the unix port:
the same 30 hard decisions (positions of seeded matches), and the best
discard of 11 cards, timed on the board and on .venv/bin/micropython.
Without the stock firmware and the boot ROM ($PICO_FIRMWARE / $PICO_BOOTROM,
or found where tools/pico/harness.py looks) it prints why and stops. One match
takes about 4-7 minutes of host time here ($PICO_BENCH_MATCHES sets the
default of --matches, 5); --title prints only the boot and the free heap at
the title (a minute a build). Emulated time: rp2040js runs flash at zero wait
states; a real Pico, with XIP cache misses, is 10-40% slower.
"""

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.pico import ai_times, figures, session  # noqa: E402
from tools.pico import harness as h  # noqa: E402

# Timed on both runtimes: hard decisions of given positions, best discards.
TIMING = r'''
import time, engine
from engine.ai import Player
def med(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]
ts = []
for hx in POS:
    m = engine.loads(bytes.fromhex(hx))
    p = Player("hard", m.seed & 0x3FFFFFFF)
    v = m.view(m.to_move)
    t = time.ticks_us()
    p.choose(v)
    ts.append(time.ticks_diff(time.ticks_us(), t))
hands = [engine.cards(h) for h in HANDS]
bd = []
for hand in hands:
    t = time.ticks_us()
    engine.best_discard(hand)
    bd.append(time.ticks_diff(time.ticks_us(), t))
print("@timing", med(ts), med(bd))
'''


def positions(n=30, seed=11):
    """engine.dumps of n positions where the hard AI is to move, and 20
    11-card hands, from seeded matches (CPython)."""
    import engine
    from engine.ai import Player
    from tools.kit.play import play_out

    pos, hands = [], []
    s = seed
    while len(pos) < n:
        m = engine.Match(engine.CARDEMS, s)
        bots = (Player("easy", s), Player("hard", s + 1))

        def choose(m, seat):
            if seat == 1 and len(m.hand.log) % 3 == 0:
                pos.append(engine.dumps(m).hex())
            v = m.view(seat)
            if m.phase == "discard" and len(hands) < 20:
                hands.append(" ".join(engine.card_text(c) for c in v.hand))
            return bots[seat].choose(v)

        play_out(m, choose, stop=lambda m: len(pos) >= n)
        s += 1
    return pos, hands


def timing_code():
    pos, hands = positions()
    return "POS = %r\nHANDS = %r\n" % (pos, hands) + TIMING


def unix_timing(code):
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.py")
        with open(path, "w") as f:
            f.write("import sys\nsys.path.insert(0, %r)\n" % ROOT + code)
        r = subprocess.run([mp, path], capture_output=True, text=True, timeout=600)
    return _timing(r.stdout)


def _timing(out):
    for line in out.splitlines():
        if line.startswith("@timing"):
            f = line.split()
            return int(f[1]), int(f[2])
    raise SystemExit("no timing printed:\n" + out)


def title_line(boot_ms, free):
    print("  boot to the complete title frame %.0f ms; free heap at the title %s bytes" % (
        boot_ms, free))
    sys.stdout.flush()


def title_figures(a):
    """Boot to the complete title frame, and the free heap there."""
    files = h.board_files(a.root, bundle=not a.frozen, main=True)
    with h.Pico(a.firmware, a.bootrom, h.fs_image(files)) as p:
        title_line(*figures.boot(p))


def build_figures(a, name):
    files = h.board_files(a.root, bundle=not a.frozen, main=True)
    r = figures.measure(a.firmware, a.bootrom, h.fs_image(files))
    title_line(r["boot_ms"], r["free_title"])
    print("  direction button -> complete frame: " + figures.stats(r["lat"]["direction"]))
    print("  A in play (release) -> complete frame: " + figures.stats(r["lat"]["A"]))
    for level in a.levels.split(","):
        lr = ai_times.run_level(a, level)
        print("  AI " + ai_times.summary_line(level, lr))
        sys.stdout.flush()
    # the game's own heap: hard AI, a human seat that takes no heap
    human, a.human = a.human, "greedy"
    hr = ai_times.run_level(a, "hard")
    a.human = human
    print("  %s (hard AI, greedy human seat, %d matches)" % (ai_times.heap_line(hr), a.matches))
    print("  " + ai_times.lat_line(hr))
    sys.stdout.flush()
    with session.repl_board(a) as p:
        out, err = p.exec(timing_code(), timeout_ms=600000)
    return _timing(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    session.add_arguments(ap)
    ap.add_argument("--matches", type=int, default=int(os.environ.get("PICO_BENCH_MATCHES", "5")))
    ap.add_argument("--levels", default="easy,normal,hard")
    # (mpy: the .mpy bundle on stock MicroPython, which on the emulated
    # RP2040 has too little memory for a match: docs/DEVICE.md)
    ap.add_argument("--builds", default="frozen,romfs")
    ap.add_argument("--human", default="easy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--slow-ms", type=int, default=10 ** 6)
    ap.add_argument("--title", action="store_true",
                    help="only the boot to the title and the free heap there, per build")
    a = ap.parse_args(argv)
    a.squeeze, a.deep, a.last_target = 0, False, 0   # ai_times.run_level's other options
    if not (a.firmware and a.bootrom and os.path.isfile(a.firmware) and os.path.isfile(a.bootrom)):
        print("emulated Pico figures skipped: " + h.Kit.find()[1])
        return 0
    stock = a.firmware
    print("Device figures on an emulated Pico (rp2040js 1.4.1; emulated time, flash at zero "
          "wait states: a real Pico is 10-40%% slower); AI: %d matches per level, human seat "
          "an %s bot" % (a.matches, a.human))
    unix = None if a.title else unix_timing(timing_code())
    uf2s = {"romfs": (session.FROZEN_UF2, "make uf2"),
            "frozen": (session.GAME_FROZEN_UF2, "make uf2-frozen")}
    if a.frozen:                             # --frozen UF2: that .uf2, as its kind
        uf2s[session.kind(a.frozen)] = (a.frozen, "")
    for name in a.builds.split(","):
        if name not in ("mpy",) + tuple(uf2s):
            raise SystemExit("--builds: mpy, romfs or frozen, not %r" % name)
        a.frozen = uf2s[name][0] if name in uf2s else None
        a.firmware = stock
        if a.frozen and not os.path.isfile(a.frozen):
            print("%s: %s not built (%s)" % (name, a.frozen, uf2s[name][1]))
            continue
        session.check(a)
        print("%s:" % session.label(a))
        if a.title:
            title_figures(a)
            continue
        dev = build_figures(a, name)
        print("  vs the unix port, same work: hard decision median %.1f ms vs %.2f ms (%.0fx); "
              "best discard of 11 cards %.2f ms vs %.1f us (%.0fx)" % (
                  dev[0] / 1000.0, unix[0] / 1000.0, dev[0] / max(unix[0], 1),
                  dev[1] / 1000.0, unix[1], dev[1] / max(unix[1], 1)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
