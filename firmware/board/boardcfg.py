"""The board's settings file: firmware/board/board.py's defaults, overridden by
/board.json on the board's filesystem, so a released .uf2 drives other
wiring (an SH1106 panel, a panel upside down, other pins, active-high
buttons, a buzzer) without a new firmware build.

Why JSON: the `json` module is in every MicroPython port (and in
CircuitPython), makers know it from other boards' config files, any text
editor or `mpremote edit :board.json` writes it, and it is data, not
code: a mistake in it is a value this module can name and replace, where
a Python settings file (import board_settings) could stop the boot with a
SyntaxError or run anything. The game's HARDWARE page writes the same
file (firmware.board.boardset.Hardware.save(), through save() here), keeping the
keys it does not edit.

Needed at boot only: load_config() reads the file and then lets this
module go on MicroPython (imported from the .mpy bundle it took 13 KB of
the unix port's heap), keeping only the Config, a class without methods
(so it holds nothing of this module). The HARDWARE page's SAVE imports it
again for the write.

The keys (docs/BOARD.md has the table and an example):

    display        "ssd1306" or "sh1106"
    display_addr   60 or 61, or "0x3C" / "0x3D" (tried first; both are tried)
    flip           true: the panel is mounted upside down
    i2c_id         0 or 1 (the chip's I2C block: firmware/board/chip.py)
    i2c_sda        GPIO of SDA, a pin of that block (I2C0: 0 4 8 ... 28,
    i2c_scl        SCL: 1 5 9 ... 29; I2C1: SDA 2 6 ... 26, SCL 3 7 ... 27)
    i2c_freq       10000 .. 1000000 Hz
    btn_left btn_right btn_up btn_down btn_a btn_b    GPIO of each button
    buttons_active_low   true: pressed pulls the pin to GND (internal
                   pull-ups); false: pressed pulls it to 3V3 (pull-downs)
    buzzer         GPIO of a passive piezo, or null for none
    headless_text  "blocks", "ascii" or "off" (screens on the console
                   when no display answers)

load() never raises and never stops the game: every problem gives one
console line saying what is wrong and which value is used instead (and
lint() names what MicroPython's json reads without a word: a key given
twice, a trailing comma, a leading zero, a NUL) (that
key's default; the defaults for all when the file cannot be read: too
large, not UTF-8, not JSON, not an object, no memory). Pins are GPIO
0..29, the buttons and the buzzer not on the Pico's own GP23, GP24, GP25
and GP29; no pin serves twice; SDA and SCL must be a pair of the chosen
I2C block, else the three I2C keys take their defaults (the chip's facts:
firmware/board/chip.py; on a chip it does not know, only "no pin twice"). The file is
read in one bounded read (MAX_BYTES + 1): a huge file is never loaded.

Plain Python with no hardware module: the unix port and CPython tests load
it as it is.
"""

from firmware.board import board
from firmware.board import chip
from firmware.compat import const

_A = const(0x10)      # firmware.buttons.A: A in the mask of the buttons held

PATH = "/board.json"
NAME = "board.json"
MAX_BYTES = 2048     # a full file with every key is about 350 bytes

# (key in the file, attribute of the config, kind). Kinds: "pin", "pin?"
# (a pin or null), "bool", "addr", "freq", "i2c", or a tuple of choices.
KEYS = (
    ("display", "DISPLAY_TYPE", board.DISPLAY_TYPES),
    ("display_addr", "DISPLAY_ADDR", "addr"),
    ("flip", "DISPLAY_FLIP", "bool"),
    ("i2c_id", "I2C_ID", "i2c"),
    ("i2c_sda", "I2C_SDA", "pin"),
    ("i2c_scl", "I2C_SCL", "pin"),
    ("i2c_freq", "I2C_FREQ", "freq"),
    ("btn_left", "BTN_LEFT", "pin"),
    ("btn_right", "BTN_RIGHT", "pin"),
    ("btn_up", "BTN_UP", "pin"),
    ("btn_down", "BTN_DOWN", "pin"),
    ("btn_a", "BTN_A", "pin"),
    ("btn_b", "BTN_B", "pin"),
    ("buttons_active_low", "BUTTONS_ACTIVE_LOW", "bool"),
    ("buzzer", "BUZZER_PIN", "pin?"),
    ("link_tx", "LINK_TX", "pin"),
    ("link_rx", "LINK_RX", "pin"),
    ("headless_text", "HEADLESS_TEXT", ("blocks", "ascii", "off")),
)
# The pins, in the order a clash is looked for (the later key of a clash
# set by the file takes its default).
PIN_KEYS = ("i2c_sda", "i2c_scl", "btn_left", "btn_right", "btn_up", "btn_down",
            "btn_a", "btn_b", "buzzer")
