"""The game save carries the game's version (engine/version.py); a save
from a newer version is recognised and said ("Saved by version X; this is
Y: kept as game.new"), never misread as damage nor thrown away."""

import pytest

import engine
from devutil import FaultFS
from engine.version import VERSION
from firmware import gamesave
from firmware import storage as stg
from firmware.stats import Stats
from firmware.storage import Storage
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
    assert p[:4] == b"GRGM" and p[4] == gamesave.VERSION >= 2
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
    from engine.version import parse
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
