"""cpnvm.NvmStorage: a backup file on the drive never brings back an older
state without a word, and every kind of data a cut loses is named.

The backup file is written just before each erase of the sector. If the
drive refuses that write and the file cannot be deleted either, an older
file stays behind; a cut between the next erase and its first programmed
byte then leaves a blank sector beside that older file."""

import copy
import os

import pytest

import cpnvm
from cpnvm import FileBackup, NvmStorage
from microcontroller import FakeNvm, PowerCut

from test_cp_nvm import game, settings
from tools.saves.cutsim import FaultFS

BACKUP = "/saves-backup.bin"
EROFS = 30


class RefusingFS(FaultFS):
    """The drive once it turns read-only for the game: no open for writing,
    no remove (EROFS)."""

    refuse = False

    def open(self, path, mode):
        if self.refuse and "r" not in mode:
            raise OSError(EROFS, path)
        return super().open(path, mode)

    def remove(self, path):
        if self.refuse:
            raise OSError(EROFS, path)
        return super().remove(path)

    def copy(self):
        c = RefusingFS(dict(self.files), self.dirs)
        c.refuse = self.refuse
        return c


def _fill_until_erase(st, nvm, t, seed=9):
    """Save turn after turn until the sector is rewritten once more; the
    last turn saved."""
    start = nvm.erases
    while nvm.erases == start:
        t += 1
        st.save("game", game(t, seed=seed))
    return t


def _hands(payload):
    from firmware.saves import gamesave
    from firmware.stats import Stats

    return Stats.decode(gamesave.split(payload)[0]).hands


def test_a_refused_backup_write_never_leaves_an_older_file_beside_a_blank_sector():
    nvm = FakeNvm()
    fs = RefusingFS()
    st = NvmStorage(nvm, FileBackup(BACKUP, fs))
    st.save("settings", settings())
    t = _fill_until_erase(st, nvm, 0)        # the file holds this rewrite's image
    assert fs.files.get(BACKUP)
    fs.refuse = True                         # the drive refuses from now on
    # the turns up to the next rewrite, which is cut between the erase and
    # the first byte it programs
    last = game(t, seed=9)
    while True:
        prior, im, erases = nvm.image(), copy.deepcopy(st.im), nvm.erases
        t += 1
        try:
            st.save("game", game(t, seed=9))
        except OSError:
            # saving refused (the copy on the drive cannot be kept current):
            # the sector is untouched
            assert nvm.image() == prior
            break
        if nvm.erases > erases:              # that was the rewrite: again, cut
            nvm.data[:] = prior
            st.im = im
            nvm.budget = nvm.events + 1      # the erase happens; the first byte does not
            with pytest.raises(PowerCut):
                st.save("game", game(t, seed=9))
            break
        last = game(t, seed=9)
        assert nvm.erases < 5
    assert last is not None
    fs.refuse = False                        # next start: drive writable again
    again = NvmStorage(FakeNvm(data=nvm.image()), FileBackup(BACKUP, fs.copy()))
    got, msg = again.load("game")
    if got != last and got != game(t, seed=9):
        assert msg, "an older save resumed silently (turn %d saved)" % t
    else:
        assert msg is None


def test_a_blank_sector_with_a_backup_file_is_resumed_and_said_when_it_may_be_older():
    """A read-only start (no backup file object: the file stays as it was)
    rewrites the sector twice; a cut between the next erase and its first
    byte leaves a blank sector; the next start, with the drive writable
    again, finds the old file: said, never silent."""
    nvm = FakeNvm()
    fs = FaultFS()
    st = NvmStorage(nvm, FileBackup(BACKUP, fs))
    st.save("settings", settings())
    t = _fill_until_erase(st, nvm, 0)
    filed = fs.files[BACKUP]
    ro = NvmStorage(FakeNvm(data=nvm.image()), None)
    ro.load("settings")
    ro.load("game")
    t = _fill_until_erase(ro, ro.nvm, t)
    t = _fill_until_erase(ro, ro.nvm, t)
    assert fs.files[BACKUP] == filed
    blank = FakeNvm()                         # the cut: erased, nothing programmed
    again = NvmStorage(blank, FileBackup(BACKUP, fs.copy()))
    got, msg = again.load("game")
    assert got is not None and _hands(got) <= _hands(game(t, seed=9))
    assert msg and "copy on the drive" in msg, msg


