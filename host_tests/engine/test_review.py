"""The hand review (engine/review.py, engine/review_text.py): the hard
level's own moves cost nothing, a planted blunder is found with its cost,
only the view of the moment is read, and the words.

Portable: plain functions and asserts, run by pytest on CPython and by
host_tests/runner.py on the MicroPython unix and WebAssembly ports.
"""
from engine import Match, CARDEMS, CLASSIC, card, card_text, record_text, replay
from engine.ai import Player
from engine.ai.appraise import appraise
from engine.hand import DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD, KNOCK
from engine.review import Review, SHOW_MIN, SHOWN, F_TOOK, F_MELDED, points
from engine.review_text import words, line, average, cost_of
from scenario import raises

SHORT = CARDEMS.copy(target=40)     # short matches keep the ports quick


def _play(m, players, until_hands=99, on_move=None):
    """Play m with players[seat] until `until_hands` hands have ended (or
    the match); on_move(m, seat, view, action) may return another action."""
    while m.phase != "match_over" and len(m.results) < until_hands:
        if m.phase == "hand_over":
            m.next_hand()
            continue
        s = m.to_move
        v = m.view(s)
        a = players[s].choose(v)
        if on_move is not None:
            a = on_move(m, s, v, a) or a
        assert m.act(a) is None, a
    return m


def _reviews(m, seat):
    rp = Player("hard", 5)
    return [Review(m, i, seat, rp).run() for i in range(len(m.results))]


def test_the_hard_levels_own_moves_cost_nothing():
    # the review judges by hard's own choice
    m = _play(Match(SHORT, 21), (Player("hard", 1), Player("easy", 2)))
    rs = _reviews(m, 0)
    assert len(rs) >= 2
    for r in rs:
        assert r.done and r.n >= 4
        assert r.total == 0 and r.shown() == [] and r.worst() == -1


def test_the_hard_seat_of_the_cpu_costs_nothing_either():
    m = _play(Match(SHORT, 22), (Player("normal", 1), Player("hard", 2)))
    for r in _reviews(m, 1):
        assert r.n >= 4 and r.total == 0


def test_an_easy_players_decisions_are_found_worth_showing():
    m = _play(Match(SHORT, 23), (Player("easy", 1), Player("hard", 2)))
    rs = _reviews(m, 0)
    assert sum([len(r.shown()) for r in rs]) >= len(rs)
    for r in rs:
        shown = r.shown()
        assert len(shown) <= SHOWN
        for a, b in zip(shown, shown[1:]):
            assert r.cost[a] >= r.cost[b]          # worst first
        for i in range(r.n):
            assert r.cost[i] >= 0
            if i not in shown and r.cost[i] >= SHOW_MIN:
                assert len(shown) == SHOWN and r.cost[i] <= r.cost[shown[-1]]


def _value(player, view, action):
    a = appraise(player, view)
    for act, v in a:
        if act == action:
            return v
    raise AssertionError("%s not appraised" % action)


def test_a_planted_blunder_in_a_record_is_found_with_its_cost():
    # Seat 0 plays the hard level's moves, except at its third discard it
    # throws the card appraise values lowest. The record is written out,
    # replayed, and its first hand reviewed.
    planted = {}

    def blunder(m, s, v, a):
        if s != 0 or v.phase != "discard":
            return None
        n = len([1 for x in v.log_seat if x == 0]) // 2
        if n != 2 or planted:
            return None
        ap = appraise(Player("hard", 9), v)
        worst = [x for x in ap if x[0].startswith("discard:")][-1]
        planted["action"] = worst[0]
        planted["cost"] = _value(Player("hard", 9), v, a) - worst[1]
        planted["turn"] = 3
        return worst[0]

    m = _play(Match(CARDEMS, 31), (Player("hard", 1), Player("hard", 2)), 1, blunder)
    assert planted and planted["cost"] >= SHOW_MIN
    again = replay(record_text(m))
    r = Review(again, 0, 0, Player("hard", 0)).run()
    assert r.total == planted["cost"]
    assert r.shown() == [r.worst()]
    w = r.worst()
    assert r.cost[w] == planted["cost"]
    first, second, pts = words(r.record(w))
    assert first.startswith("T3 YOU THREW " + planted["action"][8:]), first
    assert second.startswith("BETTER "), second
    assert pts == points(planted["cost"]) >= 1


