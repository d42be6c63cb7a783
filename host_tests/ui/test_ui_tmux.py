"""`make play` in a real terminal (tmux): keys in, the OLED read back.

The pane's half-block characters are turned back into pixels and compared
with the golden screenshots: the title screen exactly, then after Enter (A)
the play screen's status bar and a hand of ten cards, then B's menu.
"""

import os
import shutil
import subprocess
import time
import uuid

import pytest
from PIL import Image

from ui_golden import GOLDEN

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HALF = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")


def tmux(*args, check=True):
    return subprocess.run(["tmux", "-u"] + list(args), capture_output=True, text=True,
                          check=check, env=dict(os.environ, LC_ALL="C.UTF-8"))


def pane(name):
    return tmux("capture-pane", "-p", "-t", name).stdout


def panel(text):
    """The 128x64 picture in the pane as rows of 0/1, or None if not shown."""
    lines = text.split("\n")
    for i, ln in enumerate(lines):
        if ln.startswith("\u250c") and i + 33 < len(lines):
            rows = []
            for k in range(32):
                inner = lines[i + 1 + k][1:129]
                if len(inner) != 128 or any(ch not in HALF for ch in inner):
                    return None
                rows.append([HALF[ch][0] for ch in inner])
                rows.append([HALF[ch][1] for ch in inner])
            return rows
    return None


def golden_rows(name):
    im = Image.open(os.path.join(GOLDEN, name + ".png")).convert("1")
    scale = im.size[0] // 128
    return [[1 if im.getpixel((x * scale, y * scale)) else 0 for x in range(128)]
            for y in range(64)]


def wait_for(name, pred, timeout=90):
    end = time.time() + timeout
    last = ""
    while time.time() < end:
        last = pane(name)
        if pred(last):
            return last
        time.sleep(0.2)
    raise AssertionError("timed out; the pane shows:\n" + last)


def status(text):
    for ln in text.split("\n"):
        if ln.startswith("screen: "):
            return ln.split()[1]
    return None


def test_make_play_in_tmux(tmp_path):
    name = "ginplay-" + uuid.uuid4().hex[:8]
    saves = str(tmp_path / "saves")
    cmd = "cd %s && GIN_SAVES=%s make play" % (ROOT, saves)
    tmux("new-session", "-d", "-s", name, "-x", "140", "-y", "45", cmd)
    try:
        text = wait_for(name, lambda t: status(t) == "title" and panel(t))
        assert panel(text) == golden_rows("01_title")

        tmux("send-keys", "-t", name, "Enter")                 # A: NEW MATCH
        text = wait_for(name, lambda t: status(t) == "play" and panel(t))
        rows = panel(text)
        want = golden_rows("02_play_your_draw")
        # the status bar up to the deadwood (the deal differs: seeded by the clock)
        assert [r[:90] for r in rows[:7]] == [r[:90] for r in want[:7]]
        # ten cards in the hand: ten runs of lit pixels along the card tops
        top = rows[48]
        runs = sum(1 for x in range(128) if top[x] and (x == 0 or not top[x - 1]))
        assert runs == 10

        tmux("send-keys", "-t", name, "x")                     # B: the menu
        text = wait_for(name, lambda t: panel(t) and panel(t)[:9] == golden_rows("04_play_menu")[:9])
        tmux("send-keys", "-t", name, "x")
        tmux("send-keys", "-t", name, "q")
        end = time.time() + 20
        while time.time() < end:
            if tmux("has-session", "-t", name, check=False).returncode != 0:
                break
            time.sleep(0.2)
        assert os.path.isdir(saves) and os.listdir(saves)      # the match was saved
    finally:
        tmux("kill-session", "-t", name, check=False)
