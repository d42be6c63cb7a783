"""The latency bench (tools/pico/latency.py) and the release's use of it
(tools/deploy/release.py): the turn numbers it files presses under, the
frame that answers a press, the goals, the regressions against the previous
release, and a release refused, or accepted with its reason in the
CHANGELOG."""

import os

from tools.deploy import release as rel
from tools.pico import latency as lat


def presses(kind, ms_by_turn):
    return [(kind, turn, ms) for turn, ms in ms_by_turn]


def result(direction=(), a=()):
    return {"presses": presses(lat.DIRECTION, direction) + presses(lat.A, a), "free": []}


# -- the turn a press belongs to -------------------------------------------------------

DRAW = ["YOU 0   CPU 0   HAND %d DW 50", "> STOCK 30   PILE 7\u2663", "YOUR DRAW",
        "<> PICK A TAKE B MENU", "A\u2665 2\u2666"]
DISCARD = ["YOU 0   CPU 0   HAND %d DW 50", "STOCK 29   PILE 7\u2663", "YOUR DISCARD",
           "<> A DISCARD ^ KNOCK B MENU", "A\u2665 >2\u2666"]


def screen(lines, hand):
    return [lines[0] % hand] + lines[1:]


def test_a_turn_starts_at_the_draw_and_a_hand_starts_at_turn_one():
    r = lat.Recorder()
    seq = [(DRAW, 1, "cursor"), (DRAW, 1, "move"), (DISCARD, 1, "cursor"), (DISCARD, 1, "move"),
           (DRAW, 1, "move"), (DISCARD, 1, "move"),
           (DRAW, 2, "cursor"), (DRAW, 2, "move"), (DISCARD, 2, "move")]
    for i, (lines, hand, kind) in enumerate(seq):
        r.hook(None, "R", kind, screen(lines, hand), i * 10, i * 10 + 5)
    assert [(k, t) for k, t, _, _, _ in r.rows] == [
        (lat.DIRECTION, 1), (lat.A, 1), (lat.DIRECTION, 1), (lat.A, 1),
        (lat.A, 2), (lat.A, 2),
        (lat.DIRECTION, 1), (lat.A, 1), (lat.A, 1)]


class Frame:
    def __init__(self, t0, t1, image):
        self.t0, self.t1, self.image = t0, t1, image


class Board:
    def __init__(self, frames):
        self.frames = frames


def test_a_press_is_answered_by_the_first_frame_that_shows_something_new():
    ms = 1000000
    board = Board([Frame(5 * ms, 9 * ms, b"old"),       # before the press
                   Frame(12 * ms, 14 * ms, b"old"),     # after it, nothing new
                   Frame(20 * ms, 31 * ms, b"new")])
    rows = [(lat.DIRECTION, 1, 10 * ms, 50 * ms, b"old"),   # from the press
            (lat.A, 1, 0, 15 * ms, b"old"),                 # A: from the release
            (lat.DIRECTION, 1, 40 * ms, 80 * ms, b"new")]   # nothing new after it
    assert lat.answers(board, rows) == [(lat.DIRECTION, 1, 21.0), (lat.A, 1, 16.0),
                                        (lat.DIRECTION, 1, None)]


# -- goals and regressions -------------------------------------------------------------

def test_goals_hold_at_every_turn_group_not_only_over_the_run():
    early = [(t, 12.0) for t in (1, 2, 3) for _ in range(10)]
    fine = result(direction=early + [(9, 18.0)] * 5, a=[(1, 50.0)] * 5)
    assert lat.goals(fine) == []
    late = result(direction=early + [(9, 25.0)] * 5, a=[(1, 50.0)] * 5)
    assert lat.goals(late) == ["direction median 25.0 ms in turn 9+ (goal 20)"]
    worst = result(direction=early + [(5, 12.0)] * 4 + [(5, 41.0)],
                   a=[(1, 50.0)] * 4 + [(1, 121.0)])
    assert lat.goals(worst) == ["direction worst 41.0 ms (goal 40)", "A worst 121.0 ms (goal 120)"]
    lost = result(direction=early + [(2, None)])
    assert lat.goals(lost) == ["1 direction presses unanswered"]


