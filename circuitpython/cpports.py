"""CircuitPython ports for the handheld, and its run loop (CircuitPython 9+).

The same firmware.app.App as on MicroPython, with these ports:

- Display: the Adafruit driver `adafruit_displayio_ssd1306` (or
  `adafruit_displayio_sh1106` when firmware/board.py says so) on
  `i2cdisplaybus`, `auto_refresh=False`. The seam between the game's 1 KB
  MONO_VLSB framebuffer and displayio: an 8 x 1024 two-colour Bitmap in which
  each byte of the buffer is one 8-pixel bitmap row (bit 0 = leftmost pixel,
  bitmaptools' default bit order), so `bitmaptools.readinto(bitmap, stream,
  1)` moves a whole frame in one C call. Byte (page * 128 + x) holds the eight
  pixels of column x, rows page*8 .. page*8+7: shown through a TileGrid with
  `transpose_xy`, bitmap row r becomes screen column r % 128 and bitmap
  column b screen row (r // 128) * 8 + b.

  readinto marks the whole bitmap dirty, so showing that bitmap sends a full
  frame on every refresh (1037 bytes on the wire plus address bytes; about
  25 ms at 400 kHz). DisplayPort(narrow=True), the default, narrows it: the
  frame bitmap is only a staging area; eight 8 x 128 bitmaps, one per page,
  each in its own transposed TileGrid, are what the display shows. show()
  compares the frame with a shadow copy page by page, and for each changed
  page `bitmaptools.blit`s just the changed columns from the staging bitmap
  into that page's bitmap. displayio then refreshes one small window per
  changed page (16 bytes of window commands and framing plus the changed
  columns). DisplayPort(narrow=False) is the plain seam: the frame bitmap
  itself is shown (8 tiles of 8 x 128) and every show() sends it whole.

- Buttons: `keypad.Keys` on the six pins (`value_when_pressed=False`,
  `pull=True`; keypad scans and debounces in the background). KeypadButtons
  is a firmware.buttons.Buttons whose poll() (once per frame) first drains
  the keypad events into the button mask, sampling at each event's own
  timestamp, so a tap that began and ended between two frames is still one
  press.

- Clock: supervisor.ticks_ms(), which wraps at 2**29 (first about 65 s after
  power-on), extended by Clock to wrap at 2**30 like MicroPython's
  time.ticks_ms, which firmware.buttons.ticks_diff and the App expect.

- Saves: NvmStorage keeps the settings, the statistics and the match in
  `microcontroller.nvm` (4 KB on the RP2040; writable from code.py while the
  CIRCUITPY drive stays writable over USB), with the methods of
  firmware.storage.Storage: load(name, decode=None) -> (value, message),
  save(name, payload) -> bool, remove(name).

Hardware modules (displayio, bitmaptools, keypad, board, busio, supervisor,
microcontroller) are imported where used, so the storage and the clock can
be tested on any Python.
"""

import time

from firmware import board as cfg
from firmware.buttons import Buttons, ticks_diff
from firmware.compat import const
from firmware.port_common import HeadlessDisplay, bus_error, display_address, show_lines
from firmware.storage import crc16

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
FRAME_BYTES = const(1024)
# Bytes on the wire for one refreshed window besides its pixel bytes: the
# column and row windows (address byte + 0x80,0x21,0x80,a,0x80,b: 7 each)
# and the pixel write's address and 0x40 control byte.
WINDOW_BYTES = const(16)
FULL_FRAME_BYTES = const(1040)  # WINDOW_BYTES + 1024
# SH1106 (SH1107-style addressing): per page, the column (2 command bytes)
# and the page (1) as 0x80-prefixed commands, then 128 data bytes.
SH1106_FRAME_BYTES = const(1104)  # 8 * ((1 + 4) + (1 + 2) + (2 + 128))

SLICE_MS = const(10)  # longest sleep between checks for a waiting press
MAX_STEPS = None  # tests: stop run() after this many steps


