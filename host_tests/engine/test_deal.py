"""Committed deals (engine/deal.py, engine/sha256.py): the commitment, the
reveal, saves and records that carry them, and views that hold none of it.
Plain functions: they run on CPython and both MicroPython ports, and must
give the same answers on all three."""
from engine import Match, CARDEMS, View, dumps, loads, replay, record_text
from engine.deal import (hand_keys, commitment, deck_from_seed, secret_from_int,
                         SECRET_LEN, COMMIT_HEX, match_commitment, chained_nonce,
                         chained_commitment)
from engine.record_grammar import NewerRecord
from engine.save import SaveError
from engine.sha256 import sha256, sha256_py, hex_text, from_hex, SOURCE
from scenario import raises

SECRET = bytes(range(16))


def _play_to_end_of_hand(m, limit=400):
    """Play the first legal move (stock draws, first discard) until the
    hand is over: enough for a deal that must be checked, not a game."""
    n = 0
    while m.to_move is not None and n < limit:
        legal = m.legal()
        pick = legal[0]
        for a in legal:
            if a == "draw_stock":
                pick = a
        assert m.act(pick) is None
        n += 1
    assert m.to_move is None


def test_sha256_known_answers_and_the_small_int_code_agree():
    # FIPS 180-2 appendix B, and the empty message
    assert hex_text(sha256_py(b"abc")) == (
        "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")
    assert hex_text(sha256_py(b"")) == (
        "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855")
    m = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    assert hex_text(sha256_py(m)) == (
        "248D6A61D20638B8E5C026930C3E6039A33CE45964FF2167F6ECEDD419DB06C1")
    # the runtime's hashlib (where there is one) and this code, byte for byte
    for n in list(range(0, 130)) + [200, 1000]:
        data = bytes([(i * 31 + n) & 255 for i in range(n)])
        assert sha256(data) == sha256_py(data), n
    assert SOURCE in ("hashlib", "engine.sha256")


class _Digest:
    def __init__(self, d):
        self.d = d

    def digest(self):
        return self.d


class _NewOnly:
    """A hashlib as CircuitPython's: new(name, data), no sha256."""

    @staticmethod
    def new(name, data):
        assert name == "sha256"
        return _Digest(sha256_py(data))


class _Wrong:
    @staticmethod
    def sha256(data):
        return _Digest(bytes(32))


def test_a_hashlib_with_new_only_is_used_and_a_wrong_one_is_not():
    from engine.sha256 import _hashlib_sha256

    f = _hashlib_sha256(_NewOnly)
    assert f is not None and f(b"abc").digest() == sha256_py(b"abc")
    assert _hashlib_sha256(_Wrong) is None


def test_hex_round_trips_and_refuses_what_is_not_hex():
    assert from_hex(hex_text(SECRET)) == SECRET
    assert from_hex("0a0B") == b"\x0a\x0b"
    for bad in ("0", "zz", "+1", " 1", None, "0g"):
        raises(ValueError, from_hex, bad)


def test_a_committed_deal_is_the_same_on_every_runtime():
    # fixed vectors: any runtime that deals otherwise fails here
    seed, nonce = hand_keys(SECRET, 1)
    assert hex_text(seed) == "9464F82219825C0B46CB40AA2B0EDCFA"
    assert hex_text(nonce) == "C3FAA17661D278704E1BF8DB59CDBEF7"
    assert list(deck_from_seed(seed))[:12] == [24, 15, 48, 41, 5, 11, 4, 2, 20, 42, 50, 10]
    # version 1.0.0's commitment (a match saved by it resumes with these)
    old = Match(CARDEMS, 7, secret=SECRET, chained=False)
    assert old.hand.commit == commitment(seed, nonce) == "31F588E53F"
    # the chain: C0 from the record's header, rules and seed lines, then
    # hand 1's nonce and commitment from C0 and its seed
    m = Match(CARDEMS, 7, secret=SECRET)
    c0 = match_commitment("gin-rummy record 4", CARDEMS.text(), 7)
    assert m.chain_start() == c0 and hex_text(c0) == (
        "7B409270A91E2F2D611F5D997FD26C6D1029B957CB9A299BDA218A37CD8E7507")
    n1 = chained_nonce(c0, seed)
    assert hex_text(n1) == "AAFD053BCACF7EA10B29F104F6CEE2BB"
    c1 = chained_commitment(c0, 1, seed, n1)
    assert m.chain_head() == c1 and hex_text(c1) == (
        "A9AB93851C0A4C5C2BAC9FE8DE5C33E81795F919EC01CC0CA9DC0B4C6DD9CDA5")
    assert m.hand.commit == hex_text(c1)[:COMMIT_HEX] == "A9AB93851C"
    assert list(m.hand.cards_of(0)) == list(old.hand.cards_of(0))     # the same deal
    assert list(m.hand.cards_of(0)) == sorted(deck_from_seed(seed)[:10])
    assert m.hand.deal is None and m.committed


