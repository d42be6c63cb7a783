"""The play screen's behaviour, driven by button presses on a fake clock."""

import engine
from engine.hand import action_text
from firmware import buttons as btn
from firmware.display import glyphs
from firmware.screens import layout as L
from firmware.screens import play as P
from tools.sim.simulator import MemStorage, Sim
from tools.kit.ui_driver import (play_turn, presses_for, quit_to_title, saved_match, simple_choice,
                       simple_factory, to_ai_turn)


def new_sim(seed=1, storage=None, **settings):
    st = {"speed": "normal"}
    st.update(settings)
    sim = Sim(seed=seed, storage=storage or MemStorage(),
              player_factory=simple_factory, settings=st)
    sim.press("A")                     # NEW MATCH
    assert sim.screen == "play"
    return sim


def play_until(sim, want, limit=400):
    """Play the policy's moves until want(sim, action) is true before a move
    (returns that action) - the hand may move on to later hands."""
    for _ in range(limit):
        if sim.screen in ("showdown", "result"):
            sim.press("A")
            continue
        a = simple_choice(sim.app.match.view(0))
        if want(sim, a):
            return a
        for k in presses_for(sim, a):
            sim.press(k)
    raise AssertionError("never happened")


def test_draw_from_stock_is_one_press_and_from_pile_two():
    sim = new_sim()
    m = sim.app.match
    sim.press("A")
    assert m.hand.log[-1] == 0 and m.phase == "discard"       # draw_stock
    sim2 = new_sim()
    up = sim2.app.match.hand.upcard()
    sim2.press("R")
    sim2.press("A")
    assert sim2.app.match.view(0).taken == up


def test_cursor_moves_left_right_and_wraps():
    sim = new_sim()
    sim.press("A")
    play = sim.app.screen
    assert play.mode == P.M_DISCARD and play.row.n == 11
    start = play.cur
    sim.press("R")
    assert play.cur == (start + 1) % 11
    for _ in range(11):
        sim.press("R")
    assert play.cur == (start + 1) % 11                       # wrapped round
    play.cur = 0
    sim.press("L")
    assert play.cur == 10


def test_held_right_repeats():
    sim = new_sim()
    sim.press("A")
    play = sim.app.screen
    play.cur = 0
    sim.hold(btn.RIGHT, 400 + 2 * 120 + 30)
    assert play.cur == 4                                       # press + 3 repeats


def test_r4_card_just_taken_cannot_be_discarded_and_nothing_changes():
    sim = new_sim()
    sim.press("R")
    sim.press("A")                                             # take the upcard
    m = sim.app.match
    play = sim.app.screen
    taken = m.view(0).taken
    assert play.row.cards[play.cur] == taken                   # cursor on it
    before = engine.dumps(m)
    sim.press("A")
    assert engine.dumps(m) == before
    assert play.overlay == P.O_MSG and play.msg_title == b"NOT ALLOWED"
    assert b"(R4)" in b" ".join(play.msg_lines)
    sim.press("A")                                             # dismissed
    assert play.overlay == P.O_NONE and engine.dumps(m) == before


def test_r6_knocking_over_the_limit_is_refused_with_the_reason():
    sim = new_sim()
    sim.press("A")
    m = sim.app.match
    play = sim.app.screen
    assert m.view(0).deadwood > 10
    before = engine.dumps(m)
    sim.press("U")
    assert engine.dumps(m) == before
    assert play.overlay == P.O_MSG
    assert b"KNOCKING NEEDS 10 OR LESS (R6)" in b" ".join(play.msg_lines).upper()


def test_knock_asks_first_b_cancels_a_knocks():
    sim = new_sim()
    a = play_until(sim, lambda s, a: a.startswith("knock"))
    keys = presses_for(sim, a)
    for k in keys[:-1]:
        sim.press(k)                                           # ... then UP
    play = sim.app.screen
    m = sim.app.match
    assert play.overlay == P.O_CONFIRM
    before = engine.dumps(m)
    sim.press("B")
    assert play.overlay == P.O_NONE and engine.dumps(m) == before
    sim.press("U")
    sim.press("A")
    assert sim.screen == "showdown"
    assert m.results[-1].knocker == 0


