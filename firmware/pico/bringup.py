"""The Pico's bring-up: what firmware.pico.pico.run() needs once, before play,
and never again. run() imports this module, brings the ports up with it
(start()) and lets it go (firmware.pico.pico.let_go_bringup(): out of
sys.modules, no reference kept, collected), so on the .mpy bundle its code
is not on the heap through a match: the display's bring-up and the wiring
messages, the buzzer's checks, the console keys and the text view's setup,
the settings the HARDWARE page keeps, the preload of the match's screens.

- open_display(): scans I2C, accepts the OLED at 0x3C or 0x3D
  (DISPLAY_ADDR first), drives it with DISPLAY_TYPE's driver class
  (firmware.display.ssd1306.driver: SSD1306 or SH1106), tries
  the usual pin pairs (firmware/pico/pinscan.py) when the configured
  ones find nothing, and otherwise prints in plain words what it found and
  what to check, then returns a firmware.pico.picoports.HeadlessDisplay.
- make_sound(): a firmware.sound.Sound on BUZZER_PIN through
  firmware.pico.picoports.Buzzer, or none.
- console_keys(), text_view(): the console's keys, the headless text view.
- preload(): the AI and the screens every match passes through.
- kept_settings(): the HARDWARE page's part of the settings.

Used again later only by the safe boot (firmware/main.py) and the bench's
scripts, through firmware.pico.pico's wrappers of the same names.
"""

import machine

from firmware.board import board
from firmware.board.chip import gp
from firmware.pico.picoports import SETTINGS_FILE, Buzzer, DisplayPort, HeadlessDisplay, clock_ms
from firmware.port_common import display_address


def _hex_list(addrs):
    return ", ".join("0x%02X" % a for a in addrs)


def _where(cfg):
    return "I2C%d (SDA %s, SCL %s)" % (cfg.I2C_ID, gp(cfg.I2C_SDA), gp(cfg.I2C_SCL))


def _check_wiring(cfg):
    return ("Check: display VCC to 3V3 (pin 36) and GND to GND (pin 38); "
            "SDA to %s and SCL to %s, not swapped; the header soldered; "
            "the module's address jumper (0x3C or 0x3D)." % (gp(cfg.I2C_SDA), gp(cfg.I2C_SCL)))

_HEADLESS = "Running without a display: the game goes on."

def make_bus(cfg=board):
    """The I2C bus to the display, from the board's pin map."""
    P = machine.Pin
    return machine.I2C(cfg.I2C_ID, sda=P(cfg.I2C_SDA), scl=P(cfg.I2C_SCL), freq=cfg.I2C_FREQ)

def open_display(bus=None, cfg=board, out=print, scan=None):
    """(display, bus): a DisplayPort for the OLED, or a HeadlessDisplay
    after printing what was found and what to check. Never raises.
    `scan`: try the other usual I2C pin pairs when the configured ones
    find no display (by default when `bus` is not given)."""
    if scan is None:
        scan = bus is None
    from firmware.display.ssd1306 import driver

    where = _where(cfg)
    try:
        cls = driver(cfg.DISPLAY_TYPE)
    except ValueError:           # not a name boardcfg lets through: the default's
        cls = driver(board.DISPLAY_TYPE)
    kind = cls.controller.upper()
    why = None
    try:
        if bus is None:
            bus = make_bus(cfg)
        found = bus.scan()
    except Exception as e:  # OSError, or ValueError for pins the port refuses
        out("No display: the I2C bus %s could not be used (%s)." % (where, e))
        out("Check i2c_id, i2c_sda and i2c_scl in %s: SDA and SCL must be pins of that "
            "I2C block." % SETTINGS_FILE)
        why = "the I2C bus %s could not be used" % where
        found = None
        bus = None
    addr = -1 if found is None else display_address(found, cfg)
    if addr < 0:
        if found is not None and not found:
            why = "nothing answered on %s" % where
            out("No display found: %s." % why)
        elif found is not None:
            why = "nothing at 0x3C or 0x3D on %s" % where
            out("No display found at 0x3C or 0x3D on %s; other devices answered: %s."
                % (where, _hex_list(found)))
            out("The OLED must be an I2C SSD1306 or SH1106 module (address 0x3C or 0x3D).")
        other = None
        if scan:
            # imported only here: a display on its configured pins never loads it
            from firmware.pico.pinscan import scan_pairs
            other = scan_pairs(cfg, _where, out)
        if other is None:
            if found is not None:
                out(_check_wiring(cfg))
            out(_HEADLESS)
            return HeadlessDisplay(why), bus
        bus, addr, found = other
        where = _where(cfg)
    if len(found) > 8:
        out("Warning: %d addresses answer on %s; SDA or SCL may be shorted, "
            "or the wires swapped." % (len(found), where))
    if addr != cfg.DISPLAY_ADDR:
        out("Display found at 0x%02X (the settings say 0x%02X): using 0x%02X."
            % (addr, cfg.DISPLAY_ADDR, addr))
    try:
        drv = cls(bus, addr, width=cfg.DISPLAY_WIDTH, height=cfg.DISPLAY_HEIGHT,
                  flip=cfg.DISPLAY_FLIP)
    except OSError as e:
        out("The display at 0x%02X on %s did not accept commands (%s)." % (addr, where, e))
        out(_check_wiring(cfg))
        out(_HEADLESS)
        return HeadlessDisplay("the display at 0x%02X did not accept commands" % addr), bus
    out("Display: %s at 0x%02X on %s." % (kind, addr, where))
    if cls.controller == "ssd1306":
        out("If the picture is shifted or has a noisy stripe at one edge, the module is "
            "an SH1106: choose SH1106 on the HARDWARE page (SETTINGS > HARDWARE), or set "
            "\"display\": \"sh1106\" in %s." % SETTINGS_FILE)
    return DisplayPort(drv, out), bus

