"""A full flash (OSError 28, ENOSPC) or any write error is said on the
screen at once, the game frees what it can without losing the match (old
game records first) and tries the save again at the next turn; what was
saved before stays loadable: never an older state, never a double count."""


from devutil import FaultFS
from firmware.display import fb
from firmware.saves import gamesave
from firmware.saves.records import Records
from firmware.saves.storage import Storage
from tools.sim.simulator import Sim

from host_tests.ui.screen_text import shows
from tools.kit.ui_driver import play_turn, simple_factory  # noqa: E402

DATA = "/data"
RECS = DATA + "/records"


def _game(fs):
    """What a start loads from `fs`: (payload, message)."""
    return Storage(DATA, fs.copy()).load("game")


def _sim(fs, seed=5):
    """A Sim on `fs` that notes every banner raised (sim.said: (title,
    text)) and every frame shown with a banner over it (sim.frames)."""
    sim = Sim(seed=seed, storage=Storage(DATA, fs), player_factory=simple_factory,
              settings={"speed": "fast"}, records=Records(RECS, fs=fs))
    app = sim.app
    sim.said = []
    sim.frames = []
    raise_banner = app.show_banner

    def show_banner(title, text, *a):
        sim.said.append((title, text))
        raise_banner(title, text, *a)

    app.show_banner = show_banner
    show = sim.display.show

    def shown(buf):
        n = show(buf)
        if app.banner is not None:
            sim.frames.append((app.banner[0], sim.image()))
        return n

    sim.display.show = shown
    return sim


def _said(sim, title):
    return [text for t, text in sim.said if t == title]


def _on_screen(sim, title):
    return any(t == title and shows(img, title.decode(), fb.BIG, lit_on_dark=False)
               for t, img in sim.frames)


def _old_records(fs, n=5, size=1500):
    fs.dirs.add(RECS)
    for k in range(n):
        fs.files["%s/%06d-%d.txt" % (RECS, k + 1, 1000 + k)] = bytearray(b"x" * size)


def _at_a_turns_start(sim):
    m = sim.app.match
    return sim.screen == "play" and m is not None and m.to_move == 0 \
        and m.phase in ("draw", "first_upcard")


def _turns(sim, n):
    """Play n of the human's turns (pressing on through results), and on
    to the start of a turn of the human's: a completed turn, committed."""
    for _ in range(n):
        if sim.screen == "play" and sim.app.match.to_move == 0:
            play_turn(sim)
        else:
            sim.press("A")
        sim.settle()
    for _ in range(50):
        if _at_a_turns_start(sim):
            return
        if sim.screen == "play" and sim.app.match.to_move == 0:
            play_turn(sim)
        else:
            sim.press("A")
        sim.settle()


def test_a_full_flash_frees_the_old_records_and_the_save_goes_through():
    fs = FaultFS(dirs=[DATA], littlefs=True)
    _old_records(fs)
    sim = _sim(fs)
    sim.press("A")                                   # NEW MATCH: saved
    assert _game(fs)[0] is not None
    fs.capacity = fs.used() + 40                     # too little for the next save
    _turns(sim, 2)
    app = sim.app
    olds = [n for n in fs.files if n.startswith(RECS + "/00000")]
    assert olds == []                                # the old records went first
    payload, msg = _game(fs)
    assert msg is None and payload == gamesave.encode(app.stats, app.match)
    said = _said(sim, b"FLASH FULL")
    assert len(said) == 1 and "records deleted" in said[0] and "saved" in said[0]
    assert _on_screen(sim, b"FLASH FULL")


