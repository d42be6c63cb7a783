"""The pure-Python framebuffer stand-in draws the same bytes as MicroPython's
C framebuf, primitive by primitive and through Canvas text, cards and glyphs.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import fb
from fwtest_util import cpython_scene, micropython_scenes, random_ops, run_micropython


def test_cpython_uses_the_stand_in():
    assert fb.NATIVE is False
    c = fb.Canvas()
    assert len(c.buf) == 1024


def test_micropython_uses_native_framebuf():
    out = run_micropython("from firmware import fb\nprint(fb.NATIVE, type(fb.Canvas().buf).__name__)\n")
    assert out.split() == ["True", "bytearray"]


def test_seeded_scenes_are_pixel_identical():
    rnd = random.Random(20240601)
    scenes = [random_ops(rnd, rnd.randint(1, 30)) for _ in range(150)]
    mp = micropython_scenes(scenes)
    for i, ops in enumerate(scenes):
        assert cpython_scene(ops) == mp[i], "scene %d differs: %r" % (i, ops)


def test_pixel_reads_back_like_framebuf():
    c = fb.Canvas()
    c.pixel(5, 9, 1)
    assert c.pixel(5, 9) == 1
    assert c.pixel(5, 8) == 0
    assert c.pixel(-1, 0) is None
    assert c.pixel(128, 0) is None
    assert c.buf[128 + 5] == 0x02  # page 1, bit 1


_coord = st.integers(-30, 160)
_len = st.integers(-5, 140)
_col = st.integers(0, 1)
_op = st.one_of(
    st.tuples(st.just("fill_rect"), _coord, _coord, _len, _len, _col),
    st.tuples(st.just("rect"), _coord, _coord, _len, _len, _col, st.booleans()),
    st.tuples(st.just("hline"), _coord, _coord, _len, _col),
    st.tuples(st.just("vline"), _coord, _coord, _len, _col),
    st.tuples(st.just("pixel"), _coord, _coord, _col),
    st.tuples(st.just("line"), _coord, _coord, _coord, _coord, _col),
    st.tuples(st.just("invert_rect"), _coord, _coord, _len, _len),
    st.tuples(st.just("text"), st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=12),
              _coord, _coord, _col, st.integers(0, 1)),
    st.tuples(st.just("num"), st.integers(-10**6, 10**6), _coord, _coord, _col, st.integers(0, 1)),
    st.tuples(st.just("card"), st.integers(0, 51), _coord, _coord, st.booleans(), st.booleans()),
    st.tuples(st.just("back"), _coord, _coord, st.booleans()),
)


@settings(max_examples=25)
@given(st.lists(_op, min_size=1, max_size=20))
def test_generated_scenes_are_pixel_identical(ops):
    assert cpython_scene(ops) == micropython_scenes([ops])[0]
