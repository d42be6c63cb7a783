"""CircuitPython run loop for the handheld (CircuitPython 9+).

The same firmware.app.App as on MicroPython, with the CircuitPython ports,
one module each (as firmware/ has one per job):

- cpdisplay: the Adafruit displayio driver, narrowed page refreshes;
- cpkeys: keypad.Keys events into firmware.buttons;
- cpclock: supervisor.ticks_ms() extended to wrap at 2**30;
- cpnvm: the saves, an append-only log in microcontroller.nvm's one flash
  sector, with a backup file on the CIRCUITPY drive across its rare
  rewrite (boot.py makes the drive writable for the game);
- cphw: board pins and a hardware seed.

The board's settings are firmware/board/board.py's defaults and the settings
file /board.json (firmware/board/boardcfg.py, as on MicroPython): the display
and the button pins and polarity come from them. The HARDWARE page and
the pin scan are the MicroPython port's only.

code.py (the drive's entry point) calls run(). Hardware modules are
imported where used, so everything here can be tested on any Python.
"""

from firmware.port_common import play

from cpclock import Clock
from cpdisplay import open_display  # noqa: F401 (code.py's safe boot)
from cphw import hw_seed
from cpkeys import KeypadButtons, make_keys, wait
from cpnvm import BACKUP_PATH, FileBackup, NvmStorage

MAX_STEPS = None  # tests: stop run() after this many steps


def drive_writable():
    """True when boot.py let the game write the CIRCUITPY drive."""
    try:
        import storage

        return not storage.getmount("/").readonly
    except Exception:  # not CircuitPython, or no such attribute: assume not
        return False


def board_config(out=print):
    """firmware.board.boardcfg.load_config(): board.py's defaults and /board.json."""
    try:
        from firmware.board.boardcfg import load_config

        return load_config(out=out)
    except Exception as e:
        out("The board settings could not be read (%s): using firmware/board/board.py's." % (e,))
        from firmware.board import board

        return board


def new_app(app_factory, display, buttons, clock, storage, seed, out):
    """run()'s App (firmware.app.App unless `app_factory`), made with all
    its ports and started (the title)."""
    import gc

    from firmware.compat import unload
    from firmware.ports import Ports

    entropy = None
    if app_factory is None:
        from firmware.app import App as app_factory

        # the deal secret and the AI's seed of every new match: os.urandom
        # (CircuitPython's, from the RP2040's ring oscillator), else the
        # random module, which CircuitPython seeds from the hardware.
        # The deals' SHA-256 (engine/sha256.py) is CircuitPython's
        # hashlib where the build has one, else the engine's own code:
        # nothing to install on the drive.
        from firmware.entropy import board

        entropy = board()
    app = app_factory(Ports(display, buttons, clock, storage,
                            seed=hw_seed() if seed is None else seed, entropy=entropy))
    Ports = None                    # the App keeps the ports: their record goes
    unload("firmware.ports")
    app.start()
    for why in storage.damage:
        out("Save set aside: " + why)
    gc.collect()
    try:
        free = gc.mem_free()
    except AttributeError:  # CPython (tests)
        free = -1
    out("Game running (free memory %d bytes). Ctrl-C stops it." % free)
    return app


def step(app):
    return app.step()


class Pause:
    """Sleep until a press (cpkeys.wait), between two steps."""

    def __init__(self, buttons, clock, sleep):
        self.buttons = buttons
        self.clock = clock
        self.sleep = sleep

    def pause(self, ms):
        wait(self.buttons, self.clock, ms, self.sleep)


def run(app_factory=None, out=print, seed=None, i2c=None, keys=None, clock=None,
        nvm=None, max_steps=None, sleep=None, backup=None, cfg=None):
    """Bring up the ports and play until Ctrl-C or an error. Returns the App
    (None if it could not be built). `cfg`: the board's settings
    (board_config() when not given)."""

    if max_steps is None:
        max_steps = MAX_STEPS
    try:
        from engine.version import VERSION

        out("Gin Rummy %s" % VERSION)
    except Exception:
        pass
    if cfg is None:
        cfg = board_config(out)
    display, _ = open_display(i2c, cfg=cfg, out=out)
    if clock is None:
        clock = Clock()
    if keys is None:
        keys = make_keys(cfg)
    buttons = KeypadButtons(keys, clock)
    if nvm is None:
        import microcontroller

        nvm = microcontroller.nvm
    if backup is None and drive_writable():
        backup = FileBackup(BACKUP_PATH)
    if backup is None:
        out("The CIRCUITPY drive is read-only for the game (B held at power-on, or no "
            "boot.py): the saves have no backup file while the nvm is rewritten.")
    storage = NvmStorage(nvm, backup)
    try:
        app = play(new_app, (app_factory, display, buttons, clock, storage, seed, out),
                   step, Pause(buttons, clock, sleep).pause, display, out, max_steps,
                   again="press Ctrl-D")
    finally:
        try:
            keys.deinit()
        except Exception:
            pass
    return app
