"""tools/ailab/openspiel_adapter.py: our side playing OpenSpiel's gin_rummy.

Needs pyspiel (PyPI open-spiel, requirements-bench.txt, arena-only): the
whole module is skipped when it is not installed, as in `make test`.
"""
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="pyspiel (open-spiel, requirements-bench.txt) is not "
    "installed; the OpenSpiel adapter is arena-only")

import engine  # noqa: E402
from engine.cards import card, card_text  # noqa: E402
from tools.ailab import openspiel_adapter as osa  # noqa: E402


def simple_choose(obs):
    """A plain greedy player: take the upcard when it joins a meld, discard
    the card leaving the lowest deadwood, knock whenever possible."""
    legal = obs["legal"]
    hand = [card(c) for c in obs["hand"]]
    if obs["phase"] in ("first_upcard", "draw"):
        if "draw_upcard" in legal:
            up = card(obs["upcard"])
            dw, melds = engine.best_melds(hand + [up]) if len(hand) < 11 else (0, [])
            if any(up in ml for ml in melds):
                return "draw_upcard"
        return "draw_stock" if "draw_stock" in legal else "pass"
    best = None
    for a in legal:
        c = card(a.split(":")[1])
        dw = engine.best_melds([x for x in hand if x != c])[0]
        key = (0 if a.startswith("knock:") else 1, dw, -engine.value(c), c)
        if best is None or key < best[0]:
            best = (key, a)
    return best[1]


def checked(choose, seen):
    """Wrap a chooser: check the obs shape and that it is asked only when it
    has a choice; remember the obs."""
    def f(obs):
        assert set(obs) == {"seat", "phase", "hand", "upcard", "discard_pile",
                            "opponent_known", "stock_size", "knock_card",
                            "deadwood", "moves", "legal", "scores", "target",
                            "rules", "history"}
        # the game's rules as ours: the upcard offer and the two-card wall
        r = engine.Rules.from_text(obs["rules"])
        assert r.stop_at == 2 and r.upcard_offer and r.target == obs["target"]
        assert isinstance(obs["history"], list)
        for h in obs["history"]:
            assert set(h) >= {"moves", "knocker", "knock_card"}
        assert obs["phase"] in ("first_upcard", "draw", "discard")
        n = len(obs["hand"])
        assert n == (11 if obs["phase"] == "discard" else 10)
        assert len(obs["legal"]) > 1
        assert obs["knock_card"] == 10
        for c in obs["hand"]:
            assert card_text(card(c)) == c
        for seat, mv in obs["moves"]:
            assert seat in (0, 1) and isinstance(mv, str)
        seen.append(obs)
        return choose(obs)
    return f


def test_card_mapping_matches_openspiel_card_strings():
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    for c in range(52):
        assert utils.card_string(osa.to_os(c)) == card_text(c)
        assert osa.from_os(osa.to_os(c)) == c
    assert sorted(osa.to_os(c) for c in range(52)) == list(range(52))


def test_action_numbers():
    g = pyspiel.gin_rummy
    assert (g.DRAW_UPCARD_ACTION, g.DRAW_STOCK_ACTION, g.PASS_ACTION,
            g.KNOCK_ACTION, g.MELD_ACTION_BASE) == (
        osa.DRAW_UPCARD, osa.DRAW_STOCK, osa.PASS, osa.KNOCK, osa.MELD_BASE)


def test_long_runs_are_declared_in_pieces():
    run = engine.cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts")
    pieces = osa._split_runs(run)
    assert sorted(c for p in pieces for c in p) == sorted(run)
    assert all(3 <= len(p) <= 5 for p in pieces)
    four = engine.cards("7s 7h 7d 7c")
    assert osa._split_runs(four) == [four]


def test_deal_follows_our_deck_order():
    deck = engine.deck_for(12345)
    state = osa._game()[0].new_initial_state()
    for c in deck[:21]:
        state.apply_action(osa.to_os(c))
    assert osa._hand_of(state, 0) == sorted(deck[:10])
    assert osa._hand_of(state, 1) == sorted(deck[10:20])
    assert osa.from_os(state.upcard()) == deck[20]
    assert state.stock_size() == 31


@pytest.mark.parametrize("seat", [0, 1])
def test_match_reaches_target_and_is_reproducible(seat):
    seen = []
    a = osa.play_match(checked(simple_choose, seen), 7, seat, target=100,
                       strict=True)
    b = osa.play_match(simple_choose, 7, seat, target=100, strict=True)
    for k in ("winner", "scores", "hands", "hands_won", "gins", "undercuts",
              "knocks", "hand_returns"):
        assert a[k] == b[k]
    assert a["illegal"] == 0
    assert max(a["scores"]) >= 100 and min(a["scores"]) < 100
    assert a["winner"] == ("ours" if a["scores"][0] >= 100 else "bot")
    assert a["scores"] == [sum(r for r in a["hand_returns"] if r > 0),
                           -sum(r for r in a["hand_returns"] if r < 0)]
    assert a["hands"] == len(a["hand_returns"])
    assert sum(a["hands_won"]) + a["knock_ties"] + a["draws"] == a["hands"]
    assert len(a["decision_times"]) == len(seen) > 0
    assert all(o["seat"] == seat for o in seen)
    assert {o["phase"] for o in seen} >= {"draw", "discard"}


