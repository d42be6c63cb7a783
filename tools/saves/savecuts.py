"""The saves' cut campaign: a real session's saves, a power cut at every
step of each, on every storage the game runs on.

    ops, truth = record_session(seed=3, matches=2)
    result = files_campaign(ops, truth, "littlefs")    # or "prefix", "emptied"
    result = kv_campaign(ops, truth)                   # the browser's localStorage
    result = nvm_campaign(ops, truth, backup=True)     # CircuitPython's nvm

record_session plays whole matches through the App (tools/sim/simulator.Sim:
the real firmware, the human's moves pressed as buttons) and records every
save and remove the App makes, in order, with what each name holds after
it. A campaign then makes those saves on the storage under test; for each
one it counts its steps (tools/saves/cutsim.py, and the CircuitPython fakes'
FakeNvm: an erase or a byte programmed), cuts the power before every step
and at the end, restarts (a new Storage on what survived) and compares what
loads with what the App had committed:

- ok: the state before the save or after it, for every name;
- older: a state from before the last completed turn (said or not);
- lost: nothing (or not the truth) where the truth had a save;
- silent: an older or lost state with no message for the player;
- double: statistics that count a hand the loaded match has not played
  (a turn played again after the restart would count it twice).

The figures are tools/bench/bench_saves.py's; host_tests/firmware/saves/test_save_cuts.py
runs the same campaigns on shorter sessions and asserts 0 silent, 0 older
than the save before, 0 double.
"""

import copy
import os
import sys


GAME = "game"
NAMES = ("settings", GAME)
DATA = "/data"


class Recording:
    """A MemStorage that records every save and remove in order."""

    def __init__(self):
        from tools.sim.simulator import MemStorage

        self.mem = MemStorage()
        self.ops = []
        self.outcome = self.mem.outcome
        self.kept = self.mem.kept
        self.damage = self.mem.damage

    def load(self, name, decode=None):
        return self.mem.load(name, decode)

    def save(self, name, payload):
        if self.mem.files.get(name) == bytes(payload):
            return False
        self.ops.append(("save", name, bytes(payload)))
        return self.mem.save(name, payload)

    def remove(self, name):
        if name in self.mem.files:
            self.ops.append(("remove", name, None))
        self.mem.remove(name)


def record_session(seed=3, matches=1, target=100, level=None, reset_stats=True):
    """(ops, truth): the saves of `matches` whole matches played through the
    App (with a settings change first and, when `reset_stats`, a reset of
    the statistics between matches); truth[i] = {name: payload} after op i
    (truth[-1] entry at index 0 is the state before any op: empty)."""
    from tools.sim.simulator import Sim
    from tools.kit.ui_driver import play_turn, simple_factory

    rec = Recording()
    factory = simple_factory if level is None else None
    sim = Sim(seed=seed, storage=rec, player_factory=factory, level=level,
              settings={"speed": "fast", "target": target})
    for n in range(matches):
        sim.settle()
        sim.press("A")                    # NEW MATCH
        while sim.screen != "match_end":
            if sim.screen == "play":
                play_turn(sim)
            else:
                sim.press("A")
        sim.press("A")
        sim.settle()
        if reset_stats and n == 0 and matches > 1:
            sim.app.session.reset_stats()
    truth = [{}]
    cur = {}
    for op, name, payload in rec.ops:
        cur = dict(cur)
        if op == "save":
            cur[name] = payload
        else:
            cur.pop(name, None)
        truth.append(cur)
    return rec.ops, truth


class Tally:
    def __init__(self, storage):
        self.storage = storage
        self.points = 0          # cut points tried
        self.ops = 0             # saves cut into
        self.ok = 0
        self.older = 0
        self.lost = 0
        self.silent = 0
        self.detected = 0        # older or lost, with a message
        self.alarms = 0          # a message with nothing lost (it may have been)
        self.double = 0
        self.blank = 0           # nvm: a blank sector after a cut (looks new)
        self.by_file = {}        # name saved -> cut points
        self.examples = []

    def files(self):
        return ", ".join("%s %d" % (n, self.by_file[n]) for n in sorted(self.by_file))

    def line(self):
        return ("%-34s %7d cut points in %4d saves: ok %d (of them said, as nothing may be "
                "lost: %d), silent losses %d, double counts %d, older than the last turn %d, "
                "lost and said %d" % (
                    self.storage, self.points, self.ops, self.ok, self.alarms, self.silent,
                    self.double, self.older, self.detected))


