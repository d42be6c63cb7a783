"""The Pico's run loop takes no call frame from the heap while it waits
(firmware/pico/pico.py: the sampler's tick every 2 ms, the sleep's slices).

On MicroPython a call whose frame is larger than 11 words takes it from
the heap, searching for a free run, unless the heap is locked; with a
hand's garbage on the heap that search grew turn by turn and slowed every
button. These run the real code on the MicroPython unix port (fake
`machine`): the buttons' read() notes gc.mem_alloc() at the bottom of the
calls, so every frame above it that took heap shows as bytes in use.
"""

import os

import pytest

from devutil import ROOT, micropython, run_mp

FAKES = os.path.join(ROOT, "host_tests", "firmware", "kit", "fakes")

SCRIPT = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import gc, machine
machine.setup()
from firmware.pico import pico
from firmware.buttons import Buttons
from firmware.pico.picoports import Onboard
from firmware.pico.consolekeys import ConsoleKeys

seen = [0]
def read():
    seen[0] = gc.mem_alloc()
    return 0

class Clock:
    t = 1000
    def __call__(self):
        return self.t

b = Buttons(read)
s = pico.Sampler(b, onboard=Onboard(bootsel=lambda: 0))
keys = ConsoleKeys(Clock(), poll_stdin=False)
loop = pico.Loop(b, keys, s)

def heap_in(call):
    gc.collect()
    seen[0] = -1
    base = gc.mem_alloc()
    call()
    return seen[0] - base

print("@@ sample", heap_in(lambda: b.sample(5)))
print("@@ tick", heap_in(lambda: s._tick(None)))
print("@@ pause", heap_in(lambda: loop.pause(3)))
print("@@ deep", s.deep)
"""


@pytest.fixture(scope="module")
def heap(tmp_path_factory):
    if micropython() is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    tmp_path = tmp_path_factory.mktemp("frames")
    path = tmp_path / "frames.py"
    path.write_text(SCRIPT % {"fakes": FAKES, "repo": ROOT})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return dict(line[3:].split(" ", 1) for line in r.stdout.splitlines()
                if line.startswith("@@ "))


def test_a_sample_called_as_is_takes_its_frames_from_the_heap(heap):
    # the probe sees what it should: Buttons.sample's frame is over 11 words
    assert int(heap["sample"]) > 0


def test_the_samplers_tick_takes_no_frame_from_the_heap(heap):
    assert int(heap["tick"]) == 0
    assert heap["deep"] == "0"          # and the sample was taken, not refused


def test_the_loops_sleep_takes_no_frame_from_the_heap(heap):
    assert int(heap["pause"]) == 0
