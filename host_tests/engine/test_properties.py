"""Property tests: the engine's meld search, discard choice and showdown
(R5-R10) equal the brute force in host_tests/reference.py.

Brute-force comparisons need hypothesis, so they run on CPython under pytest
only; the portable engine tests live in host_tests/engine/.
"""
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

import engine
import reference as ref
from reference import cards, hand_text

SLOW = settings(deadline=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])

# ---------------------------------------------------------------- strategies

ALL = list(range(52))


def any_hand(min_size=0, max_size=11):
    return st.lists(st.integers(0, 51), min_size=min_size,
                    max_size=max_size, unique=True)


@st.composite
def dense_hand(draw, min_size=0, max_size=11):
    """Cards drawn mostly from a small pool: few suits and few adjacent
    ranks, or few ranks in every suit (4-sets across runs), so that melds
    overlap and the arrangement is hard; topped up from the whole deck."""
    shape = draw(st.sampled_from(["suit_strip", "rank_block", "square"]))
    if shape == "suit_strip":
        suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2,
                              unique=True))
        width = draw(st.integers(4, 13))
        lo = draw(st.integers(0, 13 - width))
    elif shape == "rank_block":
        suits = [0, 1, 2, 3]
        width = draw(st.integers(2, 4))
        lo = draw(st.integers(0, 13 - width))
    else:
        suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=4,
                              unique=True))
        width = draw(st.integers(3, 6))
        lo = draw(st.integers(0, 13 - width))
    pool = [s * 13 + r for s in suits for r in range(lo, lo + width)]
    size = draw(st.integers(min_size, max_size))
    n_pool = draw(st.integers(max(0, size - 2), size))
    n_pool = min(n_pool, len(pool))
    hand = draw(st.lists(st.sampled_from(pool), unique=True,
                         min_size=n_pool, max_size=n_pool))
    rest = [c for c in ALL if c not in hand]
    hand += draw(st.lists(st.sampled_from(rest), unique=True,
                          min_size=size - len(hand),
                          max_size=size - len(hand)))
    return draw(st.permutations(hand))


def some_hand(min_size=0, max_size=11):
    return st.one_of(any_hand(min_size, max_size),
                     dense_hand(min_size, max_size))


@st.composite
def melded_cards(draw, size, exclude=(), low=True, gaps=(0, 1, 1, 2, 2, 3, 4)):
    """`size` cards outside `exclude` built from random runs and sets
    leaving about one of `gaps` cards over, the remainder low cards (A-5)
    when `low`, so deadwood is often <= 10."""
    used = set(exclude)
    hand = []
    target = size - draw(st.sampled_from(gaps))
    for _ in range(6):
        if len(hand) >= target:
            break
        if draw(st.booleans()):
            s = draw(st.integers(0, 3))
            length = draw(st.integers(3, 6))
            lo = draw(st.integers(0, 13 - length))
            meld = [s * 13 + r for r in range(lo, lo + length)]
        else:
            r = draw(st.integers(0, 12))
            suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4,
                                  unique=True))
            meld = [s * 13 + r for s in suits]
        meld = [c for c in meld if c not in used]
        meld = meld[:target - len(hand)]
        if len(meld) < 3:
            continue
        hand += meld
        used.update(meld)
    fill = [c for c in ALL if c not in used and (not low or c % 13 < 5)]
    if len(fill) < size - len(hand):
        fill = [c for c in ALL if c not in used]
    hand += draw(st.lists(st.sampled_from(fill), unique=True,
                          min_size=size - len(hand),
                          max_size=size - len(hand)))
    return hand