def pin(n):
    """The `board` pin of GPIO n (board.GP10...)."""
    import board

    return getattr(board, "GP%d" % n)


# -- clock ----------------------------------------------------------------------

class Clock:
    """clock_ms() for the App: milliseconds wrapping at 2**30.

    supervisor.ticks_ms() wraps at 2**29; each wrap seen flips the 2**29 bit
    here, so the result runs on continuously as long as it is read at least
    once every 2**29 ms (6 days; the run loop reads it every few ms). Values
    stay below 2**30: small ints, no allocation."""

    def __init__(self, ticks=None):
        if ticks is None:
            import supervisor

            ticks = supervisor.ticks_ms
        self._ticks = ticks
        self._last = ticks()
        self._high = 0

    def __call__(self):
        t = self._ticks()
        if t < self._last:
            self._high ^= 0x20000000
        self._last = t
        return t | self._high

    def at(self, raw):
        """The clock value of an earlier supervisor.ticks_ms() reading (a
        keypad event's timestamp), taken less than 2**29 ms ago."""
        now = self()
        return (now - ((self._last - raw) & 0x1FFFFFFF)) & 0x3FFFFFFF


# -- buttons ----------------------------------------------------------------------

def make_keys(cfg=cfg):
    """keypad.Keys on the six button pins, in firmware.buttons bit order
    (key_number i = bit i = cfg.BUTTON_PINS[i])."""
    import keypad

    pins = tuple(pin(n) for n in cfg.BUTTON_PINS)
    return keypad.Keys(pins, value_when_pressed=not cfg.BUTTONS_ACTIVE_LOW, pull=True)


class KeypadButtons(Buttons):
    """firmware.buttons.Buttons fed by keypad events.

    poll(now) (the App calls it once per frame, the wait loop every few ms)
    drains the keypad's event queue: each event updates the mask of buttons
    down and is sampled at its own timestamp, so firmware.buttons sees the
    press and the release of a short tap at the times they happened (keypad
    reports them at least one scan interval, 20 ms, apart) and reports the
    tap even when both arrive in one poll. An overflowed queue is cleared and
    the keypad reset: buttons still held come back as new presses."""

    def __init__(self, keys, clock, event=None, **kw):
        Buttons.__init__(self, self._read_mask, **kw)
        self.keys = keys
        self.clock = clock
        self.mask = 0
        if event is None:
            import keypad

            event = keypad.Event()
        self._ev = event  # reused by get_into: draining allocates nothing

    def _read_mask(self):
        return self.mask

    def drain(self):
        q = self.keys.events
        if q.overflowed:
            q.clear()
            self.mask = 0
            self.keys.reset()
        ev = self._ev
        at = self.clock.at
        while q.get_into(ev):
            bit = 1 << ev.key_number
            if ev.pressed:
                self.mask |= bit
            else:
                self.mask &= ~bit
            self.sample(at(ev.timestamp))

    def poll(self, now):
        self.drain()
        return Buttons.poll(self, now)


def wait(buttons, clock, ms, sleep=None):
    """Sleep up to `ms` milliseconds; return early once a press is waiting."""
    if ms is None or ms <= 0:
        return
    if sleep is None:
        sleep = time.sleep
    end = (clock() + ms) & 0x3FFFFFFF
    while True:
        now = clock()
        left = ticks_diff(end, now)
        if left <= 0 or buttons.poll(now):
            return
        sleep((left if left < SLICE_MS else SLICE_MS) / 1000)


# -- display ----------------------------------------------------------------------

# No display: firmware.port_common.HeadlessDisplay (frames go nowhere).


