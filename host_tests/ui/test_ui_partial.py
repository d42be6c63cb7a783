"""A cursor move redraws only what it changes (Play.redraw: the hand band
and DW, or the table; a take: those and the turn line and the key hints;
the save mark going out, only the mark): every such
frame must equal a full draw of the same
state, pixel for pixel, in the two-player game, under the V1 upcard offer
and in the box game (where DW stands in the key hints row). Each partial
frame is checked as the app draws it; the panel (rebuilt from the driver's
I2C bytes) equals the framebuffer after every press (CheckedSim)."""

import random

import pytest

from firmware.display import fb
from firmware.screens import play as P
from tools.sim.simulator import MemStorage
from tools.kit.ui_driver import play_turn, simple_factory, title_to
from ui_golden import CheckedSim


@pytest.fixture
def partials(monkeypatch):
    """Every Play.redraw compared with a full draw; the parts drawn."""
    log = []
    redraw = P.Play.redraw

    def checked(self, c, part):
        redraw(self, c, part)
        full = fb.Canvas()
        self.draw(full)
        if bytes(c.buf) != bytes(full.buf):
            diff = sum(bin(a ^ b).count("1") for a, b in zip(c.buf, full.buf))
            raise AssertionError("partial redraw (part %d, mode %d) differs from the full "
                                 "frame in %d pixels" % (part, self.mode, diff))
        log.append(part)

    monkeypatch.setattr(P.Play, "redraw", checked)
    return log


def new_sim(seed, **settings):
    st = {"speed": "fast"}
    st.update(settings)
    sim = CheckedSim(seed=seed, storage=MemStorage(), player_factory=simple_factory,
                     settings=st)
    sim.settle()
    return sim


def wander(sim, rnd, n):
    """n presses of LEFT or RIGHT (the cursor wraps at both ends)."""
    for _ in range(n):
        sim.press(rnd.choice("LR"))


def play_hands(sim, screen, hands, rnd):
    """Play on with cursor wandering before each of the human's moves."""
    seen = 0
    for _ in range(3000):
        name = sim.screen
        if name != screen:
            if name in ("showdown", "result", "box_showdown", "box_result"):
                seen += 1
                if seen >= hands:
                    return
            sim.press("A")
            continue
        play = sim.app.screen
        m = sim.app.match
        if play.overlay:
            sim.press("A")
        elif m.to_move == 0 and play.mode in (P.M_DRAW, P.M_DISCARD):
            wander(sim, rnd, rnd.randint(0, 4))
            play_turn(sim)
        else:
            sim.settle()
    raise AssertionError("the hands never ended")


@pytest.mark.parametrize("seed", [1, 5])
def test_cursor_moves_redraw_the_hand_and_dw_as_the_full_frame(partials, seed):
    sim = new_sim(seed)
    title_to(sim, "new")
    play_hands(sim, "play", 2, random.Random(seed))
    assert P.P_HAND in partials and P.P_TABLE in partials
    assert any(p & P.P_MARK for p in partials)      # the save mark going out


def test_v1_offer_source_picks_redraw_the_table_and_the_a_hint(partials):
    sim = new_sim(1, upcard_offer=1)
    title_to(sim, "new")
    play = sim.app.screen
    assert play.offer
    for k in "RLR":
        sim.press(k)
    assert partials == [P.P_TABLE] * 3


def test_box_game_moves_redraw_as_the_full_frame(partials):
    """As box or captain the human moves the cursor; DW is in the hints."""
    sim = new_sim(1)
    title_to(sim, "box")
    assert sim.screen == "box_play"
    play_hands(sim, "box_play", 2, random.Random(3))
    assert P.P_HAND in partials


def test_box_sitter_advice_picks_redraw_as_the_full_frame(partials):
    """The sitter picks the captain's draw and discard to advise."""
    sim = new_sim(2)                   # roles (P2, P3, YOU): YOU sit out
    title_to(sim, "box", settle=False)
    play = sim.app.screen
    m = sim.app.match
    assert play.sitter
    sim.press("A", settle=False)       # advise the captain's draw
    assert play.advising and play.mode == P.M_DRAW
    sim.press("R", settle=False)
    sim.press("L", settle=False)
    assert partials == [P.P_TABLE] * 2
    sim.press("A", settle=False)       # draw_stock advised
    for _ in range(400):
        if m.to_move == m.hand_roles[1] and m.phase == "discard" and play.mode == P.M_AI \
                and play.overlay == 0:
            break
        if play.overlay:
            sim.press("A", settle=False)
        sim.run(50)
    sim.press("A", settle=False)       # advise the captain's discard
    assert play.advising and play.mode == P.M_DISCARD
    wander(sim, random.Random(7), 13)
    assert partials.count(P.P_HAND) == 13


def test_full_frames_count_whole_draws_only(partials):
    """App.full_frames (what the device loop's idle collection watches)
    moves on a whole frame, not on a cursor move's or a take's partial
    redraw."""
    sim = new_sim(1)
    title_to(sim, "new")
    app = sim.app
    play = app.screen
    assert play.mode == P.M_DRAW
    full, frames = app.full_frames, app.frames
    sim.press("R")
    sim.press("L")
    assert app.full_frames == full and app.frames == frames + 2
    sim.press("A")                     # a take: its parts
    assert app.full_frames == full and app.frames == frames + 3
    sim.press("A")                     # a discard: the whole frame
    assert app.full_frames > full


@pytest.mark.parametrize("seed", [2, 7])
def test_a_take_redraws_the_table_turn_line_hints_and_hand_as_the_full_frame(partials, seed):
    sim = new_sim(seed)
    title_to(sim, "new")
    play_hands(sim, "play", 2, random.Random(seed))
    takes = [p for p in partials if p & P.P_TURN]
    assert takes and all(p & P.P_HAND and p & P.P_TABLE for p in takes)


def test_a_take_under_the_v1_offer_redraws_as_the_full_frame(partials):
    sim = new_sim(3, upcard_offer=1)
    title_to(sim, "new")
    sim.press("R")                       # the upcard
    sim.press("A")                       # taken: the offer's words go
    assert partials[-1] == P.P_TABLE | P.P_TURN | P.P_HAND
    assert not sim.app.screen.offer
