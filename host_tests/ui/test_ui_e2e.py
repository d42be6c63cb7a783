"""End to end: button presses through the simulator, from the title through
whole hands and a match to its end screen, with golden screenshots of every
screen (UPDATE_GOLDEN=1 rewrites them) and, after every press, the panel
picture rebuilt from the driver's I2C bytes compared with the framebuffer.

The human side is a scripted policy that presses buttons (ui_driver); the
opponent in the golden run is the small SimplePlayer so the pictures do not
move when the device AI improves. A second run plays the real AI.
"""

import engine
from firmware.saves import gamesave
from firmware.settings import Settings
from firmware.screens.help import PAGES as help_pages
from tools.sim.simulator import MemStorage, Sim
from tools.kit.ui_driver import StockOnly, play_turn, presses_for, simple_choice, simple_factory
from ui_golden import CheckedSim, Golden
from review_stub import HeldReview, canned

SEED = 1


def test_ui_golden_match(tmp_path):
    g = Golden(tmp_path)
    storage = MemStorage()
    sim = CheckedSim(seed=SEED, storage=storage, player_factory=simple_factory,
                     settings={"speed": "fast"}, review_factory=canned)
    sim.settle()
    assert sim.screen == "title"
    g.check(sim, "01_title")

    sim.press("A")                        # NEW MATCH
    assert sim.screen == "play"
    g.check(sim, "02_play_your_draw")
    sim.press("R")                        # cursor on the discard pile
    g.check(sim, "03_play_pile_chosen")
    sim.press("L")
    sim.press("B")                        # the menu
    g.check(sim, "04_play_menu")
    sim.press("D")
    sim.press("D")
    sim.press("A")                        # DISCARD PILE
    g.check(sim, "05_play_discard_pile")
    sim.press("B")
    sim.press("LB")                       # hold B: a hint
    g.check(sim, "06_play_hint")
    sim.press("A")

    m = sim.app.match
    action = simple_choice(m.view(0))
    keys = presses_for(sim, action)
    for k in keys:
        sim.press(k)
        if sim.app.screen.mode == 1:      # drew: now the discard
            break
    g.check(sim, "07_play_your_discard")
    play = sim.app.screen
    if play.row.cards[play.cur] == m.view(0).taken:
        sim.press("R")                    # off the card just taken (R4)
    before = engine.dumps(m)
    sim.press("U")                        # knock with 60-odd deadwood: refused (R6)
    g.check(sim, "08_play_knock_refused")
    assert engine.dumps(m) == before
    assert b"(R6)" in b" ".join(play.msg_lines)
    sim.press("A")

    # Discard, then watch the AI's turn at its own pace.
    c = engine.card(simple_choice(m.view(0)).split(":")[1])
    for k in presses_for(sim, "discard:" + engine.card_text(c))[:-1]:
        sim.press(k)
    sim.press("A", settle=False)
    sim.run(100)
    g.check(sim, "09_play_ai_thinking")
    sim.run(400)
    g.check(sim, "10_play_ai_drew")
    sim.settle()
    g.check(sim, "11_play_ai_discarded")

    # Play the match out. On the way: take the upcard and try to throw it
    # straight back (R4), a knock confirmation cancelled once, the first
    # result, and one showdown of each kind.
    shown = set()
    kinds = set()
    while sim.screen != "match_end":
        s = sim.screen
        if s == "showdown":
            k = sim.app.match.results[-1].kind
            if k not in kinds:
                kinds.add(k)
                g.check(sim, "14_showdown_" + k)
            sim.press("A")
            continue
        if s == "result":
            if "result" not in shown:
                shown.add("result")
                g.check(sim, "15_result")
                sim.press("D")            # the hand's review
                assert sim.screen == "review"
                g.check(sim, "27_review")
                sim.press("B")
                assert sim.screen == "result"
            elif "review_nothing" not in shown:
                shown.add("review_nothing")   # the canned second hand's
                sim.press("D")
                g.check(sim, "27_review_nothing")
                sim.press("UP")
            sim.press("A")
            continue
        assert s == "play", s
        m = sim.app.match
        if "pile" not in shown and m.hand.pile_n >= 9 and sim.app.screen.mode == 0:
            sim.press("B")                # the menu's DISCARD PILE, a long one
            sim.press("D")
            sim.press("D")
            sim.press("A")
            g.check(sim, "16_play_discard_pile_long")
            sim.press("B")
            shown.add("pile")
        a = simple_choice(m.view(0))
        if a == "draw_upcard" and "r4" not in shown:
            for k in presses_for(sim, a):
                sim.press(k)
            before = engine.dumps(m)
            sim.press("A")                # the cursor starts on the card taken
            g.check(sim, "12_play_r4_refused")
            assert engine.dumps(m) == before
            sim.press("A")
            shown.add("r4")
            continue
        if a.startswith("knock") and "knock" not in shown:
            for k in presses_for(sim, a)[:-1]:
                sim.press(k)
            g.check(sim, "13_play_knock_confirm")
            sim.press("B")                # cancel: nothing changes
            assert sim.app.screen.overlay == 0
            sim.press("U")
            sim.press("A")
            shown.add("knock")
            continue
        play_turn(sim)
    assert shown == {"r4", "knock", "result", "pile", "review_nothing"}
    assert kinds == {"knock", "undercut", "gin"}
    g.check(sim, "17_match_end")
    sim.press("D")                        # the match review
    assert sim.screen == "match_review"
    g.check(sim, "28_match_review")
    sim.press("B")
    assert sim.screen == "match_end"
    assert gamesave.split(storage.files["game"])[1] == b""   # nothing left to resume
    sim.press("A")
    assert sim.screen == "title"
    g.check(sim, "18_title_after_match")

    # Settings, statistics and rules from the title.
    sim.press("D")
    sim.press("A")
    assert sim.screen == "settings"
    sim.press("R")                        # AI level: normal -> hard
    g.check(sim, "19_settings")
    sim.press("B")
    assert Settings.decode(storage.files["settings"]).level == "hard"
    sim.press("D")                        # the cursor stayed on SETTINGS
    sim.press("A")
    assert sim.screen == "stats"
    g.check(sim, "20_stats")
    sim.press("B")
    sim.press("D")
    sim.press("A")
    assert sim.screen == "help"
    for i in range(len(help_pages)):
        g.check(sim, "21_rules_%d" % (i + 1))
        sim.press("R")
    sim.press("B")
    assert sim.screen == "title"
    g.finish()