def test_a_median_more_than_ten_percent_worse_than_the_last_release_is_a_regression():
    old = result(direction=[(t, 10.0) for t in range(1, 30)])
    assert lat.regressions(result(direction=[(t, 10.9) for t in range(1, 30)]), old) == []
    worse = lat.regressions(result(direction=[(t, 11.5) for t in range(1, 30)]), old)
    assert worse[0] == "direction median 11.5 ms in all turns, was 10.0 (+15%)"
    # too few presses in a group to compare it: only the groups with enough
    assert all("turn 1-3" not in w for w in worse)


def test_the_table_has_a_row_per_build_cache_and_button():
    r = result(direction=[(1, 12.0), (5, 13.0), (10, 14.0)], a=[(2, 50.0)])
    text = lat.table([("release 1.1.0", False, r), ("HEAD", True, r)])
    rows = text.splitlines()
    assert len(rows) == 2 + 4
    assert "turn 1-3 med/max" in rows[0] and "turn 9+" in rows[0]
    assert rows[2].split()[:4] == ["release", "1.1.0", "off", "direction"]
    assert "| 14.0/14.0" in rows[2]


# -- the release -----------------------------------------------------------------------

def fake_release(tmp_path, monkeypatch, problems):
    """release.main's `release` with the build and the bench stood in for:
    the bench finds `problems`. Returns (calls to the bench, notes made)."""
    calls, notes = [], []

    class Checkout:
        def __init__(self, rev):
            self.path = str(tmp_path / "src")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

        def run_script(self, args, **kw):
            os.makedirs(args[args.index("--out") + 1])

            class Done:
                returncode = 0
            return Done()

    monkeypatch.setattr(rel, "latency_check", lambda stage, version, dist, kit, matches=1:
                        calls.append(version) or problems)
    monkeypatch.setattr(rel, "note_latency", lambda *a: notes.append(a))
    monkeypatch.setattr(rel, "Checkout", Checkout)
    monkeypatch.setattr(rel, "set_plain_version", lambda path: "9.9.9")
    monkeypatch.setattr(rel, "dirty", lambda: [])
    return calls, notes


def test_a_release_the_bench_finds_slower_is_refused(tmp_path, monkeypatch):
    slow = ["release 9.9.9, cache on: A median 66.0 ms in turn 1-3 (goal 60)"]
    calls, notes = fake_release(tmp_path, monkeypatch, slow)
    dist = tmp_path / "dist"
    assert rel.main(["release", "--dist", str(dist), "--kit", str(tmp_path)]) == 1
    assert calls == ["9.9.9"] and notes == []
    assert not os.path.exists(str(dist / "9.9.9"))
    assert not os.path.exists(str(dist / "9.9.9.partial"))


def test_a_release_the_bench_finds_slower_goes_on_with_a_reason(tmp_path, monkeypatch):
    slow = ["release 9.9.9, cache on: A median 66.0 ms in turn 1-3 (goal 60)"]
    calls, notes = fake_release(tmp_path, monkeypatch, slow)
    dist = tmp_path / "dist"
    assert rel.main(["release", "--dist", str(dist), "--kit", str(tmp_path),
                     "--accept-latency", "longer hints"]) == 0
    assert os.path.isdir(str(dist / "9.9.9"))
    assert notes == [("9.9.9", slow, "longer hints")]


def test_a_release_the_bench_finds_nothing_against_needs_no_reason(tmp_path, monkeypatch):
    calls, notes = fake_release(tmp_path, monkeypatch, [])
    dist = tmp_path / "dist"
    assert rel.main(["release", "--dist", str(dist), "--kit", str(tmp_path)]) == 0
    assert calls == ["9.9.9"] and notes == [] and os.path.isdir(str(dist / "9.9.9"))


def test_an_accepted_latency_goes_into_the_changelog_under_the_version(tmp_path):
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text("# Changelog\n\nIntro.\n\n## 9.9.9\n\n- **Something new.**\n\n## 9.9.8\n")
    rel.note_latency("9.9.9", ["A median 66.0 ms in turn 1-3 (goal 60)"],
                     "the review screen's new text. ", str(changelog))
    text = changelog.read_text()
    assert text.index("## 9.9.9") < text.index("Released with slower") < text.index(
        "Something new") < text.index("## 9.9.8")
    assert ("- **Released with slower buttons than the bench allows** (the review screen's "
            "new text): A median 66.0 ms in turn 1-3 (goal 60).\n") in text
