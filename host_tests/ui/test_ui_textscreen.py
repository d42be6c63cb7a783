"""The panel read back as words (tools/sim/textscreen.py), the terminal's
view when it is too small for a legible picture: the golden screens and
live hands read as the game drew them."""

import re

import pytest

import engine
from engine.version import VERSION
from tools.sim import terminal, textscreen
from tools.sim.simulator import Sim
from ui_golden import golden_buf as golden

CARD = re.compile(r"[A2-9TJQK][\u2660\u2665\u2666\u2663]")
SUIT = dict(zip("shdc", textscreen.SUIT_SYMBOLS))


def name(c):
    t = engine.card_text(c)
    return t[0] + SUIT[t[1]]


def test_the_title_reads_as_its_words_with_the_cursor_marked():
    assert textscreen.read(golden("01_title")) == [
        "\u2660\u2665 GIN RUMMY \u2666\u2663", "> NEW MATCH", "SETTINGS", "STATISTICS",
        "RULES", "3-PLAYER GAME", "^ v CHOOSE A OK   V" + VERSION.upper()]


def test_a_discard_shows_the_melds_grouped_and_the_raised_card():
    lines = textscreen.read(golden("07_play_your_discard"))
    assert lines[0] == "YOU 0   CPU 0   HAND 1 DW 74"
    assert "<> A DISCARD ^ KNOCK B MENU" in lines
    assert lines[-1] == ("[T\u2660 >J\u2660 Q\u2660 K\u2660] 3\u2665 4\u2663 5\u2665 "
                         "6\u2666 8\u2666 9\u2665 9\u2663")


def test_the_showdown_shows_melds_layoffs_deadwood_and_the_score():
    lines = textscreen.read(golden("14_showdown_undercut"))
    assert lines == [
        "UNDERCUT!   DEAL 353239931",
        "YOU KNOCKED   DEADWOOD 8",
        "[T\u2660 J\u2660 Q\u2660 K\u2660] [*4\u2666 *5\u2666 6\u2666 7\u2666 8\u2666] "
        "A\u2663 3\u2665 4\u2663",
        "CPU LAID OFF 4\u2666 5\u2666 DEADWOOD 7",
        "[A\u2660 A\u2665 A\u2666] [9\u2665 9\u2666 9\u2663] 3\u2663 4\u2660",
        "CPU: 1 + 25 UNDERCUT = 26 A NEXT"]


def test_signs_read_as_signs_not_as_underlines_or_dots():
    lines = textscreen.read(golden("27_review"))
    assert "BETTER T\u2665 -7" in lines
    assert not any("_" in ln or ". " in ln for ln in lines)


def test_every_golden_screen_reads_without_stray_glyphs():
    import os
    from ui_golden import GOLDEN
    for f in sorted(os.listdir(GOLDEN)):
        lines = textscreen.read(golden(f[:-4]))
        assert lines, f
        assert not any(re.fullmatch(r"[\s|.'_,:-]+", ln) for ln in lines), (f, lines)


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_the_hand_read_is_the_hand_the_engine_deals(seed):
    """Live hands, through draws and discards: the last line names exactly
    the cards the engine holds for YOU, each once."""
    sim = Sim(seed=seed)
    sim.keys("A")                       # NEW MATCH
    seen = 0
    for step in range(12):
        m = sim.app.match
        if m is None or sim.screen != "play" or m.to_move != 0 or m.phase not in (
                "draw", "discard"):
            sim.press("A" if step % 2 else "R")
            continue
        hand = sorted(name(c) for c in m.view(0).hand)
        read = CARD.findall(textscreen.read(sim.image())[-1])
        assert sorted(read) == hand, (seed, step, read, hand)
        seen += 1
        sim.press("A" if m.phase == "draw" else "A")
    assert seen >= 4


def test_the_terminal_shows_text_below_the_quadrants_and_pixels_above():
    assert terminal.choose(80, 24) is terminal.TEXT
    assert terminal.choose(100, 30) is terminal.TEXT
    assert terminal.choose(66, 36).name == "quadrants"
    assert terminal.choose(140, 50).name == "half blocks"
    assert terminal.choose(49, 24) is None and terminal.choose(80, 15) is None
    lines = terminal.text_frame(golden("07_play_your_discard"), 80, 24)
    assert len(lines) <= 24 and all(len(ln) <= 80 for ln in lines)
    assert any(ln.strip().startswith("[T\u2660 >J\u2660") for ln in lines)


def test_every_title_item_is_named_even_on_the_key_boxes():
    """CONTINUE pushes 3-PLAYER GAME onto the row just above the key boxes."""
    lines = textscreen.read(golden("22_title_continue"))
    assert lines[1:7] == ["> CONTINUE", "NEW MATCH", "SETTINGS", "STATISTICS", "RULES",
                          "3-PLAYER GAME"]


def test_the_stock_and_the_pile_are_labelled_and_the_chosen_one_marked():
    assert "> STOCK 31   PILE J\u2660" in textscreen.read(golden("02_play_your_draw"))
    lines = textscreen.read(golden("03_play_pile_chosen"))
    assert "STOCK 31   > PILE J\u2660" in lines
    assert not any("*" in ln or "##" in ln for ln in lines)   # '*' is for laid-off cards
    assert "STOCK 31   PILE 9\u2665" in textscreen.read(golden("09_play_ai_thinking"))
    assert "STOCK 31   PILE EMPTY" in textscreen.read(golden("07_play_your_discard"))
    assert "> PASS   PILE J\u2660" in textscreen.read(golden("32_play_v1_offer"))
    # the marks are explained under the text view
    assert "> chosen" in terminal.MARKS and "* lit" in terminal.MARKS


def test_a_card_in_a_message_keeps_its_suit():
    assert "THE 7\u2666 WAS JUST TAKEN FROM" in textscreen.read(golden("12_play_r4_refused"))
    assert "KEEPS 3\u2665: IT MAKES A SET" in textscreen.read(
        golden("70_box_play_discard_answer"))


def test_only_real_melds_are_bracketed():
    assert textscreen.is_meld(["4\u2665", "4\u2666", "4\u2663"])
    assert textscreen.is_meld(["A\u2666", "2\u2666", "3\u2666", "4\u2666"])
    assert not textscreen.is_meld(["4\u2665", "4\u2666", "5\u2663", "6\u2660", "8\u2666"])
    assert not textscreen.is_meld(["Q\u2660", "K\u2660", "A\u2660"])     # the ace is low
    assert not textscreen.is_meld(["4\u2665", "4\u2665", "4\u2663"])
    # a hand under a message box keeps its groups apart but brackets no non-meld
    last = textscreen.read(golden("12_play_r4_refused"))[-1]
    assert last.startswith("6\u2666 8\u2666 [T\u2660 J\u2660 Q\u2660 K\u2660]")


def test_the_gin_showdown_names_who_went_gin():
    lines = textscreen.read(golden("14_showdown_gin"))
    assert "CPU WENT GIN   DEADWOOD 0" in lines
    assert "YOU NO LAYOFFS ON CPU GIN DW 15" in lines