def test_a_cut_rewrite_without_the_backup_file_names_every_kind_of_data_lost():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    t = 0
    while True:
        t += 1
        prior = nvm.image()
        erases = nvm.erases
        st.save("game", game(t, seed=9))
        if nvm.erases > erases:
            break
    # the rewrite again, cut once its header and a few bytes are programmed:
    # neither the game save nor the settings are whole
    cut = FakeNvm(data=prior)
    cut.budget = 1 + 20
    with pytest.raises(PowerCut):
        _resave(cut, t)
    again = NvmStorage(FakeNvm(data=cut.image()))
    sett, smsg = again.load("settings")
    got, msg = again.load("game")
    assert sett is None and got is None
    said = (smsg or "") + (msg or "")
    assert said in (cpnvm.MSG_LOST % "the match, statistics and settings",
                    cpnvm.MSG_LOST_ALL), said
    for kind in ("match", "statistics", "settings"):
        assert kind in said, (kind, smsg, msg)


def _resave(nvm, t):
    st = NvmStorage(nvm)
    st.load("settings")
    st.load("game")
    st.save("game", game(t, seed=9))


@pytest.mark.parametrize("lost", ["settings", "game"])
def test_the_message_names_only_what_was_lost(lost):
    st = NvmStorage(FakeNvm())
    st.save("settings", settings())
    st.save("game", game(3))
    im = st.im
    whole = [cpnvm.GAME] if lost == "settings" else [cpnvm.SETTINGS]
    im2 = cpnvm.Image()
    im2.state = "torn"
    im2.whole = whole
    im2.settings = im.settings
    im2.stats, im2.match = im.stats, im.match
    st2 = NvmStorage(FakeNvm())
    st2.im = None
    msg = st2._torn_message(im2)
    if lost == "settings":
        assert "settings" in msg and "match" not in msg and "statistics" not in msg
    else:
        assert "match" in msg and "statistics" in msg and "settings" not in msg


def test_a_newer_versions_sector_is_said_and_kept_on_the_drive():
    from firmware.saves import storage as stg

    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    st.save("game", game(3))
    img = bytearray(nvm.image())
    head = cpnvm.record(cpnvm.HEAD, cpnvm.MAGIC + bytes((cpnvm.VERSION + 1,)) + img[7:11])
    img[0:len(head)] = head
    fs = FaultFS()
    again = NvmStorage(FakeNvm(data=bytes(img)), FileBackup(BACKUP, fs))
    again.load("settings")
    got, msg = again.load("game")
    assert got is None and msg.startswith("Saved by a newer version; this is ")
    assert msg.endswith("kept as %s." % cpnvm.NEWER_IMAGE)
    assert again.outcome["game"] == stg.NEWER
    assert stg.unpack(fs.files[cpnvm.NEWER_IMAGE])[0] == bytes(img)
    # without a writable drive it is said too, and not said to be kept
    bare = NvmStorage(FakeNvm(data=bytes(img)))
    bare.load("settings")
    got, msg = bare.load("game")
    assert got is None and "could not be kept" in msg


def test_a_newer_versions_game_save_is_said_and_kept_on_the_drive():
    from firmware.saves import gamesave

    v = b"2.3.0"
    newer = b"GRGM" + bytes((gamesave.VERSION + 1, len(v))) + v + b"\x00\x07what it holds"
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    st.save("game", game(2))
    st._append(st.im, cpnvm.record(cpnvm.GAME, newer))   # as a newer version appends it
    fs = FaultFS()
    again = NvmStorage(FakeNvm(data=nvm.image()), FileBackup(BACKUP, fs))
    assert again.load("settings")[0] == settings()
    got, msg = again.load("game", gamesave.decode)
    assert got is None and msg.startswith("Saved by version 2.3.0; this is ")
    assert msg.endswith("kept as /game.new.")
    from firmware.saves import storage as stg
    assert stg.unpack(fs.files["/game.new"])[0] == newer
    # the next save of this version goes on from nothing
    again.save("game", game(4))
    assert NvmStorage(FakeNvm(data=again.nvm.image())).load("game") == (game(4), None)