class DisplayPort:
    """show(buf) -> bytes put on the bus, contrast(v), power(on),
    invalidate(): the App's display, over a displayio BusDisplay."""

    headless = False

    def __init__(self, display, narrow=True, out=print, full_bytes=FULL_FRAME_BYTES):
        import io

        import displayio

        self.display = display
        self.narrow = narrow
        self.out = out
        self.full_bytes = full_bytes
        self.errors = 0
        self.last_bytes = 0
        palette = displayio.Palette(2)
        palette[0] = 0x000000
        palette[1] = 0xFFFFFF
        self.palette = palette
        # The whole frame: readinto's target (and, not narrowed, what is shown).
        self.frame = displayio.Bitmap(8, FRAME_BYTES, 2)
        self._stream = io.BytesIO(bytes(FRAME_BYTES))
        self._shadow = bytearray(FRAME_BYTES)  # what the panel shows
        self._shadow_pages = [memoryview(self._shadow)[p * WIDTH:(p + 1) * WIDTH]
                              for p in range(PAGES)]
        self._buf = None
        self._buf_pages = None
        self._valid = False
        group = displayio.Group()
        if narrow:
            self.pages = []
            for p in range(PAGES):
                bmp = displayio.Bitmap(8, WIDTH, 2)
                tg = displayio.TileGrid(bmp, pixel_shader=palette)
                tg.transpose_xy = True  # bitmap rows -> screen columns
                tg.y = p * 8
                group.append(tg)
                self.pages.append(bmp)
        else:
            self.pages = None
            tg = displayio.TileGrid(self.frame, pixel_shader=palette, width=PAGES,
                                    height=1, tile_width=8, tile_height=WIDTH)
            for p in range(PAGES):
                tg[p, 0] = p  # tile p: bitmap rows p*128.. = page p
            tg.transpose_xy = True
            group.append(tg)
        self.group = group
        display.root_group = group
        # A new root group is refreshed whole (the blank bitmaps). Blinka
        # draws each TileGrid once more on the refresh after that; the
        # second call settles it (on the device it finds nothing to send).
        display.refresh()
        display.refresh()

    def _page_views(self, buf):
        # Once per new buffer object (the App keeps one canvas).
        self._buf = buf
        bm = memoryview(buf)
        self._buf_pages = [bm[p * WIDTH:(p + 1) * WIDTH] for p in range(PAGES)]

    def _failed(self, e):
        bus_error(self, e)
        self._valid = False

    def show(self, buf, full=False):
        """Show the 1024-byte MONO_VLSB frame; the bytes put on the bus (0
        when nothing changed)."""
        try:
            n = self._show(buf, full or not self._valid)
        except (OSError, RuntimeError) as e:  # Blinka raises RuntimeError for a NACK
            # (CircuitPython's own displayio does not report bus errors of a
            # refresh; Blinka's raises them, and the game must go on.)
            self._failed(e)
            self.last_bytes = 0
            return 0
        self.last_bytes = n
        return n

    def _show(self, buf, full):
        if buf is not self._buf:
            self._page_views(buf)
        bp = self._buf_pages
        sp = self._shadow_pages
        if not full:
            p = 0
            while p < PAGES and bp[p] == sp[p]:
                p += 1
            if p == PAGES:
                return 0
        st = self._stream
        st.seek(0)
        st.write(buf)
        st.seek(0)
        import bitmaptools

        bitmaptools.readinto(self.frame, st, 1)
        sh = self._shadow
        if self.pages is None:
            n = self.full_bytes
            for i in range(FRAME_BYTES):
                sh[i] = buf[i]
        else:
            n = 0
            frame = self.frame
            pages = self.pages
            blit = bitmaptools.blit
            for p in range(PAGES):
                base = p * WIDTH
                if full:
                    s = 0
                    e = WIDTH - 1
                elif bp[p] == sp[p]:
                    continue
                else:
                    s = 0
                    while buf[base + s] == sh[base + s]:
                        s += 1
                    e = WIDTH - 1
                    while buf[base + e] == sh[base + e]:
                        e -= 1
                blit(pages[p], frame, 0, s, x1=0, y1=base + s, x2=8, y2=base + e + 1)
                i = base + s
                end = base + e + 1
                while i < end:
                    sh[i] = buf[i]
                    i += 1
                n += WINDOW_BYTES + e - s + 1
        self._valid = False  # until the refresh has gone through
        self.display.refresh()
        self._valid = True
        return n

    def invalidate(self):
        """Forget what the panel shows: the next show() sends everything."""
        self._valid = False

    def contrast(self, value):
        """0..255 (the controller's 0x81 contrast); lower is dimmer. Through
        the driver's brightness (its brightness_command is 0x81): the C core
        sends int(255 * b), Blinka round(255 * b); (v + 0.25) / 255 gives v
        in both."""
        value &= 0xFF
        try:
            self.display.brightness = 1.0 if value == 255 else (value + 0.25) / 255
        except (OSError, RuntimeError) as e:
            self._failed(e)

    def power(self, on):
        try:
            if on:
                self.display.wake()
            else:
                self.display.sleep()
        except (OSError, RuntimeError) as e:
            self._failed(e)

    def invert(self, on):
        try:
            self.display.bus.send(0xA7 if on else 0xA6, b"")
        except (OSError, RuntimeError) as e:
            self._failed(e)