@st.composite
def near_cards(draw, size, other):
    """`size` cards not in `other`, many of them next to `other`'s cards
    (same suit one or two ranks away, or same rank): layoff candidates."""
    taken = set(other)
    near = set()
    for c in other:
        s, r = divmod(c, 13)
        for dr in (-2, -1, 1, 2):
            if 0 <= r + dr < 13:
                near.add(s * 13 + r + dr)
        for s2 in range(4):
            near.add(s2 * 13 + r)
    near = sorted(near - taken)
    n = min(len(near), draw(st.integers(0, size)))
    hand = draw(st.lists(st.sampled_from(near), unique=True,
                         min_size=n, max_size=n))
    rest = [c for c in ALL if c not in taken and c not in hand]
    hand += draw(st.lists(st.sampled_from(rest), unique=True,
                          min_size=size - n, max_size=size - n))
    return hand


@st.composite
def showdown(draw):
    """(knocker, defender): disjoint 10-card hands, knocker deadwood <= 10."""
    how = draw(st.sampled_from(["near", "near", "melded", "melded",
                                "undercut", "square", "random"]))
    if how == "undercut":
        # a knock on several points against a tight defender
        knocker = draw(melded_cards(10, gaps=(2, 3, 3)))
    elif how == "square":
        # three ranks in three suits: three sets or three runs (R8)
        suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=3,
                              unique=True))
        lo = draw(st.integers(0, 10))
        knocker = [s * 13 + r for s in suits for r in range(lo, lo + 3)]
        knocker.append(draw(st.sampled_from(
            [c for c in ALL if c not in knocker and c % 13 < 9])))
    else:
        knocker = draw(melded_cards(10))
    assume(ref.min_deadwood(knocker) <= 10)
    if how in ("near", "square"):
        defender = draw(near_cards(10, knocker))
    elif how == "melded":
        defender = draw(melded_cards(10, exclude=knocker,
                                     low=draw(st.booleans())))
    elif how == "undercut":
        defender = draw(melded_cards(10, exclude=knocker, gaps=(0, 1, 2)))
    else:
        rest = [c for c in ALL if c not in knocker]
        defender = draw(st.lists(st.sampled_from(rest), unique=True,
                                 min_size=10, max_size=10))
    return knocker, defender


# ---------------------------------------------------------------- helpers

def check_arrangement(hand, melds, deadwood):
    """melds are valid (R5), disjoint, drawn from hand, and the values of
    the other cards add up to deadwood."""
    seen = set()
    for m in melds:
        m = list(m)
        assert ref.is_meld(m), "not a meld: %s" % hand_text(m)
        for c in m:
            assert c in hand, "%s not in hand" % ref.card_text(c)
            assert c not in seen, "%s in two melds" % ref.card_text(c)
            seen.add(c)
    assert ref.deadwood_of(c for c in hand if c not in seen) == deadwood


def call_best_melds(hand):
    dw, melds = engine.best_melds(list(hand))
    return dw, [list(m) for m in melds]


# ---------------------------------------------------------------- R1 notation

def test_card_notation_round_trips():
    for c in range(52):
        assert engine.card(ref.card_text(c)) == c
        assert engine.card_text(c) == ref.card_text(c)


def test_card_rejects_bad_text():
    for bad in ["", "T", "1s", "Tx", "10s", "Tdd", "xx"]:
        try:
            engine.card(bad)
        except ValueError:
            pass
        else:
            raise AssertionError("card(%r) accepted" % bad)


# ---------------------------------------------------------------- R5 melds

@SLOW
@given(hand=some_hand(0, 11))
@example(hand=cards("7s 7h 7d 7c 6h 8h"))
@example(hand=cards("7s 7h 7d 7c 5h 6h"))
@example(hand=cards("3h 4h 5h 6h 6s 6d"))
@example(hand=cards("5s 6s 7s 8s 6h 6d 8h 8d"))
@example(hand=cards("7s 8s 9s 7h 8h 9h 7d 8d 9d"))
@example(hand=cards("As 2s 3s Ah Ad 2h 2d 3h 3d Kc Qc"))
@example(hand=cards("Qh Kh Ah 2h 3h"))
@example(hand=cards("Jh Qh Kh Js Jd Ks Kd"))
@example(hand=cards("4s 5s 6s 7s 8s 9s Ts 7h 7d 4h 4d"))
@example(hand=cards("2c 3c 4c 5c 5s 5h 5d 6c 7c 8c 8d"))
@example(hand=[])
def test_best_melds_matches_brute_force(hand):
    dw, melds = call_best_melds(hand)
    assert dw == ref.min_deadwood(hand), hand_text(hand)
    check_arrangement(hand, melds, dw)


