"""Headless: no display on the bus, the screens on the serial console as
text and keys typed there as the buttons (firmware/display/textview.py, firmware/pico/consolekeys.py, pico.run).

The main case runs firmware/main.py as the board would, on the MicroPython
unix port with the fake `machine` and nothing on the I2C bus, and plays a
hand through its stdin and stdout only: the simulator (same App, same seed)
says which frame must come and which key to type next, and each frame read
from the serial text must equal the simulator's text rendering. The game
record the "board" kept for that hand then replays to the same result.
"""

import os
import queue
import subprocess
import threading
import time

import pytest

from devutil import ROOT, micropython, run_mp

FAKES = os.path.join(ROOT, "host_tests", "firmware", "kit", "fakes")

from firmware import buttons as btn  # noqa: E402
from firmware.buttons import Buttons  # noqa: E402
from firmware.pico.consolekeys import ConsoleKeys, KeyDecoder, QUIT  # noqa: E402
from firmware.display.textview import TextView  # noqa: E402
from tools.sim import render  # noqa: E402

TOP = "\u250c" + "\u2500" * 128 + "\u2510"
BOTTOM = "\u2514" + "\u2500" * 128 + "\u2518"


def sim_image():
    from tools.sim.simulator import Sim

    sim = Sim(seed=3)
    sim.settle()
    sim.press("A")
    return sim.image()


def capture(style="blocks", footer=()):
    out = bytearray()
    tv = TextView(style, write=lambda b, n: out.extend(bytes(b[:n])), footer=footer)
    return tv, out


# -- the text view --------------------------------------------------------------

def test_blocks_are_the_simulators_text_rendering_in_a_frame():
    img = sim_image()
    tv, out = capture(footer=[b"No display: nothing answered."])
    n = tv.show(img)
    assert n == len(out)
    lines = out.decode().split("\r\n")
    assert lines[0] == TOP and lines[33] == BOTTOM
    assert [ln[1:-1] for ln in lines[1:33]] == render.to_text(img).split("\n")
    assert all(ln[0] == ln[-1] == "\u2502" for ln in lines[1:33])
    assert lines[34].startswith("keys: arrows move, z/Enter/space = A, x/Backspace = B")
    assert lines[35] == "No display: nothing answered." and lines[36] == ""
    assert "\n" not in out.decode().replace("\r\n", "")   # CR LF only


def test_ascii_has_the_same_pixels():
    img = sim_image()
    tv, out = capture("ascii")
    tv.show(img)
    lines = out.decode("ascii").split("\r\n")
    assert lines[0] == lines[33] == "+" + "-" * 128 + "+"
    back = {" ": " ", "'": "\u2580", ",": "\u2584", "#": "\u2588"}
    got = ["".join(back[ch] for ch in ln[1:-1]) for ln in lines[1:33]]
    assert got == render.to_text(img).split("\n")
    assert len(out) < 5000


def test_a_frame_is_printed_only_when_it_changed():
    img = bytearray(sim_image())
    tv, out = capture()
    assert tv.show(img) > 0
    n = len(out)
    assert tv.show(bytes(img)) == 0 and len(out) == n
    img[5] ^= 0xFF
    assert tv.show(img) > 0 and tv.printed == 2
    assert tv.show(img, True) > 0 and tv.printed == 3   # full: printed again


def test_bad_style_is_refused():
    with pytest.raises(ValueError):
        TextView("utf8")


# -- keys -------------------------------------------------------------------------

def decode(data):
    d = KeyDecoder()
    out = []
    for c in data:
        k = d.feed(c)
        if k:
            out.append(k)
    return out


def test_key_map_is_the_simulators():
    assert decode(b"\x1b[A\x1b[B\x1b[C\x1b[D\x1bOC") == [
        btn.UP, btn.DOWN, btn.RIGHT, btn.LEFT, btn.RIGHT]
    assert decode(b"z \r") == [btn.A] * 3
    assert decode(b"x\x7f\x08") == [btn.B] * 3
    assert decode(b"ZX") == [btn.LONG_A, btn.LONG_B]
    assert decode(b"qQ\x03") == [QUIT] * 3
    assert decode(b"\r\n\n") == [btn.A, btn.A]         # CR LF is one Enter
    assert decode(b"abc123") == []


