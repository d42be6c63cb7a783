"""Engine speed: meld search and best discard (issue: engine, item 5).

Run with CPython (`make bench` does): measures the engine on CPython, then
runs itself under the MicroPython unix port (`--mp`), and, when the
`open-spiel` package is installed, times OpenSpiel's C++ gin_rummy utilities
(`GinRummyUtils.min_deadwood`, called through its Python binding) on the
same hands in the same run, checks they agree with ours, and prints ratios.

Figures are medians of per-call times over 2,000 seeded hands. The hot
paths (`deadwood4`, `best_discard4`) take suit masks; the public functions
(`best_melds`, `best_discard`) take card lists and build their results.
"""
import sys

try:
    import time
    ticks = time.ticks_us
    diff = time.ticks_diff
    MP = True
except AttributeError:
    import time
    MP = False

N = 2000


def hands():
    if "." not in sys.path:
        sys.path.insert(0, ".")
    from engine.rng import Rng, deck_for
    r = Rng(2024)
    out = []
    for _ in range(N):
        d = deck_for(r.seed30())
        out.append(list(d[:11]))
    return out


def now_us():
    if MP:
        return ticks()
    return time.perf_counter_ns() / 1000.0


def median_us(fn, args, reps=1):
    ts = []
    for a in args:
        t0 = now_us()
        for _ in range(reps):
            fn(a)
        t1 = now_us()
        ts.append(((diff(t1, t0) if MP else t1 - t0)) / reps)
    ts.sort()
    return ts[len(ts) // 2], ts[-1]


def engine_figures():
    if "." not in sys.path:
        sys.path.insert(0, ".")
    from engine import best_melds, best_discard, masks_of, NO_CARD
    from engine.melds import deadwood4, best_discard4
    hs = hands()
    ten = [h[:10] for h in hs]
    m10 = [masks_of(h) for h in ten]
    m11 = [masks_of(h) for h in hs]
    res = {}
    res["best_melds_10"] = median_us(best_melds, ten)
    res["best_discard_11"] = median_us(best_discard, hs)
    res["deadwood4_10"] = median_us(lambda m: deadwood4(m[0], m[1], m[2], m[3]), m10, 20)
    res["best_discard4_11"] = median_us(lambda m: best_discard4(m, NO_CARD), m11, 20)
    alloc = -1
    if MP:
        import gc
        gc.collect()
        a0 = gc.mem_alloc()
        for m in m11:
            best_discard4(m, NO_CARD)
            deadwood4(m[0], m[1], m[2], m[3])
        alloc = gc.mem_alloc() - a0
    res["alloc"] = alloc
    return res


def show(name, res):
    print("%s:" % name)
    for key, label in (("best_melds_10", "best_melds, 10 cards (public, allocates result)"),
                       ("deadwood4_10", "deadwood4, 10 cards (hot path)"),
                       ("best_discard_11", "best_discard, 11 cards (public)"),
                       ("best_discard4_11", "best_discard4, 11 cards (hot path)")):
        med, mx = res[key]
        print("  %-48s median %7.2f us   max %8.2f us" % (label, med, mx))
    if res["alloc"] >= 0:
        print("  bytes allocated by %d hot-path calls: %d" % (2 * N, res["alloc"]))


def mp_main():
    res = engine_figures()
    # machine-readable line for the CPython side
    parts = []
    for k in ("best_melds_10", "deadwood4_10", "best_discard_11", "best_discard4_11"):
        parts.append("%s=%.3f/%.3f" % (k, res[k][0], res[k][1]))
    parts.append("alloc=%d" % res["alloc"])
    print("MP " + " ".join(parts))


def openspiel_figures():
    try:
        import pyspiel
    except ImportError:
        return None
    u = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    # OpenSpiel numbers cards rank + 13 * suit with suits s c d h; ours s h d c.
    to_os = [0] * 52
    for c in range(52):
        s = c // 13
        os_suit = (0, 3, 2, 1)[s]
        to_os[c] = os_suit * 13 + c % 13
    from engine import best_melds, best_discard
    hs = hands()
    ten = [[to_os[c] for c in h[:10]] for h in hs]
    eleven = [[to_os[c] for c in h] for h in hs]
    bad = 0
    for h, a, b in zip(hs, ten, eleven):
        if u.min_deadwood(a) != best_melds(h[:10])[0] or u.min_deadwood(b) != best_discard(h)[0]:
            bad += 1
    return {
        "min_deadwood_10": median_us(u.min_deadwood, ten, 20),
        "min_deadwood_11": median_us(u.min_deadwood, eleven, 20),
        "disagree": bad,
    }


def main():
    import os
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.chdir(root)
    print("Engine benchmark: %d seeded hands, median of per-call times" % N)
    cp = engine_figures()
    show("CPython %s" % sys.version.split()[0], cp)
    mp_exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    mp = None
    if os.path.exists(mp_exe):
        out = subprocess.run([mp_exe, "-X", "heapsize=8M", "tools/bench/bench_engine.py", "--mp"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()
        line = [ln for ln in out.splitlines() if ln.startswith("MP ")]
        if line:
            mp = {}
            for kv in line[0][3:].split():
                k, v = kv.split("=")
                if k == "alloc":
                    mp[k] = int(v)
                else:
                    a, b = v.split("/")
                    mp[k] = (float(a), float(b))
            show("MicroPython unix port", mp)
        else:
            print("MicroPython run failed:\n" + out)
    else:
        print("MicroPython unix port not found (run make test or make bench first)")
    if mp:
        med = mp["best_discard4_11"][0]
        print("  target: best discard <= 25 us median on the unix port: %s (%.2f us; "
              "about %.1f-%.1f ms on a Pico at 110-200x)" % (
                  "met" if med <= 25 else "MISSED", med, med * 110 / 1000, med * 200 / 1000))
    os_res = openspiel_figures()
    if os_res is None:
        print("OpenSpiel: not installed (pip install -r requirements-bench.txt) - no comparison")
        return
    print("OpenSpiel C++ GinRummyUtils.min_deadwood via its Python binding (same hands):")
    print("  10 cards: median %.2f us   11 cards (deadwood after best discard): median %.2f us" % (
        os_res["min_deadwood_10"][0], os_res["min_deadwood_11"][0]))
    print("  hands where OpenSpiel's deadwood differs from ours: %d of %d" % (os_res["disagree"], N))
    for name, res in (("CPython", cp), ("MicroPython unix", mp)):
        if not res:
            continue
        print("  ratio ours/OpenSpiel, %s: 10 cards %.2fx (hot path), %.2fx (best_melds); "
              "11 cards %.2fx (hot path), %.2fx (best_discard)" % (
                  name,
                  res["deadwood4_10"][0] / os_res["min_deadwood_10"][0],
                  res["best_melds_10"][0] / os_res["min_deadwood_10"][0],
                  res["best_discard4_11"][0] / os_res["min_deadwood_11"][0],
                  res["best_discard_11"][0] / os_res["min_deadwood_11"][0]))


if __name__ == "__main__":
    if "--mp" in sys.argv:
        mp_main()
    else:
        main()