def test_the_choice_in_two_steps_is_the_hard_levels_choice():
    # choose_first then choose_rest (the review's two steps) choose as
    # choose() does, also with another view asked of the player between.
    from engine.ai import ACTION_TEXT
    two = Player("hard", 7)
    other = Match(SHORT, 99)
    seen = {"first": 0, "rest": 0}

    def check(m, s, v, a):
        if s != 0:
            return None
        code = two.choose_first(v)
        if code < 0:
            two.hint(other.view(other.to_move))
            code = two.choose_rest(v)
            seen["rest"] += 1
        else:
            seen["first"] += 1
        assert ACTION_TEXT[code] == a, (ACTION_TEXT[code], a)
        return None

    for seed in (51, 52):
        _play(Match(SHORT, seed), (Player("hard", 7), Player("normal", 3)), 99, check)
    assert seen["first"] >= 1 and seen["rest"] >= 1, seen


def test_appraise_values_a_knock_above_playing_on_exactly_when_hard_knocks():
    # The knock's gain is EK - EN less what the hard level's rule adds to
    # playing on (KnockRule.play_on_bias): a knock it declines is valued
    # under its discard, one it makes over the same card's discard.
    judge = Player("hard", 6)
    seen = {"knock": 0, "play_on": 0}

    def check(m, s, v, a):
        if s != 0 or v.phase != "discard":
            return None
        knocks = [x for x in v.legal if x.startswith("knock:")]
        if not knocks:
            return None
        ap = appraise(judge, v)
        mine = _value(judge, v, a)
        if a.startswith("knock:"):
            seen["knock"] += 1
            assert mine >= _value(judge, v, "discard:" + a[6:]), a
        else:
            seen["play_on"] += 1
            for x in knocks:
                assert _value(judge, v, x) <= mine, (x, a, ap)
        return None

    for seed in (41, 42, 43):
        _play(Match(SHORT, seed), (Player("hard", seed), Player("easy", 2)), 99, check)
    assert seen["knock"] >= 1 and seen["play_on"] >= 1, seen


def test_each_cost_is_appraise_at_the_view_of_that_moment():
    # During play: appraise's value of the hard level's choice less the
    # move played, at every decision of the easy seat; the review made
    # after the hand finds the same costs.
    live = []
    judge = Player("hard", 3)

    def note(m, s, v, a):
        if s == 0 and len(v.legal) > 1:
            best = judge.choose(v)
            took = "draw_upcard" if a.startswith("draw_upcard") else a
            c = _value(judge, v, best) - _value(judge, v, took)
            live.append(c if c > 0 else 0)
        return None

    m = _play(Match(CARDEMS, 32), (Player("easy", 1), Player("hard", 2)), 2, note)
    rp = Player("hard", 4)
    got = []
    for i in range(2):
        r = Review(m, i, 0, rp).run()
        got.extend([r.cost[j] for j in range(r.n)])
    assert got == live


def test_a_review_reads_nothing_of_later_hands():
    m = _play(Match(CARDEMS, 33), (Player("easy", 1), Player("hard", 2)), 1)
    first = Review(m, 0, 0, Player("hard", 0)).run()
    costs = [first.cost[j] for j in range(first.n)]
    _play(m, (Player("easy", 1), Player("hard", 2)), 3)
    later = Review(m, 0, 0, Player("hard", 0)).run()
    assert [later.cost[j] for j in range(later.n)] == costs
    # and a reviewer that has seen later hands starts again from hand 1's
    rp = Player("hard", 0)
    Review(m, 2, 0, rp).run()
    again = Review(m, 0, 0, rp).run()
    assert [again.cost[j] for j in range(again.n)] == costs


def test_hints_asked_of_the_reviewer_between_steps_change_nothing():
    # the handheld's hint and the review share one hard player
    m = _play(Match(CARDEMS, 37), (Player("easy", 1), Player("hard", 2)), 3)
    alone = Review(m, 2, 0, Player("hard", 0)).run()
    m.next_hand()
    shared = Player("hard", 0)
    r = Review(m, 2, 0, shared)
    live = m.view(0)
    steps = 0
    while r.step():
        steps += 1
        if steps % 7 == 0:
            shared.hint(live)          # a view of the hand now in play
        assert steps < 1000
    assert [r.cost[i] for i in range(r.n)] == [alone.cost[i] for i in range(alone.n)]
    assert r.n == alone.n and r.total == alone.total


def test_v1_a_draw_forced_after_both_passed_is_not_a_decision():
    rules = CLASSIC.copy(target=40)
    assert rules.upcard_offer

    def passing(m, s, v, a):
        return "pass" if v.phase == "first_upcard" else None

    m = _play(Match(rules, 34), (Player("hard", 1), Player("hard", 2)), 1, passing)
    h = m.hands[0]
    assert h.log[0] == PASS and h.log[1] == PASS and h.log[2] == DRAW_STOCK
    r = Review(m, 0, 0, Player("hard", 0)).run()
    moves = len([1 for x in h.log_seat if x == 0])
    assert r.n == moves - 1          # the forced stock draw is left out
    assert r.turn[0] == 1 and r.turn[1] == 2     # the pass was T1


