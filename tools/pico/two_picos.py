"""Two emulated Picos joined by the link cable (tools/pico/two_picos.mjs):
each board's UART1 TX (GP8) into the other's RX (GP9), both running the
real firmware, stepped in turn in emulated time.

    from tools.pico import two_picos as lp
    with lp.LinkPair(firmware, bootrom, fs=(img0, img1)) as pair:
        a, b = pair.boards                  # each as a harness.Pico
        pair.boot()                         # both games running
        a.press("D")                        # both boards run while it is held
        lp.screen(b)                        # what b's panel says, line by line
        r = lp.play_link_match(pair)        # a whole link match, played off
                                            # the panels by a simple player

    python -m tools.pico.two_picos [--target 50] [--frozen [UF2]] [--verbose]

The players read only the panels (tools/sim/textscreen.py) and press
buttons: LINK on the title, the stock or the pile (the pile when its card
lowers the deadwood), the discard that leaves the least deadwood, a knock
as soon as the rules allow, A on the showdown and the result. What the
cable models and what it does not: two_picos.mjs. Emulated time (rp2040js
runs flash at zero wait states: a real Pico is 10-40% slower).
"""

import json
import os
import sys
import tempfile

import engine
from tools.kit.ui_driver import CUT_KEYS
from tools.pico import harness as h
from tools.sim import textscreen

TWO_PICOS = os.path.join(h.ROOT, "tools", "pico", "two_picos.mjs")
SUITS = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"}


class Panel:
    """What a board's panel says, read back as text (tools/sim/textscreen.py)
    only after the display was written to."""

    def _panel_reset(self):
        self.writes = 0
        self._text = (-1, [])

    def _i2c(self, ev):
        self.writes += 1
        super()._i2c(ev)

    def text(self):
        """The panel's lines of text now."""
        if self._text[0] != self.writes:
            self._text = (self.writes, textscreen.read(self.image()))
        return self._text[1]


class Single(Panel, h.Pico):
    """One board alone (harness.Pico) with its panel read as text."""

    def __init__(self, *a, **kw):
        self._panel_reset()
        super().__init__(*a, **kw)


class Board(Panel, h.Pico):
    """One board of the pair, with harness.Pico's API (press, run,
    run_until_text, frames, image, output, ...): its commands go to the
    pair, and time passes for both boards."""

    def __init__(self, pair, index):
        self.pair = pair
        self.index = index
        self.sh1106 = False
        self.boot_no = 1
        self.t = 0
        self.host_ms = 0.0
        self.chunks = []
        self.frames = []
        self.transactions = []
        self.keep_i2c = False
        self.flash_ops = []
        self.led = []
        self.flash_stats = {}
        self._burst = None
        self._panel_reset()
        self._emu_reset()

    def _command(self, cmd):
        return self.pair._command(dict(cmd, board=self.index))

    def close(self):
        self.pair.close()


class LinkPair(h.NodeProcess):
    """Two boards booted from `firmware`, each with its littlefs image
    (`fs`: two images or None, an erased region) and the cable between
    them."""

    def __init__(self, firmware, bootrom, fs=(None, None), flash_timing="typical",
                 link_pins=(8, 9)):
        self._tmp = tempfile.TemporaryDirectory()
        args = ["--firmware", firmware, "--bootrom", bootrom,
                "--flash-timing", flash_timing, "--link-pins", "%d,%d" % link_pins]
        for i, img in enumerate(fs):
            if img is not None:
                path = os.path.join(self._tmp.name, "fs%d.bin" % i)
                with open(path, "wb") as f:
                    f.write(img)
                args += ["--fs%d" % i, path]
        args += ["--fs-offset", str(h.FS_OFFSET)]
        self._spawn(TWO_PICOS, args)
        self.boards = [Board(self, 0), Board(self, 1)]
        self.host_ms = 0.0
        self.wire = None

    @property
    def t(self):
        """Emulated ns: the later of the two boards' clocks."""
        return max(b.t for b in self.boards)

    def _command(self, cmd):
        self._send(cmd)
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the emulator stopped (exit %s)" % self.proc.wait())
            ev = json.loads(line)
            kind = ev["ev"]
            if kind == "done":
                for b, t in zip(self.boards, ev["t"]):
                    b.t = t
                    b._settle_burst()
                self.host_ms += ev["host_ms"]
                self.wire = ev["wire"]
                return ev
            b = self.boards[ev["b"]]
            if kind == "i2c":
                b._i2c(ev)
            elif kind == "out":
                b.chunks.append((1, ev["t"], ev["data"]))
            elif kind == "led":
                b.led.append((1, ev["t"], ev["on"]))
            elif kind == "flash":
                b.flash_ops.append((1, ev["t0"], ev["t"], ev["op"], ev["at"], ev["n"]))

    def run(self, ms):
        """Let `ms` of emulated time pass on both boards."""
        return self.boards[0].run(ms)

    def boot(self, timeout_ms=60000):
        """Run until both boards' game is running."""
        for b in self.boards:
            if "Game running" not in b.output():
                b.run_until_text("Game running", timeout_ms)