I2C_KEYS = ("i2c_id", "i2c_sda", "i2c_scl")
BUTTON_KEYS = ("btn_left", "btn_right", "btn_up", "btn_down", "btn_a", "btn_b")


class Config:
    """firmware/board/board.py's names (I2C_ID ... HEADLESS_TEXT, BUTTON_PINS):
    what the ports take as `cfg` (config() makes one). Also `path` (where
    the file is: the HARDWARE page writes it there), `source` (the file's
    path when it was read, else None), `from_file` (the keys the file set,
    valid ones) and `found_by_scan` (the boot found the display on other
    pins: firmware.pico.pico.scan_pairs). No methods: a Config kept by the
    running game holds nothing of this module."""


def config(path=None):
    """A Config with firmware/board/board.py's defaults."""
    c = Config()
    for _, a, _ in KEYS:
        setattr(c, a, getattr(board, a))
    c.DISPLAY_WIDTH = board.DISPLAY_WIDTH
    c.DISPLAY_HEIGHT = board.DISPLAY_HEIGHT
    c.path = path if path is not None else PATH
    c.source = None
    c.from_file = []
    c.found_by_scan = False
    c.recovery = False
    c.held = 0          # the buttons held at power-on (firmware.buttons' bits)
    c.stuck = None      # a button held at every start: firmware.board.boardrescue.held()
    buttons(c)
    return c


def buttons(c):
    """BUTTON_PINS again from the six BTN_ names (firmware.buttons' bit order)."""
    c.BUTTON_PINS = (c.BTN_LEFT, c.BTN_RIGHT, c.BTN_UP, c.BTN_DOWN, c.BTN_A, c.BTN_B)

def _attr(key):
    for k, a, _ in KEYS:
        if k == key:
            return a
    return None


def _kind(key):
    for k, _, kind in KEYS:
        if k == key:
            return kind
    return None


