"""Two Apps in one process, joined by tools/link/fakelink.py's cable, each
played by a scripted player pressing its buttons (the simple policy of
host_tests/ui/ui_driver.py choosing for each board's player).

    p = Pair(seed, rate=300, kinds=("drop",), restarts=2, cable_cut=True)
    p.play()            # both boards play a whole link match (Hung if not)
    judge(p)            # {"same": ..., "lost": ..., "twice": ...}

    python host_tests/firmware/kit/linkpair.py --matches 3    # every fault kind, counted

One shared clock; both boards step in turn every STEP_MS. A restart is a
power cut: the board's App is gone, its storage keeps what was saved, and
it boots (deaf and mute, its receive line flushed) for 0.7-1.5 s before a
new App chooses LINK from the title again and takes the link match up.
"""

from firmware import buttons as btn
from firmware.link import link as lk
from firmware.screens.play_modes import M_DRAW, M_DISCARD, O_NONE
from tools.link import fakelink
from tools.kit.memstorage import MemStorage
from tools.sim.simulator import Sim, TAP_MS, store_settings
from tools.kit.ui_driver import presses_for, simple_choice, simple_factory

STEP_MS = 5
KEYS = {"L": btn.LEFT, "R": btn.RIGHT, "U": btn.UP, "D": btn.DOWN, "A": btn.A, "B": btn.B}


class Hung(Exception):
    pass


def link_of(app):
    """The App's link match (its session, firmware/link/linkmatch.py), or None
    while none is on."""
    s = app.session
    return s if s.kind == "link" else None


class Side:
    def __init__(self, pair, i):
        self.pair = pair
        self.i = i
        self.storage = MemStorage()
        if pair.settings:
            store_settings(self.storage, settings=pair.settings)
        self.boots = 0
        self.sim = None
        self.keys = []
        self.key_t = 0
        self.down = False
        self.boot_until = None
        self.boot()

    def boot(self):
        p = self.pair
        self.boots += 1
        if p.sockets:
            # as two `make play` terminals: tools/sim/simulator.py --link
            from tools.sim.simulator import link_to

            link_port = link_to(p.sockets)
            self.port = link_port()
        else:
            link_port = lambda: p.ports[self.i]  # noqa: E731
        self.sim = Sim(seed=1 + self.i, storage=self.storage, clock=p.clock,
                       player_factory=simple_factory,
                       entropy=fakelink.entropy(p.seed * 100 + self.i * 10 + self.boots),
                       link_port=link_port)
        self.keys = []
        self.down = False

    def power_cut(self):
        if self.pair.sockets:
            self.port.close()         # the terminal closed
        self.sim = None
        self.boot_until = self.pair.clock.t + 700 + self.pair.rand.below(800)

    def step(self):
        p = self.pair
        if self.sim is None:
            if not p.sockets:
                p.ports[self.i].rx.flush()
            if p.clock.t < self.boot_until:
                return
            self.boot()
        self._keys()
        self.sim.step()
        if not self.keys and not self.down and p.clock.t - self.key_t >= 120:
            self._decide()

    def _keys(self):
        """One key at a time: held TAP_MS, then released 20 ms."""
        t = self.pair.clock.t
        if self.down:
            if t - self.key_t >= TAP_MS:
                self.sim.mask = 0
                self.down = False
                self.key_t = t
            return
        if self.keys and t - self.key_t >= 20:
            self.sim.mask = KEYS[self.keys.pop(0)]
            self.down = True
            self.key_t = t

    def _decide(self):
        app = self.sim.app
        name = app.screen_name
        if name == "title":
            if link_of(app) is None and not self.pair.finished[self.i]:
                t = app.screen
                k = t.keys.index("link")
                self.keys = ["D"] * ((k - t.menu.sel) % len(t.keys)) + ["A"]
        elif name == "message":
            self.keys = ["A"]
        elif name == "link_play":
            s = app.screen
            m = app.match
            if s.overlay != O_NONE:
                self.keys = ["A"]
            elif m.to_move == 0 and s.mode in (M_DRAW, M_DISCARD):
                self.keys = presses_for(self.sim, simple_choice(m.view(0)))
        elif name in ("showdown", "result"):
            self.keys = ["A"]
        elif name == "match_end":
            p = self.pair
            if not p.finished[self.i]:
                p.finished[self.i] = True
                p.final[self.i] = (app.match, app.stats)
        elif name == "link":
            pass                       # the boards find each other by themselves


