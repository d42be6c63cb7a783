"""firmware/saves/storage.py: saves that survive power cuts, damage and wear.

Issue 4, "what it must show" 5 (power cut at every write boundary and every
byte; fuzzed save files never crash the boot path) and issue 6, 3 (the
newest save is damaged: the backup resumes)."""

import random

import pytest

import engine
from firmware.saves import storage as stg
from firmware.saves.storage import Storage

from devutil import ROOT, FaultFS, PowerCut, match_states, run_mp, watch_opens

ROOTDIR = "/data"
DAT = ROOTDIR + "/match.dat"
BAK = ROOTDIR + "/match.bak"
TMP = ROOTDIR + "/match.tmp"
BAD = ROOTDIR + "/match.bad"


@pytest.fixture(scope="module")
def states():
    s = match_states(seed=11, turns=40)
    assert len(set(s)) == len(s) >= 5
    return s


def fs_with(*saves):
    """A filesystem on which the saves were made one after the other."""
    fs = FaultFS(dirs=[ROOTDIR])
    st = Storage(ROOTDIR, fs)
    for p in saves:
        st.save("match", p)
    return fs.copy()


def boot(fs):
    """What the app does at power-on: load and decode the match."""
    return Storage(ROOTDIR, fs).load("match", engine.loads)


# -- the container --------------------------------------------------------

def test_crc16_is_ccitt_false():
    assert stg.crc16(b"123456789") == 0x29B1
    assert stg.crc16(b"") == 0xFFFF


def test_container_round_trip_and_layout():
    c = stg.pack(b"abc")
    assert bytes(c[:4]) == b"GRST" and c[4] == 1 and c[5:7] == b"\x00\x03"
    assert len(c) == 3 + stg.OVERHEAD
    assert stg.unpack(c) == (b"abc", None)
    assert stg.unpack(stg.pack(b"")) == (b"", None)


def test_container_rejects_every_single_bit_flip():
    c = stg.pack(bytes(range(40)))
    for i in range(len(c) * 8):
        d = bytearray(c)
        d[i >> 3] ^= 1 << (i & 7)
        assert stg.unpack(d)[0] is None, i


def test_container_tells_erased_flash_from_zeros():
    # Fletcher-16 cannot (0x00 and 0xFF are equal mod 255); CRC-16 can.
    c = stg.pack(bytes(8))
    d = bytearray(c)
    for i in range(stg.HEADER, stg.HEADER + 8):
        d[i] = 0xFF
    assert stg.unpack(d)[0] is None


def test_paths_are_built_with_string_ops():
    assert Storage("/data", FaultFS()).path("match", ".dat") == "/data/match.dat"
    assert Storage("/data/", FaultFS()).path("match", ".dat") == "/data/match.dat"
    assert Storage("/", FaultFS()).path("match", ".dat") == "/match.dat"
    assert Storage("", FaultFS()).path("match", ".dat") == "match.dat"


# -- normal use -------------------------------------------------------------

def test_nothing_saved_loads_none_without_message():
    assert Storage(ROOTDIR, FaultFS()).load("match") == (None, None)


def test_save_then_load_gives_the_payload(states):
    fs = FaultFS()
    st = Storage(ROOTDIR, fs)
    assert st.save("match", states[0]) is True
    assert ROOTDIR in fs.dirs  # the folder is made on first save
    assert Storage(ROOTDIR, fs.copy()).load("match") == (states[0], None)


def test_save_keeps_the_previous_save_as_backup(states):
    fs = fs_with(states[0], states[1])
    assert stg.unpack(fs.files[DAT])[0] == states[1]
    assert stg.unpack(fs.files[BAK])[0] == states[0]
    assert TMP not in fs.files


def test_unchanged_payload_writes_nothing(states):
    fs = FaultFS()
    st = Storage(ROOTDIR, fs)
    st.save("match", states[0])
    n = fs.steps
    assert st.save("match", states[0]) is False
    assert fs.steps == n
    # also after a boot that loaded it
    fs2 = fs.copy()
    st2 = Storage(ROOTDIR, fs2)
    assert st2.load("match")[0] == states[0]
    assert st2.save("match", bytearray(states[0])) is False
    assert fs2.steps == 0
    assert st2.save("match", states[1]) is True


