"""Issue targets for the engine's hot paths on MicroPython (DESIGN: no
allocation; small ints only).

On the unix port (64-bit) and the WebAssembly port (32-bit like the RP2040),
host_tests/mp_alloc_check.py runs the deadwood of 10-card hands, the best
discard of 11-card hands and the legal-action enumeration under
micropython.heap_lock(): any allocation raises MemoryError. On the 32-bit
port an int reaching 2**30 is a heap object, so the same run shows those
paths never leave small ints.
"""
import os
import re

import pytest

from test_runtimes import ROOT, run

SCRIPT = os.path.join(ROOT, "host_tests", "mp_alloc_check.py")


@pytest.mark.parametrize("runtime", ["micropython-unix", "micropython-wasm"])
def test_hot_paths_allocate_nothing_under_heap_lock(runtime):
    cmd, proc = run(runtime, [SCRIPT, ROOT])
    out = proc.stdout.decode() + proc.stderr.decode()
    assert proc.returncode == 0, out
    found = re.search(r"alloc-free: (\d+) positions, (\d+) with 11 cards", out)
    assert found, out
    assert int(found.group(1)) == 300 and int(found.group(2)) > 50, out