def test_long_b_hint_points_at_the_suggested_card():
    sim = new_sim()
    sim.press("A")
    m = sim.app.match
    want = simple_choice(m.view(0))
    sim.press("LB")
    play = sim.app.screen
    assert play.overlay == P.O_MSG and play.msg_title.startswith(b"HINT")
    before = engine.dumps(m)
    sim.press("B")
    assert engine.card_text(play.row.cards[play.cur]) == want.split(":")[1]
    assert engine.dumps(m) == before                           # a hint plays nothing


def test_menu_hint_then_pile_history():
    sim = new_sim()
    sim.press("B")
    play = sim.app.screen
    assert play.overlay == P.O_MENU
    sim.press("D")
    sim.press("A")                                             # HINT
    assert play.overlay == P.O_MSG
    sim.press("A")
    sim.press("B")
    sim.press("D")
    sim.press("D")
    sim.press("A")                                             # DISCARD PILE
    assert play.overlay == P.O_PILE
    assert list(play.pile_cards) == sim.app.match.view(0).pile[::-1]
    sim.press("B")
    assert play.overlay == P.O_NONE


def test_ai_moves_after_a_readable_delay_and_its_move_stays_shown():
    sim = new_sim(speed="normal")                              # 900 ms a move
    m = sim.app.match
    play = sim.app.screen
    sim.press("A")                                             # draw stock
    sim.press("A", settle=False)                               # discard
    assert m.to_move == 1 and play.thinking
    sim.run(800)
    assert m.to_move == 1 and m.phase == "draw"                # not yet
    sim.run(200)
    assert m.phase == "discard" and m.to_move == 1             # it drew
    assert play.ai_took != P.NOCARD and play.ai_out == P.NOCARD
    sim.run(1000)
    assert m.to_move == 0
    took, out = play.ai_took, play.ai_out
    assert out != P.NOCARD
    # It stays on screen through the whole of the human's turn.
    sim.press("A")
    assert (play.ai_took, play.ai_out) == (took, out)
    sim.press("A", settle=False)
    assert play.thinking


def test_a_hurries_the_ai():
    sim = new_sim(speed="slow")
    m = sim.app.match
    sim.press("A")
    sim.press("A", settle=False)
    sim.run(100)
    assert m.to_move == 1 and m.phase == "draw"
    sim.press("A", settle=False)
    assert m.phase == "discard"


def test_the_ai_hand_is_never_drawn_before_the_showdown(monkeypatch):
    drawn = []
    real_card, real_inline, real_big = glyphs.draw_card, glyphs.draw_card_inline, L.big_card

    def spy_card(canvas, card, *a):
        drawn.append(card)
        return real_card(canvas, card, *a)

    def spy_inline(canvas, card, *a):
        drawn.append(card)
        return real_inline(canvas, card, *a)

    def spy_big(canvas, card, *a):
        drawn.append(card)
        return real_big(canvas, card, *a)

    monkeypatch.setattr(glyphs, "draw_card", spy_card)
    monkeypatch.setattr(glyphs, "draw_card_inline", spy_inline)
    monkeypatch.setattr(L, "big_card", spy_big)
    sim = new_sim(seed=3)
    m = sim.app.match
    frames = 0
    while sim.screen == "play":
        h = m.hand
        public = set(m.view(0).hand) | set(h.pile[:h.pile_n])
        for i in range(len(h.log)):                            # every card seen on the pile
            code = h.log[i]
            if code >= 64:
                public.add(code & 63)
        public.add(engine.deck_for(h.deal)[20])                # the first upcard
        del drawn[:]
        sim.app.screen.dirty = True
        sim.step()
        frames += 1
        ai_secret = set(h.cards_of(1)) - public
        assert len(drawn) >= 10 and not (set(drawn) & ai_secret)
        play_turn(sim)
    assert frames > 5 and sim.screen == "showdown"


def test_match_is_saved_after_every_completed_turn():
    storage = MemStorage()
    sim = new_sim(storage=storage)
    m = sim.app.match
    n0 = storage.saves
    sim.press("A")                                             # draw: not yet
    assert storage.saves == n0
    sim.press("A", settle=False)                               # human turn done
    assert storage.saves == n0 + 1
    assert saved_match(storage).hand.log == m.hand.log
    sim.settle()                                               # the AI's turn done
    assert storage.saves == n0 + 2
    assert engine.dumps(saved_match(storage)) == engine.dumps(m)