def _hands(stats):
    from firmware.stats import Stats

    try:
        return Stats.decode(stats).hands
    except ValueError:
        return -1


class Truth:
    """The committed states, indexed for judging: truth[i] before op i."""

    def __init__(self, truth):
        from firmware.saves import gamesave

        self.states = truth
        self.seen = []            # {name: {payload: first index}}
        self.by_match = {}        # match bytes -> [(index, hands counted)]
        first = {}
        for j, t in enumerate(truth):
            for name, v in t.items():
                first.setdefault((name, v), j)
            g = t.get(GAME)
            if g is not None:
                stats, match = gamesave.split(g)
                self.by_match.setdefault(match, []).append((j, _hands(stats)))
        self.first = first

    def older(self, name, payload, i):
        j = self.first.get((name, payload))
        return j is not None and j < i

    def hands_at(self, match, i):
        """Hands counted by the newest commit up to i + 1 with this match."""
        best = None
        for j, h in self.by_match.get(match, ()):
            if j <= i + 1:
                best = h
        return best


def judge(tally, got, msgs, truth, i):
    """Compare what loaded after a cut in op i with the truth (a Truth)
    before and after it."""
    from firmware.saves import gamesave

    tally.points += 1
    before, after = truth.states[i], truth.states[i + 1]
    bad = False
    older = False
    for name in NAMES:
        g = got.get(name)
        if g == before.get(name) or g == after.get(name):
            continue
        bad = True
        if g is not None and truth.older(name, g, i):
            older = True
    g = got.get(GAME)
    if g is not None and g != before.get(GAME) and g != after.get(GAME):
        try:
            stats, match = gamesave.split(g)
        except ValueError:
            stats, match = None, None
        if stats is not None:
            # the commit whose match this is: do the statistics count more?
            h = truth.hands_at(match, i)
            if h is not None and _hands(stats) > h:
                tally.double += 1
    if not bad:
        tally.ok += 1
        if any(msgs):
            tally.alarms += 1
        return
    if older:
        tally.older += 1
    else:
        tally.lost += 1
    if any(msgs):
        tally.detected += 1
    else:
        tally.silent += 1
        if len(tally.examples) < 5:
            tally.examples.append((i, {n: (got.get(n) or b"")[:12] for n in NAMES}))


# -- the campaign's loop, and the media --------------------------------------

def _apply(st, op):
    kind, name, payload = op
    if kind == "save":
        st.save(name, payload)
    else:
        st.remove(name)


def _loaded(st):
    """({name: payload}, [message, ...]) of a start on storage `st`."""
    got = {}
    msgs = []
    for name in NAMES:
        v, m = st.load(name)
        if v is not None:
            got[name] = v
        msgs.append(m)
    return got, msgs


def _run(tally, medium, ops, truth, every=1):
    """Make every save on `medium`, cut before each of its steps (every
    `every`-th) and at its end; judge each restart."""
    from tools.saves.cutsim import Power

    cuts = medium.cuts
    tj = Truth(truth)
    cache = {}
    for i, op in enumerate(ops):
        power = Power()
        _apply(medium.start(i, truth, power), op)
        total = power.steps
        tally.ops += 1
        tally.by_file[op[1]] = tally.by_file.get(op[1], 0) + total // every + 1
        for k in range(0, total + 1, every):
            st = medium.start(i, truth, Power(k))
            try:
                _apply(st, op)
            except cuts:
                pass
            key = medium.survived()
            if key not in cache:
                cache[key] = medium.boot(key)
            got, msgs, blank = cache[key]
            silent = tally.silent
            judge(tally, got, msgs, tj, i)
            if blank and tally.silent > silent:
                tally.blank += 1
        medium.commit(op, i, truth)
    return tally