@SLOW
@given(hand=dense_hand(8, 11))
def test_best_melds_dense_hands(hand):
    dw, melds = call_best_melds(hand)
    assert dw == ref.min_deadwood(hand), hand_text(hand)
    check_arrangement(hand, melds, dw)


@SLOW
@given(hand=some_hand(0, 11))
def test_best_melds_ignores_input_order(hand):
    a = call_best_melds(hand)[0]
    b = call_best_melds(list(reversed(hand)))[0]
    c = call_best_melds(sorted(hand))[0]
    assert a == b == c


# ---------------------------------------------------------------- discard

@SLOW
@given(hand=some_hand(11, 11), data=st.data())
@example(hand=cards("7s 7h 7d 7c 2s 3s 4s 9c Tc Jc Qc"), data=None)
@example(hand=cards("7s 8s 9s 2h 3h 4h 5d 6d 7d Kc Qd"), data=None)
@example(hand=cards("7s 8s 9s 2h 3h 4h 5d 6d 7d Ks Kh"), data=None)
@example(hand=cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js"), data=None)
@example(hand=cards("Ah Ad Ac As 2h 3h 2d 3d 5c 5s 9h"), data=None)
def test_best_discard_matches_brute_force(hand, data):
    forbidden = None
    if data is not None and data.draw(st.booleans(), label="forbid"):
        forbidden = data.draw(st.sampled_from(hand), label="forbidden")
    if forbidden is None:
        got = engine.best_discard(list(hand))
    else:
        got = engine.best_discard(list(hand), forbidden)
    want = ref.best_discard(hand, forbidden)
    assert (got[0], got[1]) == want, (
        "%s forbidden %s: got %s %s want %s %s" % (
            hand_text(hand),
            "-" if forbidden is None else ref.card_text(forbidden),
            got[0], ref.card_text(got[1]), want[0], ref.card_text(want[1])))
    assert got[1] in hand and got[1] != forbidden


@SLOW
@given(hand=some_hand(11, 11))
def test_best_discard_forbidding_the_best_card(hand):
    """R4: forbid the card the free choice would discard."""
    _, free = engine.best_discard(list(hand))
    got = engine.best_discard(list(hand), free)
    assert (got[0], got[1]) == ref.best_discard(hand, free)


# ---------------------------------------------------------------- settle

def check_settle(knocker, defender):
    want = ref.settle(knocker, defender)
    out = engine.settle(list(knocker), list(defender))
    label = "knocker %s / defender %s: got %s %s %s k=%s d=%s, want %r" % (
        hand_text(knocker), hand_text(defender), out.kind, out.winner,
        out.points, out.knocker_deadwood, out.defender_deadwood, want)
    event("kind %s" % want.kind)
    assert out.kind == want.kind, label
    assert out.winner == want.winner, label
    assert out.points == want.points, label
    assert out.knocker_deadwood == want.knocker_deadwood, label
    assert out.defender_deadwood == want.defender_deadwood, label

    kmelds = [list(m) for m in out.knocker_melds]
    dmelds = [list(m) for m in out.defender_melds]
    # R8: the knocker's shown melds are one of its lowest arrangements
    check_arrangement(knocker, kmelds, want.knocker_deadwood)
    # R9: the defender's melds are one of its lowest arrangements
    low_d = ref.min_deadwood(defender)
    check_arrangement(defender, dmelds, low_d)
    d_dead = ref.unmelded(defender, dmelds)

    layoffs = list(out.layoffs)
    if want.kind == "gin":
        assert layoffs == [], label
        assert out.defender_deadwood == low_d
        return
    # layoffs are legal applied in turn, only of the defender's deadwood
    grown = [list(m) for m in kmelds]
    laid = set()
    for c, i in layoffs:
        assert c in d_dead and c not in laid, label
        assert 0 <= i < len(grown), label
        assert ref.can_lay_off(c, grown[i]), "%s onto %s: %s" % (
            ref.card_text(c), hand_text(grown[i]), label)
        grown[i].append(c)
        laid.add(c)
    event("layoffs %d" % min(len(laid), 3))
    final = ref.deadwood_of(c for c in d_dead if c not in laid)
    assert final == out.defender_deadwood, label
    # the layoffs are the best ones for the arrangements shown (R9) ...
    assert ref.lowest_after_layoffs(kmelds, d_dead) == final, label
    # ... the defender's arrangement is its best against these melds (R9)
    _, d_arrs = ref.best_arrangements(defender)
    assert ref.defender_final(kmelds, defender, d_arrs) == final, label


@SLOW
@given(hand=some_hand(0, 11))
def test_best_arrangements_are_the_lowest_of_every_set_choice(hand):
    # best_arrangements builds only the lowest choices' melds: the same as
    # listing every choice and keeping the lowest (R5, R8)
    from engine.melds import arrangements, best_arrangements, masks_of
    m = masks_of(hand)
    alls = arrangements(m)
    low = min(a[0] for a in alls)
    assert best_arrangements(m) == (low, [a[1] for a in alls if a[0] == low])
    assert low == ref.min_deadwood(hand)


@SLOW
@given(hands=showdown())
@example(hands=(cards("7s 8s 9s 7h 8h 9h 7d 8d 9d Ac"),
                cards("6s Ts 6h Th 7c Kc Qd Jd 2c 4d")))
@example(hands=(cards("7s 8s 9s 7h 8h 9h 7d 8d 9d Ac"),
                cards("7c 9c Kc Qd Jh 2c 4d 5h 3s Ad")))
@example(hands=(cards("Js Jd Jc 2c 3c 4c 5d 6d 7d As"),
                cards("Th Jh Qh Ts Td 9c Kd 2h 5s 8d")))
@example(hands=(cards("5h 6h 7h 2c 3c 4c Ks Kd Kc 3s"),
                cards("8h 9h 4h Qs Qd 2d 6c 7c Ts 9s")))
@example(hands=(cards("8h 9h Th 2c 3c 4c Ks Kd Kc 5s"),
                cards("7c 7d 7h 7s 6h 2d 4d Jd Qs Ad")))
@example(hands=(cards("As 2s 3s 4s 5h 6h 7h 9c 9d 9s"),
                cards("Ah 2h 3h Kd Qd Jd Tc Jc Qc 5s")))
@example(hands=(cards("As 2s 3s 4s 5h 6h 7h 9c 9d 9s"),
                cards("Kh Qh Jh Kd Qd Jd Tc Jc Qc Ks")))
@example(hands=(cards("As 2s 3s 4h 5h 6h 7c 8c 9c 2d"),
                cards("Ad 3d Ac 2c 3c 4c 5c 6c Ah 2h")))
@example(hands=(cards("7s 7h 7d 7c 6h 8h 2s 3s 4s Ad"),
                cards("9h Th 5h 4h Kc Qc 2d 3d 8s 9s")))
def test_settle_matches_brute_force(hands):
    knocker, defender = hands
    check_settle(knocker, defender)


@SLOW
@given(knocker=melded_cards(10, low=False), data=st.data())
def test_settle_gin_and_knock_limit(knocker, data):
    """R6/R7: over 10 is refused, 0 is gin; agree with the brute force."""
    rest = [c for c in ALL if c not in knocker]
    defender = data.draw(st.lists(st.sampled_from(rest), unique=True,
                                  min_size=10, max_size=10))
    if ref.min_deadwood(knocker) > 10:
        raised = False
        try:
            engine.settle(list(knocker), list(defender))
        except ValueError:
            raised = True
        assert raised, "knock allowed on %s" % hand_text(knocker)
    else:
        check_settle(knocker, defender)


def expect_value_error(knocker, defender):
    try:
        engine.settle(knocker, defender)
    except ValueError:
        return
    raise AssertionError("settle accepted %r / %r" % (knocker, defender))


@SLOW
@given(hands=showdown(), data=st.data())
def test_settle_rejects_bad_hands(hands, data):
    knocker, defender = list(hands[0]), list(hands[1])
    what = data.draw(st.sampled_from(
        ["dup_k", "dup_d", "short_k", "short_d", "long_k", "long_d",
         "shared"]))
    i = data.draw(st.integers(0, 9))
    j = (i + 1 + data.draw(st.integers(0, 8))) % 10
    spare = [c for c in ALL if c not in knocker and c not in defender]
    if what == "dup_k":
        knocker[j] = knocker[i]
    elif what == "dup_d":
        defender[j] = defender[i]
    elif what == "short_k":
        del knocker[i]
    elif what == "short_d":
        del defender[i]
    elif what == "long_k":
        knocker.append(spare[0])
    elif what == "long_d":
        defender.append(spare[0])
    else:
        defender[j] = knocker[i]
    expect_value_error(knocker, defender)


# ---------------------------------------------------------------- regressions

def test_four_set_overlapping_run_is_split():
    dw, melds = call_best_melds(cards("7s 7h 7d 7c 6h 8h"))
    assert dw == 0
    check_arrangement(cards("7s 7h 7d 7c 6h 8h"), melds, 0)


def test_queen_king_ace_is_no_run():
    assert call_best_melds(cards("Qh Kh Ah"))[0] == 21
    assert call_best_melds(cards("Ah 2h 3h"))[0] == 0


def test_discard_tie_prefers_higher_value_then_lower_card():
    hand = cards("7s 7h 7d 7c 2s 3s 4s 9c Tc Jc Qc")
    assert tuple(engine.best_discard(hand)) == (0, ref.card("Qc"))
    assert tuple(engine.best_discard(hand, ref.card("Qc"))) == (
        0, ref.card("9c"))
    hand = cards("7s 8s 9s 2h 3h 4h 5d 6d 7d Kc Qd")
    assert tuple(engine.best_discard(hand)) == (10, ref.card("Qd"))


def test_knocker_shows_melds_worst_for_defender():
    # R8: sets 777 888 999 leave the defender only 7c to lay off; runs
    # would take 6s Ts 6h Th.
    out = engine.settle(cards("7s 8s 9s 7h 8h 9h 7d 8d 9d Ac"),
                        cards("6s Ts 6h Th 7c Kc Qd Jd 2c 4d"))
    assert (out.kind, out.winner, out.points, out.defender_deadwood) == (
        "knock", "knocker", 67, 68)


def test_knocker_shows_runs_when_sets_would_take_layoffs():
    # R8: sets would take 7c and 9c; the runs take nothing.
    out = engine.settle(cards("7s 8s 9s 7h 8h 9h 7d 8d 9d Ac"),
                        cards("7c 9c Kc Qd Jh 2c 4d 5h 3s Ad"))
    assert (out.kind, out.points, out.defender_deadwood) == ("knock", 60, 61)
    assert out.layoffs == []


def test_defender_picks_arrangement_best_after_layoffs():
    # R9: Th Ts Td (laying Jh on the jacks) beats Th Jh Qh, same deadwood.
    out = engine.settle(cards("Js Jd Jc 2c 3c 4c 5d 6d 7d As"),
                        cards("Th Jh Qh Ts Td 9c Kd 2h 5s 8d"))
    assert (out.kind, out.points, out.defender_deadwood) == ("knock", 35, 36)


def test_four_set_stays_and_six_is_deadwood():
    # R9 text: the four 7s are the defender's meld; 6h stays deadwood.
    out = engine.settle(cards("8h 9h Th 2c 3c 4c Ks Kd Kc 5s"),
                        cards("7c 7d 7h 7s 6h 2d 4d Jd Qs Ad"))
    assert (out.kind, out.points, out.defender_deadwood) == ("knock", 28, 33)