def test_remove_deletes_current_backup_and_unfinished(states):
    fs = fs_with(states[0], states[1])
    fs.files[TMP] = bytearray(b"partial")
    st = Storage(ROOTDIR, fs)
    st.remove("match")
    assert not any(p.startswith(ROOTDIR + "/match.") for p in fs.files)
    assert st.load("match") == (None, None)
    st.remove("match")  # nothing left: still fine


def test_names_do_not_mix(states):
    fs = FaultFS()
    st = Storage(ROOTDIR, fs)
    st.save("match", states[0])
    st.save("settings", b"level=2")
    st2 = Storage(ROOTDIR, fs.copy())
    assert st2.load("settings") == (b"level=2", None)
    assert st2.load("match") == (states[0], None)


def test_oversized_payload_is_refused_before_writing():
    fs = FaultFS()
    st = Storage(ROOTDIR, fs, max_payload=100)
    with pytest.raises(OSError):                  # the App goes on, the flash refused
        st.save("match", bytes(101))
    assert fs.files == {}


# -- damage -------------------------------------------------------------------

def test_damaged_save_is_set_aside_and_play_starts_fresh(states):
    fs = fs_with(states[0])
    fs.files[DAT][10] ^= 0x40
    damaged = bytes(fs.files[DAT])
    st = Storage(ROOTDIR, fs)
    value, msg = st.load("match", engine.loads)
    assert value is None
    assert msg == "Save was damaged; started fresh. Kept as match.bad."
    assert bytes(fs.files[BAD]) == damaged and DAT not in fs.files
    assert "checksum" in st.reason
    # the next boot is quiet: there is nothing to resume and nothing to say
    assert boot(fs.copy()) == (None, None)


def test_damaged_newest_save_resumes_the_backup(states):
    """Issue 6, 3: the newest file is corrupt and the backup resumes."""
    fs = fs_with(states[0], states[1])
    fs.files[DAT] = fs.files[DAT][:-5]  # truncated
    m, msg = boot(fs)
    assert engine.dumps(m) == states[0]
    assert msg == "Save was damaged; resumed the one before. Kept as match.bad."
    # playing on saves normally and the backup stays the good old one
    st = Storage(ROOTDIR, fs)
    st.load("match")
    assert st.save("match", states[2]) is True
    m2, msg2 = boot(fs.copy())
    assert engine.dumps(m2) == states[2] and msg2 is None
    assert stg.unpack(fs.files[BAK])[0] == states[0]


def test_the_resumed_backup_becomes_the_current_save(states):
    fs = fs_with(states[0], states[1])
    fs.files[DAT][stg.HEADER] ^= 1
    st = Storage(ROOTDIR, fs)
    assert st.load("match")[0] == states[0]
    # .bak is .dat again: the next start is quiet, the same payload is not rewritten
    assert stg.unpack(fs.files[DAT])[0] == states[0] and BAK not in fs.files
    assert st.save("match", states[0]) is False
    assert boot(fs.copy())[1] is None


def test_save_the_engine_rejects_is_set_aside(states):
    """A container that is intact around contents the engine refuses (a
    save from a newer firmware, say) counts as damaged too."""
    fs = fs_with(states[0], b"GRSV\x09 not a match")
    m, msg = boot(fs)
    assert engine.dumps(m) == states[0]
    assert msg.startswith("Save was damaged; resumed the one before.")
    assert stg.unpack(fs.files[BAD])[0] == b"GRSV\x09 not a match"


def test_an_older_bad_file_is_replaced(states):
    fs = fs_with(states[0])
    fs.files[BAD] = bytearray(b"old damage")
    fs.files[DAT][0] = 0
    newest = bytes(fs.files[DAT])
    boot(fs)
    assert bytes(fs.files[BAD]) == newest


