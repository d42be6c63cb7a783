"""The web handheld: page load and AI decision time in the browser vs the
MicroPython unix port.

    .venv/bin/python -m tools.bench.bench_web [--hands N] [--loads N] [--out DIR]

`make bench` runs it. It builds the page (tools/web/build.py, into
build/web), serves it on 127.0.0.1, and in headless Chromium (Debian's
chromium, driven by playwright-core through web/driver.mjs):

- loads the page N times (--loads, default 3), each in a fresh context (a
  cold cache), and reports the time from navigation to the title screen
  (gin.t.title: performance.now() when the first frame showing the title
  was painted) and the bytes transferred (bodies and headers of every
  response, from the browser's own accounting), per file and in all, with
  what gzip would make of each file for a host that compresses;
- times engine.ai.Player("hard").choose on the fixed positions of
  web/aibench.py (every decision of the first hand of seeds 1..N,
  both seats hard) in the page, and the same positions on the unix port
  (.venv/bin/micropython) and, for reference, on the wasm port under Node
  (tools/kit/run_wasm.mjs), and prints them side by side. The moves'
  checksums must match: same positions, same choices.

The page is served cross-origin isolated (COOP/COEP headers) so that the
browser's performance.now() resolves 5 us instead of 100 us.

Without Chromium (apt-get install chromium) only the unix port's timings
are printed.
"""

import argparse
import gzip
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from web import browser as wb  # noqa: E402
from tools.web import build as web_build  # noqa: E402

AIBENCH = os.path.join(ROOT, "web", "aibench.py")


