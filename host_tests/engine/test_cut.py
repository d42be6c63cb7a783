"""A deal the device cannot choose, and records that bind the play
(engine/deal.py, record format 5): the match commitment shown before the
player's cut, every seed from the secret, the cut and the hand's number,
each hand's commitment taking in the hand before it whole, the header's
commitment over the version, rules, seats and AI level, and the seal at
the match's end. Plain functions: they run on CPython and both
MicroPython ports, and must give the same answers on all three."""
from engine import Match, dumps, loads, record_text, replay
from engine.box import BoxMatch, box_record_text
from engine.box_read import box_replay
from engine.cut import (MATCH_HEX, check_cut, cut_seed, header_lines, revealed, seal,
                        secret_commitment)
from engine.deal import COMMIT_HEX, deck_from_seed, hand_keys, secret_from_int
from engine.save import header_size
from engine.sha256 import hex_text, sha256
from scenario import raises

SECRET = bytes(range(16))


def _play_hand(m, pick=0):
    """Play the current hand to its end: the first knock there is, else a
    stock draw, else the `pick`-th legal move (another `pick`, other legal
    play)."""
    n = 0
    while m.to_move is not None and n < 400:
        assert m.act(_pick(m.legal(), pick)) is None
        n += 1
    assert m.to_move is None


def _pick(legal, pick=0):
    knocks = [a for a in legal if a.startswith("knock:")]
    if knocks:
        return knocks[0]
    return "draw_stock" if "draw_stock" in legal else legal[min(pick, len(legal) - 1)]


def _play_match(m, pick=0, limit=300):
    while m.winner is None and limit:
        if m.to_move is None:
            assert m.next_hand() is None
        _play_hand(m, pick)
        limit -= 1
    return m


def _cut_match(cut="HELLO", secret=SECRET, **kw):
    return Match(None, 7, secret=secret, ai_seed=3, cut=cut, level="hard", **kw)


def test_a_deal_with_a_cut_is_the_same_on_every_runtime():
    # fixed vectors: any runtime that deals or chains otherwise fails here
    c = secret_commitment(SECRET)
    assert c == sha256(b"gin-rummy match secret" + SECRET)
    assert hex_text(c) == "16FF9C6649757DB709C49BDC65DFE3C6E49EA3B408E3278ED67B46A2BC92F5EC"
    seed = cut_seed(SECRET, "HELLO", 1)
    assert seed == sha256(b"gin-rummy hand 5" + SECRET + b"\x05HELLO\x00\x01")[:16]
    assert hex_text(seed) == "56FD8DF4EF29DA6C80161A80068EA190"
    # (the header holds the version: a fixed one, so that raising VERSION
    # leaves the vectors as they are)
    m = _cut_match(version="1.2.0-dev")
    head = "\n".join(header_lines(m))
    assert m.chain_start() == sha256(head.encode())
    assert head.split("\n")[4:] == ["seats you cpu", "level hard", "match " + hex_text(c),
                                    "cut HELLO"]
    assert hex_text(m.chain_start()) == (
        "C3A0701A1FF2923EF299734D1066E5ECA0557483FF1327B9E8F1E7DF994F41E1")
    assert m.hand.commit == "72FBA353AD"
    assert list(m.hand.cards_of(0)) == sorted(deck_from_seed(seed)[:10])


def test_the_match_commitment_comes_before_the_cut_and_binds_the_secret():
    """The App shows secret_commitment(secret) (MATCH #) before the player
    gives the cut: it is a function of the secret alone, and the match made
    with any cut has that commitment."""
    c = secret_commitment(SECRET)
    assert len(c) == 32 and len(hex_text(c)[:MATCH_HEX]) == 16
    for cut in ("HELLO", "7", "ZZZZ"):
        m = _cut_match(cut)
        assert m.match_commit == c
        assert "match " + hex_text(c) in record_text(m).split("\n")
    assert secret_commitment(secret_from_int(1)) != c


