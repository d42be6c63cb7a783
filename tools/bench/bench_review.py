"""The hand review: what it finds and how long it takes.

    .venv/bin/python -m tools.bench.bench_review [--hands N] [--seed S] [--pico-hands K]
        [--pico-run PATH]   (the emulated Pico's snippet runner, if not tools/pico/run.py)

`make bench` runs it. AI-against-AI matches, one seat `easy` and the other
`hard` (the easy seat alternates from match to match), are played until N
hands (200) have ended; after each, both seats' decisions are reviewed
(engine/review.py), each by its own hard reviewer kept for the match, as
the handheld keeps one. It prints:

* how many hands of each seat the review flags (a decision costing a
  point or more): most of the easy seat's, none of the hard seat's;
* the correlation of the easy seat's summed costs in a hand with the
  points that hand swung its way (a costly hand should lose points);
* review time per hand on the MicroPython unix port (median, max; each
  review run twice, the faster kept: the host may preempt the port), and
  the longest single step (what a frame waits for on the device);
* the same on the emulated Pico when its harness (tools/pico/run.py, which
  needs PICO_FIRMWARE and PICO_BOOTROM set) is in this tree, over K of the
  hands (the easy seat's reviews); otherwise the estimate at 220 times the
  unix port;
* how often appraise() itself rates some other move above the hard
  level's own choice (CPython; what the review compares against is the
  hard level's choice, which the hint shows).
"""
import sys

_here = globals().get("__file__", "")
sys.path.append((_here.rsplit("/", 1)[0] if "/" in _here else ".") + "/../records")
from _root import add_repo_root as _add_repo_root  # noqa: E402  (tools/records/_root.py)

PICO_RATIO = 220          # a Pico runs the game's Python ~220x slower than the unix port
DEVICE_MS = 3000          # the target per hand on the device
STEP_MS = 100             # ... and per step (a frame)


def _args(argv):
    out = {"hands": 200, "seed": 1, "pico": 8, "pico_run": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--pico-run" and i + 1 < len(argv):
            out["pico_run"] = argv[i + 1]
            i += 1
        elif a in ("--hands", "--seed", "--pico-hands") and i + 1 < len(argv):
            out[{"--hands": "hands", "--seed": "seed", "--pico-hands": "pico"}[a]] = int(argv[i + 1])
            i += 1
        i += 1
    return out


def play_hands(n, seed, on_hand, make=None):
    """Play easy-vs-hard matches until n hands ended; on_hand(m, easy_seat,
    reviewers) after each (reviewers: a hard Player per seat, per match).
    make(level, seed) makes the players (engine.ai.Player)."""
    from engine import Match
    from engine.ai import Player

    from tools.kit.play import play_out, players_choose

    make = make or Player
    done = [0]
    s = seed
    while done[0] < n:
        easy = s % 2
        m = Match(None, s)
        players = [None, None]
        players[easy] = make("easy", s)
        players[1 - easy] = make("hard", s)
        reviewers = (Player("hard", 0), Player("hard", 1))

        def each(m, seat):
            if m.phase in ("hand_over", "match_over"):
                on_hand(m, easy, reviewers)
                done[0] += 1

        play_out(m, players_choose(players), each, lambda m: done[0] >= n)
        s += 1


def _timed_review(m, seat, player):
    """(review, total us, longest step us): the faster of two runs."""
    import time
    import gc
    from engine.review import Review

    best = None
    for _ in range(2):
        gc.collect()
        t0 = time.ticks_us()
        r = Review(m, len(m.results) - 1, seat, player)
        t = time.ticks_us()
        longest = time.ticks_diff(t, t0)
        more = True
        while more:
            a = time.ticks_us()
            more = r.step()
            d = time.ticks_diff(time.ticks_us(), a)
            if d > longest:
                longest = d
        total = time.ticks_diff(time.ticks_us(), t0)
        if best is None or total < best[1]:
            best = (r, total, longest)
    return best


def bench_mp(opts):
    """The MicroPython side: one line per hand."""
    print("# %s" % ".".join([str(x) for x in sys.implementation.version]))

    def on_hand(m, easy, reviewers):
        res = m.results[-1]
        swing = 0
        if res.winner is not None:
            swing = res.points if res.winner == easy else -res.points
        cols = [len(m.results), easy, swing]
        for seat in (easy, 1 - easy):
            r, us, step = _timed_review(m, seat, reviewers[seat])
            cols += [r.n, r.total, r.ntop, us, step]
        print("H " + " ".join([str(c) for c in cols]))

    play_hands(opts["hands"], opts["seed"], on_hand)


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else 0


def _pearson(xs, ys):
    n = len(xs)
    if n < 2:
        return 0.0
    mx = sum(xs) / n
    my = sum(ys) / n
    sxy = sum([(x - mx) * (y - my) for x, y in zip(xs, ys)])
    sxx = sum([(x - mx) ** 2 for x in xs])
    syy = sum([(y - my) ** 2 for y in ys])
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else 0.0


def _unix(root, opts):
    import os
    import subprocess

    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.isfile(mp):
        mp = os.path.join(root, ".venv", "bin", "micropython")
    if not os.path.isfile(mp):
        print("MicroPython unix port not found (.venv/bin/micropython): run `make test` first")
        sys.exit(1)
    cmd = [mp, "-X", "heapsize=4M", os.path.join(root, "tools", "bench", "bench_review.py"), "--mp",
           "--hands", str(opts["hands"]), "--seed", str(opts["seed"])]
    p = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stdout[-2000:] + p.stderr[-2000:])
        sys.exit(1)
    rows = []
    for ln in p.stdout.splitlines():
        if ln.startswith("H "):
            rows.append([int(x) for x in ln.split()[1:]])
    return p.stdout.splitlines()[0][2:], rows


