"""CircuitPython display port: the game's 1 KB framebuffer on displayio.

The Adafruit driver `adafruit_displayio_ssd1306` (or
`adafruit_displayio_sh1106` when firmware/board/board.py says so) on
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

open_display() scans the bus, picks the address (0x3C or 0x3D), and, when
nothing usable answers, says what to check and returns a HeadlessDisplay.
displayio and bitmaptools are imported where used.
"""

import time

from firmware.board import board as cfg
from firmware.compat import const
from firmware.port_common import HeadlessDisplay, bus_error, display_address

from cphw import pin

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
    kind = cfg.DISPLAY_TYPE.upper()     # the controller's name: its displayio driver below
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