def test_an_arrow_split_over_two_reads_is_one_key():
    d = KeyDecoder()
    assert [d.feed(c) for c in b"\x1b["] == [0, 0]
    assert d.feed(ord("C")) == btn.RIGHT


def test_simulator_reads_keys_with_the_same_decoder_and_queue():
    from tools.sim import terminal
    from tools.sim.simulator import FakeClock

    clock = FakeClock()
    keys = terminal.make_keys(clock)
    for c in b"\x1b[Cz\r\nxZXq":
        keys.feed(c)
    assert keys.quit
    assert terminal.pressed(keys, clock, 3000) == [
        btn.RIGHT, btn.A, btn.A, btn.B, btn.A, btn.B]     # Z, X: held A, B


class Clock:
    def __init__(self):
        self.t = 1000

    def __call__(self):
        return self.t


def typed(text, gaps, steps):
    """The events of the keys in `text` typed at once, a loop step (the
    keys updated, the buttons polled) every gaps[i % len(gaps)] ms."""
    clock = Clock()
    keys = ConsoleKeys(clock, poll_stdin=False)
    b = Buttons(keys.read)
    for c in text:
        keys.feed(c)
    events = []
    for i in range(steps):
        keys.update(clock.t)
        b.poll(clock.t)
        ev = b.event()
        while ev:
            events.append(btn.event_name(ev))
            ev = b.event()
        clock.t += gaps[i % len(gaps)]
    return events, keys


def test_typed_keys_are_pressed_one_at_a_time_through_the_debounce():
    events, keys = typed(b"\x1b[Cz\x1b[CX", (5,), 400)     # 2 s in 5 ms samples
    assert events == ["RIGHT", "A", "RIGHT", "LONG_B"]
    assert keys.keys == 4 and not keys.pending() and keys.read() == 0


def test_a_key_is_released_on_time_even_if_the_loop_is_busy():
    clock = Clock()
    keys = ConsoleKeys(clock, poll_stdin=False)
    keys.feed(ord("z"))
    keys.update(clock.t)
    assert keys.read() == btn.A
    clock.t += 59
    assert keys.read() == btn.A
    clock.t += 1                         # no update() meanwhile: the timer's view
    assert keys.read() == 0


def test_a_key_is_seen_even_when_the_first_reading_comes_late():
    clock = Clock()
    keys = ConsoleKeys(clock, poll_stdin=False)
    b = Buttons(keys.read)
    keys.feed(ord("\x1b"))
    keys.feed(ord("["))
    keys.feed(ord("D"))
    keys.update(clock.t)
    clock.t += 300                       # the loop stalled past the tap
    b.poll(clock.t)                      # first reading: held
    clock.t += 9
    b.poll(clock.t)                      # the second reading agrees: pressed
    assert b.event() == btn.LEFT
    assert b.held() == btn.LEFT
    clock.t += 16
    b.poll(clock.t)                      # held until a reading SEEN_MS after the first
    assert b.held() == btn.LEFT
    clock.t += 1
    b.poll(clock.t)                      # then released, taken once the debounce's
    assert keys.read() == 0              # lockout after the press is over
    for _ in range(3):
        clock.t += 2
        b.poll(clock.t)
    assert b.held() == 0 and b.event() == 0


def test_a_key_read_once_before_a_long_step_is_not_lost():
    """The simulator's first key after the CPU's move: the debounce read it
    once, then the step drew the waiting save mark's frame and the text
    view read the panel back (300 ms); the loop's next update() came after
    the tap's 60 ms. The press lasts until the debounce has read it again."""
    clock = Clock()
    keys = ConsoleKeys(clock, poll_stdin=False)
    b = Buttons(keys.read)
    for c in b"\x1b[C":
        keys.feed(c)
    keys.update(clock.t)
    b.poll(clock.t)                      # read once: not yet a press
    assert b.event() == 0
    clock.t += 300                       # the slow step
    keys.update(clock.t)                 # the loop's clock: the tap is long over
    b.poll(clock.t)
    assert b.event() == btn.RIGHT


