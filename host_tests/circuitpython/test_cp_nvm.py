"""Issue 9, check 2 (saves): cpports.NvmStorage keeps the settings, the
statistics and the match in microcontroller.nvm (4 KB on the RP2040), writes
only on change, survives a power cut at any byte of a write, and rejects a
corrupt image."""

import random

import pytest

import cpports
from cpports import NvmStorage
from microcontroller import FakeNvm, PowerCut

import engine
from firmware.settings import Settings, Stats


def match_payload(turns, seed=3):
    """engine.dumps of a match after `turns` AI moves (a real save)."""
    from engine.ai import Player

    m = engine.Match(seed=seed)
    ps = (Player("easy", seed), Player("easy", seed + 1))
    for _ in range(turns):
        if m.phase == "hand_over":
            m.next_hand()
            continue
        if m.phase == "match_over":
            break
        s = m.to_move
        m.act(ps[s].choose(m.view(s)))
    return engine.dumps(m)


def settings_payload(level="hard"):
    st = Settings()
    st.level = level
    return st.encode()


def stats_payload(hands):
    st = Stats()
    st.hands = hands
    st.best_hand = 3 * hands
    return st.encode()


def test_layout_fills_the_rp2040_nvm():
    st = NvmStorage(FakeNvm(4096))
    assert [(r[0], r[2], r[3]) for r in st.records] == [
        ("settings", 64, 192), ("stats", 448, 240), ("match", 928, 1584)]
    assert st.records[-1][2] + 2 * st.records[-1][3] == 4096


def test_custom_rules_settings_fit_one_settings_slot():
    # Every rule changed from Cardems: the longest settings the UI writes.
    from firmware.settings import Settings, RULE_FIELDS
    s = Settings()
    for key, options in RULE_FIELDS:
        # the longest value that differs from Cardems' for every field
        cur = getattr(s, key)
        s.set_rule(key, max([o for o in options if o != cur], key=lambda o: len(str(o))))
    assert s.rules == "custom"
    payload = s.encode()
    st = NvmStorage(FakeNvm(4096))
    assert len(payload) > 128           # more than the old slot held
    assert st.save("settings", payload)
    assert st.load("settings") == (payload, None)
    # one slot holds it whole (record head, payload, CRC): no spill into the other
    assert len(payload) + 8 + 2 <= st.records[0][3], len(payload)


def test_blank_nvm_has_no_saves_and_no_message():
    for fill in (0xFF, 0x00):
        st = NvmStorage(FakeNvm(fill=fill))
        for name in ("settings", "stats", "match"):
            assert st.load(name) == (None, None)
        assert st.damage == []


def test_saves_come_back_after_a_restart():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    m = match_payload(30)
    assert st.save("settings", settings_payload())
    assert st.save("stats", stats_payload(4))
    assert st.save("match", m)
    st2 = NvmStorage(nvm)
    assert st2.load("settings") == (settings_payload(), None)
    assert st2.load("stats") == (stats_payload(4), None)
    match, msg = st2.load("match", engine.loads)
    assert msg is None and engine.dumps(match) == m


def test_each_save_alternates_slots_and_keeps_the_one_before():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    payloads = [match_payload(t) for t in (4, 8, 12, 16, 20)]
    for p in payloads:
        st.save("match", p)
        assert NvmStorage(nvm).load("match") == (p, None)
    # The slot not in use still holds the save before.
    rec = st._record("match")
    a, b = st._slot(rec, 0), st._slot(rec, 1)
    assert {a[2], b[2]} == {payloads[-1], payloads[-2]}


def test_writes_only_on_change():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    assert st.save("settings", settings_payload())
    w = nvm.writes
    assert st.save("settings", settings_payload()) is False
    assert nvm.writes == w
    st2 = NvmStorage(nvm)
    st2.load("settings")
    assert st2.save("settings", settings_payload()) is False
    assert nvm.writes == w
    assert st2.save("settings", settings_payload("easy"))
    assert nvm.writes == w + 1          # one write per save once formatted


def test_loading_writes_nothing():
    nvm = FakeNvm(data=bytes(random.Random(5).randrange(256) for _ in range(4096)))
    st = NvmStorage(nvm)
    for name in ("settings", "stats", "match"):
        st.load(name)
    assert nvm.writes == 0


def test_remove_clears_both_slots():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("match", match_payload(4))
    st.save("match", match_payload(8))
    st.save("stats", stats_payload(1))
    st.remove("match")
    st2 = NvmStorage(nvm)
    assert st2.load("match") == (None, None)
    assert st2.load("stats") == (stats_payload(1), None)
    assert st2.save("match", match_payload(6))
    assert NvmStorage(nvm).load("match") == (match_payload(6), None)


def test_a_long_match_spans_both_slots():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    big = bytes(range(256)) * 10        # 2560 bytes: more than one slot
    small = match_payload(10)
    st.save("match", small)
    st.save("match", big)
    assert NvmStorage(nvm).load("match") == (big, None)
    st.save("match", small)
    assert NvmStorage(nvm).load("match") == (small, None)
    with pytest.raises(OSError):
        st.save("match", bytes(4000))
    assert NvmStorage(nvm).load("match") == (small, None)


