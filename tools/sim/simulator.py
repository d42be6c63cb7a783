"""Desktop simulator: the handheld's firmware with host ports.

The very same firmware.app.App runs here. The OLED is the real SSD1306
driver (firmware/display/ssd1306.py) writing to a fake I2C bus whose bytes an
SSD1306 emulator (tools/sim/ssd1306_emu.py) turns back into pixels, drawn in the
terminal as large as it fits (tools/sim/terminal.py: 128 x 32 half blocks in a
130 x 35 terminal, 64 x 32 quadrants in 66 x 36; smaller, down to 50 x 16,
the panel read back as words and cards such as 9♥ T♠). The
keyboard stands in for the six buttons through the real debounce/latch
logic (firmware/buttons.py).

    python -m tools.sim.simulator                   play in the terminal
    python -m tools.sim.simulator --keys "R R A"    scripted presses, fake clock;
                                                prints the final screen
    options: --seed N  --level easy|normal|hard  --png DIR  --saves DIR
             --sound   the game's sounds (the device's buzzer): a terminal
                       bell and the sound's name; silent without it
             --link PORT  LINK on the title plays the simulator started with
                       the same PORT (a local socket); without it, LINK
                       says how to start two

Keys: arrows = LEFT/RIGHT/UP/DOWN; z, Enter or space = A; x or Backspace
= B; Z / X = a long press of A / B (hold); q quits (the key map of the
board's serial console, firmware/display/textview.py). Scripted key names:
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
the game records of the last matches in saves/records/ (firmware/saves/records.py;
tools/records/replay.py replays one). Scripted runs (--keys) start from nothing and
keep nothing, unless --saves DIR is given.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from firmware.buttons import Buttons  # noqa: E402
from firmware.keyscript import (FakeClock, KEY_BITS, KEY_HELP, KeyScript, LONG_HOLD_MS,  # noqa: E402,F401
                                LONG_KEYS, SAMPLE_MS, SETTLE_LIMIT_MS, TAP_MS, bad_key)
from firmware.display.ssd1306 import SSD1306  # noqa: E402
from tools.kit.memstorage import MemStorage  # noqa: E402
from tools.sim.fakebus import FakeBus  # noqa: E402
from tools.sim import render  # noqa: E402


def host_storage(root):
    """The firmware's Storage on a host directory (falls back to memory)."""
    try:
        from firmware.saves.storage import Storage
    except ImportError:
        return MemStorage()
    os.makedirs(root, exist_ok=True)
    st = Storage(root)
    st.restart = "quit (q) and start the simulator again"    # the messages' way to start again
    return st


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


class Sim(KeyScript):
    """The app wired to host ports, started (its first frame drawn).
    `clock` is a FakeClock unless given; `records` a firmware.saves.records
    .Records (keep_records()), `link_port` the link cable's (link_to());
    the scripted presses (run, settle, hold, press) are
    firmware/keyscript.py's."""

    def __init__(self, seed=1, level=None, storage=None, clock=None,
                 png_dir=None, player_factory=None, settings=None, sound=None,
                 review_factory=None, entropy=None, records=None, link_port=None):
        from firmware.app import App
        from firmware.ports import Ports

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
        self.app = App(Ports(self.display, self.buttons, self.clock, self.storage,
                             sound=sound, seed=seed, player_factory=player_factory,
                             review_factory=review_factory, entropy=entropy,
                             records=records, link_port=link_port))
        self.app.start()
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

    def tick(self):
        return self.step()

    def press(self, key, settle=True):
        """One scripted key (see the module docstring); then settle (unless
        told not to: the AI's moves then wait for run())."""
        self.key(key)
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


def keep_records(saves):
    """The game records kept in saves/records/, as the board keeps them in
    /data/records/ (Sim's `records`)."""
    from firmware.saves.records import Records

    return Records(os.path.join(saves, "records"))


class RealClock:
    def __init__(self):
        import time

        self._t0 = time.monotonic()
        self._time = time

    def __call__(self):
        return int((self._time.monotonic() - self._t0) * 1000 + 1000) & 0x3FFFFFFF


NO_LINK = ("no --link here. In two terminals: GIN_LINK=47474 GIN_SAVES=saves-a make "
           "play, then saves-b in the other. Then LINK on both.")


def no_link():
    """LINK in a simulator started without --link: says how to link two."""
    raise OSError(NO_LINK)


def link_to(number):
    """The link cable of the simulator (Sim's `link_port`; LINK shows on the
    title either way): a local socket, 127.0.0.1:number
    (tools/link/sockport.py; the first simulator listens, the other
    connects), or with no number no_link, whose words say how to start two
    that link."""
    if not number:
        return no_link
    from tools.link.sockport import LocalPort

    port = LocalPort(number)
    return lambda: port


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
    ap.add_argument("--link", metavar="PORT", type=int,
                    default=int(os.environ.get("GIN_LINK") or 0) or None,
                    help="LINK on the title plays the simulator started with the same PORT "
                         "on this computer (127.0.0.1; or $GIN_LINK); give each its own --saves")
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
                  sound=SimSound() if args.sound else None,
                  records=None if args.saves is None else keep_records(args.saves))
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

    # a development version names its commit (SETTINGS > VERSION); scripted
    # runs above stay the same whatever the checkout
    from engine import version
    from tools.deploy import buildinfo
    version.COMMIT = buildinfo.dev_commit()
    saves = args.saves or os.environ.get("GIN_SAVES") or "saves"
    # Play deals committed hands (engine/deal.py): their secret from the
    # computer's entropy, or with --seed from the seed, to play a game again.
    from firmware import entropy

    sim = Sim(seed=args.seed, level=args.level, storage=host_storage(saves),
              clock=RealClock(), png_dir=args.png,
              entropy=entropy.board() if args.seed is None else entropy.seeded(args.seed),
              sound=SimSound(bell=True) if args.sound else None,
              records=keep_records(saves),
              link_port=link_to(args.link))   # LINK on the title: the socket, or how to link two
    terminal.run(sim)
    return 0


if __name__ == "__main__":
    sys.exit(main())
