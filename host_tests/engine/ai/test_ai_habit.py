"""The hard AI learns its opponent's knock habit from the showdowns
(engine/ai/habit.py) and weighs a knock by its expected points
(engine/ai/knock.py).

Portable: plain functions and asserts (pytest on CPython, host_tests/runner.py
on the MicroPython ports).
"""
from engine import Match, CARDEMS, NO_CARD, card_text, cards
from engine.melds import best_discard4
from engine.ai import Player
from engine.ai.know import in_meld
from engine.ai.habit import Habit, W_TOTAL, T_LEVELS, RECORD_SIZE, OLD_RECORD
from scenario import match_with, play

LONG = CARDEMS.copy(target=2000)     # hands keep coming: the match never ends


class Greedy:
    """Lowest deadwood always; knocks at deadwood <= threshold (0: gin only)."""

    def __init__(self, threshold):
        self.threshold = threshold
        self.m = [0, 0, 0, 0]

    def choose(self, v):
        m = self.m
        v.load_masks(m)
        if v.phase == "discard":
            t = v.taken
            x = best_discard4(m, NO_CARD if t is None else t)
            knock = (x >> 6) <= min(self.threshold, v.knock_limit)
            return ("knock:" if knock else "discard:") + card_text(x & 63)
        up = v.upcard
        if up is not None and "draw_upcard" in v.legal and in_meld(m, up):
            return "draw_upcard"
        return "pass" if v.phase == "first_upcard" else "draw_stock"


class EarlyLate(Greedy):
    """Knocks as soon as it can while the stock holds more than `stock`
    cards, then only goes gin."""

    def __init__(self, stock=20):
        Greedy.__init__(self, 10)
        self.stock = stock

    def choose(self, v):
        self.threshold = 10 if v.stock_size > self.stock else 0
        return Greedy.choose(self, v)


def play_hands(opponents, seed=11, ai=None):
    """Hard (seat 1) against a greedy player whose threshold for hand i is
    opponents[i] (or a player with choose(view)); returns the hard Player
    after it has seen every hand."""
    m = Match(LONG, seed)
    ai = ai or Player("hard", seed)
    i = 0
    while True:
        if m.phase == "hand_over":
            i += 1
            if i == len(opponents):
                break
            m.next_hand()
            continue
        s = m.to_move
        o = opponents[i]
        bot = ai if s == 1 else (o if hasattr(o, "choose") else Greedy(o))
        assert m.act(bot.choose(m.view(s))) is None
    ai.habit.learn(m.view(1), 1)       # the last showdown too
    ai.end_stock = m.view(1).stock_size  # where the last hand ended
    return ai


def share(w, lo, hi):
    """Share (x1/1000) of thresholds lo..hi in the weights w."""
    return sum([w[t] for t in range(lo, hi + 1)]) * 1000 // W_TOTAL


def test_habit_starts_neutral():
    h = Habit()
    assert share(h.w, 10, 10) == share(h.w, 0, 0)
    assert abs(sum(h.w) - W_TOTAL) < T_LEVELS


def test_habit_learns_an_eager_knocker():
    h = Habit()
    ai = play_hands([10] * 8)
    assert share(ai.habit.w, 10, 10) > share(h.w, 10, 10) + 150, ai.habit.w
    assert share(ai.habit.w, 0, 2) < share(h.w, 0, 2), ai.habit.w


def test_habit_learns_a_player_who_waits_for_gin():
    h = Habit()
    ai = play_hands([0] * 8)
    assert share(ai.habit.w, 0, 2) > share(h.w, 0, 2) + 150, ai.habit.w
    assert share(ai.habit.w, 10, 10) < share(h.w, 10, 10), ai.habit.w


def test_habit_follows_a_player_who_changes_style():
    eager = play_hands([10] * 6)
    switched = play_hands([10] * 6 + [0] * 6)
    # six patient hands after six eager ones: the estimate has turned
    assert share(switched.habit.w, 10, 10) < share(eager.habit.w, 10, 10), switched.habit.w
    assert share(switched.habit.w, 0, 2) > share(eager.habit.w, 0, 2), switched.habit.w


