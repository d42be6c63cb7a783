"""Desktop simulator: the handheld's firmware with host ports.

The very same firmware.app.App runs here. The OLED is the real SSD1306
driver (firmware/ssd1306.py) writing to a fake I2C bus whose bytes an
SSD1306 emulator (tools/ssd1306_emu.py) turns back into pixels, drawn in the
terminal with half-block characters (128 x 32 cells). The keyboard stands
in for the six buttons through the real debounce/latch logic
(firmware/buttons.py).

    python tools/simulator.py                   play in the terminal
    python tools/simulator.py --keys "R R A"    scripted presses, fake clock;
                                                prints the final screen
    options: --seed N  --level easy|normal|hard  --png DIR  --saves DIR
             --sound   the game's sounds (the device's buzzer): a terminal
                       bell and the sound's name; silent without it

Keys: arrows = LEFT/RIGHT/UP/DOWN; z, Enter or space = A; x or Backspace
= B; Z / X = a long press of A / B (hold); q quits (the key map of the
board's serial console, firmware/textview.py). Scripted key names:
L R U D A B, LEFT RIGHT UP DOWN, LA LB (long A / B; also Z X), and wN to
let N ms pass.

With a fake clock (scripted runs, tests) the same presses always give the
same screens: each key is pressed, held 50 ms, released, then time advances
until nothing is pending (AI moves, pauses). Saves go to ./saves/ (or
--saves DIR, or $GIN_SAVES) through the firmware's storage module, and the
game records of the last matches to saves/records/ (firmware/records.py;
tools/replay.py replays one).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from firmware import buttons as btn  # noqa: E402
from firmware.buttons import Buttons  # noqa: E402
from firmware.ssd1306 import SSD1306  # noqa: E402
from tools.fakebus import FakeBus  # noqa: E402
from tools import render  # noqa: E402

KEY_BITS = {
    "L": btn.LEFT, "LEFT": btn.LEFT,
    "R": btn.RIGHT, "RIGHT": btn.RIGHT,
    "U": btn.UP, "UP": btn.UP,
    "D": btn.DOWN, "DOWN": btn.DOWN,
    "A": btn.A, "B": btn.B,
}
LONG_KEYS = {"LA": btn.A, "LONG_A": btn.A, "Z": btn.A,
             "LB": btn.B, "LONG_B": btn.B, "X": btn.B}

TAP_MS = 50
SAMPLE_MS = 5
LONG_HOLD_MS = 700
SETTLE_LIMIT_MS = 5000   # a wait longer than this means: waiting for input


class MemStorage:
    """In-memory storage with the firmware Storage's methods (tests)."""

    def __init__(self, files=None):
        self.files = dict(files or {})
        self.saves = 0
        self.set_aside = {}

    def load(self, name, decode=None):
        payload = self.files.get(name)
        if payload is None:
            return None, None
        if decode is None:
            return payload, None
        try:
            return decode(payload), None
        except Exception:
            self.set_aside[name] = self.files.pop(name)
            return None, "The %s save was damaged and set aside; a new match starts." % name

    def save(self, name, payload):
        self.files[name] = bytes(payload)
        self.saves += 1
        return True

    def remove(self, name):
        self.files.pop(name, None)


def host_storage(root):
    """The firmware's Storage on a host directory (falls back to memory)."""
    try:
        from firmware.storage import Storage
    except ImportError:
        return MemStorage()
    os.makedirs(root, exist_ok=True)
    return Storage(root)


class SimSound:
    """The sound port with --sound: remembers each sound's name, and rings
    the terminal bell when `bell` (the interactive simulator)."""

    def __init__(self, bell=False):
        self.played = []
        self.bell = bell

    def play(self, name):
        self.played.append(name)
        if self.bell:
            sys.stdout.write("\a")
            sys.stdout.flush()


class FakeClock:
    def __init__(self, t=1000):
        self.t = t

    def __call__(self):
        return self.t & 0x3FFFFFFF

    def advance(self, ms):
        self.t += ms


