"""The tree's structure (tools/dev/structure.py): no import cycles, no
private names taken across modules, no imports against the layers
(engine < firmware < circuitpython/, web/ < tools < host_tests).

KNOWN holds the violations the tree has now, each to be removed by moving
the shared piece to a third module or the kit down to where its users can
import it. The test fails on a violation that is not in KNOWN, and on an
entry of KNOWN that no longer occurs: so the list only shrinks; delete an
entry with the change that removes it.
"""

import os
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