def test_every_deal_is_a_permutation_and_hands_differ():
    seen = {}
    for n in range(1, 21):
        seed, nonce = hand_keys(SECRET, n)
        d = deck_from_seed(seed)
        assert sorted(d) == list(range(52))
        seen[bytes(d)] = n
        assert commitment(seed, nonce) != commitment(seed, bytes(16))
    assert len(seen) == 20


def test_bad_secrets_and_seeds_are_refused():
    raises(ValueError, Match, CARDEMS, 1, b"short")
    raises(ValueError, Match, CARDEMS, 1, "x" * SECRET_LEN)
    raises(ValueError, deck_from_seed, b"x")
    raises(ValueError, hand_keys, SECRET, 0)
    raises(ValueError, Match, CARDEMS, 1, SECRET, 1 << 30)


def test_the_seed_and_nonce_stay_secret_until_the_hand_is_over():
    m = Match(CARDEMS, 3, secret=SECRET, ai_seed=99)
    assert "not over" in raises(ValueError, m.proof, 0)
    assert "not over" in raises(ValueError, m.deck_of, 0)
    _play_to_end_of_hand(m)
    seed, nonce = m.proof(0)
    assert seed == hand_keys(SECRET, 1)[0] and nonce == chained_nonce(m.chain_start(), seed)
    c1 = chained_commitment(m.chain_start(), 1, seed, nonce)
    assert hex_text(c1)[:COMMIT_HEX] == m.hands[0].commit
    assert m.next_hand() is None
    assert "not over" in raises(ValueError, m.proof, 1)
    assert m.proof(0) == (seed, nonce)          # walked again from C0
    _play_to_end_of_hand(m)
    s2, n2 = m.proof(1)
    assert m.chain_head() == chained_commitment(c1, 2, s2, n2)
    assert [c for _, _, c in m.chain()] == [c1, m.chain_head()]
    # a match dealing by deal numbers has no commitments
    assert "deal numbers" in raises(ValueError, Match(CARDEMS, 3).proof, 0)


def _values(view):
    """Everything the view's public names give, as text (methods of one
    index called for every finished hand)."""
    out = []
    for name in dir(view):
        if name.startswith("_"):
            continue
        v = getattr(view, name)
        if callable(v):
            for i in range(view.hands_played if hasattr(view, "hands_played") else 0):
                try:
                    out.append(repr(v(i)))
                except Exception:
                    pass
            try:
                out.append(repr(v()))
            except Exception:
                pass
            continue
        if isinstance(v, (bytes, bytearray)):
            v = bytes(v)
        out.append(repr(v))
    return " ".join(out)


def test_the_ai_view_holds_neither_the_secret_nor_the_hand_in_play_seed_or_nonce():
    m = Match(CARDEMS, 3, secret=SECRET, ai_seed=99)
    _play_to_end_of_hand(m)
    assert m.next_hand() is None
    for a in ("draw_stock",):
        if a in m.legal():
            m.act(a)
    seed, nonce = hand_keys(SECRET, 2)
    for seat in (0, 1):
        v = View(m, seat)
        text = _values(v)
        for secret in (SECRET, seed, nonce):
            assert repr(secret) not in text
            assert hex_text(secret) not in text.upper()
            assert repr(bytes(secret)[:8]) not in text
        for name in dir(v):
            low = name.lower()
            assert "secret" not in low and "nonce" not in low and "seed" not in low, name
            assert low not in ("deal", "commit", "proof"), name
    # what a view reads of the match is public: the match keeps the secret
    # out of its public names too
    for name in dir(m):
        if not name.startswith("_"):
            assert "secret" not in name.lower(), name


def test_a_save_keeps_the_secret_and_the_ai_seed_and_loads_older_versions():
    m = Match(CARDEMS, 3, secret=SECRET, ai_seed=12345)
    _play_to_end_of_hand(m)
    m.next_hand()
    m.act(m.legal()[0])
    b = dumps(m)
    assert b[4] == 4                # version 4: its commitments are chained
    m2 = loads(b)
    assert m2.ai_seed == 12345 and m2.hand.commit == m.hand.commit
    assert m2.hand.cards_of(1) == m.hand.cards_of(1)
    assert dumps(m2) == b
    assert m2.chained and m2.chain_head() == m.chain_head()
    # a version 3 save (version 1.0.0's) resumes with the commitments it showed
    b3 = b[:4] + bytes([3]) + b[5:]
    m3 = loads(b3)
    assert not m3.chained and m3.hands[0].commit == commitment(*hand_keys(SECRET, 1))
    assert dumps(m3) == b3 and record_text(m3).startswith("gin-rummy record 3\n")
    # a match with neither is written as version 2, as before
    old = Match(CARDEMS, 3)
    ob = dumps(old)
    assert ob[4] == 2 and loads(ob).hand.deal == old.hand.deal
    # a version 3 save of such a match (flags 0) loads too
    head = 6 + ob[5] + 4
    v3 = ob[:4] + bytes([3]) + ob[5:head] + bytes([0]) + ob[head:]
    assert loads(v3).hand.deal == old.hand.deal
    # damage is refused, and a newer save is said to be newer
    assert "newer" in raises(SaveError, loads, b[:4] + bytes([6]) + b[5:])
    assert "flags" in raises(SaveError, loads, b[:head] + bytes([8]) + b[head + 1:])
    raises(SaveError, loads, b[:head + 5])


