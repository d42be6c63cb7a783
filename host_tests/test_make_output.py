"""What `make` prints: `make records` without a board gives its two lines of
advice, not its recipe; `make test` lists why each skipped test skipped."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_make_records_without_a_board_says_what_to_check_not_its_recipe():
    r = subprocess.run(["make", "records", "PORT=/dev/nonexistent-tty"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert "No records yet?" in out and "Check the USB cable" in out
    assert "fs cp -r" not in out and "echo " not in out          # the recipe is not echoed


def test_the_test_summary_gives_the_reason_of_every_skip(tmp_path):
    probe = tmp_path / "test_probe.py"
    probe.write_text("import pytest\n\n\ndef test_needs_a_thing():\n"
                     "    pytest.skip('the probe needs a thing: install it')\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-c", os.path.join(ROOT, "pyproject.toml"),
                        "--rootdir", str(tmp_path), "-p", "no:cacheprovider", str(probe)],
                       cwd=str(tmp_path), capture_output=True, text=True, timeout=120)
    assert "1 skipped" in r.stdout
    assert "SKIPPED [1]" in r.stdout and "the probe needs a thing: install it" in r.stdout


def _makefile_targets():
    """Every rule target the Makefile names literally (not $(VAR) files or
    variable assignments)."""
    out = set()
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([A-Za-z0-9_.-]+(?:\s+[A-Za-z0-9_.-]+)*)\s*:(?!=)", line)
            if m and not line.startswith(".PHONY"):
                out.update(m.group(1).split())
    return out


def test_make_help_lists_every_target_with_a_line_each():
    r = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    listed = {}
    for line in r.stdout.splitlines()[1:]:
        words = line.split(None, 1)
        assert len(words) == 2, "a target without its line: %r" % line
        listed[words[0]] = words[1]
    targets = _makefile_targets()
    assert {"test", "uf2", "web", "records", "flash-circuitpython", "ai-table", "release",
            "verify-release", "help"} <= targets
    assert targets - set(listed) == set(), "not in make help"
    assert set(listed) - targets == set()
