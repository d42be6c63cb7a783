"""The AI (engine/ai/) under the rule variants V1-V5: it plays each
variant's rules, not only legally but where the variant decides the move.

The AI reads the hand's knock limit from the view (V2, V5) and the phase
(V1's offer, the stock-only draw after both passed); it reads nothing else
of the rules: not V3's stop, not V4's bonuses, not the match target. The
positions below are ones where that matters or would matter if knock timing
came to depend on the stock count: on the last turn before V3's stop a
discard ends the hand as a 0-point draw, so a low knock must be taken.

Portable: plain functions and asserts, run by pytest on CPython and by
host_tests/runner.py on the MicroPython unix and WebAssembly ports.
"""
from engine import Match, Hand, CARDEMS, PRESETS, cards, card_text
from engine.ai import Player, LEVELS
from scenario import deck, play

# Seat 0: As-2s-3s, 8h-9h-Th, 4d-5d-6d and the Kc (a 7d makes gin, a 2d
# leaves 2 deadwood after the Kc goes). Seat 1: 7s 7h, 2c-3c-4c, loose cards.
SEAT0 = "As 2s 3s 8h 9h Th 4d 5d 6d Kc"
SEAT1 = "7s 7h 2c 3c 4c Ks Qh Jd 9d 5s"

OFFER = CARDEMS.copy(name="custom", upcard_offer=True)            # V1
OKLAHOMA_ONLY = CARDEMS.copy(name="custom", oklahoma=True)        # V2
STOP = CARDEMS.copy(name="custom", stop_at=2)                     # V3


def match_of(rules, seat0, seat1, upcard, stock_top_first="", first=0):
    """A match of `rules` whose current hand deals the cards given, `first`
    to play."""
    m = Match(rules, 1)
    m.hands[-1] = Hand(rules, deck(seat0, seat1, upcard, stock_top_first), first)
    return m


def fillers(n, *taken_texts):
    """n cards in card order, none of those named: stock cards to burn."""
    taken = []
    for t in taken_texts:
        taken.extend(cards(t))
    out = []
    for c in range(52):
        if c not in taken:
            out.append(card_text(c))
            if len(out) == n:
                break
    assert len(out) == n
    return " ".join(out)


def burn_stock(m, draws):
    """Both seats draw from the stock and throw the card drawn straight
    back, `draws` times in all (the hands do not change)."""
    for _ in range(draws):
        h = m.hand
        before = h.cards_of(h.turn)
        play(m, "draw_stock")
        new = [c for c in h.cards_of(h.turn) if c not in before]
        play(m, "discard:" + card_text(new[0]))


# -- V1 upcard offer -------------------------------------------------------------

def test_v1_second_player_takes_an_offered_upcard_that_makes_a_set():
    m = match_of(OFFER, SEAT0, SEAT1, "7d")
    play(m, "pass")
    assert m.phase == "first_upcard" and m.to_move == 1
    for lv in LEVELS:
        assert Player(lv).choose(m.view(1)) == "draw_upcard", lv


def test_v1_first_player_passes_a_useless_upcard_then_draws_from_the_stock():
    # The Tc helps seat 1 nowhere: pass it; after both passed, only the
    # stock may be drawn.
    m = match_of(OFFER, SEAT0, SEAT1, "Tc", first=1)
    assert m.phase == "first_upcard" and m.to_move == 1
    for lv in LEVELS:
        assert Player(lv).choose(m.view(1)) == "pass", lv
    play(m, "pass", "pass")
    assert m.phase == "draw" and m.to_move == 1
    for lv in LEVELS:
        assert Player(lv).choose(m.view(1)) == "draw_stock", lv


def test_v1_offer_taken_then_gin_at_once():
    # Seat 0 is offered the 7d: taking it gives gin (Kc out) on turn one.
    m = match_of(OFFER, SEAT0, SEAT1, "7d")
    for lv in LEVELS:
        assert Player(lv).choose(m.view(0)) == "draw_upcard", lv
    play(m, "draw_upcard")
    for lv in LEVELS:
        assert Player(lv).choose(m.view(0)) == "knock:Kc", lv


