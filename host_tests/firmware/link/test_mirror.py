"""A link match's second board plays the mirror of the first's match: the
same deals, each board's own player its seat 0 (engine/match.py mirror)."""
import random

import engine
from engine.deal import secret_from_int
from engine.record import record_text, replay
from engine.rules import Rules
from engine.version import VERSION


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


def _verdict(text):
    from engine.verify import check

    return check(text)


def test_both_boards_show_and_record_the_same_chain_of_commitments():
    done = _pair_play(Rules().copy(first="alternate"), 4)
    sec = secret_from_int(9)      # and hand 1 in play: the same DEAL # shown on both
    fresh = engine.Match(None, 0, secret=sec), engine.Match(None, 0, secret=sec, mirror=True)
    for a, b in (done, fresh):
        assert a.chained and b.chained
        assert [h.commit for h in a.hands] == [h.commit for h in b.hands]
        ta, tb = record_text(a).split("\n"), record_text(b).split("\n")
        assert ta[4].startswith("match ") and ta[4] == tb[4] and tb[5] == "mirror"
        assert [ln.split()[3] for ln in ta if ln.startswith("hand ")] == \
            [ln.split()[3] for ln in tb if ln.startswith("hand ")]


def test_either_boards_record_verifies_and_the_mirror_line_is_not_free():
    for first in ("human", "alternate", "loser"):
        # random play: a short match keeps the record within what the verifier reads
        a, b = _pair_play(Rules().copy(first=first, target=25), 5)
        ta, tb = record_text(a), record_text(b)
        st, out = _verdict(ta)
        assert st == 0 and out[-1].startswith("verified: "), out[-3:]
        assert not any("mirror" in ln for ln in out)
        st, out = _verdict(tb)
        assert st == 0 and "verified: " in "".join(out), out[-3:]
        assert any(ln.startswith("note: the record of a link match's second board") for ln in out)
        # the line dropped from the second board's record, or added to the
        # first's: the seats no longer agree with the moves
        assert _verdict(tb.replace("\nmirror\n", "\n"))[0] == 1
        assert _verdict(ta.replace("\nhand 1 ", "\nmirror\nhand 1 ", 1))[0] == 1


def test_a_link_match_in_play_verifies_from_the_second_board():
    sec = secret_from_int(11)
    a = engine.Match(None, 0, secret=sec)
    b = engine.Match(None, 0, secret=sec, mirror=True)
    rnd = random.Random(11)
    while len(a.results) < 2 or a.to_move is None or len(a.hand.log) < 6:
        if a.winner is not None:
            break
        if a.to_move is None:
            a.next_hand()
            b.next_hand()
            continue
        act = rnd.choice(a.legal())
        a.act(act)
        b.act(act)
    st, out = _verdict(record_text(b))
    assert st == 0 and "unverified: in play" in out[-1], out[-2:]
    assert replay(record_text(b)).mirror


def test_version_1_0_0_wrote_no_mirror_line():
    a = engine.Match(None, 0, secret=secret_from_int(3), chained=False, mirror=True)
    rnd = random.Random(3)
    while not a.results:
        a.act(rnd.choice(a.legal()))
    text = record_text(a).replace("version " + VERSION, "version 1.0.0")
    st, out = _verdict(text)
    assert st == 1 and "version 1.0.0 wrote no mirror line" in "".join(out), out


def test_a_link_match_between_two_apps_carries_the_chain_and_both_records_verify():
    from link.test_link_match import _linked_pair, _run

    p, (a, b) = _linked_pair(7)
    ma, mb = a.match, b.match
    assert ma.chained and mb.chained and ma.mirror != mb.mirror
    assert ma.chain_start() == mb.chain_start() and ma.hand.commit == mb.hand.commit
    for _ in range(40):             # the scripted players on: a hand or more over
        _run(p, 2000, play=True)
        if len(a.match.results) >= 2 and len(b.match.results) >= 2:
            break
    ma, mb = a.match, b.match
    assert len(ma.results) >= 2, p.where()
    assert [h.commit for h in ma.hands] == [h.commit for h in mb.hands]
    for m in (ma, mb):
        st, out = _verdict(record_text(m))
        assert st == 0, out[-3:]
        assert m.mirror == any(ln.startswith("note: the record of a link match's second board")
                               for ln in out)