def test_quit_to_title_then_continue_returns_to_the_same_turn():
    sim = new_sim()
    sim.press("A")
    play = sim.app.screen
    play.cur = 3
    m = sim.app.match
    before = engine.dumps(m)
    quit_to_title(sim)
    assert sim.screen == "title"
    sim.press("A")                                             # CONTINUE
    assert sim.screen == "play" and engine.dumps(sim.app.match) == before
    assert play.mode == P.M_DISCARD and play.cur == 3


def test_upcard_offer_take_or_pass_under_classic_rules():
    sim = new_sim(rules="classic")
    m = sim.app.match
    play = sim.app.screen
    assert m.rules.upcard_offer and m.phase == "first_upcard"
    assert play.offer and play.mode == P.M_DRAW
    sim.press("A", settle=False)                               # stock side = PASS
    assert m.hand.log[0] == 2                                  # PASS


def test_only_redraws_when_something_changed():
    sim = new_sim()
    sim.settle()
    frames = sim.app.frames
    for _ in range(20):
        sim.clock.advance(50)
        sim.step()
        assert sim.app.last_bytes == 0
    assert sim.app.frames == frames
    sim.press("R")
    assert sim.app.frames > frames


def test_cursor_move_sends_at_most_256_bytes():
    sim = new_sim()
    sim.press("A")
    play = sim.app.screen
    play.cur = 3
    play.dirty = True
    sim.settle()
    for key in ("R", "L", "R", "R"):
        b0 = sim.bus.bytes
        sim.press(key)
        assert 0 < sim.bus.bytes - b0 <= 256


def test_idle_dims_then_blanks_and_the_waking_press_does_nothing_else():
    contrast = []
    sim = new_sim()
    real = sim.display.contrast
    sim.display.contrast = lambda v: (contrast.append(v), real(v))
    play = sim.app.screen
    sim.press("A")
    cur = play.cur
    sim.run(59000)
    assert sim.app.idle == 0
    sim.run(2000)
    assert sim.app.idle == 1 and contrast[-1] == 1
    sim.run(240000)
    assert sim.app.idle == 2 and not any(sim.image())
    sim.press("R")
    assert sim.app.idle == 0 and play.cur == cur               # only woke up
    assert sim.image() == bytes(sim.app.canvas.buf) and any(sim.image())
    assert contrast[-1] == sim.app.settings.contrast()
    sim.press("R")
    assert play.cur == (cur + 1) % 11


class Broken:
    level = "normal"

    def choose(self, view):
        raise RuntimeError("bug")

    def hint(self, view):
        raise RuntimeError("bug")


def test_a_failing_ai_falls_back_to_a_legal_move():
    sim = Sim(seed=1, player_factory=lambda level, seed: Broken())
    sim.press("A")
    sim.press("A")
    sim.press("A")
    m = sim.app.match
    assert m.to_move == 0 and len(m.hand.log) == 4
    sim.press("LB")
    assert sim.app.screen.msg_title == b"NO HINT"


def test_v2_oklahoma_shows_the_hands_knock_limit():
    for seed in range(1, 60):
        sim = new_sim(seed=seed, rules="oklahoma")
        m = sim.app.match
        if m.hand.knock_limit != 10:
            break
    play = sim.app.screen
    assert play.limit == m.hand.knock_limit != 10


def test_v4_bonus_breakdown_at_the_match_end():
    sim = new_sim(seed=2, rules="bonus", target=50, speed="fast")
    for _ in range(2000):
        if sim.screen == "match_end":
            break
        if sim.screen == "play":
            play_turn(sim)
        else:
            sim.press("A")
    assert sim.screen == "match_end"
    e = sim.app.match.end
    assert e.game_bonus == 100 and e.hand_bonus == 25 * e.hands_won[e.winner]
    assert sim.image() == bytes(sim.app.canvas.buf)


class _SlowThinker:
    """The simple policy taking `think` ms of the (fake) clock per decision;
    records when each decision starts and what the frame showed then."""

    def __init__(self, sim_box, think):
        self.sim_box = sim_box
        self.think = think
        self.starts = []

    def choose(self, view):
        sim = self.sim_box[0]
        self.starts.append((sim.clock.t, sim.app.screen.thinking))
        sim.clock.advance(self.think)
        return simple_choice(view)

    def hint(self, view):
        return simple_choice(view), "least deadwood"


