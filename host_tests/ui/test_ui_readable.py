"""What a player reads: rules with the ids the refusals cite, the score as
its sum, the layoffs named, DW for the card chosen, the scores held until
the showdown, whose cards a sitter sees, the pile spaced out, every title
entry on screen, UP before the draw answered."""

import os
import re

import engine
from engine.box import BOX_RULES
from engine.hand import HandResult
from firmware.display import fb
from firmware.screens import layout as L
from firmware.screens import play as P
from firmware.screens.help import LINES, PAGES
from firmware.screens.scoring import score_sum
from firmware.screens.showdown import K_CARDS_Y
from screen_text import find, shows
from tools.sim.simulator import MemStorage, Sim
from tools.kit.ui_driver import play_turn, presses_for, simple_choice, simple_factory, title_to

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IDS = ["R%d" % i for i in range(1, 15)] + ["V%d" % i for i in range(1, 7)]


def new_sim(seed=1, **settings):
    st = {"speed": "fast"}
    st.update(settings)
    sim = Sim(seed=seed, storage=MemStorage(), player_factory=simple_factory, settings=st)
    sim.settle()
    return sim


def play_until(sim, want, limit=3000):
    """Press on (the simple policy for the human, A elsewhere) until want()."""
    for _ in range(limit):
        if want():
            return
        if sim.screen == "play" and sim.app.screen.mode in (P.M_DRAW, P.M_DISCARD) \
                and not sim.app.screen.overlay:
            play_turn(sim)
        else:
            sim.press("A")
    raise AssertionError("never happened")


# -- item: the rules, with their ids --------------------------------------------

def _page_text():
    return "\n".join(ln.decode() for _, lines in PAGES for ln in lines)


def test_rules_pages_fit_and_number_every_rule_and_variant():
    for title, lines in PAGES:
        assert len(lines) <= LINES, title
        assert all(len(ln) <= 31 for ln in lines), title
    text = _page_text()
    for rid in IDS:
        assert re.search(r"\b%s\b" % rid, text), rid


def test_docs_rules_md_has_every_rule_and_the_readme_points_at_it():
    rules = open(os.path.join(ROOT, "docs", "RULES.md")).read()
    for rid in IDS:
        assert "**%s " % rid in rules, rid
    readme = open(os.path.join(ROOT, "README.md")).read()
    assert "docs/RULES.md" in readme and "shared/RULES.md" not in readme


def test_every_rule_a_refusal_cites_is_on_the_rules_pages():
    cited = set()
    for name in os.listdir(os.path.join(ROOT, "engine")):
        if name.endswith(".py"):
            src = open(os.path.join(ROOT, "engine", name)).read()
            cited.update(re.findall(r"\((R\d+)\)\"", src))
    assert {"R4", "R6"} <= cited
    text = _page_text()
    for rid in cited:
        assert re.search(r"\b%s\b" % rid, text), rid


def test_rules_pages_explain_t_and_dw():
    text = _page_text()
    assert "T IS THE TEN" in text
    assert "TS:" not in text          # the game shows suits as symbols, never as letters
    assert "DW, TOP RIGHT" in text


# -- item: the score as its sum ------------------------------------------------------

def _result(knocker, defender, rules=None):
    o = engine.settle(engine.cards(knocker), engine.cards(defender), rules)
    winner = 0 if o.winner == "knocker" else 1
    return HandResult(o.kind, 0, winner, o.points, o)


def test_score_sum_shows_the_bonus_of_gin_and_undercut():
    gin = _result("As 2s 3s 4h 5h 6h 7c 7d 7h 7s", "Kd Qc Jh 9s 8d 2h 3c 4d 5c 6s")
    assert score_sum(gin) == b"67 + 25 GIN = 92"
    knock = _result("As 2s 3s 4h 5h 6h 7c 7d 7h 5c", "Kd Qc Jh 9s 8d 2h 3c 4d 6c 7s")
    assert score_sum(knock) == b"DEADWOOD 62 - 5 = 57"          # after laying off 7s
    under = _result("As 2s 3s 4h 5h 6h 7c 7d 7h 8c", "Ks Kc Kh 9s 9d 9h 3c 4c 5c 2d")
    assert score_sum(under) == b"6 + 25 UNDERCUT = 31"
    box = _result("As 2s 3s 4h 5h 6h 7c 7d 7h 8c", "Ks Kc Kh 9s 9d 9h 3c 4c 5c 2d", BOX_RULES)
    assert score_sum(box) == b"6 + 10 UNDERCUT = 16"           # V6
    assert score_sum(HandResult("draw", None, None, 0, None, "stock")) == b""