# -- the panels read, and a player pressing buttons ------------------------------

def screen(board):
    """What the board's panel says now: its lines of text."""
    return board.text()


def cards_of(text):
    """The cards of a line of the panel ('[3♥ 3♦ 3♣] >5♥ *6♣'), in order,
    and the index of the raised one (None if none)."""
    out = []
    sel = None
    for w in text.replace("[", " ").replace("]", " ").split():
        if w.startswith(">"):
            sel = len(out)
        w = w.lstrip(">*")
        if len(w) == 2 and w[1] in SUITS:
            out.append(engine.card(w[0] + SUITS[w[1]]))
    return out, sel


def _line(lines, word):
    for ln in lines:
        if word in ln:
            return ln
    return None


def _after(text, word):
    """The word after `word` in `text` ('DEAL #1FDD' -> '1FDD')."""
    rest = text.split(word, 1)[1].split()
    return rest[0] if rest else None


# A button is left up at least this long before the player presses the
# next one (a thumb takes longer): pressed again at once, with no time up
# between, the board saw one long press and the second went unanswered
# until the player's patience ran out, a "press" of 1.6 s (the LEFT/RIGHT
# maxima of tools/pico/two_picos_latency.py). The board's debounce takes a
# release at its second reading, 2 ms apart, and a new press no sooner
# than 20 ms after it (firmware/buttons.py).
RELEASE_MS = 40


