"""The player's cut and the match's seal in the App (firmware/cutwait.py,
firmware/screens/cut.py, engine/cut.py, docs/FAIRNESS.md): a new match
made with an entropy source shows its match commitment before any input
of the player's enters, takes a cut with no sign the device chose, deals
from the secret, the cut and the hand's number, and ends on its seal; a
power cut at the cut screen shows the same commitment again; the record
verifies with the three noted.

Goldens: the commitment (92), the blank cut (93), A refused on it (94),
the filled cut (95), the seal on the match end (96).
"""

import os
import subprocess
import sys

import engine
from engine.cut import MATCH_HEX, secret_commitment
from engine.sha256 import hex_text
from firmware import entropy
from firmware.saves import gamesave
from firmware.saves.cutsave import Wait
from firmware.saves.records import Records
from firmware.settings import Stats
from tools.kit.memstorage import MemStorage
from tools.kit.ui_driver import (CUT, CUT_KEYS, chosen_game_save, give_cut, play_turn,
                                 simple_factory)
from tools.sim import textscreen
from tools.sim.simulator import Sim
from ui_golden import CheckedSim, Golden

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class WatchedStorage(MemStorage):
    """MemStorage that notes, for every save, the frames the App had shown
    before it (app set once the Sim is made)."""

    app = None

    def __init__(self, files=None):
        MemStorage.__init__(self, files)
        self.log = []

    def save(self, name, payload):
        self.log.append((name, bytes(payload), None if self.app is None else self.app.frames))
        return MemStorage.save(self, name, payload)


def new_sim(storage=None, seed=9, sim=Sim, **kw):
    s = sim(seed=5, storage=MemStorage() if storage is None else storage,
            entropy=entropy.seeded(seed), settings={"speed": "fast"}, **kw)
    s.settle()
    return s


def the_wait(storage):
    """The match waiting for its cut in the game save, or None."""
    return gamesave.decode(storage.files["game"]).wait


def shown(sim):
    """The panel's lines as the text view reads them."""
    return textscreen.read(sim.image())


