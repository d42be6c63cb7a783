"""tools/ailab/expert.py: the expert reads only its view, is deterministic
for its seed, is hard when it searches nothing, and its search wins
(CPython only: a host tool that never ships)."""
import copy
import os

from engine import CARDEMS, Match
from engine.hand import TOOK, DISCARD
from tools.ailab import arena, bots
from tools.ailab.expert import Expert, Position, sample_world

from test_ai import GuardedView      # host_tests/engine/ai (pyproject.toml's pythonpath)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def searched_position(seed, worlds=4):
    """A match of hard against itself played until the expert (seat 0)
    searches a decision with more than one candidate: the match then."""
    m = Match(CARDEMS, seed)
    h1 = bots.make("hard", 2)
    h0 = bots.make("hard", 1)
    while True:
        if m.phase == "hand_over":
            m.next_hand()
            continue
        s = m.to_move
        if s == 0 and len(m.hand.log) >= 6:
            ex = Expert(7, worlds=worlds, first=worlds)
            ex.choose(m.view(0))
            if ex.last is not None:
                return m
        assert m.act((h0 if s == 0 else h1).choose(m.view(s))) is None


def hidden_swapped(m):
    """A copy of match m whose opponent (seat 1) holds other cards and whose
    stock is in another order, with seat 0's view the same: two of seat 1's
    cards it did not take from the pile swapped with two stock cards, and
    the stock turned over."""
    m2 = copy.deepcopy(m)
    h = m2.hand
    known = set()
    for code, who in zip(h.log, h.log_seat):
        if who == 1 and code >= TOOK:
            known.add(code - TOOK)
        elif who == 1 and code >= DISCARD:
            known.discard(code & 63)
    mine = [c for c in h.cards_of(1) if c not in known]
    stock = h.stock_cards()
    assert len(mine) >= 2 and len(stock) >= 2
    for a, b in zip(mine[:2], stock[:2]):
        h.masks[4 + a // 13] ^= 1 << (a % 13)
        h.masks[4 + b // 13] ^= 1 << (b % 13)
        i = stock.index(b)
        stock[i] = a
    stock.reverse()
    h.stock[:len(stock)] = bytes(stock)
    assert h.cards_of(1) != m.hand.cards_of(1)
    return m2


def test_equal_views_give_equal_decisions_whatever_the_hidden_cards():
    m = searched_position(11)
    m2 = hidden_swapped(m)
    v, v2 = m.view(0), m2.view(0)
    assert (v.hand, v.pile, v.stock_size, list(v.log)) == (v2.hand, v2.pile, v2.stock_size, list(v2.log))
    a, b, c = Expert(7, worlds=4, first=4), Expert(7, worlds=4, first=4), Expert(7, worlds=4, first=4)
    assert a.choose(v) == b.choose(v2) == c.choose(GuardedView(m, 0))
    # the whole search is the same: the candidates and every mean
    assert a.last is not None and a.last == b.last == c.last
    # and the worlds it searched hold the view's cards where the view puts them
    pos = Position(v)
    import random
    opp, stock = sample_world(pos, lambda c: 64, random.Random(1))
    assert len(opp) == 10 and len(stock) == v.stock_size
    assert not (set(opp) | set(stock)) & (set(v.hand) | set(v.pile))
    assert set(v.opponent_known) <= set(opp)


def test_the_same_seed_plays_the_same_match():
    def play(seed):
        m, _ = arena.play_match(CARDEMS.copy(target=30), 4, bots.make("expert@worlds=3,first=3", seed),
                                bots.make("simple", 5), [], [])
        return [list(h.log) for h in m.hands]
    assert play(3) == play(3)


def test_without_worlds_it_is_hard_in_the_paired_table():
    from tools.ailab.ai_table import paired_worker
    st = paired_worker(("expert@worlds=0|hard", "lookahead-3", "cardems", 1, 2))
    assert st["diff"] == [0] and st["pdiff"] == [0]
    assert st["1.a_points"] == st["2.a_points"] and st["1.hands"] == st["2.hands"]


def test_it_beats_a_weak_player():
    # matches to 60 on two deal sequences, both seats, against easy: the
    # expert wins more matches and hands than it loses and scores more
    # points than it gives away (easy wins hands and matches, so this can fail)
    st = arena.play_sequences(CARDEMS.copy(target=60), "expert@worlds=4,first=4", "easy", 2, 4,
                              arena.new_stats())
    assert st["matches"] == 4 and st["hands"] >= 8
    assert st["a_matches"] >= 3 and st["a_hands"] > st["b_hands"] and st["a_points"] > 0


def test_nothing_that_ships_imports_it():
    for top in ("engine", "firmware", "circuitpython", "web"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".py"):
                    with open(os.path.join(dirpath, f)) as fh:
                        assert "expert" not in fh.read(), os.path.join(dirpath, f)


def test_the_worlds_hold_hands_as_good_as_the_opponents_real_ones():
    # against a player waiting for gin, late in the hand: the card model's
    # hands alone hold far more deadwood than the real ones; drawn by
    # hard's deadwood belief they hold about as much
    import random
    from engine.melds import deadwood4
    from tools.ailab.expert import sample_worlds, deadwood_target

    def dw(cards):
        m = [0, 0, 0, 0]
        for c in cards:
            m[c // 13] |= 1 << (c % 13)
        return deadwood4(m[0], m[1], m[2], m[3])

    real = tilted = plain = n = 0
    for seed in range(1, 7):
        m = Match(CARDEMS, seed)
        p = [bots.make("hard", 1), bots.make("hard-patient", 2)]
        while m.phase != "match_over" and len(m.results) < 2:
            if m.phase == "hand_over":
                m.next_hand()
                continue
            s = m.to_move
            v = m.view(s)
            a = p[s].choose(v)
            if s == 0 and v.phase == "discard" and v.stock_size < 18:
                h = p[0]
                pos = Position(v)
                h.model.fill(h.k, True)
                po = h.model.po
                rng = random.Random(seed)
                ws = sample_worlds(pos, lambda c: po[c], rng, 8, deadwood_target(h), 200)
                tilted += sum(dw(o) for o, _ in ws) / 8.0
                plain += sum(dw(sample_world(pos, lambda c: po[c], rng)[0]) for _ in range(8)) / 8.0
                real += dw(m.hand.cards_of(1))
                n += 1
            assert m.act(a) is None
    assert n >= 10
    real, tilted, plain = real / n, tilted / n, plain / n
    assert plain > real + 10 and abs(tilted - real) < (plain - real) / 3, (real, tilted, plain)


def test_the_discard_ranking_is_hard_evaluators():
    # discard_scores scores every discard hard's evaluator weighs, as
    # discard_choice does: its best is hard's card and, without the danger
    # charge, its best value is the one discard_choice keeps (dc_value)
    from engine.cards import CARD_VALUE
    from engine.hand import KNOCK, action_code
    from engine.melds import best_discard4, deadwood4
    from tools.ailab.expert_search import discard_scores
    m = Match(CARDEMS, 3)
    p = [bots.make("hard", 1), bots.make("simple", 2)]
    plain = bots.make("hard", 1)
    plain.ev.t_danger = 0
    n = 0
    while m.phase != "match_over" and len(m.results) < 6:
        if m.phase == "hand_over":
            m.next_hand()
            continue
        s = m.to_move
        v = m.view(s)
        a = p[s].choose(v)
        if s == 0 and v.phase == "discard":
            for h in (p[0], plain):
                if h is plain:
                    h.choose(v)
                k = h.k
                h._setup(k, 2)
                hand = list(h.ev.m)
                scores = discard_scores(h.ev, k, k.limit, k.taken)
                cards = [c for _, c in scores]
                lo = best_discard4(hand, k.taken) >> 6
                want = []
                for c in v.hand:
                    x = list(hand)
                    x[c // 13] ^= 1 << (c % 13)
                    if c != k.taken and deadwood4(*x) <= lo + h.ev.t_margin:
                        want.append(c)
                assert sorted(cards) == sorted(want) and len(cards) >= 1
                best = min(scores, key=lambda x: (x[0], -CARD_VALUE[x[1]]))
                assert best[1] == h.ev.discard_choice(k, True, k.limit, k.taken)
                if h is plain:
                    assert best[0] == h.ev.dc_value
                else:
                    hard_best = best[1]
            code = action_code(a)
            if DISCARD <= code < KNOCK:
                assert code == DISCARD + hard_best      # hard played the ranking's best
                n += 1
        assert m.act(a) is None
    assert n >= 20