class _Files:
    """Storage (firmware/saves/storage.py) on a FaultFS."""

    def __init__(self, model):
        from tools.saves.cutsim import FaultFS, PowerCut

        self.cuts = PowerCut
        self.kw = {"littlefs": model == "littlefs", "emptied": model == "emptied"}
        self.base = FaultFS(dirs=[DATA], **self.kw)

    def _storage(self, fs, truth, i):
        from firmware.saves.storage import Storage

        st = Storage(DATA, fs)
        st._last = dict(truth[i])      # what a start loads: the committed saves
        return st

    def start(self, i, truth, power):
        self.live = self.base.copy()
        self.live.power = power
        return self._storage(self.live, truth, i)

    def survived(self):
        after = self.live.copy()
        return tuple(sorted((p, bytes(v)) for p, v in after.files.items()))

    def boot(self, key):
        from firmware.saves.storage import Storage
        from tools.saves.cutsim import FaultFS

        got, msgs = _loaded(Storage(DATA, FaultFS(dict(key), [DATA], **self.kw)))
        return got, msgs, False

    def commit(self, op, i, truth):
        _apply(self._storage(self.base, truth, i), op)


class _Kv:
    """Storage on web/webport.KvFs over a CutKv; a start is a new
    page: an empty filesystem restored from the store."""

    def __init__(self):
        from tools.saves.cutsim import CutKv, PowerCut

        self.cuts = PowerCut
        self.base = CutKv()

    @staticmethod
    def _storage(kv):
        from firmware.saves.storage import Storage
        from tools.saves.cutsim import FaultFS
        from web.webport import KvFs

        fs = KvFs(kv, DATA, "gin-rummy/", fs=FaultFS(dirs=[DATA]))
        fs.restore()
        st = Storage(DATA, fs)
        _loaded(st)
        return st

    def start(self, i, truth, power):
        self.live = self.base.copy()
        st = self._storage(self.live)
        self.live.power = power
        return st

    def survived(self):
        return tuple(sorted(self.live.items.items()))

    def boot(self, key):
        from tools.saves.cutsim import CutKv

        got, msgs = _loaded(self._storage(CutKv(dict(key))))
        return got, msgs, False

    def commit(self, op, i, truth):
        _apply(self._storage(self.base), op)


class _Nvm:
    """cpnvm.NvmStorage on the FakeNvm (and the backup file on a FaultFS)."""

    def __init__(self, backup):
        from tools.saves.cutsim import FaultFS, PowerCut

        self.micro, self.cpnvm = _cp_modules()
        self.cuts = (PowerCut, self.micro.PowerCut)
        self.nvm = self.micro.FakeNvm()
        self.fs = FaultFS() if backup else None    # FAT: a cut file keeps its bytes so far
        self.booted = None
        self.erases = 0

    def _storage(self, nvm, fs):
        backup = self.cpnvm.FileBackup("/saves-backup.bin", fs) if fs is not None else None
        return self.cpnvm.NvmStorage(nvm, backup)

    def start(self, i, truth, power):
        self.live = (self.micro.FakeNvm(data=self.nvm.image()),
                     self.fs.copy() if self.fs is not None else None)
        st = self._storage(*self.live)
        if self.booted is None:
            _loaded(st)
            self.booted = copy.copy(st.im)
        st.im = copy.copy(self.booted)         # what a start reads
        for m in self.live:
            if m is not None:
                m.power = power
        return st

    def survived(self):
        nvm, fs = self.live
        files = tuple(sorted((p, bytes(v)) for p, v in fs.copy().files.items())) if fs else None
        return (nvm.image(), files)

    def boot(self, key):
        from tools.saves.cutsim import FaultFS

        img, files = key
        fs = FaultFS(dict(files)) if files is not None else None
        got, msgs = _loaded(self._storage(self.micro.FakeNvm(data=img), fs))
        return got, msgs, img == b"\xff" * len(img)

    def commit(self, op, i, truth):
        nvm = self.micro.FakeNvm(data=self.nvm.image())
        st = self._storage(nvm, self.fs)
        _loaded(st)
        _apply(st, op)
        self.erases += nvm.erases
        self.nvm = nvm
        self.booted = None


