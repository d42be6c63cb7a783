"""The play screen on the MicroPython unix port: every state it shows
redraws without allocating (micropython.heap_lock()), and so does a whole
app step that moves the cursor, redraws and sends the frame."""

import pytest

from tools.bench.bench_ui import ROOT, SCENARIO, micropython_path, run_mp


def run_micropython(script):
    if micropython_path() is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    return run_mp("import sys\nsys.path.insert(0, %r)\n" % ROOT + script)

CHECK = r'''
r = Rig()
c = r.app.canvas
for name, play in play_states(r):
    play.draw(c)
    print("%s|%d" % (name, locked(lambda: play.draw(c))))
play = r.app.screen
r.settle()
r.press(btn.A)
play.cur = 0
r.mask = btn.RIGHT
r.app.step()                  # the reading changes...
r.t += 6                      # ...and is steady past the debounce time
def one_step():
    r.app.step()
print("step|%d" % locked(one_step))
print("cur|%d" % play.cur)
'''


def test_play_screen_redraw_allocates_nothing_on_micropython():
    out = run_micropython(SCENARIO + CHECK).strip().splitlines()
    res = dict(line.rsplit("|", 1) for line in out)
    assert len(res) == 13, out
    bad = [k for k, v in res.items() if k != "cur" and v != "1"]
    assert not bad, "allocated under heap_lock: %s" % bad
    assert res["cur"] == "1"          # the locked step did move the cursor


LET_GO = r'''
import sys
import engine
from firmware.matchlife import Session
r = Rig()
app = r.app

def finished_match(seed):
    m = engine.Match(seed=seed)
    while m.phase != "match_over":
        if m.phase == "hand_over":
            m.next_hand()
            continue
        v = m.view(m.to_move)
        if m.phase != "discard":
            m.act("draw_stock")
            continue
        c = engine.best_discard(v.hand, v.taken)[1]
        t = engine.card_text(c)
        if m.act("knock:" + t) is not None:
            m.act("discard:" + t)
    return m

for n in range(2):
    app.session = Session(app, app.stats, finished_match(5 + n))
    app.session.resume()
    app.go("match_end")
    before = "firmware.screens.match_end" in sys.modules and "match_end" in app._screens
    r.settle()
    r.press(btn.A)
    print("round|%d|%d|%s|%d|%d" % (n, before, app.screen_name,
          "firmware.screens.match_end" in sys.modules, "match_end" in app._screens))
'''


def test_the_match_end_stays_loaded_for_the_next_match_on_micropython():
    # its screen and module are kept on the way back to the title (the
    # device preloads them, firmware.app.MATCH_SCREENS): from the .mpy bundle
    # an import at a match's end, the heap at its fullest, ran out of memory
    out = run_micropython(SCENARIO + LET_GO).strip().splitlines()
    rounds = [ln.split("|")[1:] for ln in out if ln.startswith("round|")]
    assert rounds == [["0", "1", "title", "1", "1"], ["1", "1", "title", "1", "1"]], out


TITLE_LET_GO = r'''
import sys
r = Rig()
app = r.app
def state(tag):
    print("%s|%s|%d|%d|%d|%d|%d|%s" % (tag, app.screen_name, "firmware.screens.title" in sys.modules,
          "title" in app._screens, "engine.box" in sys.modules,
          "firmware.screens.box_common" in sys.modules, "firmware.boxgame" in sys.modules,
          app.session.kind))
state("start")
r.press(btn.A)                  # NEW MATCH: the match is saved at once
r.settle()
state("play")
app.go("title")                 # back at the title (the play menu's way)
r.settle()
state("title")
r.press(btn.A)                  # CONTINUE
r.settle()
state("continue")
app.go("title")
r.settle()
while app.screen.keys[app.screen.menu.sel] != "box":
    r.press(btn.DOWN)
r.press(btn.A)                  # 3-PLAYER GAME: NEW MATCH? A
r.press(btn.A)
state("box")
'''


