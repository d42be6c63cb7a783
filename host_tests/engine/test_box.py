"""V6: the three-player box game, one test per sentence of its rule text."""
from engine import card_text, best_discard, dumps, loads
from engine.box import BoxMatch, BOX_RULES, box_record_text
from engine.box_read import box_replay
from engine.hand import HandResult, OVER


def _auto(bm, limit=100000):
    """Play on with a fixed policy (knock when possible, else best discard)."""
    k = 0
    while bm.phase != "match_over" and k < limit:
        if bm.phase == "hand_over":
            bm.next_hand()
            continue
        legal = bm.legal()
        knocks = [a for a in legal if a.startswith("knock:")]
        if knocks:
            a = knocks[0]
        elif bm.phase == "discard":
            h = bm.hand
            a = "discard:" + card_text(best_discard(h.cards_of(h.turn), h.taken if h.taken < 52 else None)[1])
        else:
            a = legal[k % len(legal)]
        assert bm.act(a) is None
        k += 1
    return bm


def _end_hand(bm, box_wins, points=10):
    """Finish the current hand with a chosen winner (rotation tests)."""
    winner = 1 if box_wins else 0
    res = HandResult("knock", winner, winner, points, None)
    bm.hand.phase = OVER
    bm.hand.result = res
    bm._score(res)


def test_v6_roles_drawn_highest_card_box_middle_captain():
    for seed in range(20):
        bm = BoxMatch(seed=seed)
        drawn = bm.draws[-1]
        ranks = [c % 13 for c in drawn]
        box, cap, sit = bm.roles
        assert ranks[box] > ranks[cap] > ranks[sit]
        assert sorted(bm.roles) == [0, 1, 2]


def test_v6_roles_redrawn_on_a_tie():
    tied = [s for s in range(300) if len(BoxMatch(seed=s).draws) > 1]
    assert tied, "some seed must draw a tie first"
    bm = BoxMatch(seed=tied[0])
    first = [c % 13 for c in bm.draws[0]]
    assert len(set(first)) < 3
    assert len(set([c % 13 for c in bm.draws[-1]])) == 3


def test_v6_box_plays_alone_against_the_captain_who_acts_first_with_the_offer():
    bm = BoxMatch(seed=4)
    box, cap, sit = bm.roles
    assert bm.to_move == cap and bm.phase == "first_upcard"   # V1 applies
    assert bm.legal() == ["draw_upcard", "pass"]
    assert bm.seat_of(sit) is None and bm.seat_of(cap) == 0 and bm.seat_of(box) == 1
    assert len(bm.hand.cards_of(0)) == 10 and len(bm.hand.cards_of(1)) == 10


def test_v6_sitter_advises_captain_decides():
    bm = BoxMatch(seed=4)
    box, cap, sit = bm.roles
    assert bm.advise(box, "pass") == "only the sitter gives advice"
    assert bm.advise(sit, "pass") is None and bm.advice == (sit, "pass")
    assert bm.act("draw_upcard") is None    # the captain may ignore it
    assert bm.advice is None
    v = bm.view(sit)
    assert v.hand == bm.hand.cards_of(0)   # the sitter sees the captain's cards


def test_v6_box_wins_stays_and_the_other_two_swap():
    bm = BoxMatch(seed=5)
    box, cap, sit = bm.roles
    _end_hand(bm, box_wins=True)
    bm.next_hand()
    assert bm.roles == (box, sit, cap)


def test_v6_box_loses_sits_out_captain_into_box_sitter_captain():
    bm = BoxMatch(seed=5)
    box, cap, sit = bm.roles
    _end_hand(bm, box_wins=False)
    bm.next_hand()
    assert bm.roles == (cap, sit, box)


def test_v6_after_a_drawn_hand_nobody_moves():
    bm = BoxMatch(seed=5)
    roles = bm.roles
    bm.hand.phase = OVER
    res = HandResult("draw", None, None, 0, None, "stock")
    bm.hand.result = res
    bm._score(res)
    bm.next_hand()
    assert bm.roles == roles


def test_v6_undercut_bonus_is_10_gin_25_and_v3_two_card_stop():
    assert BOX_RULES.undercut_bonus == 10 and BOX_RULES.gin_bonus == 25
    assert BOX_RULES.upcard_offer and BOX_RULES.stop_at == 2


