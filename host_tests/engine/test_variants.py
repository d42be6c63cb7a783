"""V1-V5: the other seeds' rules as options (Cardems stays the default)."""
from engine import (CARDEMS, CLASSIC, OKLAHOMA, BONUS, PRESETS, preset, Rules,
                    Match, card_text)
from engine.hand import HandResult
from scenario import match_with, play, raises, snapshot

KNOCKY = "As 2s 3s 7h 7d 7c 9s Ts Js 3d"      # three melds, 3d dead: 3
LOOSE = "2h 4h 6h 8h Th Qh 2c 4c 6c 8c"
SEAT1_DEAD = "2d 4d 6d 8d Td Qd Kc Jc 9c 7c"
OFFER = CARDEMS.copy(name="custom", upcard_offer=True)


def test_presets_are_the_documented_combinations():
    assert [r.name for r in PRESETS] == ["cardems", "classic", "oklahoma", "bonus"]
    assert CLASSIC.upcard_offer and CLASSIC.stop_at == 2 and not CLASSIC.oklahoma
    assert OKLAHOMA.upcard_offer and OKLAHOMA.oklahoma and OKLAHOMA.stop_at == 2
    assert BONUS.upcard_offer and BONUS.match_bonus and BONUS.stop_at == 0
    assert preset("classic") == CLASSIC
    assert "cardems" in raises(ValueError, preset, "nope")
    for r in PRESETS:
        assert Rules.from_text(r.text()) == r


def test_a_rules_line_naming_a_preset_starts_from_its_fields():
    assert Rules.from_text("classic") == CLASSIC
    assert Rules.from_text("oklahoma") == OKLAHOMA
    r = Rules.from_text("classic stop_at=0")
    assert r.upcard_offer and r.stop_at == 0 and r.name == "classic"
    assert Rules.from_text("custom") == CARDEMS.copy(name="custom")


def test_v1_first_turn_is_an_offer_take_or_pass():
    m = match_with(KNOCKY, LOOSE, "Kd", rules=OFFER)
    assert m.phase == "first_upcard" and m.to_move == 0
    assert m.legal() == ["draw_upcard", "pass"]
    before = snapshot(m)
    assert "take or pass" in m.act("draw_stock")
    assert snapshot(m) == before


def test_v1_taking_the_upcard_then_r4_applies_and_play_passes_normally():
    m = match_with(KNOCKY, LOOSE, "Kd", rules=OFFER)
    play(m, "draw_upcard")
    assert "R4" in m.act("discard:Kd")
    play(m, "discard:3d")
    assert m.to_move == 1 and m.phase == "draw"


def test_v1_second_player_may_take_after_the_first_passes():
    m = match_with(KNOCKY, LOOSE, "Kd", rules=OFFER)
    play(m, "pass")
    assert m.to_move == 1 and m.phase == "first_upcard"
    play(m, "draw_upcard")
    assert m.phase == "discard" and m.to_move == 1
    assert "R4" in m.act("discard:Kd")
    play(m, "discard:Qh")
    assert m.to_move == 0 and m.legal() == ["draw_stock", "draw_upcard"]


def test_v1_both_pass_then_the_first_player_draws_from_the_stock():
    m = match_with(KNOCKY, LOOSE, "Kd", "5c", rules=OFFER)
    play(m, "pass", "pass")
    assert m.to_move == 0 and m.phase == "draw"
    assert m.legal() == ["draw_stock"]
    assert "draw from the stock" in m.act("draw_upcard")
    play(m, "draw_stock", "discard:5c")
    assert m.to_move == 1 and m.legal() == ["draw_stock", "draw_upcard"]


def test_v2_oklahoma_knock_limit_is_the_first_upcards_value():
    assert match_with(KNOCKY, LOOSE, "5d", rules=OKLAHOMA).hand.knock_limit == 5
    assert match_with(KNOCKY, LOOSE, "Kd", rules=OKLAHOMA).hand.knock_limit == 10
    assert match_with(KNOCKY, LOOSE, "Kd", rules=CARDEMS).hand.knock_limit == 10


def test_v2_ace_upcard_means_only_gin_may_knock():
    m = match_with(KNOCKY, LOOSE, "Ad", "Qc", rules=OKLAHOMA)
    assert m.hand.knock_limit == 0
    play(m, "pass", "pass", "draw_stock")
    # deadwood 3 (3d) after discarding Qc: fine under Cardems, not here
    why = m.act("knock:Qc")
    assert "only gin" in why
    assert not [a for a in m.legal() if a.startswith("knock:")]


def test_v2_gin_still_knocks_after_an_ace_upcard():
    m = match_with("As 2s 3s 7h 7d 7c 9s Ts Js 5d", LOOSE, "Ad", "Qs", rules=OKLAHOMA)
    play(m, "pass", "pass", "draw_stock", "knock:5d")
    assert m.results[-1].kind == "gin"