def test_huge_length_in_header_is_not_read(states):
    class Counting(FaultFS):
        asked = 0

        def open(self, path, mode):
            f = FaultFS.open(self, path, mode)
            if "r" in mode:
                outer = self
                orig = f.read

                def read(n=-1):
                    outer.asked = max(outer.asked, n)
                    return orig(n)
                f.read = read
            return f

    fs = Counting({DAT: b"GRST\x01\xff\xff" + bytes(70000)}, [ROOTDIR])
    st = Storage(ROOTDIR, fs)
    assert st.load("match") == (None, "Save was damaged; started fresh. Kept as match.bad.")
    assert fs.asked < 100


def test_failing_flash_keeps_the_previous_save(states):
    base = fs_with(states[0])
    # count the steps of a full save, then fail at each one
    probe = base.copy()
    Storage(ROOTDIR, probe).save("match", states[1])
    total = probe.steps
    for k in range(1, total + 1):
        fs = base.copy()
        fs.fail_at = k
        st = Storage(ROOTDIR, fs)
        st.load("match")
        try:
            st.save("match", states[1])
        except OSError:
            pass
        m, msg = boot(fs.copy())
        assert engine.dumps(m) in (states[0], states[1]), k
        assert msg is None, (k, msg)


# -- power cuts ---------------------------------------------------------------

def save_steps(fs, payload):
    probe = fs.copy()
    st = Storage(ROOTDIR, probe)
    st.load("match")
    probe.steps = 0
    st.save("match", payload)
    return probe.steps, probe.log


def cut_during_save(base, payload, k):
    """Boot on `base`, save `payload` with the power cut before step k
    (k = steps: no cut). Returns the filesystem as it was left."""
    fs = base.copy()
    st = Storage(ROOTDIR, fs)
    st.load("match", engine.loads)
    fs.steps = 0
    fs.budget = k
    try:
        st.save("match", payload)
    except PowerCut:
        pass
    return fs.copy()


@pytest.mark.parametrize("littlefs", [False, True], ids=["byte-prefix", "littlefs"])
@pytest.mark.parametrize("history", [0, 1, 2], ids=["first-save", "one-before", "two-before"])
def test_power_cut_at_every_step_of_a_save(states, history, littlefs):
    """Issue 4, 5: cut at every write boundary and every byte (each byte
    written is a step, as are open, flush, close and both renames): the
    restart resumes the previous or the new state, never nothing, never a
    message about damage, never an exception. Two models of what a cut
    leaves of the file being written: every byte count, or (littlefs) what
    it held before it was opened."""
    old = states[history - 1] if history else None
    new = states[history]
    base = fs_with(*states[:history])
    base.littlefs = littlefs
    total, log = save_steps(base, new)
    # open, every byte, flush, close, then one rename (two with a .dat to back up)
    assert total == 3 + len(stg.pack(new)) + (2 if history else 1)
    assert any(s.startswith("rename") for s in log)
    seen = set()
    for k in range(total + 1):
        fs = cut_during_save(base, new, k)
        m, msg = boot(fs)
        assert msg is None, (k, msg)
        got = None if m is None else engine.dumps(m)
        if old is None:
            assert got in (None, new), k
        else:
            assert got in (old, new), k
        seen.add(got)
        # and the game goes on: the next save lands and loads
        st = Storage(ROOTDIR, fs)
        st.load("match")
        st.save("match", states[history + 1])
        assert boot(fs.copy())[0] is not None
        assert engine.dumps(boot(fs.copy())[0]) == states[history + 1], k
    assert seen == ({None, new} if old is None else {old, new})


@pytest.mark.parametrize("littlefs", [False, True], ids=["byte-prefix", "littlefs"])
def test_power_cut_with_a_finished_stale_tmp_left_from_an_earlier_cut(states, littlefs):
    """An earlier cut left a complete .tmp (cut after it was closed, before
    the renames); the player resumed the older .dat and played on. A cut in
    the next save, at any step, must not bring the stale .tmp back."""
    base = fs_with(states[0], states[1])
    base.files[TMP] = bytearray(stg.pack(states[2]))  # stale: never renamed in
    base.littlefs = littlefs
    new = states[3]
    total, _ = save_steps(base, new)
    for k in range(total + 1):
        fs = cut_during_save(base, new, k)
        m, msg = boot(fs)
        assert msg is None and engine.dumps(m) in (states[1], new), k


