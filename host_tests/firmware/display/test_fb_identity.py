"""The pure-Python framebuffer stand-in draws the same bytes as MicroPython's
C framebuf, primitive by primitive and through Canvas text, cards and glyphs.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.display import fb
from fwtest_util import cpython_scene, micropython_scenes, random_ops, run_micropython


def test_cpython_uses_the_stand_in():
    assert fb.NATIVE is False
    c = fb.Canvas()
    assert len(c.buf) == 1024


def test_micropython_uses_native_framebuf():
    out = run_micropython("from firmware.display import fb\nprint(fb.NATIVE, type(fb.Canvas().buf).__name__)\n")
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


DRAW_HEAP_SCRIPT = r'''
import micropython
from firmware.display import fb, glyphs

c = fb.Canvas()
LABEL = b"Knock? 10 (gin)"

def frame(i):
    c.fill(0)
    c.fill_rect(0, 0, 128, 8, 1)
    c.text(LABEL, 2, 0, 0, fb.BIG)
    c.text(LABEL, -3, 10, 1, fb.SMALL)
    c.text(LABEL, 100, 60, font=fb.BIG)
    c.num(i - 500, 0, 20)
    c.num(i * 37, 60, 20, 1, fb.BIG)
    c.invert_rect(0, 30, 128, 9)
    c.round_rect(40, 30, 30, 12, 1, False)
    c.rect(1, 1, 10, 10, 1, True)
    c.hline(0, 63, 128, 1)
    c.vline(127, 0, 64, 1)
    c.pixel(5, 5, 1)
    c.glyph(glyphs.SUITS[i & 3], 3, 40, i & 1)
    glyphs.draw_card(c, i % 52, 2 + (i % 11) * 10, 49, i & 1, i & 2)
    glyphs.draw_back(c, 100, 30, i & 1)
    glyphs.draw_slot(c, 110, 30)
    glyphs.draw_rank(c, i % 13, 20, 40)
    glyphs.draw_suit(c, i % 4, 25, 40, 0)
    glyphs.draw_card_inline(c, i % 52, 60, 40)

def run():
    frame(0)
    micropython.heap_lock()
    try:
        for i in range(200):
            frame(i)
        ok = 1
    except MemoryError:
        ok = 0
    micropython.heap_unlock()
    print(ok)

run()
'''


def test_drawing_allocates_nothing_on_micropython():
    assert run_micropython(DRAW_HEAP_SCRIPT).strip() == "1"
