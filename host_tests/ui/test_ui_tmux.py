"""`make play` in a real terminal (tmux): keys in, the OLED read back.

The pane's characters (half blocks or quadrants, whichever the terminal's
size allows) are turned back into pixels and compared with the golden
screenshots. At 140x50 the whole panel shows and no line is wider than the
terminal; at 80x24 and 100x30, too small for a legible picture, the panel
is text: its words, and cards whose rank and suit read as `9♥`. A resize
redraws it in the rendering that fits, pixels again when the terminal
grows; a terminal too small for any says, in one line, what it needs.
"""

import os
import shutil
import subprocess
import time
import uuid

import re

import pytest

from engine.version import VERSION
from firmware.saves.storage import pack
from tools.kit.ui_driver import CUT_KEYS, chosen_game_save
from tools.sim import render, terminal, textscreen
from ui_golden import golden_buf as golden

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOP_LEFT = "\u250c"
TEXT_HEAD = "Gin Rummy (the panel as text"
CARD = re.compile(r"[A2-9TJQK][\u2660\u2665\u2666\u2663]")

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")


def tmux(sock, *args, check=True):
    """tmux on the server of socket `sock` (each session has its own server)."""
    r = subprocess.run(["tmux", "-u", "-L", sock] + list(args), capture_output=True, text=True,
                       env=dict(os.environ, LC_ALL="C.UTF-8"))
    if check and r.returncode:
        # tmux's own words in the failure (a busy server, a name in use, ...)
        raise AssertionError("tmux %s: exit %d: %s%s" % (" ".join(args), r.returncode,
                                                         r.stderr.strip(), r.stdout.strip()))
    return r


def pane(p):
    """The pane's lines, wrapped lines joined (so a too-long line shows)."""
    return tmux(p.name, "capture-pane", "-p", "-J", "-t", p.name).stdout.split("\n")


def panel(lines):
    """(rendering name, the 1024-byte picture) shown in the pane, or None."""
    for i, ln in enumerate(lines):
        if not ln.startswith(TOP_LEFT):
            continue
        for r in terminal.RENDERINGS:
            if len(ln) != r.cols + 2 or i + r.rows + 1 >= len(lines):
                continue
            body = [lines[i + 1 + k][1:r.cols + 1] for k in range(r.rows)]
            if any(len(b) != r.cols for b in body):
                return None
            try:
                return r.name, render.from_text(body)
            except ValueError:
                return None
    return None


def wait_for(p, pred, timeout=90):
    end = time.time() + timeout
    last = []
    while time.time() < end:
        last = pane(p)
        got = pred(last)
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError("timed out; the pane shows:\n" + "\n".join(last))


def showing(want, rendering=None):
    def pred(lines):
        p = panel(lines)
        if p and p[1] == want and (rendering is None or p[0] == rendering):
            return lines
        return None
    return pred


class Play:
    """`make play` in a detached tmux session of a given size.

    The session runs on a tmux server of its own (socket named after it), so
    one test's server shutting down as its last session ends never meets the
    next test's `new-session` (tmux: "server exited unexpectedly")."""

    def __init__(self, tmp_path, cols, rows):
        self.name = "ginplay-" + uuid.uuid4().hex[:8]
        self.saves = str(tmp_path / "saves")
        self.cols = cols
        cmd = "cd %s && GIN_SAVES=%s make play" % (ROOT, self.saves)
        tmux(self.name, "new-session", "-d", "-s", self.name,
             "-x", str(cols), "-y", str(rows), cmd)
        self.sock = tmux(self.name, "display-message", "-p", "#{socket_path}",
                         check=False).stdout.strip()

    def keys(self, *keys):
        tmux(self.name, "send-keys", "-t", self.name, *keys)

    def resize(self, cols, rows):
        self.cols = cols
        tmux(self.name, "resize-window", "-t", self.name, "-x", str(cols), "-y", str(rows))

    def quit(self):
        self.keys("q")
        end = time.time() + 20
        while time.time() < end:
            if tmux(self.name, "has-session", "-t", self.name, check=False).returncode != 0:
                return
            time.sleep(0.2)

    def close(self):
        tmux(self.name, "kill-server", check=False)
        if os.path.basename(self.sock) == self.name and os.path.exists(self.sock):
            os.remove(self.sock)            # tmux leaves its socket file behind

    def fits(self, lines):
        too_long = [ln for ln in lines if len(ln) > self.cols]
        assert not too_long, "lines wider than %d: %r" % (self.cols, too_long[:2])


def text_view(lines):
    """The panel's lines of the text view shown in the pane, or None."""
    if not lines or not lines[0].startswith(TEXT_HEAD):
        return None
    body = []
    for ln in lines[2:]:
        if ln.startswith("\u2500"):
            return body
        body.append(ln.strip())
    return None


# the cut AAAA (tools/kit/ui_driver.py's CUT_KEYS) as keys typed in the pane
CUT_TYPED = tuple({"A": "Enter", "U": "Up", "R": "Right"}[k] for k in CUT_KEYS)


def the_commitment(lines):
    """The pane, once it shows a new match's commitment (picture or text)."""
    body = text_view(lines)
    if body is None:
        p = panel(lines)
        body = textscreen.read(p[1]) if p else None
    return lines if body and "MATCH #" in body else None


def give_cut(p):
    """NEW MATCH was typed: the match commitment, then the cut AAAA."""
    wait_for(p, the_commitment)
    p.keys(*CUT_TYPED)


def showing_text(pred):
    def check(lines):
        body = text_view(lines)
        return lines if body is not None and pred(body) else None
    return check


