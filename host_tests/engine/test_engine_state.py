"""Determinism, small ints, views, records and saves (DESIGN constraints).

Plain functions: the same file runs on CPython, the MicroPython unix port and
the 32-bit WebAssembly port.
"""
from engine import (Match, Rng, deck_for, record_text, replay, dumps, loads,
                    SaveError, CARDEMS, card, card_text, best_discard)
from engine.save import NEXT, header_size
from engine.hand import PastHand
from scenario import match_with, play, raises, snapshot

LIMIT = 1 << 30


def _play(m, moves, seed=7):
    """Advance `moves` actions by a fixed, position-dependent rule."""
    k = 0
    while k < moves and m.phase != "match_over":
        if m.phase == "hand_over":
            m.next_hand()
            continue
        legal = m.legal()
        knocks = [a for a in legal if a.startswith("knock:")]
        if knocks:
            pick = knocks[0]
        elif m.phase == "discard" and (k + seed) % 4:
            h = m.hand
            pick = "discard:" + card_text(best_discard(h.cards_of(h.turn), h.taken if h.taken < 52 else None)[1])
        else:
            pick = legal[(k * 5 + seed) % len(legal)]
        assert m.act(pick) is None
        k += 1
    return m


def test_rng_gives_the_same_numbers_on_every_runtime():
    r = Rng(1)
    assert [r.below(52) for _ in range(10)] == [47, 17, 7, 1, 39, 0, 9, 35, 27, 8]
    assert list(deck_for(0))[:10] == [31, 11, 41, 15, 34, 8, 36, 23, 45, 10]
    assert Rng(2).seed30() == Rng(2).seed30()


def test_rng_below_is_in_range_and_covers_it():
    r = Rng(5)
    seen = [0] * 13
    for _ in range(2000):
        x = r.below(13)
        assert 0 <= x < 13
        seen[x] += 1
    assert min(seen) > 100


def test_rng_rejects_seeds_outside_small_ints():
    raises(ValueError, Rng, LIMIT)
    raises(ValueError, Rng, -1)


def _ints_in(obj, out, depth=0):
    if depth > 4:
        return
    if isinstance(obj, bool):
        return
    if isinstance(obj, int):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            _ints_in(x, out, depth + 1)
    elif isinstance(obj, (bytes, bytearray, str)):
        return
    elif hasattr(obj, "__dict__"):
        for k in sorted(obj.__dict__.keys()):
            _ints_in(obj.__dict__[k], out, depth + 1)


def test_no_engine_integer_reaches_2_pow_30():
    m = Match(CARDEMS, LIMIT - 1)
    while m.phase != "match_over":
        _play(m, 25)
        ints = []
        _ints_in(m, ints)
        _ints_in(m._rng, ints)
        assert ints and max(ints) < LIMIT and min(ints) > -LIMIT


def test_same_seed_same_match_record():
    a = _play(Match(CARDEMS, 11), 400)
    b = _play(Match(CARDEMS, 11), 400)
    assert record_text(a) == record_text(b)


def test_record_replays_to_the_same_result():
    m = _play(Match(CARDEMS, 12), 100000)
    assert m.phase == "match_over"
    text = record_text(m)
    r = replay(text)
    assert r.scores == m.scores and r.winner == m.winner
    assert record_text(r) == text


def test_record_that_disagrees_is_rejected_with_its_line():
    m = _play(Match(CARDEMS, 13), 60)
    text = record_text(m)
    lines = text.split("\n")
    for i in range(len(lines)):
        if lines[i].startswith("0 discard:"):
            lines[i] = "0 discard:Zz"
            break
    msg = raises(ValueError, replay, "\n".join(lines))
    assert "record line %d" % (i + 1) in msg
    assert "not a game record" in raises(ValueError, replay, "hello")


def test_save_restores_a_match_in_progress():
    m = _play(Match(CARDEMS, 14), 150)
    data = dumps(m)
    r = loads(data)
    assert snapshot(r) == snapshot(m)
    assert record_text(r) == record_text(m)
    assert dumps(r) == data


def test_save_is_compact():
    m = _play(Match(CARDEMS, 15), 100000)
    assert len(dumps(m)) < 64 + 2 * len(record_text(m).split("\n"))


def test_corrupt_saves_are_rejected_with_a_reason():
    data = dumps(_play(Match(CARDEMS, 16), 80))
    assert "magic" in raises(SaveError, loads, b"XXXX" + data[4:])
    assert "truncated" in raises(SaveError, loads, data[:5])
    future = bytearray(data)
    future[4] = 99
    assert "version" in raises(SaveError, loads, bytes(future))
    bad_rules = data[:6] + b"CARDEMS" + data[13:]
    assert "header is invalid" in raises(SaveError, loads, bad_rules)
    bad_code = data[:-1] + bytes([250])         # no such move code
    assert "move code 250" in raises(SaveError, loads, bad_code)


def test_a_save_only_grows_move_by_move():
    """The save after more moves is the save before with the moves
    appended (NEXT between hands), so an append-only store writes only
    those; a cut-short save is an earlier state, which is why a storage
    container checks integrity (firmware/saves/storage.py)."""
    m = Match(CARDEMS, 16)
    before = dumps(m)
    for _ in range(120):
        _play(m, 1)
        now = dumps(m)
        assert now[:len(before)] == before
        before = now
    assert NEXT in before[header_size(before):]
    earlier = loads(before[:-3])
    assert dumps(earlier) == before[:-3]