def test_a_file_of_the_same_generation_but_other_contents_is_not_resumed_silently():
    """A cut after the backup file of a rewrite was written but before the
    erase leaves the sector as it was and a file one generation ahead; a
    start with the drive read-only (no file kept) then plays on and
    rewrites the sector to that same generation, cut inside its
    programming: the file is of the torn sector's generation, but not its
    contents."""
    nvm = FakeNvm()
    fs = FaultFS()
    st = NvmStorage(nvm, FileBackup(BACKUP, fs))
    st.save("settings", settings())
    t = _fill_until_erase(st, nvm, 0)
    # the next rewrite: its file written, the power cut before the erase
    while True:
        prior, erases = nvm.image(), nvm.erases
        t += 1
        st.save("game", game(t, seed=9))
        if nvm.erases > erases:
            nvm.data[:] = prior          # as if cut before the erase: the file stays
            break
    ahead = fs.files[BACKUP]
    ro = NvmStorage(FakeNvm(data=prior), None)      # read-only start
    ro.load("settings")
    ro.load("game")
    u = t + 7                                       # other turns than the file's
    while True:
        prior2, erases = ro.nvm.image(), ro.nvm.erases
        im2 = copy.deepcopy(ro.im)
        u += 1
        ro.save("game", game(u, seed=9))
        if ro.nvm.erases > erases:
            break
    assert cpnvm.scan(ro.nvm.image()).gen == cpnvm.scan(
        cpnvm.FileBackup(BACKUP, fs).read() + b"\xff" * 10).gen
    # that rewrite again, cut once its header and part of the game are programmed
    cut = FakeNvm(data=prior2)
    ro2 = NvmStorage(cut, None)
    ro2.im = im2
    cut.budget = 1 + 60
    with pytest.raises(PowerCut):
        ro2.save("game", game(u, seed=9))
    assert fs.files[BACKUP] == ahead
    again = NvmStorage(FakeNvm(data=cut.image()), FileBackup(BACKUP, fs.copy()))
    again.load("settings")
    got, msg = again.load("game")
    if got is not None and got not in (game(u - 1, seed=9), game(u, seed=9)):
        assert msg, "the file of another rewrite resumed silently"


def _v1_image(damage=()):
    """An nvm of the older firmware's layout (version 1: two slots per
    save); the saves named in `damage` with a checksum that fails."""
    import engine
    from firmware.saves.storage import crc16
    from test_cp_nvm import match_after

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
    for name, off, rid, payload in (("settings", 64, 1, settings("hard")),
                                    ("stats", 448, 2, b"hands=4\nhands_won=1\nknocks=1\n"),
                                    ("match", 928, 3, engine.dumps(m))):
        rec = bytearray(b"GR\x01") + bytes((rid, 0, 1, len(payload) >> 8, len(payload) & 255))
        rec += payload
        c = crc16(rec)
        if name in damage:
            c ^= 0x5A5A
        rec += bytes((c >> 8, c & 255))
        img[off:off + len(rec)] = rec
    return bytes(img), m


@pytest.mark.parametrize("damaged", [("stats",), ("match",), ("settings", "stats")])
def test_damage_in_an_older_firmwares_nvm_is_said(damaged):
    from tools.sim.simulator import Sim

    img, m = _v1_image(damaged)
    sim = Sim(seed=4, storage=NvmStorage(FakeNvm(data=img)))
    app = sim.app
    said = []
    while app.screen_name == "message":
        said.append(b" ".join(bytes(x) for x in app.screen.lines).decode())
        sim.press("A")
    words = {"stats": "statistics", "match": "match", "settings": "settings"}
    text = " ".join(said)
    for name in damaged:
        assert words[name] in text, (name, said)
    if "settings" not in damaged:
        assert app.settings.level == "hard"