# make play offers LINK (a second terminal, or the words saying how): its
# title is the one with LINK
TITLE = "86_title_link"
TITLE_TEXT = ["\u2660\u2665 GIN RUMMY \u2666\u2663", "> NEW MATCH", "SETTINGS",
              "STATISTICS", "RULES", "3-PLAYER GAME", "LINK",
              "^ v CHOOSE A OK   V" + VERSION.upper()]


def test_make_play_fits_the_terminal(tmp_path):
    p = Play(tmp_path, 140, 50)
    try:
        lines = wait_for(p, showing(golden(TITLE), "half blocks"))
        p.fits(lines)
        assert sum(1 for ln in lines if ln.strip()) <= 50
    finally:
        p.close()


@pytest.mark.parametrize("cols,rows", [(80, 24), (100, 30)])
def test_make_play_in_a_small_terminal_is_text_with_cards_to_read(tmp_path, cols, rows):
    p = Play(tmp_path, cols, rows)
    try:
        lines = wait_for(p, showing_text(lambda body: body == TITLE_TEXT))
        p.fits(lines)
        assert len([ln for ln in lines if ln.strip()]) <= rows
        p.keys("Enter")                                        # A: NEW MATCH
        give_cut(p)
        # the play screen: the status row as words, the hand as ten cards
        lines = wait_for(p, showing_text(lambda body: "YOUR DRAW" in body and len(
            CARD.findall(body[-1])) == 10))
        p.fits(lines)
        body = text_view(lines)
        assert body[0].startswith("YOU 0   CPU 0   HAND 1 DW ")
        assert "<> PICK A TAKE B MENU" in body
        p.keys("Enter")                                        # A: take the upcard
        # the deal is the clock's: after the take the status is YOUR DISCARD or,
        # when the eleven cards already knock, YOU CAN KNOCK; the keys row is A DISCARD
        lines = wait_for(p, showing_text(lambda body: any(
            ln.startswith("<> A DISCARD") for ln in body)))
        hand = text_view(lines)[-1]
        assert len(CARD.findall(hand)) == 11 and ">" in hand   # the raised card
        p.quit()
    finally:
        p.close()


def test_make_play_redraws_on_resize_and_says_what_it_needs(tmp_path):
    p = Play(tmp_path, 140, 50)
    try:
        wait_for(p, showing(golden(TITLE), "half blocks"))
        p.resize(100, 40)
        p.fits(wait_for(p, showing(golden(TITLE), "quadrants")))
        p.resize(80, 24)
        p.fits(wait_for(p, showing_text(lambda body: body == TITLE_TEXT)))
        p.resize(100, 40)                       # grown: the picture again
        p.fits(wait_for(p, showing(golden(TITLE), "quadrants")))
        p.resize(40, 12)
        w, h = terminal.smallest()
        lines = wait_for(p, lambda ls: ls if any(
            "needs %dx%d" % (w, h) in ln for ln in ls) else None)
        assert [ln for ln in lines if ln.strip()] == [
            "Terminal 40x12: needs %dx%d or more (q quits)" % (w, h)]
        p.resize(140, 50)
        wait_for(p, showing(golden(TITLE), "half blocks"))
    finally:
        p.close()


def test_make_play_keys_and_keys_typed_together(tmp_path):
    p = Play(tmp_path, 140, 45)
    try:
        wait_for(p, showing(golden(TITLE)))
        p.keys("Enter")                                        # A: NEW MATCH
        give_cut(p)
        want = golden("02_play_your_draw")

        def play_screen(lines):
            got = panel(lines)
            # the status bar up to the deadwood (the deal differs: seeded by the clock)
            return got and got[1][:90] == want[:90] and got

        _, img = wait_for(p, play_screen)
        rows = [[render.pixel(img, x, y) for x in range(128)] for y in range(64)]
        top = rows[48]                                          # the hand's card tops
        assert sum(1 for x in range(128) if top[x] and (x == 0 or not top[x - 1])) == 10
        assert not any("I2C" in ln or "screen:" in ln for ln in pane(p))
        # four keys in one burst, milliseconds apart: B (menu), DOWN, DOWN,
        # A (DISCARD PILE): all four are pressed
        p.keys("x", "Down", "Down", "Enter")
        pile = golden("05_play_discard_pile")
        wait_for(p, lambda ls: panel(ls) and panel(ls)[1][:128 * 1] == pile[:128] and ls)
        p.keys("x")
        p.quit()
        assert os.path.isdir(p.saves) and os.listdir(p.saves)  # the match was saved
    finally:
        p.close()


def test_make_play_takes_the_first_key_after_the_cpus_move(tmp_path):
    """At 80x24 (the text view reads the whole panel back after every frame,
    about 300 ms) the first key after the CPU's move was lost: the debounce
    had read it once when the step drew the save mark's frame, and the key
    was released before the next reading (firmware/pico/consolekeys.py)."""
    # a deal it chooses (tools/kit/ui_driver.py's chosen_wait): the match
    # waiting for its cut in the saves; with the entropy's, the CPU could
    # knock at its first move
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "game.dat").write_bytes(bytes(pack(chosen_game_save())))
    p = Play(tmp_path, 80, 24)
    try:
        give_cut(p)                                            # its commitment, the cut
        wait_for(p, showing_text(lambda body: "YOUR DRAW" in body))
        p.keys("Enter")                                        # A: take
        wait_for(p, showing_text(lambda body: "YOUR DISCARD" in body))
        p.keys("Enter")                                        # A: discard
        # the CPU's move: its discard said, the human's draw again
        wait_for(p, showing_text(lambda body: "YOUR DRAW" in body
                                 and any("DISCARDED" in ln for ln in body)))
        time.sleep(0.5)
        p.keys("Right")                                        # one key: the pile
        wait_for(p, showing_text(lambda body: any("> PILE" in ln for ln in body)), timeout=10)
        p.quit()
    finally:
        p.close()
