"""The board's settings as the running game keeps them: Config (what the
ports take as `cfg`), Hardware (what the HARDWARE page changes) and
load_config(), which reads /board.json through firmware/boardcfg.py.

Small on purpose: the loader and its checks (firmware/boardcfg.py) are
needed once at boot, so load_config() lets that module go again on
MicroPython (imported from the .mpy bundle it took 13 KB of the unix
port's heap, about half that on the Pico); what stays is this module and
one Config. The HARDWARE page's SAVE imports the loader again for the
write.
"""

from firmware import board

PATH = "/board.json"
# firmware/board.py's names a Config holds (firmware.boardcfg.KEYS sets them)
NAMES = ("DISPLAY_TYPE", "DISPLAY_ADDR", "DISPLAY_FLIP", "I2C_ID", "I2C_SDA", "I2C_SCL",
         "I2C_FREQ", "BTN_LEFT", "BTN_RIGHT", "BTN_UP", "BTN_DOWN", "BTN_A", "BTN_B",
         "BUTTONS_ACTIVE_LOW", "BUZZER_PIN", "HEADLESS_TEXT")


class Config:
    """firmware/board.py's names (I2C_ID ... HEADLESS_TEXT, BUTTON_PINS):
    the defaults, then the file's values (firmware.boardcfg.apply).
    `source`: the file's path when it was read, else None; `path`: where
    the file is (the HARDWARE page writes it there); `from_file`: the keys
    the file set (valid ones); `found_by_scan`: the boot found the display
    on other pins (firmware.pico.scan_pairs)."""

    def __init__(self, path=PATH):
        for a in NAMES:
            setattr(self, a, getattr(board, a))
        self.DISPLAY_WIDTH = board.DISPLAY_WIDTH
        self.DISPLAY_HEIGHT = board.DISPLAY_HEIGHT
        self.path = path
        self.source = None
        self.from_file = []
        self.found_by_scan = False
        self.buttons()

    def buttons(self):
        """BUTTON_PINS again from the six BTN_ names (firmware.buttons' bit order)."""
        self.BUTTON_PINS = (self.BTN_LEFT, self.BTN_RIGHT, self.BTN_UP, self.BTN_DOWN,
                            self.BTN_A, self.BTN_B)


def _let_go(name):
    """Forget module `name` on MicroPython (its code and functions are made
    on the heap); on CPython nothing is let go (tests hold the module)."""
    import gc
    import sys

    if not hasattr(gc, "mem_free"):
        return
    if sys.modules.pop(name, None) is not None:
        pkg, _, leaf = name.rpartition(".")
        p = sys.modules.get(pkg)
        if p is not None and hasattr(p, leaf):
            delattr(p, leaf)
    gc.collect()


def load_config(path=None, out=print):
    """firmware.boardcfg.load(path, out), then the loader is let go. Never
    raises: without the loader, board.py's defaults."""
    try:
        from firmware import boardcfg

        cfg = boardcfg.load(path, out)
    except Exception as e:
        out("The board settings could not be read (%s): using firmware/board.py's." % (e,))
        cfg = None
    _let_go("firmware.boardcfg")
    if cfg is None:
        cfg = Config(path or PATH)
    return cfg


class Hardware:
    """What the HARDWARE page (firmware/screens/hardware.py) changes: the
    display type and flip, applied at once through `display` (a
    firmware.pico.DisplayPort's reconfigure(sh1106, flip), when it has
    one), the buttons' polarity through `pins` (ButtonPins.set_active_low),
    and save() to the settings file. Pins the boot found the display on
    (firmware.pico.scan_pairs) are saved with them."""

    def __init__(self, cfg, path=None, display=None, pins=None, fs=None, opener=None):
        self.cfg = cfg
        self.path = path if path is not None else getattr(cfg, "path", PATH)
        self.display = display
        self.pins = pins
        self.fs = fs
        self.opener = opener

    def sh1106(self):
        return self.cfg.DISPLAY_TYPE == "sh1106"

    def flip(self):
        return bool(self.cfg.DISPLAY_FLIP)

    def active_low(self):
        return bool(self.cfg.BUTTONS_ACTIVE_LOW)

    def set_display(self, sh1106, flip):
        self.cfg.DISPLAY_TYPE = "sh1106" if sh1106 else "ssd1306"
        self.cfg.DISPLAY_FLIP = bool(flip)
        f = getattr(self.display, "reconfigure", None)
        if f is not None:
            f(sh1106, flip)

    def set_active_low(self, active_low):
        self.cfg.BUTTONS_ACTIVE_LOW = bool(active_low)
        f = getattr(self.pins, "set_active_low", None)
        if f is not None:
            f(active_low)

    def changes(self):
        """The keys the page writes, with the values in use now."""
        c = self.cfg
        d = {"display": c.DISPLAY_TYPE, "flip": bool(c.DISPLAY_FLIP),
             "buttons_active_low": bool(c.BUTTONS_ACTIVE_LOW)}
        if getattr(c, "found_by_scan", False):
            d["i2c_id"] = c.I2C_ID
            d["i2c_sda"] = c.I2C_SDA
            d["i2c_scl"] = c.I2C_SCL
        addr = getattr(self.display, "addr", None)
        if addr is not None and addr != c.DISPLAY_ADDR:
            d["display_addr"] = addr
        return d

    def save(self):
        """None once written, else what went wrong (a few words). The
        loader (firmware/boardcfg.py) is imported for the write and let go
        again."""
        try:
            from firmware import boardcfg

            kw = {} if self.opener is None else {"opener": self.opener}
            why = boardcfg.save(self.changes(), self.path, self.fs, **kw)
        except MemoryError:
            why = "not enough memory"
        _let_go("firmware.boardcfg")
        return why
