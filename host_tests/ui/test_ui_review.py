"""The hand review on the handheld (firmware/reviews.py, screens/review.py)
with the real evaluator: the same findings as engine.review made apart,
made a slice at a time between frames, the match summary, counted once in
the statistics, again from the first hand after a resume."""

import engine
from engine.ai import Player
from engine.review import Review
from firmware.saves import gamesave
from firmware import reviews as RV
from firmware.screens.review import entry_lines
from firmware.stats import Stats, VERSION
from tools.sim.simulator import MemStorage, Sim
from tools.kit.ui_driver import play_turn, simple_factory
from review_stub import CannedReview


def to_result(sim):
    """Play the human's turns (the simple policy) until a hand's result."""
    while sim.screen != "result":
        if sim.screen == "showdown":
            sim.press("A")
            continue
        assert sim.screen == "play", sim.screen
        play_turn(sim)


def new_sim(seed=3, storage=None, **settings):
    st = {"speed": "fast"}
    st.update(settings)
    sim = Sim(seed=seed, storage=storage or MemStorage(), player_factory=simple_factory,
              settings=st)
    sim.press("A")
    return sim


def to_match_end(seed, storage):
    """A short match (to 50) played to its end screen."""
    sim = new_sim(seed=seed, storage=storage, target=50)
    while sim.screen != "match_end":
        to_result(sim)
        sim.press("A")
    return sim


def apart(m, upto):
    """engine.review of hands 0..upto-1, with a reviewer of its own."""
    p = Player("hard", 0)
    return [Review(m, i, 0, p).run() for i in range(upto)]


def test_the_hand_review_screen_shows_what_the_review_finds():
    sim = new_sim()
    found = None
    for _ in range(6):
        to_result(sim)
        m = sim.app.match
        i = len(m.results) - 1
        r = apart(m, i + 1)[-1]
        sim.press("D")
        scr = sim.app.screen
        assert sim.screen == "review" and scr.ready
        assert scr.n == r.n
        assert scr.entries == [entry_lines(r.record(j)) for j in r.shown()]
        if scr.entries:
            found = scr.entries
        sim.press("B")
        assert sim.screen == "result"
        sim.press("A")
        if sim.screen != "play":
            break
    assert found, "the simple policy's hands never showed a costly decision"


def test_the_review_is_made_a_slice_at_a_time_between_frames():
    steps = []

    class Counted(CannedReview):
        def step(self):
            steps.append(sim.app.frames)
            return CannedReview.step(self)

    sim = Sim(seed=3, storage=MemStorage(), player_factory=simple_factory,
              settings={"speed": "fast"},
              review_factory=lambda m, i, p: Counted(m, i, p))
    sim.press("A")
    to_result(sim)
    assert steps
    per_call = {}
    for f in steps:
        per_call[f] = per_call.get(f, 0) + 1
    # the fake clock stands still: the step cap ends each slice
    assert max(per_call.values()) <= RV.SLICE_STEPS
    rv = sim.app.reviews
    assert rv.cur is None and rv.last == 0 and rv.review_of(0)[0] > 0


def test_a_slice_stops_before_a_step_would_pass_its_time():
    t = [0]
    took = [15]

    class Timed(CannedReview):
        def step(self):
            t[0] += took[0]
            return CannedReview.step(self)

    m = engine.Match(engine.CARDEMS, 4)
    while m.phase != "hand_over":
        m.act(simple_factory("x", 0).choose(m.view(m.to_move)))
    rv = RV.Reviews(lambda mm, i, p: Timed(mm, i, p), lambda: None)
    rv.follow(m)
    assert rv.pending()
    assert rv.work(lambda: t[0])
    # 15 ms a step: a third would end at 45 ms, past the 40 ms slice
    assert rv.cur.j == 2 and t[0] == 30
    took[0] = 50
    assert rv.work(lambda: t[0])
    assert rv.cur.j == 3 and rv.step_ms == 50
    # a step as long as the longest seen no longer fits: one a slice
    took[0] = 5
    assert rv.work(lambda: t[0])
    assert rv.cur.j == 4


