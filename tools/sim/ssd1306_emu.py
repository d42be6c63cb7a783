"""An SSD1306 / SH1106 controller emulator: I2C bytes in, pixels out.

Feed it each I2C write transaction (the bytes after the address byte) with
`write(data)`; it keeps the controller's display RAM and state the way the
datasheets describe, and `image()` gives the picture a viewer would see as a
128x64 MONO_VLSB bytearray (the same layout as fb.Canvas.buf), so a test can
compare what the driver sent with what was drawn.

Protocol (SSD1306 datasheet 8.1.5.2): each transaction is a sequence of
control bytes. Co=1 (0x80 / 0xC0): exactly one command (D/C#=0) or data
(D/C#=1) byte follows, then another control byte. Co=0 (0x00 / 0x40): every
remaining byte of the transaction is commands, or display data.

Modelled: memory addressing modes (0x20: horizontal, vertical, page), column
and page windows (0x21, 0x22), page-mode pointers (0xB0-0xB7, 0x00-0x0F,
0x10-0x1F), display on/off, contrast, normal/inverse, entire display on,
segment remap (0xA0/0xA1), COM scan direction (0xC0/0xC8), multiplex ratio,
display offset, start line, and the argument counts of every multi-byte
command (scrolling, charge pump, clocks...), so arguments are never taken for
commands. Unknown command bytes are recorded in `unknown`.

Orientation: modules are wired so that the usual setup (0xA1 remap, 0xC8
COM scan) shows RAM column 0 / row 0 at the top-left; `image()` assumes that
wiring, so 0xA0 mirrors the picture left-right and 0xC0 upside down.

SH1106 mode: 132-column RAM of which columns 2..129 are visible, page
addressing only (0x20-0x22 are not SH1106 commands and land in `unknown`),
0xAD takes one argument (DC-DC), 0x30-0x33 set the pump voltage.

Not modelled: scrolling itself (recorded, not animated), fade/zoom, reads.
"""

# Argument counts of multi-byte commands.
_ARGS_SSD1306 = {
    0x20: 1,  # memory addressing mode
    0x21: 2,  # column address window
    0x22: 2,  # page address window
    0x26: 6, 0x27: 6,  # horizontal scroll setup
    0x29: 5, 0x2A: 5,  # vertical and horizontal scroll setup
    0x2C: 6, 0x2D: 6,  # content scroll (SSD1306B)
    0x81: 1,  # contrast
    0x8D: 1,  # charge pump
    0xA3: 2,  # vertical scroll area
    0xA8: 1,  # multiplex ratio
    0xAD: 1,  # internal IREF (SSD1306B)
    0xD3: 1,  # display offset
    0xD5: 1,  # clock divide / oscillator
    0xD6: 1,  # zoom in (SSD1306B)
    0xD9: 1,  # pre-charge period
    0xDA: 1,  # COM pins configuration
    0xDB: 1,  # VCOMH deselect level
}

_ARGS_SH1106 = {
    0x81: 1,  # contrast
    0xA8: 1,  # multiplex ratio
    0xAD: 1,  # DC-DC control
    0xD3: 1,  # display offset
    0xD5: 1,  # clock divide / oscillator
    0xD9: 1,  # discharge / pre-charge period
    0xDA: 1,  # COM pads configuration
    0xDB: 1,  # VCOM deselect level
}

HORIZONTAL = 0
VERTICAL = 1
PAGE = 2


