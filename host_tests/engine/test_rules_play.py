"""R3-R4, R6-R14: turns, knocking, showdown, scoring, the end of hands and
matches. Hands are written in card notation."""
from engine import (cards, card, card_text, settle, CARDEMS, Rules,
                    best_melds)
from scenario import match_with, play, raises, snapshot, melds_text

# Seat 0 holds three melds and 3d 4d dead (7); seat 1 is all dead.
KNOCKY = "As 2s 3s 7h 7d 7c 9s Ts Js 3d"
LOOSE = "2h 4h 6h 8h Th Qh 2c 4c 6c 8c"


def test_r3_draw_from_stock_then_discard_back_to_ten():
    m = match_with(KNOCKY, LOOSE, "Kd", "5c")
    play(m, "draw_stock")
    assert len(m.hand.cards_of(0)) == 11 and m.phase == "discard"
    play(m, "discard:5c")
    assert len(m.hand.cards_of(0)) == 10
    assert m.to_move == 1 and m.phase == "draw"
    assert m.hand.upcard() == card("5c")


def test_r3_only_the_top_discard_can_be_taken():
    m = match_with(KNOCKY, LOOSE, "Kd", "5c")
    play(m, "draw_stock", "discard:5c", "draw_upcard")
    assert m.hand.holds(1, card("5c")) and not m.hand.holds(1, card("Kd"))
    assert m.hand.upcard() == card("Kd")


def test_r3_a_turn_is_draw_then_one_discard():
    m = match_with(KNOCKY, LOOSE, "Kd", "5c")
    before = snapshot(m)
    assert "draw a card first" in m.act("discard:As")
    assert snapshot(m) == before
    play(m, "draw_stock")
    before = snapshot(m)
    assert "drawn already" in m.act("draw_stock")
    assert "drawn already" in m.act("draw_upcard")
    assert snapshot(m) == before


def test_r3_illegal_actions_name_the_problem_and_change_nothing():
    m = match_with(KNOCKY, LOOSE, "Kd", "5c")
    play(m, "draw_stock")
    before = snapshot(m)
    assert "do not hold the 2h" in m.act("discard:2h")
    assert "not a card" in m.act("discard:Xx")
    assert "not an action" in m.act("fold")
    assert "pass" in m.act("pass")
    assert snapshot(m) == before


def test_r4_card_taken_from_the_pile_cannot_be_discarded():
    m = match_with(KNOCKY, LOOSE, "Kd")
    play(m, "draw_upcard")
    before = snapshot(m)
    why = m.act("discard:Kd")
    assert "R4" in why and "Kd" in why
    assert snapshot(m) == before
    assert "discard:Kd" not in m.legal()
    play(m, "discard:3d")


def test_r4_nor_be_the_knock_discard():
    # 3h from the pile completes nothing but would be the only dead card
    m = match_with(KNOCKY, LOOSE, "4d")
    play(m, "draw_upcard")   # 3d 4d: deadwood 7 with 4d, knock possible
    assert "knock:4d" not in m.legal()
    assert "R4" in m.act("knock:4d")
    assert "knock:3d" in m.legal()


def test_r4_a_stock_card_has_no_restriction():
    m = match_with(KNOCKY, LOOSE, "Kd", "Qc")
    play(m, "draw_stock", "discard:Qc")


def test_r6_knock_over_the_limit_is_refused_and_changes_nothing():
    m = match_with(LOOSE, KNOCKY, "Kd", "Qc")
    play(m, "draw_stock")
    before = snapshot(m)
    why = m.act("knock:Qc")
    assert "knocking needs 10 or less" in why and "R6" in why
    assert snapshot(m) == before


def test_r6_knock_at_ten_or_less_ends_the_hand():
    m = match_with(KNOCKY, LOOSE, "Kd", "Qc")
    play(m, "draw_stock", "knock:Qc")
    assert m.phase == "hand_over"
    res = m.results[-1]
    assert res.kind == "knock" and res.knocker == 0 and res.winner == 0


def test_r6_deadwood_ten_may_knock_eleven_may_not():
    defender = cards("Kd Qd Jh 9c 5h 3h Qs Ks 5c 3c")
    ten = cards("As 2s 3s 7h 7d 7c 9s Ts Js Td")
    eleven = cards("As 2s 3s 4s 7h 7d 7c 8d 2d Ad")
    assert best_melds(ten)[0] == 10 and best_melds(eleven)[0] == 11
    assert settle(ten, defender).knocker_deadwood == 10
    msg = raises(ValueError, settle, eleven, defender)
    assert "over the knock limit" in msg


def test_r7_knock_with_zero_deadwood_is_gin():
    m = match_with("As 2s 3s 7h 7d 7c 9s Ts Js 5d", LOOSE, "Kd", "Qs")
    play(m, "draw_stock", "knock:5d")
    res = m.results[-1]
    assert res.kind == "gin" and res.winner == 0
    assert res.points == 25 + 2 + 4 + 6 + 8 + 10 + 10 + 2 + 4 + 6 + 8