def test_power_cut_while_recovering_after_a_cut(states):
    """A second cut during the boot that repairs the first one (load
    renames the finished .tmp into place) still loses nothing."""
    base = fs_with(states[0], states[1])
    total, log = save_steps(base, states[2])
    renames = [i + 1 for i, s in enumerate(log) if s.startswith("rename")]
    assert len(renames) == 2
    # cut right between the two renames: .dat missing, .tmp complete
    fs = cut_during_save(base, states[2], renames[0])
    assert DAT not in fs.files and TMP in fs.files
    for k in range(0, 3):
        f2 = fs.copy()
        f2.budget = k
        try:
            Storage(ROOTDIR, f2).load("match", engine.loads)
        except PowerCut:
            pass
        m, msg = boot(f2.copy())
        assert engine.dumps(m) == states[2] and msg is None, k


def test_power_cut_during_every_save_of_a_whole_match_never_loses_it():
    """Saves after every turn of a match, with one cut at a pseudo-random
    point of each save: the restart always has the previous or new state."""
    s = match_states(seed=5, turns=400)
    rnd = random.Random(1234)
    fs = FaultFS(dirs=[ROOTDIR])
    Storage(ROOTDIR, fs).save("match", s[0])
    prev = s[0]
    for new in s[1:]:
        total, _ = save_steps(fs, new)
        fs = cut_during_save(fs, new, rnd.randrange(total + 1))
        m, msg = boot(fs)
        assert msg is None
        got = engine.dumps(m)
        assert got in (prev, new)
        if got != new:  # the player replays the turn; it is saved again
            st = Storage(ROOTDIR, fs)
            st.load("match")
            st.save("match", new)
        prev = new


# -- fuzzed save files ---------------------------------------------------------

def fuzz_cases(states, n=1000, seed=20240601):
    """n damaged files: random bytes, bit flips, truncations and byte
    changes of real saves; some with the container checksum made good again
    (so engine.loads sees damaged contents), some with the engine's own
    checksum made good too (so its replay sees them)."""
    rnd = random.Random(seed)
    real = [bytes(stg.pack(p)) for p in states]
    out = []
    for i in range(n):
        kind = i % 6
        src = bytearray(rnd.choice(real))
        if kind == 0:
            data = bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(0, 600)))
        elif kind == 1:
            for _ in range(rnd.randrange(1, 9)):
                b = rnd.randrange(len(src) * 8)
                src[b >> 3] ^= 1 << (b & 7)
            data = bytes(src)
        elif kind == 2:
            data = bytes(src[:rnd.randrange(len(src))])
        elif kind == 3:
            for _ in range(rnd.randrange(1, 5)):
                src[rnd.randrange(len(src))] = rnd.choice((0, 0xFF, rnd.getrandbits(8)))
            data = bytes(src)
        else:
            payload = bytearray(stg.unpack(src)[0])
            for _ in range(rnd.randrange(1, 4)):
                pos = rnd.randrange(len(payload))
                payload[pos] = rnd.getrandbits(8)
            if kind == 5 and len(payload) >= 9:
                f = engine.save.fletcher16(payload, 0, len(payload) - 2)
                payload[-2] = f >> 8
                payload[-1] = f & 0xFF
            data = bytes(stg.pack(bytes(payload)))
        out.append(data)
    return out


def test_thousand_fuzzed_save_files_never_crash_the_boot(states):
    cases = fuzz_cases(states)
    assert len(cases) == 1000
    outcomes = {"fresh": 0, "resumed": 0, "loaded": 0}
    for i, data in enumerate(cases):
        with_backup = i % 2 == 0
        files = {DAT: data}
        if with_backup:
            files[BAK] = stg.pack(states[0])
        fs = FaultFS(files, [ROOTDIR])
        m, msg = boot(fs)  # must not raise
        if msg is None:
            # only when the change left a save that is valid throughout
            assert m is not None, i
            outcomes["loaded"] += 1
        elif m is None:
            assert not with_backup and msg.startswith("Save was damaged; started fresh"), i
            outcomes["fresh"] += 1
        else:
            assert with_backup and engine.dumps(m) == states[0], i
            outcomes["resumed"] += 1
        if msg is not None:
            assert bytes(fs.files[BAD]) == data
            assert DAT not in fs.files or stg.unpack(fs.files[DAT])[0] == states[0]
        # and the next boot is quiet
        assert boot(fs.copy())[1] is None
    assert outcomes["fresh"] > 100 and outcomes["resumed"] > 100