def test_the_app_says_at_once_when_the_drive_copy_blocks_a_rewrite():
    from tools.sim.simulator import Sim

    nvm = FakeNvm()
    fs = RefusingFS()
    st = NvmStorage(nvm, FileBackup(BACKUP, fs))
    st.save("settings", settings())
    _fill_until_erase(st, nvm, 0)                   # the drive holds a copy now
    levels = ("easy", "normal", "hard")
    k = 0
    while True:                                     # the log filled to its last bytes
        prior = nvm.image()
        erases = nvm.erases
        k += 1
        st.save("settings", settings(levels[k % 3]))
        if nvm.erases > erases:
            break
    fs.refuse = True
    sim = Sim(seed=3, storage=NvmStorage(FakeNvm(data=prior), FileBackup(BACKUP, fs)))
    said = []
    show = sim.app.show_banner
    sim.app.show_banner = lambda t, text, *a: (said.append((t, text)), show(t, text, *a))
    from tools.kit.ui_driver import play_turn

    sim.press("A")                                  # CONTINUE: the saves go on
    frames = []                                     # the panel with a banner over it
    display_show = sim.display.show

    def shown(buf):
        n = display_show(buf)
        if sim.app.banner is not None:
            frames.append(sim.image())
        return n

    sim.display.show = shown
    for _ in range(40):                             # until the log is full
        if said:
            break
        if sim.screen == "play" and sim.app.match.to_move == 0:
            play_turn(sim)
        else:
            sim.press("A")
        sim.settle()
    assert said and said[0] == (b"SAVING PAUSED", "Not saved: %s on the drive cannot be "
                                "updated. Free the drive or delete that file, then unplug "
                                "the board and plug it in again." % BACKUP), said
    assert sim.app.saving.failing and "could not be updated or deleted" in sim.app.saving.error
    assert sim.app.storage.nvm.erases == 0         # the sector was not erased
    # on the panel, over the game
    from firmware.display import fb
    from host_tests.ui.screen_text import shows

    img = frames[0]
    assert shows(img, "SAVING PAUSED", fb.BIG, lit_on_dark=False)
    assert shows(img, "FILE, THEN UNPLUG THE BOARD AND") and shows(img, "PLUG IT IN AGAIN.")
    from host_tests.ui.ui_golden import GOLDEN, UPDATE, golden_buf
    from tools.sim import render

    if UPDATE:
        render.to_png(img, os.path.join(GOLDEN, "86_banner_saving_paused.png"))
    else:
        assert golden_buf("86_banner_saving_paused") == img


def test_damage_in_the_rewritten_snapshot_resumes_the_drive_copy_and_says_so():
    nvm = FakeNvm()
    fs = FaultFS()
    st = NvmStorage(nvm, FileBackup(BACKUP, fs))
    st.save("settings", settings())
    t = _fill_until_erase(st, nvm, 0)
    img = bytearray(nvm.image())
    img[20] ^= 0x04                                  # inside the snapshot's game record
    again = NvmStorage(FakeNvm(data=bytes(img)), FileBackup(BACKUP, fs.copy()))
    sett, smsg = again.load("settings")
    got, msg = again.load("game")
    assert got == game(t, seed=9) and sett == settings() and smsg is None
    assert msg.startswith("Saved data were damaged (") and msg.endswith(
        "resumed the copy on the drive, made when the flash was last rewritten: turns "
        "played since then are lost.")
    assert again.outcome["game"] == "resumed"
    # without the file the same damage starts fresh, said
    bare = NvmStorage(FakeNvm(data=bytes(img)))
    bare.load("settings")
    got, msg = bare.load("game")
    assert got is None and msg.startswith("Saved data were damaged (") and msg.endswith(
        "started fresh.")


def _nvm_with_newer(version, layout=None):
    from firmware.saves import gamesave

    v = version.encode()
    layout = gamesave.VERSION + 1 if layout is None else layout
    newer = b"GRGM" + bytes((layout, len(v))) + v + b"\x00\x07what it holds"
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    st.save("game", game(2))
    st._append(st.im, cpnvm.record(cpnvm.GAME, newer))   # as a newer version appends it
    return nvm.image(), newer


