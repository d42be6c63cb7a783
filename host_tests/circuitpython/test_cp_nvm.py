"""cpnvm.NvmStorage: the settings and the game save in microcontroller.nvm,
an append-only log in the RP2040's one 4 KB flash sector, modelled as
CircuitPython drives it (tools/kit/fakes/circuitpython/microcontroller.FakeNvm: a write into erased
bytes is programmed in place; any other erases the sector, then programs
all 16 pages in address order), cut at every erase and every byte."""

import random

import pytest

import cpnvm
from cpnvm import FileBackup, NvmStorage
from microcontroller import FakeNvm, PowerCut

import engine
from firmware.saves import gamesave
from firmware.settings import Settings
from firmware.stats import Stats
from tools.saves.cutsim import FaultFS, Power
from tools.saves.cutsim import PowerCut as FsCut
from tools.sim.simulator import Sim

BACKUP = "/saves-backup.bin"


_RUNS = {}


def _run(seed):
    """[(match, statistics payload)] after 0, 1, 2... easy-AI moves of one
    match to 500 (made once per seed)."""
    if seed not in _RUNS:
        from engine.ai import Player

        m = engine.Match(engine.CARDEMS.copy(target=500), seed=seed)
        ps = (Player("easy", seed), Player("easy", seed + 1))
        st = Stats()
        out = [(engine.dumps(m), st.encode())]
        while m.phase != "match_over":
            if m.phase == "hand_over":
                m.next_hand()
            else:
                s = m.to_move
                m.act(ps[s].choose(m.view(s)))
                if m.phase in ("hand_over", "match_over"):
                    st.record_hand(m.results[-1])
            out.append((engine.dumps(m), st.encode()))
        _RUNS[seed] = out
    return _RUNS[seed]


def match_after(turns, seed=3):
    """The match after `turns` moves, and its statistics' bytes."""
    mb, sb = _run(seed)[turns]
    return engine.loads(mb), sb


def game(turns, seed=3):
    mb, sb = _run(seed)[turns]
    return gamesave.join(sb, mb)


def settings(level="hard"):
    s = Settings()
    s.level = level
    return s.encode()


def boot(nvm, fs=None):
    return NvmStorage(nvm, FileBackup(BACKUP, fs) if fs is not None else None)


def test_blank_nvm_has_no_saves_and_no_message():
    st = NvmStorage(FakeNvm())
    for name in ("settings", "game", "stats", "match"):
        assert st.load(name) == (None, None)
    assert st.damage == []


def test_saves_come_back_after_a_restart():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    assert st.save("settings", settings())
    assert st.save("game", game(30))
    st2 = NvmStorage(nvm)
    assert st2.load("settings") == (settings(), None)
    g, msg = st2.load("game", gamesave.decode)
    assert msg is None and gamesave.encode(g.stats, g.match) == game(30)


def test_a_turn_appends_a_few_bytes_into_erased_flash_and_erases_nothing():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    st.save("game", game(10))
    before = nvm.written
    for t in range(11, 41):
        assert st.save("game", game(t))
    assert nvm.erases == 0
    # 30 moves: a record of about 7 bytes each (head 2, base 2, move, CRC 2),
    # the hand ends with their statistics
    assert nvm.written - before < 30 * 7 + 200
    assert NvmStorage(nvm).load("game") == (game(40), None)


def test_writes_only_on_change():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    w = nvm.writes
    assert st.save("settings", settings()) is False
    st2 = NvmStorage(nvm)
    assert st2.save("settings", settings()) is False
    assert nvm.writes == w
    assert st2.save("settings", settings("easy"))
    assert nvm.writes == w + 1


def test_loading_writes_nothing():
    nvm = FakeNvm(data=bytes(random.Random(5).randrange(256) for _ in range(4096)))
    st = NvmStorage(nvm)
    for name in ("settings", "game"):
        st.load(name)
    assert nvm.writes == 0


