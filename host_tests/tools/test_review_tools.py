"""The hand review off the device: tools/records/replay.py --review on CPython and
the MicroPython unix port (the same bytes), for either seat; and a review
allocates nothing once made, on the unix port and the 32-bit WebAssembly
port (host_tests/mp_review_alloc.py under micropython.heap_lock())."""
import os
import re

import pytest

from test_runtimes import ROOT, run, report, text_of

AI_MATCH = os.path.join(ROOT, "tools", "records", "ai_match.py")
REPLAY = os.path.join(ROOT, "tools", "records", "replay.py")
ALLOC = os.path.join(ROOT, "host_tests", "mp_review_alloc.py")


@pytest.fixture(scope="module")
def easy_vs_hard(tmp_path_factory):
    """The record of tools/records/ai_match.py's second match: easy (seat 0, YOU)
    against hard (seat 1, the CPU)."""
    cmd, p = run("cpython", [AI_MATCH, "7"])
    assert p.returncode == 0, report("cpython", cmd, p)
    text = text_of(p.stdout)
    part = text[text.index("# easy (seat 0) vs hard (seat 1)"):]
    part = "\n".join([ln for ln in part.splitlines() if not ln.startswith("#")]) + "\n"
    path = tmp_path_factory.mktemp("rec") / "easy_vs_hard.txt"
    path.write_text(part)
    return str(path)


def _replay(runtime, args):
    cmd, p = run(runtime, [REPLAY] + args)
    return cmd, p, text_of(p.stdout)


def test_replay_review_of_the_easy_seat_shows_its_costliest_decisions(easy_vs_hard):
    cmd, p, out = _replay("cpython", ["--review", easy_vs_hard])
    assert p.returncode == 0, report("cpython", cmd, p)
    hands = out.count("\nhand ")
    reviews = re.findall(r"  review of YOU: (\d+) decisions?, (\d+) points? of cost", out)
    assert len(reviews) == hands >= 3
    shown = re.findall(r"^    (T\d+ YOU .+) / (.+)  -(\d+)$", out, re.M)
    assert len(shown) >= hands          # most hands show something
    for first, second, pts in shown:
        assert int(pts) >= 1
    assert re.search(r"^review of YOU over the match: \d+ decisions, \d+\.\d points a decision", out, re.M)
    assert re.search(r"^costliest: hand \d+, T\d+ YOU ", out, re.M)
    assert "\nreplayed: every deal number, move and result as recorded\n" in out


def test_replay_review_of_the_hard_cpu_finds_nothing(easy_vs_hard):
    cmd, p, out = _replay("cpython", ["--review", "--seat", "1", easy_vs_hard])
    assert p.returncode == 0, report("cpython", cmd, p)
    n = out.count("  review of CPU: ")
    assert n >= 3
    assert out.count("    nothing worth showing: no decision cost a point or more") == n
    assert "costliest" not in out
    assert re.search(r"^review of CPU over the match: \d+ decisions, 0\.0 points", out, re.M)


def test_replay_review_is_the_same_on_micropython(easy_vs_hard):
    _, a, out_a = _replay("cpython", ["--review", easy_vs_hard])
    cmd, b, out_b = _replay("micropython-unix", ["--review", easy_vs_hard])
    assert b.returncode == 0, report("micropython-unix", cmd, b)
    assert out_a == out_b


def test_replay_review_refuses_bad_options_and_box_records(tmp_path, easy_vs_hard):
    for args in (["--seat", "1", easy_vs_hard], ["--review", "--seat", "2", easy_vs_hard],
                 ["--reviews", easy_vs_hard], ["--review"]):
        cmd, p, out = _replay("cpython", args)
        assert p.returncode == 2 and "usage: replay.py" in out, (args, out)
    box = tmp_path / "box.txt"
    box.write_text("gin-rummy box record 1\n")
    cmd, p, out = _replay("cpython", ["--review", str(box)])
    assert p.returncode == 1 and "box game record" in out


@pytest.mark.parametrize("runtime", ["micropython-unix", "micropython-wasm"])
def test_a_review_allocates_nothing_once_made(runtime):
    cmd, p = run(runtime, [ALLOC, ROOT])
    out = text_of(p.stdout) + text_of(p.stderr)
    assert p.returncode == 0, report(runtime, cmd, p)
    found = re.search(r"review alloc-free: (\d+) reviews, (\d+) decisions, (\d+) shown", out)
    assert found and int(found.group(1)) >= 10 and int(found.group(3)) > 0, out
