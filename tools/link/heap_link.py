"""What a link match costs the heap, on the MicroPython unix port with the
.mpy bundle (what `make flash` copies):

    .venv/bin/python tools/link/heap_link.py

One board's App (the bench's rig, tools/bench/bench_ui.py) at the title,
the match's screens loaded as the device loads them at boot;
the link's code imported (firmware/link/linkmatch.py, link.py, linkframe.py,
engine/linkdeal.py and the two link screens); the App choosing LINK and
playing the deal with a scripted board over tools/link/fakelink.py's cable
until its table shows; then back to the title, where the link's modules
are unloaded. gc.mem_alloc() after a gc.collect() at each point; the
scripted board's own objects (its link, its deal, its match) are measured
as they are made and taken out. For comparison, the same App at the table
of a match against the CPU.
"""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from tools.bench.bench_ui import SCENARIO, micropython_path  # noqa: E402
from tools.deploy import deploy  # noqa: E402

LINK = r'''
import sys
from firmware.compat import unload
def alloc():
    gc.collect()
    return gc.mem_alloc()

cable = [None]                      # the link port's, once made
r = Rig(link_port=lambda: cable[0])
r.settle()
# the match's screens, which the device imports at boot (firmware.pico.pico,
# firmware.app.MATCH_SCREENS), and the fake cable's code, before the start
import firmware.screens.play, firmware.screens.showdown, firmware.screens.result
import firmware.screens.match_end
if MODE != "cpu":
    from tools.link import fakelink
a0 = alloc()
before = set(sys.modules)
if MODE == "cpu":
    r.press(btn.A)                  # NEW MATCH
    r.settle()
    print("cpu_table|%d" % (alloc() - a0))
    raise SystemExit
import firmware.link.linkmatch, firmware.screens.link, firmware.screens.link_play
a1 = alloc()
print("code|%d" % (a1 - a0))
from tools.link import fakelink
from firmware.link.link import Link
from engine import linkdeal
import engine
class Clock:
    def __init__(self, r):
        self.r = r
    @property
    def t(self):
        return self.r.t
    def __call__(self):
        return self.r.t
clk = Clock(r)
ab = fakelink.Wire(clk, fakelink.Rand(1), 0)
ba = fakelink.Wire(clk, fakelink.Rand(2), 0)
mine = fakelink.Port(ab, ba)
theirs = fakelink.Port(ba, ab)
peer_cost = [0]
class Peer:
    def __init__(self):
        b = alloc()
        self.link = Link(theirs, clk, fakelink.entropy(7), engine.version.VERSION,
                         r.app.settings.match_rules().text())
        self.role = None
        self.match = None
        peer_cost[0] += alloc() - b
    def step(self):
        l = self.link
        l.poll()
        if l.linked() and self.role is None:
            b = alloc()
            self.role = 0 if l.leader() else 1
            self.deal = linkdeal.Deal(self.role, bytes(range(16)))
            l.send(b"C" + bytes((self.role,)) + self.deal.commitment())
            peer_cost[0] += alloc() - b
        m = l.recv()
        if m is not None and m[:1] == b"C":
            self.deal.take_commitment(m[2:])
            l.send(b"S" + self.deal.reveal())
        elif m is not None and m[:1] == b"S":
            self.deal.take_reveal(m[1:])
            b = alloc()
            self.match = engine.Match(r.app.settings.match_rules(), 0, secret=self.deal.secret(),
                                      mirror=self.role == 1)
            peer_cost[0] += alloc() - b
peer = Peer()
a2 = alloc()
cable[0] = mine
r.app.screen._link()
for i in range(2000):
    r.run(5)
    peer.step()
    if r.app.screen_name == "link_play":
        break
r.run(100)
peer.step()
a3 = alloc()
print("screen|%s" % r.app.screen_name)
print("peer|%d" % peer_cost[0])
print("link_table|%d" % (a3 - a0 - peer_cost[0]))
r.app.go("title")
r.run(50)
del peer, Peer, Link, linkdeal, ab, ba, mine, theirs, clk, Clock
cable[0] = None
a4 = alloc()
print("unloaded|%d" % int("firmware.link.link" not in sys.modules and "firmware.link.linkmatch" not in sys.modules))
print("title_after|%d" % (a4 - a0))
print("stayed|%s" % " ".join(sorted(set(sys.modules) - before)))
'''


def run(bundle, mode):
    import subprocess

    script = ("import sys\nsys.path[:] = [%r, %r]\nMODE = %r\n" % (bundle, ROOT, mode)
              + SCENARIO + LINK)
    fd, path = tempfile.mkstemp(suffix=".py")
    with os.fdopen(fd, "w") as f:
        f.write(script)
    try:
        r = subprocess.run([micropython_path(), "-X", "heapsize=4M", path], capture_output=True,
                           text=True, cwd=bundle, timeout=600)
    finally:
        os.unlink(path)
    if r.returncode:
        raise SystemExit("micropython failed:\n%s%s" % (r.stdout, r.stderr))
    return dict(ln.split("|") for ln in r.stdout.splitlines() if "|" in ln)


def main():
    with tempfile.TemporaryDirectory() as out:
        deploy.build(out, quiet=True)
        cpu = run(out, "cpu")
        link = run(out, "link")
    print("heap over the title, MicroPython unix port, .mpy bundle (gc.mem_alloc after gc.collect):")
    print("  the link's code (linkmatch, link, linkframe, linkdeal, two screens): %s bytes"
          % link["code"])
    print("  at the table of a link match (code, link, deal, match; the scripted board's "
          "%s bytes taken out): %s bytes" % (link["peer"], link["link_table"]))
    print("  at the table of a match against the CPU: %s bytes" % cpu["cpu_table"])
    print("  back at the title after the link match: %s bytes (link modules unloaded: %s; "
          "modules that stay: %s)" % (link["title_after"], "yes" if link["unloaded"] == "1" else "no",
                                      link["stayed"] or "none"))


if __name__ == "__main__":
    main()
