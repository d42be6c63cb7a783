"""The game save carries the game's version (engine/version.py); a save
from a newer version is recognised and said ("Saved by version X; this is
Y: kept as game.new"), never misread as damage nor thrown away."""

import os
import pytest

import engine
from devutil import FaultFS
from engine.version import VERSION
from firmware.saves import gamesave
from firmware.saves import storage as stg
from firmware.saves.savenewer import NEW_KEEP
from firmware.stats import Stats
from firmware.saves.storage import Storage
from tools.sim.simulator import Sim

DATA = "/data"


def _payload():
    st = Stats()
    st.hands = 3
    st.hands_won = 1
    st.knocks = 1
    st.best_hand = 12
    return st, gamesave.encode(st, engine.Match(seed=4))


def test_the_game_save_names_the_version_that_wrote_it():
    st, p = _payload()
    # layout 2 (version 1.1 reads it); only a match waiting for its cut is 3
    assert p[:4] == b"GRGM" and p[4] == gamesave.PLAIN == 2 and gamesave.VERSION == 3
    n = p[5]
    assert bytes(p[6:6 + n]).decode() == VERSION
    assert gamesave.saved_by(p) == VERSION
    g = gamesave.decode(p)
    assert g.stats.encode() == st.encode() and engine.dumps(g.match) == engine.dumps(
        engine.Match(seed=4))


def test_a_save_of_the_layout_before_still_loads():
    st, _ = _payload()
    sb = st.encode()
    mb = engine.dumps(engine.Match(seed=4))
    old = b"GRGM\x01" + bytes((len(sb) >> 8, len(sb) & 0xFF)) + sb + mb
    g = gamesave.decode(old)
    assert g.stats.encode() == sb and engine.dumps(g.match) == mb


def _newer(layout=9, version="2.3.0", body=b"\x00\x07whatever a newer one holds"):
    v = version.encode()
    return b"GRGM" + bytes((layout, len(v))) + v + body


def test_a_newer_layout_is_kept_as_game_new_and_said():
    raw = stg.pack(_newer())
    fs = FaultFS({DATA + "/game.dat": raw}, [DATA])
    st = Storage(DATA, fs)
    value, msg = st.load("game", gamesave.decode)
    assert value is None
    assert msg == "Saved by version 2.3.0; this is %s: kept as game.new." % VERSION
    assert st.outcome["game"] == stg.NEWER
    assert fs.files[DATA + "/game.new"] == raw and DATA + "/game.dat" not in fs.files
    assert DATA + "/game.bad" not in fs.files


def test_a_newer_version_whose_save_this_one_cannot_read_is_said_not_damaged():
    st, _ = _payload()
    sb = st.encode()
    # layout 2 as this one writes it; its match in a format this one lacks
    newer = b"GRGM\x02\x059.0.0" + bytes((0, len(sb))) + sb + b"GRSV\x63a later match format"
    try:
        gamesave._decode(newer)
    except ValueError:
        pass
    else:
        raise AssertionError("the crafted save loads")
    fs = FaultFS({DATA + "/game.dat": stg.pack(newer)}, [DATA])
    value, msg = Storage(DATA, fs).load("game", gamesave.decode)
    assert value is None and msg.startswith("Saved by version 9.0.0; this is ")
    assert DATA + "/game.new" in fs.files


def test_a_newer_version_whose_save_loads_is_played_on():
    st, p = _payload()
    n = p[5]
    newer = p[:5] + bytes((5,)) + b"1.0.7" + p[6 + n:]
    g = gamesave.decode(newer)
    assert g.stats.encode() == st.encode()


def test_a_newer_storage_container_is_said_too():
    raw = bytearray(stg.pack(b"whatever"))
    raw[4] = 7
    c = stg.crc16(raw, 0, len(raw) - 2)                # written so: its checksum holds
    raw[-2], raw[-1] = c >> 8, c & 0xFF
    fs = FaultFS({DATA + "/game.dat": bytes(raw)}, [DATA])
    value, msg = Storage(DATA, fs).load("game", gamesave.decode)
    assert value is None and msg.startswith("Saved by a newer version; this is %s" % VERSION)
    assert fs.files[DATA + "/game.new"] == bytes(raw)