def test_the_commitment_is_saved_and_shown_before_any_input_then_the_cut_starts_blank(tmp_path):
    g = Golden(tmp_path)
    st = WatchedStorage()
    sim = new_sim(st, sim=CheckedSim)
    st.app = sim.app
    assert sim.screen == "title"
    sim.press("A")                                  # NEW MATCH
    assert sim.screen == "cut" and sim.app.match is None and sim.app.session.kind == "cut"
    w = the_wait(st)
    assert w is not None and not w.box and len(w.secret) == 16
    # the secret was on the flash before the frame that shows its commitment
    saves = [f for name, p, f in st.log if name == "game" and gamesave.decode(p).wait]
    first = saves[0]
    commit = hex_text(secret_commitment(w.secret)[:MATCH_HEX // 2])
    assert len(commit) == 16
    frames_with_it = sim.app.frames
    assert first < frames_with_it
    screen = sim.app.screen
    assert screen.commit == b"MATCH #" + commit.encode() and screen.page == 0
    assert "MATCH #" in shown(sim) and commit in shown(sim)
    g.check(sim, "92_cut_commitment")
    sim.press("A")                                  # on to the cut
    assert screen.page == 1 and screen.text() == "    "
    g.check(sim, "93_cut_blank")
    sim.press("A")                                  # refused: nothing chosen
    assert screen.refused and sim.app.match is None
    g.check(sim, "94_cut_refused")
    for k in ("U", "R", "U", "U", "R", "D", "R", "D", "D"):
        sim.press(k)
    assert screen.text() == "AB98" and not screen.refused
    g.check(sim, "95_cut_filled")
    sim.press("A")
    m = sim.app.match
    assert sim.screen == "play" and m.cut == "AB98"
    assert m.match_commit == secret_commitment(w.secret) and m.ai_seed == w.ai_seed
    assert m.seed == w.seed and m.level == sim.app.settings.level and m.seats == "you cpu"
    # dealt from the secret, the cut and the hand's number
    from engine.cut import cut_seed
    from engine.deal import chained_commitment, chained_nonce
    seed = cut_seed(w.secret, "AB98", 1)
    nonce = chained_nonce(m.chain_start(), seed)
    assert m.hand.commit == hex_text(chained_commitment(m.chain_start(), 1, seed, nonce))[:10]
    assert sim.app.screen.cut_tag == b" CUT AB98"
    assert any("CUT AB98" in line for line in shown(sim))
    # the cut screen and its module are let go once the hand is dealt
    assert "cut" not in sim.app._screens or sim.app.screen_name == "play"
    saved = gamesave.decode(st.files["game"])
    assert saved.wait is None and saved.match.cut == "AB98"
    g.finish()


def test_a_on_a_blank_cut_changes_nothing():
    st = MemStorage()
    sim = new_sim(st)
    sim.press("A")
    before = dict(st.files)
    saves = st.saves
    screen = sim.app.screen
    sim.press("A")                                  # the commitment page: on to the cut
    # no place chosen; the first; all but the last
    for picks, text in (((), "    "), (("U",), "A   "), (("R", "U", "R", "U"), "AAA ")):
        for k in picks:
            sim.press(k)
        for _ in range(3):
            sim.press("A")
            assert sim.screen == "cut" and screen.page == 1 and screen.refused
            assert sim.app.match is None and sim.app.session.kind == "cut"
            assert st.files == before and st.saves == saves
            # no sign is filled in for the player: the blank places stay blank
            assert screen.text() == text
        assert "CHOOSE A SIGN IN EVERY PLACE" in shown(sim)
    sim.press("LA")                                 # a long A deals nothing either
    assert sim.app.match is None and screen.text() == "AAA "


def test_b_goes_back_to_the_title_without_dealing_from_either_page():
    for page_keys in ((), ("A", "U")):
        st = MemStorage()
        sim = new_sim(st)
        sim.press("A")
        w = the_wait(st)
        for k in page_keys:
            sim.press(k)
        sim.press("B")
        assert sim.screen == "title" and sim.app.match is None
        assert sim.app.session.kind == "cpu"
        saved = gamesave.decode(st.files["game"])
        assert saved.wait is None and saved.match is None
        assert "continue" not in sim.app.screen.keys
        # a new match then draws another secret, shown before any input
        sim.press("A")
        assert sim.screen == "cut" and the_wait(st).secret != w.secret


def test_a_power_cut_at_the_cut_screen_resumes_with_the_same_commitment():
    st = MemStorage()
    sim = new_sim(st, seed=9)
    sim.press("A")
    commit = sim.app.screen.commit
    w = the_wait(st)
    for k in ("A", "U", "R"):                       # half a cut given, then the power goes
        sim.press(k)
    # another entropy source after the restart: the saved secret is the one
    again = new_sim(MemStorage(st.files), seed=10)
    assert again.screen == "cut" and again.app.match is None
    assert again.app.screen.commit == commit and again.app.screen.page == 0
    assert again.app.screen.text() == "    "       # the cut starts again, blank
    assert commit.decode()[7:] in shown(again)
    m = give_cut(again)
    assert m.match_commit == secret_commitment(w.secret) and m.ai_seed == w.ai_seed
    # the same deal as a run the power never cut
    whole = new_sim(MemStorage(), seed=9)
    whole.press("A")
    other = give_cut(whole)
    assert other.hand.commit == m.hand.commit
    assert other.hand.cards_of(0) == m.hand.cards_of(0)
    # a restart after the cut: the match, not the wait
    third = new_sim(MemStorage(again.storage.files), seed=11)
    assert third.app.match is not None and third.app.match.cut == CUT
    assert third.screen == "title" and "continue" in third.app.screen.keys


def test_a_power_cut_after_the_cut_deals_that_match_without_asking_again():
    # the cut is saved with the waiting match before the deal
    # (firmware/cutwait.py's deal): a start that finds it deals that match,
    # as a start on a fresh heap does after the deal ran out of memory
    st = MemStorage()
    sim = new_sim(st, seed=9)
    sim.press("A")
    w = the_wait(st)
    saved = []
    orig = st.save

    def save(name, payload):
        saved.append(bytes(payload))
        return orig(name, payload)

    st.save = save
    m = give_cut(sim)
    cut_given = [gamesave.decode(p).wait for p in saved if gamesave.decode(p).wait is not None]
    assert cut_given and cut_given[-1].cut == CUT and cut_given[-1].secret == w.secret
    # the power goes with that save the newest: the match is dealt at start
    files = dict(st.files)
    files["game"] = gamesave.join(Stats().encode(), cut_given[-1].encode(), gamesave.VERSION)
    again = new_sim(MemStorage(files), seed=10)
    again.settle()
    assert again.screen == "play" and again.app.match is not None
    assert again.app.match.cut == CUT and again.app.match.match_commit == m.match_commit
    assert again.app.match.hand.cards_of(0) == m.hand.cards_of(0)
    assert the_wait(again.storage) is None or the_wait(again.storage).cut == CUT


def test_the_chosen_deal_lasts_the_humans_first_three_turns():
    # tools/kit/ui_driver.py's chosen_wait, which the first-key tests on the
    # emulated Pico and in `make play` resume: drawing from the stock and
    # discarding the card drawn, the hand is still in play after three turns
    st = MemStorage()
    st.files["game"] = chosen_game_save()
    sim = Sim(seed=5, storage=st, entropy=entropy.seeded(1))
    sim.settle()
    assert sim.screen == "cut" and sim.app.match is None
    m = give_cut(sim)
    assert sim.screen == "play"
    for _ in range(3):
        sim.press("A")                      # draw from the stock
        sim.press("A")                      # discard the card drawn
        sim.settle()
        assert sim.screen == "play" and not m.results and m.hand.phase != "over"


def test_a_start_after_a_damaged_save_waits_for_the_cut():
    st = MemStorage({"game": b"GRGM\x02garbage"})
    sim = new_sim(st)
    while sim.screen == "message":
        sim.press("A")
    assert sim.screen == "cut" and the_wait(st) is not None


def test_a_waiting_match_the_save_does_not_hold_whole_is_refused():
    w = Wait(False, engine.CARDEMS, 77, bytes(range(16)), 1234)
    stats = Stats()
    good = gamesave.join(stats.encode(), w.encode(), gamesave.VERSION)
    back = gamesave.decode(good).wait
    assert (back.box, back.rules.text(), back.seed, back.secret, back.ai_seed) == \
        (False, engine.CARDEMS.text(), 77, bytes(range(16)), 1234)
    sb, mb = gamesave.split(good)
    bad = [mb[:-1], mb + b"\x00", b"GRCX" + mb[4:], mb[:4] + b"\x02" + mb[5:],
           mb[:6] + b"knock_limit=99" + mb[6 + mb[5]:],
           mb[:-5] + b"\xff\xff\xff\xff" + mb[-1:], mb[:6 + mb[5]] + b"\xff" + mb[7 + mb[5]:]]
    # with its cut given: a cut of signs the cut screen has not, or longer
    # than a cut, or not as long as it says
    cm = Wait(False, engine.CARDEMS, 77, bytes(range(16)), 1234, "AB12").encode()
    assert gamesave.decode(gamesave.join(sb, cm, gamesave.VERSION)).wait.cut == "AB12"
    bad += [cm[:-1], cm + b"A", cm[:-4] + b"ab12", cm[:-4] + b"AB 2",
            cm[:-5] + bytes((33,)) + b"A" * 33, cm[:-5] + b"\x05" + cm[-4:]]
    for b in bad:
        payload = gamesave.join(sb, b, gamesave.VERSION)
        try:
            gamesave.decode(payload)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % b)
    # every other save is still layout 2, which version 1.1 reads
    assert gamesave.encode(stats)[4] == 2
    # a storage that keeps the statistics and the match apart joins them
    # again as layout 2 (circuitpython/cpnvm.py): still the waiting match
    again = gamesave.decode(gamesave.join(sb, mb)).wait
    assert again.secret == w.secret and again.seed == 77


def play_to_the_end(sim, limit=4000):
    """To the match end's first screen (its seal page, with a cut)."""
    for _ in range(limit):
        if sim.screen in ("seal", "match_end"):
            return
        if sim.screen == "play":
            play_turn(sim)
        else:
            sim.press("A")
    raise AssertionError("no match end")


def test_the_match_ends_on_its_seal_and_the_record_verifies_with_what_was_noted(tmp_path):
    g = Golden(tmp_path)
    rec = tmp_path / "records"
    sim = new_sim(player_factory=simple_factory, records=Records(str(rec)), sim=CheckedSim)
    sim.app.settings.target = 50
    sim.press("A")
    noted_match = sim.app.screen.commit.decode()
    give_cut(sim)
    play_to_the_end(sim)
    m = sim.app.match
    page = sim.app.screen
    assert sim.screen == "seal" and page.seal.startswith(b"SEAL #") and len(page.seal) == 16
    lines = shown(sim)
    assert page.seal.decode() in lines and "NOTE IT WITH THE MATCH # AND" in lines
    g.check(sim, "96_match_end_seal")
    noted_seal = page.seal.decode()
    sim.press("A")                                  # the scores
    assert sim.screen == "match_end"
    assert any("SEAL" in line for line in shown(sim))
    sim.press("U")                                  # the seal again
    assert sim.screen == "seal" and sim.app.screen.seal.decode() == noted_seal
    sim.press("B")
    assert sim.screen == "match_end"
    sim.press("A")
    assert sim.screen == "title"
    g.finish()
    sim.step()
    path = str(rec / sorted(os.listdir(rec))[-1])
    text = open(path).read()
    assert text.startswith("gin-rummy record 5") and "cut AAAA" in text
    assert "seal " in text and "secret " in text and len(m.results) >= 1
    noted = "%s, CUT %s, %s" % (noted_match, CUT, noted_seal)
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "records", "replay.py"),
                          "--verify", "--noted", noted, path],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1].startswith("verified: %d hand" % len(m.results))
    # and not with a seal, a cut or a match commitment it did not show
    wrong_seal = noted_seal[:-1] + ("0" if noted_seal[-1] != "0" else "1")
    for bad in ("%s, CUT %s, %s" % (noted_match, CUT, wrong_seal),
                "%s, CUT AAAB, %s" % (noted_match, noted_seal),
                "MATCH #%s, CUT %s, %s" % ("0" * 16 if noted_match[7] != "0" else "1" * 16,
                                           CUT, noted_seal)):
        out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "records", "replay.py"),
                              "--verify", "--noted", bad, path],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 1, bad


