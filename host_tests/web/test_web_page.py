"""The web handheld in headless Chromium (web; see conftest.py).

1. End to end: a hand played to the showdown with key presses in the page's
   test mode (?seed=N&fakeclock=1) shows, after every press, exactly the
   frame the terminal simulator shows for the same seed, presses and fake
   clock: the canvas's own pixels, and the buffer the page painted them from.
2. A save made in the page survives a reload: the title offers CONTINUE and
   resumes the match (in test mode, pixel for pixel with the simulator
   restarted over its saves; in play mode, by the app's state).
3. Real time: keyboard, mouse and touch presses, a long press, the mute
   switch; the page loads to the title quickly and small.
4. The AI makes the same moves in the page as on the unix port.
"""

import json
import os
import subprocess
import sys
import time

import pytest

from tools.kit.ui_driver import CUT_KEYS
from tools.sim.simulator import MemStorage, Sim
from web.browser import canvas_fb
from test_web_port import SEED, keys_to_showdown

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Scripted key -> the keyboard keys that play it in the page, used in turn
# (the terminal simulator's keyboard map).
KEYBOARD = {
    "A": ["Enter", "z", " "],
    "B": ["x", "Backspace"],
    "L": ["ArrowLeft"], "R": ["ArrowRight"], "U": ["ArrowUp"], "D": ["ArrowDown"],
    "LA": ["Shift+Z"], "LB": ["Shift+X"],
}


def open_page(b, url, query="", **kw):
    b.page(url + query, **kw)
    b.wait("window.gin && (gin.ready || gin.failed)", 60000)
    assert b.eval("gin.failed") is None, b.eval("gin.failed")


def page_press(b, key, n):
    """Play scripted key `key` (the n-th) on the keyboard; wait until done."""
    names = KEYBOARD[key]
    b.key(names[n % len(names)])
    b.wait("gin.keysDone > %d || gin.failed" % n, 60000)
    assert b.eval("gin.failed") is None, b.eval("gin.failed")


def assert_shows(b, sim, what):
    want = sim.image()
    shown = canvas_fb(b)
    painted = bytes.fromhex(b.eval("gin.fbHex()"))
    assert painted == shown, "%s: the canvas does not show the buffer it was painted from" % what
    if shown != want:
        diff = sum(bin(x ^ y).count("1") for x, y in zip(shown, want))
        raise AssertionError("%s: the page differs from the simulator in %d pixels "
                             "(page on %s, simulator on %s)"
                             % (what, diff, b.eval("gin.screen()"), sim.screen))


def test_page_shows_the_simulators_frames_to_the_showdown(browser, site):
    keys = keys_to_showdown(SEED)
    # Through the menu and a hint on the way (B, B, hold B), then the hand.
    keys = keys[:1] + ["B", "B", "LB", "B"] + keys[1:]
    open_page(browser, site, "?seed=%d&fakeclock=1" % SEED)
    sim = Sim(seed=SEED, storage=MemStorage())
    sim.settle()
    assert browser.eval("gin.screen()") == "title"
    assert_shows(browser, sim, "start")
    for n, k in enumerate(keys):
        page_press(browser, k, n)
        sim.press(k)
        assert_shows(browser, sim, "after key %d (%s)" % (n, k))
    if sim.screen != "showdown":   # the detour changed the hand: play it out
        n = len(keys)
        from tools.kit.ui_driver import presses_for, simple_choice
        while sim.screen == "play" and n < 400:
            for k in presses_for(sim, simple_choice(sim.app.match.view(0))):
                page_press(browser, k, n)
                sim.press(k)
                assert_shows(browser, sim, "after key %d (%s)" % (n, k))
                n += 1
                if sim.screen != "play":
                    break
    assert sim.screen == "showdown"
    assert browser.eval("gin.screen()") == "showdown"


def test_a_save_made_in_the_page_survives_a_reload(browser, site):
    open_page(browser, site, "?seed=%d&fakeclock=1" % SEED)
    st = MemStorage()
    sim = Sim(seed=SEED, storage=st)
    sim.settle()
    for n, k in enumerate("A R A".split()):
        page_press(browser, k, n)
        sim.press(k)
    assert browser.eval("gin.screen()") == "play"
    assert "draw" in browser.eval("gin.sounds")      # the sound port is wired
    browser.call("reload")
    browser.wait("window.gin && (gin.ready || gin.failed)", 60000)
    assert browser.eval("gin.failed") is None
    assert browser.eval("gin.screen()") == "title"
    assert browser.eval("gin.py('app.screen.keys[0]')") == "continue"
    sim = Sim(seed=SEED, storage=st)     # the simulator restarted over its saves
    sim.settle()
    assert_shows(browser, sim, "title after the reload")
    page_press(browser, "A", 0)
    sim.press("A")
    assert browser.eval("gin.screen()") == "play"
    assert_shows(browser, sim, "the match resumed")


