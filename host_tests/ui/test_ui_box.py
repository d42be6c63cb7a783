"""V6 on the handheld: the three-player box game through button presses.

The human (YOU, player 0) against two AIs (P2, P3) in every role: as box
and as captain they play with the buttons (the captain sees the AI
sitter's advice), as sitter they watch the captain's cards and advise the
AI captain, who answers. Hands go to the showdown and to the result that
says who moves where; a short match (target 50) goes to the match end
with the three totals. Golden screenshots (UPDATE_GOLDEN=1 rewrites them),
and after every press the panel rebuilt from the driver's I2C bytes is
compared with the framebuffer.

The AIs in the golden runs are the small SimplePlayer (ui_driver), so the
pictures do not move when the device AI improves; one run plays the real
AI. Role drawing by match seed (engine.box): seed 1 deals YOU the box,
seed 6 the captain, seed 2 the sitter.
"""

import engine
from engine.box import BoxMatch
from engine.ai.box_ai import consider, plain
from firmware.saves import gamesave
from firmware.screens import play as P
from tools.sim.simulator import MemStorage
from tools.kit.ui_driver import (CUT, RefusingStorage, StockOnly, give_cut, play_turn,
                                 presses_for, quit_to_title, saved_match, simple_factory,
                                 SimplePlayer, title_to)
from ui_golden import CheckedSim, Golden

SEED_BOX = 1          # roles (box, captain, sitter) = (YOU, P2, P3)
SEED_CAPTAIN = 6      # (P3, YOU, P2)
SEED_SITTER = 2       # (P2, P3, YOU)


def new_sim(seed, storage=None, factory=simple_factory, **settings):
    st = {"speed": "fast"}
    st.update(settings)
    return CheckedSim(seed=seed, storage=storage if storage is not None else MemStorage(),
                      player_factory=factory, settings=st)


def start_box(sim, settle=True):
    """From the title: 3-PLAYER GAME."""
    sim.settle()
    title_to(sim, "box", settle)
    if sim.screen == "cut":             # with an entropy source: the player's cut
        give_cut(sim)
    assert sim.screen == "box_play"
    return sim.app.match


def play_hand(sim):
    """Play on until the hand's showdown or result screen."""
    for _ in range(2000):
        if sim.screen != "box_play":
            return
        play = sim.app.screen
        m = sim.app.match
        if play.overlay:
            sim.press("A")
        elif m.to_move == 0 and play.mode in (P.M_DRAW, P.M_DISCARD):
            play_turn(sim)
        else:
            sim.settle()
    raise AssertionError("the hand never ended")


def refusals(m):
    """The list of (action, why) the match refuses from now on (m.act
    watched)."""
    refused = []
    act = m.act

    def checked(a):
        why = act(a)
        if why is not None:
            refused.append((a, why))
        return why
    m.act = checked
    return refused


def status_text(sim):
    """The status row's three players as the screen holds them."""
    play = sim.app.screen
    tags = ("BOX", "CAP", "SIT")
    return " | ".join("%s %s %d" % (("YOU", "P2", "P3")[p], tags[play.role_of[p]],
                                    play.score3[p]) for p in range(3))


# -- the human as box --------------------------------------------------------

def test_box_game_human_is_box_plays_a_hand_to_the_rotation(tmp_path):
    g = Golden(tmp_path)
    storage = MemStorage()
    sim = new_sim(SEED_BOX, storage)
    m = start_box(sim)
    assert isinstance(m, BoxMatch) and m.roles == (0, 1, 2)
    assert m.seat_of(0) == 1                     # the box is hand seat 1
    # the captain (P2) acted first with the V1 offer; now the box draws
    assert m.to_move == 0 and m.hand.log_seat[0] == 0
    play = sim.app.screen
    assert status_text(sim) == "YOU BOX 0 | P2 CAP 0 | P3 SIT 0"
    assert play.row.n == 10 and sorted(play.row.cards[:10]) == m.hand.cards_of(1)
    g.check(sim, "60_box_play_you_box")
    assert saved_match(storage).roles == m.roles   # saved (GRSB)
    play_hand(sim)
    res, roles = m.results[-1]
    assert roles == (0, 1, 2)
    if sim.screen == "box_showdown":
        g.check(sim, "61_box_showdown")
        sim.press("A")
    assert sim.screen == "box_result"
    r = sim.app.screen
    # the box (YOU) lost: YOU sit out, P2 into the box, P3 captain
    assert res.winner == 0 and r.scorer == 1
    assert r.lines == (b"YOU SIT OUT, P2 TAKES THE BOX", b"P3 BECOMES CAPTAIN")
    g.check(sim, "62_box_result_box_lost")
    sim.press("A", settle=False)
    assert sim.screen == "box_play" and m.hand_no == 2
    assert m.roles == (1, 2, 0)
    assert status_text(sim).startswith("YOU SIT 0 | P2 BOX %d" % m.scores[1])
    assert sim.app.stats.hands == 1              # the hand YOU played
    g.finish()


