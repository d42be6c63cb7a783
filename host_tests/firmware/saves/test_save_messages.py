"""Every message about the saves is true: each test makes one case on the
files, boots, and checks that the message says what happened to which
file, and that the files are as it says."""

import pytest

from devutil import FaultFS, match_states
from firmware.saves import storage as stg
from firmware.stats import Stats
from firmware.saves.storage import Storage
from tools.sim.simulator import Sim

DATA = "/data"


def p(name):
    return DATA + "/" + name


@pytest.fixture(scope="module")
def states():
    return match_states(seed=11, turns=10)


def _damaged(payload):
    b = bytearray(stg.pack(payload))
    b[9] ^= 0x41
    return bytes(b)


def test_main_save_missing_and_its_backup_damaged(states):
    bak = _damaged(states[2])
    fs = FaultFS({p("match.bak"): bak}, [DATA])
    value, msg = Storage(DATA, fs).load("match")
    assert value is None
    assert "Kept as match.bad." in msg
    assert fs.files[p("match.bad")] == bak and p("match.bak") not in fs.files


def test_main_save_and_its_backup_both_damaged(states):
    dat, bak = _damaged(states[3]), _damaged(states[2])
    fs = FaultFS({p("match.dat"): dat, p("match.bak"): bak}, [DATA])
    value, msg = Storage(DATA, fs).load("match")
    assert value is None
    assert fs.files[p("match.bad")] == dat          # the newest damage is kept
    assert "Kept as match.bad." in msg
    assert "backup" in msg and "deleted" in msg and p("match.bak") not in fs.files
    # said once: the next start is quiet
    assert Storage(DATA, fs).load("match") == (None, None)


def test_damaged_main_save_and_a_good_backup(states):
    dat = _damaged(states[3])
    fs = FaultFS({p("match.dat"): dat, p("match.bak"): stg.pack(states[2])}, [DATA])
    value, msg = Storage(DATA, fs).load("match")
    assert value == states[2] and msg == stg.MSG_RESUMED + " Kept as match.bad."
    assert fs.files[p("match.bad")] == dat and fs.files[p("match.dat")] == stg.pack(states[2])


def test_a_damaged_file_that_cannot_be_moved_is_not_said_to_be_kept(states):
    class NoRename(FaultFS):
        def rename(self, src, dst):
            raise OSError(5, "rename")

    fs = NoRename({p("match.dat"): _damaged(states[3])}, [DATA])
    value, msg = Storage(DATA, fs).load("match")
    assert value is None and "Kept as" not in msg and p("match.bad") not in fs.files


def test_an_older_firmwares_damaged_statistics_are_said():
    """The first start of this firmware reads the older "stats" and "match"
    saves once; a damaged stats.dat is set aside and said."""
    bad = bytearray(stg.pack(Stats().encode()))
    bad[8] ^= 0x10
    fs = FaultFS({p("stats.dat"): bytes(bad)}, [DATA])
    sim = Sim(seed=3, storage=Storage(DATA, fs))
    app = sim.app
    assert app.screen_name == "message"
    title = bytes(app.screen.title)
    text = b" ".join(bytes(x) for x in app.screen.lines).decode()
    assert b"STAT" in title, title
    assert "stats.bad" in text, text
    assert fs.files[p("stats.bad")] == bytes(bad)


def test_damaged_main_save_and_a_complete_newer_copy(states):
    """A complete .tmp is the newest save (a cut came before its renames):
    with .dat damaged it is resumed, and the message does not call it the
    one before."""
    dat = _damaged(states[3])
    fs = FaultFS({p("match.dat"): dat, p("match.tmp"): stg.pack(states[4]),
                  p("match.bak"): stg.pack(states[2])}, [DATA])
    value, msg = Storage(DATA, fs).load("match")
    assert value == states[4]
    assert msg == stg.MSG_RESUMED_NEWEST + " Kept as match.bad."
    assert "before" not in msg
    assert fs.files[p("match.bad")] == dat and fs.files[p("match.dat")] == stg.pack(states[4])


def test_main_save_missing_and_a_good_backup(states):
    """Never left by save() or remove(): the backup is resumed, said, and
    becomes the main save (the next start is quiet)."""
    fs = FaultFS({p("match.bak"): stg.pack(states[2])}, [DATA])
    value, msg = Storage(DATA, fs).load("match")
    assert value == states[2] and msg == stg.MSG_LOST
    assert fs.files[p("match.dat")] == stg.pack(states[2]) and p("match.bak") not in fs.files
    assert Storage(DATA, fs).load("match") == (states[2], None)


def test_both_damaged_and_the_backup_cannot_be_deleted(states):
    class NoRemove(FaultFS):
        def remove(self, path):
            if path.endswith(".bak"):
                raise OSError(5, "remove")
            return super().remove(path)

    dat, bak = _damaged(states[3]), _damaged(states[2])
    fs = NoRemove({p("match.dat"): dat, p("match.bak"): bak}, [DATA])
    value, msg = Storage(DATA, fs).load("match")
    assert value is None
    assert msg == stg.MSG_FRESH + " Kept as match.bad." + stg.MSG_BAK_LEFT % "match.bak"
    assert fs.files[p("match.bad")] == dat and fs.files[p("match.bak")] == bak