_PAGE_KEY = {"A": "Enter", "U": "ArrowUp", "R": "ArrowRight"}


def give_cut(browser):
    """NEW MATCH was pressed in real play: its match commitment, then the
    cut AAAA (tools/kit/ui_driver.py's CUT_KEYS), a key at a time."""
    browser.wait("gin.screen() === 'cut'", 10000)
    for k in CUT_KEYS:
        browser.key(_PAGE_KEY[k])
        time.sleep(0.15)


def test_real_time_keys_pointer_and_saves(browser, site):
    open_page(browser, site, "?seed=3")
    browser.wait("gin.t.title !== undefined")
    browser.key("Enter")                          # a quick tap: latched, not lost
    give_cut(browser)
    browser.wait("gin.screen() === 'play'", 10000)
    assert browser.eval("gin.py('app.screen.src')") == 0
    browser.call("pointer", selector="[data-btn=RIGHT]")
    browser.wait("gin.py('app.screen.src') === 1", 10000)
    browser.call("pointer", selector="[data-btn=LEFT]", hold=60)
    browser.wait("gin.py('app.screen.src') === 0", 10000)
    # Holding B is a long press: the hint (a message overlay; a tap would
    # open the menu).
    assert browser.eval("gin.py('app.screen.overlay')") == 0
    browser.call("keydown", key="x")
    browser.wait("gin.py('app.screen.overlay') !== 0", 10000)
    browser.call("keyup", key="x")
    assert browser.eval("gin.py('app.screen.overlay')") == 1
    assert browser.eval("gin.py('bytes(app.screen.msg_title).startswith(b\"HINT\")')") is True
    frames = browser.eval("gin.frames")
    assert frames > 2
    # The new match was saved in play mode too: a reload offers it.
    browser.call("reload")
    browser.wait("window.gin && gin.ready && gin.t.title !== undefined", 60000)
    assert browser.eval("gin.py('app.screen.keys[0]')") == "continue"
    assert browser.eval("gin.failed") is None


def test_touch_and_the_mute_switch(browser, site):
    open_page(browser, site, "?seed=3", touch=True)
    browser.wait("gin.t.title !== undefined")
    browser.call("tap", selector="[data-btn=DOWN]")
    browser.wait("gin.py('app.screen.menu.sel') === 1", 10000)
    assert browser.eval("document.getElementById('mute').getAttribute('aria-checked')") == "true"
    browser.call("tap", selector="#mute")
    assert browser.eval("document.getElementById('mute').getAttribute('aria-checked')") == "false"
    browser.call("reload")
    browser.wait("window.gin && gin.ready", 60000)
    assert browser.eval("document.getElementById('mute').getAttribute('aria-checked')") == "false"


def test_page_loads_to_the_title_fast_and_small(browser, site):
    open_page(browser, site)
    browser.wait("gin.t.title !== undefined", 60000)
    t = browser.eval("gin.t")
    net = browser.call("network")
    total = sum((r["body"] or 0) + (r["headers"] or 0) for r in net)
    names = sorted(r["url"].rsplit("/", 1)[-1] for r in net)
    sys.stderr.write("web page: title %.0f ms after navigation, %d requests, %d bytes\n"
                     % (t["title"], len(net), total))
    assert all(r["status"] == 200 for r in net), net
    assert names.count("micropython.wasm") == 1, names   # the preload is used, not fetched twice
    assert len(net) <= 6, names
    assert total < 1000000
    assert t["title"] < 15000                            # generous: a shared 2-core CI machine
    assert browser.call("console") == [] or not [
        m for m in browser.call("console") if m.startswith(("error", "pageerror"))]


def _unix_micropython():
    p = os.path.join(ROOT, ".venv", "bin", "micropython")
    if not os.path.isfile(p):
        pytest.fail("MicroPython unix port missing: run `make test`", pytrace=False)
    return p


