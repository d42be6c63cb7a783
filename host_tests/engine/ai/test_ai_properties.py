"""Property tests for the AI (CPython, hypothesis) over random positions.

Positions are reached by random legal play from a seeded match under every
rules preset (V1 offers, V2 Oklahoma limits, V3 two-card stop included).
In each: every level returns a legal action; it does so through a view whose
hidden parts (the opponent's masks, the stock) raise when read, with the same
result; the hint is hard's choice; the ObsView of the position gives the same
choice as the View; a second Player with the same seed agrees.
"""

from hypothesis import given, strategies as st

from engine import Match, PRESETS, Rng, CARDEMS
from engine.ai import Player, ObsView, obs_from_view, LEVELS

from test_ai import GuardedView


def position(rules, seed, steps):
    """Random legal play for `steps` moves (across hands); the position then
    reached, with a player to move."""
    m = Match(rules, seed)
    r = Rng(seed)
    k = 0
    while k < steps or m.to_move is None:
        if m.phase == "match_over":
            m = Match(rules, seed + 1)
            continue
        if m.phase == "hand_over":
            m.next_hand()
            continue
        legal = m.legal()
        # mostly sensible moves, so hands last and reach late positions
        acts = [a for a in legal if not a.startswith("knock:")] or legal
        m.act(acts[r.below(len(acts))])
        k += 1
    return m


positions = st.builds(position, st.sampled_from(PRESETS),
                      st.integers(0, 10 ** 6), st.integers(0, 120))


@given(positions, st.integers(0, 1000))
def test_every_level_chooses_a_legal_action(m, seed):
    v = m.view(m.to_move)
    legal = v.legal
    for lv in LEVELS:
        a = Player(lv, seed).choose(v)
        assert a in legal, (lv, a, legal)


@given(positions, st.integers(0, 1000))
def test_the_hidden_state_is_never_read(m, seed):
    s = m.to_move
    for lv in LEVELS:
        a = Player(lv, seed).choose(GuardedView(m, s))
        b = Player(lv, seed).choose(m.view(s))
        assert a == b, lv


@given(positions)
def test_hint_is_hards_choice(m):
    v = m.view(m.to_move)
    act, why = Player("normal", 3).hint(v)
    assert act == Player("hard").choose(v)
    assert isinstance(why, str) and 0 < len(why) <= 60


@given(positions, st.integers(0, 1000))
def test_obs_view_gives_the_same_choice(m, seed):
    v = m.view(m.to_move)
    obs = obs_from_view(v)
    for lv in LEVELS:
        assert Player(lv, seed).choose(ObsView(obs)) == Player(lv, seed).choose(v), lv


@given(positions, st.integers(0, 1000))
def test_a_player_carried_across_positions_stays_deterministic(m, seed):
    # A player that has seen other hands before decides as a fresh one would
    # (easy's random stream aside, which only the seed drives).
    s = m.to_move
    v = m.view(s)
    old = Player("hard", seed)
    other = position(m.rules, seed + 7, seed % 50)
    if other.to_move is not None:
        old.choose(other.view(other.to_move))
    assert old.choose(v) == Player("hard", seed).choose(v)


def _reshuffled(m, seat, rng):
    """A copy of match m in which the cards `seat` cannot see (the
    opponent's, but for the ones it took from the pile, and the stock's
    order) are dealt again: the same view, other hidden cards."""
    from engine import loads, dumps
    m2 = loads(dumps(m))
    h = m2.hand
    opp = 1 - seat
    known = m2.view(seat).opponent_known
    hidden = [c for c in h.cards_of(opp) if c not in known]
    pool = hidden + h.stock_cards()
    for i in range(len(pool) - 1, 0, -1):      # Fisher-Yates, engine Rng
        j = rng.below(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    for s in range(4):
        h.masks[opp * 4 + s] = 0
    for c in known + pool[:len(hidden)]:
        h.masks[opp * 4 + c // 13] |= 1 << (c % 13)
    rest = pool[len(hidden):]
    for i in range(len(rest)):
        h.stock[i] = rest[i]
    return m2


def test_hidden_cards_and_the_stock_order_do_not_change_a_move():
    # At every hard decision of a match, three copies with the hidden cards
    # dealt again (same view) get the same move from the same player state.
    from engine import Rng
    import copy
    m = Match(CARDEMS.copy(target=60), 21)
    ps = (Player("normal", 1), Player("hard", 2))
    rng = Rng(5)
    checked = 0
    while m.phase != "match_over":
        if m.phase == "hand_over":
            m.next_hand()
            continue
        s = m.to_move
        if s == 1:
            for _ in range(3):
                twin = copy.deepcopy(ps[1])
                other = _reshuffled(m, 1, rng)
                assert twin.choose(other.view(1)) == copy.deepcopy(ps[1]).choose(m.view(1))
            checked += 1
        assert m.act(ps[s].choose(m.view(s))) is None
    assert checked > 20, checked