def test_a_full_log_is_rewritten_newest_first_and_then_appended_again():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    t = 0
    while nvm.erases == 0:
        t += 1
        st.save("game", game(t, seed=9))
    img = nvm.image()
    # header, then the game save just made, then the settings; the rest erased
    assert img[0] >> 4 == cpnvm.HEAD and img[13] >> 4 == cpnvm.GAME
    assert NvmStorage(nvm).load("game") == (game(t, seed=9), None)
    assert NvmStorage(nvm).load("settings") == (settings(), None)
    st.save("game", game(t + 1, seed=9))
    assert nvm.erases == 1


def test_a_match_to_500_fits_with_room_to_spare():
    from tools.saves.savecuts import nvm_wear

    hands, erases, largest = nvm_wear(2, 500, seed=2)
    # a rewrite holds the header, the largest game save and the settings,
    # with room after them for a hand's appends (about 200 bytes) ...
    record = cpnvm.record
    image = (len(record(cpnvm.HEAD, bytes(9))) + len(record(cpnvm.GAME, bytes(largest)))
             + len(record(cpnvm.SETTINGS, settings())))
    assert image + 200 < 4096, (largest, image)
    # ... and the log erases the sector seldom: room for many turns
    assert erases < hands / 10, (erases, hands)


def _cut_everywhere(prepare, write, check, backup=False, every_after=None):
    """Run `write` on the image `prepare` made, cutting the power before
    every flash event (and every byte of the backup file): restart, check.
    `every_after`: past that many events only every 37th (the erased tail
    of a rewrite, programmed 0xFF over 0xFF; tools/bench/bench_saves.py cuts
    there too)."""
    base = FakeNvm()
    fs = FaultFS() if backup else None
    prepare(boot(base, fs))
    probe = FakeNvm(data=base.image())
    pfs = fs.copy() if fs else None
    power = Power()
    probe.power = power
    if pfs:
        pfs.power = power
    write(boot(probe, pfs))
    total = power.steps
    for k in range(total + 1):
        if every_after is not None and every_after < k < total - 3 and k % 37:
            continue
        nvm = FakeNvm(data=base.image())
        f = fs.copy() if fs else None
        p = Power(k)
        nvm.power = p
        if f:
            f.power = p
        try:
            write(boot(nvm, f))
        except (PowerCut, FsCut):
            pass
        check(k, boot(FakeNvm(data=nvm.image()), f.copy() if f else None))
    return total


def test_a_cut_at_every_flash_event_of_a_turn_keeps_the_turn_before_or_after():
    old, new = game(20), game(24)

    def prepare(st):
        st.save("settings", settings("easy"))
        st.save("game", game(16))
        st.save("game", old)

    def write(st):
        st.save("game", new)

    def check(k, st):
        assert st.load("game") in ((old, None), (new, None)), k
        assert st.load("settings") == (settings("easy"), None)

    assert _cut_everywhere(prepare, write, check) >= 5


def test_a_hand_end_is_one_commit_of_moves_and_statistics():
    """Finding 4 on the nvm: the statistics of a hand's end and its last
    moves are one record; a cut anywhere in it leaves both before or both
    after, never a hand counted by the statistics the match has not
    played."""
    run = _run(6)
    turns = 1
    while run[turns][1] == run[0][1]:      # the first hand's end is counted
        turns += 1
    old, new = game(turns - 1, seed=6), game(turns, seed=6)
    assert gamesave.split(old)[0] != gamesave.split(new)[0]

    def prepare(st):
        st.save("game", old)

    def check(k, st):
        assert st.load("game") in ((old, None), (new, None)), k

    _cut_everywhere(prepare, lambda st: st.save("game", new), check)