def test_nothing_to_free_pauses_saving_says_so_and_tries_again_each_turn():
    fs = FaultFS(dirs=[DATA], littlefs=True)
    sim = _sim(fs)
    sim.press("A")
    _turns(sim, 3)
    app = sim.app
    saved = _game(fs)[0]
    assert saved == gamesave.encode(app.stats, app.match)
    baks = [n for n in fs.files if n.endswith(".bak")]
    assert baks
    fs.capacity = fs.used() - 2000                   # full, whatever is deleted
    refused = fs.nospace
    _turns(sim, 6)
    assert fs.nospace > refused + 2                  # tried again turn after turn
    assert app.saving.failing
    said = _said(sim, b"FLASH FULL")
    assert said and said[0] == ("Not saved; tries again each turn. Backup copies deleted. "
                                "Free space with mpremote (records first).")
    assert not [n for n in fs.files if n.endswith(".bak")]
    assert _on_screen(sim, b"FLASH FULL")
    # what was saved before still loads, exactly
    payload, msg = _game(fs)
    assert payload == saved and msg is None
    back = gamesave.decode(payload)
    assert back.stats.encode() == gamesave.decode(saved).stats.encode()
    # room again (files deleted with mpremote): the next turn saves
    fs.capacity = None
    _turns(sim, 2)
    assert not app.saving.failing and _said(sim, b"SAVED AGAIN")
    payload, msg = _game(fs)
    assert payload == gamesave.encode(app.stats, app.match) and msg is None


def test_a_write_error_that_is_not_space_is_said_too():
    fs = FaultFS(dirs=[DATA], littlefs=True)
    sim = _sim(fs)
    sim.press("A")
    fs.fail_at = fs.steps + 3
    fs.fail_errno = 5
    _turns(sim, 2)
    said = _said(sim, b"SAVE FAILED")
    assert said and "flash error 5" in said[0]
    assert _on_screen(sim, b"SAVE FAILED")
    payload, msg = _game(fs)                         # saved again the turn after
    assert payload == gamesave.encode(sim.app.stats, sim.app.match) and msg is None


def test_hands_played_while_saving_is_paused_are_counted_once():
    fs = FaultFS(dirs=[DATA], littlefs=True)
    sim = _sim(fs, seed=7)
    sim.press("A")
    fs.capacity = fs.used()
    hand = sim.app.match.hand_no
    for _ in range(400):
        if sim.app.match is None or sim.app.match.hand_no > hand + 1:
            break
        _turns(sim, 1)
    fs.capacity = None
    _turns(sim, 2)
    payload, msg = _game(fs)
    g = gamesave.decode(payload)
    played = len(g.match.results) if g.match is not None else None
    if played is not None:
        assert g.stats.hands == played


FULL_MP = r'''
r = Rig()
app = r.app
st = app.storage
def refuse(name, payload):
    raise OSError(28, "no space")
st.save = refuse
r.press(btn.A)                       # NEW MATCH: its save is refused
r.run(50)
print("banner|%s" % (app.banner[0].decode() if app.banner else "-"))
print("failing|%d" % (1 if app.saving.failing else 0))
r.run(7000)                          # the banner's time is over
print("after|%s" % (app.banner[0].decode() if app.banner else "-"))
'''


def test_the_full_flash_banner_on_micropython():
    import pytest

    from tools.bench.bench_ui import ROOT as UROOT, SCENARIO, micropython_path, run_mp

    if micropython_path() is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    out = run_mp("import sys\nsys.path.insert(0, %r)\n" % UROOT + SCENARIO + FULL_MP)
    res = dict(line.rsplit("|", 1) for line in out.strip().splitlines() if "|" in line)
    assert res == {"banner": "FLASH FULL", "failing": "1", "after": "-"}, out


def test_with_no_records_left_the_backup_copies_go_next():
    fs = FaultFS(dirs=[DATA], littlefs=True)
    sim = _sim(fs)
    sim.press("A")
    _turns(sim, 2)
    assert fs.files.get(DATA + "/game.bak")
    fs.capacity = fs.used() + 40                     # too little for the next save's .tmp
    _turns(sim, 1)
    app = sim.app
    said = _said(sim, b"FLASH FULL")
    assert said == ["Backup copies deleted to make room; the game is saved."], said
    assert DATA + "/game.dat" in fs.files and DATA + "/settings.dat" in fs.files
    payload, msg = _game(fs)
    assert msg is None and payload == gamesave.encode(app.stats, app.match)


# -- a start on a full flash says so -------------------------------------------

def _start(fs, seed=5):
    sim = _sim(fs, seed)
    sim.settle()
    return sim