def test_both_seats_get_the_same_deals():
    games = []
    for seat in (0, 1):
        first = []
        def choose(obs, first=first):
            if not obs["moves"] or len(first) == 0:
                first.append((obs["phase"], sorted(obs["hand"]), obs["upcard"]))
            return simple_choose(obs)
        osa.play_match(choose, 99, seat, target=1, strict=True)
        games.append(first)
    # Seat 0 is offered the upcard with deck[0:10]; seat 1 holds deck[10:20].
    deck = engine.deck_for(engine.Rng(99).seed30())
    assert games[0][0] == ("first_upcard", sorted(card_text(c) for c in deck[:10]),
                           card_text(deck[20]))
    assert games[1][0][1] == sorted(card_text(c) for c in deck[10:20])


def test_knock_is_knock_then_discard_and_melds_are_declared():
    """'knock:Kc' is OpenSpiel's Knock then the Kc; our melds are declared
    (the 6-card run in pieces) and the hand is scored from the deadwoods."""
    p0 = engine.cards("As 2s 3s 4s 5s 6s 7d 8d 9d 5c")
    p1 = engine.cards("Kh Qh Jc 9c 8h 6h 4d 2c Kd Qc")
    rest = [c for c in range(52) if c not in p0 + p1]
    knocked = []
    end = []

    def choose(obs):
        if obs["phase"] == "discard":
            assert "knock:5c" in obs["legal"]
            knocked.append(obs)
            return "knock:5c"
        return "draw_stock" if "draw_stock" in obs["legal"] else "pass"
    ret, st = osa.play_hand(p0 + p1 + rest, 0, choose, strict=True,
                            on_end=lambda state, moves: end.append((state, moves)))
    state, moves = end[0]
    assert knocked and state.knocked()[0]
    assert moves[:3] == [[0, "pass"], [1, "pass"], [0, "draw_stock"]]
    assert moves[-1] == [0, "knock:5c"]
    utils = osa._game()[1]
    declared = sorted(sorted(osa.from_os(a) for a in utils.int_to_meld[m])
                      for m in state.layed_melds()[0])
    # As..6s is one run for us; OpenSpiel declares runs of at most 5 cards.
    assert declared == sorted([engine.cards("As 2s 3s"), engine.cards("4s 5s 6s"),
                               engine.cards("7d 8d 9d")])
    assert osa._hand_of(state, 0) == engine.cards("Kc")   # the card drawn
    dw = state.deadwood()
    assert dw[0] == 10
    assert ret == (dw[1] - 10 if dw[1] > 10 else dw[1] - 10 - 25 if dw[1] < 10 else 0)
    assert st["knocks"][0] == 1 and st["gins"][0] == 0


def test_defender_layoffs_are_optimal():
    """Defending, our side lays off whatever lowers its final deadwood, even
    a card of its own set (OpenSpiel allows it, unlike our R9)."""
    game, utils = osa._game()
    # Player 0 (knocker): 8h 9h Th, Js Jc Jd, 2s 3s 4s, Ah + any discard.
    # Player 1 (defender): 7h 7s 7d 7c 6h + junk.
    p0 = engine.cards("8h 9h Th Js Jc Jd 2s 3s 4s Ah")
    p1 = engine.cards("7h 7s 7d 7c 6h Ks Qd Kd Qc 9c")
    rest = [c for c in range(52) if c not in p0 + p1]
    state = game.new_initial_state()
    for c in p0 + p1 + rest[:1]:
        state.apply_action(osa.to_os(c))
    state.apply_action(osa.PASS)
    state.apply_action(osa.PASS)
    state.apply_action(osa.DRAW_STOCK)
    state.apply_action(osa.to_os(rest[-1]))      # the stock card drawn
    assert state.legal_actions()[-1] == osa.KNOCK
    drawn = rest[-1]
    state.apply_action(osa.KNOCK)
    state.apply_action(osa.to_os(drawn))         # discard what was drawn
    osa._declare_melds(state, 0, utils)
    assert state.current_player() == 1
    osa._defend(state, 1, utils)
    assert state.is_terminal()
    # 7h and 6h went onto 8h-9h-Th; 7s 7d 7c stay a set; junk 10+10+10+10+9.
    assert sorted(osa.from_os(a) for a in state.layoffs()) == engine.cards("6h 7h")
    assert state.deadwood()[1] == 49
    assert state.deadwood()[0] == 1


def test_run_summary_and_format():
    s = osa.summarize([
        osa.play_match(simple_choose, sd, seat, target=30, strict=True)
        for sd, seat in osa.match_plan(4, 3)])
    assert s["matches"] == 4
    assert s["by_seat"][0][1] == s["by_seat"][1][1] == 2
    lo, hi = s["match_ci"]
    assert 0 <= lo <= s["match_win_rate"] <= hi <= 1
    text = osa.format_summary(s)
    assert "matches won" in text and "95% CI" in text