def test_v2_overrides_the_configured_knock_limit():
    r = OKLAHOMA.copy(name="custom", knock_limit=3)
    assert match_with(KNOCKY, LOOSE, "9d", rules=r).hand.knock_limit == 9


def _discard_drawn(m):
    play(m, "draw_stock")
    h = m.hand
    play(m, "discard:" + card_text(h.stock[h.stock_n]))


def test_v3_hand_ends_when_two_stock_cards_remain_after_a_discard():
    r = CARDEMS.copy(name="custom", stop_at=2)
    m = match_with(LOOSE, SEAT1_DEAD, "Qs", rules=r)
    for i in range(28):
        _discard_drawn(m)
        assert m.phase == "draw"
    _discard_drawn(m)
    assert m.hand.stock_n == 2 and m.phase == "hand_over"
    assert (m.results[-1].kind, m.results[-1].why) == ("draw", "stock")


def _bonus_match():
    return Match(BONUS, 1)


def test_v4_winner_gets_100_plus_25_per_hand_won():
    m = _bonus_match()
    # 4 of 6 hands won by seat 0, one lost, one drawn: 100 + 100 in bonuses
    for w, pts in ((0, 20), (1, 10), (0, 20), (None, 0), (0, 20), (0, 45)):
        m._score(HandResult("knock" if w is not None else "draw", w, w, pts, None))
    e = m.end
    assert m.winner == 0 and e.hands_won == [4, 1]
    assert (e.game_bonus, e.hand_bonus, e.shutout_bonus) == (100, 100, 0)
    assert e.total == 105 + 200


def test_v4_shutout_doubles_the_winners_hand_points():
    m = _bonus_match()
    # RULES.md V4: 126 hand points (gin and undercut bonuses included) in a
    # shutout earn another 126.
    for pts in (38, 31, 57):
        m._score(HandResult("gin", 0, 0, pts, None))
    e = m.end
    assert e.hand_points[0] == 126 and e.shutout_bonus == 126
    assert e.total == 126 + 100 + 75 + 126


def test_v4_a_drawn_hand_breaks_the_shutout():
    m = _bonus_match()
    m._score(HandResult("draw", None, None, 0, None, "stock"))
    for pts in (38, 31, 57):
        m._score(HandResult("gin", 0, 0, pts, None))
    assert m.end.shutout_bonus == 0


def test_v4_is_off_in_cardems():
    m = Match(CARDEMS, 1)
    m._score(HandResult("gin", 0, 0, 120, None))
    assert m.end.total == 120 and m.end.game_bonus == 0


def test_v5_match_target_is_configurable():
    r = CARDEMS.copy(name="custom", target=30)
    m = match_with(KNOCKY, LOOSE, "Kd", "Qc", rules=r, scores=[25, 0])
    play(m, "draw_stock", "knock:Qc")
    assert m.phase == "match_over" and m.winner == 0


def test_v5_knock_limit_is_configurable():
    r = CARDEMS.copy(name="custom", knock_limit=2)
    m = match_with(KNOCKY, LOOSE, "Kd", "Qc", rules=r)
    play(m, "draw_stock")
    assert "needs 2 or less" in m.act("knock:Qc")


def _finish_hand_as_draw(m):
    while m.phase not in ("hand_over", "match_over"):
        _discard_drawn(m)


def _finish_hand_by_knock(m, winner):
    m.results.append(HandResult("knock", winner, winner, 5, None))
    m.scores[winner] += 5
    m.hand.phase = 3   # OVER: the hand's play is not what this test is about


def test_v5_alternate_first_player():
    m = Match(CARDEMS.copy(name="custom", first="alternate"), 3)
    firsts = []
    for _ in range(4):
        firsts.append(m.to_move)
        _finish_hand_as_draw(m)
        m.next_hand()
    assert firsts == [0, 1, 0, 1]


def test_v5_loser_of_the_previous_hand_plays_first_same_after_a_draw():
    m = Match(CARDEMS.copy(name="custom", first="loser"), 3)
    assert m.to_move == 0
    _finish_hand_by_knock(m, 0)
    m.next_hand()
    assert m.to_move == 1           # seat 1 lost
    _finish_hand_as_draw(m)
    m.next_hand()
    assert m.to_move == 1           # a draw: the same player as before
    _finish_hand_by_knock(m, 1)
    m.next_hand()
    assert m.to_move == 0


def test_v5_bad_options_are_refused():
    raises(ValueError, Rules.from_text, "custom first=dealer")
    raises(ValueError, Rules.from_text, "custom target=0")
    raises(ValueError, Rules.from_text, "custom colour=red")