class Player:
    """A board's player: reads the panel, presses the buttons of the next
    step of the simple policy (module docstring). `act()` makes one press
    when one is due and returns it (None: nothing to do yet); it leaves
    the last button up RELEASE_MS first."""

    def __init__(self, board, knock_limit=10, patience_ms=1500, on_press=None, entry="LINK"):
        self.board = board
        self.entry = entry                # the title's entry it chooses: LINK or NEW MATCH
        self.knock_limit = knock_limit
        self.patience_ms = patience_ms
        # on_press(player, key, kind, lines before, press ns, release ns); kind:
        # 'move' (A that draws, discards or knocks), 'cursor' (LEFT/RIGHT at
        # the table) or 'other'
        self.on_press = on_press
        self.showdowns = 0                # showdowns it has seen
        self.deals = {}                   # hand number -> the DEAL # it showed
        self.results = {}                 # hand number -> (this board's total, the other's)
        self.hand = None
        self.taken = None                 # the card taken from the pile this turn
        self.final = None                 # the match end's lines
        self.linked = False
        self._last = None                 # (lines, ns) when the player last pressed
        self.presses = 0
        self.cut_at = 0                   # the cut's keys pressed (CUT_KEYS)

    def _press(self, key, lines, kind="other"):
        b = self.board
        if self._last is not None:
            up = (b.t - self._last[1]) / 1e6
            if up < RELEASE_MS:
                b.run(RELEASE_MS - up)
        b.pin(key, True)
        t_press = b.t
        b.run(40)
        b.pin(key, False)
        t_release = b.t
        self._last = (lines, t_release)
        self.presses += 1
        if self.on_press is not None:
            self.on_press(self, key, kind, lines, t_press, t_release)
        return key

    def _waited(self, lines):
        """True once the panel changed since the last press, or it has
        shown the same for patience_ms (a press that was not taken); never
        while a frame is being sent (the panel half drawn)."""
        if self.board._burst is not None:
            return False
        if self._last is None or self._last[0] != lines:
            return True
        return self.board.t - self._last[1] >= self.patience_ms * 1e6

    def act(self):
        lines = screen(self.board)
        if self.final is not None or not lines or not self._waited(lines):
            return None
        top = lines[0]
        if "GIN RUMMY" in top:                        # the title
            if self.linked:
                return None
            if "> " + self.entry in lines:
                self.linked = True
                return self._press("A", lines)
            if self.entry not in lines:
                raise AssertionError("no %s on the title: %r" % (self.entry, lines))
            return self._press("D", lines)
        if top.startswith("NEW MATCH") and _line(lines, "MATCH #"):   # the match commitment
            self.cut_at = 1
            return self._press("A", lines)
        if top.startswith("YOUR CUT"):                # the cut AAAA, then A deals
            if self.cut_at >= len(CUT_KEYS):
                return None
            self.cut_at += 1
            return self._press(CUT_KEYS[self.cut_at - 1], lines)
        if top.startswith("MATCH OVER") and _line(lines, "SEAL #"):
            return self._press("A", lines)           # the seal page: on to the scores
        if top.startswith("MATCH OVER"):
            if lines[-1].startswith("A "):           # all drawn: A TITLE v REVIEW
                self.final = lines
            return None
        if top.startswith("HAND ") and "RESULT" in top:   # A NEXT HAND, A MATCH RESULT
            return self._result(lines)
        if lines[-1].endswith("A NEXT"):              # the showdown
            if "DEAL #" in top:                     # (a header read without it: no note)
                self._deal(lines, _after(top, "DEAL #"))
            if self._last is None or self._last[0][-1] != lines[-1]:
                self.showdowns += 1
            return self._press("A", lines)
        if top.startswith("YOU ") and " HAND " in top:  # the table
            return self._table(lines)
        return None                                  # the link screen, a message: wait

    def _result(self, lines):
        if not lines[-1].startswith("A "):
            return None                      # not all drawn yet
        # the totals' rows: YOU 27 1, P2 0 0 (name, points, hands won)
        rows = [w for w in (ln.split() for ln in lines)
                if len(w) == 3 and w[0] in ("YOU", "P1", "P2", "CPU") and w[1].isdigit()
                and w[2].isdigit()]
        if len(rows) == 2:
            self.results[int(_after(lines[0], "HAND "))] = (int(rows[0][1]), int(rows[1][1]))
        return self._press("A", lines)

    def _deal(self, lines, deal):
        if self.hand is not None and deal:
            self.deals.setdefault(self.hand, deal)

    def _table(self, lines):
        self.hand = int(_after(lines[0], " HAND "))
        deal = _line(lines, "DEAL #")
        if deal:
            self._deal(lines, _after(deal, "DEAL #"))
        if _line(lines, "KNOCK?") or _line(lines, "GO GIN?"):
            return self._press("A", lines, "move")
        keys = _line(lines, " B MENU") or ""
        if "A TAKE" in keys:                        # the draw: <> PICK A TAKE
            return self._draw(lines)
        if "A DISCARD" in keys:                     # <> A DISCARD ^ KNOCK
            return self._discard(lines)
        if "A CONTINUE" in lines and self._last and self.board.t - self._last[1] > 3000e6:
            return self._press("A", lines)
        return None

    def _draw(self, lines):
        table = _line(lines, "STOCK")
        hand, _ = cards_of(lines[-1])
        if table is None or "PILE" not in table or len(hand) != 10:
            return None
        pile, _ = cards_of(table.split("PILE", 1)[1])
        want = "STOCK"
        if pile:
            now, _ = engine.best_melds(hand)
            after, _ = engine.best_discard(hand + pile[:1], forbidden=pile[0])
            if after < now:
                want = "PILE"
        if "> " + want in table:
            self.taken = pile[0] if want == "PILE" else None
            return self._press("A", lines, "move")
        return self._press("R", lines, "cursor")

    def _discard(self, lines):
        hand, sel = cards_of(lines[-1])
        if sel is None or len(hand) != 11:
            return None                      # a frame drawn in parts: the rest comes
        taken = self.taken if self.taken in hand else None   # R4: not the pile's card
        dw, c = engine.best_discard(hand, forbidden=taken)
        i = hand.index(c)
        if sel != i:
            n = len(hand)
            return self._press("R" if (i - sel) % n <= (sel - i) % n else "L", lines, "cursor")
        if dw <= self.knock_limit:
            return self._press("U", lines)        # KNOCK? then A
        return self._press("A", lines, "move")

    def score(self):
        """(this board's points, the other's) at the match's end."""
        ln = _line(self.final, " - ")
        w = ln.split()
        return int(w[1]), int(w[3])