def test_the_app_says_a_newer_save_was_kept():
    fs = FaultFS({DATA + "/game.dat": stg.pack(_newer())}, [DATA])
    sim = Sim(seed=3, storage=Storage(DATA, fs))
    app = sim.app
    assert app.screen_name == "message" and bytes(app.screen.title) == b"NEWER SAVE"
    text = b" ".join(bytes(x) for x in app.screen.lines).decode()
    assert "2.3.0" in text and "game.new" in text
    assert fs.files[DATA + "/game.new"]


def test_a_version_byte_changed_by_damage_is_damage():
    raw = bytearray(stg.pack(b"whatever"))
    raw[4] = 7                                        # the checksum no longer holds
    fs = FaultFS({DATA + "/game.dat": bytes(raw)}, [DATA])
    value, msg = Storage(DATA, fs).load("game", gamesave.decode)
    assert value is None and msg.startswith("Save was damaged")
    assert DATA + "/game.bad" in fs.files and DATA + "/game.new" not in fs.files


def test_a_development_build_sorts_between_the_releases_around_it():
    from engine.version_parse import parse
    assert parse("1.0.0") < parse("1.1.0-dev") < parse("1.1.0") < parse("1.1.1-dev")
    assert parse("1.10.0-dev") > parse("1.9.2")
    for bad in ("1.1", "1.1.0-rc1", "1.1.x", "v1.1.0", "1..0", ""):
        with pytest.raises(ValueError):
            parse(bad)


def test_newer_reads_dev_versions(monkeypatch):
    """A save that does not decode counts as a newer version's when the
    version it names is newer: 1.1.0 is newer than 1.1.0-dev, which is newer
    than 1.0.0."""
    import engine.version as ver
    monkeypatch.setattr(ver, "VERSION", "1.1.0-dev")
    assert gamesave.newer("1.1.0") and gamesave.newer("1.2.0-dev")
    assert not gamesave.newer("1.1.0-dev") and not gamesave.newer("1.0.0")
    assert not gamesave.newer("garbage") and not gamesave.newer(None)
    monkeypatch.setattr(ver, "VERSION", "1.1.0")
    assert not gamesave.newer("1.1.0-dev") and gamesave.newer("1.1.1-dev")


# -- a second newer save, and version lines that say nothing newer ----------

def _newer_file(version="2.3.0", layout=9):
    return stg.pack(_newer(layout=layout, version=version))


def test_a_second_newer_save_never_writes_over_the_first():
    first, second = _newer_file("2.3.0"), _newer_file("2.4.0")
    fs = FaultFS({DATA + "/game.dat": first}, [DATA])
    Storage(DATA, fs).load("game", gamesave.decode)
    assert fs.files[DATA + "/game.new"] == first
    fs.files[DATA + "/game.dat"] = bytearray(second)      # the newer version ran again
    st = Storage(DATA, fs)
    value, msg = st.load("game", gamesave.decode)
    assert value is None and st.outcome["game"] == stg.NEWER
    assert msg == "Saved by version 2.4.0; this is %s: kept as game.new2." % VERSION
    assert fs.files[DATA + "/game.new"] == first and fs.files[DATA + "/game.new2"] == second
    assert DATA + "/game.dat" not in fs.files
    # this version saves on; a backup of it is freed on a full flash, never a .new
    st.save("game", _payload()[1])
    st.save("game", gamesave.encode(Stats(), engine.Match(seed=5)))
    assert st.free_backups() == 1
    assert fs.files[DATA + "/game.new"] == first and fs.files[DATA + "/game.new2"] == second


def test_with_every_new_name_taken_the_newer_save_is_left_and_not_written_over():
    fs = FaultFS({}, [DATA])
    for k in range(1, NEW_KEEP + 1):
        fs.files[DATA + "/game.new" + ("%d" % k if k > 1 else "")] = bytearray(_newer_file("2.%d.0" % k))
    last = _newer_file("3.0.0")
    fs.files[DATA + "/game.dat"] = bytearray(last)
    before = dict((k, bytes(v)) for k, v in fs.files.items())
    st = Storage(DATA, fs)
    value, msg = st.load("game", gamesave.decode)
    assert value is None and st.outcome["game"] == stg.KEPT and "game" in st.kept
    assert msg == ("Saved by version 3.0.0; this is %s: left as game.dat, not written over; "
                   "game.new to game.new9 are taken: move them off, then unplug the board and plug it in again." % VERSION)
    assert dict((k, bytes(v)) for k, v in fs.files.items()) == before
    try:
        st.save("game", _payload()[1])
    except OSError:
        pass
    else:
        raise AssertionError("a save went over the newer one")
    assert bytes(fs.files[DATA + "/game.dat"]) == last
    # one moved off with mpremote: the next start keeps it as that name
    del fs.files[DATA + "/game.new4"]
    value, msg = Storage(DATA, fs).load("game", gamesave.decode)
    assert msg.endswith("kept as game.new4.") and bytes(fs.files[DATA + "/game.new4"]) == last