def test_ai_makes_the_same_moves_in_the_page_as_on_the_unix_port(browser, site):
    from tools.bench.bench_web import browser_ai_js

    open_page(browser, site, "?seed=1&fakeclock=1")
    page = json.loads(browser.eval(browser_ai_js(4)))
    out = subprocess.run([_unix_micropython(), "-X", "heapsize=4M",
                          os.path.join(ROOT, "web", "aibench.py"), "4"],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    unix = json.loads(out.strip().splitlines()[-1])
    assert page["runtime"].startswith("micropython") and "webassembly" in page["runtime"]
    assert (page["n"], page["checksum"]) == (unix["n"], unix["checksum"])
    assert page["n"] > 20


PARTS_JS = """(() => {
  const r = (s) => { const e = document.querySelector(s).getBoundingClientRect();
                     return [e.left, e.right, e.top, e.bottom]; };
  return {device: r('.device'), bezel: r('.bezel'), oled: r('#oled'), dpad: r('.dpad'),
          a: r('.round.a'), b: r('.round.b'),
          scroll: document.documentElement.scrollWidth - window.innerWidth};
})()"""


@pytest.mark.parametrize("width", [320, 360, 412])
def test_the_handheld_fits_a_phone_screen(browser, site, width):
    """The screen's bezel, the D-pad and both buttons inside the device's
    body, and nothing wider than the phone (320 px: the bezel and the A
    button used to stick out)."""
    open_page(browser, site, width=width, height=720)
    got = browser.eval(PARTS_JS)
    left, right, top, bottom = got["device"]
    assert left >= 0 and right <= width and got["scroll"] <= 0, got
    for part in ("bezel", "oled", "dpad", "a", "b"):
        l, r, t, b = got[part]
        assert left <= l and r <= right and top <= t and b <= bottom, (part, got)


def test_the_page_in_play_deals_committed_hands(browser, site):
    """Real play (no fake clock): the deal secret from the browser's
    crypto.getRandomValues, the hand showing its commitment."""
    open_page(browser, site, "?seed=3")
    browser.wait("gin.t.title !== undefined")
    browser.key("Enter")
    give_cut(browser)
    browser.wait("gin.screen() === 'play'", 10000)
    assert browser.eval("gin.py('app.match.committed')") is True
    assert browser.eval("gin.py('app.match.cut')") == "AAAA"
    commit = browser.eval("gin.py('app.match.hand.commit')")
    assert len(commit) == 10 and int(commit, 16) >= 0
    assert browser.eval("gin.py('app.screen.fp.decode()')") == "DEAL #" + commit
    assert browser.eval("gin.py('app.match.ai_seed is not None')") is True


DAMAGE_JS = """(() => {
  const p = "gin-rummy/";
  localStorage.setItem(p + "bad\\u0000name.dat", "AAAA");
  localStorage.setItem(p + "x".repeat(300), "AAAA");
  localStorage.setItem(p + "sub/dir.dat", "AAAA");
  localStorage.setItem(p + "junk.dat", "\\u2603 garbage \\ud800");
  localStorage.setItem(p, "AAAA");
  return localStorage.length;
})()"""


def test_the_page_starts_on_a_damaged_local_storage_and_says_so(browser, site):
    open_page(browser, site, "?seed=3")
    browser.wait("gin.t.title !== undefined")
    browser.key("Enter")                           # a match, saved
    give_cut(browser)
    browser.wait("gin.screen() === 'play'", 10000)
    assert browser.eval(DAMAGE_JS) >= 6
    browser.call("reload")
    browser.wait("window.gin && (gin.ready || gin.failed)", 60000)
    assert browser.eval("gin.failed") is None
    browser.wait("gin.t.title !== undefined", 60000)
    assert browser.eval("gin.py('app.screen.keys[0]')") == "continue"
    said = [m for m in browser.call("console") if "web: skipped the stored key" in m]
    for why in ("its name holds a NUL", "a file name of 300 characters",
                "its name holds a slash", "no file name after the prefix"):
        assert sum(why in m for m in said) == 1, (why, said)
    assert not [m for m in browser.call("console") if m.startswith("pageerror")]


def test_opened_as_a_file_the_page_says_how_to_open_it(browser, web_dir, site):
    """From file:// the browser refuses the game's scripts: the page's own
    line says so and how to serve it; over HTTP that line stays hidden."""
    browser.page("file://" + os.path.join(web_dir, "index.html"))
    browser.wait("document.readyState === 'complete'", 30000)
    assert browser.eval("document.getElementById('file-note').hidden") is False
    note = browser.eval("document.getElementById('file-note').textContent")
    assert "python3 -m http.server 8000" in note and "http://localhost:8000/" in note
    assert "file" in browser.eval("document.getElementById('status').textContent")
    open_page(browser, site)
    assert browser.eval("document.getElementById('file-note').hidden") is True
