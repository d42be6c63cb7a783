"""The engine's public API on bad input, and rules and views that cannot
hurt the game later. Plain functions: they run on CPython and both
MicroPython ports, and must give the same answers on all three."""
from engine import (Match, Rules, CARDEMS, View, best_discard, best_melds, card,
                    card_text, cards, cards_text, deck_for, dumps, loads, settle,
                    value, action_code, action_text, replay)
from engine.hand import Hand
from scenario import raises


def test_r1_card_notation_is_exact_rank_upper_suit_lower():
    for bad in ("as", "AS", "aS", "tD", "kc", " As", "As "):
        assert repr(bad) in raises(ValueError, card, bad), bad
    assert card("As") == 0 and card("Td") == 35


def test_wrong_types_raise_value_errors_naming_the_input():
    assert "None" in raises(ValueError, best_melds, None)
    assert "None" in raises(ValueError, best_discard, None)
    assert "None" in raises(ValueError, settle, None, cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts"))
    assert "0" in raises(ValueError, cards, 0)
    assert "None" in raises(ValueError, card, None)
    assert "None" in raises(ValueError, action_code, None)
    assert "300" in raises(ValueError, action_text, 300)
    assert "3" in raises(ValueError, action_text, 3)
    assert "hello" in raises(ValueError, replay, b"hello")
    assert "'x'" in raises(ValueError, best_melds, ["x"])
    assert "'7'" in raises(ValueError, cards_text, "7")
    assert "None" in raises(ValueError, dumps, None)
    assert "'cardems'" in raises(ValueError, Match, "cardems")


def test_bools_are_not_cards_on_any_runtime():
    # CPython counts True as 1; MicroPython does not: both refuse it.
    assert "True" in raises(ValueError, card_text, True)
    assert "False" in raises(ValueError, value, False)
    assert "True" in raises(ValueError, best_melds, [True, 2, 3])
    assert "True" in raises(ValueError, Match, CARDEMS, True)


def test_r1_value_refuses_what_is_not_a_card():
    assert "-1" in raises(ValueError, value, -1)
    assert "52" in raises(ValueError, value, 52)
    assert value(0) == 1 and value(51) == 10


def test_rules_numbers_are_plain_digits_on_every_runtime():
    for bad in ("target=1_0", "target=+5", "target=05", "target=-5", "target=", "target=1e3"):
        raises(ValueError, Rules.from_text, "cardems " + bad)
    assert Rules.from_text("cardems target=250").target == 250
    assert "twice" in raises(ValueError, Rules.from_text, "cardems target=50 target=60")


def test_r10_bonuses_are_bounded():
    # A -1000 gin bonus would score a gin -985 and push scores below zero.
    for field in ("gin_bonus", "undercut_bonus"):
        raises(ValueError, Rules.from_text, "cardems %s=1000" % field)
        raises(ValueError, Match, CARDEMS.copy(**{field: -1000}))
        raises(ValueError, Match, CARDEMS.copy(**{field: True}))


def test_a_rules_name_is_short_and_plain():
    raises(ValueError, Rules.from_text, "x" * 130)
    raises(ValueError, Rules.from_text, "Cardems")
    raises(ValueError, Match, CARDEMS.copy(name="a b"))
    assert Rules.from_text("my-rules_2").name == "my-rules_2"


def test_every_rules_line_accepted_can_be_saved_and_loaded_again():
    widest = Rules.from_text("x" * 16 + " knock_limit=100 gin_bonus=100 undercut_bonus=100"
                             " target=10000 stop_at=30 max_pile_turns=1000 first=alternate"
                             " upcard_offer=1 oklahoma=1 match_bonus=1")
    m = Match(widest, 5)
    assert dumps(loads(dumps(m))) == dumps(m)


def _same_public_state_other_hidden_cards(seed):
    """Two matches whose seat-0 view shows the same cards but whose hidden
    cards (the opponent's hand, the stock order) and deal numbers differ."""
    a = Match(CARDEMS, seed)
    deck = deck_for(a.hand.deal)
    hidden = list(deck[10:20]) + list(deck[21:52])
    hidden = hidden[7:] + hidden[:7]
    other = bytearray(list(deck[0:10]) + hidden[:10] + [deck[20]] + hidden[10:])
    b = Match(CARDEMS, seed)
    b.hands[-1] = Hand(CARDEMS, other, 0, (a.hand.deal + 12345) % (1 << 30))
    assert a.hand.cards_of(1) != b.hand.cards_of(1)
    return a, b


def _public(view):
    out = []
    for name in dir(view):
        if name.startswith("_"):
            continue
        v = getattr(view, name)
        if callable(v):
            continue
        if isinstance(v, (bytes, bytearray)):
            v = bytes(v)
        out.append((name, v))
    return out


def test_the_view_holds_nothing_that_determines_hidden_cards():
    """Same visible cards, other hidden cards and deal number: every public
    field of the player's view is the same (the deal number shuffles the
    whole deck, so a view that held it would give the opponent's hand)."""
    for seed in (1, 2, 3):
        a, b = _same_public_state_other_hidden_cards(seed)
        for acts in ((), ("draw_upcard",)):
            for x in acts:
                assert a.act(x) is None and b.act(x) is None
            va, vb = View(a, 0), View(b, 0)
            assert _public(va) == _public(vb), seed
            assert not hasattr(va, "deal")


def test_a_view_is_of_seat_0_or_1():
    m = Match(CARDEMS, 1)
    raises(ValueError, View, m, 2)
    raises(ValueError, View, m, True)


def test_the_fingerprint_is_a_fixed_24_bit_check_of_the_deal():
    from engine import fingerprint
    assert fingerprint(0) == 0x64AE24 and fingerprint(987654321) == 0x704C02
    seen = {}
    for d in range(0, 1 << 30, 7919 * 4093):
        f = fingerprint(d)
        assert 0 <= f < 1 << 24
        seen[f] = 1
    assert len(seen) > 30
    raises(ValueError, fingerprint, 1 << 30)
    raises(ValueError, fingerprint, True)