def test_a_second_newer_game_save_never_writes_over_the_first_on_the_drive():
    from firmware.saves import gamesave
    from firmware.saves import storage as stg

    fs = FaultFS()
    kept = []
    for k, version in enumerate(("2.3.0", "2.4.0", "2.5.0")):
        img, newer = _nvm_with_newer(version)
        again = NvmStorage(FakeNvm(data=img), FileBackup(BACKUP, fs))
        again.load("settings")
        got, msg = again.load("game", gamesave.decode)
        name = "/game.new" if k == 0 else "/game.new%d" % (k + 1)
        assert got is None and msg.endswith("kept as %s." % name), msg
        kept.append((name, newer))
    for name, newer in kept:
        assert stg.unpack(fs.files[name])[0] == newer
    # all nine taken: said, and nothing written over
    from firmware.saves.savenewer import NEW_KEEP

    for k in range(4, NEW_KEEP + 1):
        fs.files["/game.new%d" % k] = bytearray(b"kept before")
    before = dict((k, bytes(v)) for k, v in fs.files.items())
    img, newer = _nvm_with_newer("2.6.0")
    again = NvmStorage(FakeNvm(data=img), FileBackup(BACKUP, fs))
    again.load("settings")
    got, msg = again.load("game", gamesave.decode)
    assert got is None and "could not be kept" in msg
    assert dict((k, bytes(v)) for k, v in fs.files.items()) == before


def test_a_game_record_naming_this_version_or_an_older_one_is_damage_not_newer():
    from firmware.saves import gamesave
    from engine.version import VERSION

    for version in (VERSION, "0.9.0", "1.0.0-dev", "junk"):
        img, _ = _nvm_with_newer(version)
        fs = FaultFS()
        again = NvmStorage(FakeNvm(data=img), FileBackup(BACKUP, fs))
        again.load("settings")
        got, msg = again.load("game", gamesave.decode)
        # damage in the log: what came before it stands, said
        assert got is not None and msg.startswith("Saved data were damaged ("), (version, msg)
        assert "Saved by" not in msg and not fs.files
        assert again.outcome["game"] == "resumed"


# -- two halves (A/B with a sequence number) cannot outlive the sector's erase --

SECTOR = 4096
HALF = SECTOR // 2


def _ab_half(seq, payload):
    """One half of an A/B pair: b"AB" seq:2 len:2 payload crc16."""
    from firmware.saves.storage import crc16

    body = b"AB" + bytes((seq >> 8, seq & 0xFF, len(payload) >> 8, len(payload) & 0xFF)) + payload
    c = crc16(body)
    return body + bytes((c >> 8, c & 0xFF))


def _ab_read(img):
    """The newest whole half's (seq, payload), or None."""
    from firmware.saves.storage import crc16

    best = None
    for h in (0, HALF):
        if bytes(img[h:h + 2]) != b"AB":
            continue
        n = (img[h + 4] << 8) | img[h + 5]
        end = h + 6 + n
        if end + 2 > h + HALF or img[end] == img[end + 1] == 0xFF:
            continue                 # its checksum not programmed yet (none is 0xFFFF here)
        if crc16(img, h, end) != (img[end] << 8) | img[end + 1]:
            continue
        seq = (img[h + 2] << 8) | img[h + 3]
        if best is None or seq > best[0]:
            best = (seq, bytes(img[h + 6:end]))
    return best


def _ab_save(nvm, seq, payload):
    """Save `payload` as `seq` into the half the older one is in, as one
    nvm assignment (CircuitPython: erased target bytes are programmed in
    place; any other assignment erases the whole sector first)."""
    h = HALF * (seq % 2)
    data = _ab_half(seq, payload)
    nvm[h:h + len(data)] = data


def _ab_cut(prior, seq, payload, budget):
    """The sector after a save into a half that holds data, cut before
    flash event `budget` (FakeNvm's model: the erase is event 0, then each
    byte of the whole sector is programmed in address order)."""
    if budget == 0:
        return prior
    h = HALF * (seq % 2)
    data = _ab_half(seq, payload)
    buf = bytearray(prior)
    buf[h:h + len(data)] = data
    n = budget - 1
    return bytes(buf[:n]) + b"\xff" * (SECTOR - n)


