"""Game records on the board (firmware/saves/records.py), `make records`, and
tools/records/replay.py on CPython and the MicroPython unix port.

A record made by the simulator (the same App as the board, a hand played
by pressing buttons) replays with tools/records/replay.py to the same moves and
result on both runtimes, byte for byte.
"""

import os
import subprocess
import sys

import pytest

import engine
from devutil import ROOT, FaultFS, PowerCut, micropython, play_turn, run_mp, watch_opens
from firmware.saves.records import KEEP, Records

REPLAY = os.path.join(ROOT, "tools", "records", "replay.py")


def played(seed, turns):
    m = engine.Match(seed=seed)
    for _ in range(turns):
        if not play_turn(m):
            break
    return m


def hand_end(seed):
    """A match just after its first hand ended."""
    m = engine.Match(seed=seed)
    while m.phase != "hand_over":
        play_turn(m)
    return m


def text_of(fs, path):
    return bytes(fs.files[path]).decode()


# -- keeping records -----------------------------------------------------------

def test_record_is_written_at_hand_end_and_rewritten_as_the_match_goes_on():
    fs = FaultFS()
    r = Records("/data/records", fs=fs)
    m = hand_end(11)
    p = r.keep_match(m)
    assert p == "/data/records/000001-11.txt"
    assert {"/data", "/data/records"} <= fs.dirs
    assert text_of(fs, p) == engine.record_text(m)
    play_turn(m)                       # the next hand
    while m.phase != "hand_over":
        play_turn(m)
    assert r.keep_match(m) == p        # the same match: the same file
    assert text_of(fs, p) == engine.record_text(m)
    assert engine.record_text(engine.replay(text_of(fs, p))) == text_of(fs, p)
    assert sorted(fs.files) == [p]     # no .tmp left


def test_a_resumed_match_finds_its_file_after_a_restart():
    fs = FaultFS()
    m = hand_end(5)
    Records("/data/records", fs=fs).keep_match(hand_end(4))
    p = Records("/data/records", fs=fs).keep_match(m)
    again = Records("/data/records", fs=fs.copy())     # power cycle
    assert again.keep_match(m) == p == "/data/records/000002-5.txt"


def test_only_the_newest_matches_are_kept():
    fs = FaultFS()
    r = Records("/data/records", fs=fs, keep=3)
    for seed in range(100, 106):
        r.keep_match(hand_end(seed))
    assert r.names() == ["000004-103.txt", "000005-104.txt", "000006-105.txt"]
    assert len(fs.files) == 3
    assert KEEP >= 3


def test_power_cut_at_every_step_leaves_the_old_record_or_the_new_one():
    m = hand_end(21)
    base = FaultFS()
    Records("/data/records", fs=base).keep_match(m)
    path = "/data/records/000001-21.txt"
    old = text_of(base, path)
    play_turn(m)
    while m.phase != "hand_over":
        play_turn(m)
    new = engine.record_text(m)
    steps = None
    cut = 0
    while True:
        fs = base.copy()
        fs.budget = cut
        try:
            Records("/data/records", fs=fs).keep_match(m)
            steps = fs.steps
        except PowerCut:
            pass
        after = fs.copy()
        got = text_of(after, path)
        assert got in (old, new), "torn record after a cut at step %d" % cut
        if steps is not None:
            assert got == new
            break
        cut += 1
    assert steps > 100                  # the cut came at every write


def test_a_failing_flash_does_not_stop_the_game_and_is_reported_once():
    said = []
    fs = FaultFS()
    fs.fail_at = 3
    r = Records("/data/records", fs=fs, out=said.append)
    assert r.keep_match(hand_end(2)) is None
    assert r.error.startswith("OSError")
    fs.fail_at = fs.steps + 1
    assert r.keep_match(hand_end(2)) is None
    assert len(said) == 1 and "The game record could not be written in /data/records" in said[0]
    assert "the game goes on without it" in said[0]
    assert "Is the flash full?" in said[0]