def test_the_title_stays_while_a_two_player_match_is_played_on_micropython():
    # from the .mpy bundle every module imported stays on the heap: the title
    # stays through a two-player match (imported again at the match's end it
    # found no room), and a two-player match's saves and its CONTINUE never
    # load the box game (V6) or its session; a box match does, and lets the
    # title go
    out = run_micropython(SCENARIO + TITLE_LET_GO).strip().splitlines()
    rows = [ln.split("|") for ln in out if "|" in ln]
    assert rows == [["start", "title", "1", "1", "0", "0", "0", "cpu"],
                    ["play", "play", "1", "1", "0", "0", "0", "cpu"],
                    ["title", "title", "1", "1", "0", "0", "0", "cpu"],
                    ["continue", "play", "1", "1", "0", "0", "0", "cpu"],
                    ["box", "box_play", "0", "0", "1", "1", "1", "box"]], out


COLD_START = r'''
import sys
from firmware.saves import saving
seen = []
real = saving.Saving.load
def load(sv):
    fresh = real(sv)
    seen.append(("firmware.saves.saveload" in sys.modules, "firmware.saves.savefail" in sys.modules))
    return fresh
saving.Saving.load = load
r = Rig()
r.press(btn.A)                  # NEW MATCH: saved at once
r.settle()
print("start|%d|%d" % seen[0])
print("match|%d|%d" % ("firmware.saves.saveload" in sys.modules, "firmware.saves.savefail" in sys.modules))
print("saved|%d" % ("game" in r.app.storage.files))
'''


def test_reading_the_saves_leaves_the_heap_once_done_on_micropython():
    # firmware/saves/saveload.py reads the saves at start and is unloaded then;
    # firmware/saves/savefail.py is not imported while the saves go through
    out = run_micropython(SCENARIO + COLD_START).strip().splitlines()
    rows = [ln.split("|") for ln in out if "|" in ln]
    assert rows == [["start", "0", "0"], ["match", "0", "0"], ["saved", "1"]], out


PAINT_LOCKED = r'''
r = Rig()
app = r.app
seen = []
write = r.bus.writeto
def probing_write(addr, buf, stop=True):
    try:
        bytearray(1)
        seen.append(0)                # the heap took it: not locked
    except MemoryError:
        seen.append(1)
    return write(addr, buf, stop)
r.bus.writeto = probing_write
r.settle()
r.press(btn.A)                        # NEW MATCH: whole frames
r.settle()
del seen[:]
r.press(btn.RIGHT)                    # the table's part: a redraw
print("pick|%d|%d" % (len(seen) > 0, min(seen) if seen else -1))

class Greedy:
    """A screen whose drawing allocates (a list a frame)."""
    name = "greedy"
    part = 0
    def __init__(self):
        self.dirty = True
        self.draws = 0
    def event(self, ev, now):
        self.dirty = True
    def tick(self, now):
        return None
    def draw(self, c):
        self.draws += 1
        c.fill(0)
        c.fill_rect(0, 0, len([1] * 40), 8, 1)
g = Greedy()
app.screen = g
del seen[:]
app.step()
print("greedy|%d|%d|%d" % (g.draws, r.display._shadow[0], min(seen) if seen else -1))
'''


def test_a_frame_is_drawn_and_sent_with_the_heap_locked_on_micropython():
    # firmware.app._paint: the frames of the drawing's and the driver's
    # calls go on the C stack, not searched for on a heap full of garbage
    out = run_micropython(SCENARIO + PAINT_LOCKED).strip().splitlines()
    res = {ln.split("|")[0]: ln.split("|")[1:] for ln in out if "|" in ln}
    assert res["pick"] == ["1", "1"], out      # every write of the redraw: locked


def test_a_screen_whose_drawing_allocates_is_drawn_again_unlocked_on_micropython():
    out = run_micropython(SCENARIO + PAINT_LOCKED).strip().splitlines()
    res = {ln.split("|")[0]: ln.split("|")[1:] for ln in out if "|" in ln}
    draws, first_column, locked_writes = res["greedy"]
    assert draws == "2"               # refused locked, then drawn unlocked
    assert first_column == "255"      # and its picture went out
    assert locked_writes == "0"
