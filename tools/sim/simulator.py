"""Desktop simulator: the handheld's firmware with host ports.

The very same firmware.app.App runs here. The OLED is the real SSD1306
driver (firmware/ssd1306.py) writing to a fake I2C bus whose bytes an
SSD1306 emulator (tools/sim/ssd1306_emu.py) turns back into pixels, drawn in the
terminal as large as it fits (tools/sim/terminal.py: 128 x 32 half blocks in a
130 x 35 terminal, 64 x 32 quadrants in 66 x 36; smaller, down to 50 x 16,
the panel read back as words and cards such as 9♥ T♠). The
keyboard stands in for the six buttons through the real debounce/latch
logic (firmware/buttons.py).

    python tools/sim/simulator.py                   play in the terminal
    python tools/sim/simulator.py --keys "R R A"    scripted presses, fake clock;
                                                prints the final screen
    options: --seed N  --level easy|normal|hard  --png DIR  --saves DIR
             --sound   the game's sounds (the device's buzzer): a terminal
                       bell and the sound's name; silent without it

Keys: arrows = LEFT/RIGHT/UP/DOWN; z, Enter or space = A; x or Backspace
= B; Z / X = a long press of A / B (hold); q quits (the key map of the
board's serial console, firmware/textview.py). Scripted key names:
L R U D A B, LEFT RIGHT UP DOWN, LA LB (long A / B; also Z X), and wN to
let N ms pass.

Deals: play in the terminal deals committed hands as the handheld does
(docs/FAIRNESS.md): each match's deal secret and AI seed come from the
computer's entropy, or with --seed N from N (the same N plays the same
deals again, and anyone who knows N knows them). Scripted runs (--keys)
deal by deal numbers from the seed, as the tests' pictures expect.

With a fake clock (scripted runs, tests) the same presses always give the
same screens: each key is pressed, held 50 ms, released, then time advances
until nothing is pending (AI moves, pauses). --png DIR writes a picture of
every frame the panel shows, the AI's moves included.

Saves: `make play` keeps the match, settings and statistics in ./saves/
(or --saves DIR, or $GIN_SAVES) through the firmware's storage module, and
the game records of the last matches in saves/records/ (firmware/records.py;
tools/records/replay.py replays one). Scripted runs (--keys) start from nothing and
keep nothing, unless --saves DIR is given.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from firmware import buttons as btn  # noqa: E402
from firmware.buttons import Buttons  # noqa: E402
from firmware.ssd1306 import SSD1306  # noqa: E402
from tools.sim.fakebus import FakeBus  # noqa: E402
from tools.sim import render  # noqa: E402

KEY_BITS = {
    "L": btn.LEFT, "LEFT": btn.LEFT,
    "R": btn.RIGHT, "RIGHT": btn.RIGHT,
    "U": btn.UP, "UP": btn.UP,
    "D": btn.DOWN, "DOWN": btn.DOWN,
    "A": btn.A, "B": btn.B,
}
LONG_KEYS = {"LA": btn.A, "LONG_A": btn.A, "Z": btn.A,
             "LB": btn.B, "LONG_B": btn.B, "X": btn.B}

KEY_HELP = "L R U D A B (or LEFT RIGHT UP DOWN), LA LB (or Z X) for a long A / B, wN to wait N ms"


def bad_key(key):
    """Why `key` is not a scripted key name, or None."""
    k = key.upper()
    if k in KEY_BITS or k in LONG_KEYS or (k.startswith("W") and k[1:].isdigit()):
        return None
    return "unknown key %r in --keys: use %s" % (key, KEY_HELP)


TAP_MS = 50
SAMPLE_MS = 5
LONG_HOLD_MS = 700
SETTLE_LIMIT_MS = 5000   # a wait longer than this means: waiting for input


class MemStorage:
    """In-memory storage with the firmware Storage's methods (tests): a
    payload the decoder refuses is set aside (outcome "damaged"); one it
    has no memory for is kept (outcome "kept", and save() refuses it)."""

    def __init__(self, files=None):
        self.files = dict(files or {})
        self.saves = 0
        self.set_aside = {}
        self.outcome = {}
        self.kept = []
        self.damage = []

    def load(self, name, decode=None):
        self.outcome.pop(name, None)
        payload = self.files.get(name)
        if payload is None:
            return None, None
        if decode is None:
            return payload, None
        try:
            return decode(payload), None
        except MemoryError:
            self.outcome[name] = "kept"
            self.kept.append(name)
            return None, "The %s save could not be read now; it is kept." % name
        except Exception as e:
            self.damage.append("%s: %s" % (name, e))
            self.set_aside[name] = self.files.pop(name)
            self.outcome[name] = "damaged"
            return None, "The %s save was damaged and set aside." % name

    def save(self, name, payload):
        if name in self.kept:
            raise OSError(1, "the %s save is kept" % name)
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
                 png_dir=None, player_factory=None, settings=None, sound=None,
                 review_factory=None, entropy=None):
        from firmware.app import App

        self.clock = clock or FakeClock()
        self.fake_clock = isinstance(self.clock, FakeClock)
        self.bus, self.emu = FakeBus.with_display()
        self.display = SSD1306(self.bus)
        self.mask = 0
        self.extra = None             # () -> more buttons held (the terminal's keys)
        self.buttons = Buttons(self._read)
        self.storage = storage if storage is not None else MemStorage()
        store_settings(self.storage, level, settings)
        self.sound = sound
        self.app = App(self.display, self.buttons, self.clock, self.storage,
                       sound=sound, seed=seed, player_factory=player_factory,
                       review_factory=review_factory, entropy=entropy)
        self._first_frame(png_dir)

    def _first_frame(self, png_dir):
        """The app's first step, and its screenshot (with --png)."""
        self.png_dir = png_dir
        self.shots = 0
        self._last_shot = None
        self.wait = self.app.step()
        self.shot()

    def _read(self):
        return self.mask | (self.extra() if self.extra is not None else 0)

    # -- time and keys (fake clock) --
    def step(self):
        """One app step; with --png, a picture of each new frame."""
        frames = self.app.frames
        self.wait = self.app.step()
        if self.png_dir and self.app.frames != frames:
            self.shot()
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
            raise ValueError(bad_key(key))
        if settle:
            self.settle()
        self.shot()

    def keys(self, seq):
        """Press each key of the space-separated `seq`; a key that is not
        one of KEY_HELP raises ValueError before any is pressed."""
        for k in seq.split():
            if bad_key(k):
                raise ValueError(bad_key(k))
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


