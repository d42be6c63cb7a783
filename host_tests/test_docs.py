"""The docs stay true to the tree: every repository path and every `make`
target that README.md and docs/*.md name exists, and every figure marker
ties a number to a command that exists (tools/bench/check_docs.py; `make
check-docs` runs the commands and compares the figures)."""

import os

from tools.bench import check_docs as cd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_path_the_docs_name_exists():
    paths, _ = cd.missing(ROOT)
    assert not paths, "named in the docs, missing from the tree:\n" + "\n".join(paths)


def test_every_make_target_the_docs_name_exists():
    _, targets = cd.missing(ROOT)
    assert not targets, "not a Makefile target:\n" + "\n".join(targets)


def test_the_docs_have_one_job_each_and_the_readme_stays_short():
    docs = cd.doc_files(ROOT)
    for want in ("README.md", "docs/HARDWARE.md", "docs/AI.md", "docs/DEVICE.md",
                 "docs/DEVELOPING.md", "docs/RULES.md"):
        assert want in docs, want
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        n = len(f.read().splitlines())
    assert n <= 300, "README.md has %d lines (at most 300)" % n


def test_every_figure_marker_names_a_command_a_pattern_and_a_tolerance():
    figs = cd.all_figures(ROOT)
    assert len(figs) >= 10
    bad = ["%s: %s" % (f.where(), p) for f in figs for p in f.problems()]
    assert not bad, "\n".join(bad)
    # every command tied to a figure is run by check-docs or marked measured
    assert any(f.measured is None for f in figs)


# ---- the checker itself ------------------------------------------------------

def test_paths_are_read_from_code_spans_blocks_and_links_not_from_prose():
    text = (
        "Run `.venv/bin/python tools/sim/simulator.py --png shots/` then see\n"
        "[the rules](RULES.md), ![pic](../web/screenshot.png) and [site](https://x.org/a).\n"
        "```\nmake uf2 MICROPY_DIR=$PWD/micropython\n.venv/bin/python tools/nope.py\n```\n"
        "Globs and board paths are not checked: `cp*.py`, `/data/records`, `firmware/**/*.mpy`,\n"
        "`engine` alone, `./saves/`; prose engine/ is not read. `docs/` is a folder.\n")
    got = cd.paths_named(text, "docs/X.md")
    assert got == {"tools/sim/simulator.py", "docs/RULES.md", "web/screenshot.png",
                   "tools/nope.py", "docs"}
    assert cd.make_targets_named(text) == {"uf2"}
    assert cd.make_targets_named("`make web WEB_PORT=N`, `make -C x`, make sure") == {"web"}


def test_a_test_a_doc_names_must_be_defined_in_its_file(tmp_path):
    # the "protects against" tables name the tests that attack each row
    (tmp_path / "host_tests").mkdir()
    (tmp_path / "host_tests" / "test_x.py").write_text("def test_here():\n    pass\n")
    assert cd.names_something(str(tmp_path), "host_tests/test_x.py::test_here")
    assert not cd.names_something(str(tmp_path), "host_tests/test_x.py::test_gone")
    assert not cd.names_something(str(tmp_path), "host_tests/test_y.py::test_here")


def test_missing_paths_and_targets_are_reported(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "here.py").write_text("")
    (tmp_path / "Makefile").write_text(
        ".PHONY: test play\ntest: venv\n\techo make nothing: here\nweb-build: x\nA := 1\n")
    (tmp_path / "README.md").write_text(
        "`make test`, `make web-build`, `make bench`; `tools/here.py`, `tools/gone.py`\n")
    (tmp_path / "docs" / "A.md").write_text("[readme](../README.md) [b](B.md) `make play`\n")
    paths, targets = cd.missing(str(tmp_path))
    assert paths == ["tools/gone.py (README.md)", "docs/B.md (docs/A.md)"]
    assert targets == ["make bench (README.md)"]
    assert cd.makefile_targets(str(tmp_path)) == {"test", "play", "web-build"}


def test_a_figure_is_compared_within_its_tolerance_and_can_be_off():
    text = ('| load | 743 KB <!-- figure cmd="tools/bench/bench_web.py" '
            'find="total ([\\d,]+) bytes" scale=0.001 tol=5% --> |\n'
            'best discard 2.0 us <!-- figure cmd="tools/bench/bench_engine.py" '
            'find="best_discard4\\s+([\\d.]+)" tol=0.5 -->\n'
            'boot 328 ms <!-- figure cmd="tools/bench/bench_pico.py" '
            'measured="emulated Pico, 2026-12-05" -->\n')
    web, eng, pico = cd.figures(text, "docs/X.md")
    assert (web.value, eng.value, pico.value) == (743, 2.0, 328)
    assert not web.problems() and not eng.problems() and not pico.problems()
    assert web.compare("page: total 743,745 bytes")[0]
    ok, got, _ = web.compare("page: total 800,000 bytes")
    assert not ok and got == 800.0
    assert eng.compare("best_discard4   2.4 us")[0]
    assert not eng.compare("best_discard4   2.6 us")[0]
    assert not eng.compare("nothing here")[0]
    assert pico.measured == "emulated Pico, 2026-12-05"
    broken = cd.figures('x 5 <!-- figure cmd="tools/none.py" find="(" tol=abc -->', "d")[0]
    assert len(broken.problems()) == 3


# ---- the README's pictures are the current build's ------------------------------

# The README's copy of a screen -> the golden screenshot it is (host_tests/ui/golden,
# which the UI tests keep pixel-exact to the build): a golden that changes
# while its copy does not fails here.
README_SCREENS = {
    "docs/screens/play.png": "host_tests/ui/golden/81_play_commitment.png",
    "docs/screens/showdown.png": "host_tests/ui/golden/82_showdown_commitment.png",
    "docs/screens/title.png": "host_tests/ui/golden/01_title.png",
}


def _bytes(rel):
    with open(os.path.join(ROOT, rel), "rb") as f:
        return f.read()


def test_the_readme_screens_are_copies_of_the_current_goldens():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert "host_tests/ui/golden/" not in readme      # the README shows copies, checked here
    for copy, golden in README_SCREENS.items():
        assert "(%s)" % copy in readme, copy
        assert _bytes(copy) == _bytes(golden), (
            "%s is not %s any more: cp %s %s" % (copy, golden, golden, copy))


def test_the_readme_review_picture_is_what_the_review_shows_now(tmp_path):
    """docs/review.png is tools/sim/review_shot.py's picture of a real hand
    review: the evaluator's current one."""
    import subprocess
    import sys
    out = tmp_path / "review.png"
    r = subprocess.run([sys.executable, "-m", "tools.sim.review_shot", "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    from tools.sim import render
    assert render.from_png(str(out)) == render.from_png(os.path.join(ROOT, "docs", "review.png")), (
        "docs/review.png is not the review the game shows now: run python -m tools.sim.review_shot")