def test_r8_knocker_shows_the_arrangement_worst_for_the_defender():
    # Three sets (7s 8s 9s of c d h) or three runs (7-8-9 of c, d, h): same
    # deadwood 5. With runs the defender would lay Td off onto 7d 8d 9d.
    knocker = cards("7c 7d 7h 8c 8d 8h 9c 9d 9h 5h")
    defender = cards("4c 2c Td Ac Ah 3h Js Jc 4h 2d")
    o = settle(knocker, defender)
    assert melds_text(o.knocker_melds) == ["7h 7d 7c", "8h 8d 8c", "9h 9d 9c"]
    assert o.layoffs == []
    assert (o.kind, o.points, o.defender_deadwood) == ("knock", 42, 47)


def test_r9_defenders_own_meld_cards_stay():
    # RULES.md R9: the four 7s are a meld, so 6h stays deadwood.
    knocker = cards("8h 9h Th 2s 2d 2c Qs Qd Qc As")
    defender = cards("7c 7d 7h 7s 6h Kc Kd 3s 4d 5c")
    o = settle(knocker, defender)
    assert "7s 7h 7d 7c" in melds_text(o.defender_melds)
    assert o.layoffs == []
    assert o.defender_deadwood == 6 + 10 + 10 + 3 + 4 + 5


def test_r9_layoffs_extend_runs_repeatedly_at_both_ends():
    # 8h then 9h onto 5h 6h 7h, and 4h at the low end.
    knocker = cards("5h 6h 7h 2s 2d 2c Qs Qd Qc As")
    defender = cards("8h 9h 4h Kc Kd Jc 3s 4d 5c 6d")
    o = settle(knocker, defender)
    laid = sorted([card_text(c) for c, i in o.layoffs])
    assert laid == ["4h", "8h", "9h"]
    run = [i for i in range(len(o.knocker_melds)) if card("5h") in o.knocker_melds[i]][0]
    assert all(i == run for c, i in o.layoffs)
    order = [card_text(c) for c, i in o.layoffs]
    assert order.index("8h") < order.index("9h")
    assert o.defender_deadwood == 10 + 10 + 10 + 3 + 4 + 5 + 6


def test_r9_layoff_onto_a_three_set_not_a_four_set():
    knocker = cards("Qs Qh Qd 5c 5d 5h 5s As 2s 7s")
    defender = cards("Qc 8c 9d Kh 3d 4c 7h Js 2h 6d")
    o = settle(knocker, defender)
    assert [card_text(c) for c, i in o.layoffs] == ["Qc"]
    # Knocker's 5-set is complete: no 5 could be laid off even if held.


def test_r9_no_layoffs_after_gin():
    knocker = cards("5h 6h 7h 2s 2d 2c Qs Qd Qc Qh")
    defender = cards("8h 9h 4h Kc Kd Jc 3s 4d 5c 6d")
    o = settle(knocker, defender)
    assert o.kind == "gin" and o.layoffs == []
    assert o.defender_deadwood == 8 + 9 + 4 + 10 + 10 + 10 + 3 + 4 + 5 + 6


def test_r9_defender_uses_the_arrangement_lowest_after_layoffs():
    # The defender's 7h fits the set 7s 7h 7c or the run 6h 7h 8h: deadwood
    # 37 either way. Only with the run are 7c and then 6c free to go onto
    # the knocker's 8c 9c Tc, so that arrangement is used: 24.
    knocker = cards("Js Jh Jc 8c 9c Tc 3h 2d Ac 2c")
    defender = cards("4s 7s 9s Ah 6h 7h 8h 3c 6c 7c")
    o = settle(knocker, defender)
    assert melds_text(o.defender_melds) == ["6h 7h 8h"]
    assert [card_text(c) for c, i in o.layoffs] == ["7c", "6c"]
    assert (o.defender_deadwood, o.points) == (24, 16)


KNOCK7 = "As 2s 3s 4h 5h 6h 9c 9d 9h 7s"   # deadwood 7 (the 7s)


def test_r10_knock_on_7_defender_18_after_layoffs_knocker_scores_11():
    # 7h then 8h go onto 4h 5h 6h; Tc 8d stay: 18.
    o = settle(cards(KNOCK7), cards("Qc Qd Qh 4c 5c 6c 7h 8h Tc 8d"))
    assert (o.knocker_deadwood, o.defender_deadwood) == (7, 18)
    assert (o.kind, o.winner, o.points) == ("knock", "knocker", 11)


def test_r10_both_7_is_an_undercut_defender_scores_25():
    o = settle(cards(KNOCK7), cards("Qc Qd Qh 4c 5c 6c 2d 3d 4d 7d"))
    assert (o.knocker_deadwood, o.defender_deadwood) == (7, 7)
    assert (o.kind, o.winner, o.points) == ("undercut", "defender", 25)


def test_r10_undercut_scores_the_difference_plus_25():
    o = settle(cards(KNOCK7), cards("Qc Qd Qh 4c 5c 6c 2d 3d 4d Ah"))
    assert (o.kind, o.winner, o.points) == ("undercut", "defender", 7 - 1 + 25)


