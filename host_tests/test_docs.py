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


def test_the_pages_name_the_newest_release():
    """README.md and docs/*.md send a reader to the newest release in
    dist/, never an older one (tools/deploy/pages.py)."""
    from tools.deploy import pages
    assert pages.newest(ROOT) is not None
    assert cd.release_names(ROOT) == [], "\n".join(cd.release_names(ROOT))


def test_no_page_and_no_message_of_the_game_asks_for_a_reset_button():
    """A Pico has no reset button: the pages and the game's own words say
    to unplug the board and plug it in again (HARDWARE.md offers a button
    on RUN as an option)."""
    import re
    said = re.compile(r"press(?:ing)? (?:the )?reset|reset to play|asks? for a reset", re.I)
    where = cd.doc_files(ROOT) + ["tools/deploy/release.py"]
    for top in ("engine", "firmware", "circuitpython", "web"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            where += [os.path.relpath(os.path.join(d, f), ROOT) for f in files
                      if f.endswith((".py", ".js", ".html"))]
    found = []
    for rel in where:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if said.search(line):
                    found.append("%s:%d: %s" % (rel, i, line.strip()))
    assert not found, "\n".join(found)
    with open(os.path.join(ROOT, "docs", "HARDWARE.md"), encoding="utf-8") as f:
        hw = f.read()
    assert "RUN (pin 30)" in hw and "unplug the board and plug it in again" in hw


def test_one_figure_one_place():
    """No figure is stated on two pages with different values, and no
    figure marker's command and pattern are on two pages (make check-docs
    runs the same check)."""
    assert cd.figures_disagree(ROOT) == [], "\n".join(cd.figures_disagree(ROOT))


def test_every_promise_names_the_tests_that_attack_it():
    """Every row of the 'protects against' tables of FAIRNESS.md, LINK.md,
    SAVES.md and BOARD.md names tests of host_tests that exist (make
    check-docs runs the same check)."""
    assert cd.promise_problems(ROOT) == [], "\n".join(cd.promise_problems(ROOT))
    rows = 0
    for rel in cd.PROMISE_PAGES:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            for _, head, body in cd.tables(f.read()):
                if head[0].lower().startswith("protects against"):
                    rows += len(body)
    assert rows >= 20


# ---- the checker itself ------------------------------------------------------

def test_a_promise_without_a_real_test_is_refused(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "host_tests" / "a").mkdir(parents=True)
    (tmp_path / "host_tests" / "a" / "test_x.py").write_text(
        "def test_one():\n    pass\n\n\nclass TestK:\n    def test_two(self):\n        pass\n")
    (tmp_path / "host_tests" / "a" / "test_y.py").write_text("def test_two():\n    pass\n")
    for page in ("FAIRNESS", "LINK", "SAVES"):
        (tmp_path / "docs" / (page + ".md")).write_text(
            "| protects against | attacked by |\n|---|---|\n| **x** | `test_one` |\n")

    def problems(board):
        (tmp_path / "docs" / "BOARD.md").write_text(board)
        return cd.promise_problems(str(tmp_path))
    good = ("| protects against | how | attacked by |\n|---|---|---|\n"
            "| **A** | so | `test_one`, `host_tests/a/test_y.py::test_two` |\n"
            "| **B** | so | `host_tests/a/test_x.py::TestK::test_two` (the method) |\n\n"
            "| does not protect against | why |\n|---|---|\n| **C** | no test needed |\n\n"
            "What it does not protect against: said in prose, that is fine.\n")
    assert problems(good) == []
    got = problems(good.replace("`test_one`, ", "").replace(
        "| **B** | so |", "| **B** | so | nothing named |\n| **D** | so |"))
    assert len(got) == 1 and "BOARD.md:4: '**B**' names no test" in got[0], got
    for ref, why in (("test_two", "is defined in host_tests/a/test_x.py, host_tests/a/test_y.py"),
                     ("test_three", "no test of host_tests is named test_three"),
                     ("host_tests/a/test_y.py::test_one", "host_tests/a/test_y.py defines no test_one"),
                     ("tools/x.py::test_one", "tools/x.py is not a file of host_tests")):
        got = problems(good.replace("`test_one`", "`%s`" % ref))
        assert len(got) == 1 and why in got[0], (ref, got)
    got = problems(good.replace("| attacked by |", "| tests |"))
    assert len(got) == 1 and "no 'attacked by' column" in got[0]
    got = problems("What a noted DEAL # protects against:\n\n- **A record changed**\n")
    assert len(got) == 2 and "no 'protects against' table" in got[0] and "in prose" in got[1]
    assert problems("```\nthe code protects against nothing\n```\n" + good) == []


DEVICE_PAGE = """# Device figures

| | .mpy bundle | frozen .uf2 |
|---|---|---|
| free heap at the title | 16.5 KB <!-- figure cmd="tools/pico/figures.py" measured="x" --> | 177 KB |
| direction button to complete frame, median | 19.1 ms | 42.5 ms |

The idle simulator uses 0.00% of a core.
"""


def test_the_same_figure_on_two_pages_with_two_values_is_found(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "DEVICE.md").write_text(DEVICE_PAGE)

    def found(link_md):
        (tmp_path / "docs" / "LINK.md").write_text(link_md)
        return cd.figures_disagree(str(tmp_path))
    # the bundle's free heap at the title, said again with another value
    got = found("The .mpy bundle on the stock firmware has no room for the link\n"
                "(17.5 KB free at the title; the link takes about 16 KB).\n")
    assert len(got) == 1 and "docs/DEVICE.md:5" in got[0] and "docs/LINK.md:2" in got[0], got
    assert "'16.5 KB'" in got[0] and "17.5 KB" in got[0]
    # in bytes, another value: found; the same value within its precision: not
    assert len(found("the .mpy bundle has 17,424 bytes free at the title\n")) == 1
    assert found("the .mpy bundle has 16,848 bytes free at the title\n") == []
    assert found("the .mpy bundle has about 16 KB free at the title\n") == []
    # other figures with the same unit, code and comments: not this figure
    assert found("A .mpy file opened on littlefs takes a block of 1148 bytes.\n"
                 "The frozen .uf2 answers a direction in 42.5 ms at the median.\n"
                 "`the .mpy bundle has 99 KB free at the title`\n"
                 "<!-- the .mpy bundle has 99 KB free at the title -->\n"
                 "```\nthe .mpy bundle has 99 KB free at the title\n```\n") == []
    # a table elsewhere naming the same row and column
    got = found("| | .mpy bundle |\n|---|---|\n| free heap at the title | 24 KB |\n")
    assert len(got) == 1 and "'24 KB'" in got[0]
    # one marker's command and pattern on two pages: one figure stated twice
    marker = '<!-- figure cmd="tools/bench/bench_ui.py" find="worst median ([\\d.]+) ms" tol=100% -->'
    (tmp_path / "docs" / "DEVICE.md").write_text(DEVICE_PAGE + "Redraw: 0.08 ms %s\n" % marker)
    got = found("A redraw takes 0.08 ms %s\n" % marker)
    assert len(got) == 1 and "more than one page" in got[0], got


def _tree_with_releases(tmp_path, versions):
    for v in versions:
        d = tmp_path / "dist" / v
        d.mkdir(parents=True)
        (d / "RELEASE").write_text("version: %s\n" % v)
    (tmp_path / "docs").mkdir()


def test_a_page_that_names_an_older_release_is_refused_and_make_release_moves_it_on(tmp_path):
    from tools.deploy import pages
    _tree_with_releases(tmp_path, ["1.0.0", "1.9.0", "1.10.0"])
    (tmp_path / "dist" / "2.0.0").mkdir()          # no RELEASE: not a release
    assert pages.newest(str(tmp_path)) == "1.10.0"
    readme = ("Copy [`gin-rummy-pico-1.10.0.uf2`](dist/1.10.0/gin-rummy-pico-1.10.0.uf2).\n"
              "cd dist/1.9.0 && sha256sum -c SHA256SUMS\n"
              "Between releases the title says `Gin Rummy 1.11.0-dev`.\n")
    (tmp_path / "README.md").write_text(readme)
    (tmp_path / "docs" / "HW.md").write_text(
        "The console says `Gin Rummy 1.0.0`, then the display.\n"
        "A figure 33.7 ms <!-- figure measured=\"release 1.0.0 (dist/1.0.0)\" -->\n"
        "Measured on `dist/1.0.0/gin-rummy-pico-1.0.0.uf2` <!-- an older release -->\n"
        "Unpack gin-rummy-source-1.9.0.tar.gz; records of version 1.0.0 still verify.\n")
    got = cd.release_names(str(tmp_path))
    assert [g.split(": names")[0] for g in got] == ["README.md:2", "docs/HW.md:1",
                                                  "docs/HW.md:4"], got
    assert "names 1.9.0 ('dist/1.9.0')" in got[0] and "newest release is 1.10.0" in got[0]
    # make release, once 1.11.0 is built, moves every name on; nothing else
    (tmp_path / "dist" / "1.11.0").mkdir()
    (tmp_path / "dist" / "1.11.0" / "RELEASE").write_text("version: 1.11.0\n")
    assert sorted(pages.write_pages("1.11.0", str(tmp_path))) == ["README.md", "docs/HW.md"]
    assert cd.release_names(str(tmp_path)) == []
    text = (tmp_path / "README.md").read_text()
    assert text.count("1.11.0") == 5 and "1.10.0" not in text and "1.9.0" not in text
    hw = (tmp_path / "docs" / "HW.md").read_text()
    assert "`Gin Rummy 1.11.0`" in hw and "gin-rummy-source-1.11.0.tar.gz" in hw
    assert "(dist/1.0.0)" in hw and "`dist/1.0.0/gin-rummy-pico-1.0.0.uf2`" in hw
    assert "version 1.0.0 still" in hw
    assert pages.write_pages("1.11.0", str(tmp_path)) == []


def test_with_no_release_in_dist_no_page_is_refused(tmp_path):
    (tmp_path / "README.md").write_text("`dist/1.0.0/gin-rummy-pico-1.0.0.uf2`\n")
    assert cd.release_names(str(tmp_path)) == []


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
    "docs/screens/title.png": "host_tests/ui/golden/00_title_release.png",   # the newest release's
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