def test_typed_keys_survive_readings_far_apart():
    """Every key typed, in order, however long the loop's steps (each step
    reads the buttons once, then 70-180 ms pass: a press spans two of
    them, short of the debounce's repeat at 400 ms)."""
    events, keys = typed(b"\x1b[C\x1b[Cz\x1b[Dxz\x1b[C", (70, 150, 130, 90, 180, 75), 200)
    assert events == ["RIGHT", "RIGHT", "A", "LEFT", "B", "A", "RIGHT"]
    assert not keys.pending()


def test_console_keys_read_a_pipe_and_stop_at_its_end():
    r, w = os.pipe()
    f = os.fdopen(r, "rb", buffering=0)
    try:
        clock = Clock()
        keys = ConsoleKeys(clock, stream=f)
        os.write(w, b"x")
        keys.update(clock.t)
        assert keys.read() == btn.B
        os.close(w)
        w = None
        for _ in range(3):
            clock.t += 100
            keys.update(clock.t)
            keys.read()                  # the debounce's readings end the press
        assert keys._poll is None and keys.read() == 0
    finally:
        f.close()
        if w is not None:
            os.close(w)


class Intr:
    """micropython.kbd_intr's stand-in: the calls it got."""

    def __init__(self):
        self.calls = []

    def __call__(self, c):
        self.calls.append(c)


class Caught:
    interrupted = False
    ctrl_c = False


def _pipe_keys(data, hold=None, stop=None):
    r, w = os.pipe()
    os.write(w, data)
    f = os.fdopen(r, "rb", buffering=0)
    return f, w, ConsoleKeys(Clock(), stream=f, hold_intr=hold, stop=stop)


def _left(f, w):
    """What is still unread in the pipe."""
    os.close(w)
    return f.read()


def test_a_ctrl_c_typed_stops_the_reading_and_leaves_what_follows_for_the_repl():
    # mpremote sends "\r\x03" then "\r\x01" (the raw REPL): the game stops
    # at the Ctrl-C, plays none of the keys before it, and the REPL still
    # gets the Ctrl-A
    intr = Intr()
    f, w, keys = _pipe_keys(b"z\r\x03\r\x01", hold=intr)
    try:
        keys.update(1000)
        assert keys.interrupted and keys.read() == 0 and not keys.pending()
        assert intr.calls == [-1, 3]           # the interrupt off while reading, then on
        keys.update(1100)                      # once stopped, nothing more is read
        assert intr.calls == [-1, 3]
        assert _left(f, w) == b"\r\x01"
    finally:
        f.close()


def test_a_ctrl_c_the_sampler_caught_leaves_the_console_unread():
    # the interrupt landed in the button sampler's timer callback, which
    # only noted it: the bytes after it are the REPL's, not keys
    intr = Intr()
    stop = Caught()
    stop.ctrl_c = True
    f, w, keys = _pipe_keys(b"\r\x01", hold=intr, stop=stop)
    try:
        keys.update(1000)
        assert keys.interrupted and keys.read() == 0
        assert intr.calls == [-1, 3]           # looked at with the interrupt off
        assert _left(f, w) == b"\r\x01"
    finally:
        f.close()


def test_keys_typed_without_a_ctrl_c_are_played_with_the_interrupt_back_on():
    intr = Intr()
    f, w, keys = _pipe_keys(b"x", hold=intr, stop=Caught())
    try:
        keys.update(1000)
        assert not keys.interrupted and keys.read() == btn.B
        assert intr.calls == [-1, 3]
    finally:
        os.close(w)
        f.close()


# -- on MicroPython ------------------------------------------------------------------

NO_ALLOC = r"""
import sys, micropython
sys.path.insert(0, %(repo)r)
from firmware.display.textview import TextView
from firmware.pico.consolekeys import ConsoleKeys
from firmware.display import fb
c = fb.Canvas()
c.text(b"HELLO", 0, 0, 1, fb.BIG)
res = [0, 0]
def locked(tv, buf):          # (module-level assignments would allocate)
    micropython.heap_lock()
    try:
        res[0] = tv.show(buf)
        res[1] = tv.show(buf)
    finally:
        micropython.heap_unlock()
for style in ("blocks", "ascii"):
    tv = TextView(style, write=sys.stdout.buffer.write)
    tv.show(c.buf)
    c.buf[700] ^= 0xFF               # a changed frame
    locked(tv, c.buf)
    print("@@", style, res[0] > 0, res[1])
class Clock:
    t = 0
    def __call__(self):
        return self.t
k = ConsoleKeys(Clock())
k.update(0)
def keys_locked():
    micropython.heap_lock()
    try:
        k.update(10)
        res[0] = k.read()
    finally:
        micropython.heap_unlock()
keys_locked()
print("@@ keys", res[0])
"""


