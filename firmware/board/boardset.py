"""Hardware: what the HARDWARE page (firmware/screens/hardware.py)
changes on the board, over the Config the boot read
(firmware/board/boardcfg.py). Imported when the page is first shown, so the
running game carries none of it until then.
"""


def _let_go_loader():
    import sys

    m = sys.modules.get("firmware.board.boardcfg")
    if m is not None:
        m.let_go()


class State:
    """The settings the page shows and writes (firmware.pico.pico.kept_settings'
    tuple, as the Config's names)."""


_KEPT = ("DISPLAY_TYPE", "DISPLAY_FLIP", "BUTTONS_ACTIVE_LOW", "path", "found_by_scan",
         "I2C_ID", "I2C_SDA", "I2C_SCL", "DISPLAY_ADDR", "BUTTON_PINS", "BUZZER_PIN",
         "LINK_TX", "LINK_RX")
BUTTON_KEYS = ("btn_left", "btn_right", "btn_up", "btn_down", "btn_a", "btn_b")
BEEP_HZ = 1568   # the test beep (the game's "draw" note)


def link_txs():
    """The link cable's pin pairs on the header: a UART's TX and the RX
    next to it, both on the header (firmware/board/chip.py: the RP2040's GP0, 4,
    ... 20; the RP2350's every even one)."""
    from firmware.board import chip

    pins = chip.header_pins()
    return [t for t in pins if t + 1 in pins and chip.uart_of(t, t + 1) is not None]


def state(kept):
    st = State()
    for i in range(len(_KEPT)):
        setattr(st, _KEPT[i], kept[i])
    return st


def next_pair(now, free, step):
    """The link pair `step` (1 or -1) from `now` among link_txs()' pairs
    whose pins are both in `free` (and `now` itself)."""
    pairs = [(t, t + 1) for t in link_txs() if (t in free and t + 1 in free) or (t, t + 1) == now]
    if now not in pairs:
        pairs.insert(0, now)
    return pairs[(pairs.index(now) + step) % len(pairs)]