# -- the human as captain ------------------------------------------------------

def test_box_game_human_captain_sees_the_sitters_advice(tmp_path):
    g = Golden(tmp_path)
    sim = new_sim(SEED_CAPTAIN)
    m = start_box(sim)
    box, cap, sit = m.roles
    assert (box, cap, sit) == (2, 0, 1)
    assert m.to_move == 0 and m.phase == "first_upcard"   # the captain starts
    play = sim.app.screen
    # the AI sitter (P2) advised; the advice is recorded and on the table
    want = SimplePlayer().hint(m.view(sit))[0]
    assert m.advice == (sit, want)
    assert play.adv_kind != 0
    g.check(sim, "63_box_play_captain_advice")
    sim.press("LB")                               # hold B: the advice and why
    assert play.overlay == P.O_MSG and play.msg_title.startswith(b"SITTER: ")
    g.check(sim, "64_box_play_captain_advice_why")
    sim.press("A")
    # the captain decides: here it goes against the advice once
    other = [a for a in m.legal() if a != want][0]
    for k in presses_for(sim, other):
        sim.press(k)
    assert plain(engine.hand.action_text(m.hand.log[0])) == other
    # every turn of the captain shows fresh advice
    while m.to_move != 0 and sim.screen == "box_play":
        sim.settle()
    if m.to_move == 0:
        assert play.adv_kind != 0 and m.advice is not None and m.advice[0] == sit
    play_hand(sim)
    if sim.screen == "box_showdown":
        sim.press("A")
    assert sim.screen == "box_result"
    res, roles = m.results[-1]
    r = sim.app.screen
    # the captain (YOU) won: P3 sits out, YOU go into the box, P2 captain
    assert res.winner == 0 and r.scorer == 0
    assert r.lines == (b"P3 SITS OUT, YOU TAKE THE BOX", b"P2 BECOMES CAPTAIN")
    g.check(sim, "65_box_result_captain_won")
    sim.press("A", settle=False)
    assert m.roles == (0, 1, 2)
    g.finish()


# -- the human as sitter ---------------------------------------------------------