# -- V2 Oklahoma -------------------------------------------------------------------

def test_v2_ace_upcard_gin_only_the_ai_discards_with_two_deadwood():
    m = match_of(OKLAHOMA_ONLY, SEAT0, SEAT1, "Ac", "2d")
    assert m.hand.knock_limit == 0
    play(m, "draw_stock")                  # 2 deadwood once the Kc goes
    for lv in LEVELS:
        a = Player(lv).choose(m.view(0))
        assert a.startswith("discard:"), (lv, a)
        assert a in m.legal(), (lv, a)


def test_v2_ace_upcard_gin_still_knocks():
    m = match_of(OKLAHOMA_ONLY, SEAT0, SEAT1, "Ac", "7d")
    play(m, "draw_stock")
    for lv in LEVELS:
        assert Player(lv).choose(m.view(0)) == "knock:Kc", lv


def test_v2_upcard_value_is_the_limit_the_ai_knocks_within_it():
    # A 2 upcard: knock limit 2; seat 0 holds 2 deadwood after the Kc.
    m = match_of(OKLAHOMA_ONLY, SEAT0, SEAT1, "2h", "2d")
    assert m.hand.knock_limit == 2
    play(m, "draw_stock")
    for lv in LEVELS:
        a = Player(lv).choose(m.view(0))
        assert a in m.legal(), (lv, a)


# -- V3 two-card stop --------------------------------------------------------------

def _last_turn_before_the_stop(rules, left):
    """Seat 0 to discard with `left` stock cards after drawing the 2d (2
    deadwood once the Kc goes): a normal discard now ends the hand."""
    n = 31 - left - 1                      # stock cards burnt before the 2d
    filler = fillers(n, SEAT0, SEAT1, "Qc 2d")
    m = match_of(rules, SEAT0, SEAT1, "Qc", filler + " 2d")
    burn_stock(m, n)
    assert m.to_move == 0 and m.hand.stock_n == left + 1
    play(m, "draw_stock")
    assert m.hand.stock_n == left
    return m


def _last_turn_knocks(m):
    """On the last turn, playing on is a drawn hand (0 points): easy and
    normal knock; hard knocks exactly when the knock is worth more than
    nothing, which it is against an opponent that knocks as soon as it can
    (it has not knocked: its deadwood is above the limit)."""
    for lv in ("easy", "normal"):
        assert Player(lv).choose(m.view(0)) == "knock:Kc", lv
    p = Player("hard")
    a = p.choose(m.view(0))
    assert a in ("knock:Kc", "discard:Kc"), a
    assert (a == "knock:Kc") == (p.knock.ek > 0), (a, p.knock.ek)
    p = Player("hard")
    w = [0] * len(p.habit.w)
    w[len(w) - 1] = sum(p.habit.prior)
    p.habit.fix(w)
    p.habit.learn = lambda view, me: None
    assert p.choose(m.view(0)) == "knock:Kc", p.knock.ek


def test_v3_knocks_on_the_last_turn_before_the_two_card_stop():
    m = _last_turn_before_the_stop(STOP, 2)
    assert "knock:Kc" in m.legal()
    _last_turn_knocks(m)


def test_r11_knocks_on_the_last_turn_before_the_stock_runs_out():
    _last_turn_knocks(_last_turn_before_the_stop(CARDEMS, 0))


# -- every preset, whole matches ------------------------------------------------------

def test_every_preset_short_match_legal_moves_only():
    for rules in PRESETS:
        r = rules.copy(target=30, first="alternate")
        m = Match(r, 3)
        ps = (Player("hard", 3), Player("easy", 4))
        steps = 0
        while m.phase != "match_over":
            if m.phase == "hand_over":
                m.next_hand()
                continue
            s = m.to_move
            a = ps[s].choose(m.view(s))
            assert m.act(a) is None, "%s: %s refused" % (r.name, a)
            steps += 1
            assert steps < 5000