@pytest.mark.parametrize("backup", [True, False], ids=["backup-file", "no-backup-file"])
def test_a_cut_at_every_flash_event_of_a_rewrite(backup):
    """Finding 1: the rewrite of a full sector (an erase, then 16 page
    programs). With the backup file on the drive nothing is lost; without
    it, a loss is said, except a cut exactly between the erase and the
    first byte (a blank sector: a new board to anyone)."""
    saves = []
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    t = 0
    while True:
        t += 1
        g = game(t, seed=9)
        prior = nvm.image()
        st.save("game", g)
        if nvm.erases:
            break
        saves.append(g)
    old, new = saves[-1], g
    said = []
    blank = []
    drive = []

    def prepare(st2):
        st2.nvm.data[:] = prior

    def check(k, st2):
        sett, smsg = st2.load("settings")
        got, msg = st2.load("game")
        head = st2.nvm.image()[:13]
        if got in (old, new):
            if backup and (head == b"\xff" * 13 or not cpnvm.scan(st2.nvm.image()).head):
                # blank, or cut inside the header: resumed from the file, said
                assert msg == cpnvm.MSG_DRIVE % cpnvm.scan(cpnvm.FileBackup(
                    BACKUP, st2.backup.fs).read()).gen, k
                drive.append(k)
            else:
                assert msg is None, k
            if sett != settings():       # the game save is whole, the settings not
                assert not backup and sett is None and smsg == cpnvm.MSG_LOST % "the settings", k
            return
        assert not backup, k
        if st2.nvm.image() == b"\xff" * 4096:
            blank.append(k)
            return
        assert got is None and sett is None, k
        assert msg in (cpnvm.MSG_LOST % "the match, statistics and settings",
                       cpnvm.MSG_LOST_ALL), (k, msg)
        said.append(k)

    total = _cut_everywhere(prepare, lambda s: s.save("game", new), check, backup,
                            every_after=1500)
    assert total > 4096
    if backup:
        assert not said and not blank
        assert 1 <= len(drive) <= 14          # the cut after the erase, and in the header
    else:
        assert said and len(blank) == 1


def test_the_backup_file_from_an_older_rewrite_is_not_used_over_a_good_sector():
    nvm = FakeNvm()
    fs = FaultFS()
    st = boot(nvm, fs)
    st.save("settings", settings())
    t = 0
    while nvm.erases < 2:
        t += 1
        st.save("game", game(t, seed=9))
    st.save("game", game(t + 1, seed=9))
    st.save("game", game(t + 2, seed=9))
    assert boot(FakeNvm(data=nvm.image()), fs.copy()).load("game") == (game(t + 2, seed=9), None)


def test_a_read_only_drive_has_no_backup_and_the_game_says_so():
    import cpports
    import storage

    storage.getmount("/").readonly = True
    assert cpports.drive_writable() is False
    storage.getmount("/").readonly = False
    assert cpports.drive_writable() is True


def test_a_damaged_header_is_said_and_the_next_save_starts_a_fresh_image():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    st.save("game", game(10))
    for i in range(0, 13):
        bad = FakeNvm(data=nvm.image())
        bad.data[i] ^= 0x5A
        st2 = NvmStorage(bad)
        assert st2.load("settings") == (None, None)
        value, msg = st2.load("game")
        assert value is None and msg and st2.outcome["game"] == "damaged", i
        assert bad.writes == 0
    st2.save("game", game(12))
    assert NvmStorage(bad).load("game") == (game(12), None)


def test_damage_in_the_log_resumes_the_save_before_it_and_says_so():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("game", game(10))
    end = st.im.end
    st.save("game", game(11))
    st.save("game", game(12))
    bad = FakeNvm(data=nvm.image())
    bad.data[end + 2] ^= 0x01         # inside the record of move 11
    st2 = NvmStorage(bad)
    value, msg = st2.load("game")
    assert value == game(10) and "damaged" in msg
    assert st2.outcome["game"] == "resumed"


