"""SSD1306 / SH1106 OLED driver over I2C that sends only what changed.

A display controller is a named value ("ssd1306", "sh1106": the settings
file's "display", firmware.board.board.DISPLAY_TYPES) with its own driver class:
SSD1306, and SH1106, its subclass, which differs in its supply command and
its addressing (driver() gives the class of a name).

The bus is passed in (anything with `writeto(addr, buf)`: machine.I2C,
SoftI2C, or a host fake), so this module never imports `machine`.

`show(buf)` takes the 1024-byte MONO_VLSB framebuffer (fb.Canvas.buf) and
compares it with a shadow copy of what the panel holds. For each 8-row page
it finds the first and last changed column and sends only that span:

* SSD1306: horizontal addressing mode; a column/page window (0x21, 0x22) is
  set once for a run of adjacent changed pages (merged when that costs fewer
  bytes), then each page's span goes out as one data transaction.
* SH1106: 132-column RAM showing columns 2..129 and page addressing only:
  per changed page, set the page (0xB0 | p) and the start column (low and
  high nibble commands), then send the span.

The comparison is done in C where it can be: a whole page, then 16-column
chunks of a changed page, through preallocated memoryviews (== on two
memoryviews compares their bytes); only the edges of the changed chunks
are searched byte by byte. An unchanged stretch of a page that spans at
least one whole chunk and is longer than _SPLIT_GAP splits the page into
two spans (a cursor wrapping from the last card to the first). Data goes
out from a staging buffer that a page is copied into with one slice
assignment (so the span starts at a fixed offset, after the 0x40 control
byte), through one of 33 preallocated memoryviews (span lengths rounded up
to a multiple of 4 columns); the shadow takes each sent page the same way.
show() allocates nothing once running.

Every show() returns the bytes it put on the bus (address byte + control +
commands + data; also kept in `last_bytes`), for benchmarks. After a bus
error the next show() resends everything.
"""

from firmware.compat import const

# Commands (SSD1306 datasheet section 9 / SH1106 datasheet section 9)
_SET_MEM_MODE = const(0x20)
_SET_COL_WINDOW = const(0x21)
_SET_PAGE_WINDOW = const(0x22)
_SCROLL_OFF = const(0x2E)
_SET_START_LINE = const(0x40)
_SET_CONTRAST = const(0x81)
_SET_CHARGE_PUMP = const(0x8D)
_SET_SEG_REMAP = const(0xA0)
_ENTIRE_OFF = const(0xA4)
_SET_NORMAL = const(0xA6)
_SET_INVERSE = const(0xA7)
_SET_MUX = const(0xA8)
_SET_DCDC = const(0xAD)
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_SET_PAGE = const(0xB0)
_SET_COM_SCAN = const(0xC0)
_COM_SCAN_DEC = const(0x08)
_SET_OFFSET = const(0xD3)
_SET_CLOCK = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_COM_PINS = const(0xDA)
_SET_VCOMH = const(0xDB)

_CTRL_CMD = const(0x00)  # Co=0 D/C#=0: the rest of the transaction is commands
_CTRL_DATA = const(0x40)  # Co=0 D/C#=1: the rest is display data

_NONE = const(255)  # "page unchanged" marker in the first/last arrays
_WINDOW_COST = const(8)  # address + control + 0x21 a b 0x22 p q
_SPLIT_GAP = const(16)   # unchanged columns that make a second span worth it
_CHUNK = const(16)       # columns compared at once (memoryview ==)

ADDRESSES = (0x3C, 0x3D)


def detect(bus, preferred=0x3C):
    """Return the address of an OLED controller on `bus` (by `bus.scan()`),
    `preferred` first, then the other usual one; -1 if none answers."""
    found = bus.scan()
    if preferred in found:
        return preferred
    for a in ADDRESSES:
        if a in found:
            return a
    return -1