def show(v):
    """A value as the file writes it (for messages)."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, (list, dict)):
        return "a list" if isinstance(v, list) else "an object"
    return str(v)


def get(cfg, key):
    return getattr(cfg, _attr(key))


def put(cfg, key, value):
    setattr(cfg, _attr(key), value)
    if key in BUTTON_KEYS:
        buttons(cfg)


def default(key):
    return getattr(board, _attr(key))


def _check(key, kind, v):
    """(value to use, None) or (None, what is wrong)."""
    if kind == "bool":
        if v is True or v is False:
            return v, None
        return None, "must be true or false"
    if kind == "pin" or kind == "pin?":
        if v is None and kind == "pin?":
            return None, None
        if type(v) is not int:
            return None, "must be a GPIO number" + (" or null" if kind == "pin?" else "")
        c = chip.current()
        if not 0 <= v < (c.npins or 64):
            if not c.npins:
                return None, "is not a GPIO number (0..63)"
            return None, "is not a GPIO of the %s (0..%d)" % (c.name, c.npins - 1)
        if v in c.internal and key not in I2C_KEYS:
            return None, "is wired inside the Pico (%s)" % c.internal[v]
        return v, None
    if kind == "addr":
        if isinstance(v, str):
            try:
                v = int(v, 16) if v[:2] in ("0x", "0X") else int(v)
            except ValueError:
                return None, "must be an I2C address (60 or 61, or \"0x3C\")"
        if type(v) is not int or not 0x08 <= v <= 0x77:
            return None, "must be an I2C address (60 or 61, or \"0x3C\")"
        return v, None
    if kind == "freq":
        if type(v) is not int or not 10000 <= v <= 1000000:
            return None, "must be a number of Hz, 10000 to 1000000"
        return v, None
    if kind == "i2c":
        if type(v) is not int or v not in (0, 1):
            return None, "must be 0 or 1 (I2C0 or I2C1)"
        return v, None
    # a tuple of choices
    if isinstance(v, str) and v in kind:
        return v, None
    return None, "must be one of " + ", ".join(show(c) for c in kind)


def _fix_pins(cfg, out):
    """No pin serves twice: a pin the file set that another key also uses
    takes its default (the I2C keys together), until none clashes."""
    while True:
        clash = None
        seen = {}
        for key in PIN_KEYS:
            v = get(cfg, key)
            if v is None:
                continue
            if v in seen:
                other = seen[v]
                # the one the file set gives way; the later when both did
                if key in cfg.from_file:
                    clash = (key, other, v)
                elif other in cfg.from_file:
                    clash = (other, key, v)
                break
            seen[v] = key
        if clash is None:
            return
        key, other, v = clash
        if key in I2C_KEYS:
            for k in I2C_KEYS:
                _revert(cfg, k)
            out("%s: GP%d is given to both %s and %s: using I2C%d on GP%d/GP%d "
                "(the defaults) for the display." % (NAME, v, key, other, cfg.I2C_ID,
                                                     cfg.I2C_SDA, cfg.I2C_SCL))
        else:
            _revert(cfg, key)
            out("%s: GP%d is given to both %s and %s: using %s for %s (the default)."
                % (NAME, v, key, other, show(get(cfg, key)), key))


def _revert(cfg, key):
    put(cfg, key, default(key))
    if key in cfg.from_file:
        cfg.from_file.remove(key)


def read_text(path, out, opener=open):
    """The file's text, or None (missing: silently; unreadable: one line)."""
    try:
        f = opener(path, "rb")
    except OSError:
        return None                       # no file: the defaults, quietly
    try:
        try:
            raw = f.read(MAX_BYTES + 1)
        finally:
            f.close()
    except OSError as e:
        out("%s could not be read (%s): using the defaults." % (NAME, e))
        return None
    if len(raw) > MAX_BYTES:
        out("%s is too large (over %d bytes): ignored, using the defaults." % (NAME, MAX_BYTES))
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeError:
        out("%s is not UTF-8 text: ignored, using the defaults." % NAME)
        return None


def lint(text, out):
    """One line for each thing in the file's text that MicroPython's json
    takes without a word and strict JSON (CPython, any other reader)
    refuses or reads otherwise: a key given twice (the last one is used),
    a comma before } or ], a number with a leading zero (07 is read as 7),
    a NUL character (MicroPython's json stops reading there). A scan of
    the bytes outside strings, so the same lines come on every Python."""
    b = text.encode()
    n = len(b)
    keys = []
    said = []
    depth = 0
    last = 0          # the last byte outside strings and blanks
    i = 0
    while i < n:
        c = b[i]
        if c == 0x22:                               # a string
            j = i + 1
            while j < n and b[j] != 0x22:
                j += 2 if b[j] == 0x5C else 1
            k = j + 1
            while k < n and b[k] in b" \t\r\n":
                k += 1
            if depth == 1 and k < n and b[k] == 0x3A and last in b"{,":   # a key
                key = b[i + 1:j].decode()
                if key in keys:
                    if key not in said:
                        said.append(key)
                        out("%s: \"%s\" is given more than once: the last one is used."
                            % (NAME, key))
                else:
                    keys.append(key)
            last = 0x22
            i = j + 1
            continue
        if c == 0:
            out("%s: a NUL character at byte %d: the text is read only up to it." % (NAME, i))
            return
        if c in b"{[":
            depth += 1
        elif c in b"}]":
            if last == 0x2C:
                out("%s: a comma before \"%s\" (at byte %d): strict JSON refuses it."
                    % (NAME, chr(c), i))
            depth -= 1
        elif c in b"-0123456789" and last in b":,[":
            j = i + 1 if c == 0x2D else i
            if j + 1 < n and b[j] == 0x30 and 0x30 <= b[j + 1] <= 0x39:
                k = j
                while k < n and 0x30 <= b[k] <= 0x39:
                    k += 1
                num = b[i:k].decode()
                out("%s: the number %s has a leading zero: read as %d, but strict JSON "
                    "refuses it." % (NAME, num, int(num)))
        if c not in b" \t\r\n":
            last = c
        i += 1


