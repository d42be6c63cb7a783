"""The link under random fault schedules (hypothesis), and the link's
portable tests (test_link.py) on the MicroPython unix port, the runtime
of the board."""

import os
import subprocess

from hypothesis import given
from hypothesis import strategies as st

from fwtest_util import ROOT, micropython_path
from tools.link import fakelink as fl

plans = st.dictionaries(st.integers(0, 120), st.sampled_from(fl.KINDS), max_size=40)


@given(seed=st.integers(0, 10 ** 6), plan_ab=plans, plan_ba=plans,
       cable_cut=st.booleans(), restarts=st.integers(0, 3))
def test_any_fault_schedule_delivers_every_message_once_and_in_order(
        seed, plan_ab, plan_ba, cable_cut, restarts):
    r = fl.match(seed, n=10, cable_cut=cable_cut, restarts=restarts,
                 plans=(plan_ab, plan_ba), max_ms=300000)
    assert not r["hung"]
    assert fl.tally(r) == (20, 0, 0, 0)


def test_the_link_tests_pass_on_the_micropython_unix_port():
    mp = micropython_path()
    assert mp, "the MicroPython unix port (.venv/bin/micropython) is missing"
    runner = os.path.join(ROOT, "host_tests", "runner.py")
    r = subprocess.run([mp, "-X", "heapsize=4M", runner, "-p", ROOT,
                        "-p", os.path.join(ROOT, "host_tests", "firmware", "link"), "test_link"],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    last = r.stdout.strip().splitlines()[-1]
    assert r.returncode == 0 and last.endswith(" passed, 0 failed"), r.stdout + r.stderr
    assert int(last.split()[0]) >= 20


HEAP_SCRIPT = r'''
import micropython
from firmware.link.linkframe import Reader, Writer

w = Writer()
r = Reader()
payload = bytes(range(120)) + b"~}~}"
data = bytes(w.out[:w.frame(0x44, 0x7E, 5, payload)]) * 3 + b"noise" + bytes(w.out[:w.frame(0x41, 1, 2)])


def feed(r, data):
    got = 0
    for i in range(len(data)):
        if r.feed(data[i]):
            got += 1
    return got


ok = got = n = 0        # the names exist before the heap is locked
micropython.heap_lock()
try:
    got = feed(r, data)
    n = w.frame(0x44, 1, 2, payload)
    ok = 1
except MemoryError:
    ok = 0
micropython.heap_unlock()
print(ok, got, n > len(payload))
'''


def test_reading_and_building_frames_allocates_nothing_on_micropython():
    from fwtest_util import run_micropython

    assert run_micropython(HEAP_SCRIPT).split() == ["1", "4", "True"]
