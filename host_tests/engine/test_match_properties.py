"""Property tests of the match state machine (R2-R4, R6, R10-R12, R14)
against the rules text and the brute force in host_tests/reference.py.

Random legal play from random seeds: the 52 cards are conserved in every
state, the legal moves are exactly the ones the rules allow, every hand is
scored as the brute-force showdown says, illegal actions return a reason and
change nothing, and every match ends with a winner on 100 or more.
"""
import random

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

import engine
import reference as ref

TARGET = 100        # R12
KNOCK_LIMIT = 10    # R6
PILE_TURNS = 40     # R14
MAX_ACTIONS = 20000

SLOW = settings(deadline=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.data_too_large])

# A whole match is some 1000-3000 actions: fewer examples of those.
WHOLE_MATCHES = settings(
    SLOW, max_examples=max(10, settings.default.max_examples // 4))

seeds = st.integers(0, (1 << 30) - 1)
T = ref.card_text


# ---------------------------------------------------------------- observing

def snapshot(m):
    """Everything a player or a save could see of the match."""
    h = m.hand
    return (tuple(h.cards_of(0)), tuple(h.cards_of(1)),
            tuple(h.stock_cards()), tuple(h.discard_cards()),
            m.phase, m.to_move, tuple(m.scores), m.winner,
            tuple(m.legal()), len(m.hands), repr(h.moves()))


def check_conserved(m):
    """The two hands, the stock and the pile are the 52 cards, each once,
    with 10 cards a hand (11 for the player who has drawn)."""
    h = m.hand
    a, b = h.cards_of(0), h.cards_of(1)
    stock, pile = h.stock_cards(), h.discard_cards()
    everything = a + b + stock + pile
    assert sorted(everything) == list(range(52)), snapshot(m)
    sizes = [len(a), len(b)]
    if m.phase == "discard":
        want = [10, 10]
        want[m.to_move] = 11
        assert sizes == want, snapshot(m)
    else:
        assert sizes == [10, 10], snapshot(m)
    if m.phase in ("draw", "discard"):
        assert m.to_move in (0, 1)
    else:
        assert m.to_move is None and m.legal() == []


def rules_legal(m, taken):
    """The legal actions by the rules text: R3 draws; R3/R4 discards of
    any held card but the one just taken from the pile; R6 knocks with
    brute-force deadwood <= 10 after the discard."""
    if m.phase == "draw":
        return {"draw_stock", "draw_upcard"}
    if m.phase != "discard":
        return set()
    held = m.hand.cards_of(m.to_move)
    out = set()
    for c in held:
        if c == taken:
            continue
        out.add("discard:" + T(c))
        rest = [x for x in held if x != c]
        if ref.min_deadwood(rest) <= KNOCK_LIMIT:
            out.add("knock:" + T(c))
    return out


class Table:
    """Drives a Match with legal actions and checks every transition."""

    def __init__(self, seed, check_legal=True):
        self.m = engine.Match(seed=seed)
        self.check_legal = check_legal
        self.taken = None          # R4: the card taken from the pile this turn
        self.pile_streak = 0       # R14: turns in a row without a stock draw
        self.actions = 0
        self.kinds = []
        self.check_deal()

    def check_deal(self):
        """R2: 10 cards each, one upcard, 31 in the stock, seat 0 first."""
        m = self.m
        h = m.hand
        assert m.phase == "draw" and m.to_move == 0
        assert len(h.stock_cards()) == 31 and len(h.discard_cards()) == 1
        check_conserved(m)
        self.taken = None
        self.pile_streak = 0

    def check_state(self):
        check_conserved(self.m)
        if self.check_legal:
            got = self.m.legal()
            assert len(got) == len(set(got)), got
            assert set(got) == rules_legal(self.m, self.taken), (
                sorted(got), sorted(rules_legal(self.m, self.taken)))

    def act(self, action):
        m = self.m
        h = m.hand
        seat = m.to_move
        before_scores = list(m.scores)
        pile = h.discard_cards()
        stock = h.stock_cards()
        mine = h.cards_of(seat)
        other = h.cards_of(1 - seat)
        why = m.act(action)
        assert why is None, (action, why)
        self.actions += 1
        h = m.hand
        if action == "draw_stock":
            # R3: the top of the stock (the last card listed) joins the hand
            assert h.cards_of(seat) == sorted(mine + [stock[-1]])
            assert h.stock_cards() == stock[:-1]
            assert m.phase == "discard" and m.to_move == seat
            self.taken = None
            self.pile_streak = 0
        elif action == "draw_upcard":
            assert h.cards_of(seat) == sorted(mine + [pile[-1]])
            assert h.discard_cards() == pile[:-1]
            assert m.phase == "discard" and m.to_move == seat
            self.taken = pile[-1]
            self.pile_streak += 1
        else:
            verb, text = action.split(":")
            c = ref.card(text)
            assert c != self.taken                        # R4
            assert h.discard_cards() == pile + [c]
            rest = [x for x in mine if x != c]
            assert h.cards_of(seat) == rest
            self.taken = None
            if verb == "knock":
                self.check_knock(seat, rest, other, before_scores)
            elif not stock:
                # R11: stock empty after a normal discard: a 0-point draw
                assert m.phase == "hand_over", snapshot(m)
                assert list(m.scores) == before_scores
                self.kinds.append("draw")
            elif self.pile_streak >= PILE_TURNS:
                # R14: 40 turns in a row without a stock draw: a draw
                assert m.phase == "hand_over", snapshot(m)
                assert list(m.scores) == before_scores
                self.kinds.append("draw")
            else:
                assert m.phase == "draw" and m.to_move == 1 - seat
                assert list(m.scores) == before_scores
        self.check_state()

    def check_knock(self, seat, knocker, defender, before):
        """R6-R10: the hand ends and is scored as the brute force says;
        R12: the match ends as soon as a total reaches 100."""
        m = self.m
        want = ref.settle(knocker, defender)
        self.kinds.append(want.kind)
        scorer = seat if want.winner == "knocker" else 1 - seat
        after = list(before)
        after[scorer] += want.points
        assert list(m.scores) == after, (
            "knocker %s defender %s: scores %s -> %s, want %r" % (
                ref.hand_text(knocker), ref.hand_text(defender), before,
                m.scores, want))
        if after[scorer] >= TARGET:
            assert m.phase == "match_over" and m.winner == scorer
        else:
            assert m.phase == "hand_over" and m.winner is None

    def next_hand(self):
        m = self.m
        assert m.phase == "hand_over"
        scores = list(m.scores)
        assert m.next_hand() is None
        assert list(m.scores) == scores
        self.check_deal()
        self.check_state()


def choose(m, pick, rng):
    """A legal action: knocks when it can (rng), else legal()[pick % n],
    sometimes the lowest-deadwood discard so that hands reach knocks."""
    legal = m.legal()
    knocks = [a for a in legal if a.startswith("knock:")]
    if knocks and rng.random() < 0.7:
        return knocks[pick % len(knocks)]
    if m.phase == "discard" and rng.random() < 0.5:
        held = m.hand.cards_of(m.to_move)
        # a held card missing from the legal discards is the R4 card
        allowed = {ref.card(a[8:]) for a in legal if a.startswith("discard:")}
        blocked = [c for c in held if c not in allowed]
        _, c = engine.best_discard(held, blocked[0] if blocked else None)
        return "discard:" + T(c)
    return legal[pick % len(legal)]


# ---------------------------------------------------------------- short play

@SLOW
@given(seed=seeds, picks=st.lists(st.integers(0, 63), min_size=40,
                                  max_size=200),
       rseed=st.integers(0, 1 << 16))
@example(seed=0, picks=[], rseed=0)
def test_random_play_conserves_cards_and_allows_what_the_rules_allow(
        seed, picks, rseed):
    table = Table(seed)
    table.check_state()
    rng = random.Random(rseed)
    for pick in picks:
        m = table.m
        if m.phase == "match_over":
            break
        if m.phase == "hand_over":
            table.next_hand()
            continue
        table.act(choose(m, pick, rng))
    for k in table.kinds:
        event(k)


def illegal_probes(m, taken, data):
    """Actions the rules refuse in the current state (with why)."""
    h = m.hand
    ph = m.phase
    seat = m.to_move
    held = h.cards_of(seat) if seat is not None else []
    not_held = [c for c in range(52) if c not in held]
    probes = []
    garbage = data.draw(st.text(max_size=12), label="garbage")
    probes.append(("random text", garbage))
    probes.append(("not an action", data.draw(st.sampled_from(
        ["", "draw", "discard", "discard:", "knock:", "discard:10s",
         "discard:Tx", "knock:1h", "DRAW_STOCK", "draw stock",
         "discard:Td:Td", "discard Td", "next_hand", " draw_stock"]))))
    c = data.draw(st.sampled_from(not_held), label="not held")
    probes.append(("card not held", "discard:" + T(c)))
    probes.append(("card not held", "knock:" + T(c)))
    if ph == "draw":
        c = data.draw(st.sampled_from(held), label="held")
        probes.append(("discard before drawing (R3)", "discard:" + T(c)))
        probes.append(("knock before drawing (R3)", "knock:" + T(c)))
    elif ph == "discard":
        probes.append(("second draw (R3)", "draw_stock"))
        probes.append(("second draw (R3)", "draw_upcard"))
        if taken is not None:
            probes.append(("card just taken (R4)", "discard:" + T(taken)))
            probes.append(("card just taken (R4)", "knock:" + T(taken)))
        high = [x for x in held if x != taken and ref.min_deadwood(
            [y for y in held if y != x]) > KNOCK_LIMIT]
        if high:
            x = data.draw(st.sampled_from(high), label="over the limit")
            probes.append(("knock over 10 (R6)", "knock:" + T(x)))
    else:
        probes.append(("hand or match over", "draw_stock"))
        probes.append(("hand or match over", "draw_upcard"))
        c = data.draw(st.sampled_from(range(52)), label="any card")
        probes.append(("hand or match over", "discard:" + T(c)))
        probes.append(("hand or match over", "knock:" + T(c)))
    return probes


def refused(m, label, action):
    before = snapshot(m)
    legal = [a.lower() for a in m.legal()]
    if isinstance(action, str) and action.lower() in legal:
        return  # random text that happens to name a legal action
    why = m.act(action)
    assert isinstance(why, str) and why, (label, action, why)
    assert snapshot(m) == before, (label, action)


@SLOW
@given(seed=seeds, picks=st.lists(st.integers(0, 63), min_size=10,
                                  max_size=150),
       rseed=st.integers(0, 1 << 16), data=st.data())
def test_illegal_actions_return_a_reason_and_change_nothing(
        seed, picks, rseed, data):
    table = Table(seed, check_legal=False)
    rng = random.Random(rseed)
    for pick in picks + [None]:
        m = table.m
        for label, action in illegal_probes(m, table.taken, data):
            refused(m, label, action)
        if m.phase in ("draw", "discard"):
            before = snapshot(m)
            assert isinstance(m.next_hand(), str)     # hand still in play
            assert snapshot(m) == before
        if pick is None or m.phase == "match_over":
            break
        if m.phase == "hand_over":
            table.next_hand()
            continue
        table.act(choose(m, pick, rng))


@SLOW
@given(seed=seeds, picks=st.lists(st.integers(0, 63), max_size=60),
       rseed=st.integers(0, 1 << 16), data=st.data())
def test_draw_upcard_naming_another_card_is_refused(seed, picks, rseed, data):
    """The log writes a pickup as 'draw_upcard:Qs'; naming a card that is
    not the upcard, or no card at all, must not draw the upcard."""
    table = Table(seed, check_legal=False)
    rng = random.Random(rseed)
    for pick in picks:
        m = table.m
        if m.phase == "hand_over":
            table.next_hand()
            continue
        if m.phase == "match_over":
            break
        table.act(choose(m, pick, rng))
    m = table.m
    if m.phase != "draw":
        return
    up = m.hand.discard_cards()[-1]
    other = data.draw(st.sampled_from([c for c in range(52) if c != up]))
    refused(m, "names another card", "draw_upcard:" + T(other))
    refused(m, "names no card", "draw_upcard:" + data.draw(
        st.sampled_from(["", "xx", "Td Td", "10s", "upcard"])))


def test_non_string_actions_are_refused():
    m = engine.Match(seed=1)
    for bad in [None, 3.5, [], ("draw_stock",), b"draw_stock"]:
        before = snapshot(m)
        try:
            why = m.act(bad)
        except (TypeError, ValueError) as e:
            raise AssertionError("act(%r) raised %r" % (bad, e))
        assert isinstance(why, str) and snapshot(m) == before, bad

# ---------------------------------------------------------------- matches

@WHOLE_MATCHES
@given(seed=seeds, rseed=st.integers(0, 1 << 30),
       greedy=st.sampled_from([0.25, 0.5, 1.0]))
@example(seed=0, rseed=0, greedy=0.25)
def test_random_matches_end_with_a_winner_on_100(seed, rseed, greedy):
    """R10-R12: every hand scored as the brute force says, scores only grow,
    the match ends (well within MAX_ACTIONS) with the winner on >= 100 and
    the loser below it."""
    table = Table(seed, check_legal=False)
    rng = random.Random(rseed)
    m = table.m
    history = [tuple(m.scores)]
    while m.phase != "match_over":
        assert table.actions < MAX_ACTIONS, "match did not end"
        if m.phase == "hand_over":
            table.next_hand()
            history.append(tuple(m.scores))
            continue
        legal = m.legal()
        knocks = [a for a in legal if a.startswith("knock:")]
        if knocks:
            action = rng.choice(knocks)
        elif m.phase == "discard" and rng.random() < greedy:
            action = choose(m, 0, _Never())
        else:
            action = rng.choice(legal)
        table.act(action)
    history.append(tuple(m.scores))
    for a, b in zip(history, history[1:]):
        assert b[0] >= a[0] and b[1] >= a[1]
        assert b[0] == a[0] or b[1] == a[1]     # one scorer a hand
    w = m.winner
    assert w in (0, 1)
    assert m.scores[w] >= TARGET and m.scores[1 - w] < TARGET
    assert history[-2][w] < TARGET               # R12: at once
    assert m.legal() == [] and m.to_move is None
    before = snapshot(m)
    assert isinstance(m.next_hand(), str)
    assert isinstance(m.act("draw_stock"), str)
    assert snapshot(m) == before
    event("hands %s" % ("<=10" if len(m.hands) <= 10 else ">10"))
    for k in set(table.kinds):
        event(k)


class _Never:
    """A stand-in random source for choose(): always the greedy discard."""

    def random(self):
        return 0.0


@SLOW
@given(seed=seeds, picks=st.lists(st.integers(0, 63), min_size=200,
                                  max_size=200))
def test_same_seed_and_moves_replay_the_same_match(seed, picks):
    def run():
        m = engine.Match(seed=seed)
        seen = [snapshot(m)]
        for p in picks:
            if m.phase == "match_over":
                break
            if m.phase == "hand_over":
                m.next_hand()
            else:
                legal = m.legal()
                assert m.act(legal[p % len(legal)]) is None
            seen.append(snapshot(m))
        return seen
    assert run() == run()


# ---------------------------------------------------------------- draws

@SLOW
@given(seed=seeds, picks=st.lists(st.integers(0, 63), min_size=80,
                                  max_size=80))
def test_stock_play_without_knocking_ends_in_a_draw_when_stock_is_empty(
        seed, picks):
    """R11: the hand ends as a 0-point draw right after the normal discard
    that follows the last stock card (31 stock draws), not before."""
    table = Table(seed, check_legal=False)
    m = table.m
    draws = 0
    for p in picks:
        if m.phase == "draw":
            table.act("draw_stock")
            draws += 1
            if draws == 31:
                # R11: the last stock card's drawer may still knock
                assert m.hand.stock_cards() == []
                assert set(m.legal()) == rules_legal(m, None)
        elif m.phase == "discard":
            discards = [a for a in m.legal() if a.startswith("discard:")]
            table.act(discards[p % len(discards)])
            if draws < 31:
                assert m.phase == "draw"
        else:
            break
    assert m.phase == "hand_over" and draws == 31
    assert m.scores == [0, 0] and m.hand.stock_cards() == []


@SLOW
@given(seed=seeds, picks=st.lists(st.integers(0, 63), min_size=80,
                                  max_size=80))
def test_pile_only_play_ends_in_a_draw_after_40_turns(seed, picks):
    """R14: 40 turns in a row without a stock draw end the hand, 0 points."""
    table = Table(seed, check_legal=False)
    m = table.m
    turns = 0
    for p in picks:
        if m.phase == "draw":
            table.act("draw_upcard")
        elif m.phase == "discard":
            discards = [a for a in m.legal() if a.startswith("discard:")]
            table.act(discards[p % len(discards)])
            turns += 1
            if turns < PILE_TURNS:
                assert m.phase == "draw"
        else:
            break
    assert m.phase == "hand_over" and turns == PILE_TURNS
    assert m.scores == [0, 0] and len(m.hand.stock_cards()) == 31