def make_sound(cfg=board, out=print):
    """(sound, buzzer): a firmware.sound.Sound on board.BUZZER_PIN, or
    (None, None) when the board has no buzzer or the pin cannot do PWM."""
    pin = getattr(cfg, "BUZZER_PIN", None)
    if pin is None:
        return None, None
    try:
        from firmware.sound import Sound

        bz = Buzzer(pin)
        snd = Sound(bz.tone, clock_ms)
    except Exception as e:
        out("The buzzer on %s could not be used (%s); playing without sound. "
            "Check \"buzzer\" in %s (null: no buzzer)." % (gp(pin), e, SETTINGS_FILE))
        return None, None
    out("Buzzer on %s (mute it in SETTINGS > SOUND)." % gp(pin))
    return snd, bz

def console_keys(out=print):
    """A consolekeys.ConsoleKeys on stdin, or None where the port has none."""
    try:
        from firmware.pico.consolekeys import ConsoleKeys

        try:
            from micropython import kbd_intr
        except ImportError:      # not MicroPython (the tests' fakes)
            kbd_intr = None
        # the console's Ctrl-C comes in the data while the game reads it:
        # the bytes after it (mpremote's raw REPL) are left for the REPL
        return ConsoleKeys(clock_ms, hold_intr=kbd_intr)
    except Exception as e:
        out("Keys typed on the console will not work here (%s)." % (e,))
        return None


def text_view(display, cfg=board, out=print):
    """Attach the text view to a HeadlessDisplay (board.HEADLESS_TEXT)."""
    style = getattr(cfg, "HEADLESS_TEXT", "blocks")
    if style == "off" or not style:
        out("The screens are not shown (\"headless_text\": \"off\" in %s)." % SETTINGS_FILE)
        return
    try:
        from firmware.display.textview import TextView

        display.view = TextView(style, footer=(
            ("No display: %s. The boot messages say what to check: Ctrl-C, then "
             "Ctrl-D restarts and shows them." % display.why).encode(),))
    except Exception as e:
        out("The screens cannot be shown as text (%s)." % (e,))
        return
    out("The screens are printed here as text and keys typed here are the buttons "
        "(if the text looks garbled, set \"headless_text\": \"ascii\" in %s)." % SETTINGS_FILE)

def preload(out=print):
    """Import the AI, then the screens every match passes through
    (firmware.app.MATCH_SCREENS), before anything else takes the heap. From
    .mpy files (make flash) their code is loaded onto the heap, and an
    import needs runs of contiguous blocks (its file's 1148 bytes, its
    larger functions) that a heap cut up by a match no longer has: the AI's
    tables at the first new match and the match end's screen at a match's
    end failed (MemoryError) until they were loaded here. Frozen in flash,
    only their functions and classes take heap (a few KB)."""
    import gc

    gc.collect()
    try:
        import engine.ai  # noqa: F401
        from firmware.app import MATCH_SCREENS, class_of_screen

        for name in MATCH_SCREENS:
            class_of_screen(name)
    except MemoryError:
        out("Low on memory while loading the game; it will try again when it needs it.")
    gc.collect()

def kept_settings(cfg):
    """What the HARDWARE page needs of the settings, as one tuple
    (firmware.board.boardset.Hardware takes it): the Config (about 1 KB of heap)
    is not kept for the whole game."""
    return (cfg.DISPLAY_TYPE, bool(cfg.DISPLAY_FLIP), bool(cfg.BUTTONS_ACTIVE_LOW),
            getattr(cfg, "path", SETTINGS_FILE), getattr(cfg, "found_by_scan", False),
            cfg.I2C_ID, cfg.I2C_SDA, cfg.I2C_SCL, cfg.DISPLAY_ADDR, tuple(cfg.BUTTON_PINS),
            getattr(cfg, "BUZZER_PIN", None),
            getattr(cfg, "LINK_TX", board.LINK_TX), getattr(cfg, "LINK_RX", board.LINK_RX))


def _board_config(out):
    """firmware.board.boardcfg.load_config(), with no name of it left behind
    (run()'s frame lasts the whole game; the loader is let go)."""
    from firmware.board.boardcfg import load_config

    return load_config(out=out)


def first_screen(cfg, hardware):
    """(screen, its enter()'s words) a start opens on before the title,
    or None: the recovery start's (firmware/screens/recovery.py), a button
    held at every start explained (cfg.stuck: firmware.board.boardrescue.held),
    or the HARDWARE page (A held at power-on)."""
    if getattr(cfg, "recovery", False):
        return ("recovery", {})
    stuck = getattr(cfg, "stuck", None)
    if stuck is not None:
        return ("message", {"title": stuck[0].encode(), "text": " ".join(stuck[2])})
    if hardware:
        return ("hardware", {"back": None, "note": None})
    return None


def start(cfg, out=print, hardware=False):
    """The ports of run(): (cfg, display, keys, sound, buzzer, kept,
    first). `cfg`: the board's settings, read here (firmware.board.boardcfg)
    when None, and returned (the display may have been found on other
    pins: cfg.found_by_scan). `first`: the screen the start opens on
    (first_screen(); `hardware`: A held at power-on). The AI and the
    match's screens are loaded first (preload())."""
    if cfg is None:
        cfg = _board_config(out)
    preload(out)
    display, _bus = open_display(cfg=cfg, out=out)
    keys = console_keys(out)
    if display.headless:
        text_view(display, cfg=cfg, out=out)
    sound, buzzer = make_sound(cfg=cfg, out=out)
    return cfg, display, keys, sound, buzzer, kept_settings(cfg), first_screen(cfg, hardware)