def test_r10_gin_defender_13_knocker_scores_38():
    o = settle(cards("As 2s 3s 4h 5h 6h 9c 9d 9h 9s"),
               cards("Qc Qd Qh 4c 5c 6c 7c 8c Td 3h"))
    assert (o.kind, o.winner, o.points, o.defender_deadwood) == ("gin", "knocker", 38, 13)


def test_r10_knocker_10_defender_46_knocker_scores_36():
    # Seed 001's example: 4-4-4, 7-8-9, dead Ac As 6c 2d; the defender's 6s
    # goes onto the knocker's 7s 8s 9s.
    o = settle(cards("4h 4d 4c 7s 8s 9s Ac As 6c 2d"),
               cards("7c 8c 9c 6s Kd Qh Jc Td 3h 3d"))
    assert [card_text(c) for c, i in o.layoffs] == ["6s"]
    assert (o.knocker_deadwood, o.defender_deadwood) == (10, 46)
    assert (o.kind, o.points) == ("knock", 36)


def test_r10_settle_rejects_bad_hands_with_clear_messages():
    k = cards(KNOCK7)
    assert "10 cards" in raises(ValueError, settle, k[:9], cards(LOOSE))
    assert "duplicate" in raises(ValueError, settle, k[:9] + k[:1], cards(LOOSE))
    assert "both hands" in raises(ValueError, settle, k, cards("As 4c 6c 8c Th Qh 2c 2h 4h 6h"))


SEAT1_DEAD = "2d 4d 6d 8d Td Qd Kc Jc 9c 7c"


def _discard_drawn(m):
    play(m, "draw_stock")
    h = m.hand
    play(m, "discard:" + card_text(h.stock[h.stock_n]))


def test_r11_stock_exhausted_after_the_31st_stock_card_is_a_draw():
    m = match_with(LOOSE, SEAT1_DEAD, "Qs")
    for i in range(30):
        _discard_drawn(m)
        assert m.phase == "draw"
    assert m.hand.stock_n == 1 and m.to_move == 0
    _discard_drawn(m)
    assert m.phase == "hand_over"
    res = m.results[-1]
    assert (res.kind, res.winner, res.points, res.why) == ("draw", None, 0, "stock")
    assert m.scores == [0, 0]
    assert len(m.hand.discard_cards()) == 32   # never turned over


def test_r11_the_player_drawing_the_last_stock_card_may_still_knock():
    # The last stock card is As (the lowest card nobody holds): As 2s 3s.
    m = match_with("2s 3s Kh 7h 7d 7c 9s Ts Js Kd", LOOSE, "Qd")
    for i in range(30):
        _discard_drawn(m)
    play(m, "draw_stock")
    assert m.hand.holds(0, card("As")) and m.hand.stock_n == 0
    play(m, "knock:Kh")
    assert m.results[-1].kind == "knock" and m.results[-1].winner == 0


def test_r12_match_ends_at_once_when_a_total_reaches_100():
    m = match_with(KNOCKY, LOOSE, "Kd", "Qc", scores=[95, 60])
    play(m, "draw_stock", "knock:Qc")
    assert m.scores[0] >= 100
    assert m.phase == "match_over" and m.winner == 0
    assert m.next_hand() == "the match is over"
    assert m.act("draw_stock") == "the match is over"


def test_r12_below_100_the_match_goes_on():
    m = match_with(KNOCKY, LOOSE, "Kd", "Qc", scores=[10, 60])
    play(m, "draw_stock", "knock:Qc")
    assert m.phase == "hand_over" and m.winner is None
    assert m.next_hand() is None and m.phase == "draw" and m.hand_no == 2


def test_r13_cardems_preset_is_fixed():
    r = CARDEMS
    assert (r.knock_limit, r.gin_bonus, r.undercut_bonus, r.target) == (10, 25, 25, 100)
    assert not r.upcard_offer and not r.oklahoma and not r.match_bonus
    assert r.stop_at == 0 and r.first == "human" and r.max_pile_turns == 40
    assert Rules.from_text(r.text()) == r


def _pile_turn(m):
    play(m, "draw_upcard")
    for a in m.legal():
        if a.startswith("discard:"):
            play(m, a)
            return


def test_r14_forty_turns_without_a_stock_draw_is_a_draw():
    m = match_with(LOOSE, SEAT1_DEAD, "Qs")
    for i in range(39):
        _pile_turn(m)
        assert m.phase == "draw"
    _pile_turn(m)
    res = m.results[-1]
    assert m.phase == "hand_over" and (res.kind, res.points, res.why) == ("draw", 0, "pile")


def test_r14_a_stock_draw_resets_the_count():
    m = match_with(LOOSE, SEAT1_DEAD, "Qs")
    for i in range(39):
        _pile_turn(m)
    _discard_drawn(m)
    for i in range(39):
        _pile_turn(m)
        assert m.phase == "draw"