def test_wilson():
    lo, hi = osa.wilson(75, 100)
    assert abs(lo - 0.657) < 0.002 and abs(hi - 0.825) < 0.002
    assert osa.wilson(0, 0) == (0.0, 1.0)


def test_wall_offers_pass_or_take_to_knock_and_defender_is_automatic():
    """Two stock cards left after a discard: the next player may pass (a
    0-point draw) or take the upcard to knock, then only knocks are legal."""
    game, utils = osa._game()
    # Player 1 holds 10 deadwood in a 9-card meld frame; nobody knocks
    # before the wall: both draw from the stock and throw the drawn card.
    p0 = engine.cards("Ks Qh Jd 9c 8s 6h 4d 2c Kd Qc")
    p1 = engine.cards("As 2s 3s 4h 5h 6h 7d 8d 9d Kc")
    rest = [c for c in range(52) if c not in p0 + p1]
    deck = p0 + p1 + rest
    prev = {}
    seen = []

    def choose(obs):
        seen.append(obs)
        seat = obs["seat"]
        if obs["phase"] == "first_upcard":
            return "pass"
        if obs["phase"] == "draw":
            prev[seat] = set(obs["hand"])
            if obs["stock_size"] == 2 and "draw_upcard" in obs["legal"]:
                return "draw_upcard"
            return "draw_stock"
        new = [c for c in obs["hand"] if c not in prev.get(seat, ())]
        if obs["legal"][0].startswith("knock:"):
            return obs["legal"][0]
        return "discard:" + new[0]

    state = game.new_initial_state()
    stock = list(deck[21:])
    moves = []
    refused = [0]
    for c in deck[:21]:
        state.apply_action(osa.to_os(c))
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(osa.to_os(stock.pop()))
            continue
        osa._our_turn(state, state.current_player(), choose, moves, [0, 0],
                      utils, [], True, refused)
    wall = [o for o in seen if o["stock_size"] == 2 and o["phase"] == "draw"]
    assert len(wall) == 1 and wall[0]["seat"] == 1
    assert wall[0]["legal"] == ["pass", "draw_upcard"]
    after = seen[-1]
    assert after["phase"] == "discard" and len(after["hand"]) == 11
    assert all(a.startswith("knock:") for a in after["legal"])
    assert [m[1].split(":")[0] for m in moves[-2:]] == ["draw_upcard", "knock"]
    assert moves[-2][0] == moves[-1][0] == 1
    assert state.knocked()[1] and not state.knocked()[0]
    ret = state.returns()
    assert ret[0] == -ret[1] and ret[1] > 0


def test_translations_of_our_words():
    table = {"pass": [osa.PASS], "draw_upcard": [osa.KNOCK]}
    assert osa._translate("draw_stock", "wall", table) == "pass"
    assert osa._translate("draw_upcard:Qs", "wall", table) == "draw_upcard"
    table = {"knock:Td": [5]}
    assert osa._translate("discard:Td", "knock", table) == "knock:Td"
    table = {"discard:Td": [5]}
    assert osa._translate("knock:Td", "discard", table) == "discard:Td"
    assert osa._translate("draw_stock", "draw", {"draw_stock": [53]}) == "draw_stock"


def test_engine_ai_plays_legal_moves_if_present():
    ai = pytest.importorskip("engine.ai", reason="engine/ai/ not present")
    for seat in (0, 1):
        player = ai.Player(level="hard", seed=5)
        st = osa.play_match(lambda obs: player.choose(ai.ObsView(obs)), 5, seat,
                            target=100, strict=True)
        assert st["illegal"] == 0 and st["hands"] > 0


@pytest.mark.parametrize("fix", [False, True])
def test_bot_after_our_gin(fix):
    """OpenSpiel's bot passes at once after a gin, declaring no melds, so its
    whole hand counts; fix_bot_gin declares its best melds instead."""
    p0 = engine.cards("As 2s 3s 4s 4h 5h 6h 7d 8d 9d")
    p1 = engine.cards("Kh Kd Ks Qc Jc Tc 2h 3c 5d 7c")
    rest = [c for c in range(52) if c not in p0 + p1]
    end = []

    def choose(obs):
        if obs["phase"] == "discard":
            drawn = [c for c in obs["hand"] if card(c) not in p0]
            return "knock:" + drawn[0]
        return "draw_stock" if "draw_stock" in obs["legal"] else "pass"
    ret, st = osa.play_hand(p0 + p1 + rest, 0, choose, strict=True,
                            fix_bot_gin=fix,
                            on_end=lambda state, moves: end.append(state))
    state = end[0]
    assert state.deadwood()[0] == 0 and st["gins"][0] == 1
    total = sum(engine.value(c) for c in p1)
    best = engine.best_melds(p1)[0]
    assert best == 2 + 3 + 5 + 7
    assert state.deadwood()[1] == (best if fix else total)
    assert ret == state.deadwood()[1] + 25
    assert st["gin_gift"] == (0 if fix else total - best)
