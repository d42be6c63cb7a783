"""AI decision times on a fixed list of positions, for any MicroPython port
(and CPython): tools/bench/bench_web.py runs it on the unix port and in the page.

    .venv/bin/micropython web/aibench.py [HANDS [SEED [LEVEL]]]

The positions: every decision of both seats in the first hand of the matches
with seeds SEED .. SEED+HANDS-1 (default 8 from 1), both seats played by
engine.ai.Player(LEVEL) (default "hard", seeded with the match seed and
seed + 1000). The engine is deterministic on every runtime, so each runtime
meets the same positions and must choose the same moves; `checksum`
(Fletcher-16 of the moves' text) shows it. Each choose() is timed alone,
after a gc.collect() (no collection inside it): with time.ticks_us on the
unix port, and with the page's performance.now() in a browser (the wasm
port's ticks_us counts whole milliseconds).

Prints (and run_json returns) one line of JSON:
{"runtime", "level", "hands", "seed", "n", "checksum", "times_us": [...]}.
"""

import gc
import sys


def _add_repo_root():
    f = globals().get("__file__", "")
    here = f.rsplit("/", 1)[0] if "/" in f else "."
    for root in (here + "/..", "."):
        if root not in sys.path:
            sys.path.append(root)


def clock_us():
    """A microsecond clock: the browser's performance.now() when there is
    one (`js` module), else time.ticks_us, else CPython's perf_counter."""
    try:
        import js
        perf = js.performance

        def us():
            return int(perf.now() * 1000)
        return us
    except ImportError:
        pass
    import time
    if hasattr(time, "ticks_us"):
        return time.ticks_us
    return lambda: time.perf_counter_ns() // 1000


def runtime_name():
    impl = sys.implementation
    v = ".".join([str(x) for x in impl.version[:3]])
    return "%s %s (%s)" % (impl.name, v, sys.platform)


def run(hands=8, seed=1, level="hard"):
    """(times in us, number of decisions, checksum of the moves)."""
    from engine import Match
    from engine.ai import Player

    us = clock_us()
    times = []
    s1 = 0
    s2 = 0
    for s in range(seed, seed + hands):
        m = Match(None, s)
        players = (Player(level, s), Player(level, s + 1000))
        while m.phase != "hand_over" and m.phase != "match_over":
            seat = m.to_move
            v = m.view(seat)
            p = players[seat]
            gc.collect()
            t0 = us()
            act = p.choose(v)
            t1 = us()
            times.append(t1 - t0)
            for ch in act.encode():
                s1 = (s1 + ch) % 255
                s2 = (s2 + s1) % 255
            s1 = (s1 + 59) % 255  # separator (';')
            s2 = (s2 + s1) % 255
            why = m.act(act)
            if why is not None:
                raise RuntimeError("%s chose %s: %s" % (level, act, why))
    return times, len(times), (s2 << 8) | s1


def run_json(hands=8, seed=1, level="hard"):
    import json
    times, n, check = run(hands, seed, level)
    return json.dumps({"runtime": runtime_name(), "level": level, "hands": hands,
                       "seed": seed, "n": n, "checksum": check, "times_us": times})


def main(argv):
    hands = int(argv[1]) if len(argv) > 1 else 8
    seed = int(argv[2]) if len(argv) > 2 else 1
    level = argv[3] if len(argv) > 3 else "hard"
    print(run_json(hands, seed, level))


if __name__ == "__main__":
    _add_repo_root()
    main(sys.argv)