def test_show_and_key_polling_allocate_nothing_on_micropython(tmp_path):
    path = tmp_path / "noalloc.py"
    path.write_text(NO_ALLOC % {"repo": ROOT})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    facts = [ln for ln in r.stdout.splitlines() if ln.startswith("@@")]
    assert facts == ["@@ blocks True 0", "@@ ascii True 0", "@@ keys 0"], r.stdout[-3000:]


# -- bring-up messages and the style setting (stub app) --------------------------------

STYLE = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
from tools.sim.fakebus import FakeBus
machine.setup(bus=FakeBus.empty())
import firmware.board.board as board
board.HEADLESS_TEXT = %(style)r
from firmware.display import fb
from firmware.pico import pico

class Saving:          # what the device loop sets and reads (firmware.saves.saving.Saving)
    records = None
    saved_at = 0
    failing = None


class Stub:
    def __init__(self, ports):
        self.saving = Saving()
        self.display = ports.display
        self.n = 0
        self.c = fb.Canvas()
        self.c.text(b"HI", 0, 0, 1, fb.BIG)

    def start(self):
        pass

    def step(self):
        self.n += 1
        self.display.show(self.c.buf)       # the same frame every step
        if self.n == 3:
            raise KeyboardInterrupt
        return 5

pico.run(app_factory=Stub, root=%(root)r)
"""


@pytest.mark.parametrize("style", ["blocks", "ascii", "off"])
def test_headless_text_setting(tmp_path, style):
    path = tmp_path / "style.py"
    path.write_text(STYLE % {"fakes": FAKES, "repo": ROOT, "style": style,
                             "root": str(tmp_path / "data")})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    out = r.stdout
    assert "No display found: nothing answered on I2C0" in out
    assert "Running without a display: the game goes on." in out
    assert "Stopped by Ctrl-C" in out
    if style == "off":
        assert 'The screens are not shown ("headless_text": "off" in /board.json)' in out
        assert "keys:" not in out
        return
    assert "The screens are printed here as text and keys typed here are the buttons" in out
    # one frame printed for three shows of the same frame
    if style == "blocks":
        assert out.count(TOP) == 1 and out.count(BOTTOM) == 1
    else:
        assert out.count("+" + "-" * 128 + "+") == 2
    assert ("No display: nothing answered on I2C0 (SDA GP4 (pin 6), SCL GP5 (pin 7)). "
            "The boot messages say what to check: Ctrl-C, then Ctrl-D restarts and "
            "shows them.") in out
    if style == "ascii":
        assert max(out.encode()) < 128


# -- a hand through the serial console ----------------------------------------------------

SEED = 5

DEVICE = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
from tools.sim.fakebus import FakeBus
machine.setup(bus=FakeBus.empty())
import firmware.settings as S
S.SPEED_MS = (60, 60, 60)           # the AI's moves stay 60 ms (not 0.9 s)
from firmware.pico import pico
pico.hw_seed = lambda: %(seed)d
from firmware import entropy
pico.hw_entropy = lambda: entropy.seeded(%(seed)d)
pico.DATA_DIR = %(data)r
exec(open(%(main)r).read(), {"__name__": "__main__"})
"""

KEY_BYTES = {"L": b"\x1b[D", "R": b"\x1b[C", "U": b"\x1b[A", "D": b"\x1b[B",
             "A": b"\r", "B": b"x", "LA": b"Z", "LB": b"X"}