def test_a_box_match_with_a_cut_ends_on_its_seal():
    st = MemStorage()
    sim = new_sim(st, player_factory=simple_factory)
    t = sim.app.screen
    while t.keys[t.menu.sel] != "box":
        sim.press("D")
    sim.press("A")
    assert sim.screen == "cut" and the_wait(st).box
    assert "3-PLAYER GAME" in shown(sim)
    m = give_cut(sim)
    assert sim.screen == "box_play" and hasattr(m, "hand_roles") and m.seats == "you cpu cpu"
    # played to its end by the engine, then the box match end shown
    from tools.kit.play import play_out, players_choose
    from tools.kit.ui_driver import SimplePlayer
    play_out(m, players_choose([SimplePlayer()] * 3))
    from firmware.screens.result import go_on
    go_on(sim.app, True, "box_match_end", "box_play")  # A on the last hand's result
    sim.settle()
    page = sim.app.screen
    from engine.cut import seal
    assert sim.screen == "seal" and page.seal == b"SEAL #" + hex_text(seal(m)[:5]).encode()
    assert page.seal.decode() in shown(sim)
    sim.press("A")
    assert sim.screen == "box_match_end"
    sim.press("U")
    assert sim.screen == "seal"
    sim.press("A")
    assert sim.screen == "box_match_end"
    sim.press("A")
    assert sim.screen == "title"


