"""A hand's start, the match end and the free heap, two builds side by
side in one run on the emulated Pico: what the cut and the seal cost the
device (firmware/cutwait.py, engine/cut.py).

    .venv/bin/python -m tools.pico.cut_times --before-root DIR [--before-uf2 UF2]
        [--after-uf2 UF2] [--matches 1] [--builds frozen,mpy]

For the frozen .uf2 of each tree the board boots into the game (the free
heap at the title, as the game prints it), then plays --matches whole
matches in the real App with the board's entropy
(tools/pico/onboard/aibench.py: the hard AI against a human seat that
takes no heap, the cut AAAA given where the tree asks for one): a hand's
start (A on a hand result, from its release, to the end of the next
hand's first frame), the match end (the last hand's A to the match end's
first frame) and the free heap with a match in progress
(ai_times.heap_line). For the .mpy bundle of each tree on the stock
firmware (whose heap has no room for the bench beside a match with a
committed deal) the game runs alone and one match is played from the
host through the panel (game_heap): the free heap at the title and after
a collection at each screen a match passes through. --before-root is the tree to
compare with (its bundle; its frozen build is --before-uf2, default
DIR/build/gin-rummy-pico.uf2); the after tree is this checkout.
"""

import argparse
import copy
import os
import re
import sys

from tools.pico import ai_times, figures, session
from tools.pico import harness as h


def title_heap(a):
    files = h.board_files(a.root, bundle=not a.frozen, main=True)
    with h.Pico(a.firmware, a.bootrom, h.fs_image(files)) as p:
        return figures.boot(p)


# Before /main.py (the game's own): after every screen change, a collection
# and the free heap, printed (a few hundred bytes of the heap, the same in
# both trees).
HOOK = r'''
import gc
from firmware import app as _app
_go = _app.App.go
def _watch(self, name, **kw):
    _go(self, name, **kw)
    gc.collect()
    print("@gc %s %d" % (self.screen_name, gc.mem_free()))
_app.App.go = _watch
'''


def game_heap(a):
    """The .mpy bundle of a.root, the game alone (no bench on the board):
    its free heap at the title, then one whole match against the CPU
    (normal level, fast AI speed) played from the host reading the panel
    (tools/pico/two_picos.py's Player), the cut given where asked: the
    least free heap after a collection at a hand's start (the table's
    first entry) and at a hand's end (the result), and at the match end."""
    from firmware.settings import Settings
    from firmware.saves.storage import pack
    from tools.pico import two_picos as lp

    files = h.board_files(a.root, bundle=True, main=True)
    with open(os.path.join(a.root, "firmware", "main.py")) as f:
        files["/main.py"] = (HOOK + f.read()).encode()
    st = Settings()
    st.speed = "fast"
    files["/data/settings.dat"] = bytes(pack(st.encode()))
    with lp.Single(a.firmware, a.bootrom, h.fs_image(files)) as p:
        p.run_until_text("Game running", 60000)
        player = lp.Player(p, entry="NEW MATCH")

        def over(pl):
            return pl[0].final is not None or "OUT OF MEMORY" in lp.screen(p)

        lp.play([player], p.run, until=over, limit_s=3600)
        p.run(500)
        out = p.output()
    if "OUT OF MEMORY" in out or "MemoryError" in out:
        print("  the board's last lines:\n    " + "\n    ".join(out.splitlines()[-25:]))
    m = re.search(r"free memory (\d+) bytes", out)
    seen = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[0] == "@gc":
            seen.setdefault(f[1], []).append(int(f[2]))
    return int(m.group(1)) if m else None, seen, "MemoryError" in out


def one_mpy(a, label):
    session.check(a)
    free, seen, oom = game_heap(a)
    print("%s (%s), the game alone:" % (label, session.label(a)))
    print("  free heap at the title %s B (the game's own line)" % free)
    for name in ("title", "cut", "play", "result", "seal", "match_end"):
        xs = seen.get(name)
        if xs:
            print("  after a collection on entering %s: least %d B, last %d B (n=%d)"
                  % (name, min(xs), xs[-1], len(xs)))
    if oom:
        print("  (ran out of memory during the match)")
    sys.stdout.flush()


def one(a, label):
    session.check(a)
    boot_ms, free = title_heap(a)
    r = ai_times.run_level(a, "hard")
    print("%s (%s):" % (label, session.label(a)))
    print("  free heap at the title %s B; boot to the title %.0f ms" % (free, boot_ms))
    print("  " + ai_times.heap_line(r))
    print("  " + ai_times.lat_line(r))
    sys.stdout.flush()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    session.add_arguments(ap)
    ap.add_argument("--before-root", required=True)
    ap.add_argument("--before-uf2", default=None)
    ap.add_argument("--after-uf2", default=session.FROZEN_UF2)
    ap.add_argument("--matches", type=int, default=1)
    ap.add_argument("--builds", default="frozen,mpy")
    ap.add_argument("--trees", default="before,after",
                    help="which of the two trees (a run of one: before or after)")
    a = ap.parse_args(argv)
    a.levels, a.seed, a.human, a.slow_ms = "hard", 1, "greedy", 10 ** 6
    a.squeeze, a.deep, a.last_target = 0, False, 0
    a.entropy = True            # matches as the board makes them (aibench)
    stock = a.firmware
    before = os.path.abspath(a.before_root)
    before_uf2 = a.before_uf2 or os.path.join(before, "build", "gin-rummy-pico.uf2")
    print("A hand's start and the match end on an emulated Pico (emulated time; a real "
          "Pico is 10-40%% slower), hard AI against a greedy human seat, %d match(es) a build"
          % a.matches)
    for kind in a.builds.split(","):
        for name, root, uf2 in (("before", before, before_uf2),
                                ("after", session.ROOT, a.after_uf2)):
            if name not in a.trees.split(","):
                continue
            b = copy.copy(a)
            b.firmware = stock
            b.root = root
            b.frozen = uf2 if kind == "frozen" else None
            if kind == "frozen":
                one(b, "%s, %s" % (name, kind))
            else:
                one_mpy(b, "%s, %s" % (name, kind))
    return 0


if __name__ == "__main__":
    sys.exit(main())
