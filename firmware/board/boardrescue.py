"""What brings a board back whatever /board.json says (docs/BOARD.md,
"What always brings the board back"): the recovery start's words and the
buttons that read held at every start.

- The recovery start (BOOTSEL held after power-on, in the safe boot, or
  while the game runs: firmware/pico/start.py, firmware.pico.pico.recover): the
  default settings, /board.json unread; recovery_text() is its console
  line, bootsel_held() the look at BOOTSEL (once at a start, or through
  the safe boot's WATCH_MS).
- A button that reads held at HELD_STARTS starts in a row (a file that
  puts B on a pin the display's pull-ups hold high makes every start a
  safe boot; A there opens the HARDWARE page every time) is counted in a
  small file beside the settings (/board.json.held: the mask of the
  buttons held and the count), which a start with no button held
  removes. held() returns the words that explain it: which button,
  which pin, what the file says, how to recover.

The settings file set aside (renamed, never deleted) is the recovery
start's screen's own (firmware/screens/recovery.py: set_aside()).

A cold module: imported at boot (firmware.board.boardcfg.boot, only when one
of these is needed) and by the recovery start's screen, and let go after.
Plain Python but for bootsel_held() (rp2, imported there): it never
raises on a file it cannot read or write.
"""

HELD_STARTS = 3       # a button held at this many starts in a row is explained
WATCH_MS = 5000       # the safe boot waits this long for BOOTSEL (the recovery start)
LOOK_MS = 50          # BOOTSEL read this often; down at two looks in a row: held
NAMES = ("LEFT", "RIGHT", "UP", "DOWN", "A", "B")     # firmware.buttons' bit order
KEYS = ("btn_left", "btn_right", "btn_up", "btn_down", "btn_a", "btn_b")
# what a held button does at power-on
DOES = ("", "", "", "", "opens the HARDWARE page", "is a safe boot (the game does not start)")

HOW = ("To start with the default settings: plug the Pico in, then press and hold "
       "BOOTSEL (the small button on the Pico) until the screen says RECOVERY START or "
       "the LED blinks three times; there the file can be set aside. (BOOTSEL held while "
       "plugging in starts the chip's USB drive instead.)")

RECOVERY_TEXT = (
    "Recovery start (BOOTSEL held %s): /board.json is not read this time, the "
    "default settings are used: the display on I2C%d (SDA GP%d, SCL GP%d, or found on "
    "the usual pins), the buttons LEFT RIGHT UP DOWN A B on GP%d GP%d GP%d GP%d GP%d GP%d "
    "to GND, %s. The screen offers to set /board.json aside (renamed to "
    "/board.json.aside, not deleted): A or BOOTSEL sets it aside, B keeps it and opens "
    "the HARDWARE page (z and x typed here are A and B). The LED blinks three times "
    "every 2 s. The next start reads /board.json again, if it is still there.")


WATCHING = ("Hold BOOTSEL (the button on the Pico) in the next %d s to start the game "
            "with the default settings instead (/board.json not read)." % (WATCH_MS // 1000))


def bootsel_held(ms=0):
    """True when BOOTSEL reads down at two looks in a row (LOOK_MS apart)
    within `ms` (0: now, with no wait when it is up). Ctrl-C (mpremote
    reaching for the REPL) ends the wait: False."""
    import time

    try:
        import rp2

        down = rp2.bootsel_button
    except (ImportError, AttributeError):
        return False                     # not a Pico: no BOOTSEL
    n = 0
    waited = 0
    try:
        while True:
            if down():
                n += 1
                if n >= 2:
                    return True
            else:
                n = 0
                if waited >= ms:
                    return False
            time.sleep_ms(LOOK_MS)
            waited += LOOK_MS
    except KeyboardInterrupt:
        return False


def recovery_text(cfg, why):
    """The recovery start's console line (`cfg`: the defaults)."""
    bz = cfg.BUZZER_PIN
    return RECOVERY_TEXT % ((why, cfg.I2C_ID, cfg.I2C_SDA, cfg.I2C_SCL) + tuple(cfg.BUTTON_PINS)
                            + ("no buzzer" if bz is None else "the buzzer on GP%d" % bz,))


def _read(path, opener):
    """(mask, count) from the count file, (0, 0) when none or unreadable."""
    try:
        f = opener(path, "rb")
        try:
            t = f.read(32)
        finally:
            f.close()
        a, b = t.split()
        return int(a), int(b)
    except Exception:
        return 0, 0


def count(path, mask, opener=open, fs=None):
    """This start's buttons held (`mask`, firmware.buttons' bit order)
    counted in the file at `path`: (buttons held at every one of the last
    `n` starts, n). A start with none held removes the file (0, 0)."""
    if fs is None:
        import os as fs
    was, n = _read(path, opener)
    if not mask:
        if n:
            try:
                fs.remove(path)
            except OSError:
                pass
        return 0, 0
    both = was & mask
    if both and n > 0:
        mask, n = both, n + 1
    else:
        n = 1
    try:
        f = opener(path, "wb")
        try:
            f.write(b"%d %d\n" % (mask, n))
        finally:
            f.close()
    except Exception:          # a full flash: counted from memory this once
        pass
    return mask, n


def held(cfg, mask, n):
    """(title, console text, screen lines) for the buttons `mask` held at
    `n` starts in a row with settings `cfg`, or None under HELD_STARTS.
    The screen's lines are 31 characters at most (the small font)."""
    if n < HELD_STARTS or not mask:
        return None
    i = 0
    while not mask >> i & 1:
        i += 1
    from firmware.board.chip import gp

    name, key = NAMES[i], KEYS[i]
    pin = cfg.BUTTON_PINS[i]
    low = cfg.BUTTONS_ACTIVE_LOW
    set_by = getattr(cfg, "from_file", ())
    said = ('/board.json says "%s": %d' % (key, pin) if key in set_by
            else "%s is GP%d by default" % (name, pin))
    if "buttons_active_low" in set_by:
        said += ' and "buttons_active_low": %s' % ("true" if low else "false")
    level = "low" if low else "high"
    text = ("%s (%s) has read as held at %d starts in a row%s. %s, so a %s level on that "
            "pin reads as held. If nobody holds %s, that pin is not %s's: something on it "
            "(the display's pull-ups, the link cable, a wire) holds it %s. %s"
            % (name, gp(pin), n, ": each start " + DOES[i] if DOES[i] else "", said, level,
               name, name, level, HOW))
    per = " PER BOARD.JSON" if key in set_by or "buttons_active_low" in set_by else ""
    screen = ("%s IS GP%d TO %s%s. NOT HELD? THE PIN IS NOT %s'S. TO START WITH THE "
              "DEFAULTS: PLUG IN, THEN HOLD BOOTSEL." % (name, pin, "GND" if low else "3V3",
                                                        per, name))
    return "%s HELD %d STARTS" % (name, n), text, wrap(screen, 31)


def wrap(text, width):
    """`text` in lines of at most `width` characters, split at spaces."""
    lines = []
    line = ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = line + " " + w if line else w
    if line:
        lines.append(line)
    return tuple(lines)