def test_a_refused_rename_leaves_the_newer_save_in_place():
    fs = FaultFS({DATA + "/game.dat": _newer_file(), DATA + "/game.new": b"kept before"},
                 [DATA])

    def refuse(src, dst):
        raise OSError(5, "rename refused")

    fs.rename = refuse
    st = Storage(DATA, fs)
    value, msg = st.load("game", gamesave.decode)
    assert st.outcome["game"] == stg.KEPT and "refused to move it (error 5)" in msg
    assert fs.files[DATA + "/game.dat"] == _newer_file()
    assert fs.files[DATA + "/game.new"] == b"kept before"


def test_a_cut_while_a_newer_save_is_set_aside_loses_nothing():
    """Power cut before every step of the start that sets a second newer
    save aside (and of the first save after it), on each model of a cut
    file: restarted, both newer saves are whole, each once, and never one
    over the other."""
    first, second = _newer_file("2.3.0"), _newer_file("2.4.0")
    points = 0
    for model in ("prefix", "littlefs", "emptied"):
        done = False
        for budget in range(0, 4000):
            fs = FaultFS({DATA + "/game.dat": second, DATA + "/game.new": first}, [DATA],
                         littlefs=model == "littlefs", emptied=model == "emptied")
            fs.budget = budget
            try:
                st = Storage(DATA, fs)
                st.load("game", gamesave.decode)
                st.save("game", _payload()[1])
                done = True
            except BaseException as e:                # the power cut
                if type(e).__name__ != "PowerCut":
                    raise
            points += 1
            after = fs.copy()
            Storage(DATA, after).load("game", gamesave.decode)   # the start after the cut
            kept = sorted(bytes(v) for k, v in after.files.items() if ".new" in k)
            assert kept == sorted([first, second]), (model, budget, sorted(after.files))
            if done:
                break
        assert done
    assert points > 600, points     # every byte of both saves cut (690 with a 1.1.0-dev version line)


VERSIONS_NOT_NEWER = (VERSION, "1.0.0", "0.9.9", "1.0.0-dev", "0.0.0", "1.0", "1.0.0.0",
                      "", "abc", "1.0.0-", "1.0.x", "-1.0.0", "01.00.00", "1.0.0 ")


def _this_or_older_shown(msg):
    """A message that says a save is newer while it names this version or
    one not newer (the contradiction)."""
    if not msg or not msg.startswith("Saved by version "):
        return False
    v = msg[len("Saved by version "):].split(";")[0]
    return not gamesave.newer(v)


def test_a_version_line_naming_this_version_or_an_older_one_is_damage():
    for v in VERSIONS_NOT_NEWER:
        for layout in (3, 9, 255):
            fs = FaultFS({DATA + "/game.dat": _newer_file(v, layout)}, [DATA])
            st = Storage(DATA, fs)
            value, msg = st.load("game", gamesave.decode)
            assert value is None and st.outcome["game"] == stg.DAMAGED, (v, layout, msg)
            assert msg.startswith("Save was damaged") and not _this_or_older_shown(msg)
            assert DATA + "/game.bad" in fs.files and not [k for k in fs.files if ".new" in k]
        # layout 2 as this one writes it, with a match this one cannot read
        sb = Stats().encode()
        body = b"GRGM\x02" + bytes((len(v),)) + v.encode() + bytes((0, len(sb))) + sb + b"GRSV?"
        fs = FaultFS({DATA + "/game.dat": stg.pack(body)}, [DATA])
        st = Storage(DATA, fs)
        assert st.load("game", gamesave.decode)[0] is None
        assert st.outcome["game"] == stg.DAMAGED, v