def test_a_record_refused_for_memory_says_memory_not_flash():
    said = []
    r = Records("/data/records", fs=FaultFS(), out=said.append)

    def no_room(match):
        raise MemoryError("memory allocation failed, allocating 1148 bytes")

    r._keep = no_room
    assert r.keep_match(hand_end(2)) is None
    assert r.error.startswith("MemoryError")
    assert len(said) == 1 and "Low on memory" in said[0] and "flash" not in said[0]


def test_records_on_micropython_with_the_real_filesystem(tmp_path):
    script = tmp_path / "rec.py"
    script.write_text(r"""
import sys
sys.path.insert(0, %(repo)r)
import engine
from firmware.saves.records import Records
m = engine.Match(seed=9)
while m.phase != "hand_over":
    if m.phase == "draw":
        m.act("draw_stock")
    elif m.phase == "discard":
        v = m.view(m.to_move)
        t = engine.card_text(engine.best_discard(v.hand, v.taken)[1])
        if m.act("knock:" + t) is not None:
            m.act("discard:" + t)
    else:
        m.act(m.legal()[0])
r = Records(%(root)r)
print("@@", r.keep_match(m))
""" % {"repo": ROOT, "root": str(tmp_path / "data" / "records")})
    r = run_mp(str(script), cwd=str(tmp_path), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    path = tmp_path / "data" / "records" / "000001-9.txt"
    assert r.stdout.split("@@ ")[1].strip() == str(path)
    m = engine.replay(path.read_text())
    assert len(m.results) == 1


# -- replay ------------------------------------------------------------------------

def sim_record(tmp_path, seed=2):
    """Play one hand in the simulator by pressing buttons; the record it kept."""
    from tools.sim.simulator import MemStorage, Sim
    from tools.kit.ui_driver import presses_for, simple_choice

    sim = Sim(seed=seed, storage=MemStorage(), settings={"speed": "fast"},
              records=Records(str(tmp_path / "records")))
    sim.settle()
    sim.press("A")
    while sim.screen == "play":
        for k in presses_for(sim, simple_choice(sim.app.match.view(0))):
            sim.press(k)
            if sim.screen != "play":
                break
    assert sim.screen == "showdown"
    names = os.listdir(tmp_path / "records")
    assert len(names) == 1
    return sim, str(tmp_path / "records" / names[0])


def run_replay(args, runtime="cpython"):
    if runtime == "cpython":
        cmd = [sys.executable, REPLAY] + args
    else:
        mp = micropython()
        assert mp, "MicroPython unix port not found (.venv/bin/micropython); run `make test`"
        cmd = [mp, REPLAY] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL, cwd=ROOT)


def test_replay_of_a_simulator_record_is_the_same_on_cpython_and_micropython(tmp_path):
    sim, path = sim_record(tmp_path)
    m = sim.app.match
    res = m.results[0]
    a = run_replay([path])
    b = run_replay([path], "micropython")
    assert a.returncode == 0, a.stdout + a.stderr
    assert b.returncode == 0, b.stdout + b.stderr
    assert a.stdout == b.stdout
    out = a.stdout
    h = m.hands[0]
    assert "hand 1, fingerprint %s, deal number %d, YOU first" % (
        engine.fingerprint_text(h.deal), h.deal) in out
    moves = [ln for ln in out.splitlines() if ln[:6].strip().isdigit()]
    assert len(moves) == len(h.log)
    names = ("YOU", "CPU")
    for j in range(len(h.log)):
        assert moves[j].split()[1] == names[h.log_seat[j]]
    assert "%d points to %s; scores YOU %d, CPU %d" % (
        res.points, names[res.winner], m.scores[0], m.scores[1]) in out
    assert "match not over: YOU %d, CPU %d after 1 hands" % tuple(m.scores) in out
    assert "replayed: every deal number, move and result as recorded" in out
    # a scripted simulator run deals by deal numbers: checked, but not a commitment
    assert out.rstrip().endswith("(a match dealt by deal numbers: a check, not a commitment)")


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_replay_of_whole_matches_under_every_preset(tmp_path, runtime):
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "records", "record_match.py"), "4"],
                         capture_output=True, text=True, timeout=300).stdout
    parts = ["gin-rummy " + p for p in out.split("gin-rummy ") if p.strip()]
    paths = []
    for i, p in enumerate(parts):
        f = tmp_path / ("r%d.txt" % i)
        f.write_text(p)
        paths.append(str(f))
    r = run_replay(paths, runtime)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    assert r.stdout.count("replayed: every deal number") == len(parts) == 5
    assert "bonuses: game 100" in r.stdout           # V4
    assert "player 0 " in r.stdout                   # V6 box record
    if runtime == "micropython":
        assert r.stdout == run_replay(paths).stdout


