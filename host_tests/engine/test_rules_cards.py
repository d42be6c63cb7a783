"""R1 (deck and values), R2 (deal), R5 (melds): scenario tests in card notation."""
from engine import (card, card_text, cards, value, best_melds, best_discard,
                    deck_for, Match, CARDEMS)
from scenario import raises, melds_text


def test_r1_notation_round_trips_all_52_cards():
    seen = []
    for c in range(52):
        t = card_text(c)
        assert card(t) == c
        seen.append(t)
    assert len(set(seen)) == 52
    assert card("As") == 0 and card("Kc") == 51 and card("Td") == 35


def test_r1_bad_card_text_names_the_text():
    msg = raises(ValueError, card, "1x")
    assert "1x" in msg
    assert "Zs" in raises(ValueError, card, "Zs")
    raises(ValueError, card, "10s")
    raises(ValueError, card_text, 52)


def test_r1_deadwood_values_ace_low_faces_ten():
    assert value(card("As")) == 1
    assert value(card("7h")) == 7
    assert value(card("Td")) == 10
    assert [value(card(r + "c")) for r in "JQK"] == [10, 10, 10]
    assert sum([value(c) for c in range(52)]) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 40)


def test_r2_deal_gives_ten_each_one_upcard_and_31_stock():
    m = Match(CARDEMS, 42)
    h = m.hand
    assert len(h.cards_of(0)) == 10 and len(h.cards_of(1)) == 10
    assert len(h.discard_cards()) == 1
    assert len(h.stock_cards()) == 31
    every = h.cards_of(0) + h.cards_of(1) + h.discard_cards() + h.stock_cards()
    assert sorted(every) == list(range(52))


def test_r2_human_plays_first_in_every_hand():
    m = Match(CARDEMS, 3)
    for _ in range(3):
        assert m.to_move == 0 and m.phase == "draw"
        # end the hand quickly: both keep discarding what they draw
        while m.phase not in ("hand_over", "match_over"):
            m.act("draw_stock")
            drawn = m.hand.stock[m.hand.stock_n]
            m.act("discard:" + card_text(drawn))
        m.next_hand()


def test_r2_same_seed_same_deal():
    assert deck_for(123) == deck_for(123)
    assert deck_for(123) != deck_for(124)
    a = Match(CARDEMS, 99)
    b = Match(CARDEMS, 99)
    assert a.hand.deal == b.hand.deal
    assert a.hand.cards_of(0) == b.hand.cards_of(0)


def test_r5_set_and_run_are_melds():
    dw, melds = best_melds(cards("7s 7h 7d 4c 5c 6c 7c Kd"))
    # 7c can join the set or the run: either way only Kd is dead
    assert dw == 10


def test_r5_a23_is_a_run():
    assert best_melds(cards("As 2s 3s"))[0] == 0


def test_r5_qka_is_not_a_run():
    dw, melds = best_melds(cards("Qs Ks As"))
    assert dw == 21 and melds == []


def test_r5_no_wrap_around_king_ace_two():
    assert best_melds(cards("Kh Ah 2h"))[0] == 13


def test_r5_two_cards_of_a_rank_are_no_set():
    assert best_melds(cards("9s 9h"))[0] == 18


def test_r5_four_set_overlapping_a_run():
    # 7h belongs in the run 6h 7h 8h; the other three 7s still make a set.
    dw, melds = best_melds(cards("7s 7h 7d 7c 6h 8h"))
    assert dw == 0
    assert melds_text(melds) == ["6h 7h 8h", "7s 7d 7c"]


def test_r5_greedy_choice_is_wrong():
    # Greedy takes the long run 5h-9h, leaving 9s 9d dead (18). The best
    # arrangement is 5h 6h 7h 8h + 9s 9h 9d: deadwood 2.
    dw, melds = best_melds(cards("5h 6h 7h 8h 9h 9s 9d 2c"))
    assert dw == 2
    assert melds_text(melds) == ["5h 6h 7h 8h", "9s 9h 9d"]


def test_r5_a_card_is_in_at_most_one_meld():
    dw, melds = best_melds(cards("4s 4h 4d 5s 6s"))
    used = []
    for ml in melds:
        used.extend(ml)
    assert len(used) == len(set(used))
    assert len(melds) == 1  # 4s can't serve both the set and the run


def test_r5_lowest_deadwood_between_set_and_run():
    # run 4s 5s 6s leaves 4h 4d (8); set 4s 4h 4d leaves 5s 6s (11): run wins
    dw, melds = best_melds(cards("4s 4h 4d 5s 6s"))
    assert dw == 8
    assert melds_text(melds) == ["4s 5s 6s"]


def test_r5_empty_and_full_hands():
    assert best_melds([]) == (0, [])
    dw, melds = best_melds(cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js"))
    assert dw == 0 and len(melds) == 1
    raises(ValueError, best_melds, cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs"))
    raises(ValueError, best_melds, [0, 0])


def test_r5_best_discard_finds_the_lowest_deadwood():
    # three melds; of the dead Kd and 9h, dropping Kd leaves 9
    dw, c = best_discard(cards("7s 7h 7d 4c 5c 6c As 2s 3s Kd 9h"))
    assert (dw, card_text(c)) == (9, "Kd")


def test_r5_best_discard_tie_prefers_higher_value_then_lower_card():
    # Qd and Kd both leave deadwood 10; equal value 10, so the lower card Qd.
    dw, c = best_discard(cards("7s 7h 7d 7c 6h 8h 2c 3c 4c Kd Qd"))
    assert (dw, card_text(c)) == (10, "Qd")
    # dropping 9h leaves 2c (2); dropping 2c leaves 9h (9): 9h goes
    dw, c = best_discard(cards("As 2s 3s 4h 5h 6h 7d 8d 9d 9h 2c"))
    assert (dw, card_text(c)) == (2, "9h")


def test_r4_best_discard_never_picks_the_forbidden_card():
    hand = cards("7s 7h 7d 7c 6h 8h 2c 3c 4c Kd Qd")
    dw, c = best_discard(hand, forbidden=card("Qd"))
    assert (dw, card_text(c)) == (10, "Kd")