def test_v6_sitter_never_scores():
    bm = _auto(BoxMatch(seed=6))
    for res, roles in bm.results:
        if res.winner is not None:
            scorer = roles[1] if res.winner == 0 else roles[0]
            assert scorer != roles[2]
    assert sum(bm.scores) == sum([r.points for r, _ in bm.results])


def test_v6_first_to_100_wins():
    bm = _auto(BoxMatch(seed=7))
    assert bm.phase == "match_over"
    assert bm.scores[bm.winner] >= 100
    assert sorted(bm.scores)[1] < 100


def test_v6_record_replays_and_save_restores():
    bm = _auto(BoxMatch(seed=8), 300)
    text = box_record_text(bm)
    assert box_record_text(box_replay(text)) == text
    r = loads(dumps(bm))
    assert r.scores == bm.scores and r.roles == bm.roles
    assert box_record_text(r) == text


def test_v6_record_carries_the_version_and_a_newer_one_is_said():
    from engine.record_grammar import NewerRecord
    from engine.version import VERSION
    from scenario import raises

    bm = _auto(BoxMatch(seed=8), 300)
    text = box_record_text(bm)
    lines = text.split("\n")
    assert lines[0] == "gin-rummy box record 3" and lines[1] == "version " + VERSION
    # the forms before still replay
    assert box_record_text(box_replay(box_record_text(bm, form=2)), form=2) == \
        box_record_text(bm, form=2)
    assert box_replay(box_record_text(bm, v1=True)).scores == bm.scores
    lines[1] = "version 9.0.0"
    assert "newer" in raises(NewerRecord, box_replay, "\n".join(lines))
    lines[1] = "version " + VERSION
    lines[0] = "gin-rummy box record 6"
    assert "newer" in raises(NewerRecord, box_replay, "\n".join(lines))
    # format 4 is of chained commitments: a match dealt by deal numbers is not one
    # (its match line there, as format 4 has it)
    from engine.deal import match_commitment
    from engine.sha256 import hex_text

    lines[0] = "gin-rummy box record 4"
    assert "'match C'" in raises(ValueError, box_replay, "\n".join(lines))
    c0 = match_commitment(lines[0], bm.rules.text(), bm.seed)
    lines.insert(4, "match " + hex_text(c0))
    assert "committed" in raises(ValueError, box_replay, "\n".join(lines))


def test_v6_committed_deals_record_save_and_replay():
    from engine.deal import chained_commitment, chained_nonce, hand_keys, match_commitment
    from engine.sha256 import hex_text
    from scenario import raises

    secret = bytes(range(16))
    bm = BoxMatch(seed=8, secret=secret, ai_seed=77)
    assert bm.committed and bm.hand.deal is None
    # the chain starts from the box record's own header
    c0 = match_commitment("gin-rummy box record 4", bm.rules.text(), 8)
    assert bm.chain_start() == c0
    seed = hand_keys(secret, 1)[0]
    nonce = chained_nonce(c0, seed)
    c1 = hex_text(chained_commitment(c0, 1, seed, nonce))
    assert bm.hand.commit == c1[:10]
    assert "not over" in raises(ValueError, bm.proof, 0)
    r = loads(dumps(bm))
    assert r.committed and r.ai_seed == 77 and r.hand.commit == bm.hand.commit
    bm = _auto(bm)
    assert bm.winner is not None
    text = box_record_text(bm)
    assert "hand 1 commit %s seed %s nonce %s box" % (c1, hex_text(seed), hex_text(nonce)) in text
    assert text.split("\n")[4] == "match " + hex_text(c0)
    assert hex_text(secret) not in text
    again = box_replay(text)
    assert again.scores == bm.scores and box_record_text(again) == text
    # a changed nonce is refused
    bad = text.replace(hex_text(nonce), "0" * 32)
    assert "does not replay" in raises(ValueError, box_replay, bad)
    # a hand in play: its commitment only, left out of the replay
    m2 = BoxMatch(seed=8, secret=secret)
    n = 0
    while m2.to_move is not None and n < 400:
        m2.act(m2.legal()[0] if "draw_stock" not in m2.legal() else "draw_stock")
        n += 1
    m2.next_hand()
    m2.act(m2.legal()[0])
    t2 = box_record_text(m2)
    s2, n2 = hand_keys(secret, 2)
    assert "hand 2 commit %s box" % hex_text(m2.chain_head()) in t2 and hex_text(s2) not in t2
    r2 = box_replay(t2)
    assert r2.unrevealed == 2 and len(r2.results) == 1