class Console:
    """The board's serial console: keys in, text frames out."""

    def __init__(self, cmd, cwd):
        self.p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.frames = []
        self.text = []
        self.q = queue.Queue()
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        cur = None
        for raw in iter(self.p.stdout.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self.text.append(line)
            if line == TOP:
                cur = []
            elif line == BOTTOM and cur is not None:
                self.q.put("\n".join(cur))
                cur = None
            elif cur is not None:
                cur.append(line[1:-1])
        self.q.put(None)

    def wait_frame(self, want, timeout=90):
        """Until the newest frame printed is `want`."""
        end = time.time() + timeout
        while not (self.frames and self.frames[-1] == want):
            left = end - time.time()
            try:
                f = self.q.get(timeout=max(left, 0.01))
            except queue.Empty:
                f = None
                if left <= 0:
                    break
                continue
            if f is None:
                break
            self.frames.append(f)
        if not (self.frames and self.frames[-1] == want):
            tail = "\n".join(self.text[-40:])
            err = self.p.stderr.read().decode() if self.p.poll() is not None else ""
            raise AssertionError("the console did not show the expected frame:\n%s\n"
                                 "--- last console lines:\n%s\n%s" % (want, tail, err))

    def key(self, k):
        self.p.stdin.write(KEY_BYTES[k])
        self.p.stdin.flush()

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait(timeout=30)
        self.t.join(timeout=10)


def test_a_hand_played_through_the_serial_console(tmp_path):
    import engine
    from tools.sim.simulator import MemStorage, Sim
    from tools.kit.ui_driver import CUT, CUT_KEYS, presses_for, simple_choice

    mp = micropython()
    assert mp, "MicroPython unix port not found (.venv/bin/micropython); run `make test`"
    data = tmp_path / "data"
    script = tmp_path / "device.py"
    script.write_text(DEVICE % {"fakes": FAKES, "repo": ROOT, "seed": SEED,
                                "data": str(data),
                                "main": os.path.join(ROOT, "firmware", "main.py")})
    from firmware import entropy

    # the board's entropy, made reproducible on both sides: committed deals
    # the board's title offers LINK (firmware.pico.pico)
    sim = Sim(seed=SEED, storage=MemStorage(), entropy=entropy.seeded(SEED),
              link_port=lambda: None)
    sim.settle()
    con = Console([mp, "-X", "heapsize=2M", str(script)], str(tmp_path))
    try:
        con.wait_frame(sim.text())
        assert sim.screen == "title"
        typed = 0

        def press(k):
            nonlocal typed
            con.key(k)
            sim.press(k)
            typed += 1
            con.wait_frame(sim.text())

        press("A")                                   # NEW MATCH: its commitment
        assert sim.screen == "cut"
        for k in CUT_KEYS:                           # the cut AAAA, then the deal
            press(k)
        assert sim.app.match.cut == CUT
        while sim.screen == "play":
            assert typed < 300, "the hand does not end"
            for k in presses_for(sim, simple_choice(sim.app.match.view(0))):
                press(k)
                if sim.screen != "play":
                    break
        assert sim.screen == "showdown"
        m = sim.app.match
        res = m.results[-1]
        # the showdown names the deal by the commitment shown at its start
        assert m.hands[0].deal is None
        assert sim.app.screen.commit == b"DEAL #" + m.hands[0].commit.encode()
        # the board kept the record of the hand
        rec_dir = data / "records"
        for _ in range(100):
            if rec_dir.exists() and any(n.endswith(".txt") for n in os.listdir(rec_dir)):
                break
            time.sleep(0.1)
        names = sorted(n for n in os.listdir(rec_dir) if n.endswith(".txt"))
        assert names == ["000001-%d.txt" % m.seed], names
        text = (rec_dir / names[0]).read_text()
        assert text == engine.record_text(m)
        again = engine.replay(text)
        r2 = again.results[-1]
        assert (r2.kind, r2.winner, r2.points) == (res.kind, res.winner, res.points)
        seed, nonce = m.proof(0)
        from engine.sha256 import hex_text
        full = [c for _, _, c in m.chain()][0]       # the chain's full commitment
        assert hex_text(full).startswith(m.hands[0].commit)
        assert "hand 1 commit %s seed %s nonce %s first 0" % (
            hex_text(full), hex_text(seed), hex_text(nonce)) in text
    finally:
        con.close()
    out = "\n".join(con.text)
    assert "No display found: nothing answered on I2C0 (SDA GP4 (pin 6), SCL GP5 (pin 7))." in out
    assert "The screens are printed here as text and keys typed here are the buttons" in out
    assert "Traceback" not in out
    assert len(con.frames) >= typed // 2