def test_the_ai_thinks_during_its_pause_not_after_it():
    # The AI speed setting's pause (900 ms at "normal") hides the time the AI
    # takes: it decides as soon as CPU THINKING is on the screen, and moves
    # when the pause is over, not pause + thinking later.
    box = []
    ai = _SlowThinker(box, 300)
    sim = Sim(seed=1, storage=MemStorage(), player_factory=lambda lv, s: ai,
              settings={"speed": "normal"})
    box.append(sim)
    m = to_ai_turn(sim)
    start = sim.clock.t
    pause = sim.app.settings.speed_ms()
    sim.run(pause - 100, 5)
    # it decided at once, with CPU THINKING on the screen ...
    assert len(ai.starts) == 1 and ai.starts[0][1], ai.starts
    assert ai.starts[0][0] - start < 50, (ai.starts, start)
    assert len(m.hand.log) == 2         # ... but moves only when the pause ends,
    sim.run(150, 5)
    assert len(m.hand.log) == 3         # not 300 ms of thinking later


class Fed:
    """An opponent whose moves come when the test gives them (as the other
    board's do), and which notes the moves it is told of."""

    plans_ahead = False
    plan = None
    busy = None

    def __init__(self):
        self.moves = []
        self.heard = []

    def think(self, m):
        raise AssertionError("an opponent that does not plan ahead is never asked to")

    def play(self, m):
        if not self.moves:
            return None
        a = self.moves.pop(0)
        assert m.act(a) is None
        return a

    def told(self, m):
        self.heard.append(action_text(m.hand.log[-1]))

    def forget(self):
        pass


def test_the_other_seat_is_the_sessions_opponent_asked_for_its_moves():
    # the play screen plays no AI of its own: it asks the session's
    # opponent for the other seat's move at every step, shows it when it
    # comes, and tells the opponent the player's moves
    from firmware.matchlife import Session

    class FedSession(Session):
        def start(self, match):
            self.match = match
            self.opponent = Fed()
            self.app.saving.save_match()

    sim = Sim(seed=1, storage=MemStorage(), player_factory=simple_factory)
    sim.settle()
    s = FedSession(sim.app, sim.app.stats)
    sim.app.session = s
    s.start(engine.Match(engine.CARDEMS, 7))
    sim.app.go("play", new_hand=True)
    m = s.match
    opp = s.opponent
    for _ in range(2):                             # the player's draw and discard
        for k in presses_for(sim, simple_choice(m.view(0))):
            sim.press(k, settle=False)
            sim.run(200, 10)
    assert opp.heard == [action_text(c) for c in m.hand.log]
    assert m.to_move == 1 and sim.app.screen.mode == P.M_AI
    sim.run(5000, 10)                              # no move comes: the screen waits
    assert m.to_move == 1 and len(m.hand.log) == 2 and sim.screen == "play"
    opp.moves.append("draw_stock")
    sim.run(30, 10)
    assert len(m.hand.log) == 3 and sim.app.screen.mode == P.M_AI
    assert b"DREW STOCK" in sim.app.screen.t_drew and sim.app.screen.ai_took == P.STOCK
    c = m.view(1).hand[0]
    opp.moves.append("discard:" + engine.card_text(c))
    sim.run(30, 10)
    assert m.to_move == 0 and sim.app.screen.mode == P.M_DRAW
    assert sim.app.screen.ai_out == c
    assert len(opp.heard) == 2                     # told of the player's moves only


def test_the_match_and_statistics_are_the_sessions_and_read_only_on_the_app():
    sim = Sim(seed=3, storage=MemStorage())
    s = sim.app.session
    assert sim.app.match is s.match and sim.app.stats is s.stats
    for name in ("match", "stats"):
        try:
            setattr(sim.app, name, None)
        except AttributeError:
            continue
        raise AssertionError("app.%s was written" % name)
    sim.press("A")                                 # NEW MATCH: a new session, swapped whole
    assert sim.app.session is not s and sim.app.session.kind == "cpu"
    assert sim.app.stats is s.stats and sim.app.match is sim.app.session.match
