"""The AI on every runtime: same moves everywhere, no allocation.

(a) tools/records/ai_match.py prints the records of seeded AI-vs-AI matches (hard vs
    normal, easy vs hard; the players decide in slices, as the App asks
    them); CPython (two hash seeds), the MicroPython unix
    port and the WebAssembly port must print the same bytes (the AI's
    determinism: no dict/set order, no floats, engine.rng only).
(b) tools/records/ai_match.py --heap-lock re-makes every hard decision of a match
    under micropython.heap_lock() on the unix port (64-bit) and the
    WebAssembly port (32-bit like the RP2040, where an int reaching 2**30
    would allocate too): a steady-state decision allocates nothing.
"""
import difflib
import os
import re

import pytest

from test_runtimes import ROOT, run, run_all, report, text_of

AI_MATCH = os.path.join(ROOT, "tools", "records", "ai_match.py")


@pytest.fixture(scope="module")
def ai_records():
    # CPython with two hash seeds, the unix port, the WebAssembly port
    return run_all([AI_MATCH, "7"])


def test_ai_match_runs_everywhere(ai_records):
    problems = [report(label, cmd, p) for label, cmd, p in ai_records
                if p.returncode != 0 or not p.stdout.strip()]
    assert not problems, "ai_match.py failed:\n" + "\n\n".join(problems)


def test_ai_moves_identical_on_every_runtime(ai_records):
    ref_label, _, ref = ai_records[0]
    assert b"# hard (seat 0) vs normal (seat 1)" in ref.stdout
    assert ref.stdout.count(b"\nwinner ") == 2
    for label, cmd, p in ai_records[1:]:
        if p.returncode != 0:
            continue
        if p.stdout != ref.stdout:
            diff = "".join(difflib.unified_diff(
                text_of(ref.stdout).splitlines(True), text_of(p.stdout).splitlines(True),
                ref_label, label, n=2))
            pytest.fail("AI match records differ between %s and %s:\n%s" % (
                ref_label, label, diff[:20000]), pytrace=False)


@pytest.mark.parametrize("runtime", ["micropython-unix", "micropython-wasm"])
def test_ai_decision_allocates_nothing_under_heap_lock(runtime):
    cmd, p = run(runtime, [AI_MATCH, "--heap-lock", "7"])
    out = text_of(p.stdout) + text_of(p.stderr)
    assert p.returncode == 0, report(runtime, cmd, p)
    found = re.search(r"ai alloc-free: (\d+) decisions", out)
    assert found and int(found.group(1)) > 50, out