# -- a full flash ---------------------------------------------------------------

class FullTally(Tally):
    """A full-flash campaign's figures: every save that raised (the App
    says it at once: FLASH FULL / SAVE FAILED) is `refused`; a restart is
    judged against the state the storage last committed (the last save
    that returned), which it must give exactly."""

    def __init__(self, storage):
        super().__init__(storage)
        self.refused = 0
        self.attempts = 0

    def line(self):
        return ("%-34s %7d fill points in %4d saves (%d saves refused, said): ok %d, silent "
                "losses %d, double counts %d, older than the last save %d, lost and said %d" % (
                    self.storage, self.points, self.ops, self.refused, self.ok, self.silent,
                    self.double, self.older, self.detected))


def judge_full(tally, got, msgs, truth, c):
    """What loaded after saves on a full flash, against truth.states[c]:
    the state of the last save that went through."""
    tally.points += 1
    want = truth.states[c]
    bad = older = False
    for name in NAMES:
        g = got.get(name)
        if g == want.get(name):
            continue
        bad = True
        if g is not None and truth.older(name, g, c):
            older = True
    g = got.get(GAME)
    if g is not None and g != want.get(GAME):
        from firmware.saves import gamesave

        try:
            stats, match = gamesave.split(g)
            h = truth.hands_at(match, c - 1)
            if h is not None and _hands(stats) > h:
                tally.double += 1
        except ValueError:
            pass
    if not bad:
        tally.ok += 1
        return
    if older:
        tally.older += 1
    else:
        tally.lost += 1
    if any(msgs):
        tally.detected += 1
    else:
        tally.silent += 1
        if len(tally.examples) < 5:
            tally.examples.append((c, {n: (got.get(n) or b"")[:12] for n in NAMES}))


def _run_full(tally, medium, ops, truth, mode, retries):
    """For each save i: fill the flash (mode "full": before its first
    step; "fills": before each of its steps in turn, and after its last),
    make it and the `retries` saves after it (the next turns try again,
    the flash still full), restart on what is left and judge it."""
    tj = Truth(truth)
    for i, op in enumerate(ops):
        total = medium.steps(op, i, truth)
        tally.ops += 1
        points = [0] if mode == "full" else range(0, total + 1)
        tally.by_file[op[1]] = tally.by_file.get(op[1], 0) + len(points)
        for k in points:
            st = medium.start(i, truth, k)
            committed = i
            for j in range(i, min(i + 1 + retries, len(ops))):
                tally.attempts += 1
                try:
                    _apply(st, ops[j])
                    committed = j + 1
                except OSError:
                    tally.refused += 1
            got, msgs = medium.boot()
            judge_full(tally, got, msgs, tj, committed)
        medium.commit(op, i, truth)
    return tally


class _FullFiles(_Files):
    def steps(self, op, i, truth):
        fs = self.base.copy()
        _apply(self._storage(fs, truth, i), op)
        return fs.steps

    def start(self, i, truth, k):
        self.live = self.base.copy()
        self.live.full_from = k
        self.live.full_renames = True
        return self._storage(self.live, truth, i)

    def boot(self):
        from firmware.saves.storage import Storage

        return _loaded(Storage(DATA, self.live.copy()))


class _FullNvm(_Nvm):
    """The nvm with the CIRCUITPY drive (the backup file) filling up."""

    def __init__(self):
        super().__init__(True)

    def steps(self, op, i, truth):
        st = _Nvm.start(self, i, truth, None)
        _apply(st, op)
        return self.live[1].steps

    def start(self, i, truth, k):
        st = _Nvm.start(self, i, truth, None)
        self.live[1].full_from = k
        return st

    def boot(self):
        from tools.saves.cutsim import FaultFS

        nvm, fs = self.live
        return _loaded(self._storage(self.micro.FakeNvm(data=nvm.image()),
                                     FaultFS(dict(fs.files))))


