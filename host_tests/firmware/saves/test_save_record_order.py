"""The game record never runs ahead of the match that resumes: a power cut
at the match's end, between its game record and the commit that ends it,
at every rename (littlefs: a rename is the step that makes a file
current), never leaves a record with a hand the resumed match has not
played, nor a finished match without its last hand in its record."""


import engine
from devutil import FaultFS, PowerCut
from firmware.saves.records import Records
from firmware.saves.storage import Storage
from tools.sim.simulator import Sim

from tools.kit.ui_driver import play_turn, simple_factory

DATA = "/data"
RECS = DATA + "/records"


def _session(fs, seed=5):
    """A match to 50 through the App on `fs` until its end screen (or the
    power cut); the Sim."""
    sim = Sim(seed=seed, storage=Storage(DATA, fs), player_factory=simple_factory,
              settings={"speed": "fast", "target": 50}, records=Records(RECS, fs=fs))
    try:
        sim.press("A")                             # NEW MATCH
        for _ in range(3000):
            if sim.screen == "match_end":
                sim.settle()
                break
            if sim.screen == "play" and sim.app.match.to_move == 0:
                play_turn(sim)
            else:
                sim.press("A")
    except PowerCut:
        pass
    return sim


def _record(fs):
    names = Records(RECS, fs=fs).names()
    if not names:
        return None
    f = fs.open(RECS + "/" + names[-1], "rb")
    return bytes(f.read()).decode()


def _results(text):
    return sum(1 for ln in (text or "").split("\n") if ln.startswith("result "))


def test_a_cut_at_the_match_end_never_leaves_the_record_ahead_of_the_resumed_match():
    fs = FaultFS(dirs=[DATA], littlefs=True)
    sim = _session(fs)
    assert sim.screen == "match_end"
    full = _record(fs)
    assert _results(full) >= 1
    # the renames of the match's last hand end: the record's and the saves'
    renames = [i for i, what in enumerate(fs.log) if what.startswith("rename ")]
    last_record = max(i for i in renames if RECS in fs.log[i])
    window = [i for i in renames if i >= last_record - 400]
    assert len(window) >= 3
    checked = 0
    for r in window:
        for k in (r, r + 1):
            cut = FaultFS(dirs=[DATA], littlefs=True)
            cut.budget = k
            _session(cut)
            left = cut.copy()
            again = Sim(seed=9, storage=Storage(DATA, left), player_factory=simple_factory,
                        records=Records(RECS, fs=left))
            again.step()
            text = _record(left)
            m = again.app.match
            if m is not None:
                # the record is the resumed match so far, or less of it
                assert text is None or engine.record_text(m).startswith(text), (k, fs.log[r])
            else:
                assert text == full, (k, fs.log[r])   # over: its whole record
            checked += 1
    assert checked >= 6