def test_engine_loads_refuses_fuzzed_contents_with_save_error_only(states):
    """The engine half of the boot path: whatever the contents, loads()
    returns a match or raises SaveError, never anything else."""
    for i, data in enumerate(fuzz_cases(states, seed=99)):
        payload, why = stg.unpack(data)
        if payload is None:
            payload = data
        try:
            engine.loads(payload)
        except engine.SaveError:
            pass


# -- on MicroPython -------------------------------------------------------------

MP_SCRIPT = r"""
import sys, os
sys.path.insert(0, REPO)
from firmware.saves.storage import Storage, pack, unpack, crc16
import engine
assert crc16(b"123456789") == 0x29B1
root = "saves"
st = Storage(root)
assert st.load("match") == (None, None)
m = engine.Match(seed=3)
a = engine.dumps(m)
m.act("draw_stock")
b = engine.dumps(m)
assert st.save("match", a) is True
assert st.save("match", a) is False
assert st.save("match", b) is True
st2 = Storage(root)
got, msg = st2.load("match", engine.loads)
assert engine.dumps(got) == b and msg is None, msg
f = open(root + "/match.dat", "r+b")
f.seek(9)
f.write(b"\x00\xff")
f.close()
got, msg = Storage(root).load("match", engine.loads)
assert engine.dumps(got) == a, "backup"
print(msg)
print(sorted(os.listdir(root)))
"""