def _note(sim):
    """(title, text) of the message screen, or None."""
    app = sim.app
    if sim.screen != "message":
        return None
    return bytes(app.screen.title), " ".join(bytes(x).decode() for x in app.screen.lines)


def _saved_fs(turns=2):
    fs = FaultFS(dirs=[DATA], littlefs=True)
    sim = _sim(fs)
    sim.press("A")
    _turns(sim, turns)
    return fs.copy()


def test_a_start_on_a_full_flash_says_so_and_what_to_do(tmp_path):
    from host_tests.ui.ui_golden import Golden

    fs = _saved_fs()
    fs.capacity = fs.used() + 3000
    sim = _start(fs)
    g = Golden(tmp_path)
    g.check(sim, "87_flash_full")
    g.finish()
    title, text = _note(sim)
    assert title == b"FLASH FULL"
    assert text == ("Only 2 KB free: saves may be refused. Copy the game records off "
                    "(make records), then free space with mpremote.")
    sim.press("A")
    assert sim.screen == "title"                     # the match is offered as before
    assert sim.app.match is not None


def test_a_start_on_a_nearly_full_flash_says_so(tmp_path):
    from host_tests.ui.ui_golden import Golden

    fs = _saved_fs()
    fs.capacity = fs.used() + 20 * 1024
    sim = _start(fs)
    g = Golden(tmp_path)
    g.check(sim, "88_flash_nearly_full")
    g.finish()
    title, text = _note(sim)
    assert title == b"FLASH NEARLY FULL" and text.startswith("20 KB free: old game records")
    sim.press("A")
    assert sim.screen == "title"


def test_a_start_with_room_or_with_no_way_to_tell_is_quiet():
    from firmware.saves import saveload

    fs = _saved_fs()
    fs.capacity = fs.used() + 32 * 1024
    assert _start(fs).screen == "title"
    fs.capacity = None                               # statvfs unknown
    assert _start(fs).screen == "title"
    assert saveload.room(Storage(DATA, fs)) is None


def test_after_saves_were_refused_a_restart_still_says_the_flash_is_full():
    fs = FaultFS(dirs=[DATA], littlefs=True)
    sim = _sim(fs)
    sim.press("A")
    _turns(sim, 2)
    fs.capacity = fs.used() - 2000                   # full, whatever is deleted
    _turns(sim, 3)
    assert sim.app.saving.failing and _said(sim, b"FLASH FULL")
    again = _start(fs.copy())                        # a restart: said again, on screen
    assert _note(again)[0] == b"FLASH FULL"
    assert shows(again.image(), "FLASH FULL", fb.BIG, lit_on_dark=False)


def test_a_damage_note_and_the_full_flash_note_are_both_shown():
    fs = _saved_fs()
    fs.files[DATA + "/game.dat"][-1] ^= 1            # damaged: the backup is resumed
    fs.capacity = fs.used() + 3000
    sim = _start(fs)
    assert _note(sim)[0] == b"SAVE RESTORED"
    sim.press("A")
    assert _note(sim)[0] == b"FLASH FULL"
    sim.press("A")
    assert sim.screen == "title"


def test_room_is_the_filesystems_free_bytes(tmp_path):
    import os

    from devutil import ROOT
    from firmware.saves import saveload

    st = Storage(str(tmp_path / "data"))             # not made yet: its folder's
    s = os.statvfs(str(tmp_path))
    assert abs(saveload.room(st) - s.f_frsize * s.f_bavail) < 1 << 24
    import pytest

    from devutil import micropython, run_mp

    if micropython() is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    script = tmp_path / "room.py"
    script.write_text("import sys\nsys.path.insert(0, %r)\nfrom firmware.saves.storage import "
                      "Storage\nfrom firmware.saves.saveload import room\n"
                      "print(room(Storage(%r)))\n" % (ROOT, str(tmp_path / "data")))
    r = run_mp(str(script), str(tmp_path))
    assert abs(int(r.stdout.strip()) - s.f_frsize * s.f_bavail) < 1 << 24, r.stdout + r.stderr