def test_a_record_reveals_finished_hands_only_and_replays():
    m = Match(CARDEMS, 3, secret=SECRET, ai_seed=1)
    _play_to_end_of_hand(m)
    text = record_text(m)
    lines = text.split("\n")
    assert lines[0] == "gin-rummy record 4" and lines[1].startswith("version ")
    assert lines[4] == "match " + hex_text(m.chain_start())
    seed, nonce = m.proof(0)
    want = "hand 1 commit %s seed %s nonce %s first 0" % (hex_text(m.chain_head()),
                                                         hex_text(seed), hex_text(nonce))
    assert want in lines and hex_text(m.chain_head()).startswith(m.hands[0].commit)
    assert hex_text(SECRET) not in text
    r = replay(text)
    assert r.scores == m.scores and r.hands[0].commit == m.hands[0].commit
    # the next hand, in play: its commitment only
    m.next_hand()
    m.act(m.legal()[0])
    text2 = record_text(m)
    s2, n2 = hand_keys(SECRET, 2)
    assert "hand 2 commit %s first" % hex_text(m.chain_head()) in text2
    assert hex_text(s2) not in text2 and hex_text(n2) not in text2
    r2 = replay(text2)
    assert r2.unrevealed == 2 and len(r2.results) == 1
    # a changed nonce, seed, rule or seed line is refused
    bad = text.replace(hex_text(nonce), hex_text(nonce)[:-1] + ("0" if hex_text(nonce)[-1] != "0" else "1"))
    assert "expected hand 1 commit" in raises(ValueError, replay, bad)
    bad = text.replace(hex_text(seed), hex_text(seed)[:-1] + ("0" if hex_text(seed)[-1] != "0" else "1"))
    assert "expected hand 1 commit" in raises(ValueError, replay, bad)
    bad = text.replace("knock_limit=10", "knock_limit=11")
    assert "the match's commitment is SHA-256" in raises(ValueError, replay, bad)
    bad = text.replace("\nseed 3\n", "\nseed 4\n")
    assert "the match's commitment is SHA-256" in raises(ValueError, replay, bad)
    # version 1.0.0's records (format 3) still replay
    old = Match(CARDEMS, 3, secret=SECRET, ai_seed=1, chained=False)
    _play_to_end_of_hand(old)
    t3 = record_text(old)
    assert t3.startswith("gin-rummy record 3\n") and replay(t3).scores == old.scores


def test_a_record_from_a_newer_version_is_said_to_be_newer():
    m = Match(CARDEMS, 3, secret=SECRET)
    _play_to_end_of_hand(m)
    text = record_text(m)
    lines = text.split("\n")
    from engine.version import VERSION
    from engine.version_parse import parse
    major, minor = parse(VERSION)[:2]
    lines[1] = "version %d.%d.0" % (major, minor + 1)
    assert "newer" in raises(NewerRecord, replay, "\n".join(lines))
    lines[1] = "version %d.%d.0-dev" % (major, minor + 1)
    assert "newer" in raises(NewerRecord, replay, "\n".join(lines))
    lines[1] = "version %d.%d.7" % (major, minor)   # a patch version writes the same format
    assert replay("\n".join(lines)).scores == m.scores
    lines[1] = "version %d.%d.0" % (major, minor)   # the release a dev build leads to
    assert replay("\n".join(lines)).scores == m.scores
    lines[0] = "gin-rummy record 6"
    assert "newer" in raises(NewerRecord, replay, "\n".join(lines))
    lines[0] = "gin-rummy record 4"
    lines[1] = "version one"
    raises(ValueError, replay, "\n".join(lines))


def test_records_of_matches_dealt_by_deal_numbers_still_replay():
    m = Match(CARDEMS, 11)
    _play_to_end_of_hand(m)
    text = record_text(m)
    assert "hand 1 fingerprint " in text
    assert replay(text).scores == m.scores
    # the version 2 form (no version line) and version 1 (no fingerprint)
    lines = text.split("\n")
    v2 = ["gin-rummy record 2"] + lines[2:]
    assert replay("\n".join(v2)).scores == m.scores
    w = v2[3].split()
    v1 = ["gin-rummy record 1"] + v2[1:3] + [" ".join(w[:2] + w[4:])] + v2[4:]
    assert replay("\n".join(v1)).scores == m.scores


def test_a_seeded_secret_is_reproducible():
    assert secret_from_int(5) == secret_from_int(5) != secret_from_int(6)
    assert len(secret_from_int(5)) == SECRET_LEN