def test_a_torn_append_is_skipped_and_the_next_one_goes_after_it():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("game", game(10))
    nvm.budget = nvm.events + 3        # 3 bytes of the next record, then the cut
    with pytest.raises(PowerCut):
        st.save("game", game(11))
    nvm2 = FakeNvm(data=nvm.image())
    st2 = NvmStorage(nvm2)
    assert st2.load("game") == (game(10), None)
    st2.save("game", game(11))
    st2.save("game", game(12))
    assert nvm2.erases == 0
    assert NvmStorage(nvm2).load("game") == (game(12), None)


def test_random_damage_never_yields_a_save_that_was_not_made():
    rnd = random.Random(9)
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    made = {"settings": [settings("easy"), settings("hard")],
            "game": [game(t) for t in range(5, 25)]}
    st.save("settings", made["settings"][0])
    st.save("settings", made["settings"][1])
    for g in made["game"]:
        st.save("game", g)
    for _ in range(300):
        bad = FakeNvm(data=nvm.image())
        for _ in range(rnd.randrange(1, 4)):
            bad.data[rnd.randrange(600)] = rnd.randrange(256)
        st2 = NvmStorage(bad)
        for name, ps in made.items():
            value, msg = st2.load(name)
            assert value is None or value in ps


def test_the_older_layout_is_read_once_and_rewritten():
    """An nvm written by the firmware before this layout (version 1: two
    slots per save) loads through the App and becomes a game save."""
    from firmware.saves.storage import crc16

    img = bytearray(b"\xff" * 4096)
    head = bytearray(b"GRNV\x01\x03")
    for name, rid, off, slot in (("settings", 1, 64, 192), ("stats", 2, 448, 240),
                                 ("match", 3, 928, 1584)):
        head += name.encode() + bytes(8 - len(name)) + bytes((rid, off >> 8, off & 255,
                                                               slot >> 8, slot & 255))
    c = crc16(head)
    head += bytes((c >> 8, c & 255))
    img[0:64] = bytes(head) + bytes(64 - len(head))
    m, _ = match_after(12)
    st_old = b"hands=0\n"
    for off, rid, payload in ((64, 1, settings("hard")), (448, 2, st_old),
                              (928, 3, engine.dumps(m))):
        rec = bytearray(b"GR\x01") + bytes((rid, 0, 1, len(payload) >> 8, len(payload) & 255))
        rec += payload
        c = crc16(rec)
        rec += bytes((c >> 8, c & 255))
        img[off:off + len(rec)] = rec
    nvm = FakeNvm(data=bytes(img))
    sim = Sim(seed=4, storage=NvmStorage(nvm))
    assert sim.app.settings.level == "hard"
    assert engine.dumps(sim.app.match) == engine.dumps(m)
    again = NvmStorage(FakeNvm(data=nvm.image()))
    g, msg = again.load("game", gamesave.decode)
    assert msg is None and engine.dumps(g.match) == engine.dumps(m)
    assert again.load("settings") == (settings("hard"), None)


def test_the_app_plays_through_a_restart_on_the_nvm():
    import cpsim

    nvm = FakeNvm()
    sim = cpsim.CPSim(seed=4, storage=NvmStorage(nvm), settings={"speed": "fast"})
    sim.settle()
    sim.press("A")                      # a new match
    sim.press("A")                      # draw
    sim.press("A")                      # discard: a turn completed, saved
    sim.settle()
    saved = engine.dumps(sim.app.match)
    sim2 = cpsim.CPSim(seed=99, storage=NvmStorage(nvm))
    sim2.settle()
    assert sim2.screen == "title"
    sim2.press("A")                     # CONTINUE
    assert sim2.screen == "play"
    assert engine.dumps(sim2.app.match) == saved
    assert sim2.app.settings.speed == "fast"


def test_a_save_too_large_for_the_sector_is_refused_and_the_saves_stand():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("game", game(10))
    with pytest.raises(OSError):
        st.save("settings", bytes(4000))
    assert NvmStorage(nvm).load("game") == (game(10), None)


def test_nvm_too_small_for_the_saves_is_refused():
    with pytest.raises(ValueError):
        NvmStorage(FakeNvm(256))