def test_an_unfinished_hand_is_not_reviewed():
    m = Match(CARDEMS, 35)
    assert "not ended" in raises(ValueError, Review, m, 0, 0, Player("hard"))


def test_progress_runs_to_100_by_small_steps():
    m = _play(Match(CARDEMS, 36), (Player("easy", 1), Player("hard", 2)), 1)
    r = Review(m, 0, 0, Player("hard", 0))
    seen = [r.progress()]
    steps = 0
    while r.step():
        steps += 1
        seen.append(r.progress())
    assert seen[0] == 0 and r.progress() == 100 and r.done
    assert seen == sorted(seen)
    assert steps >= r.n and not r.step()


# -- the words ---------------------------------------------------------------

def _rec(turn, played, best, up=255, tdw=0, bdw=0, flags=0, cost=112):
    return bytes((turn, played, best, up, tdw, bdw, flags, cost >> 8, cost & 255))


def test_words_of_a_discard_the_cpu_melded():
    rec = _rec(6, DISCARD + card("8h"), DISCARD + card("9c"), flags=F_TOOK | F_MELDED)
    assert words(rec) == ("T6 YOU THREW 8h: CPU MELDED IT", "BETTER 9c", 7)
    assert line(rec) == "T6 YOU THREW 8h: CPU MELDED IT / BETTER 9c  -7"
    rec = _rec(6, DISCARD + card("8h"), DISCARD + card("9c"), flags=F_TOOK)
    assert words(rec)[0] == "T6 YOU THREW 8h: CPU TOOK IT"


def test_words_of_a_knock_left_or_made():
    rec = _rec(9, DISCARD + card("Kd"), KNOCK + card("Kd"), bdw=6, cost=190)
    assert words(rec) == ("T9 YOU COULD KNOCK (DW 6)", "KNOCK WITH Kd", 12)
    rec = _rec(9, DISCARD + card("Kd"), KNOCK + card("Kd"), bdw=0)
    assert words(rec)[:2] == ("T9 YOU COULD GO GIN", "GIN WITH Kd")
    rec = _rec(7, KNOCK + card("3c"), DISCARD + card("8h"), tdw=10)
    assert words(rec)[:2] == ("T7 YOU KNOCKED (DW 10)", "BETTER PLAY ON, THROW 8h")
    rec = _rec(7, KNOCK + card("3c"), KNOCK + card("4c"), tdw=8, bdw=7)
    assert words(rec)[:2] == ("T7 YOU KNOCKED WITH 3c", "KNOCK WITH 4c")


def test_words_of_draws_and_the_v1_offer():
    up = card("7s")
    assert words(_rec(4, DRAW_STOCK, DRAW_UPCARD, up))[:2] == (
        "T4 YOU LEFT 7s ON THE PILE", "BETTER TAKE IT")
    assert words(_rec(4, DRAW_UPCARD, DRAW_STOCK, up))[:2] == ("T4 YOU TOOK 7s", "BETTER THE STOCK")
    assert words(_rec(1, PASS, DRAW_UPCARD, up, flags=F_TOOK))[:2] == (
        "T1 YOU PASSED ON 7s: CPU TOOK IT", "BETTER TAKE IT")
    assert words(_rec(1, DRAW_UPCARD, PASS, up))[1] == "BETTER PASS"
    # the other seat's review names the players the other way round
    assert words(_rec(4, DRAW_UPCARD, DRAW_STOCK, up), "CPU", "YOU")[0] == "T4 CPU TOOK 7s"


def test_words_fit_the_screen_at_their_longest():
    # 32 small-font characters (a card glyph is about 3): the longest line
    rec = _rec(19, DISCARD + card("Qs"), DISCARD + card("9c"), flags=F_TOOK | F_MELDED)
    first = words(rec)[0]
    assert len(first) - 2 + 3 <= 32, first


def test_costs_in_points_and_averages():
    assert cost_of(_rec(1, 0, 1, cost=300)) == 300
    assert points(7) == 0 and points(8) == 1 and points(300) == 19
    assert average(0, 0) == "0.0"
    assert average(16 * 13, 10) == "1.3"
    assert average(1, 3) == "0.0" and average(12, 5) == "0.2"
    assert "9 bytes" in raises(ValueError, words, b"\x01\x02")
    assert card_text(card("Td")) == "Td"