def test_a_rules_line_the_engine_would_write_differently_is_refused():
    data = dumps(Match(CARDEMS, 1))
    text = CARDEMS.text().replace("target=100", "target=0100")
    out = bytearray(data[:5])
    out.append(len(text))
    out.extend(text.encode())
    out.extend(data[6 + data[5]:])
    assert "header is invalid" in raises(SaveError, loads, bytes(out))


def test_a_save_with_a_valid_header_but_an_illegal_move_is_rejected():
    data = dumps(Match(CARDEMS, 1))            # one hand, no move yet
    assert len(data) == header_size(data)
    msg = raises(SaveError, loads, data + bytes([64 + card("As")]))
    assert "illegal move" in msg and "draw a card first" in msg


def test_a_version_1_save_still_loads_and_checks_its_scores():
    from engine.save import fletcher16
    m = _play(Match(CARDEMS, 14), 150)
    rt = m.rules.text().encode()
    p = bytearray([len(rt)]) + rt + bytes([0, 0, 0, 14]) + bytes([0, len(m.hands)])
    for h in m.hands:
        p.extend(bytes([len(h.log) >> 8, len(h.log) & 255]))
        p.extend(h.log)
    for sc in m.scores:
        p.extend(bytes([sc >> 8, sc & 255]))
    out = bytearray(b"GRSV\x01") + bytes([len(p) >> 8, len(p) & 255]) + p
    c = fletcher16(out)
    v1 = bytes(out) + bytes([c >> 8, c & 255])
    assert dumps(loads(v1)) == dumps(m)
    flipped = bytearray(v1)
    flipped[len(v1) // 2] ^= 0x10
    assert "checksum" in raises(SaveError, loads, bytes(flipped))
    for n in range(5, 12):                      # cut short: refused, never IndexError
        raises(SaveError, loads, v1[:n])


def test_view_shows_own_cards_and_public_information_only():
    m = match_with("As 2s 3s 7h 7d 7c 9s Ts Js 3d", "2h 4h 6h 8h Th Qh 2c 4c 6c 8c", "Kd", "5c")
    play(m, "draw_upcard", "discard:3d")
    v = m.view(1)
    assert v.hand == m.hand.cards_of(1)
    assert v.upcard == card("3d") and v.discard_pile == []
    assert v.opponent_known == [card("Kd")]
    assert v.stock_size == 31 and v.knock_limit == 10
    assert v.moves == [[0, "draw_upcard:Kd"], [0, "discard:3d"]]
    assert v.my_turn and v.legal == ["draw_stock", "draw_upcard"]
    assert m.view(0).legal == []


class _Hidden:
    """A hand whose hidden parts raise when read."""

    def __init__(self, hand, seat):
        self._h = hand
        self._seat = seat

    def __getattr__(self, name):
        if name == "stock":
            raise AssertionError("the view read the stock's order")
        if name == "masks":
            return _Masks(self._h.masks, self._seat)
        if name in ("cards_of", "holds", "count", "stock_cards"):
            raise AssertionError("the view read hidden cards via " + name)
        return getattr(self._h, name)


class _Masks:
    def __init__(self, masks, seat):
        self._m = masks
        self._seat = seat

    def __getitem__(self, i):
        if i // 4 != self._seat:
            raise AssertionError("the view read the opponent's cards")
        return self._m[i]


class _HiddenMatch:
    def __init__(self, m, seat):
        self._m = m
        self._seat = seat

    @property
    def hand(self):
        return _Hidden(self._m.hand, self._seat)

    def __getattr__(self, name):
        return getattr(self._m, name)


def test_view_never_reads_the_hidden_state():
    from engine import View
    m = _play(Match(CARDEMS, 21), 37)
    for seat in (0, 1):
        v = View(_HiddenMatch(m, seat), seat)
        got = (v.hand, v.upcard, v.discard_pile, v.pile, v.stock_size,
               v.knock_limit, v.taken, v.scores, v.moves, v.opponent_known,
               v.opponent_count, v.deadwood, v.phase, v.to_move)
        assert got[0] == m.hand.cards_of(seat)


def test_a_finished_hand_keeps_only_what_is_read_of_it_once_the_next_is_dealt():
    m = Match(seed=11)
    while len(m.hands) < 3 or m.phase not in ("draw", "discard"):
        assert m.phase != "match_over"
        _play(m, 1)
    for h in m.hands[:-1]:
        assert type(h) is PastHand and not hasattr(h, "pile") and not hasattr(h, "stock")
        assert isinstance(h.log, bytes) and isinstance(h.log_seat, bytes)
    cur = m.hands[-1]
    assert cur.pile is not None and cur.stock is not None
    # what the finished hands still give: the save, the record, the views
    back = loads(dumps(m))
    assert dumps(back) == dumps(m)
    assert record_text(back) == record_text(m)
    v = m.view(1)
    out = [0, 0, 0, 0]
    for i in range(v.hands_over):
        assert bytes(v.past_log(i)) == bytes(back.view(1).past_log(i))
        v.past_masks(i, 0, out)
    assert "still being played" in raises(ValueError, PastHand, cur)