def test_an_ab_pair_in_the_one_sector_loses_everything_right_after_its_erase():
    """CircuitPython gives the RP2040's nvm as one 4 KB flash sector, and
    erases all of it before any write that is not into erased bytes
    (erase_and_write_sector). The largest save fits a half, but once both
    halves hold a save every save erases both: cut before every flash
    event of a save (the sector erase, then each of the 4,096 bytes
    programmed in address order), the cuts that leave no whole half are
    counted."""
    from firmware.saves.storage import crc16
    from tools.saves.savecuts import nvm_wear

    largest = nvm_wear(2, 500, seed=2)[2]
    need = len(_ab_half(0, bytes(largest) + cpnvm.record(cpnvm.SETTINGS, settings())))
    assert need < HALF, need                         # by size alone, a half holds it
    last = 0                                         # a match to 500 at its end: large saves
    while True:
        try:
            game(last + 1)
        except IndexError:
            break
        last += 1
    payloads = [game(t) + settings() for t in range(last - 3, last + 1)]
    for seq, p in enumerate(payloads, 1):
        assert crc16(_ab_half(seq, p)[:-2]) != 0xFFFF
    nvm = FakeNvm()
    for seq in (1, 2):                               # both halves written once
        _ab_save(nvm, seq, payloads[seq - 1])
    erases = nvm.erases
    tally = {"newest": 0, "the one before": 0, "nothing, a blank sector": 0,
             "nothing, a torn half": 0}
    for seq in (3, 4):                               # a save into each half
        prior = nvm.image()
        whole = FakeNvm(data=prior)
        _ab_save(whole, seq, payloads[seq - 1])
        assert whole.events == SECTOR + 1            # the erase and every byte
        for budget in range(whole.events + 1):
            img = _ab_cut(prior, seq, payloads[seq - 1], budget)
            if budget % 251 == 0 or budget < 3 or budget > SECTOR - 2:
                cut = FakeNvm(data=prior)            # the model, at some of the points
                cut.budget = budget
                try:
                    _ab_save(cut, seq, payloads[seq - 1])
                except PowerCut:
                    pass
                assert cut.image() == img, budget
            got = _ab_read(img)
            if got is not None and got[0] == seq:
                tally["newest"] += 1
            elif got is not None:
                assert got == (seq - 1, payloads[seq - 2])
                tally["the one before"] += 1
            elif img == b"\xff" * SECTOR:
                tally["nothing, a blank sector"] += 1
            else:
                tally["nothing, a torn half"] += 1
        _ab_save(nvm, seq, payloads[seq - 1])
    assert nvm.erases - erases == 2                  # every save erased the sector
    # the cut right after the erase leaves a blank sector, and until the
    # lower half is whole again nothing is
    print("A/B pair, cut before each of %d flash events of 2 saves: %s (a half of the "
          "largest save measured: %d bytes, of these saves: %d; a half is %d)" % (
              2 * (SECTOR + 2), tally, need, len(_ab_half(0, payloads[-1])), HALF))
    assert tally["nothing, a blank sector"] == 2
    lower = len(_ab_half(1, payloads[0]))            # the lower half's bytes, about
    assert tally["nothing, a torn half"] >= 2 * (lower - 8), tally