def test_the_match_review_and_statistics_count_the_whole_match_once():
    storage = MemStorage()
    sim = to_match_end(5, storage)
    m = sim.app.match
    rs = apart(m, len(m.results))
    n = sum([r.n for r in rs])
    total = sum([r.total for r in rs])
    rv = sim.app.reviews
    assert rv.match_done() and rv.n == n and rv.total == total
    st = sim.app.stats
    assert st.reviewed == n and st.review_cost == total and st.review_matches == 1
    assert st.review_avg == (total * 100 + 8 * n) // (16 * n)
    assert Stats.decode(gamesave.split(storage.files["game"])[0]).reviewed == n
    scr = sim.app.screen
    assert scr.review.startswith(b"REVIEW -") and scr.review.endswith(b" EACH, %d DECISIONS" % n)
    sim.press("D")
    mr = sim.app.screen
    assert sim.screen == "match_review" and mr.ready and mr.n == n
    worst = max([(r.cost[r.worst()], -i, r.record(r.worst()))
                 for i, r in enumerate(rs) if r.worst() >= 0])
    assert mr.worst == entry_lines(worst[2]) and mr.worst_hand == 1 - worst[1]
    sim.press("B")
    assert sim.screen == "match_end"
    sim.press("A")
    assert sim.screen == "title" and st.review_matches == 1   # counted once


def test_leaving_the_match_end_before_the_review_is_made_still_counts_it():
    sim = to_match_end(5, MemStorage())
    st = sim.app.stats
    n = st.reviewed
    # as if the last hand's review were not made yet: a fresh one
    rv = sim.app.reviews
    rv.counted = False
    st.reviewed = st.review_cost = st.review_avg = st.review_matches = 0
    last = Review(sim.app.match, rv.last, 0, Player("hard", 0)).run()
    rv.n -= last.n
    rv.total -= last.total
    rv.cur = Review(sim.app.match, rv.last, 0, rv.player)
    rv.absorbed = False
    assert rv.pending()
    sim.press("A")                        # to the title at once
    assert sim.screen == "title" and sim.app.match is None
    sim.settle()
    assert st.reviewed == n and st.review_matches == 1
    assert rv.match is None                              # let go once counted


def test_after_a_resume_the_finished_hands_are_reviewed_again_from_the_first():
    storage = MemStorage()
    sim = new_sim(seed=6, storage=storage)
    to_result(sim)
    sim.press("A")
    to_result(sim)
    sim.press("A")
    assert sim.screen == "play"
    before = (sim.app.reviews.n, sim.app.reviews.total)
    again = Sim(seed=99, storage=storage, player_factory=simple_factory)
    again.settle()
    again.press("A")                      # CONTINUE
    assert again.screen == "play" and len(again.app.match.results) == 2
    again.settle()
    rv = again.app.reviews
    assert not rv.pending() and rv.next == 2
    assert (rv.n, rv.total) == before


def test_the_box_game_is_not_reviewed():
    from engine.box import BoxMatch
    rv = RV.Reviews()
    rv.follow(BoxMatch(seed=1))
    assert not rv.pending() and not rv.match_done()


def test_statistics_keep_the_review_figures_and_older_files_load():
    st = Stats()
    st.matches = 2
    st.record_review(20, 16 * 30)             # 1.5 a decision
    assert (st.reviewed, st.review_cost, st.review_avg, st.review_matches) == (20, 480, 150, 1)
    st.record_review(10, 16 * 5)              # 0.5: a quarter of the way
    assert st.review_avg == 125 and st.review_matches == 2
    st.record_review(0, 0)                    # nothing reviewed: no change
    assert st.review_matches == 2
    back = Stats.decode(st.encode())
    assert (back.reviewed, back.review_cost, back.review_avg, back.review_matches) == (
        30, 560, 125, 2)
    old = Stats.decode(b"hands=3\nmatches=1\n")
    assert old.hands == 3 and old.reviewed == 0 and old.review_matches == 0
    # files of versions 1 (the counters) and 2 (and the style record, tag
    # 10) load with the review's fields (version 3, tags 11-14) at 0
    assert VERSION == 3
    st = Stats()
    st.matches = st.hands = 4
    st.style = b"\x05\x06"
    data = bytes(st.encode())
    v2 = data.index(bytes((11, 1)))           # the first review field, 1 byte
    v1 = data.index(bytes((10, 2)))           # the style record
    old = Stats.decode(data[:2] + b"\x02" + data[3:v2])
    assert old.matches == 4 and old.style == b"\x05\x06" and old.reviewed == 0
    assert old.review_matches == 0 and old.review_avg == 0
    old = Stats.decode(data[:2] + b"\x01" + data[3:v1])
    assert old.matches == 4 and old.style == b"" and old.reviewed == 0
    # reviews the matches cannot account for are damage
    bad = Stats()
    bad.record_review(3, 16)                  # no match counted for it: not counted
    assert bad.reviewed == bad.review_matches == 0
    bad.reviewed, bad.review_cost, bad.review_matches = 3, 16, 1
    try:
        Stats.decode(bad.encode())
    except ValueError as e:
        assert "do not add up" in str(e)
    else:
        raise AssertionError("accepted")