def test_showdown_and_result_show_the_sum():
    sim = new_sim()
    sim.press("A")
    play_until(sim, lambda: sim.screen == "showdown")
    res = sim.app.match.results[-1]
    line = score_sum(res)
    assert str(res.points).encode() in line
    who = (b"YOU" if res.winner == 0 else b"CPU") + b": " + line
    assert shows(sim.image(), who, rows=range(58, 59))
    sim.press("A")
    assert sim.screen == "result"
    assert shows(sim.image(), line)


def test_showdown_names_the_laid_off_cards_that_it_draws_lit():
    sim = new_sim()
    sim.press("A")
    play_until(sim, lambda: sim.screen == "showdown"
               and sim.app.match.results[-1].outcome.layoffs)
    sd = sim.app.screen
    laid = sorted(c for c, _ in sim.app.match.results[-1].outcome.layoffs)
    assert sorted(sd.laid) == laid
    lit = sorted(sd.top.cards[i] for i in range(sd.top.n) if sd.top.flags[i])
    assert lit == laid
    img = sim.image()
    assert shows(img, b"LAID OFF")
    # each named card's rank glyph follows LAID OFF on the defender's line
    x, y = find(img, b"LAID OFF")
    assert y > K_CARDS_Y + 16


def test_gin_showdown_says_nothing_is_laid_off():
    sim = new_sim()
    sim.press("A")
    play_until(sim, lambda: sim.screen == "showdown"
               and sim.app.match.results[-1].kind == "gin")
    img = sim.image()
    assert shows(img, b"NO LAYOFFS ON CPU GIN") or shows(img, b"NO LAYOFFS ON YOUR GIN")
    assert not shows(img, b"YOU GIN")


# -- item: DW for the card chosen ---------------------------------------------------

def test_dw_is_the_deadwood_discarding_the_selected_card_leaves():
    sim = new_sim()
    sim.press("A")
    sim.press("A")                                  # draw from the stock
    play = sim.app.screen
    h = sim.app.match.hand
    assert play.mode == P.M_DISCARD and play.row.n == 11
    seen = set()
    for _ in range(11):
        card = play.row.cards[play.cur]
        assert play.dw == h.deadwood_without(0, card)
        seen.add(play.dw)
        sim.press("R")
    assert len(seen) > 1                            # it follows the cursor
    assert min(seen) == sim.app.match.view(0).deadwood
    # after the discard: the deadwood of the ten cards kept
    sim.press("A")
    sim.settle()
    assert play.mode == P.M_DRAW and play.dw == sim.app.match.view(0).deadwood


# -- item: the scores stay until the showdown says why --------------------------------

def test_status_scores_change_only_when_the_showdown_shows_why():
    sim = new_sim(speed="normal")
    sim.press("A")
    play = sim.app.screen
    m = sim.app.match

    def knock_next():
        return sim.screen == "play" and play.mode == P.M_DISCARD \
            and simple_choice(m.view(0)).startswith("knock")

    play_until(sim, knock_next)
    before = (play.me, play.opp)
    status = sim.image()[:90]                       # the status row up to DW
    for k in presses_for(sim, simple_choice(m.view(0))):
        sim.press(k, settle=False)
    assert play.mode == P.M_END and m.scores != list(before)
    assert (play.me, play.opp) == before
    assert sim.image()[:90] == status
    sim.settle()
    assert sim.screen == "showdown"


