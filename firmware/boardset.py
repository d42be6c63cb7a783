"""Hardware: what the HARDWARE page (firmware/screens/hardware.py)
changes on the board, over the Config the boot read
(firmware/boardcfg.py). Imported when the page is first shown, so the
running game carries none of it until then.
"""


def _let_go_loader():
    import sys

    m = sys.modules.get("firmware.boardcfg")
    if m is not None:
        m.let_go()


class State:
    """The settings the page shows and writes (firmware.pico.kept_settings'
    tuple, as the Config's names)."""


_KEPT = ("DISPLAY_TYPE", "DISPLAY_FLIP", "BUTTONS_ACTIVE_LOW", "path", "found_by_scan",
         "I2C_ID", "I2C_SDA", "I2C_SCL", "DISPLAY_ADDR")


def state(kept):
    st = State()
    for i in range(len(_KEPT)):
        setattr(st, _KEPT[i], kept[i])
    return st


class Hardware:
    """What the HARDWARE page (firmware/screens/hardware.py) changes: the
    display type and flip, applied at once through `display` (a
    firmware.pico.DisplayPort's reconfigure(sh1106, flip), when it has
    one), the buttons' polarity through `pins` (ButtonPins.set_active_low),
    and save() to the settings file. Pins the boot found the display on
    (firmware.pico.scan_pairs) are saved with them."""

    def __init__(self, cfg, path=None, display=None, pins=None, fs=None, opener=None):
        """`cfg`: a Config (firmware.boardcfg), or the tuple of
        firmware.pico.kept_settings."""
        if isinstance(cfg, tuple):
            cfg = state(cfg)
        self.cfg = cfg
        self.path = path if path is not None else getattr(cfg, "path", "/board.json")
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
        _let_go_loader()
        return why