def test_habit_learns_the_early_and_the_late_part_of_a_hand_apart():
    # knocks as soon as it can while the stock is full, then waits for gin:
    # the early estimate leans quick, the late one patient (one threshold
    # for the whole hand would expect its early knocks late too)
    # (quick only in its first turns, so that many hands reach the late part)
    ai = play_hands([EarlyLate(24)] * 10)
    h = ai.habit
    n = Habit()
    assert share(h.we, 10, 10) > share(h.wl, 10, 10) + 200, (h.we, h.wl)
    assert share(h.wl, 0, 2) > share(h.we, 0, 2) + 200, (h.we, h.wl)
    # what the knock rule reads: the part's estimate, moved from the prior
    # as far as the trust goes (the trust itself: the tests below)
    early = list(h.use(25))
    assert h.w is h.use(25)
    late = list(h.use(19))
    assert share(early, 10, 10) > share(late, 10, 10), (early, late, h.trust)
    h.t_trust = 0
    assert h.use(25) is h.we and h.use(19) is h.wl
    # a player of one style teaches both parts the same way
    for t, lo, hi in ((10, 10, 10), (0, 0, 2)):
        one = play_hands([t] * 8).habit
        assert share(one.we, lo, hi) > share(n.we, lo, hi) + 100, (t, one.we)
        assert share(one.wl, lo, hi) > share(n.wl, lo, hi) + 100, (t, one.wl)