class SSD1306:
    controller = "ssd1306"
    col_offset = 0        # the panel's first column in the controller's RAM

    def __init__(self, bus, addr=0x3C, width=128, height=64, flip=False,
                 external_vcc=False, init=True):
        if width % 4 or height % 8:
            raise ValueError("width must be a multiple of 4, height of 8")
        self.bus = bus
        self.addr = addr
        self.width = width
        self.height = height
        self.pages = height >> 3
        self.flip = flip
        self.external_vcc = external_vcc
        self.last_bytes = 0
        size = width * self.pages
        self._shadow = bytearray(size)
        self._shadow_pages = self._views(self._shadow, width)
        self._shadow_chunks = self._views(self._shadow, _CHUNK)
        self._nchunks = (width + _CHUNK - 1) // _CHUNK
        self._buf = None
        self._buf_pages = None
        self._buf_chunks = None
        self._valid = False
        self._first = bytearray(self.pages)
        self._last = bytearray(self.pages)
        # A page whose changes sit at both ends (a cursor wrapping from the
        # last card to the first) is sent as two spans: the right one here.
        self._first2 = bytearray(self.pages)
        self._last2 = bytearray(self.pages)
        # Staging: a page is copied to stage[width - start:2 * width - start]
        # so that column `start` lands at index width, after the control
        # byte at width - 1; _tx[k] sends the control byte and 4k columns.
        stage = bytearray(2 * width)
        self._stage = stage
        self._stage_mv = memoryview(stage)
        self._tx = [self._stage_mv[width - 1:width + 4 * k] for k in range(width // 4 + 1)]
        self._c1 = bytearray(2)  # control + one command
        self._c2 = bytearray(3)  # control + command + argument
        self._win = bytearray((_CTRL_CMD, _SET_COL_WINDOW, 0, 0, _SET_PAGE_WINDOW, 0, 0))
        self._pg = bytearray(4)  # control (0: commands) + 0xB0|p, column low, column high
        if init:
            self.init_display()

    def _views(self, buf, n):
        """Memoryviews of `buf`, n bytes each within a page (the last of a
        page may be shorter): the units show() compares in C."""
        mv = memoryview(buf)
        w = self.width
        out = []
        for base in range(0, len(buf), w):
            for i in range(0, w, n):
                out.append(mv[base + i:base + (i + n if i + n < w else w)])
        return out

    # -- commands --
    def _cmd(self, c):
        b = self._c1
        b[1] = c
        self.bus.writeto(self.addr, b)

    def _cmd_arg(self, c, a):
        b = self._c2
        b[1] = c
        b[2] = a
        self.bus.writeto(self.addr, b)

    def init_sequence(self):
        """The power-on command bytes (without the control byte)."""
        h = self.height
        ext = self.external_vcc
        seq = bytearray((
            _DISPLAY_OFF,
            _SET_CLOCK, 0x80,  # divide ratio 1, oscillator default
            _SET_MUX, h - 1,
            _SET_OFFSET, 0x00,
            _SET_START_LINE | 0,
        ))
        self._supply(seq, ext)
        seq.extend((
            _SET_SEG_REMAP | (0 if self.flip else 1),  # column 0 at the left
            _SET_COM_SCAN | (0 if self.flip else _COM_SCAN_DEC),  # row 0 on top
            _SET_COM_PINS, 0x12 if h > 32 else 0x02,
            _SET_CONTRAST, 0x9F if ext else 0xCF,
            _SET_PRECHARGE, 0x22 if ext else 0xF1,
            _SET_VCOMH, 0x30,
            _ENTIRE_OFF,
            _SET_NORMAL,
        ))
        return seq

    def _supply(self, seq, ext):
        """The supply and addressing commands of the init sequence."""
        seq.extend((_SET_CHARGE_PUMP, 0x10 if ext else 0x14,
                    _SET_MEM_MODE, 0x00,  # horizontal addressing
                    _SCROLL_OFF))

    def init_display(self):
        """Configure the controller, clear its RAM and turn the panel on."""
        seq = self.init_sequence()
        msg = bytearray(1 + len(seq))
        msg[0] = _CTRL_CMD
        for i in range(len(seq)):
            msg[1 + i] = seq[i]
        self.bus.writeto(self.addr, msg)
        for i in range(len(self._shadow)):
            self._shadow[i] = 0
        self._send_full(self._shadow)
        self._cmd(_DISPLAY_ON)

    def power(self, on):
        self._cmd(_DISPLAY_ON if on else _DISPLAY_OFF)

    def contrast(self, value):
        """0..255; lower is dimmer (burn-in protection, night use)."""
        self._cmd_arg(_SET_CONTRAST, value & 0xFF)

    def invert(self, on):
        self._cmd(_SET_INVERSE if on else _SET_NORMAL)

    def rotate(self, flip):
        """Turn the picture 180 degrees (panel mounted upside down); the RAM
        keeps its content, so the next show() needs no full resend."""
        self.flip = flip
        self._cmd(_SET_SEG_REMAP | (0 if flip else 1))
        self._cmd(_SET_COM_SCAN | (0 if flip else _COM_SCAN_DEC))

    # -- frames --
    def invalidate(self):
        """Forget what the panel shows: the next show() sends everything."""
        self._valid = False

    def show(self, buf, full=False):
        """Send what changed in `buf` since the last show(); everything when
        `full` (or after init, a bus error or invalidate()). Returns the
        number of bytes put on the bus. (One long function: on the device a
        Python call costs about as much as comparing a dozen columns.)"""
        if full or not self._valid:
            return self._send_full(buf)
        if buf is not self._buf:
            self._page_views(buf)
        npages = self.pages
        w = self.width
        nc = self._nchunks
        sh = self._shadow
        bp = self._buf_pages
        spg = self._shadow_pages
        bc = self._buf_chunks
        sc = self._shadow_chunks
        first = self._first
        last = self._last
        first2 = self._first2
        last2 = self._last2
        changed = 0
        split = 0
        for p in range(npages):
            first2[p] = _NONE
            if bp[p] == spg[p]:
                first[p] = _NONE
                continue
            changed += 1
            base = p * w
            k0 = p * nc
            # The first and last changed chunk (== on memoryviews: in C),
            # then the first and last changed column in them.
            a = 0
            while bc[k0 + a] == sc[k0 + a]:
                a += 1
            z = nc - 1
            while bc[k0 + z] == sc[k0 + z]:
                z -= 1
            i = base + a * _CHUNK
            while buf[i] == sh[i]:
                i += 1
            e = base + z * _CHUNK + len(bc[k0 + z]) - 1
            while buf[e] == sh[e]:
                e -= 1
            first[p] = i - base
            last[p] = e - base
            if z - a < 2:
                continue
            # The longest run of unchanged chunks between a and z, widened
            # by the unchanged columns at the edges of its neighbours: two
            # spans around it when it is longer than _SPLIT_GAP.
            gap = 0
            gap_at = 0
            c = a + 1
            while c < z:
                if bc[k0 + c] == sc[k0 + c]:
                    d = c + 1
                    while bc[k0 + d] == sc[k0 + d]:
                        d += 1
                    if d - c > gap:
                        gap = d - c
                        gap_at = c
                    c = d
                c += 1
            if not gap:
                continue
            g0 = base + gap_at * _CHUNK
            while buf[g0 - 1] == sh[g0 - 1]:
                g0 -= 1
            g1 = base + (gap_at + gap) * _CHUNK
            while buf[g1] == sh[g1]:
                g1 += 1
            if g1 - g0 > _SPLIT_GAP:
                last[p] = g0 - 1 - base
                first2[p] = g1 - base
                last2[p] = e - base
                split += 1
        if not changed:
            self.last_bytes = 0
            return 0
        self._valid = False  # until every write below has gone through
        n = self._send_pages(bp, first, last)
        if split:
            n += self._send_pages(bp, first2, last2)
        for p in range(npages):
            if first[p] != _NONE:
                spg[p][:] = bp[p]
        self._valid = True
        self.last_bytes = n
        return n

    def _page_views(self, buf):
        # Once per new buffer object. (Kept out of show(): a comprehension
        # there would turn show's locals into closure cells, allocated on
        # every call.)
        # (made before they are kept: a show() under a locked heap that
        # fails here is made again whole, unlocked: firmware.app._paint)
        pages = self._views(buf, self.width)
        self._buf_chunks = self._views(buf, _CHUNK)
        self._buf_pages = pages
        self._buf = buf

    def _send_full(self, buf):
        w = self.width
        first = self._first
        last = self._last
        for p in range(self.pages):
            first[p] = 0
            last[p] = w - 1
        self._valid = False
        if buf is self._shadow:
            pages = self._shadow_pages     # init: the cleared shadow itself
        else:
            if buf is not self._buf:
                self._page_views(buf)
            pages = self._buf_pages
        n = self._send_pages(pages, first, last)
        if pages is not self._shadow_pages:
            spg = self._shadow_pages
            for p in range(self.pages):
                spg[p][:] = pages[p]
        self._valid = True
        self.last_bytes = n
        return n

    def _send_pages(self, pages, first, last):
        """SSD1306, horizontal addressing: a window per run of changed pages
        (merged while one window over them costs fewer bytes than two),
        then each page's span: the page is copied (one slice assignment,
        in C) so that the span starts right after the control byte, and the
        preallocated view of that length is written. Spans are rounded up
        to a multiple of 4 columns."""
        w = self.width
        w2 = w + w
        npages = self.pages
        off = self.col_offset
        win = self._win
        bus = self.bus
        addr = self.addr
        stage = self._stage
        stage_mv = self._stage_mv
        tx = self._tx
        n = 0
        p = 0
        while p < npages:
            s = first[p]
            if s == _NONE:
                p += 1
                continue
            e = last[p]
            q = p
            length = (e - s + 4) & ~3
            while q + 1 < npages:
                ns = first[q + 1]
                if ns == _NONE:
                    break
                ne = last[q + 1]
                nlen = (ne - ns + 4) & ~3
                if ns > s:
                    ns = s
                if ne < e:
                    ne = e
                mlen = (ne - ns + 4) & ~3
                k = q - p + 1
                # merged: one window, k+1 pages of mlen; apart: a second window
                if (k + 1) * mlen > k * length + nlen + _WINDOW_COST:
                    break
                s = ns
                e = ne
                length = mlen
                q += 1
            if s + length > w:
                s = w - length
            win[2] = s + off
            win[3] = s + length - 1 + off
            win[5] = p
            win[6] = q
            bus.writeto(addr, win)
            view = tx[length >> 2]
            n += _WINDOW_COST + (q - p + 1) * (2 + length)
            while p <= q:
                stage_mv[w - s:w2 - s] = pages[p]
                stage[w - 1] = _CTRL_DATA
                bus.writeto(addr, view)
                p += 1
        return n



class SH1106(SSD1306):
    """The 1.3" modules sold as SSD1306: 132-column RAM showing columns
    2..129, a DC-DC supply instead of the charge pump, page addressing
    only."""

    controller = "sh1106"
    col_offset = 2

    def _supply(self, seq, ext):
        seq.extend((_SET_DCDC, 0x8A if ext else 0x8B))

    def _send_pages(self, pages, first, last):
        """Page addressing: page and start column per changed page, then
        its span as in SSD1306._send_pages."""
        w = self.width
        w2 = w + w
        off = self.col_offset
        pg = self._pg
        bus = self.bus
        addr = self.addr
        stage = self._stage
        stage_mv = self._stage_mv
        n = 0
        for p in range(self.pages):
            s = first[p]
            if s == _NONE:
                continue
            length = (last[p] - s + 4) & ~3
            if s + length > w:
                s = w - length
            c = s + off
            pg[1] = _SET_PAGE | p
            pg[2] = c & 0x0F
            pg[3] = 0x10 | (c >> 4)
            bus.writeto(addr, pg)
            stage_mv[w - s:w2 - s] = pages[p]
            stage[w - 1] = _CTRL_DATA
            bus.writeto(addr, self._tx[length >> 2])
            n += 7 + length
        return n



def driver(controller):
    """The driver class of a controller's name; ValueError for another."""
    for cls in (SSD1306, SH1106):
        if cls.controller == controller:
            return cls
    raise ValueError("no display controller %r" % (controller,))