def test_every_seed_follows_from_the_secret_the_cut_and_the_hand_number():
    m = _play_match(_cut_match())
    for i in range(len(m.results)):
        assert m.proof(i)[0] == cut_seed(SECRET, "HELLO", i + 1)
    # the player's cut enters every deal: another cut, other cards
    a, b = _cut_match("HELLO"), _cut_match("HELLP")
    assert list(a.hand.cards_of(0)) != list(b.hand.cards_of(0))
    # and a match without a cut (format 4) deals as version 1.1 did
    old = Match(None, 7, secret=SECRET)
    assert old.cut is None and old.proof is not None
    assert list(old.hand.cards_of(0)) != list(a.hand.cards_of(0))
    assert hand_keys(SECRET, 1)[0] != cut_seed(SECRET, "HELLO", 1)


def test_the_secret_is_revealed_only_once_the_match_is_over():
    m = _cut_match()
    _play_hand(m)
    text = record_text(m)
    assert revealed(m) is None and hex_text(SECRET) not in text
    assert "\nsecret " not in text and "\nseal " not in text and seal(m) is None
    _play_match(m)
    text = record_text(m)
    assert revealed(m) == SECRET
    lines = text.split("\n")
    assert lines[-3] == "secret " + hex_text(SECRET)
    assert lines[-2] == "seal " + hex_text(seal(m)) and lines[-4].startswith("winner ")


def test_a_hand_commitment_holds_every_move_and_result_before_it():
    """Two matches of the same secret and cut, hand 1 played otherwise:
    hand 2 has the same deal but another commitment (DEAL #)."""
    a, b = _cut_match(), _cut_match()
    _play_hand(a, 0)
    _play_hand(b, 1)
    assert [x for x in a.hands[0].log] != [x for x in b.hands[0].log]
    assert a.next_hand() is None and b.next_hand() is None
    assert list(a.hand.cards_of(0)) == list(b.hand.cards_of(0))
    assert a.hand.commit != b.hand.commit
    # and without a cut (format 4) the moves are in no commitment
    c, d = Match(None, 7, secret=SECRET), Match(None, 7, secret=SECRET)
    _play_hand(c, 0)
    _play_hand(d, 1)
    c.next_hand()
    d.next_hand()
    assert c.hand.commit == d.hand.commit


def test_the_header_commitment_covers_version_rules_seats_level_and_cut():
    base = _cut_match().chain_start()
    from engine.rules import CARDEMS
    others = (Match(None, 7, secret=SECRET, cut="HELLO", level="easy"),
              Match(None, 7, secret=SECRET, cut="HELLO", level="hard", seats="cpu cpu"),
              Match(None, 7, secret=SECRET, cut="HELLO", level="hard", version="1.2.1"),
              Match(CARDEMS.copy(knock_limit=9), 7, secret=SECRET, cut="HELLO", level="hard"),
              Match(None, 8, secret=SECRET, cut="HELLO", level="hard"),
              Match(None, 7, secret=SECRET, cut="HELLP", level="hard"))
    for m in others:
        assert m.chain_start() != base, header_lines(m)
        assert m.hand.commit != _cut_match().hand.commit


def test_the_seal_holds_the_last_hand_the_scores_the_winner_and_whose_record():
    m = _play_match(_cut_match())
    assert len(seal(m)) == 32 and len(hex_text(seal(m))[:COMMIT_HEX]) == 10
    # the same match with its last hand played otherwise: another seal
    n = _cut_match()
    while len(n.results) < len(m.results) - 1:
        if n.to_move is None:
            n.next_hand()
        _play_hand(n)
    n.next_hand()
    other = 0
    for pick in (1, 2, 3, 4, 5):
        x = loads(dumps(n))
        _play_match(x, pick)
        if x.winner is not None and bytes(x.hands[-1].log) != bytes(m.hands[-1].log):
            assert seal(x) != seal(m)
            other += 1
    assert other
    # a link match's two boards: the same chain, each its own seal
    s1 = hex_text(secret_from_int(2))
    a = Match(None, 0, secret=SECRET, cut=s1, seats="link link")
    b = Match(None, 0, secret=SECRET, cut=s1, seats="link link", mirror=True)
    acts = 0
    while a.winner is None and acts < 5000:
        if a.to_move is None:
            a.next_hand()
            b.next_hand()
        act = _pick(a.legal())
        assert a.act(act) is None and b.act(act) is None
        acts += 1
    assert a.winner is not None and b.winner == 1 - a.winner
    assert [h.commit for h in a.hands] == [h.commit for h in b.hands]
    assert seal(a) != seal(b)
    for m2 in (a, b):
        again = replay(record_text(m2))
        assert record_text(again) == record_text(m2)