class Pair:
    def __init__(self, seed, rate=0, kinds=fakelink.KINDS, restarts=0, cable_cut=False,
                 max_ms=3600000, sockets=None, settings=None):
        self.seed = seed
        self.settings = settings      # {field: value} both boards' settings start with
        self.sockets = sockets        # a port number: the simulators' local socket instead
        self.clock = fakelink.Clock()
        self.rand = fakelink.Rand(seed)
        self.ab = fakelink.Wire(self.clock, fakelink.Rand(seed + 1), rate, kinds)
        self.ba = fakelink.Wire(self.clock, fakelink.Rand(seed + 2), rate, kinds)
        self.ports = [fakelink.Port(self.ab, self.ba), fakelink.Port(self.ba, self.ab)]
        self.finished = [False, False]
        self.final = [None, None]
        self.restarts = restarts
        self.cable_cut = cable_cut
        self.max_ms = max_ms
        self.sides = [Side(self, 0), Side(self, 1)]
        self.cuts = 0
        self.boots = 0

    def play(self):
        start = self.clock.t
        # when the faults that are not per frame come (ms after the start;
        # a whole match takes about a minute)
        restart_at = sorted(3000 + self.rand.below(45000) for _ in range(self.restarts))
        cut_at = 5000 + self.rand.below(40000) if self.cable_cut else None
        cut_end = None
        while not all(self.finished):
            el = self.clock.t - start
            if el > self.max_ms:
                raise Hung(self.where())
            if restart_at and el >= restart_at[0]:
                restart_at.pop(0)
                side = self.sides[self.rand.below(2)]
                if side.sim is not None and not self.finished[side.i]:
                    side.power_cut()
                    self.boots += 1
            if cut_at is not None and el >= cut_at:
                cut_at = None
                self.ab.cut_cable(True)
                self.ba.cut_cable(True)
                cut_end = el + 4000 + self.rand.below(6000)
                self.cuts += 1
            if cut_end is not None and el >= cut_end:
                cut_end = None
                self.ab.cut_cable(False)
                self.ba.cut_cable(False)
            for s in self.sides:
                s.step()
                self._check(s)
            self.clock.advance(STEP_MS)
        return self

    def _check(self, s):
        app = s.sim.app if s.sim is not None else None
        g = link_of(app) if app is not None else None
        if g is not None and g.stopped is not None:
            raise AssertionError("board %d stopped: %s (%s)" % (s.i, g.stopped, self.where()))

    def where(self):
        out = []
        for s in self.sides:
            a = s.sim.app if s.sim is not None else None
            if a is None:
                out.append("booting")
                continue
            m = a.match
            g = link_of(a)
            out.append("%s %s moves %s link %s" % (
                a.screen_name, m.phase if m is not None else None,
                g.turns if g is not None else None,
                lk.Link.words(g.link) if g is not None else None))
        return " | ".join(out)


def judge(p):
    """Both boards' final match and statistics: the same match (the same
    moves, each board's seat 0 its own player: mirrored scores), each hand
    counted once in each board's link statistics, nothing lost."""
    (ma, sa), (mb, sb) = p.final
    from firmware.link.linkmatch import moves_of

    same = (moves_of(ma) == moves_of(mb) and ma.scores == mb.scores[::-1]
            and ma.winner == 1 - mb.winner and len(ma.results) == len(mb.results))
    hands = len(ma.results)
    lost = max(0, hands - sa.hands) + max(0, hands - sb.hands) + (sa.matches < 1) + (sb.matches < 1)
    twice = max(0, sa.hands - hands) + max(0, sb.hands - hands) + (sa.matches > 1) + (sb.matches > 1)
    return {"same": same, "lost": lost, "twice": twice, "hands": hands,
            "moves": len(moves_of(ma))}


CAMPAIGNS = (
    ("none", {}),
    ("drop", {"rate": 300, "kinds": ("drop",)}),
    ("corrupt", {"rate": 300, "kinds": ("corrupt",)}),
    ("dup", {"rate": 300, "kinds": ("dup",)}),
    ("delay", {"rate": 300, "kinds": ("delay",)}),
    ("reorder", {"rate": 300, "kinds": ("reorder",)}),
    ("garbage", {"rate": 300, "kinds": ("garbage",)}),
    ("cut", {"rate": 300, "kinds": ("cut",)}),
    ("cable cut", {"cable_cut": True}),
    ("restart", {"restarts": 3}),
    ("all at once", {"rate": 300, "cable_cut": True, "restarts": 3}),
)


def campaign(matches, names=None, out=print):
    total = {"same": 0, "lost": 0, "twice": 0, "hung": 0, "matches": 0}
    for name, kw in CAMPAIGNS:
        if names and name not in names:
            continue
        row = {"same": 0, "lost": 0, "twice": 0, "hung": 0, "hands": 0, "moves": 0,
               "faults": 0, "boots": 0, "cuts": 0}
        for k in range(matches):
            p = Pair(1000 + k, **kw)
            try:
                p.play()
            except Hung:
                row["hung"] += 1
                continue
            j = judge(p)
            row["same"] += j["same"]
            for f in ("lost", "twice", "hands", "moves"):
                row[f] += j[f]
            row["faults"] += sum(v for k2, v in p.ab.faults.items() if k2 != "cable") + \
                sum(v for k2, v in p.ba.faults.items() if k2 != "cable")
            row["boots"] += p.boots
            row["cuts"] += p.cuts
        out("%-12s %d matches: %d same final state, %d lost, %d counted twice, %d hung "
            "(%d hands, %d moves; %d frame faults, %d restarts, %d cable cuts)" % (
                name, matches, row["same"], row["lost"], row["twice"], row["hung"],
                row["hands"], row["moves"], row["faults"], row["boots"], row["cuts"]))
        for f in ("same", "lost", "twice", "hung"):
            total[f] += row[f]
        total["matches"] += matches
    out("total: %d matches, %d same final state, %d lost, %d counted twice, %d hung" % (
        total["matches"], total["same"], total["lost"], total["twice"], total["hung"]))
    return total


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--only", action="append")
    a = ap.parse_args()
    campaign(a.matches, a.only)