def test_without_entropy_no_cut_is_asked_and_no_seal_shown():
    sim = Sim(seed=5, storage=MemStorage(), settings={"speed": "fast"})
    sim.settle()
    sim.press("A")
    assert sim.screen == "play" and sim.app.match.cut is None
    assert sim.app.screen.cut_tag == b""


def test_the_cut_keys_give_the_cut_every_driver_enters():
    sim = new_sim()
    sim.press("A")
    for k in CUT_KEYS[:-1]:
        sim.press(k)
    assert sim.app.screen.text() == CUT


# The App on the MicroPython unix port, a whole match with a cut: engine/cut.py
# is let go while every hand is played (firmware/screens/result.py,
# let_cut_go) and back for the record, the deal and the seal.
MP_MATCH = r'''
import sys
from firmware.buttons import Buttons
from firmware.keyscript import FakeClock, KeyScript
from firmware.display.ssd1306 import SSD1306
from firmware import entropy
from tools.kit.memstorage import MemStorage
from tools.sim.fakebus import CountingBus
from tools.kit.ui_driver import CUT_KEYS, play_turn, simple_factory


class Board(KeyScript):
    def __init__(self):
        from firmware.app import App
        from firmware.ports import Ports
        self.clock = FakeClock()
        self.mask = 0
        self.buttons = Buttons(self._read)
        st = MemStorage()
        st.save("settings", b"speed=fast\ntarget=50\n")
        self.app = App(Ports(SSD1306(CountingBus()), self.buttons, self.clock, st, seed=5,
                             player_factory=simple_factory, entropy=entropy.seeded(9)))
        self.app.start()
        self.settle()

    def _read(self):
        return self.mask

    def tick(self):
        return self.app.step()

    def press(self, k):
        self.key(k)
        self.settle()

    @property
    def screen(self):
        return self.app.screen_name


b = Board()
b.press("A")
print("@commit", b.app.screen.commit.decode())
for k in CUT_KEYS:
    b.press(k)
m = b.app.match
print("@cut", m.cut, "engine.cut" in sys.modules)
loaded = 0
n = 0
while b.screen != "seal" and n < 4000:
    if b.screen == "play":
        loaded += "engine.cut" in sys.modules
        loaded += "firmware.screens.seal" in sys.modules
        play_turn(b)
    else:
        b.press("A")
    n += 1
import engine
print("@end", b.screen, b.app.screen.seal.decode(), len(m.results), loaded)
b.press("A")
print("@scores", b.screen, "firmware.screens.seal" in sys.modules, "seal" in b.app._screens)
print("@record")
print(engine.record_text(m))
'''