def test_crafted_version_lines_whose_checksums_hold_never_say_a_contradiction():
    """Random version lines and layouts in containers whose checksums
    hold: a newer save is said only for a version newer than this one."""
    import random

    rnd = random.Random(50)
    sb = Stats().encode()
    told = {"newer": 0, "damaged": 0, "loaded": 0}
    alphabet = b"0123456789.-devrcab x\xff"
    for n in range(3000):
        if n % 3 == 0:
            v = bytes(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 12)))
        else:
            parts = [str(rnd.randrange(0, 3)) for _ in range(3)]
            v = (".".join(parts) + rnd.choice(("", "-dev", "-rc1"))).encode()
        layout = rnd.choice((2, 2, 3, 9, 200))
        tail = rnd.choice((b"", b"GRSV?", engine.dumps(engine.Match(seed=n))))
        body = b"GRGM" + bytes((layout, len(v))) + v + bytes((0, len(sb))) + sb + tail
        fs = FaultFS({DATA + "/game.dat": stg.pack(body)}, [DATA])
        st = Storage(DATA, fs)
        value, msg = st.load("game", gamesave.decode)
        assert not _this_or_older_shown(msg), (v, layout, msg)
        o = st.outcome.get("game")
        if o == stg.NEWER:
            told["newer"] += 1
            assert gamesave.newer(gamesave.saved_by(body)), (v, layout)
        elif value is not None:
            told["loaded"] += 1
        else:
            told["damaged"] += 1
            assert o == stg.DAMAGED
    assert min(told.values()) > 100, told


def test_out_of_memory_while_a_newer_save_is_set_aside_keeps_it_whole():
    """A MemoryError at each point of the set-aside: before the import,
    at the rename, after it (while the message is made): load() never
    raises, the newer save is whole as game.dat or game.new2, the one kept
    before untouched, and the start says something."""
    import builtins
    import sys

    from firmware.saves import savenewer

    first, second = _newer_file("2.3.0"), _newer_file("2.4.0")
    cases = 0
    told = []
    for where in ("import", "stat", "rename", "note", "message"):
        fs = FaultFS({DATA + "/game.dat": second, DATA + "/game.new": first}, [DATA])
        st = Storage(DATA, fs)
        real_import = builtins.__import__
        undo = []

        def boom(*a, **k):
            raise MemoryError("no memory at " + where)

        if where == "import":
            saved = sys.modules.pop("firmware.saves.savenewer")

            def imp(name, *a, **k):
                if name == "firmware.saves" and a and a[2] and "savenewer" in a[2]:
                    raise MemoryError("no memory to import")
                return real_import(name, *a, **k)

            builtins.__import__ = imp
            undo.append(lambda: (setattr(builtins, "__import__", real_import),
                                 sys.modules.__setitem__("firmware.saves.savenewer", saved)))
        elif where in ("stat", "rename"):
            real = getattr(fs, where)
            calls = []

            def once(*a, real=real, calls=calls):
                if a[0].endswith(".new2") or a[0] == DATA + "/game.dat":
                    calls.append(a)
                    if len(calls) == 1:
                        raise MemoryError("no memory")
                return real(*a)

            setattr(fs, where, once)
        elif where == "note":
            st._note = boom
        else:                                         # the message, once moved
            undo.append(lambda real=savenewer.newer_message: setattr(
                savenewer, "newer_message", real))
            savenewer.newer_message = boom
        try:
            value, msg = st.load("game", gamesave.decode)
        finally:
            for u in undo:
                u()
        cases += 1
        assert value is None and msg, where
        assert bytes(fs.files[DATA + "/game.new"]) == first, where
        where_now = [k for k, v in fs.files.items() if bytes(v) == second]
        assert where_now in ([DATA + "/game.dat"], [DATA + "/game.new2"]), (where, where_now)
        if where_now == [DATA + "/game.dat"]:
            assert st.outcome["game"] == stg.KEPT and "game" in st.kept, where
        else:
            assert st.outcome["game"] == stg.NEWER, where
        told.append((where, st.outcome["game"]))
    assert told == [("import", "kept"), ("stat", "kept"), ("rename", "kept"),
                    ("note", "newer"), ("message", "newer")], told
    assert cases == 5 and savenewer.NEW_KEEP == 9
    assert (savenewer.NEWER, savenewer.KEPT) == (stg.NEWER, stg.KEPT)   # the same outcomes