class SSD1306Emu:
    def __init__(self, width=128, height=64, sh1106=False):
        self.width = width
        self.height = height
        self.sh1106 = sh1106
        self.ram_width = 132 if sh1106 else width
        self.col_offset = 2 if sh1106 else 0
        self.pages = 8  # the controller always has 8 pages of RAM
        self.args = _ARGS_SH1106 if sh1106 else _ARGS_SSD1306
        self.reset()

    def reset(self):
        """The state after a hardware reset (datasheet reset values)."""
        self.ram = bytearray(self.ram_width * self.pages)
        self.mode = PAGE
        self.col_start = 0
        self.col_end = self.ram_width - 1
        self.page_start = 0
        self.page_end = self.pages - 1
        self.col = 0
        self.page = 0
        self.display_on = False
        self.contrast = 0x7F if not self.sh1106 else 0x80
        self.inverse = False
        self.entire_on = False
        self.seg_remap = False
        self.com_reverse = False
        self.mux = 63
        self.offset = 0
        self.start_line = 0
        self.charge_pump = None
        self.scrolling = False
        self.settings = {}  # last arguments of other multi-byte commands
        self.unknown = []  # command bytes this controller does not know
        self.commands = 0  # command bytes (with arguments) received
        self.data_bytes = 0
        self.transactions = 0
        self._pending = None  # (command, args so far) awaiting arguments

    # -- the bus side --
    def write(self, data):
        """Process one I2C write transaction (bytes after the address)."""
        self.transactions += 1
        data = bytes(data)
        i = 0
        n = len(data)
        while i < n:
            ctrl = data[i]
            i += 1
            is_data = ctrl & 0x40
            if ctrl & 0x80:  # Co=1: one byte, then another control byte
                if i < n:
                    if is_data:
                        self._data(data[i])
                    else:
                        self._command_byte(data[i])
                    i += 1
            else:  # Co=0: the rest is one stream
                while i < n:
                    if is_data:
                        self._data(data[i])
                    else:
                        self._command_byte(data[i])
                    i += 1

    # -- commands --
    def _command_byte(self, b):
        self.commands += 1
        if self._pending is not None:
            cmd, got = self._pending
            got.append(b)
            if len(got) == self.args[cmd]:
                self._pending = None
                self._command(cmd, got)
            return
        if b in self.args:
            self._pending = (b, [])
            return
        self._command(b, [])

    def _command(self, c, a):
        sh = self.sh1106
        if c == 0x81:
            self.contrast = a[0]
        elif c == 0xAE:
            self.display_on = False
        elif c == 0xAF:
            self.display_on = True
        elif c == 0xA6:
            self.inverse = False
        elif c == 0xA7:
            self.inverse = True
        elif c == 0xA4:
            self.entire_on = False
        elif c == 0xA5:
            self.entire_on = True
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xC0, 0xC8):
            self.com_reverse = c == 0xC8
        elif c == 0xA8:
            self.mux = max(15, a[0] & 0x3F)
        elif c == 0xD3:
            self.offset = a[0] & 0x3F
        elif 0x40 <= c <= 0x7F:
            self.start_line = c & 0x3F
        elif 0xB0 <= c <= 0xB7:
            if sh or self.mode == PAGE:
                self.page = c & 0x07
        elif c <= 0x0F:  # column start, low nibble
            if sh or self.mode == PAGE:
                self.col = (self.col & 0xF0) | c
        elif c <= 0x1F:  # column start, high nibble
            if sh or self.mode == PAGE:
                self.col = (((c & 0x0F) << 4) | (self.col & 0x0F)) % self.ram_width
        elif not sh and c == 0x20:
            m = a[0] & 0x03
            if m == 3:
                self.unknown.append((c, m))
            else:
                self.mode = m
        elif not sh and c == 0x21:
            self.col_start = a[0] & 0x7F
            self.col_end = a[1] & 0x7F
            self.col = self.col_start
        elif not sh and c == 0x22:
            self.page_start = a[0] & 0x07
            self.page_end = a[1] & 0x07
            self.page = self.page_start
        elif not sh and c == 0x8D:
            self.charge_pump = bool(a[0] & 0x04)
            self.settings[c] = tuple(a)
        elif not sh and c == 0x2E:
            self.scrolling = False
        elif not sh and c == 0x2F:
            self.scrolling = True
        elif sh and c == 0xAD:
            self.charge_pump = bool(a[0] & 0x01)
            self.settings[c] = tuple(a)
        elif sh and 0x30 <= c <= 0x33:
            self.settings[0x30] = (c & 0x03,)
        elif sh and c in (0xE0, 0xEE):
            pass  # read-modify-write start / end (only matters for reads)
        elif c == 0xE3:
            pass  # NOP
        elif c in self.args:
            self.settings[c] = tuple(a)
        else:
            self.unknown.append(c)

    # -- display data --
    def _data(self, b):
        self.data_bytes += 1
        if 0 <= self.col < self.ram_width:
            self.ram[self.page * self.ram_width + self.col] = b
        if self.sh1106:
            # Page addressing: the column pointer advances, the page stays.
            if self.col < self.ram_width - 1:
                self.col += 1
            return
        if self.mode == PAGE:
            self.col += 1
            if self.col > 127:
                self.col = self.col_start
        elif self.mode == HORIZONTAL:
            if self.col >= self.col_end:
                self.col = self.col_start
                if self.page >= self.page_end:
                    self.page = self.page_start
                else:
                    self.page += 1
            else:
                self.col += 1
        else:  # VERTICAL
            if self.page >= self.page_end:
                self.page = self.page_start
                if self.col >= self.col_end:
                    self.col = self.col_start
                else:
                    self.col += 1
            else:
                self.page += 1

    # -- the viewer's side --
    def ram_pixel(self, col, row):
        return (self.ram[(row >> 3) * self.ram_width + col] >> (row & 7)) & 1

    def image(self):
        """The visible picture, width x height, as a MONO_VLSB bytearray."""
        w = self.width
        h = self.height
        out = bytearray(w * ((h + 7) >> 3))
        if not self.display_on:
            return out
        if self.entire_on:
            for i in range(len(out)):
                out[i] = 0xFF
            return out
        rows = self.mux + 1
        inv = 1 if self.inverse else 0
        off = self.col_offset
        for y in range(h):
            # panel row y is driven by COM y (COM scan reversed) or COM
            # rows-1-y; the displayed RAM row is shifted by start line and
            # display offset.
            com = y if self.com_reverse else (h - 1 - y)
            if com >= rows:
                continue
            row = (com + self.start_line + self.offset) & 63
            for x in range(w):
                if self.seg_remap:
                    col = x + off
                else:
                    col = (self.ram_width - 1 - off) - x
                v = self.ram_pixel(col, row) ^ inv
                if v:
                    out[(y >> 3) * w + x] |= 1 << (y & 7)
        return out

    def to_png(self, path, scale=4, **kw):
        from tools.sim import render

        return render.to_png(self.image(), path, scale=scale, width=self.width,
                             height=self.height, **kw)

    def to_text(self):
        from tools.sim import render

        return render.to_text(self.image(), self.width, self.height)