def test_replay_rejects_a_changed_deal_or_move(tmp_path):
    sim, path = sim_record(tmp_path, seed=3)
    text = open(path).read()
    h = sim.app.match.hands[0]
    bad = tmp_path / "bad_deal.txt"
    bad.write_text(text.replace("deal %d" % h.deal, "deal %d" % (h.deal + 1)))
    r = run_replay([str(bad)])
    assert r.returncode == 1
    assert "the record does not replay: record line 5" in r.stdout  # after the version line
    assert "expected hand 1 fingerprint %s deal %d" % (engine.fingerprint_text(h.deal),
                                                       h.deal) in r.stdout
    fp = engine.fingerprint_text(h.deal)
    other = "%06X" % (int(fp, 16) ^ 1)
    bad.write_text(text.replace("fingerprint " + fp, "fingerprint " + other, 1))
    r = run_replay([str(bad)], "micropython")
    assert r.returncode == 1
    assert "deal %d has the fingerprint %s, not %s" % (h.deal, fp, other) in r.stdout
    lines = text.split("\n")
    i = next(i for i, ln in enumerate(lines) if ln.startswith("0 discard:"))
    lines[i] = "0 discard:" + ("As" if lines[i] != "0 discard:As" else "2s")
    bad.write_text("\n".join(lines))
    r = run_replay([str(bad)], "micropython")
    assert r.returncode == 1 and "the record does not replay: record line %d" % (i + 1) in r.stdout


def test_replay_usage():
    r = run_replay([])
    assert r.returncode == 2 and r.stdout.startswith("usage: replay.py RECORD")
    r = run_replay(["/nonexistent/record.txt"])
    assert r.returncode == 2 and "cannot read" in r.stdout


# -- make records ---------------------------------------------------------------------

def make_n(*args):
    r = subprocess.run(["make", "-n", "records"] + list(args), cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    line = [ln for ln in r.stdout.splitlines() if "mpremote" in ln and "fs cp" in ln][0]
    return " ".join(line.split())


def test_make_records_copies_the_records_folder_with_mpremote():
    line = make_n()
    assert "-m mpremote fs cp -r :/data/records . + reset" in line
    line = make_n("PORT=/dev/ttyACM0")
    assert "-m mpremote connect /dev/ttyACM0 fs cp -r :/data/records . + reset" in line
    line = make_n("PORT=a0")
    assert "-m mpremote a0 fs cp -r :/data/records . + reset" in line


def test_a_record_is_written_with_the_file_reserve_let_go_and_holds_it_again(tmp_path, monkeypatch):
    # the record's open needs a heap run of ~1.1 KB on littlefs
    # (firmware.compat's reserve); once the file is closed it is held again
    from firmware import compat

    r = Records(str(tmp_path / "records"))
    seen = watch_opens(monkeypatch)
    assert r.keep_match(hand_end(5)) is not None
    assert seen == [True]
    assert len(compat._reserve[0]) == compat.RESERVE
