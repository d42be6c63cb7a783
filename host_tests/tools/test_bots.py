"""tools/ailab/bots.py: every sparring partner plays legal matches, and the
switchers change style as their docstrings say (CPython only: the arena's
bots are host tools)."""
from engine import CARDEMS, Match
from engine.ai.knock import STYLE_EAGER, STYLE_PATIENT
from tools.ailab import arena, bots


def styles_by_hand(bot, style_of, seed=5, hands=12):
    """Play `bot` (seat 0) against `simple` for `hands` hands of a match
    that does not end; the style it played each hand."""
    m = Match(CARDEMS.copy(target=5000), seed)
    other = bots.make("simple", seed)
    seen = []
    while len(m.results) < hands:
        if m.phase == "hand_over":
            m.next_hand()
            continue
        s = m.to_move
        p = bot if s == 0 else other
        a = p.choose(m.view(s))
        if s == 0 and len(seen) == m.hand_no - 1:
            seen.append(style_of(bot))
        assert m.act(a) is None
    return seen


def runs(xs):
    """Lengths of the runs of equal items in xs."""
    out = [1]
    for a, b in zip(xs, xs[1:]):
        if a == b:
            out[-1] += 1
        else:
            out.append(1)
    return out


def test_every_named_bot_plays_a_whole_match():
    for name in bots.NAMES:
        for a_seat in (0, 1):
            p = [None, None]
            p[a_seat] = bots.make(name, 3)
            p[1 - a_seat] = bots.make("simple", 4)
            m, unfinished = arena.play_match(CARDEMS, 3, p[0], p[1], [], [])
            assert not unfinished and m.phase == "match_over", name


def test_hard_switcher_changes_its_knock_every_hand_or_two():
    seen = styles_by_hand(bots.make("hard-switcher", 9), lambda b: b.p.knock.style)
    assert set(seen) == {STYLE_EAGER, STYLE_PATIENT}, seen
    assert max(runs(seen)) <= 2, seen
    assert min(runs(seen)) == 1, seen


def test_switcher_keeps_a_threshold_two_to_four_hands():
    seen = styles_by_hand(bots.make("switcher", 9), lambda b: b.threshold, hands=16)
    r = runs(seen)
    assert len(r) >= 4, seen
    assert all(2 <= n <= 4 for n in r[:-1]), seen
    assert set(seen) <= set(bots.SwitcherBot.STYLES), seen


def quick_by_hand(name, seed=9, hands=12):
    return styles_by_hand(bots.make(name, seed), lambda b: b.last_quick, seed=seed, hands=hands)


def test_period_switchers_change_style_every_n_hands():
    for n in (1, 2, 3):
        firsts = set()
        for seed in (9, 10, 11, 12):
            seen = quick_by_hand("switch-%d" % n, seed)
            r = runs(seen)
            assert all(k == n for k in r[:-1]) and r[-1] <= n, (n, seen)
            firsts.add(seen[0])
        assert firsts == {True, False}, n        # the seed picks the first style


def test_phase_switchers_change_style_once_after_two_hands():
    assert quick_by_hand("quick-then-patient") == [True, True] + [False] * 10
    assert quick_by_hand("patient-then-quick") == [False, False] + [True] * 10


def test_the_partners_knock_as_their_style_says():
    # quick: knocks the first time it can; patient: plays on (not gin)
    from engine.melds import best_discard4
    for name in ("switch-1", "early-knock-late-gin"):
        bot = bots.make(name, 9)
        m = Match(CARDEMS.copy(target=5000), 3)
        other = bots.make("simple", 4)
        checked = 0
        while len(m.results) < 8:
            if m.phase == "hand_over":
                m.next_hand()
                continue
            s = m.to_move
            v = m.view(s)
            a = (bot if s == 0 else other).choose(v)
            if s == 0 and m.phase == "discard":
                mk = [0, 0, 0, 0]
                v.load_masks(mk)
                t = v.taken
                dw = best_discard4(mk, 99 if t is None else t) >> 6
                left = bots.stock_left(v)
                if 0 < dw <= v.knock_limit and left >= 3:
                    assert a.startswith("knock") == bot.last_quick, (name, a, dw, left)
                    if name == "early-knock-late-gin":
                        assert bot.last_quick == (left > bots.EKLG_STOCK)
                    checked += 1
            assert m.act(a) is None
        assert checked >= 5, name


def test_counter_plays_against_what_hard_believes():
    # hard's own habit estimate, hand by hand, against the counter's style
    hard = bots.make("hard", 1)
    counter = bots.make("counter", 2)
    m = Match(CARDEMS.copy(target=5000), 6)
    styles = []
    while len(m.results) < 14:
        if m.phase == "hand_over":
            m.next_hand()
            continue
        s = m.to_move
        v = m.view(s)
        a = (counter if s == 0 else hard).choose(v)
        if s == 0 and len(styles) == m.hand_no - 1:
            h = hard.habit
            h.learn(m.view(1), 1)        # hard has seen these hands too
            h.use(v.stock_size)
            believes_patient = h.patient() > h.w[10]
            assert counter.last_quick == believes_patient, (m.hand_no, h.w)
            styles.append(counter.last_quick)
        assert m.act(a) is None
    assert set(styles) == {True, False}, styles


def test_hard_frozen_learns_nothing():
    from engine.ai.habit import Habit
    p = bots.make("hard-frozen", 1)
    m, _ = arena.play_match(CARDEMS, 3, p, bots.make("greedy-gin", 2), [], [])
    assert len(m.results) >= 3
    assert p.habit.we == Habit().we and p.habit.wl == Habit().wl
    q = bots.make("hard", 1)
    arena.play_match(CARDEMS, 3, q, bots.make("greedy-gin", 2), [], [])
    assert q.habit.we != Habit().we or q.habit.wl != Habit().wl


def test_paired_table_pairs_the_same_deals():
    from tools.ailab import ai_table
    # the same bot twice: every deal sequence plays alike, the difference is 0
    st = ai_table.paired_worker(("hard-frozen|hard-frozen", "switch-1", "cardems", 5, 7))
    assert st["1.matches"] == st["2.matches"] == 4
    assert st["1.a_matches"] == st["2.a_matches"] and st["1.a_points"] == st["2.a_points"]
    assert st["diff"] == [0, 0]
    # hard against simple on one sequence, against itself on the same: wins minus wins
    st = ai_table.paired_worker(("hard|simple", "greedy-gin", "cardems", 1, 3))
    one = ai_table.arena.play_sequences(ai_table.arena.parse_rules("cardems"), "hard", "greedy-gin",
                                        1, 2, ai_table.arena.new_stats())["a_matches"]
    two = ai_table.arena.play_sequences(ai_table.arena.parse_rules("cardems"), "simple", "greedy-gin",
                                        1, 2, ai_table.arena.new_stats())["a_matches"]
    assert st["diff"][0] == one - two


def test_paired_interval():
    from tools.ailab.ai_table import paired_interval
    assert paired_interval([]) == (0.0, 0.0, 0.0)
    m, lo, hi = paired_interval([2, 0, 0, -2] * 25)     # halves: 1, 0, 0, -1
    assert m == 0.0 and abs(hi - 1.96 * (0.5 * 100 / 99 / 100) ** 0.5) < 1e-9 and lo == -hi
    m, lo, hi = paired_interval([1] * 10)
    assert m == lo == hi == 0.5
