"""Helpers shared by the firmware display/input tests (CPython side)."""

import os
import shutil
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def micropython_path():
    cand = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(cand):
        return cand
    return shutil.which("micropython")


def run_micropython(script, timeout=300, heap="4M"):
    """Run `script` on the MicroPython unix port with the repository on
    sys.path; return its stdout (fails the test on a non-zero exit)."""
    mp = micropython_path()
    if mp is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    prologue = "import sys\nsys.path.insert(0, %r)\n" % ROOT
    fd, path = tempfile.mkstemp(suffix=".py", prefix="mp_")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(prologue + script)
        r = subprocess.run([mp, "-X", "heapsize=" + heap, path], capture_output=True,
                           text=True, timeout=timeout, cwd=ROOT)
    finally:
        os.unlink(path)
    if r.returncode != 0:
        raise AssertionError("micropython failed (%d):\n%s\n%s" % (r.returncode, r.stdout, r.stderr))
    return r.stdout


# Scene interpreter: the same source runs on CPython (pure-Python stand-in)
# and on MicroPython (C framebuf), drawing through fb.Canvas and glyphs.
SCENE_INTERP = r'''
from firmware.display import fb, glyphs

def run_scene(ops):
    c = fb.Canvas()
    run_ops(c, ops, [])
    return c.buf


def run_ops(c, ops, sprites):
    for op in ops:
        k = op[0]
        if k == "fill":
            c.fill(op[1])
        elif k == "pixel":
            c.pixel(op[1], op[2], op[3])
        elif k == "hline":
            c.hline(op[1], op[2], op[3], op[4])
        elif k == "vline":
            c.vline(op[1], op[2], op[3], op[4])
        elif k == "rect":
            c.rect(op[1], op[2], op[3], op[4], op[5], op[6])
        elif k == "fill_rect":
            c.fill_rect(op[1], op[2], op[3], op[4], op[5])
        elif k == "line":
            c.line(op[1], op[2], op[3], op[4], op[5])
        elif k == "scroll":
            c.scroll(op[1], op[2])
        elif k == "sprite":
            sprites.append(fb.sprites(op[3], op[1], op[2])[0])
        elif k == "blit":
            if sprites:
                c.blit(sprites[op[1] % len(sprites)], op[2], op[3], op[4])
        elif k == "glyph":
            if sprites:
                c.glyph(sprites[op[1] % len(sprites)], op[2], op[3], op[4])
        elif k == "text":
            c.text(op[1], op[2], op[3], op[4], op[5])
        elif k == "num":
            c.num(op[1], op[2], op[3], op[4], op[5])
        elif k == "invert_rect":
            c.invert_rect(op[1], op[2], op[3], op[4])
        elif k == "round_rect":
            c.round_rect(op[1], op[2], op[3], op[4], op[5], op[6])
        elif k == "card":
            glyphs.draw_card(c, op[1], op[2], op[3], op[4], op[5])
        elif k == "back":
            glyphs.draw_back(c, op[1], op[2], op[3])
        elif k == "slot":
            glyphs.draw_slot(c, op[1], op[2])
        elif k == "inline":
            glyphs.draw_card_inline(c, op[1], op[2], op[3], op[4])
        else:
            raise ValueError(k)
'''


_NS = {}
exec(SCENE_INTERP, _NS)


def cpython_scene(ops):
    return bytes(_NS["run_scene"](ops))


def draw_ops(canvas, ops, sprites=None):
    """Apply scene ops to an existing canvas (CPython)."""
    _NS["run_ops"](canvas, ops, [] if sprites is None else sprites)


def micropython_scenes(scenes):
    """Draw each scene on the MicroPython unix port; return the buffers."""
    script = SCENE_INTERP + "\nimport binascii\nSCENES = " + repr(scenes) + "\n" + (
        "for ops in SCENES:\n"
        "    print(binascii.hexlify(run_scene(ops)).decode())\n"
    )
    out = run_micropython(script).split()
    assert len(out) == len(scenes)
    return [bytes.fromhex(h) for h in out]


def random_ops(rnd, n):
    """A random scene: primitives, text, glyphs and cards, often off-screen."""
    ops = []

    def cx():
        return rnd.randint(-20, 150)

    def cy():
        return rnd.randint(-20, 80)

    def ln():
        return rnd.randint(-5, 140)

    texts = ["GIN", "Knock?", "deadwood 23", "A-Z 0123456789", "hello, world!",
             "(7/10) 95% <ok> #=*_'\"", "{~}|^`@$&", "\u00e9t\u00e9", "\t\n"]
    for _ in range(n):
        k = rnd.choice(["fill", "pixel", "hline", "vline", "rect", "fill_rect",
                        "line", "scroll", "sprite", "blit", "glyph", "text",
                        "num", "invert_rect", "round_rect", "card", "back",
                        "slot", "inline"])
        c = rnd.randint(0, 1)
        if k == "fill":
            ops.append((k, c))
        elif k == "pixel":
            ops.append((k, cx(), cy(), c))
        elif k in ("hline", "vline"):
            ops.append((k, cx(), cy(), ln(), c))
        elif k == "rect":
            ops.append((k, cx(), cy(), ln(), ln(), c, rnd.random() < 0.5))
        elif k == "fill_rect":
            ops.append((k, cx(), cy(), ln(), ln(), c))
        elif k == "line":
            ops.append((k, cx(), cy(), cx(), cy(), c))
        elif k == "scroll":
            ops.append((k, rnd.randint(-10, 10), rnd.randint(-10, 10)))
        elif k == "sprite":
            w = rnd.randint(1, 20)
            h = rnd.randint(1, 20)
            data = bytes(rnd.randrange(256) for _ in range(((h + 7) // 8) * w))
            ops.append((k, w, h, data))
        elif k == "blit":
            ops.append((k, rnd.randrange(8), cx(), cy(), rnd.choice([-1, 0, 1])))
        elif k == "glyph":
            ops.append((k, rnd.randrange(8), cx(), cy(), c))
        elif k == "text":
            s = rnd.choice(texts)
            if rnd.random() < 0.3:
                s = s.encode("utf-8")
            ops.append((k, s, cx(), cy(), c, rnd.randint(0, 1)))
        elif k == "num":
            ops.append((k, rnd.randint(-99999, 99999), cx(), cy(), c, rnd.randint(0, 1)))
        elif k == "invert_rect":
            ops.append((k, cx(), cy(), ln(), ln()))
        elif k == "round_rect":
            ops.append((k, cx(), cy(), rnd.randint(2, 60), rnd.randint(2, 40), c,
                        rnd.random() < 0.5))
        elif k == "card":
            ops.append((k, rnd.randrange(52), cx(), cy(), rnd.random() < 0.3,
                        rnd.random() < 0.3))
        elif k == "back":
            ops.append((k, cx(), cy(), rnd.random() < 0.3))
        elif k == "slot":
            ops.append((k, cx(), cy()))
        else:
            ops.append((k, rnd.randrange(52), cx(), cy(), c))
    return ops