class Hardware:
    """What the HARDWARE page (firmware/screens/hardware.py) changes: the
    display controller ("ssd1306", "sh1106": firmware.display.ssd1306) and flip,
    applied at once through `display` (a firmware.pico.picoports.DisplayPort's
    reconfigure(controller, flip), when it has one), the buttons' polarity and their pins through `pins`
    (firmware.pico.pico.ButtonPins: set_active_low, set_pins), the buzzer's pin
    (used from the next start; the test beep sounds it now), and save() to
    the settings file: every key the page shows. Pins the boot found the
    display on (firmware.pico.pinscan.scan_pairs) are saved with them."""

    def __init__(self, cfg, path=None, display=None, pins=None, fs=None, opener=None,
                 machine=None):
        """`cfg`: a Config (firmware.board.boardcfg), or the tuple of
        firmware.pico.bringup.kept_settings. `machine`: the module that reads
        the pins for learn() and drives the test beep (MicroPython's, by
        default, where there is one)."""
        if isinstance(cfg, tuple):
            cfg = state(cfg)
        self.cfg = cfg
        self.machine = machine
        self.buzzer = None           # the test beep's (pin, PWM)
        self.boot_buzzer = getattr(cfg, "BUZZER_PIN", None)   # the game's, kept
        self.link_moved = False      # the LINK row chose other pins: the link UART opens on them (firmware.pico.pico)
        self.path = path if path is not None else getattr(cfg, "path", "/board.json")
        self.display = display
        self.pins = pins
        self.fs = fs
        self.opener = opener

    def controller(self):
        return self.cfg.DISPLAY_TYPE

    def flip(self):
        return bool(self.cfg.DISPLAY_FLIP)

    def active_low(self):
        return bool(self.cfg.BUTTONS_ACTIVE_LOW)

    def set_display(self, controller, flip):
        self.cfg.DISPLAY_TYPE = controller
        self.cfg.DISPLAY_FLIP = bool(flip)
        f = getattr(self.display, "reconfigure", None)
        if f is not None:
            f(controller, flip)

    def set_active_low(self, active_low):
        self.cfg.BUTTONS_ACTIVE_LOW = bool(active_low)
        f = getattr(self.pins, "set_active_low", None)
        if f is not None:
            f(active_low)

    def button_pins(self):
        """The six buttons' GPIOs (LEFT RIGHT UP DOWN A B)."""
        return tuple(self.cfg.BUTTON_PINS)

    def set_button_pins(self, numbers):
        """Learned pins, used at once (ButtonPins.set_pins)."""
        self.cfg.BUTTON_PINS = tuple(numbers)
        f = getattr(self.pins, "set_pins", None)
        if f is not None:
            f(self.cfg.BUTTON_PINS)

    def buzzer_pin(self):
        return self.cfg.BUZZER_PIN

    def free_pins(self, buttons=False):
        """The header's GPIOs that neither the display nor (unless
        `buttons`) a button uses, nor the buzzer when `buttons`: where a
        button can be learned (buttons=True: the six buttons' own pins
        count as free) or the buzzer put."""
        from firmware.board.chip import header_pins

        c = self.cfg
        busy = [c.I2C_SDA, c.I2C_SCL]
        if not buttons:
            busy += list(c.BUTTON_PINS)
        elif c.BUZZER_PIN is not None:
            busy.append(c.BUZZER_PIN)
        return [n for n in header_pins() if n not in busy]

    def next_buzzer(self, step):
        """The buzzer row's next choice: None (off), then each free pin."""
        choices = [None] + self.free_pins()
        c = self.cfg
        i = choices.index(c.BUZZER_PIN) if c.BUZZER_PIN in choices else 0
        self.beep(0)
        c.BUZZER_PIN = choices[(i + step) % len(choices)]

    def link_pins(self):
        """(tx, rx) of the link cable."""
        c = self.cfg
        return (c.LINK_TX, c.LINK_RX)

    def next_link(self, step):
        """The LINK row's next choice: a UART pair both of whose pins are
        free (neither the display, a button nor the buzzer); the pair in
        use stays a choice. Used from the next link match."""
        c = self.cfg
        free = self.free_pins(buttons=False)
        if c.BUZZER_PIN is not None:
            free = [n for n in free if n != c.BUZZER_PIN]
        c.LINK_TX, c.LINK_RX = next_pair(self.link_pins(), free, step)
        self.link_moved = True

    def _machine(self):
        m = self.machine
        if m is None:
            try:
                import machine as m
            except ImportError:
                return None
            self.machine = m
        return m

    def beep(self, on):
        """The test beep on the buzzer row's pin, on or off (PWM, as
        firmware.pico.picoports.Buzzer drives the game's). None, or why not
        (a few words)."""
        pin = self.cfg.BUZZER_PIN
        bz = self.buzzer             # (pin, PWM) while one is set up
        if bz is not None and (not on or bz[0] != pin):
            try:
                bz[1].duty_u16(0)
                if bz[0] != self.boot_buzzer:
                    bz[1].deinit()   # the game's own pin is left to the game
            except Exception:
                pass
            self.buzzer = bz = None
        if not on:
            return None
        if pin is None:
            return "no buzzer pin"
        m = self._machine()
        if m is None:
            return "not on this port"
        try:
            if bz is None:
                bz = self.buzzer = (pin, m.PWM(m.Pin(pin)))
            bz[1].freq(BEEP_HZ)
            bz[1].duty_u16(0x8000)
        except Exception as e:
            return "pin refused (%s)" % (e,)
        return None

    def watch(self):
        """[(gpio, Pin)] of the free pins, each with the pull of the
        buttons' polarity (pressed reads `pressed_level()`), for learn;
        None where no pin can be read."""
        m = self._machine()
        if m is None:
            return None
        P = m.Pin
        pull = P.PULL_UP if self.active_low() else P.PULL_DOWN
        out = []
        for n in self.free_pins(buttons=True):
            try:
                out.append((n, P(n, P.IN, pull)))
            except Exception:
                pass
        return out

    def pressed_level(self):
        return 0 if self.active_low() else 1

    def changes(self):
        """The keys the page writes, with the values in use now."""
        c = self.cfg
        d = {"display": c.DISPLAY_TYPE, "flip": bool(c.DISPLAY_FLIP),
             "buttons_active_low": bool(c.BUTTONS_ACTIVE_LOW), "buzzer": c.BUZZER_PIN,
             "link_tx": c.LINK_TX, "link_rx": c.LINK_RX}
        for i in range(6):
            d[BUTTON_KEYS[i]] = c.BUTTON_PINS[i]
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
        loader (firmware/board/boardcfg.py) is imported for the write and let go
        again."""
        try:
            from firmware.board import boardcfg

            kw = {} if self.opener is None else {"opener": self.opener}
            why = boardcfg.save(self.changes(), self.path, self.fs, **kw)
        except MemoryError:
            why = "not enough memory"
        _let_go_loader()
        return why