def store_settings(storage, level=None, settings=None):
    """Save into `storage` the settings a run starts with: the AI `level`
    and {field: value} `settings` over what is saved there already."""
    if level or settings:
        from firmware.settings import Settings
        payload, _ = storage.load("settings")
        st = Settings.decode(payload)
        if level:
            st.level = level
        for k, v in (settings or {}).items():
            setattr(st, k, v)
        storage.save("settings", st.encode())


class Sim:
    """The app wired to host ports. `clock` is a FakeClock unless given."""

    def __init__(self, seed=1, level=None, storage=None, clock=None,
                 png_dir=None, player_factory=None, settings=None, sound=None):
        from firmware.app import App

        self.clock = clock or FakeClock()
        self.fake_clock = isinstance(self.clock, FakeClock)
        self.bus, self.emu = FakeBus.with_display()
        self.display = SSD1306(self.bus)
        self.mask = 0
        self.buttons = Buttons(lambda: self.mask)
        self.storage = storage if storage is not None else MemStorage()
        store_settings(self.storage, level, settings)
        self.sound = sound
        self.app = App(self.display, self.buttons, self.clock, self.storage,
                       sound=sound, seed=seed, player_factory=player_factory)
        self._first_frame(png_dir)

    def _first_frame(self, png_dir):
        """The app's first step, and its screenshot (with --png)."""
        self.png_dir = png_dir
        self.shots = 0
        self._last_shot = None
        self.wait = self.app.step()
        self.shot()

    # -- time and keys (fake clock) --
    def step(self):
        self.wait = self.app.step()
        return self.wait

    def run(self, ms, max_step=None):
        """Let `ms` pass, stepping whenever the app asks to (and at least
        every `max_step` ms: the device samples the buttons from a timer)."""
        end = self.clock.t + ms
        while True:
            w = self.step()
            if w < 1:
                w = 1
            if max_step and w > max_step:
                w = max_step
            if self.clock.t + w > end:
                self.clock.t = end
                self.step()
                return
            self.clock.advance(w)

    def settle(self):
        """Advance time until the app waits for input (or a long timer)."""
        for _ in range(10000):
            w = self.step()
            if w > SETTLE_LIMIT_MS and not self.buttons.held():
                return
            self.clock.advance(max(w, 1))
        raise RuntimeError("the app never settled")

    def hold(self, bit, ms):
        """Press `bit` for `ms`, then release it (sampled every 5 ms)."""
        self.mask = bit
        self.run(ms, SAMPLE_MS)
        self.mask = 0
        self.run(20, SAMPLE_MS)

    def press(self, key, settle=True):
        """One scripted key (see the module docstring); then settle (unless
        told not to: the AI's moves then wait for run())."""
        k = key.upper()
        if k.startswith("W") and k[1:].isdigit():
            self.run(int(k[1:]))
        elif k in LONG_KEYS:
            self.hold(LONG_KEYS[k], LONG_HOLD_MS)
        elif k in KEY_BITS:
            self.hold(KEY_BITS[k], TAP_MS)
        else:
            raise ValueError("unknown key %r (L R U D A B LA LB wN)" % key)
        if settle:
            self.settle()
        self.shot()

    def keys(self, seq):
        for k in seq.split():
            self.press(k)

    # -- what is on the panel --
    @property
    def screen(self):
        return self.app.screen_name

    def image(self):
        """What the emulated panel shows (from the driver's I2C bytes)."""
        return bytes(self.emu.image())

    def text(self):
        return render.to_text(self.image())

    def shot(self, force=False):
        if not self.png_dir:
            return None
        img = self.image()
        if img == self._last_shot and not force:
            return None
        self._last_shot = img
        os.makedirs(self.png_dir, exist_ok=True)
        path = os.path.join(self.png_dir, "%03d_%s.png" % (self.shots, self.screen))
        self.shots += 1
        render.to_png(img, path)
        return path


# -- the terminal --------------------------------------------------------

LEGEND = "arrows move   z/Enter/space: A   x/Backspace: B   Z/X: hold A/B   q: quit"


def frame_text(image, status=""):
    lines = render.to_text(image).split("\n")
    top = "\u250c" + "\u2500" * 128 + "\u2510"
    bot = "\u2514" + "\u2500" * 128 + "\u2518"
    out = [top] + ["\u2502" + ln + "\u2502" for ln in lines] + [bot, LEGEND, status]
    return "\n".join(out)