def test_on_micropython_a_match_with_a_cut_lets_its_code_go_in_play_and_verifies(tmp_path):
    from tools.bench.bench_ui import ROOT as BENCH_ROOT, micropython_path, run_mp
    import pytest

    if micropython_path() is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    out = run_mp("import sys\nsys.path.insert(0, %r)\n" % BENCH_ROOT + MP_MATCH)
    head, _, record = out.partition("@record\n")
    lines = dict(ln.split(" ", 1) for ln in head.strip().splitlines())
    assert lines["@cut"] == "AAAA False"             # let go once the hand is dealt
    screen, word, digits, hands, loaded = lines["@end"].split(" ")
    seal = word + " " + digits                     # SEAL #...
    assert screen == "seal" and word == "SEAL" and int(hands) >= 1
    assert loaded == "0"                           # not in sys.modules at any turn
    # the seal page's code, loaded at the match end only, let go with it
    assert lines["@scores"] == "match_end False False"
    path = tmp_path / "record.txt"
    path.write_text(record.strip() + "\n")
    noted = "%s, CUT %s, %s" % (lines["@commit"], CUT, seal)
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "records", "replay.py"),
                          "--verify", "--noted", noted, str(path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    # the same match as on CPython: the same seal
    sim = new_sim(player_factory=simple_factory)
    sim.app.settings.target = 50
    sim.press("A")
    give_cut(sim)
    play_to_the_end(sim)
    assert sim.app.screen.seal.decode() == seal