def test_storage_runs_on_micropython(tmp_path):
    script = tmp_path / "st.py"
    script.write_text("REPO = %r\n" % ROOT + MP_SCRIPT)
    r = run_mp(str(script), cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "Save was damaged; resumed the one before. Kept as match.bad."
    assert lines[1] == "['match.bad', 'match.dat']"


# -- "not now" is not damage (finding 2) ----------------------------------------

class Rebuild:
    """A decoder that runs out of memory `fail` times, then works."""

    def __init__(self, fail):
        self.fail = fail

    def __call__(self, payload):
        if self.fail:
            self.fail -= 1
            raise MemoryError("memory allocation failed")
        return engine.loads(payload)


def test_no_memory_to_rebuild_a_save_keeps_it_and_says_so(states):
    """Before, any exception from the decoder (MemoryError too) renamed the
    save to .bad: a long match was thrown away exactly when it was long."""
    fs = fs_with(states[0], states[1])
    before = dict((k, bytes(v)) for k, v in fs.files.items())
    st = Storage(ROOTDIR, fs)
    value, msg = st.load("match", Rebuild(2))
    assert value is None and st.outcome["match"] == "kept"
    assert "could not be read now" in msg and "kept" in msg
    assert dict((k, bytes(v)) for k, v in fs.files.items()) == before   # nothing moved
    with pytest.raises(OSError):
        st.save("match", states[2])              # and nothing replaces it
    assert dict((k, bytes(v)) for k, v in fs.files.items()) == before
    m, msg = Storage(ROOTDIR, fs).load("match", Rebuild(0))   # memory again: it loads
    assert engine.dumps(m) == states[1] and msg is None


def test_memory_that_comes_back_after_a_collection_loads_quietly(states):
    fs = fs_with(states[0], states[1])
    m, msg = Storage(ROOTDIR, fs).load("match", Rebuild(1))
    assert engine.dumps(m) == states[1] and msg is None


def test_a_read_error_keeps_the_save_instead_of_resuming_an_older_one(states):
    class Failing(FaultFS):
        def open(self, path, mode):
            if path == DAT and "r" in mode:
                raise OSError(5, "EIO")
            return FaultFS.open(self, path, mode)

    fs = Failing(fs_with(states[0], states[1]).files, [ROOTDIR])
    st = Storage(ROOTDIR, fs)
    value, msg = st.load("match", engine.loads)
    assert value is None and st.outcome["match"] == "kept" and BAD not in fs.files
    assert stg.unpack(fs.files[DAT])[0] == states[1]


# -- remove() never brings an older save back (finding 3) ------------------------

@pytest.mark.parametrize("littlefs", [False, True], ids=["byte-prefix", "littlefs"])
def test_a_cut_at_every_step_of_remove_never_brings_back_an_older_save(states, littlefs):
    """Before, remove() deleted .dat first: a cut then resumed .bak, two
    saves back, with no message."""
    base = fs_with(states[0], states[1])
    base.files[TMP] = bytearray(stg.pack(states[2]))      # a stray .tmp too
    base.littlefs = littlefs
    probe = base.copy()
    Storage(ROOTDIR, probe).remove("match")
    total = probe.steps
    assert total == 3
    for k in range(total + 1):
        fs = base.copy()
        fs.budget = k
        try:
            Storage(ROOTDIR, fs).remove("match")
        except PowerCut:
            pass
        m, msg = boot(fs.copy())
        got = None if m is None else engine.dumps(m)
        assert got in (None, states[1]) or msg, (k, got == states[0])
        assert got != states[0], k


# -- every combination of the three files (finding 6) ------------------------------

def test_no_combination_of_the_three_files_resets_or_goes_back_silently(states):
    """.dat, .bak and .tmp each missing, the newest or an older save, or
    damaged: a load is silent only when it gives .dat (good), a complete
    .tmp where .dat is missing (a cut between save()'s renames), or nothing
    when nothing was ever saved; anything else is said."""
    good = {"new": stg.pack(states[3]), "old": stg.pack(states[2]),
            "older": stg.pack(states[1]), "newer": stg.pack(states[4])}
    damaged = bytearray(stg.pack(states[2]))
    damaged[12] ^= 0x20
    kinds = {"missing": None, "damaged": bytes(damaged), "torn": bytes(stg.pack(states[4]))[:20]}
    kinds.update(good)
    silent = 0
    for d in ("missing", "new", "damaged", "torn"):
        for b in ("missing", "old", "damaged", "torn"):
            for t in ("missing", "newer", "older", "damaged", "torn"):
                files = {}
                for path, kind in ((DAT, d), (BAK, b), (TMP, t)):
                    if kinds[kind] is not None:
                        files[path] = kinds[kind]
                fs = FaultFS(files, [ROOTDIR])
                value, msg = Storage(ROOTDIR, fs).load("match")
                if msg is not None:
                    continue
                ok = (d == "new" and value == states[3]) or \
                     (d == "missing" and t in ("newer", "older") and value == stg.unpack(kinds[t])[0]) or \
                     (d == "missing" and b == "missing" and t in ("missing", "damaged", "torn")
                      and value is None)
                if not ok:
                    silent += 1
    assert silent == 0


def test_a_damaged_save_with_no_good_one_before_is_said():
    fs = FaultFS({DAT: b"GRST\x01\x00\x03abc\x00\x00"}, [ROOTDIR])
    st = Storage(ROOTDIR, fs)
    assert st.load("stats") == (None, None)       # nothing of that name: quiet
    value, msg = st.load("match")
    assert value is None and msg.startswith("Save was damaged; started fresh")
    assert st.outcome["match"] == "damaged"


def test_the_real_filesystem_lets_its_reserve_go_for_each_open(tmp_path, monkeypatch):
    # a file object on littlefs needs one heap run of about 1.1 KB: the
    # reserve is let go just before each open and held again once the file
    # is closed (a save, a read), or at once when the open fails
    from firmware import compat

    s = Storage(str(tmp_path))
    assert len(compat._reserve[0]) == compat.RESERVE
    seen = watch_opens(monkeypatch)
    assert s.save("game", b"payload")
    assert len(compat._reserve[0]) == compat.RESERVE
    assert s.load("game") == (b"payload", None)
    assert len(compat._reserve[0]) == compat.RESERVE
    with pytest.raises(OSError):
        s.fs.open(str(tmp_path / "missing" / "b"), "rb")
    assert seen and all(seen)
    assert len(compat._reserve[0]) == compat.RESERVE