def play(players, run, until=None, limit_s=1800, step_ms=20, out=None):
    """Let the players act, `run(ms)` passing emulated time while none has
    a press to make, until `until(players)` (default: every player saw its
    match end). Raises TimeoutError past `limit_s` of emulated time.
    `out`: called with each panel's text as it changes."""
    if until is None:
        def until(pl):
            return all(p.final is not None for p in pl)
    start = max(p.board.t for p in players)
    seen = [None] * len(players)
    while not until(players):
        if max(p.board.t for p in players) - start > limit_s * 1e9:
            raise TimeoutError("not done in %d s: %s; the consoles end: %r" % (
                limit_s, [screen(p.board) for p in players],
                [p.board.output()[-400:] for p in players]))
        acted = False
        for i, p in enumerate(players):
            if p.act() is not None:
                acted = True
            if out is not None:
                s = screen(p.board)
                if s != seen[i]:
                    seen[i] = s
                    out("[%.1f s] board %d: %s" % (p.board.t / 1e9, i, " | ".join(s)))
        if not acted:
            run(step_ms)
    return players


def play_link_match(pair, players=None, **kw):
    """Both boards from the title into LINK and through a whole link match
    (play()'s `until`, `limit_s`, `out` to stop earlier or watch); returns
    the players."""
    if players is None:
        players = [Player(b) for b in pair.boards]
    return play(players, pair.run, **kw)


def settings_files(target=None, level=None):
    """{board path: bytes}: the saved settings of a match to `target`
    against the AI at `level` (None, None: nothing, the game's defaults)."""
    if target is None and level is None:
        return {}
    from firmware.settings import Settings
    from firmware.saves.storage import pack

    st = Settings()
    if target is not None:
        st.target = target
    if level is not None:
        st.level = level
    return {"/data/settings.dat": bytes(pack(st.encode()))}


def board_fs(a, target=None):
    """The littlefs image for a board of session.check()ed arguments `a`:
    the .mpy bundle of a.root (or nothing on a frozen build) and the
    settings; None when there is nothing to put there."""
    files = {} if a.frozen else h.board_files(a.root)
    files.update(settings_files(target))
    return h.fs_image(files) if files else None


def main(argv=None):
    import argparse
    import time

    from tools.pico import session

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    session.add_arguments(ap)
    ap.add_argument("--target", type=int, default=None,
                    help="both boards' MATCH TO setting (50-500; default the game's 100)")
    ap.add_argument("--verbose", action="store_true", help="print each panel as it changes")
    a = ap.parse_args(argv)
    session.check(a)
    fs = board_fs(a, a.target)
    t0 = time.time()
    with LinkPair(a.firmware, a.bootrom, fs=(fs, fs)) as pair:
        pair.boot()
        pl = play_link_match(pair, out=print if a.verbose else None)
        print("%s: a link match to %s on two emulated boards, %.1f s emulated, %.0f s host"
              % (session.label(a), a.target or 100, pair.t / 1e9, time.time() - t0))
        for i, p in enumerate(pl):
            print("board %d: %d presses, deals %s, final %s" % (
                i, p.presses, " ".join("%d:%s" % kv for kv in sorted(p.deals.items())),
                p.score()))
        print("wire:", pair.wire)
    return 0


if __name__ == "__main__":
    sys.exit(main())