def _cut_everywhere(prepare, write, check):
    """Run `write` on an image made by `prepare`, cut after every byte."""
    base = FakeNvm()
    prepare(NvmStorage(base))
    probe = FakeNvm(data=base.image())
    write(NvmStorage(probe))
    total = probe.written
    assert total > 0
    for k in range(total):
        nvm = FakeNvm(data=base.image())
        nvm.cut_after = k
        with pytest.raises(PowerCut):
            write(NvmStorage(nvm))
        nvm.cut_after = None
        check(k, NvmStorage(nvm), nvm)
    return total


def test_a_power_cut_at_any_byte_of_a_save_keeps_the_save_before():
    old, new = match_payload(20), match_payload(24)
    settings_old = settings_payload("easy")

    def prepare(st):
        st.save("settings", settings_old)
        st.save("match", match_payload(16))
        st.save("match", old)

    def write(st):
        st.load("match")
        st.save("match", new)

    def check(k, st, nvm):
        value, msg = st.load("match", engine.loads)
        assert value is not None, "cut after %d bytes lost the match" % k
        assert engine.dumps(value) in (old, new)
        if engine.dumps(value) == new:   # only once every byte that differs is in
            assert nvm.image() == done
        assert msg is None
        assert st.load("settings") == (settings_old, None)

    probe = FakeNvm()
    prepare(NvmStorage(probe))
    write(NvmStorage(probe))
    done = probe.image()
    assert _cut_everywhere(prepare, write, check) >= len(new)


def test_a_power_cut_during_the_first_save_loses_nothing_else():
    def prepare(st):
        st.save("settings", settings_payload())

    def write(st):
        st.save("stats", stats_payload(7))

    def check(k, st, nvm):
        assert st.load("settings") == (settings_payload(), None)
        value, msg = st.load("stats")
        assert value in (None, stats_payload(7))

    _cut_everywhere(prepare, write, check)


def test_a_power_cut_while_formatting_is_never_read_as_saves():
    def prepare(st):
        st.nvm[0:4] = b"JUNK"           # someone else's data: rejected, reformatted

    def write(st):
        st.save("settings", settings_payload())

    def check(k, st, nvm):
        value, msg = st.load("settings")
        assert value in (None, settings_payload())

    _cut_everywhere(prepare, write, check)


def test_a_power_cut_while_removing_leaves_the_match_or_nothing():
    a, b = match_payload(6), match_payload(9)

    def prepare(st):
        st.save("match", a)
        st.save("match", b)

    def write(st):
        st.remove("match")

    def check(k, st, nvm):
        assert st.load("match")[0] in (None, a, b)

    _cut_everywhere(prepare, write, check)


def test_a_corrupt_image_is_rejected_whole():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    st.save("settings", settings_payload())
    st.save("match", match_payload(10))
    for i in range(0, 47):              # every byte of the header that counts
        bad = FakeNvm(data=nvm.image())
        bad.data[i] ^= 0x5A
        st2 = NvmStorage(bad)
        for name in ("settings", "stats", "match"):
            value, msg = st2.load(name)
            assert value is None and msg
        assert st2.damage
        assert bad.writes == 0
    # The next save starts a fresh image; the others are gone, not garbage.
    st2.save("stats", stats_payload(2))
    st3 = NvmStorage(bad)
    assert st3.load("stats") == (stats_payload(2), None)
    assert st3.load("settings") == (None, None)


def test_a_damaged_record_is_never_returned():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    first, second = match_payload(8), match_payload(12)
    st.save("match", first)
    st.save("match", second)
    rec = st._record("match")
    cur = st._cur["match"]
    start = rec[2] + cur * rec[3]
    for i in range(0, 10 + len(second), 7):
        bad = FakeNvm(data=nvm.image())
        bad.data[start + i] ^= 0x01
        value, msg = NvmStorage(bad).load("match")
        assert value == first and msg is None   # the save before, as after a cut


def test_a_save_the_game_rejects_falls_back_to_the_one_before():
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    good = match_payload(8)
    st.save("match", good)
    st.save("match", b"not a match")
    value, msg = NvmStorage(nvm).load("match", engine.loads)
    assert engine.dumps(value) == good and "resumed the one before" in msg
    st.remove("match")
    st.save("match", b"not a match")
    value, msg = NvmStorage(nvm).load("match", engine.loads)
    assert value is None and "started fresh" in msg


def test_random_damage_never_yields_a_wrong_save():
    rnd = random.Random(9)
    nvm = FakeNvm()
    st = NvmStorage(nvm)
    saved = {"settings": [settings_payload("easy"), settings_payload("hard")],
             "stats": [stats_payload(1), stats_payload(2)],
             "match": [match_payload(5), match_payload(9)]}
    for name, ps in saved.items():
        for p in ps:
            st.save(name, p)
    for _ in range(300):
        bad = FakeNvm(data=nvm.image())
        for _ in range(rnd.randrange(1, 4)):
            bad.data[rnd.randrange(4096)] = rnd.randrange(256)
        st2 = NvmStorage(bad)
        for name, ps in saved.items():
            value, msg = st2.load(name)
            assert value is None or value in ps


def test_storage_runs_the_app_through_a_restart():
    """The App saves its settings, statistics and match through the nvm and
    finds them again after a reset."""
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


def test_nvm_too_small_for_the_layout_is_refused():
    with pytest.raises(ValueError):
        NvmStorage(FakeNvm(256))
    assert cpports.LAYOUT[-1][1] is None