def report(version, rows):
    n = len(rows)
    # columns: hand_no easy swing | easy: n total ntop us step | hard: ...
    e_flag = len([r for r in rows if r[5] > 0])
    h_flag = len([r for r in rows if r[10] > 0])
    e_dec = sum([r[3] for r in rows])
    h_dec = sum([r[8] for r in rows])
    print("%d hands, easy against hard (the easy seat alternating by match)" % n)
    print("  flagged (a decision costing a point or more): easy seat %d of %d hands (%d%%), "
          "hard seat %d of %d" % (e_flag, n, e_flag * 100 // n, h_flag, n))
    print("  decisions reviewed: easy %d (%.2f points a decision), hard %d (%.2f)" % (
        e_dec, sum([r[4] for r in rows]) / 16.0 / max(1, e_dec),
        h_dec, sum([r[9] for r in rows]) / 16.0 / max(1, h_dec)))
    costs = [r[4] / 16.0 for r in rows]
    swings = [r[2] for r in rows]
    print("  correlation of the easy seat's summed costs with the points the hand swung its way: "
          "r = %.2f" % _pearson(costs, swings))
    played = [r for r in rows if r[2] != 0]
    print("  (hands that scored, %d: r = %.2f)" % (len(played), _pearson(
        [r[4] / 16.0 for r in played], [r[2] for r in played])))
    e_us = [r[6] for r in rows]
    all_us = e_us + [r[11] for r in rows]
    steps = [r[7] for r in rows] + [r[12] for r in rows]
    print("review time per hand on MicroPython %s (unix port): easy seat median %.1f ms, max %.1f ms; "
          "both seats max %.1f ms; longest step %.2f ms" % (
              version, _median(e_us) / 1000.0, max(e_us) / 1000.0, max(all_us) / 1000.0,
              max(steps) / 1000.0))
    return e_us, steps


def _pico(root, opts, e_us, steps):
    import os

    run = opts["pico_run"] or os.path.join(root, "tools", "pico", "run.py")
    have = os.path.isfile(run) and os.environ.get("PICO_FIRMWARE") and os.environ.get("PICO_BOOTROM")
    est = "estimated Pico (x%d the unix port): median %.2f s, max %.2f s a hand (target %.1f s); " \
          "longest step %.0f ms (target %d ms)" % (
              PICO_RATIO, _median(e_us) * PICO_RATIO / 1e6, max(e_us) * PICO_RATIO / 1e6,
              DEVICE_MS / 1000.0, max(steps) * PICO_RATIO / 1000.0, STEP_MS)
    if not have:
        print(est)
        print("  (emulated Pico: tools/pico/run.py with PICO_FIRMWARE and PICO_BOOTROM set "
              "measures it on the device)")
        return
    cmd = [sys.executable, run] if opts["pico_run"] else [sys.executable, "-m", "tools.pico.run"]
    pico_bench(root, cmd, opts["pico"], opts["seed"])


PICO_SNIPPET = """
import time, gc, engine
from engine.ai import Player
from engine.review import Review
for h, seat, learn in POS:
    m = engine.loads(bytes.fromhex(h))
    p = Player("hard", 0)
    i = len(m.results) - 1
    r = Review(m, i, seat, p)
    while r.state == 0:
        r.step()          # the earlier hands, learnt before (kept between hands)
    gc.collect()
    t0 = time.ticks_us()
    r = Review(m, i, seat, p)
    longest = time.ticks_diff(time.ticks_us(), t0)
    over = 0
    more = True
    while more:
        a = time.ticks_us()
        more = r.step()
        d = time.ticks_diff(time.ticks_us(), a)
        if d > longest:
            longest = d
        if d > 100000:
            over += 1
    print("P", r.n, r.total, time.ticks_diff(time.ticks_us(), t0), longest, gc.mem_free(), over)
"""


def pico_bench(root, run, k, seed):
    import os
    import subprocess
    import tempfile
    from engine import dumps

    pos = []

    def on_hand(m, easy, reviewers):
        if len(pos) < k:
            pos.append((dumps(m).hex(), easy, 0))

    play_hands(k, seed, on_hand)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write("POS = %r\n" % (pos,))
        f.write(PICO_SNIPPET)
        path = f.name
    try:
        p = subprocess.run(run + ["--root", root, "--raw", path], cwd=root,
                           capture_output=True, text=True, timeout=3600)
    finally:
        os.unlink(path)
    rows = [[int(x) for x in ln.split()[1:]] for ln in p.stdout.splitlines() if ln.startswith("P ")]
    if not rows:
        print("emulated Pico: no figures (%s)" % (p.stdout[-500:] + p.stderr[-500:]).strip())
        return
    us = [r[2] for r in rows]
    print("emulated Pico (rp2040js, %d hands, easy seat): review median %.2f s, max %.2f s a hand "
          "(target %.1f s); longest step %.0f ms (target %d ms), %d steps over it in all" % (
              len(rows), _median(us) / 1e6, max(us) / 1e6, DEVICE_MS / 1000.0,
              max([r[3] for r in rows]) / 1000.0, STEP_MS, sum([r[5] for r in rows])))


def appraise_check(opts):
    """CPython: at every hard decision of the same hands, does appraise()
    rate another move above the hard level's own choice?"""
    from engine.ai import Player
    from engine.ai.appraise import appraise

    judge = Player("hard", 0)
    stat = {"n": 0, "off": 0, "most": 0}

    class Watch(Player):
        def choose(self, view):
            a = Player.choose(self, view)
            if len(view.legal) > 1:
                ap = appraise(judge, view)
                mine = [v for act, v in ap if act == a][0]
                stat["n"] += 1
                if ap[0][1] > mine:
                    stat["off"] += 1
                    stat["most"] = max(stat["most"], ap[0][1] - mine)
            return a

    def make(level, seed):
        return Watch(level, seed) if level == "hard" else Player(level, seed)

    play_hands(opts["hands"], opts["seed"], lambda m, e, r: None, make)
    print("appraise() rates another move above the hard level's own choice at %d of %d hard "
          "decisions (by up to %.1f points); the review measures against that choice" % (
              stat["off"], stat["n"], stat["most"] / 16.0))


def main():
    argv = sys.argv[1:]
    opts = _args(argv)
    _add_repo_root()
    if "--mp" in argv or sys.implementation.name == "micropython":
        bench_mp(opts)
        return
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    version, rows = _unix(root, opts)
    e_us, steps = report(version, rows)
    _pico(root, opts, e_us, steps)
    appraise_check(opts)


if __name__ == "__main__":
    main()