def test_box_status_scores_wait_for_the_showdown_too():
    sim = new_sim(seed=1, speed="normal")
    title_to(sim, "box", settle=False)
    play = sim.app.screen
    m = sim.app.match
    for _ in range(20000):
        if play.mode == P.M_END:
            break
        assert sim.screen == "box_play"
        if m.to_move == 0 and play.mode in (P.M_DRAW, P.M_DISCARD) and not play.overlay:
            play_turn(sim)
        elif play.overlay:
            sim.press("A", settle=False)
        else:
            sim.run(50)
    else:
        raise AssertionError("the hand never ended")
    res, roles = m.results[-1]
    assert res.winner is not None
    p = roles[0] if res.winner == 1 else roles[1]
    assert play.score3[p] == m.scores[p] - res.points > -1
    sim.settle()
    assert sim.screen == "box_showdown"


# -- item: the box game's sitter and match end --------------------------------------

def test_box_sitter_sees_whose_cards_are_shown():
    sim = new_sim(seed=2)                           # roles: P2 box, P3 captain, YOU sit
    title_to(sim, "box", settle=False)
    m = sim.app.match
    assert m.roles[2] == 0 and m.roles[1] == 2
    assert shows(sim.image(), b"P3'S CARDS")
    sim.press("A", settle=False)                    # advising: shorter, still named
    assert sim.app.screen.advising
    assert shows(sim.image(), b"P3 DW")


def test_counts_say_one_hand_and_many_hands():
    for n, one, many in ((1, b"HAND", b"HANDS"), (9, b"HAND", b"HANDS"),
                         (1, b"CARD", b"CARDS"), (12, b"CARD", b"CARDS")):
        c = fb.Canvas()
        L.count_right(c, n, one, many, 2, 1)
        want = b"%d %s" % (n, one if n == 1 else many)
        assert shows(c.buf, want), want
        assert not shows(c.buf, b"%d %s" % (n, many)) or n != 1


# -- item: the discard pile view -------------------------------------------------------

def test_pile_view_spaces_the_cards_newest_first_and_lights_the_top():
    sim = new_sim()
    sim.press("A")
    m = sim.app.match
    play_until(sim, lambda: sim.screen == "play" and m.hand.pile_n >= 6
               and sim.app.screen.mode == P.M_DRAW)
    play = sim.app.screen
    play._open_pile()
    play.dirty = True
    sim.step()
    img = sim.image()
    pile = m.view(0).pile[::-1]
    assert list(play.pile_cards) == pile and pile[0] == m.view(0).upcard
    # the top card: dark on a lit box at the first place
    assert find(img, engine.card_text(pile[0])[0].encode(), lit_on_dark=False,
                rows=range(12, 13)) == (3, 12)
    # between two cards at least 3 dark columns (they used to touch)
    for i in range(1, min(len(pile), 9) - 1):
        x = 3 + i * 13
        gap = [fb_col_dark(img, xx, 11, 18) for xx in range(x + 9, x + 12)]
        assert all(gap), i
    assert shows(img, b"TOP CARD FIRST, OLDEST LAST")


def fb_col_dark(img, x, y0, y1):
    from tools.sim.render import pixel
    return not any(pixel(img, x, y) for y in range(y0, y1))


# -- item: the title's entries, UP before a draw --------------------------------------

def test_title_shows_every_entry_with_a_match_saved():
    sim = new_sim()
    sim.press("A")
    play_turn(sim)
    play_turn(sim)
    sim.press("B")
    for _ in range(4):
        sim.press("D")
    sim.press("A")                                  # QUIT TO TITLE: the match stays
    assert sim.screen == "title"
    t = sim.app.screen
    assert t.keys[0] == "continue" and len(t.keys) == 6
    for _ in range(6):
        img = sim.image()
        for label in (b"CONTINUE", b"NEW MATCH", b"SETTINGS", b"STATISTICS", b"RULES",
                      b"3-PLAYER GAME"):
            assert shows(img, label, fb.BIG) or shows(img, label, fb.BIG, False), label
        sim.press("D")


def test_up_while_drawing_says_to_draw_first_and_changes_nothing():
    sim = new_sim()
    sim.press("A")
    play = sim.app.screen
    before = engine.dumps(sim.app.match)
    sim.press("U")
    assert play.overlay == P.O_MSG and play.msg_title == b"DRAW FIRST"
    assert b"(R3, R6)" in b" ".join(play.msg_lines)
    assert engine.dumps(sim.app.match) == before
    sim.press("A")
    assert play.overlay == P.O_NONE and play.mode == P.M_DRAW
