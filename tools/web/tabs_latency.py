"""From a key on one tab to the frame on the other: link play in the browser
(docs/LINK.md, "In the browser"), timed in headless Chromium.

    .venv/bin/python -m tools.web.tabs_latency [--moves N] [--web DIR]

Builds the page (or serves DIR), opens two tabs of it in one browser
context, chooses LINK on both and plays the first hand by keys, each
tab's player choosing with the simple policy (tools/kit/ui_driver.py).
Every move ends with A, which the buttons report on its release
(firmware/buttons.py): for every move, the time from the release of that
A on the tab that plays it to the first frame painted on the other tab
that holds the move (`gin.onframe`), in the browser's own clock
(performance.timeOrigin + now(), the same for both tabs), split into the
mover's part (the debounce and the step that sends the move), the channel
(its post to the other tab's message event) and the other tab's part (the
step that takes the move and its paint). Prints one line a move and then
the medians and the range.

The helpers (py, press, choose_link, move_keys, ...) also drive
host_tests/web/test_web_link.py.
"""

import argparse
import ast
import json
import statistics
import sys
import time
from types import SimpleNamespace

from firmware.screens.play_modes import M_DISCARD, M_DRAW, O_NONE
from tools.kit.ui_driver import presses_for, simple_choice

KEYBOARD = {"L": "ArrowLeft", "R": "ArrowRight", "U": "ArrowUp", "D": "ArrowDown",
            "A": "Enter", "B": "x"}
READY = "window.gin && (gin.ready || gin.failed)"
# where a tab is: (screen, overlay, mode, to_move, moves of the hand)
STATE = ("(lambda s, m: (app.screen_name, getattr(s, 'overlay', None), getattr(s, 'mode', None),"
         " m.to_move if m else None, len(m.hand.log) if m else 0))(app.screen, app.match)")
VIEW = ("(lambda v, s: (v.phase, list(v.hand), v.upcard, list(v.legal), v.knock_limit, v.taken,"
        " s.src, s.cur, list(s.row.cards[:s.row.n])))(app.match.view(0), app.screen)")
MOVES = "repr(len(app.match.hand.log) if app.match else -1)"
# on the other tab: the time of the first frame painted once the hand has
# more than gin.mark moves
WATCH = """(() => {
  gin.mark = %d;
  gin.seenAt = 0;
  gin.onframe = () => {
    if (gin.seenAt || Number(gin.py(%s)) <= gin.mark) return;
    gin.seenAt = performance.timeOrigin + performance.now();
  };
  return true;
})()"""


def py(b, expr, tab):
    """A Python expression's value in the tab's page (through its repr)."""
    return ast.literal_eval(b.eval("gin.py(%s)" % json.dumps("repr(%s)" % expr), tab=tab))


def press(b, key, tab):
    b.key(KEYBOARD[key], delay=60, tab=tab)
    time.sleep(0.09)


def ready(b, tab):
    b.wait(READY, 60000, tab=tab)
    failed = b.eval("gin.failed", tab=tab)
    if failed is not None:
        raise RuntimeError("tab %d stopped: %s" % (tab, failed))


def choose_link(b, tab):
    """On the title: down to LINK, A."""
    keys = py(b, "app.screen.keys", tab)
    if "link" not in keys:
        raise RuntimeError("no LINK on the title of tab %d: %s" % (tab, keys))
    for _ in range((keys.index("link") - py(b, "app.screen.menu.sel", tab)) % len(keys)):
        press(b, "D", tab)
    press(b, "A", tab)


class _Row:
    def __init__(self, cards):
        self.cards = cards
        self.n = len(cards)

    def index_of(self, c):
        return self.cards.index(c)


def move_keys(b, tab):
    """The keys that play the simple policy's move on the tab's screen."""
    ph, hand, up, legal, limit, taken, src, cur, row = py(b, VIEW, tab)
    view = SimpleNamespace(phase=ph, hand=hand, upcard=up, legal=legal,
                           knock_limit=limit, taken=taken)
    screen = SimpleNamespace(src=src, cur=cur, row=_Row(row))
    return presses_for(SimpleNamespace(app=SimpleNamespace(screen=screen)), simple_choice(view))


