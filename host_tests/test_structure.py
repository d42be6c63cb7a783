"""The tree's structure (tools/dev/structure.py): no import cycles, no
private names taken across modules, no imports against the layers
(engine < firmware < circuitpython/, web/ < tools < host_tests), and the
whiteboard: the arrows between firmware/'s packages are structure.ARROWS,
no more and no fewer, and docs/DEVELOPING.md draws that table.

KNOWN holds the violations the tree has now, each to be removed by moving
the shared piece to a third module or the kit down to where its users can
import it. The test fails on a violation that is not in KNOWN, and on an
entry of KNOWN that no longer occurs: so the list only shrinks; delete an
entry with the change that removes it.
"""

import os
import re
import textwrap

import pytest

from tools.dev import structure

KNOWN_CYCLES = set()

KNOWN_PRIVATE = set()

KNOWN_UPWARD = set()


@pytest.fixture(scope="module")
def tree():
    return structure.Project()


def _check(found, known, what):
    found = set(found)
    new = sorted(found - known)
    gone = sorted(known - found)
    assert not new, "new %s: %s" % (what, new)
    assert not gone, "%s no longer found: delete them from KNOWN: %s" % (what, gone)


def test_no_import_cycles(tree):
    _check((group for group, _ in tree.cycles()), KNOWN_CYCLES, "import cycles")


def test_no_private_names_across_modules(tree):
    _check(tree.private_names(), KNOWN_PRIVATE, "private names imported across modules")


def test_no_upward_imports(tree):
    _check(tree.upward(), KNOWN_UPWARD, "imports against the layers")


def test_the_packages_import_only_along_the_whiteboards_arrows(tree):
    bad, unused = tree.against_arrows()
    assert not bad, ("imports along no arrow of the whiteboard (tools/dev/structure.py ARROWS; "
                     "a new arrow is a decision: add it there and redraw docs/DEVELOPING.md): %s" % bad)
    assert not unused, "arrows of ARROWS the code no longer has: delete them there: %s" % unused


WHITEBOARD = re.compile(r"<!-- whiteboard -->\n```text\n(.*?)```\n<!-- /whiteboard -->", re.S)


def test_the_docs_whiteboard_is_the_table():
    with open(os.path.join(structure.ROOT, "docs", "DEVELOPING.md"), encoding="utf-8") as f:
        m = WHITEBOARD.search(f.read())
    assert m, "docs/DEVELOPING.md has no whiteboard between <!-- whiteboard --> marks"
    assert m.group(1) == structure.picture(), (
        "docs/DEVELOPING.md's whiteboard is not ARROWS' picture: "
        "paste `.venv/bin/python -m tools.dev.structure --picture` there:\n" + structure.picture())


def test_every_package_of_firmware_is_a_box_of_the_whiteboard(tree):
    """A new package of firmware/ gets its box and arrows (or it would be
    counted as the core's)."""
    found = {m.split(".")[1] for m in tree.packages if m.startswith("firmware.")}
    assert found == set(structure.BOXES) - {"core", "engine"}


def _write(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))


def test_the_checker_sees_each_kind(tmp_path):
    """A small tree with one of each: the checker finds them, and only them.
    (The sources that edit sys.path are split in this file's own strings,
    so that the real tree's count is not this test's.)"""
    _write(str(tmp_path), {
        "engine/__init__.py": "",
        "engine/a.py": "from .b import B\n_HIDDEN = 1\n",
        "engine/b.py": "B = 1\n\ndef late():\n    from engine import a\n    return a._HIDDEN\n",
        "engine/c.py": "from engine.a import _HIDDEN\nimport firmware.f\n",
        "firmware/__init__.py": "",
        "firmware/f.py": "import sys\nimport os\nsys." + "path.insert(0, os.path.join(ROOT, 'tools', 'x'))\nimport tool\n",
        "tools/x/tool.py": "import engine.a\n",
        "web/w.py": "import cpports\n",
        "circuitpython/cpports.py": "import board\n",
        "host_tests/test_a.py": "from engine.a import _HIDDEN\nS = 'import sys\\nsys." + "path.append(0)\\n'\n",
    })
    p = structure.Project(str(tmp_path))
    assert [g for g, _ in p.cycles()] == [("engine.a", "engine.b")]
    assert p.cycles()[0][1] == ("engine.a", "engine.b", "engine.a")
    assert p.private_names() == [("engine.b", "engine.a", "_HIDDEN"), ("engine.c", "engine.a", "_HIDDEN")]
    assert p.white_box() == [("host_tests.test_a", "engine.a", "_HIDDEN")]
    assert p.upward() == [("engine.c", "firmware.f"), ("firmware.f", "tools.x.tool"),
                          ("web.w", "circuitpython.cpports")]
    assert p.path_edit_counts() == (1, 0, 1)
    assert p.function_imports == 1


def test_the_whiteboard_sees_an_arrow_it_does_not_allow(tmp_path):
    """A display module importing the link, and a table arrow the code does
    not have: both found, and only they."""
    _write(str(tmp_path), {
        "engine/__init__.py": "",
        "firmware/__init__.py": "",
        "firmware/compat.py": "import engine\n",
        "firmware/display/__init__.py": "",
        "firmware/display/fb.py": "from firmware import compat\nfrom firmware.link import link\n",
        "firmware/link/__init__.py": "",
        "firmware/link/link.py": "from firmware.compat import x\n",
    })
    p = structure.Project(str(tmp_path))
    assert p.arrows() == {("core", "engine"): [("firmware.compat", "engine")],
                          ("display", "core"): [("firmware.display.fb", "firmware.compat")],
                          ("display", "link"): [("firmware.display.fb", "firmware.link.link")],
                          ("link", "core"): [("firmware.link.link", "firmware.compat")]}
    allowed = {"core": ("engine",), "display": ("core",), "link": ("core", "board")}
    assert p.against_arrows(allowed) == ([("firmware.display.fb", "firmware.link.link")],
                                         [("link", "board")])
    assert structure.picture(allowed).splitlines()[2] == "link    --> core  board"