def _where(cfg):
    return "SDA GP%d, SCL GP%d" % (cfg.I2C_SDA, cfg.I2C_SCL)


def _check_wiring(cfg):
    return ("Check: display VCC to 3V3 and GND to GND; SDA to GP%d and SCL to GP%d, "
            "not swapped; the module's address jumper (0x3C or 0x3D)."
            % (cfg.I2C_SDA, cfg.I2C_SCL))


def make_i2c(cfg=cfg):
    import busio

    return busio.I2C(pin(cfg.I2C_SCL), pin(cfg.I2C_SDA), frequency=cfg.I2C_FREQ)


def scan(i2c):
    """Addresses answering on the bus (locks and unlocks it)."""
    n = 0
    while not i2c.try_lock():
        n += 1
        if n > 1000:
            raise OSError("the I2C bus stays locked")
        time.sleep(0.001)
    try:
        return list(i2c.scan())
    finally:
        i2c.unlock()


def open_display(i2c=None, cfg=cfg, out=print, narrow=True):
    """(display, i2c): a DisplayPort for the OLED, or a HeadlessDisplay after
    printing what was found and what to check. Never raises."""
    kind = "SH1106" if cfg.DISPLAY_TYPE == "sh1106" else "SSD1306"
    where = _where(cfg)
    try:
        import displayio

        displayio.release_displays()
        if i2c is None:
            i2c = make_i2c(cfg)
        found = scan(i2c)
    except Exception as e:  # ValueError (pins), RuntimeError (no pull-ups), OSError
        out("No display: the I2C bus on %s could not be used (%s)." % (where, e))
        out(_check_wiring(cfg))
        out("Running without a display.")
        return HeadlessDisplay(), None
    addr = display_address(found, cfg)
    if addr < 0:
        if found:
            out("No display found at 0x3C or 0x3D on %s; other devices answered: %s."
                % (where, ", ".join("0x%02X" % a for a in found)))
        else:
            out("No display found: nothing answered on %s." % where)
        out(_check_wiring(cfg))
        out("Running without a display: the game goes on, the screen stays dark.")
        return HeadlessDisplay(), i2c
    if addr != cfg.DISPLAY_ADDR:
        out("Display found at 0x%02X (board.py says 0x%02X): using 0x%02X."
            % (addr, cfg.DISPLAY_ADDR, addr))
    try:
        import i2cdisplaybus

        bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=addr)
        rotation = 180 if cfg.DISPLAY_FLIP else 0
        if kind == "SH1106":
            import adafruit_displayio_sh1106 as drv

            # 132-column RAM, the panel shows columns 2..129. Full frames
            # only: the driver addresses columns SH1107-style, and Blinka's
            # version of that command is wrong past column 15, so narrowed
            # windows could not be checked on the host.
            d = drv.SH1106(bus, width=cfg.DISPLAY_WIDTH, height=cfg.DISPLAY_HEIGHT,
                           colstart=2, rotation=rotation, auto_refresh=False)
            narrow = False
            full_bytes = SH1106_FRAME_BYTES
        else:
            import adafruit_displayio_ssd1306 as drv

            d = drv.SSD1306(bus, width=cfg.DISPLAY_WIDTH, height=cfg.DISPLAY_HEIGHT,
                            rotation=rotation, auto_refresh=False)
            full_bytes = FULL_FRAME_BYTES
        port = DisplayPort(d, narrow=narrow, out=out, full_bytes=full_bytes)
    except ImportError as e:
        out("The display driver is missing (%s): run `make flash-circuitpython` "
            "(it installs the libraries with circup)." % (e,))
        out("Running without a display.")
        return HeadlessDisplay(), i2c
    except Exception as e:
        out("The display at 0x%02X on %s did not accept commands (%s)." % (addr, where, e))
        out(_check_wiring(cfg))
        out("Running without a display.")
        return HeadlessDisplay(), i2c
    out("Display: %s at 0x%02X on %s." % (kind, addr, where))
    return port, i2c