def _wait_for(sim, cond, ms=20000):
    for _ in range(ms // 50):
        if cond():
            return
        sim.run(50)
    raise AssertionError("waited in vain")


def test_box_game_human_sitter_advises_the_ai_captain(tmp_path):
    g = Golden(tmp_path)
    sim = new_sim(SEED_SITTER)
    m = start_box(sim, settle=False)
    box, cap, sit = m.roles
    assert (box, cap, sit) == (1, 2, 0)
    play = sim.app.screen
    assert play.sitter and m.to_move == cap
    # the captain's cards are shown
    assert sorted(play.row.cards[:play.row.n]) == m.hand.cards_of(0)
    g.check(sim, "66_box_play_sitter_watch")
    sim.press("A", settle=False)                  # advise
    assert play.advising and play.mode == P.M_DRAW
    sim.run(3000)
    assert m.to_move == cap and not m.hand.log    # the captain waits meanwhile
    sim.press("R", settle=False)                  # the upcard
    g.check(sim, "67_box_play_sitter_advising")
    want = consider(SimplePlayer(), m.view(cap), "draw_upcard")
    sim.press("A", settle=False)
    assert m.advice == (0, "draw_upcard") and not play.advising
    _wait_for(sim, lambda: play.overlay == P.O_MSG)
    # the captain answered, and played what it said
    follows = want[1]
    assert play.msg_title == (b"P3 FOLLOWS" if follows else b"P3 DECLINES")
    assert engine.hand.action_text(m.hand.log[0]).startswith(want[0])
    g.check(sim, "68_box_play_captain_answer")
    sim.press("A", settle=False)
    # the captain's discard: a knock advice the rules refuse, then a discard
    _wait_for(sim, lambda: m.to_move == cap and m.phase == "discard"
              and play.mode == P.M_AI and play.overlay == 0)
    sim.press("A", settle=False)
    assert play.advising and play.mode == P.M_DISCARD
    before = engine.dumps(m)
    sim.press("U", settle=False)                  # knock with that card: refused (R6)
    assert play.overlay == P.O_MSG and play.msg_title == b"NOT ALLOWED"
    assert b"knocking needs 10 or less (R6)" in b" ".join(play.msg_lines)
    assert engine.dumps(m) == before and m.advice is None
    g.check(sim, "69_box_play_advice_knock_refused")
    sim.press("A", settle=False)
    assert play.advising
    sim.press("R", settle=False)
    card = play.row.cards[play.cur]
    adv = "discard:" + engine.card_text(card)
    if adv not in m.legal():                      # R4: not the card just taken
        sim.press("R", settle=False)
        card = play.row.cards[play.cur]
        adv = "discard:" + engine.card_text(card)
    want = consider(SimplePlayer(), m.view(cap), adv)
    sim.press("A", settle=False)
    assert m.advice == (0, adv)
    _wait_for(sim, lambda: play.overlay == P.O_MSG)
    assert play.msg_title == (b"P3 FOLLOWS" if want[1] else b"P3 DECLINES")
    last = [engine.hand.action_text(c) for c, s in zip(m.hand.log, m.hand.log_seat) if s == 0][-1]
    assert last == want[0]
    g.check(sim, "70_box_play_discard_answer")
    sim.press("A", settle=False)
    # B leaves the advice without giving any
    _wait_for(sim, lambda: m.to_move == cap and play.mode == P.M_AI and play.overlay == 0
              or sim.screen != "box_play")
    if sim.screen == "box_play":
        sim.press("A", settle=False)
        sim.press("B", settle=False)
        assert not play.advising and play.mode == P.M_AI and m.advice is None
    g.finish()


# -- a whole match ---------------------------------------------------------------

def test_box_game_short_match_to_the_end(tmp_path):
    g = Golden(tmp_path)
    storage = MemStorage()
    sim = new_sim(SEED_CAPTAIN, storage, target=50)
    m = start_box(sim)
    assert m.rules.target == 50 and m.rules.undercut_bonus == 10
    played = 0
    shown = set()
    for _ in range(100):
        if sim.screen == "box_match_end":
            break
        play_hand(sim)
        res, roles = m.results[-1]
        if roles[2] != 0:
            played += 1
        if sim.screen == "box_showdown":
            sim.press("A")
        assert sim.screen == "box_result"
        if res.winner == 1 and "won" not in shown and m.phase != "match_over":
            # the box won: it stays, the other two swap
            shown.add("won")
            box, cap, sit = roles
            assert sim.app.screen.next_role[box] == 0
            assert sim.app.screen.next_role[cap] == 2 and sim.app.screen.next_role[sit] == 1
            g.check(sim, "73_box_result_box_won")
            sim.press("A")
            assert m.roles == (box, sit, cap)
            continue
        sim.press("A")
    assert shown == {"won"}
    assert sim.screen == "box_match_end"
    assert m.phase == "match_over" and m.scores[m.winner] >= 50
    assert sorted(m.scores)[1] < 50
    for res, roles in m.results:                  # the sitter never scores
        assert res.winner is None or roles[2] != (roles[0] if res.winner == 1 else roles[1])
    e = sim.app.screen
    assert e.scores == m.scores and sorted(e.order) == [0, 1, 2]
    assert m.scores[e.order[0]] == max(m.scores)
    g.check(sim, "71_box_match_end")
    st = sim.app.stats
    assert st.matches == 1 and st.hands == played
    assert gamesave.split(storage.files["game"])[1] == b""   # nothing left to resume
    sim.press("A")
    assert sim.screen == "title" and sim.app.match is None
    g.finish()


def test_box_game_drawn_hand_nobody_moves(tmp_path):
    """V3 in the box game: two stock cards left after a discard, a drawn
    hand; the same box deals again."""
    g = Golden(tmp_path)
    sim = new_sim(SEED_BOX, factory=lambda level, seed: StockOnly(level, seed))
    m = start_box(sim)
    play = sim.app.screen
    for _ in range(200):
        if sim.screen != "box_play":
            break
        if m.phase == "first_upcard":
            sim.press("A")                        # pass
        elif m.phase == "draw":
            assert play.src == 0
            sim.press("A")                        # the stock
        else:
            sim.press("A")                        # the card drawn goes back
    assert sim.screen == "box_result"
    res, roles = m.results[-1]
    assert res.kind == "draw" and res.why == "stock" and m.hand.stock_n == 2
    assert sim.app.screen.lines == (b"NOBODY MOVES:", b"YOU DEAL AGAIN")
    g.check(sim, "72_box_result_drawn")
    sim.press("A")
    assert m.roles == roles and m.hand_no == 2
    g.finish()


# -- saves and the real AI -------------------------------------------------------

def test_box_game_is_saved_and_resumes():
    storage = MemStorage()
    sim = new_sim(SEED_CAPTAIN, storage)
    m = start_box(sim)
    play_turn(sim)
    play_turn(sim)
    sim.settle()
    saved = gamesave.split(storage.files["game"])[1]
    assert saved[:4] == b"GRSB"
    again = new_sim(99, storage)
    again.settle()
    t = again.app.screen
    assert t.keys[0] == "continue"
    again.press("A")
    assert again.screen == "box_play"
    m2 = again.app.match
    assert isinstance(m2, BoxMatch) and engine.dumps(m2) == saved
    assert m2.roles == m.roles and m2.hand_no == m.hand_no
    assert status_text(again) == status_text(sim)
    # a box match left through the menu continues at the same turn
    quit_to_title(again)
    assert again.screen == "title"
    again.press("A")                              # CONTINUE
    assert again.screen == "box_play" and engine.dumps(again.app.match) == saved


def test_box_game_goes_on_when_the_flash_refuses_saves():
    sim = new_sim(SEED_BOX)
    sim.app.storage = RefusingStorage()    # the flash fills up after boot
    start_box(sim)
    assert "could not save game" in sim.app.saving.error
    sim.app.saving.error = None
    play_hand(sim)                        # the hand's end saves the statistics
    assert sim.screen in ("box_showdown", "box_result")
    assert "could not save" in sim.app.saving.error


def test_box_game_with_the_device_ai_to_the_end():
    """The real AI (engine.ai) in both AI seats, consulting each other as
    sitter and captain (engine.ai.box_ai); the human plays the simple policy.
    No AI move is ever refused by the engine."""
    sim = new_sim(SEED_SITTER, level="easy", target=50, factory=None)
    m = start_box(sim, settle=False)
    refused = refusals(m)
    hands = 0
    advised = answers = 0
    for _ in range(3000):
        s = sim.screen
        if s == "box_match_end":
            break
        if s in ("box_showdown", "box_result"):
            if s == "box_result":
                hands += 1
            sim.press("A", settle=False)
            continue
        play = sim.app.screen
        if play.overlay:
            sim.press("A", settle=False)
        elif m.to_move == 0 and play.mode in (P.M_DRAW, P.M_DISCARD):
            play_turn(sim)
        elif play.advising:
            sim.press("B", settle=False)          # (advice refused: R4) give none
        elif play.sitter and m.to_move == m.hand_roles[1] and play.mode == P.M_AI \
                and not m.advice:
            sim.press("A", settle=False)          # advise the AI captain
            sim.press("A", settle=False)
            if m.advice is not None:
                advised += 1
            sim.run(1000)
            if play.overlay == P.O_MSG and play.msg_title[3:] in (b"FOLLOWS", b"DECLINES"):
                answers += 1
        else:
            sim.run(200)
    assert sim.screen == "box_match_end", sim.screen
    assert not refused, refused
    assert max(m.scores) >= 50 and hands == len(m.results)
    assert advised and answers == advised


# -- MicroPython: the box table redraws without allocating ----------------------

MP_CHECK = r'''
r = Rig(seed=%d)
app = r.app
for i in range(4):
    r.press(btn.DOWN)
r.press(btn.A)                      # 3-PLAYER GAME
r.settle()
play = app.screen
c = app.canvas
print("screen|%%s" %% app.screen_name)
play.draw(c)
print("table|%%d" %% locked(lambda: play.draw(c)))
'''


def test_box_table_redraw_allocates_nothing_on_micropython():
    import pytest
    from tools.bench.bench_ui import SCENARIO, ROOT, micropython_path, run_mp
    if micropython_path() is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    for seed in (SEED_BOX, SEED_CAPTAIN):
        out = run_mp("import sys\nsys.path.insert(0, %r)\n" % ROOT + SCENARIO
                     + MP_CHECK % seed).strip().splitlines()
        res = dict(line.rsplit("|", 1) for line in out if "|" in line)
        assert res.get("screen") == "box_play", out
        assert res.get("table") == "1", "allocated under heap_lock (seed %d): %s" % (seed, out)


# -- committed deals ---------------------------------------------------------

def test_box_game_with_entropy_deals_committed_hands_and_shows_the_proof(tmp_path):
    from engine.cut import cut_seed
    from engine.deal import chained_commitment, chained_nonce
    from engine.sha256 import hex_text
    from firmware import entropy
    from firmware.matchlife import ai_seed

    seeds = []

    def factory(level, seed):
        seeds.append(seed)
        return simple_factory(level, seed)

    g = Golden(tmp_path)
    # YOU are captain: the hand waits for YOUR first move, showing its commitment
    sim = CheckedSim(seed=SEED_CAPTAIN, storage=MemStorage(), player_factory=factory,
                     settings={"speed": "fast"}, entropy=entropy.seeded(21))
    m = start_box(sim)
    assert m.committed and m.hand.deal is None and m.ai_seed is not None
    assert m.cut == CUT
    seed = cut_seed(m._secret, CUT, 1)         # the chain: engine/deal.py, engine/cut.py
    nonce = chained_nonce(m.chain_start(), seed)
    assert m.hand.commit == hex_text(chained_commitment(m.chain_start(), 1, seed, nonce))[:10]
    # the AIs' seeds come from the match's own AI seed, not the match seed
    assert seeds and m.ai_seed in seeds
    assert ai_seed((m.seed + 1) & 0x3FFFFFFF) not in seeds
    play = sim.app.screen
    assert play.committed and play.fp == b"DEAL #" + m.hand.commit.encode()
    assert play.fresh and play.ai_took == P.NOCARD and play.ai_out == P.NOCARD
    assert m.hand_roles[1] == 0
    g.check(sim, "84_box_play_commitment")
    play_hand(sim)
    if sim.screen == "box_showdown":
        assert sim.app.screen.commit == b"DEAL #" + m.hands[0][0].commit.encode()
        sim.press("A")
    assert sim.screen == "box_result"
    sim.press("U")
    r = sim.app.screen
    assert r.page and r.proof == (m.hands[0][0].commit.encode(), hex_text(seed).encode(),
                                  hex_text(nonce).encode(),
                                  b"SEED FROM SECRET AND CUT " + CUT.encode())
    g.check(sim, "85_box_result_proof")
    sim.press("U")
    assert not sim.app.screen.page
    # saved with its secret and AI seed: a restart resumes the same
    saved = gamesave.decode(sim.storage.load("game")[0]).match
    assert saved.committed and saved.ai_seed == m.ai_seed and saved._secret == m._secret
    g.finish()


def test_box_ai_thinks_in_slices_a_tick_apart(monkeypatch):
    """The real hard AI in both AI seats: each AI move is worked out in
    slices (engine.ai.box_ai.Think: an AI sitter's advice, the mover's
    choice in hard's two halves), one slice an App step, so the frame and
    the buttons are served between them; and no move is refused."""
    from engine.ai import box_ai
    sim = new_sim(SEED_BOX, level="hard", factory=None)
    n = [0]
    step = sim.app.step

    def counted():
        n[0] += 1
        return step()
    sim.app.step = counted
    slices = []                  # each Think's [App step of each slice]
    real = box_ai.Think.step

    def logged(self):
        if not hasattr(self, "seen"):
            self.seen = []
            slices.append(self.seen)
        self.seen.append(n[0])
        return real(self)
    monkeypatch.setattr(box_ai.Think, "step", logged)
    m = start_box(sim, settle=False)
    refused = refusals(m)
    play_hand(sim)
    assert not refused and len(slices) > 5
    many = [s for s in slices if len(s) > 1]
    assert many, slices                         # some moves took more than one slice
    assert all(len(set(s)) == len(s) for s in slices)   # one slice an App step