def test_a_newer_versions_save_in_this_layout_keeps_its_version_line():
    """A game record of layout 2 from a newer version: one whose match
    this version cannot read is said as newer and kept on the drive (it
    was rebuilt under this version's line and called damage); one it can
    read loads, and the turns saved after it load at the next start."""
    from firmware.saves import gamesave
    from firmware.stats import Stats

    sb = Stats().encode()
    unreadable = b"GRGM\x02\x059.0.0" + bytes((0, len(sb))) + sb + b"GRSV\x63later"
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    st._append(st.im, cpnvm.record(cpnvm.GAME, unreadable))
    fs = FaultFS()
    again = NvmStorage(FakeNvm(data=nvm.image()), FileBackup(BACKUP, fs))
    again.load("settings")
    got, msg = again.load("game", gamesave.decode)
    assert got is None and msg.startswith("Saved by version 9.0.0; this is ")
    assert msg.endswith("kept as /game.new.") and again.outcome["game"] == "newer"
    from firmware.saves import storage as stg
    assert stg.unpack(fs.files["/game.new"])[0] == unreadable
    # readable: a newer patch version's save of a match this one plays on
    p = game(20)
    n = p[5]
    readable = p[:5] + bytes((5,)) + b"1.0.7" + p[6 + n:]
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings())
    st._append(st.im, cpnvm.record(cpnvm.GAME, readable))
    again = NvmStorage(nvm)
    again.load("settings")
    got, msg = again.load("game", gamesave.decode)
    assert msg is None and got is not None
    assert gamesave.split(readable) == gamesave.split(game(20))
    for t in (21, 22, 23):
        again.save("game", game(t))                  # appended as this version's turns
    third = NvmStorage(FakeNvm(data=nvm.image()))
    third.load("settings")
    assert third.load("game") == (game(23), None)


def test_a_match_too_long_for_the_save_area_is_said_in_its_own_words():
    """A save the nvm cannot hold (a match longer than any measured; here
    a 512-byte nvm) is said as SAVE TOO LARGE, not as a full flash to free
    with mpremote; the last save that fit still loads."""
    from tools.kit.ui_driver import play_turn
    nvm = FakeNvm(size=512)
    from tools.sim.simulator import Sim

    sim = Sim(seed=3, storage=NvmStorage(nvm))
    said = []
    show = sim.app.show_banner
    sim.app.show_banner = lambda t, text, *a: (said.append((t, text)), show(t, text, *a))
    sim.press("A")                                  # NEW MATCH
    for _ in range(400):
        if said:
            break
        if sim.screen == "play" and sim.app.match.to_move == 0:
            play_turn(sim)
        else:
            sim.press("A")
        sim.settle()
    assert said and said[0][0] == b"SAVE TOO LARGE", said
    assert said[0][1].startswith("Not saved: the saves need ") and said[0][1].endswith(
        "the save area holds 512. The last save still loads; a new match saves again.")
    assert sim.app.saving.failing
    got, msg = NvmStorage(FakeNvm(data=nvm.image())).load("game")
    assert got is not None and msg is None


def test_crafted_version_lines_in_the_nvm_never_say_a_contradiction():
    """Game records with random version lines and layouts, checksums
    right: a newer save is said only for a version newer than this one,
    as the file storage says it (host_tests/firmware/saves/test_save_version.py)."""
    import random

    import engine
    from firmware.saves import gamesave
    from firmware.stats import Stats

    rnd = random.Random(50)
    sb = Stats().encode()
    told = {"newer": 0, "damaged": 0, "loaded": 0}
    alphabet = b"0123456789.-devrcab x\xff"
    for n in range(900):
        if n % 3 == 0:
            v = bytes(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 12)))
        else:
            parts = [str(rnd.randrange(0, 3)) for _ in range(3)]
            v = (".".join(parts) + rnd.choice(("", "-dev", "-rc1"))).encode()
        layout = rnd.choice((2, 2, 3, 9, 200))
        tail = rnd.choice((b"", b"GRSV?", engine.dumps(engine.Match(seed=n))))
        body = b"GRGM" + bytes((layout, len(v))) + v + bytes((0, len(sb))) + sb + tail
        nvm = FakeNvm()
        st = NvmStorage(nvm)
        st.save("settings", settings())
        st._append(st.im, cpnvm.record(cpnvm.GAME, body))
        again = NvmStorage(FakeNvm(data=nvm.image()))
        again.load("settings")
        value, msg = again.load("game", gamesave.decode)
        if msg and msg.startswith("Saved by version "):
            assert gamesave.newer(msg[len("Saved by version "):].split(";")[0]), (v, msg)
        o = again.outcome.get("game")
        if o == "newer":
            told["newer"] += 1
            assert gamesave.newer(gamesave.saved_by(body)), (v, layout)
        elif value is not None:
            told["loaded"] += 1
        else:
            told["damaged"] += 1
    assert min(told.values()) > 100, told
