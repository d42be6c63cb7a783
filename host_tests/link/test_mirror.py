"""A link match's second board plays the mirror of the first's match: the
same deals, each board's own player its seat 0 (engine/match.py mirror)."""
import random

import engine
from engine.deal import secret_from_int
from engine.record import record_text, replay
from engine.rules import Rules


def _pair_play(rules, k):
    sec = secret_from_int(k)
    a = engine.Match(rules, 0, secret=sec)
    b = engine.Match(rules, 0, secret=sec, mirror=True)
    rnd = random.Random(k)
    while a.winner is None:
        if a.to_move is None:
            assert a.next_hand() is None and b.next_hand() is None
        assert b.to_move == 1 - a.to_move
        assert sorted(a.view(0).hand) == sorted(b.view(1).hand)
        act = rnd.choice(a.legal())
        assert act in b.legal()
        assert a.act(act) is None and b.act(act) is None
    return a, b


def test_mirrored_match_is_the_same_game_seen_from_the_other_seat():
    for rules in (None, Rules().copy(first="alternate"), Rules().copy(first="loser")):
        for k in range(6):
            a, b = _pair_play(rules, k)
            assert b.winner == 1 - a.winner and a.scores == b.scores[::-1]
            assert [h.first for h in a.hands] == [1 - h.first for h in b.hands]


def test_mirror_is_saved_and_replays_from_the_record():
    a, b = _pair_play(None, 3)
    b2 = engine.loads(engine.dumps(b))
    assert b2.mirror and b2.scores == b.scores
    assert not engine.loads(engine.dumps(a)).mirror
    r = replay(record_text(b))
    assert r.mirror and r.scores == b.scores
    assert "mirror" not in record_text(a)