def keep_records(sim, saves):
    """Keep the game records in saves/records/, as the board keeps them in
    /data/records/."""
    from firmware.records import Records

    sim.app.saving.records = Records(os.path.join(saves, "records"))


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
    ap.add_argument("--keys", help='scripted presses, e.g. "R R A LB": ' + KEY_HELP)
    ap.add_argument("--seed", type=int, default=None, help="seed of new matches")
    ap.add_argument("--level", choices=("easy", "normal", "hard"))
    ap.add_argument("--png", metavar="DIR", help="write a PNG of every frame shown")
    ap.add_argument("--sound", action="store_true",
                    help="show the game's sounds (bell and name); silent without it")
    ap.add_argument("--saves", metavar="DIR",
                    help="where matches, settings and statistics are kept (default "
                         "./saves, or $GIN_SAVES; scripted runs keep nothing without it)")
    args = ap.parse_args(argv)
    if args.keys is not None:
        for k in args.keys.split():
            if bad_key(k):
                ap.error(bad_key(k))
        # A scripted run touches no save unless told where (the same keys
        # then always give the same screens).
        storage = MemStorage() if args.saves is None else host_storage(args.saves)
        seed = 1 if args.seed is None else args.seed
        sim = Sim(seed=seed, level=args.level, storage=storage, png_dir=args.png,
                  sound=SimSound() if args.sound else None)
        if args.saves is not None:
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
    from tools.sim import terminal

    saves = args.saves or os.environ.get("GIN_SAVES") or "saves"
    # Play deals committed hands (engine/deal.py): their secret from the
    # computer's entropy, or with --seed from the seed, to play a game again.
    from firmware import entropy

    sim = Sim(seed=args.seed, level=args.level, storage=host_storage(saves),
              clock=RealClock(), png_dir=args.png,
              entropy=entropy.board() if args.seed is None else entropy.seeded(args.seed),
              sound=SimSound(bell=True) if args.sound else None)
    keep_records(sim, saves)
    terminal.run(sim)
    return 0


if __name__ == "__main__":
    sys.exit(main())
