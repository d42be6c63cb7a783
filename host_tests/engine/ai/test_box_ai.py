"""V6: the sitter's advice and the AI captain weighing it (engine/ai/box_ai.py).

Plain functions: run by pytest on CPython and by host_tests/runner.py on the
MicroPython ports.
"""
from engine import Hand
from engine.ai import Player
from engine.box import BoxMatch, BOX_RULES
from engine.ai.box_ai import consider, sitter_advice, say, plain, TOLERANCE
from engine.rng import Rng
from scenario import deck


class Fixed:
    """A player whose own judgement is a fixed action."""

    def __init__(self, action):
        self.action = action

    def choose(self, view):
        return self.action


def box_with(captain, box, upcard):
    """A box match whose hand deals `captain` and `box` (hand seats 0, 1)."""
    bm = BoxMatch(BOX_RULES, 3)
    bm.hands[-1] = (Hand(bm.rules, deck(captain, box, upcard), 0, 0), bm.roles)
    return bm


CAPTAIN = "7h 8h 2c 3c 4c Ks Kd 5s 6d Js"
BOX = "As 2s 3s 4s 9c Tc Jc 2d 3d 4d"


def captain_view(bm):
    return bm.view(bm.hand_roles[1])


def test_v6_sitter_advice_is_the_ai_hint_on_the_captains_view():
    bm = BoxMatch(BOX_RULES, 11)
    box, cap, sit = bm.roles
    p = Player("hard", 5)
    act, words = sitter_advice(p, bm.view(sit))
    assert act in bm.legal() and words
    assert act == plain(Player("hard", 5).hint(bm.view(cap))[0])
    assert bm.advise(sit, act) is None and bm.advice == (sit, act)


def test_v6_captain_follows_advice_equal_to_its_own_choice():
    bm = BoxMatch(BOX_RULES, 12)
    v = captain_view(bm)
    own = Player("normal", 1).choose(v)
    act, follows, words = consider(Player("normal", 1), v, own)
    assert act == own and follows and words == "follows: " + say(own, v.upcard)


def test_v6_captain_follows_a_take_that_makes_a_run():
    bm = box_with(CAPTAIN, BOX, "9h")
    act, follows, words = consider(Fixed("pass"), captain_view(bm), "draw_upcard")
    assert (act, follows, words) == ("draw_upcard", True, "follows: take 9h")


def test_v6_captain_refuses_to_take_an_upcard_that_does_not_help():
    bm = box_with(CAPTAIN, BOX, "Qd")
    act, follows, words = consider(Fixed("pass"), captain_view(bm), "draw_upcard")
    assert (act, follows, words) == ("pass", False, "passes: Qd no help")


def test_v6_captain_refuses_to_pass_an_upcard_that_makes_a_run():
    bm = box_with(CAPTAIN, BOX, "9h")
    act, follows, words = consider(Fixed("draw_upcard"), captain_view(bm), "pass")
    assert (act, follows, words) == ("draw_upcard", False, "takes 9h: makes a run")


def test_v6_captain_follows_a_pass_when_the_upcard_helps_little():
    # Qd for Ks: the same deadwood either way (within the tolerance)
    bm = box_with(CAPTAIN, BOX, "Qd")
    act, follows, words = consider(Fixed("draw_upcard"), captain_view(bm), "pass")
    assert (act, follows) == ("pass", True) and words == "follows: pass"


def _after_taking(upcard="Qc"):
    bm = box_with(CAPTAIN, BOX, upcard)
    assert bm.act("draw_upcard") is None        # the captain takes it
    return bm


def test_v6_captain_follows_a_discard_as_good_as_its_own():
    bm = _after_taking()
    act, follows, words = consider(Fixed("discard:Kd"), captain_view(bm), "discard:Ks")
    assert (act, follows, words) == ("discard:Ks", True, "follows: discard Ks")


def test_v6_captain_follows_a_discard_within_the_tolerance():
    bm = _after_taking()
    # Js leaves the same deadwood as Kd; 6d would leave 4 more (beyond it)
    assert TOLERANCE < 4
    act, follows, _ = consider(Fixed("discard:Kd"), captain_view(bm), "discard:Js")
    assert act == "discard:Js" and follows


def test_v6_captain_refuses_a_discard_that_breaks_a_run():
    bm = _after_taking()
    act, follows, words = consider(Fixed("discard:Kd"), captain_view(bm), "discard:2c")
    assert (act, follows, words) == ("discard:Kd", False, "keeps 2c: it makes a run")


def test_v6_captain_refuses_a_clearly_worse_discard():
    bm = _after_taking()
    act, follows, words = consider(Fixed("discard:Kd"), captain_view(bm), "discard:5s")
    assert (act, follows, words) == ("discard:Kd", False, "keeps 5s: 5 more deadwood")


def test_v6_captain_refuses_advice_the_rules_forbid():
    bm = _after_taking()
    # R4: the card just taken from the pile cannot go back
    act, follows, words = consider(Fixed("discard:Kd"), captain_view(bm), "discard:Qc")
    assert (act, follows) == ("discard:Kd", False) and words == "discard Qc: not allowed now"


def test_v6_captain_never_gives_up_gin():
    bm = box_with("As 2s 3s 4h 5h 6h 7d 8d 9d Kc", "5c 6c 7c 8c Tc Jc 2d 3d Jd Qh", "4s")
    assert bm.act("draw_upcard") is None
    v = captain_view(bm)
    assert "knock:Kc" in v.legal
    act, follows, words = consider(Fixed("knock:Kc"), v, "discard:As")
    assert (act, follows, words) == ("knock:Kc", False, "goes gin: discards Kc")


def test_v6_captain_without_advice_plays_its_own_move():
    bm = BoxMatch(BOX_RULES, 13)
    v = captain_view(bm)
    own = Player("hard", 2).choose(v)
    act, follows, _ = consider(Player("hard", 2), v, None)
    assert act == own and not follows


def test_v6_consider_never_returns_an_illegal_action():
    """Whole hands: AI captains weigh AI sitters' advice, or a random legal
    (or illegal) suggestion; every move the engine accepts."""
    rng = Rng(77)
    for seed in (21, 22):
        bm = BoxMatch(BOX_RULES, seed)
        ais = [Player("normal", seed + p) for p in range(3)]
        hands = 0
        while bm.phase != "match_over" and hands < 2:
            if bm.phase == "hand_over":
                hands += 1
                bm.next_hand()
                continue
            box, cap, sit = bm.hand_roles
            p = bm.to_move
            if p == cap:
                legal = bm.legal()
                k = rng.below(4)
                if k == 0:
                    adv = sitter_advice(ais[sit], bm.view(sit))[0]
                elif k == 1:
                    adv = "discard:Kh"              # often not even in the hand
                else:
                    adv = legal[rng.below(len(legal))]
                act, follows, words = consider(ais[cap], bm.view(cap), adv)
                assert act in legal and words
                if follows:
                    assert act == adv
            else:
                act = ais[p].choose(bm.view(p))
            assert bm.act(act) is None, act