def test_ui_golden_review_being_made(tmp_path):
    """The hand's result while its review is still being made, and the
    review screen saying so, then showing it once made."""
    g = Golden(tmp_path)
    sim = CheckedSim(seed=SEED, storage=MemStorage(), player_factory=simple_factory,
                     settings={"speed": "fast"}, review_factory=canned)
    sim.press("A")
    while sim.screen != "result":
        if sim.screen == "showdown":
            sim.press("A")
            continue
        play_turn(sim)
    rv = sim.app.reviews
    assert rv.cur is None and rv.last == 0            # made and counted
    rv.cur = HeldReview(sim.app.match, 0)             # as if still at 40%
    sim.app.go("result")
    sim.step()
    g.check(sim, "29_result_reviewing")
    sim.press("D", settle=False)
    assert sim.screen == "review" and not sim.app.screen.ready
    g.check(sim, "29_review_reviewing")
    rv.cur = None                                      # made now
    sim.settle()
    assert sim.app.screen.ready and len(sim.app.screen.entries) == 3
    g.check(sim, "27_review")
    g.finish()


def test_ui_golden_boot_with_saves(tmp_path):
    g = Golden(tmp_path)
    storage = MemStorage()
    sim = Sim(seed=SEED, storage=storage, player_factory=simple_factory)
    sim.press("A")
    play_turn(sim)
    play_turn(sim)
    saved = storage.files["game"]
    # A restart offers the match first.
    sim2 = Sim(seed=99, storage=storage, player_factory=simple_factory)
    sim2.settle()
    g.check(sim2, "22_title_continue")
    sim2.press("A")
    assert sim2.screen == "play"
    assert gamesave.split(saved)[1] == engine.dumps(sim2.app.match)
    g.check(sim2, "23_play_resumed")
    # Starting over a match in progress asks first.
    sim2.press("B")
    sim2.press("U")
    sim2.press("A")                        # QUIT TO TITLE
    sim2.press("D")
    sim2.press("A")
    g.check(sim2, "24_title_new_match_confirm")
    # A damaged save is set aside, a new match starts, the player is told.
    bad = MemStorage({"game": saved[:-3] + b"xyz"})
    sim3 = Sim(seed=5, storage=bad, player_factory=simple_factory)
    sim3.settle()
    assert sim3.screen == "message"
    g.check(sim3, "25_save_damaged")
    assert "game" in bad.set_aside
    sim3.press("A")
    assert sim3.screen == "play"
    assert sim3.app.match.seed == 5
    g.finish()