def full_campaign(ops, truth, medium="littlefs", mode="fills"):
    """The saves on a flash that is full (mode "full": from before each
    save, and for the next two, every write refused with ENOSPC) or that
    fills in the middle of a save (mode "fills": at each of its steps in
    turn, every write from there on refused, renames too; the next save
    tried again on it). `medium`: "prefix", "littlefs", "emptied" (the
    firmware's Storage on a FaultFS, a file whose write failed left as
    that model says) or "nvm" (CircuitPython: the drive that holds the
    backup file fills; the sector itself cannot)."""
    what = "flash full" if mode == "full" else "flash fills mid-save"
    if medium == "nvm":
        tally = FullTally("CircuitPython nvm, drive %s" % ("full" if mode == "full"
                                                           else "fills mid-save"))
        m = _FullNvm()
    else:
        tally = FullTally("files (%s), %s" % (medium, what))
        m = _FullFiles(medium)
    return _run_full(tally, m, ops, truth, mode, 2 if mode == "full" else 1)


def files_campaign(ops, truth, model="littlefs", every=1):
    """Storage (firmware/saves/storage.py) on a FaultFS: `model` "prefix" (a cut
    file keeps its bytes so far), "littlefs" (it reverts), "emptied"."""
    return _run(Tally("files (%s)" % model), _Files(model), ops, truth, every)


def kv_campaign(ops, truth):
    """Storage on web/webport.KvFs: every file mirrored into the
    browser's localStorage, each setItem or removeItem atomic; a restart
    is a new page (an empty filesystem restored from the store)."""
    return _run(Tally("browser localStorage"), _Kv(), ops, truth)


def _cp_modules():
    from tools.kit import cpenv

    cpenv.install()
    import microcontroller
    import cpnvm

    return microcontroller, cpnvm


def nvm_campaign(ops, truth, backup=True, every=1):
    """cpnvm.NvmStorage on the RP2040 nvm model (erase then 16 page
    programs for any write into bytes not erased), with the backup file on
    the CIRCUITPY drive when `backup` (boot.py made it writable; a file cut
    while written keeps its bytes so far) or none. `blank` counts the
    silent losses that are a blank sector: a cut exactly between the
    erase and the first byte programmed, which no one can tell from a new
    board without the file."""
    medium = _Nvm(backup)
    tally = Tally("CircuitPython nvm (%s)" % ("backup file" if backup else "no backup file"))
    _run(tally, medium, ops, truth, every)
    tally.erases = medium.erases
    return tally


def nvm_wear(matches=20, target=100, seed=5, levels=("hard", "normal")):
    """(hands, erases, largest game save) of AI-only matches saved as the
    App saves them (a game save after every completed turn, one at each
    hand's end with the statistics, one when the next hand is dealt and
    when a match starts; the settings once) into the nvm model."""
    micro, cpnvm = _cp_modules()
    import random

    import engine
    from engine.ai import Player
    from engine.hand import DISCARD, PASS
    from firmware.saves import gamesave
    from firmware.settings import Settings
    from firmware.stats import Stats
    from tools.kit.play import play_out, players_choose

    nvm = micro.FakeNvm()
    st = cpnvm.NvmStorage(nvm, None)
    settings = Settings()
    settings.set_rule("target", target)
    st.save("settings", settings.encode())
    stats = Stats()
    rnd = random.Random(seed)
    hands = 0
    largest = 0
    def save(m):
        nonlocal largest
        payload = gamesave.encode(stats, m)
        largest = max(largest, len(payload))
        st.save(GAME, payload)

    def each(m, seat):
        nonlocal hands
        if m.phase in ("hand_over", "match_over"):
            hands += 1
            stats.record_hand(m.results[-1])
            if m.end is not None:
                stats.record_match(m.end)
        elif m.hand.log[-1] < DISCARD and m.hand.log[-1] != PASS:
            return            # a draw: the turn goes on
        save(m)

    for n in range(matches):
        m = engine.Match(settings.match_rules(), rnd.randrange(1 << 30))
        ps = (Player(levels[0], n), Player(levels[1], n + 7))
        st.save(GAME, gamesave.encode(stats, m))
        play_out(m, players_choose(ps), each, dealt=save)
    return hands, nvm.erases, largest
