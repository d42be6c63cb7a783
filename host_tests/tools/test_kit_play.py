"""tools/kit/play.py: play_out plays a match to its end, deals each next
hand (and says so), tries a list of actions in turn, stops where `stop` says, and names a
refused action."""

import pytest

import engine
from engine.ai import Player
from tools.kit.play import play_out, players_choose


def test_a_match_is_played_to_its_end_with_each_action_seen():
    m = engine.Match(engine.CARDEMS.copy(target=60), 5)
    seen = []
    assert play_out(m, players_choose((Player("easy", 1), Player("easy", 2))),
                    lambda m, seat: seen.append(seat)) is True
    assert m.phase == "match_over" and m.winner is not None
    assert len(m.hands) > 1
    assert len(seen) == sum(len(h.log) for h in m.hands)


def test_dealt_is_told_of_every_next_hand():
    m = engine.Match(engine.CARDEMS.copy(target=60), 5)
    hands = []
    play_out(m, players_choose((Player("easy", 1), Player("easy", 2))),
             dealt=lambda m: hands.append((len(m.hands), m.phase)))
    assert [n for n, _ in hands] == list(range(2, len(m.hands) + 1))
    assert all(ph != "hand_over" for _, ph in hands)


def test_the_first_accepted_action_of_a_list_is_played():
    def choose(m, seat):
        v = m.view(seat)
        if m.phase != "discard":
            return ["draw_upcard", "draw_stock"] if m.phase == "draw" else ["pass"]
        t = engine.card_text(engine.best_discard(v.hand, v.taken)[1])
        return ["knock:" + t, "discard:" + t]

    m = engine.Match(None, 3)
    assert play_out(m, choose)
    assert m.phase == "match_over"


def test_stop_leaves_the_match_where_it_stands():
    m = engine.Match(None, 3)
    ps = (Player("easy", 1), Player("easy", 2))
    assert play_out(m, players_choose(ps), stop=lambda m: len(m.hands) >= 2) is False
    assert len(m.hands) == 2 and m.phase != "match_over"


def test_a_refused_action_names_the_seat_and_the_reason():
    m = engine.Match(None, 3)
    with pytest.raises(RuntimeError, match=r"seat \d, hand 1: 'knock:2c' refused"):
        play_out(m, lambda m, seat: "knock:2c")


def test_a_match_that_does_not_end_is_stopped_by_the_limit():
    m = engine.Match(None, 3)

    def stalls(m, seat):   # draws, then throws back what it drew: no knock
        v = m.view(seat)
        if m.phase != "discard":
            return "draw_stock" if m.phase == "draw" else "pass"
        return "discard:" + engine.card_text(v.hand[-1])

    with pytest.raises(RuntimeError, match="did not end after 50 actions"):
        play_out(m, stalls, limit=50)