def parse(text, out):
    """The file's JSON object, or None after one line saying why not."""
    import json

    try:
        d = json.loads(text)
    except ValueError as e:
        out("%s is not valid JSON (%s): ignored, using the defaults." % (NAME, e))
        return None
    if not isinstance(d, dict):
        out("%s must hold a JSON object ({\"key\": value, ...}), not %s: ignored, "
            "using the defaults." % (NAME, show(d)))
        return None
    return d


def apply(cfg, d, out):
    """Set `cfg` from the file's object `d`, one line per problem."""
    if not chip.current().name:
        out(chip.why_not("Checking the pins of %s against the chip's" % NAME))
    for key in sorted(d):
        v = d[key]
        kind = _kind(key) if isinstance(key, str) else None
        if kind is None:
            out("%s: unknown key \"%s\" ignored (docs/BOARD.md lists the keys)." % (NAME, key))
            continue
        val, why = _check(key, kind, v)
        if why is not None:
            out("%s: %s = %s %s: using %s (the default)." % (NAME, key, show(v), why,
                                                             show(default(key))))
            continue
        put(cfg, key, val)
        cfg.from_file.append(key)
    if chip.current().name and not chip.i2c_pair_ok(cfg.I2C_ID, cfg.I2C_SDA, cfg.I2C_SCL):
        bad = (cfg.I2C_ID, cfg.I2C_SDA, cfg.I2C_SCL)
        for k in I2C_KEYS:
            _revert(cfg, k)
        out("%s: SDA GP%d and SCL GP%d are not a pin pair of I2C%d: using I2C%d on "
            "GP%d/GP%d (the defaults)." % (NAME, bad[1], bad[2], bad[0], cfg.I2C_ID,
                                           cfg.I2C_SDA, cfg.I2C_SCL))
    _fix_pins(cfg, out)


def load(path=None, out=print, opener=open):
    """The Config: board.py's defaults and the file at `path` (PATH).
    Never raises (but KeyboardInterrupt)."""
    if path is None:
        path = PATH
    cfg = config(path)
    try:
        text = read_text(path, out, opener)
        if text is None:
            return cfg
        lint(text, out)
        d = parse(text, out)
        text = None
        if d is None:
            return cfg
        cfg.source = path
        apply(cfg, d, out)
    except MemoryError:
        cfg = config(path)
        out("Not enough memory to read %s: using the defaults." % NAME)
    except Exception as e:   # anything unforeseen must not stop the boot
        cfg = config(path)
        out("%s could not be used (%r): using the defaults." % (NAME, e))
    return cfg


def dumps(d):
    """The file's text for object `d`: one key a line in key order, so a
    person can read and edit it."""
    import json

    lines = []
    for k in sorted(d):
        lines.append("  %s: %s" % (json.dumps(k), json.dumps(d[k])))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def save(changes, path=None, fs=None, opener=open):
    """Write `changes` ({key: value}) into the file at `path`, keeping its
    other keys (a file that cannot be read as a JSON object is replaced).
    Atomic as firmware/saves/storage.py's saves: the whole text goes to
    <path>.tmp, which is then renamed over the file, so a cut leaves the old
    file or the new one. Returns None, or what went wrong (full flash,
    OSError, no memory) in a few words."""
    if fs is None:
        import os as fs
    if path is None:
        path = PATH
    tmp = path + ".tmp"
    try:
        d = None
        text = read_text(path, lambda s: None, opener)
        if text is not None:
            d = parse(text, lambda s: None)
        if d is None:
            d = {}
        for k in changes:
            d[k] = changes[k]
        data = dumps(d).encode()
        f = opener(tmp, "wb")
        try:
            n = f.write(data)
        finally:
            f.close()
        if n is not None and n != len(data):
            raise OSError(28)     # ENOSPC: the flash took only part of it
        rename = getattr(fs, "replace", None) or fs.rename
        rename(tmp, path)
    except MemoryError:
        return "not enough memory"
    except OSError as e:
        try:
            fs.remove(tmp)
        except OSError:
            pass
        code = e.args[0] if e.args else None
        if code == 28:
            return "the flash is full"
        return "the flash refused it (%s)" % (e,)
    return None