def test_habit_follows_a_scripted_switcher_within_two_hands():
    # two hands quick, two hands patient, ...: after the second hand of each
    # style the estimate for the part of the hand they ended in leans to it
    for n in (2, 4, 6, 8):
        styles = [10 if (i // 2) % 2 == 0 else 0 for i in range(n)]
        ai = play_hands(styles)
        w = ai.habit.use(ai.end_stock)
        q = share(w, 10, 10)
        p = share(w, 0, 2)
        assert (q > p) == (styles[-1] == 10), (styles, ai.end_stock, w)


def test_habit_trust_stays_high_for_a_player_who_keeps_a_style():
    for t, lo, hi in ((10, 10, 10), (0, 0, 2)):
        ai = play_hands([t] * 8)
        h = ai.habit
        assert h.trust > 200, (t, h.trust)
        w = h.use(ai.end_stock)
        assert share(w, lo, hi) > share(Habit().w, lo, hi) + 300, (t, w)


def test_habit_trust_falls_for_scripted_switchers():
    # quick, patient, quick, ... (and two hands a style): what the estimate
    # learned foretells the next hands worse than the prior does, so the
    # trust falls and hard plays near its neutral policy, which such a
    # player cannot exploit more than it exploits hard-frozen
    n = Habit()
    fixed = play_hands([10] * 8)
    far = max([abs(fixed.habit.use(15)[t] - n.prior[t]) for t in range(T_LEVELS)])
    for styles in ([10, 0] * 5, [10, 10, 0, 0] * 2):
        ai = play_hands(styles)
        h = ai.habit
        assert h.trust < 100, (styles, h.trust)
        w = h.use(ai.end_stock)
        dev = max([abs(w[t] - n.prior[t]) for t in range(T_LEVELS)])
        assert dev * 3 < far, (styles, w)
        # without the trust the estimate is as far out as the last hands took it
        h.t_trust = 0
        plain = h.use(ai.end_stock)
        assert max([abs(plain[t] - n.prior[t]) for t in range(T_LEVELS)]) > dev, styles


def test_habit_learns_only_once_per_hand():
    ai = play_hands([10] * 5)
    w = list(ai.habit.w)
    m = Match(LONG, 3)
    # the same view again teaches nothing new
    ai2 = play_hands([10] * 5)
    ai2.habit.learn(m.view(1), 1)      # another match: starts again from the prior
    assert ai2.habit.seen == 0
    assert w == play_hands([10] * 5).habit.w


def test_habit_record_keeps_the_estimate_between_matches():
    ai = play_hands([0] * 6)
    rec = ai.habit.record()
    assert len(rec) == RECORD_SIZE
    h = Habit()
    h.load(rec)
    # half-way back to neutral, but on the patient side
    n = Habit()
    assert share(h.w, 0, 2) > share(n.w, 0, 2)
    assert share(h.w, 0, 2) < share(ai.habit.w, 0, 2)
    # a record of one estimate (an older firmware's statistics) starts
    # both parts of the hand from it
    old = rec[:OLD_RECORD]
    h.load(old)
    assert share(h.we, 0, 2) > share(n.we, 0, 2) and share(h.wl, 0, 2) > share(n.wl, 0, 2)
    assert h.we == h.wl
    h.load(b"\x00" * RECORD_SIZE)      # nothing in it: neutral
    assert h.w == n.w
    h.load(b"bad")                     # wrong size: neutral
    assert h.w == n.w


def test_forgetting_the_style_is_neutral():
    ai = play_hands([10] * 6)
    ai.habit.neutral()
    assert ai.habit.w == Habit().w


# -- the knock estimate ---------------------------------------------------------

OPP = "8s 9s Ks 2h Qh 3d 5d Kd 3c Qc"       # seat 0, hidden from hard


def position(hard, burns, opp_last, final, upcard="7c"):
    """Hard (seat 1) holds `hard` and has just drawn `final`, after both
    seats drew and threw back `burns` stock cards each (seat 0's last one
    `opp_last`): a match at hard's discard, `burns` turns into the hand."""
    used = cards(OPP + " " + hard + " " + upcard + " " + opp_last + " " + final)
    free = [c for c in range(52) if c not in used]
    seq = []
    for i in range(burns):
        seq.append(opp_last if i == burns - 1 else card_text(free.pop()))
        seq.append(card_text(free.pop()))
    seq = seq[:-1] + [final]                 # hard's last draw is `final`
    m = match_with(OPP, hard, upcard, " ".join(seq))
    for i in range(2 * burns - 1):
        h = m.hand
        before = h.cards_of(h.turn)
        play(m, "draw_stock")
        new = [c for c in h.cards_of(h.turn) if c not in before]
        play(m, "discard:" + card_text(new[0]))
    play(m, "draw_stock")
    assert m.to_move == 1 and m.phase == "discard"
    return m


def fixed_habit(habit_t):
    """A hard Player whose habit estimate is fixed on threshold habit_t."""
    p = Player("hard")
    w = [1] * T_LEVELS
    w[habit_t] = W_TOTAL - T_LEVELS
    p.habit.fix(w)
    p.habit.learn = lambda view, me: None
    return p


def knock_estimate(m, habit_t):
    """(action, EK, EN) of hard at this discard, its habit estimate fixed
    on threshold habit_t."""
    p = fixed_habit(habit_t)
    a = p.choose(m.view(1))
    return a, p.knock.ek / 16, p.knock.en / 16


def test_knock_estimate_an_early_knock_pays_when_gin_is_far():
    # After one turn each, hard keeps three sets and the 2c (2 deadwood):
    # only the fourth ace or four can make gin (the fourth seven is in the
    # pile). The opponent threw a king: its deadwood is high, a knock wins
    # big; against a player who only goes gin (no undercut to wait for),
    # knocking beats playing on.
    m = position("As Ah Ad 4s 4h 4d 7s 7h 7d 2c", 1, "Kh", "Kc")
    a, ek, en = knock_estimate(m, 0)
    assert ek > 15, (ek, en)
    assert ek > en, (ek, en)
    assert a == "knock:Kc", (a, ek, en)
    # the fourth seven live: a third way to gin, playing on is worth more
    m2 = position("As Ah Ad 4s 4h 4d 7s 7h 7d 2c", 1, "Kh", "Kc", upcard="Jd")
    a2, ek2, en2 = knock_estimate(m2, 0)
    assert en2 > en, (en, en2)


def test_knock_estimate_late_against_a_player_playing_for_gin_fears_the_undercut():
    # Twelve turns in, the opponent (who only goes gin) has just thrown an
    # ace: its deadwood is low, and knocking with 9 would be undercut (R10).
    m = position("As 2s 3s 5h 6h 7h 9d Td Jd 9c", 12, "Ad", "Kc")
    a, ek, en = knock_estimate(m, 0)
    assert ek < 0, (ek, en)
    assert a.startswith("discard:"), a


def test_knock_estimate_playing_on_can_mean_not_knocking_at_all():
    # 9 deadwood, ten turns in, an opponent who only goes gin has just
    # thrown an ace: a knock now is likely undercut (R10), and so is a knock
    # after each of the next rounds. Playing on is worth the plan that does
    # not knock in them (the hands that end on the way, our gin or its),
    # above knocking now or after any of them.
    from engine.ai.knock_terms import ROUNDS
    m = position("As 2s 3s 5h 6h 7h 9d Td Jd 9c", 10, "Ad", "Kc")
    ests = []
    for wait in (1, 0):
        p = fixed_habit(0)
        p.knock.t_wait = wait
        a = p.choose(m.view(1))
        assert a.startswith("discard:"), a
        ests.append((p.knock.ek, p.knock.en, list(p.knock.plan)))
    ek, en, plan = ests[0]
    assert all(plan[ROUNDS + 1] > plan[r] for r in range(ROUNDS + 1)), plan
    assert en > ek + 20 * 16, (ek, en)
    # without that plan, playing on is valued as the best knock after a
    # round or more: points lower
    assert ests[1][1] + 3 * 16 < en, ests


def test_knock_estimate_at_one_deadwood_waits_for_a_quick_knocker():
    # Late, 1 deadwood: an opponent that knocks as soon as it can will
    # soon knock into it (the undercut, R10) rather than let hard lay it
    # bare; playing on is worth more than the knock's few points.
    m = position("As 2s 3s 5h 6h 7h 9d Td Jd Ac", 9, "Jc", "Kc")
    a, ek, en = knock_estimate(m, 10)
    assert en > ek, (ek, en)
    assert a.startswith("discard:"), a
    # a player who only goes gin and has not gone gin nine turns in holds
    # less deadwood than a quick knocker that has not knocked: the knock
    # is worth less against it
    a0, ek0, en0 = knock_estimate(m, 0)
    assert ek0 < ek, (ek0, ek)


# -- the opponent's deadwood now (knock_terms._prior) ----------------------------

def prior_of(odn, last_rank, prev_rank, kept):
    """(mean deadwood, share x1/255 at 10 or less) of hard's prior for the
    opponent's deadwood: odn discards so far, the ranks of its last two
    (12: a king, or none), `kept` cards it took from the pile and holds."""
    from engine.ai.opp_tables import D_MEAN
    from engine.ai.opp_shape import D_BUCKETS, TOP
    p = Player("hard")
    k = p.k
    k.odn = odn
    k.olast_rank = last_rank
    k.oprev_rank = prev_rank
    for s in range(4):
        k.oppk[s] = 0
    for c in cards(kept):
        k.oppk[c // 13] |= 1 << (c % 13)
    p.model.fill(k, True)               # as a decision does before the estimate
    pr = p.knock._prior(k)
    tot = sum([pr[j] for j in range(D_BUCKETS)])
    assert 240 <= tot <= 255, tot
    mean = sum([pr[j] * D_MEAN[j] for j in range(D_BUCKETS)]) / tot
    low = sum([pr[j] for j in range(D_BUCKETS) if TOP[j] <= 10])
    return mean, low


def test_knock_prior_is_lower_when_the_opponent_keeps_its_pickups():
    # cards taken from the pile and kept are in its melds
    m0, low0 = prior_of(6, 8, 9, "")
    m1, low1 = prior_of(6, 8, 9, "5h")
    m3, low3 = prior_of(6, 8, 9, "5h 9c Kd")
    assert m3 < m1 < m0, (m0, m1, m3)
    assert low3 > low1 > low0, (low0, low1, low3)


def test_knock_prior_a_high_card_thrown_after_a_low_one_is_a_low_hand():
    # a queen thrown after a two: most likely drawn and thrown at once by a
    # hand that had already thrown its high cards
    m_low, low_low = prior_of(6, 11, 1, "")
    m_high, low_high = prior_of(6, 11, 11, "")
    assert m_low < m_high, (m_low, m_high)
    assert low_low > low_high, (low_low, low_high)


# -- the gin race against a patient player ---------------------------------------

def test_against_a_player_who_waits_for_gin_hard_keeps_a_hand_one_card_from_gin():
    # Three turns in, hard holds Js Jd Jc and 6d 7d 8d 9d; the rest is 4c 3s
    # 6h 7h. Throwing the 4c keeps 16 deadwood (3s 6h 7h) one card from gin
    # (5h or 8h, throwing the 3s); throwing the 7h keeps 13 (4c 3s 6h) and
    # no gin on the next draw. Against a player who only goes gin the hand
    # is a race to gin (engine/ai/evaluate.py, GIN_DRAW_PATIENT); against a
    # quick knocker the lower deadwood counts (its knock, our undercut).
    m = position("4c 3s 7d 9d 6h 7h 6d 8d Js Jd", 3, "Ad", "Jc")
    patient, _, _ = knock_estimate(m, 0)
    eager, _, _ = knock_estimate(m, 10)
    assert patient == "discard:4c", patient
    assert eager == "discard:7h", eager
    # without the bonus the two agree on the lower deadwood
    p = fixed_habit(0)
    p.ev.t_gin = 0
    p.ev.t_ginp = 0
    assert p.choose(m.view(1)) == "discard:7h"


# -- a hand that may be caught before its next draw ------------------------------

def test_against_a_quick_knocker_late_hard_holds_less_deadwood():
    # Eight turns in, an opponent that knocks as soon as it can has just
    # thrown the 2c: it may well knock on its next turn, and then the
    # deadwood hard holds is what counts (KnockTerms.end_chance,
    # Evaluator.at_risk). Hard (As-4s, three fives) throws the 9h (16
    # left) rather than the 6c (19 left, the 8h 9h kept for the 7h or the
    # Th) it throws when that chance is not weighed.
    hand = "5s 8h 9h 5c 4s 2s 5h 6c 3s As"
    m = position(hand, 8, "2c", "2d")
    eager = fixed_habit(10)
    assert eager.choose(m.view(1)) == "discard:9h"
    off = fixed_habit(10)
    off.ev.t_pend = 0
    assert off.choose(m.view(1)) == "discard:6c"
    # a player who only goes gin ends the hand less often
    gin_only = fixed_habit(0)
    gin_only.choose(m.view(1))
    assert 0 < gin_only.ev.p_end < eager.ev.p_end, (gin_only.ev.p_end, eager.ev.p_end)
    # one turn in, after a king, a quick knocker is far from its knock
    m1 = position(hand, 1, "Kh", "6h")
    early = fixed_habit(10)
    early.choose(m1.view(1))
    assert early.ev.p_end * 10 < eager.ev.p_end, (early.ev.p_end, eager.ev.p_end)