def link_tabs(b, url):
    """Two tabs of the page at url, linked and at the table: [0, 1]."""
    b.page(url)
    ready(b, 0)
    one = b.tab(url)
    ready(b, one)
    tabs = [0, one]
    for t in tabs:
        choose_link(b, t)
    for t in tabs:
        b.wait("gin.screen() === 'link_play'", 30000, tab=t)
    return tabs


def play_hand(b, tabs, watch=None, on_move=None, limit_s=240):
    """Both tabs' players play until the hand is over on both; returns the
    number of moves played. on_move(tab, other, n) is called before the
    last key of each move (n: the hand's moves before it), and again with
    n=None once the move is made."""
    moves = 0
    t_end = time.time() + limit_s
    while True:
        states = [py(b, STATE, t) for t in tabs]
        if all(s[0] == "showdown" for s in states):
            return moves
        if time.time() > t_end:
            raise RuntimeError("the hand did not end: %s" % (states,))
        if watch is not None:
            watch()
        acted = False
        for i, (name, overlay, mode, to_move, n) in enumerate(states):
            t = tabs[i]
            if name == "link_play" and overlay != O_NONE:
                press(b, "A", t)
                acted = True
            elif name == "link_play" and to_move == 0 and mode in (M_DRAW, M_DISCARD):
                keys = move_keys(b, t)
                for k in keys[:-1]:
                    press(b, k, t)
                if on_move is not None:
                    on_move(t, tabs[1 - i], n)
                press(b, keys[-1], t)
                b.wait("gin.py(%s) !== %s" % (json.dumps(MOVES), json.dumps(repr(n))),
                       10000, tab=t)
                if on_move is not None:
                    on_move(t, tabs[1 - i], None)
                moves += 1
                acted = True
        if not acted:
            time.sleep(0.1)


def measure(b, tabs, moves=20):
    """[(release to the other's frame, to the mover's send, to its arrival
    on the other tab), ms] for up to `moves` moves of the first hand."""
    out = []

    def on_move(t, other, n):
        if n is not None:
            b.eval(WATCH % (n, json.dumps(MOVES)), tab=other)
            return
        if len(out) >= moves:
            return
        b.wait("gin.seenAt > 0", 10000, tab=other)
        key = b.eval("gin.t.keyup", tab=t)
        seen = b.eval("gin.seenAt", tab=other)
        sent = [s for s in b.eval("gin.link.sends", tab=t) if s >= key]
        got = [s for s in b.eval("gin.link.arrivals", tab=other) if sent and s >= sent[0]]
        b.eval("gin.onframe = null", tab=other)
        nan = float("nan")
        out.append((seen - key, (sent[0] - key) if sent else nan, (got[0] - key) if got else nan))

    play_hand(b, tabs, on_move=on_move)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=20, help="moves timed (of the first hand)")
    ap.add_argument("--web", metavar="DIR", help="a built page (default: build one)")
    args = ap.parse_args(argv)
    from web import browser as wb

    why = wb.missing()
    if why:
        print("no browser: %s" % why)
        return 2
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        site = args.web
        if site is None:
            from tools.web import build

            build.build(tmp, quiet=True)
            site = tmp
        with wb.serve(site) as url, wb.Browser() as b:
            tabs = link_tabs(b, url)
            rows = measure(b, tabs, args.moves)
            print("browser: Chromium %s" % b.version)
    for i, (total, sent, got) in enumerate(rows):
        print("move %2d: A released to the other tab's frame %6.1f ms (sent at %5.1f, "
              "there at %5.1f)" % (i + 1, total, sent, got))
    med = [statistics.median([r[k] for r in rows]) for k in range(3)]
    totals = [r[0] for r in rows]
    print("%d moves: A released to the other tab's frame median %.1f ms (%.1f-%.1f); "
          "the move sent after %.1f, on the other tab after %.1f"
          % (len(rows), med[0], min(totals), max(totals), med[1], med[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