def let_go():
    """Forget this module on MicroPython (its code and functions are on
    the heap; a Config made here holds none of it). On CPython nothing is
    let go: tests hold the module."""
    from firmware.compat import heap_free, unload

    if heap_free() is not None:
        unload(__name__)
        unload("firmware.board.chip")      # its facts: imported again when needed
        unload("firmware.board.boardrescue")


def load_config(path=None, out=print):
    """load(path, out), then this module is let go (let_go())."""
    cfg = load(path, out)
    let_go()
    return cfg


def boot(held, out=print, recovery=None, ask=None):
    """At power-on (firmware/main.py): the version line, the settings,
    the buttons held (`held(pins, active_low)` reads them together for
    ~25 ms: a mask in their order), A held (the HARDWARE page), a button
    held at every start (firmware.board.boardrescue), then this module is let
    go. (cfg, hardware); cfg.held is the mask of the buttons held.
    `recovery` (the words of how BOOTSEL was held: firmware/main.py):
    /board.json is not read, the defaults are used, said on the console,
    and the game starts on the recovery start's screen (cfg.recovery).
    `ask` (the Pico: firmware.pico.picoports.asked) says, when `recovery` is
    None, whether BOOTSEL asked for it; this module, which CircuitPython
    reads too, names no Pico module."""
    try:
        from engine.version_parse import described
        from firmware.compat import heap_free, unload

        out("Gin Rummy %s" % described())
        if heap_free() is not None:      # MicroPython: its code off the heap
            unload("engine.version_parse")
    except ImportError:
        out("Gin Rummy (version unknown: engine/version.py is missing)")
    if recovery is None and ask is not None:
        recovery = ask()
    if recovery:
        from firmware.board.boardrescue import recovery_text

        cfg = config(None)
        cfg.recovery = True
        out(recovery_text(cfg, recovery))
        hardware = False
    else:
        cfg = load(None, out)
        cfg.held = mask = held(cfg.BUTTON_PINS, cfg.BUTTONS_ACTIVE_LOW)
        hardware = a_held(cfg, held, out, mask)
        if hardware:
            mask |= _A
        counted = cfg.path + ".held"
        try:
            if not mask:             # the rescue's module only for a count to clear
                import os

                os.stat(counted)
            from firmware.board import boardrescue

            cfg.stuck = boardrescue.held(cfg, *boardrescue.count(counted, mask))
        except Exception:            # none (OSError), or the count failed: it is a help,
            cfg.stuck = None         # it never stops a start
        if cfg.stuck is not None:
            out(cfg.stuck[1])
    let_go()
    return cfg, hardware


def a_held(cfg, held, out=print, mask=None):
    """A held at power-on (firmware/main.py; `held(pins, active_low)` reads
    pins for ~25 ms): read with the settings' polarity (firmware.buttons.A of
    `mask`, the six buttons read so, when given), then the other one.
    Held the other way, the buttons use that polarity for this start
    (`cfg` changed, and said on the console)."""
    pin, low = cfg.BTN_A, cfg.BUTTONS_ACTIVE_LOW
    if (mask & _A) if mask is not None else held((pin,), low):
        return True
    if not held((pin,), not low):
        return False
    cfg.BUTTONS_ACTIVE_LOW = not low
    out("A is held at power-on as a button to %s, but the settings say to %s: "
        "the buttons are read that way for this start (SAVE on the HARDWARE "
        "page keeps it)." % ("3V3" if low else "GND", "GND" if low else "3V3"))
    return True