_decoder = None


def _key_names():
    from firmware import textview

    return {btn.UP: "U", btn.DOWN: "D", btn.LEFT: "L", btn.RIGHT: "R",
            btn.A: "A", btn.B: "B", btn.LONG_A: "LA", btn.LONG_B: "LB",
            textview.QUIT: "QUIT"}


def _read_keys(fd):
    """Bytes waiting on the terminal, split into key names (the board's
    console key map: firmware.textview.KeyDecoder)."""
    import select

    global _decoder
    if _decoder is None:
        from firmware.textview import KeyDecoder

        _decoder = (KeyDecoder(), _key_names())
    dec, names = _decoder
    data = b""
    while select.select([fd], [], [], 0)[0]:
        chunk = os.read(fd, 64)
        if not chunk:
            break
        data += chunk
    keys = []
    for c in data:
        k = names.get(dec.feed(c))
        if k:
            keys.append(k)
    return keys


def interactive(sim):
    import termios
    import time
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    out = sys.stdout
    out.write("\x1b[?25l\x1b[2J")
    held_until = 0
    shown = None
    try:
        tty.setraw(fd)
        while True:
            now = sim.clock()
            for k in _read_keys(fd):
                if k == "QUIT":
                    return
                if k in LONG_KEYS:
                    sim.mask = LONG_KEYS[k]
                    held_until = now + LONG_HOLD_MS
                else:
                    sim.mask = KEY_BITS[k]
                    held_until = now + 60
                sim.step()
            if sim.mask and now >= held_until:
                sim.mask = 0
            w = sim.step()
            img = sim.image()
            if img != shown:
                shown = img
                sim.shot()
                status = "screen: %-10s  I2C bytes last frame: %4d" % (
                    sim.screen, sim.app.last_bytes)
                if sim.sound is not None and sim.sound.played:
                    status += "  sound: %-8s" % sim.sound.played[-1]
                out.write("\x1b[H" + frame_text(img, status).replace("\n", "\r\n"))
                out.flush()
            time.sleep(min(max(w, 1), 15) / 1000.0)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[?25h\r\n")
        out.flush()


def keep_records(sim, saves):
    """Keep the game records in saves/records/, as the board keeps them in
    /data/records/."""
    from firmware.records import Records

    sim.app.records = Records(os.path.join(saves, "records"))


class RealClock:
    def __init__(self):
        import time

        self._t0 = time.monotonic()
        self._time = time

    def __call__(self):
        return int((self._time.monotonic() - self._t0) * 1000 + 1000) & 0x3FFFFFFF


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description="Gin Rummy handheld simulator")
    ap.add_argument("--keys", help='scripted presses, e.g. "R R A LB"')
    ap.add_argument("--seed", type=int, default=None, help="seed of new matches")
    ap.add_argument("--level", choices=("easy", "normal", "hard"))
    ap.add_argument("--png", metavar="DIR", help="write a PNG per screen change")
    ap.add_argument("--sound", action="store_true",
                    help="show the game's sounds (bell and name); silent without it")
    ap.add_argument("--saves", metavar="DIR",
                    default=os.environ.get("GIN_SAVES", "saves"),
                    help="where matches, settings and statistics are kept")
    args = ap.parse_args(argv)
    storage = host_storage(args.saves)
    if args.keys is not None:
        seed = 1 if args.seed is None else args.seed
        sim = Sim(seed=seed, level=args.level, storage=storage, png_dir=args.png,
                  sound=SimSound() if args.sound else None)
        keep_records(sim, args.saves)
        sim.settle()
        sim.keys(args.keys)
        print(sim.text())
        print("screen: %s" % sim.screen)
        if args.sound:
            print("sounds: %s" % (" ".join(sim.sound.played) or "none"))
        return 0
    if not sys.stdin.isatty():
        print("the simulator needs a terminal (or use --keys)", file=sys.stderr)
        return 2
    sim = Sim(seed=args.seed, level=args.level, storage=storage,
              clock=RealClock(), png_dir=args.png,
              sound=SimSound(bell=True) if args.sound else None)
    keep_records(sim, args.saves)
    interactive(sim)
    return 0


if __name__ == "__main__":
    sys.exit(main())
