"""tools/pico/ai_times.py --squeeze: the bench code that takes part of the
heap, cut up, before the game starts, run on the MicroPython unix port."""

import pytest

from tools.bench.bench_ui import micropython_path, run_mp
from tools.pico.ai_times import squeeze


def test_no_squeeze_is_no_code():
    assert squeeze(0) == ""


def test_the_squeeze_takes_about_what_it_says_and_leaves_holes():
    if micropython_path() is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    script = ("import gc\ngc.collect()\n_f0 = gc.mem_free()\n" + squeeze(8)
              + "gc.collect()\nprint(_f0 - gc.mem_free(), len(_sq), len(_sqh),"
              " sum(1 for x in _sqh if x is None))\n")
    taken, pieces, holes, freed = [int(x) for x in run_mp(script).split()]
    assert (pieces, holes, freed) == (12, 40, 20)
    # 12 pieces of 496 bytes and 20 of 80 held (64-bit objects take a little more)
    assert 12 * 496 + 20 * 80 <= taken <= 10 * 1024