def test_a_bad_cut_level_or_seats_is_refused():
    for bad in ("", "hello", "HELLO WORLD", "A" * 33, "Ä", None, 5):
        raises(ValueError, check_cut, bad)
    assert check_cut("7") == "7" and check_cut("Z" * 32) == "Z" * 32
    raises(ValueError, lambda: Match(None, 7, secret=SECRET, cut="bad cut"))
    raises(ValueError, lambda: Match(None, 7, secret=SECRET, level="hard"))      # no cut
    raises(ValueError, lambda: _cut_match(seats="you link"))
    raises(ValueError, lambda: Match(None, 7, secret=SECRET, cut="X", level="Hard"))
    raises(ValueError, lambda: Match(None, 7, secret=SECRET, cut="X", version="1.2 beta"))
    # a match against the CPU has no second board
    raises(ValueError, lambda: _cut_match(mirror=True))
    raises(ValueError, lambda: BoxMatch(None, 3, secret=SECRET, cut="X", seats="you cpu"))


def test_a_save_of_a_match_with_a_cut_resumes_on_the_same_chain():
    m = _cut_match()
    _play_hand(m)
    m.next_hand()
    m.act(m.legal()[0])
    data = dumps(m)
    assert data[4] == 5 and header_size(data) < len(data)
    r = loads(data)
    assert (r.cut, r.level, r.seats, r.version) == ("HELLO", "hard", "you cpu", m.version)
    assert record_text(r) == record_text(m) and r.hand.commit == m.hand.commit
    # the version that dealt it is kept: a newer firmware resumes the same chain
    v = _cut_match(version="1.2.0")
    assert loads(dumps(v)).chain_start() == v.chain_start()
    # a save of version 1.1 (a match without a cut) loads and plays on as it was
    old = Match(None, 7, secret=SECRET, ai_seed=3)
    _play_hand(old)
    ob = dumps(old)
    assert ob[4] == 4
    o = loads(ob)
    assert o.cut is None and o.chained and record_text(o) == record_text(old)
    assert record_text(o).startswith("gin-rummy record 4\n")
    # damage is refused
    for cut in (b"\x00", b"\xff\xfe"):
        bad = bytearray(data)
        at = header_size(data) - 1 - len("HELLO")
        bad[at:at + 1 + len("HELLO")] = bytes((len(cut),)) + cut
        raises(ValueError, loads, bytes(bad))


def test_a_record_with_a_cut_replays_to_the_same_match():
    m = _play_match(_cut_match())
    text = record_text(m)
    assert text.startswith("gin-rummy record 5\nversion ")
    assert replay(text).scores == m.scores and record_text(replay(text)) == text
    # a secret that is not the committed one, or another cut: refused
    bad = text.replace("secret " + hex_text(SECRET), "secret " + hex_text(secret_from_int(9)))
    assert "match commitment" in raises(ValueError, replay, bad)
    raises(ValueError, replay, text.replace("\ncut HELLO\n", "\ncut HELLP\n"))
    # the box game's too
    bm = BoxMatch(None, 3, secret=SECRET, cut="BOX", level="easy")
    _play_match(bm)
    bt = box_record_text(bm)
    assert bt.startswith("gin-rummy box record 5\n") and "\nseats you cpu cpu\n" in bt
    assert box_record_text(box_replay(bt)) == bt
    assert seal(loads(dumps(bm))) == seal(bm)