def test_the_app_names_the_second_newer_save_kept():
    fs = FaultFS({DATA + "/game.dat": _newer_file("2.4.0"),
                  DATA + "/game.new": _newer_file("2.3.0")}, [DATA])
    sim = Sim(seed=3, storage=Storage(DATA, fs))
    app = sim.app
    assert app.screen_name == "message" and bytes(app.screen.title) == b"NEWER SAVE"
    text = b" ".join(bytes(x) for x in app.screen.lines).decode()
    assert "2.4.0" in text and "game.new2" in text
    assert fs.files[DATA + "/game.new"] == _newer_file("2.3.0")
    # all nine taken: said, and the start goes on to the title
    for k in range(2, NEW_KEEP + 1):
        fs.files[DATA + "/game.new%d" % k] = bytearray(b"kept before")
    fs.files[DATA + "/game.dat"] = bytearray(_newer_file("2.5.0"))
    sim = Sim(seed=3, storage=Storage(DATA, fs))
    app = sim.app
    assert app.screen_name == "message" and bytes(app.screen.title) == b"SAVE NOT READ"
    text = b" ".join(bytes(x) for x in app.screen.lines).decode()
    assert "left as game.dat" in text and "move them off" in text
    sim.press("A")
    assert sim.screen == "title"
    assert fs.files[DATA + "/game.dat"] == _newer_file("2.5.0")


NEWER_MP = r"""
import sys
sys.path.insert(0, %(repo)r)
from firmware.saves.storage import Storage
from firmware.saves import gamesave
st = Storage(%(root)r)
value, msg = st.load("game", gamesave.decode)
import os
print("@@", st.outcome.get("game"), " ".join(sorted(os.listdir(%(root)r))))
print("@@", msg)
"""


def test_a_second_newer_save_is_kept_as_game_new2_on_micropython(tmp_path):
    import pytest

    from devutil import ROOT, micropython, run_mp

    if micropython() is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    root = tmp_path / "data"
    root.mkdir()
    (root / "game.new").write_bytes(bytes(_newer_file("2.3.0")))
    (root / "game.dat").write_bytes(bytes(_newer_file("2.4.0")))
    script = tmp_path / "newer.py"
    script.write_text(NEWER_MP % {"repo": ROOT, "root": str(root)})
    r = run_mp(str(script), str(tmp_path))
    out = r.stdout.split("@@")
    assert len(out) == 3, r.stdout + r.stderr
    assert out[1].split() == ["newer", "game.new", "game.new2"]
    assert out[2].strip() == "Saved by version 2.4.0; this is %s: kept as game.new2." % VERSION
    assert (root / "game.new").read_bytes() == bytes(_newer_file("2.3.0"))
    assert (root / "game.new2").read_bytes() == bytes(_newer_file("2.4.0"))


def test_a_newer_save_set_aside_with_too_little_memory_is_never_lost(tmp_path):
    """The same start on the unix port with heaps from too small to load
    anything up to enough: each run either fails before the load (a
    MemoryError at import), or leaves the newer save whole as game.dat
    (kept) or game.new2, and game.new untouched."""
    import pytest

    from devutil import ROOT, micropython, run_mp

    if micropython() is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    script = tmp_path / "newer.py"
    seen = {}
    for heap in list(range(40000, 200001, 8000)) + [4 << 20]:
        root = tmp_path / ("data%d" % heap)
        root.mkdir()
        (root / "game.new").write_bytes(bytes(_newer_file("2.3.0")))
        (root / "game.dat").write_bytes(bytes(_newer_file("2.4.0")))
        script.write_text(NEWER_MP % {"repo": ROOT, "root": str(root)})
        r = run_mp(str(script), str(tmp_path), heap=str(heap), timeout=120)
        out = r.stdout.split("@@")
        if len(out) < 2:
            assert "MemoryError" in r.stdout + r.stderr, r.stdout + r.stderr
            seen[heap] = "no memory before the load"
        else:
            seen[heap] = out[1].split()[0]
        files = sorted(os.listdir(str(root)))
        assert (root / "game.new").read_bytes() == bytes(_newer_file("2.3.0")), heap
        assert files in (["game.dat", "game.new"], ["game.new", "game.new2"]), (heap, files)
        kept_as = "game.dat" if "game.dat" in files else "game.new2"
        assert (root / kept_as).read_bytes() == bytes(_newer_file("2.4.0")), heap
    assert "newer" in seen.values() and "kept" in seen.values(), seen