def test_ui_real_ai_match_to_the_end():
    """The device AI (engine.ai) as the opponent, a short match."""
    storage = MemStorage()
    sim = CheckedSim(seed=7, storage=storage, level="easy",
                     settings={"speed": "fast", "target": 50})
    sim.press("A")
    seen = set()
    while sim.screen != "match_end":
        seen.add(sim.screen)
        if sim.screen == "play":
            play_turn(sim)
        else:
            sim.press("A")
    assert {"play", "showdown", "result"} <= seen or {"play", "result"} <= seen
    m = sim.app.match
    assert max(m.scores) >= 50
    st = sim.app.stats
    assert st.matches == 1 and st.hands == len(m.results)


def test_the_hard_ai_keeps_what_it_learned_of_the_player_for_the_next_match():
    """At a match's end the hard AI's estimate of how the player knocks goes
    into the statistics (saved with them) and the AI itself is let go; the
    next match's AI starts from it; a resumed match starts from the same
    (no hand counted twice)."""
    from engine.ai.habit import Habit, RECORD_SIZE
    storage = MemStorage()
    sim = CheckedSim(seed=9, storage=storage, level="hard",
                     settings={"speed": "fast", "target": 50})
    sim.press("A")
    assert sim.app.stats.style == b""
    while sim.screen != "match_end":
        if sim.screen == "play":
            play_turn(sim)          # the simple policy: knocks as soon as it can
        else:
            sim.press("A")
    style = sim.app.stats.style
    assert len(style) == RECORD_SIZE
    assert style[10] > style[0], style          # a quick knocker, not a patient one
    assert sim.app.session.player is None   # its heap let go once the match is over
    saved = gamesave.split(storage.files["game"])[0]
    from firmware.stats import Stats
    assert Stats.decode(saved).style == style   # kept with the statistics
    sim.press("A")                               # on to the title
    sim.app.life.new_match()
    learned = Habit()
    learned.load(style)
    ai = sim.app.session.player
    assert ai.habit.we == learned.we and learned.we != Habit().we
    assert ai.habit.wl == learned.wl


def test_ui_golden_drawn_hand(tmp_path):
    """R11: the stock runs out after a discard; nobody scores."""
    g = Golden(tmp_path)
    storage = MemStorage()
    sim = CheckedSim(seed=SEED, storage=storage, settings={"speed": "fast"},
                     player_factory=lambda level, seed: StockOnly(level, seed))
    sim.press("A")
    while sim.screen == "play":
        assert sim.app.screen.mode == 0
        sim.press("A")                    # draw from the stock
        sim.press("A")                    # the cursor is on it: discard it
    assert sim.screen == "result"
    res = sim.app.match.results[-1]
    assert res.kind == "draw" and res.why == "stock" and sim.app.match.scores == [0, 0]
    g.check(sim, "26_result_drawn_hand")
    assert sim.app.stats.draws == 1 and sim.app.stats.hands == 1
    sim.press("A")
    assert sim.screen == "play" and sim.app.match.hand_no == 2
    g.finish()


def test_the_title_of_the_newest_release_golden(tmp_path, monkeypatch):
    """The README's picture of the title (docs/screens/title.png, a copy
    of this golden) is what the release it installs shows on a board: LINK
    offered (a board has its link port) and that release's version, not a
    development build's. After a release: UPDATE_GOLDEN=1 for this test,
    then copy it (host_tests/test_docs.py says so)."""
    from firmware.screens import title
    from tools.deploy import pages
    newest = pages.newest()
    assert newest is not None
    monkeypatch.setattr(title, "_VERSION", ("V" + newest).encode())

    from tools.link.fakelink import SilentPort
    g = Golden(tmp_path)
    sim = CheckedSim(seed=SEED, storage=MemStorage())
    sim.app.link_port = SilentPort
    sim.app.go("title")
    sim.settle()
    assert "link" in sim.app.screen.keys
    g.check(sim, "00_title_release")
    g.finish()