# -- saves in microcontroller.nvm ---------------------------------------------------

NVM_MAGIC = b"GRNV"
NVM_VERSION = const(1)
HEADER_BYTES = const(64)  # image header, padded
REC_MAGIC = b"GR"
REC_VERSION = const(1)
REC_HEAD = const(8)  # magic 2, version 1, record id 1, sequence 2, length 2
REC_OVERHEAD = const(10)  # head + crc 2
# (name, bytes per slot); the last record takes the rest of the nvm.
LAYOUT = (("settings", 192), ("stats", 240), ("match", None))

_BLANK = 0  # slot states
_VALID = 1
_DAMAGED = 2


class NvmFull(OSError):
    pass


class NvmStorage:
    """Saves in a small byte array that survives resets (microcontroller.nvm).

    Image (big-endian):

        0    header: b"GRNV" version:1 count:1, then per record
             name:8 (zero padded) id:1 offset:2 slot_size:2, crc16:2;
             zero padded to 64 bytes
        64   settings: two slots of 192 bytes (custom rules spell out every field)
        448  stats: two slots of 240 bytes
        928  match: two slots of (size - 928) / 2 bytes (1584 of 4096)

    A slot holds one record:

        b"GR" version:1 id:1 sequence:2 length:2 payload crc16:2

    (CRC-16/CCITT over everything before it, firmware.storage.crc16.) Of the
    two slots of a name, the valid one with the newer sequence number (mod
    2**16) is the save; a new save goes into the other slot, in one write, so
    a power cut during it leaves a torn record that fails its checksum and
    the previous save in place. A payload too large for a slot (a very long
    match) is written from the first slot across the second: a cut during
    such a write can lose it. remove() zeroes each slot's first byte, the
    older slot first.

    Loading never raises. A blank image (all 0x00 or 0xFF: never used) has
    no saves. An image whose header is not this layout is rejected whole:
    every load returns (None, message) and the next save formats the image
    (header, then 0xFF: on the RP2040, writing onto erased bytes needs no
    sector erase). A slot that fails its checks is ignored; the reason goes
    to `reason` and `damage` (for the console). The message is for the
    player: None when a save was found in good order or nothing was there,
    else what happened.

    Writes only on change: a payload equal to the last saved or loaded is
    not written (save returns False). On the RP2040 each nvm write that does
    not land on erased bytes rewrites the whole 4 KB flash sector (erase and
    program, tens of ms): a power cut inside that window can damage the
    whole image; it is then rejected as above.
    """

    def __init__(self, nvm, layout=LAYOUT):
        self.nvm = nvm
        size = len(nvm)
        recs = []
        off = HEADER_BYTES
        fixed = 0
        for name, slot in layout:
            if slot is not None:
                fixed += 2 * slot
        rid = 1
        for name, slot in layout:
            if slot is None:
                slot = (size - HEADER_BYTES - fixed) // 2
            if slot < REC_OVERHEAD + 1 or len(name) > 8:
                raise ValueError("nvm layout does not fit %d bytes" % size)
            recs.append((name, rid, off, slot))
            off += 2 * slot
            rid += 1
        if off > size:
            raise ValueError("nvm layout needs %d bytes, nvm has %d" % (off, size))
        self.records = recs
        self.size = size
        self.header = self._make_header()
        self.reason = None
        self.damage = []
        self.writes = 0  # nvm write operations (tests, benches)
        self._image = None  # None: not checked; True: ours; False: blank; str: reason
        self._last = {}  # name -> payload known to be the save
        self._cur = {}  # name -> slot index of the save in use
        self._seq = {}  # name -> newest sequence number seen

    # -- layout --
    def _make_header(self):
        h = bytearray(NVM_MAGIC)
        h.append(NVM_VERSION)
        h.append(len(self.records))
        for name, rid, off, slot in self.records:
            nb = name.encode()
            h.extend(nb + bytes(8 - len(nb)))
            h.append(rid)
            h.append(off >> 8)
            h.append(off & 0xFF)
            h.append(slot >> 8)
            h.append(slot & 0xFF)
        c = crc16(h)
        h.append(c >> 8)
        h.append(c & 0xFF)
        if len(h) > HEADER_BYTES:
            raise ValueError("too many records for the nvm header")
        return bytes(h) + bytes(HEADER_BYTES - len(h))

    def _record(self, name):
        for r in self.records:
            if r[0] == name:
                return r
        raise ValueError("no nvm record named %r" % name)

    # -- reading --
    def _read(self, start, n):
        return bytes(self.nvm[start:start + n])

    def _note(self, why):
        self.reason = why
        self.damage.append(why)

    def _check_image(self):
        if self._image is not None:
            return self._image
        head = self._read(0, HEADER_BYTES)
        if head == self.header:
            self._image = True
        elif head == bytes(HEADER_BYTES) or head == b"\xff" * HEADER_BYTES:
            self._image = False
        else:
            if head[0:4] != NVM_MAGIC:
                why = "nvm holds no game saves (bad magic)"
            elif head[4] != NVM_VERSION:
                why = "nvm save format %d is not supported (expected %d)" % (
                    head[4], NVM_VERSION)
            else:
                n = 6 + 13 * head[5]
                if n + 2 > HEADER_BYTES or crc16(head, 0, n) != (head[n] << 8) | head[n + 1]:
                    why = "nvm header checksum mismatch"
                else:
                    why = "nvm layout differs from this version's"
            self._image = why
            self._note(why)
        return self._image

    def _slot(self, rec, k):
        """(state, seq, payload or reason) of slot k of record rec."""
        name, rid, off, slot = rec
        start = off + k * slot
        head = self._read(start, REC_HEAD)
        if head[0] in (0x00, 0xFF) and head[1] == head[0]:
            return _BLANK, 0, None  # never written, or removed
        if head[0] == 0x00:
            return _BLANK, 0, None  # removed (first byte zeroed)
        if head[0:2] != REC_MAGIC:
            return _DAMAGED, 0, "slot %d: not a record" % k
        if head[2] != REC_VERSION:
            return _DAMAGED, 0, "slot %d: record version %d" % (k, head[2])
        if head[3] != rid:
            return _DAMAGED, 0, "slot %d: record id %d, expected %d" % (k, head[3], rid)
        n = (head[6] << 8) | head[7]
        room = 2 * slot if k == 0 else slot  # slot 0 may span both
        if n + REC_OVERHEAD > room:
            return _DAMAGED, 0, "slot %d: length %d does not fit" % (k, n)
        data = self._read(start, REC_HEAD + n + 2)
        want = (data[-2] << 8) | data[-1]
        if crc16(data, 0, REC_HEAD + n) != want:
            return _DAMAGED, 0, "slot %d: checksum mismatch" % k
        return _VALID, (head[4] << 8) | head[5], data[REC_HEAD:REC_HEAD + n]

    @staticmethod
    def _newer(a, b):
        d = (a - b) & 0xFFFF
        return 0 < d < 0x8000

    def load(self, name, decode=None):
        """(value, message): the newest good save of `name` (decoded by
        `decode(payload)` when given) or None. Never raises."""
        self.reason = None
        rec = self._record(name)
        img = self._check_image()
        if img is not True:
            if img is False:
                return None, None
            return None, "Saved data was damaged; started fresh."
        try:
            slots = [self._slot(rec, 0), self._slot(rec, 1)]
        except Exception as e:  # a failing nvm read
            self._note("%s: cannot read nvm: %s" % (name, e))
            return None, "Saved data could not be read; started fresh."
        if slots[0][0] == _VALID and len(slots[0][2]) + REC_OVERHEAD > rec[3]:
            slots[1] = (_BLANK, 0, None)  # slot 0 spans both
        order = [k for k in (0, 1) if slots[k][0] == _VALID]
        if len(order) == 2 and self._newer(slots[1][1], slots[0][1]):
            order = [1, 0]
        for k in (0, 1):
            if slots[k][0] == _DAMAGED:
                self._note("%s: %s" % (name, slots[k][2]))
        if order:
            self._seq[name] = slots[order[0]][1]
        damaged = False
        for k in order:
            payload = slots[k][2]
            if decode is None:
                value = payload
            else:
                try:
                    value = decode(payload)
                except Exception as e:  # a decoder bug must not stop the boot
                    self._note("%s: slot %d contents rejected: %s" % (name, k, e))
                    damaged = True
                    continue
            self._last[name] = payload
            self._cur[name] = k
            if damaged:
                return value, "Save was damaged; resumed the one before."
            return value, None
        self._cur.pop(name, None)
        if damaged or _DAMAGED in (slots[0][0], slots[1][0]):
            return None, "Save was damaged; started fresh."
        return None, None

    # -- writing --
    def _write(self, start, data):
        self.writes += 1
        self.nvm[start:start + len(data)] = data

    def _format(self):
        """Write a fresh image: this layout's header, every slot erased."""
        self._write(0, self.header + b"\xff" * (self.size - HEADER_BYTES))
        self._image = True
        self._last = {}
        self._cur = {}
        self._seq = {}

    def _scan_slots(self, rec):
        name = rec[0]
        if name in self._seq or name in self._cur:
            return
        s0 = self._slot(rec, 0)
        s1 = self._slot(rec, 1)
        if s0[0] == _VALID:
            self._seq[name] = s0[1]
            self._cur[name] = 0
        if s1[0] == _VALID and (s0[0] != _VALID or self._newer(s1[1], s0[1])):
            self._seq[name] = s1[1]
            self._cur[name] = 1

    def save(self, name, payload):
        """Store payload as the new save of `name`. False when it equals the
        last one saved or loaded (nothing written), True when written.
        Raises OSError when it does not fit or the nvm refuses; the previous
        save is then still in place."""
        payload = bytes(payload)
        rec = self._record(name)
        if self._last.get(name) == payload:
            return False
        rname, rid, off, slot = rec
        n = len(payload)
        if n + REC_OVERHEAD > 2 * slot:
            raise NvmFull(28, "save %s is %d bytes; the nvm has room for %d"
                          % (name, n, 2 * slot - REC_OVERHEAD))
        if self._check_image() is not True:
            self._format()
        self._scan_slots(rec)
        cur = self._cur.get(name)
        if n + REC_OVERHEAD > slot:
            k = 0  # spans both slots
        elif cur is None:
            k = 0
        else:
            k = 1 - cur
        seq = (self._seq.get(name, 0) + 1) & 0xFFFF
        data = bytearray(REC_MAGIC)
        data.append(REC_VERSION)
        data.append(rid)
        data.append(seq >> 8)
        data.append(seq & 0xFF)
        data.append(n >> 8)
        data.append(n & 0xFF)
        data.extend(payload)
        c = crc16(data)
        data.append(c >> 8)
        data.append(c & 0xFF)
        start = off + k * slot
        self._cur.pop(name, None)  # unknown until the write is through
        self._last.pop(name, None)
        self._write(start, data)
        if self._read(start, len(data)) != bytes(data):
            raise OSError(5, "nvm write of %s did not verify" % name)
        self._seq[name] = seq
        self._cur[name] = k
        self._last[name] = payload
        return True

    def remove(self, name):
        """Delete the saves of `name` (both slots; older first)."""
        rec = self._record(name)
        self._last.pop(name, None)
        if self._check_image() is not True:
            return
        rname, rid, off, slot = rec
        self._cur.pop(name, None)
        self._seq.pop(name, None)
        s = [self._slot(rec, 0), self._slot(rec, 1)]
        ks = [k for k in (0, 1) if s[k][0] != _BLANK]
        if len(ks) == 2 and s[0][0] == _VALID and s[1][0] == _VALID and \
                self._newer(s[0][1], s[1][1]):
            ks = [1, 0]
        for k in ks:
            self._write(off + k * slot, b"\x00")