def micropython_unix():
    for p in (os.path.join(os.path.dirname(sys.executable), "micropython"),
              os.path.join(ROOT, ".venv", "bin", "micropython")):
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def unix_ai(hands, seed=1, level="hard"):
    mp = micropython_unix()
    if mp is None:
        raise SystemExit("MicroPython unix port not found (.venv/bin/micropython): run `make test` first")
    out = subprocess.run([mp, "-X", "heapsize=4M", AIBENCH, str(hands), str(seed), level],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def node_ai(hands, seed=1, level="hard"):
    """The same positions on the wasm port under Node (same V8 engine, no
    page), for reference; None when it cannot run."""
    try:
        out = subprocess.run(
            ["node", os.path.join(ROOT, "tools", "kit", "run_wasm.mjs"), "--heapsize", "2M",
             "--dirs", "web/aibench.py", AIBENCH, str(hands), str(seed), level],
            cwd=ROOT, capture_output=True, text=True, check=True).stdout
        return json.loads(out.strip().splitlines()[-1])
    except (OSError, subprocess.CalledProcessError, ValueError):
        return None


def browser_ai_js(hands, seed=1, level="hard"):
    """JS for page.evaluate: put aibench.py in the page's filesystem, run it."""
    with open(AIBENCH) as f:
        src = f.read()
    return """(() => {
  gin.mp.FS.writeFile("/app/aibench.py", %s);
  gin.mp.runPython("import aibench\\n_bench = aibench.run_json(%d, %d, %s)");
  return gin.mp.globals.get("_bench");
})()""" % (json.dumps(src), hands, seed, json.dumps(json.dumps(level))[1:-1])


def browser_ai(b, url, hands, seed=1, level="hard"):
    b.page(url + "?fakeclock=1&seed=1")
    b.wait("window.gin && (gin.ready || gin.failed)", 60000)
    failed = b.eval("gin.failed")
    if failed:
        raise RuntimeError("the page failed: " + failed)
    return json.loads(b.eval(browser_ai_js(hands, seed, level)))


def load_once(b, url):
    """(ms from navigation to the title, [{url, body, headers}])."""
    b.page(url)
    b.wait("window.gin && (gin.t.title !== undefined || gin.failed)", 60000)
    failed = b.eval("gin.failed")
    if failed:
        raise RuntimeError("the page failed: " + failed)
    t = b.eval("gin.t")
    net = b.call("network")
    return t, net


def mp_version(r):
    """'1.27.0' from aibench's runtime 'micropython 1.27.0 (webassembly)'."""
    parts = r["runtime"].split()
    return parts[1] if len(parts) > 1 else r["runtime"]


def node_version():
    try:
        return subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def stats(times):
    t = sorted(times)
    n = len(t)
    return {
        "n": n,
        "median": t[n // 2],
        "mean": sum(t) / n,
        "p90": t[min(n - 1, n * 9 // 10)],
        "max": t[-1],
        "total_ms": sum(t) / 1000.0,
    }


def print_ai(rows):
    print("AI decisions: engine.ai.Player(%r).choose on %d fixed positions "
          "(first hand of seeds 1..%d, both seats)" % (
              rows[0][1]["level"], rows[0][1]["n"], rows[0][1]["hands"]))
    print("%-36s %6s %9s %9s %9s %9s %9s %8s" % (
        "runtime", "moves", "median us", "mean us", "p90 us", "max us", "total ms", "checksum"))
    for name, r in rows:
        s = stats(r["times_us"])
        print("%-36s %6d %9d %9.0f %9d %9d %9.1f %8s" % (
            name, s["n"], s["median"], s["mean"], s["p90"], s["max"], s["total_ms"],
            "%04x" % r["checksum"]))
    base = stats(rows[0][1]["times_us"])
    ok = True
    for name, r in rows[1:]:
        s = stats(r["times_us"])
        print("%s / unix: %.2fx (mean), %.2fx (median)" % (
            name.split(",")[0].replace(" page", ""), s["mean"] / base["mean"], s["median"] / max(1, base["median"])))
        if r["checksum"] != rows[0][1]["checksum"]:
            print("MISMATCH: %s chose other moves on the same positions" % name)
            ok = False
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=16, help="positions: first hands of N seeds")
    ap.add_argument("--loads", type=int, default=3, help="page loads to time")
    ap.add_argument("--out", default=web_build.DEFAULT_OUT, help="where to build the page")
    a = ap.parse_args(argv)

    unix = unix_ai(a.hands)
    why = wb.missing()
    if why:
        print("browser part skipped: %s" % why)
        print_ai([("unix port, MicroPython %s" % mp_version(unix), unix)])
        return 0

    sizes = web_build.build(a.out, quiet=True)
    with wb.serve(a.out, isolate=True) as url, wb.Browser() as b:
        loads = []
        for _ in range(a.loads):
            loads.append(load_once(b, url))
        web = browser_ai(b, url, a.hands)
        ua_ver = b.version
    node = node_ai(a.hands)

    titles = sorted(t["title"] for t, _ in loads)
    t0, net = loads[0]
    print("Page load (headless Chromium %s, localhost, cold cache, %d loads):" % (ua_ver, len(loads)))
    print("  navigation -> title screen: median %.0f ms (min %.0f, max %.0f); "
          "runtime ready %.0f ms, app built %.0f ms (first load)" % (
              titles[len(titles) // 2], titles[0], titles[-1], t0["runtime"], t0["app"]))
    total_body = sum(r["body"] or 0 for r in net)
    total_all = sum((r["body"] or 0) + (r["headers"] or 0) for r in net)
    gz_total = 0
    print("  %-20s %9s %12s" % ("file", "bytes", "gzip -9"))
    for r in net:
        name = r["url"].split("/")[-1].split("?")[0] or "index.html"
        path = os.path.join(a.out, name)
        gz = ""
        if os.path.isfile(path):
            with open(path, "rb") as f:
                n = len(gzip.compress(f.read(), 9))
            gz_total += n
            gz = "%d" % n
        print("  %-20s %9d %12s" % (name, r["body"] or 0, gz))
    print("  %d requests, %d bytes of bodies, %d with headers (gzip -9 would send %d)" % (
        len(net), total_body, total_all, gz_total))
    print("  static folder: %d bytes (%s)" % (sum(sizes.values()), ", ".join(
        "%s %d" % kv for kv in sorted(sizes.items()))))
    print()
    rows = [("unix port, MicroPython %s" % mp_version(unix), unix),
            ("Chromium %s page, wasm %s" % (ua_ver.split(".")[0], mp_version(web)), web)]
    if node is not None:
        rows.append(("Node %s, wasm %s" % (node_version(), mp_version(node)), node))
    ok = print_ai(rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