def test_the_hints_hard_player_reviews_the_hands():
    # with the device's own players the hint's hard player is the reviewer
    # (one hard player fewer on the heap); a hint during play changes no
    # review
    sim = Sim(seed=8, storage=MemStorage(), level="easy", settings={"speed": "fast"})
    sim.press("A")
    sim.press("LB")                       # a hint before any review
    sim.press("A")
    to_result(sim)
    rv = sim.app.reviews
    assert rv.player is sim.app.life.hint_player and rv.player.level == "hard"
    m = sim.app.match
    assert rv.review_of(0)[0] == apart(m, 1)[0].n
    assert rv.n == apart(m, 1)[0].n and rv.total == apart(m, 1)[0].total


def test_a_review_that_runs_out_of_memory_leaves_its_hand_unreviewed_and_the_game_goes_on():
    # the .mpy bundle's heap can be too full for a hand's review: that hand
    # says so on its review screen, nothing is counted for it, and the next
    # hand is reviewed as usual
    fail = [True]

    def make(m, i, p):
        if fail[0]:
            fail[0] = False
            raise MemoryError("memory allocation failed")
        return Review(m, i, 0, p)

    sim = new_sim()
    sim.app.reviews = RV.Reviews(make, lambda: Player("hard", 1))
    to_result(sim)
    sim.press("D")
    scr = sim.app.screen
    assert sim.screen == "review" and scr.ready and scr.n == 0 and not scr.entries
    assert sim.app.reviews.lost == 0
    shown = bytes(sim.image())           # the screen says so (its "lost" branch)
    sim.app.reviews.lost = -1
    sim.app.screen.dirty = True
    sim.step()
    assert bytes(sim.image()) != shown   # ... not "nothing to show"
    sim.app.reviews.lost = 0
    sim.press("B")
    sim.press("A")
    assert sim.screen == "play"
    to_result(sim)
    m = sim.app.match
    r = apart(m, 2)[-1]
    sim.press("D")
    scr = sim.app.screen
    assert scr.ready and scr.n == r.n and sim.app.reviews.lost == 0
    assert sim.app.reviews.n == r.n            # only the reviewed hand counted


def test_with_too_little_memory_free_no_review_is_started():
    # the bundle's heap after a collection: a review would leave the next
    # screen no room, so the hand is left unreviewed before anything is made
    made = []

    def make(m, i, p):
        made.append(i)
        return Review(m, i, 0, p)

    short = [True]
    sim = new_sim()
    sim.app.reviews = RV.Reviews(make, lambda: Player("hard", 1), lambda: short[0])
    to_result(sim)
    sim.press("D")
    assert sim.app.screen.ready and sim.app.reviews.lost == 0 and made == []
    sim.press("B")
    sim.press("A")
    short[0] = False
    to_result(sim)
    sim.press("D")
    assert sim.app.screen.ready and made == [1] and sim.app.reviews.lost == 0


def test_a_match_with_no_hand_reviewed_loads_none_of_the_reviews_words(monkeypatch):
    # the .mpy bundle: too little heap for any review. The match end and its
    # review say so without importing engine.review_text (and engine.review,
    # which it imports): from the bundle their code stayed on the heap for
    # every later match
    import sys

    sim = new_sim(target=50)
    sim.app.reviews = RV.Reviews(None, lambda: Player("hard", 1), lambda: True)
    for name in ("engine.review_text", "engine.review"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    while sim.screen != "match_end":
        to_result(sim)
        sim.press("A")
    assert sim.app.reviews.match_done() and sim.app.reviews.n == 0
    assert sim.app.screen.review == b"HANDS NOT REVIEWED"
    sim.press("D")
    assert sim.screen == "match_review" and sim.app.screen.ready and sim.app.screen.n == 0
    sim.app.screen.draw(sim.app.canvas)
    assert "engine.review_text" not in sys.modules and "engine.review" not in sys.modules


def test_costs_never_show_minus_zero_and_the_summary_fits_its_line():
    from engine.review_text import cost
    from firmware.screens.match_end import LINE_CHARS, review_summary
    from firmware.screens.review import average_text, running_text
    assert cost(1, 3) == "0.0" and cost(16 * 13, 10) == "-1.3"
    assert average_text(1, 122) == b"0.0" and average_text(0, 0) == b"0.0"
    assert running_text(4) == b"0.0" and running_text(80) == b"-0.8"
    assert review_summary(1, 122) == b"REVIEW 0.0 EACH, 122 DECISIONS"
    for total, n in ((16 * 122, 122), (16 * 9999, 9999), (5, 1234)):
        line = review_summary(total, n)
        assert len(line) <= LINE_CHARS and b"-0.0" not in line, line
        assert str(n).encode() in line
