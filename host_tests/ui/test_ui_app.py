"""The app around the screens: boot, saves, settings, statistics."""

import os

import engine
from firmware.saves import gamesave
from firmware.settings import Settings, Stats
from tools.sim.simulator import FakeClock, MemStorage, Sim, host_storage
from tools.kit.ui_driver import RefusingStorage, play_turn, simple_factory, title_entries


def play_match(sim):
    while sim.screen != "match_end":
        if sim.screen == "play":
            play_turn(sim)
        else:
            sim.press("A")


def test_settings_encode_sorted_key_value_lines():
    s = Settings()
    s.level = "hard"
    data = s.encode()
    lines = data.decode().splitlines()
    assert lines == sorted(lines)
    assert "level=hard" in lines and "target=100" in lines
    t = Settings.decode(data)
    assert t.pairs() == s.pairs()


def test_settings_decode_ignores_junk_and_keeps_defaults():
    t = Settings.decode(b"level=impossible\nspeed=fast\n\xff\xfe\ngarbage\ntarget=7\n")
    assert t.level == "normal" and t.speed == "fast" and t.target == 100
    assert Settings.decode(None).pairs() == Settings().pairs()
    assert Settings.decode(b"\x80\x81").pairs() == Settings().pairs()


def test_stats_encode_roundtrip():
    st = Stats()
    st.matches = 3
    st.hands, st.hands_won, st.knocks, st.best_hand = 5, 2, 2, 61
    assert Stats.decode(st.encode()).pairs() == st.pairs()
    # the older text form still loads; what does not add up is refused
    assert Stats.decode(b"hands=4\nmatches=1\n").hands == 4
    for bad in (b"hands=-4\nwins=x", b"hands=1\nhands_won=2\n"):
        try:
            Stats.decode(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_settings_persist_across_a_restart():
    storage = MemStorage()
    sim = Sim(seed=1, storage=storage, player_factory=simple_factory)
    sim.keys("D A R D R B")          # AI level -> hard, AI speed -> fast
    assert sim.screen == "title"
    sim2 = Sim(seed=1, storage=storage, player_factory=simple_factory)
    assert sim2.app.settings.level == "hard" and sim2.app.settings.speed == "fast"


def test_new_match_uses_the_ai_level_and_target_from_settings():
    made = []

    def factory(level, seed):
        made.append(level)
        return simple_factory(level, seed)

    sim = Sim(seed=1, player_factory=factory, settings={"level": "easy", "target": 50})
    sim.press("A")
    assert made[-1] == "easy" and sim.app.match.rules.target == 50


def test_statistics_count_a_whole_match_and_persist():
    storage = MemStorage()
    sim = Sim(seed=1, storage=storage, player_factory=simple_factory,
              settings={"speed": "fast"})
    sim.press("A")
    play_match(sim)
    m = sim.app.match
    st = gamesave.decode(storage.files["game"]).stats
    mine = [r for r in m.results if r.winner == 0]
    assert st.matches == 1 and st.matches_won == (1 if m.end.winner == 0 else 0)
    assert st.hands == len(m.results) and st.hands_won == len(mine)
    assert st.gins == len([r for r in mine if r.kind == "gin"])
    assert st.undercuts == len([r for r in mine if r.kind == "undercut"])
    assert st.best_hand == max([r.points for r in mine] or [0])
    sim2 = Sim(seed=2, storage=storage, player_factory=simple_factory)
    assert sim2.app.stats.pairs() == st.pairs()


class Watched(MemStorage):
    """MemStorage that notes every load."""

    def __init__(self):
        super().__init__()
        self.loads = []

    def load(self, name, decode=None):
        self.loads.append(name)
        return super().load(name, decode)


class Panel:
    """A display port that notes what it is asked to do."""

    def __init__(self):
        self.calls = []

    def show(self, buf):
        self.calls.append("show")
        return len(buf)

    def contrast(self, v):
        self.calls.append("contrast")


def test_the_app_reads_and_draws_nothing_until_started(monkeypatch):
    # App(ports) gets every port at once; start() reads the saves and opens
    # one title, with LINK, and the first step draws it
    from firmware.app import App
    from firmware.ports import Ports
    from firmware.buttons import Buttons

    entered = title_entries(monkeypatch)
    storage, panel = Watched(), Panel()
    app = App(Ports(panel, Buttons(lambda: 0), lambda: 1000, storage, seed=3,
                    link_port=lambda: None))
    assert storage.loads == [] and panel.calls == [] and app.screen is None
    assert entered == []
    app.start()
    assert storage.loads and "show" not in panel.calls
    assert entered == [0] and app.screen_name == "title" and app.screen.keys[-1] == "link"
    app.step()
    assert panel.calls.count("show") == 1 and app.full_frames == 1 and entered == [0]


def test_the_simulator_opens_one_title_at_power_on_with_link(monkeypatch):
    entered = title_entries(monkeypatch)
    sim = Sim(seed=3, link_port=lambda: None)
    sim.settle()
    assert entered == [0] and sim.screen == "title" and sim.app.screen.keys[-1] == "link"
    assert sim.app.full_frames == 1


def test_boot_offers_the_saved_match_with_the_real_storage(tmp_path):
    root = str(tmp_path / "saves")
    sim = Sim(seed=4, storage=host_storage(root), player_factory=simple_factory)
    sim.press("A")
    sim.press("A")
    sim.press("A")                   # a turn and the AI's: saved
    m = sim.app.match
    sim2 = Sim(seed=9, storage=host_storage(root), player_factory=simple_factory)
    assert sim2.app.screen.keys[0] == "continue"
    sim2.press("A")
    assert sim2.screen == "play"
    assert engine.dumps(sim2.app.match) == engine.dumps(m)


def test_damaged_save_is_set_aside_and_a_new_match_starts(tmp_path):
    root = str(tmp_path / "saves")
    sim = Sim(seed=4, storage=host_storage(root), player_factory=simple_factory)
    sim.press("A")
    sim.keys("A A")
    files = os.listdir(root)
    dat = [f for f in files if f.startswith("game") and f.endswith(".dat")]
    assert dat, files
    for f in files:                  # damage the save and its backup
        if f.startswith("game"):
            with open(os.path.join(root, f), "r+b") as fh:
                fh.seek(12)
                fh.write(b"\x00\x01\x02\x03")
    sim2 = Sim(seed=9, storage=host_storage(root), player_factory=simple_factory)
    assert sim2.screen == "message"
    assert b"DAMAGED" in sim2.app.screen.title
    assert any(f.startswith("game") and f.endswith(".bad") for f in os.listdir(root))
    sim2.press("A")
    assert sim2.screen == "play" and sim2.app.match.seed == 9
    assert sim2.app.match.hand_no == 1 and not sim2.app.match.hand.log


def test_a_new_match_seed_comes_from_the_clock_without_a_seed():
    clock = FakeClock(123456)
    sim = Sim(seed=None, clock=clock, player_factory=simple_factory)
    sim.press("A")
    assert sim.app.match.seed == 123456 + 0 or sim.app.match.seed > 0
    seeds = {sim.app.match.seed}
    sim2 = Sim(seed=None, clock=FakeClock(999999), player_factory=simple_factory)
    sim2.press("A")
    seeds.add(sim2.app.match.seed)
    assert len(seeds) == 2


def test_same_presses_give_the_same_screens():
    a = Sim(seed=5, player_factory=simple_factory)
    b = Sim(seed=5, player_factory=simple_factory)
    keys = "A A R A L L A R A B D A A"
    a.keys(keys)
    b.keys(keys)
    assert a.image() == b.image() and a.screen == b.screen


def test_simulator_command_line_prints_the_final_screen(tmp_path):
    import subprocess
    import sys

    from tools.sim.simulator import ROOT

    def run():
        r = subprocess.run(
            [sys.executable, "-m", "tools.sim.simulator", "--seed", "3", "--level", "easy",
             "--saves", str(tmp_path / ("s%d" % len(outs))), "--png", str(tmp_path / "png"),
             "--keys", "A R A"],
            cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout

    outs = []
    outs.append(run())
    outs.append(run())
    lines = outs[0].splitlines()
    assert len(lines) == 33 and all(len(ln) == 128 for ln in lines[:32])
    assert lines[32] == "screen: play"
    assert outs[0] == outs[1]                  # same keys, same screen
    pngs = sorted(os.listdir(str(tmp_path / "png")))
    assert pngs[0] == "000_title.png" and pngs[-1].endswith("_play.png")


def test_a_flash_that_refuses_saves_does_not_stop_the_game():
    sim = Sim(seed=4, storage=RefusingStorage(), player_factory=simple_factory)
    sim.press("A")                       # new match: its first save fails
    assert sim.screen == "play"
    assert "could not save game" in sim.app.saving.error
    for _ in range(3):
        play_turn(sim)
    assert sim.app.match.hand.log        # play went on
    sim.app.saving.error = None
    sim.app.session.reset_stats()
    assert "could not save game" in sim.app.saving.error


def test_the_damaged_save_message_is_the_storages_own():
    good = Sim(seed=4, storage=MemStorage(), player_factory=simple_factory)
    good.press("A")
    files = dict(good.app.storage.files)
    files["game"] = b"GRGM\x01garbage"
    sim = Sim(seed=9, storage=MemStorage(files), player_factory=simple_factory)
    assert sim.screen == "message"
    from firmware.screens import layout as L
    assert sim.app.screen.lines == L.wrap("The game save was damaged and set aside. A new match "
                                          "starts; the statistics count from 0.", 31)


def test_a_screen_is_imported_with_the_file_reserve_let_go(monkeypatch):
    # from the .mpy bundle an import opens a file: one heap run of ~1.1 KB
    # on littlefs (firmware.compat's reserve, held again after the import)
    from firmware import app as app_mod
    from firmware import compat

    sim = Sim(seed=3)
    real = app_mod.class_of_screen
    seen = []

    def watching(name):
        seen.append((name, compat._reserve[0] is None))
        return real(name)

    monkeypatch.setattr(app_mod, "class_of_screen", watching)
    sim.app._screens.pop("settings", None)
    sim.app.go("settings")
    assert seen == [("settings", True)]
    assert len(compat._reserve[0]) == compat.RESERVE
    sim.app.go("title")            # made already: nothing imported
    assert seen == [("settings", True)]


def test_a_screen_refused_for_memory_after_a_match_is_made_once_more_with_room(monkeypatch):
    # from the .mpy bundle a screen imported at a match's end (the title after
    # the three-player game) may find no run of the heap: the screens not
    # showing go and it is tried again
    from firmware import app as app_mod

    sim = Sim(seed=5, player_factory=simple_factory)
    sim.app.settings.target = 10
    sim.app.life.new_match()
    sim.app.go("play", new_hand=True)
    play_match(sim)
    assert sim.screen == "match_end"
    sim.app._screens.pop("title", None)        # as App.let_go does on the device
    real = app_mod.class_of_screen
    tries = []

    def refusing(name):
        tries.append(name)
        if len(tries) == 1:
            raise MemoryError("memory allocation failed, allocating 1148 bytes")
        return real(name)

    monkeypatch.setattr(app_mod, "class_of_screen", refusing)
    sim.press("A")
    assert tries == ["title", "title"]
    assert sim.screen == "title" and sim.app.match is None
    # the match's other screens let go (made again at the next match)
    assert set(sim.app._screens) == {"title", "match_end"}
    monkeypatch.setattr(app_mod, "class_of_screen", real)
    sim.press("A")                               # NEW MATCH: the table is made again
    assert sim.screen == "play"


def test_a_screen_refused_for_memory_in_a_match_is_not_tried_again(monkeypatch):
    # in a match nothing is let go: the device loop restarts from the save
    from firmware import app as app_mod

    sim = Sim(seed=5, player_factory=simple_factory)
    sim.app.life.new_match()
    sim.app.go("play", new_hand=True)
    sim.app._screens.pop("settings", None)
    calls = []

    def refusing(name):
        calls.append(name)
        raise MemoryError("memory allocation failed, allocating 1148 bytes")

    monkeypatch.setattr(app_mod, "class_of_screen", refusing)
    try:
        sim.app.go("settings")
    except MemoryError:
        pass
    else:
        raise AssertionError("no MemoryError")
    assert calls == ["settings"] and "play" in sim.app._screens