# -- the device ---------------------------------------------------------------------

def hw_seed():
    """A seed below 2**30 from the RP2040's random source."""
    try:
        import os

        b = os.urandom(4)
        return (b[0] << 22) | (b[1] << 14) | (b[2] << 6) | (b[3] >> 2)
    except Exception:
        return time.monotonic_ns() & 0x3FFFFFFF


def _print_exception(e):
    try:
        import traceback

        traceback.print_exception(e)
    except Exception:
        print(repr(e))


def run(app_factory=None, out=print, seed=None, i2c=None, keys=None, clock=None,
        nvm=None, max_steps=None, sleep=None):
    """Bring up the ports and play until Ctrl-C or an error. Returns the App
    (None if it could not be built)."""
    import gc

    if max_steps is None:
        max_steps = MAX_STEPS
    display, _ = open_display(i2c, out=out)
    if clock is None:
        clock = Clock()
    if keys is None:
        keys = make_keys()
    buttons = KeypadButtons(keys, clock)
    if nvm is None:
        import microcontroller

        nvm = microcontroller.nvm
    storage = NvmStorage(nvm)
    app = None
    try:
        if app_factory is None:
            from firmware.app import App as app_factory
        app = app_factory(display, buttons, clock, storage, sound=None,
                          seed=hw_seed() if seed is None else seed)
        for why in storage.damage:
            out("Save set aside: " + why)
        gc.collect()
        try:
            free = gc.mem_free()
        except AttributeError:  # CPython (tests)
            free = -1
        out("Game running (free memory %d bytes). Ctrl-C stops it." % free)
        steps = 0
        while True:
            ms = app.step()
            steps += 1
            if max_steps is not None and steps >= max_steps:
                break
            wait(buttons, clock, ms, sleep)
    except KeyboardInterrupt:
        out("Stopped by Ctrl-C. The REPL is free; press Ctrl-D to play again.")
    except MemoryError as e:
        _print_exception(e)
        out("The game ran out of memory. Press reset; the match was saved after the "
            "last completed turn.")
        show_lines(display, ("OUT OF MEMORY", "PRESS RESET"))
    except Exception as e:
        _print_exception(e)
        out("The game stopped with the error above. Press reset to play on: the match "
            "was saved after the last completed turn.")
        show_lines(display, ("ERROR", "PRESS RESET"))
    finally:
        try:
            keys.deinit()
        except Exception:
            pass
    return app
