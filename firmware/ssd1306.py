"""SSD1306 / SH1106 OLED driver over I2C that sends only what changed.

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

Spans are rounded up to a multiple of 4 columns so that the data can be sent
from a preallocated send buffer (control byte 0x40 at its head) through one
of 33 preallocated memoryviews: show() allocates nothing once running.

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
    def __init__(self, bus, addr=0x3C, width=128, height=64, sh1106=False,
                 flip=False, external_vcc=False, init=True):
        if width % 4 or height % 8:
            raise ValueError("width must be a multiple of 4, height of 8")
        self.bus = bus
        self.addr = addr
        self.width = width
        self.height = height
        self.pages = height >> 3
        self.sh1106 = sh1106
        self.flip = flip
        self.external_vcc = external_vcc
        self.col_offset = 2 if sh1106 else 0
        self.last_bytes = 0
        size = width * self.pages
        self._shadow = bytearray(size)
        self._shadow_pages = [memoryview(self._shadow)[p * width:(p + 1) * width]
                              for p in range(self.pages)]
        self._buf = None
        self._buf_pages = None
        self._valid = False
        self._first = bytearray(self.pages)
        self._last = bytearray(self.pages)
        # A page whose changes sit at both ends (a cursor wrapping from the
        # last card to the first) is sent as two spans: the right one here.
        self._first2 = bytearray(self.pages)
        self._last2 = bytearray(self.pages)
        tx = bytearray(width + 1)
        tx[0] = _CTRL_DATA
        self._tx = tx
        txm = memoryview(tx)
        # _views[k] = control byte + 4k data bytes
        self._views = [txm[:1 + 4 * k] for k in range(width // 4 + 1)]
        self._c1 = bytearray(2)  # control + one command
        self._c2 = bytearray(3)  # control + command + argument
        self._win = bytearray(7)  # control + 0x21 a b 0x22 p q
        self._win[1] = _SET_COL_WINDOW
        self._win[4] = _SET_PAGE_WINDOW
        self._pg = bytearray(4)  # control + 0xB0|p, column low, column high
        if init:
            self.init_display()

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
        if self.sh1106:
            seq.extend((_SET_DCDC, 0x8A if ext else 0x8B))
        else:
            seq.extend((_SET_CHARGE_PUMP, 0x10 if ext else 0x14,
                        _SET_MEM_MODE, 0x00,  # horizontal addressing
                        _SCROLL_OFF))
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
        number of bytes put on the bus."""
        if full or not self._valid:
            return self._send_full(buf)
        w = self.width
        npages = self.pages
        sh = self._shadow
        first = self._first
        last = self._last
        first2 = self._first2
        last2 = self._last2
        if buf is not self._buf:
            self._page_views(buf)
        bp = self._buf_pages
        spg = self._shadow_pages
        changed = 0
        split = 0
        for p in range(npages):
            first2[p] = _NONE
            if bp[p] == spg[p]:
                first[p] = _NONE
                continue
            base = p * w
            i = base
            while buf[i] == sh[i]:
                i += 1
            j = base + w - 1
            while buf[j] == sh[j]:
                j -= 1
            first[p] = i - base
            last[p] = j - base
            changed += 1
            # The longest unchanged stretch inside i..j: worth a second
            # window when it is longer than what a window costs.
            gap = 0
            gap_at = 0
            run = 0
            k = i + 1
            while k < j:
                if buf[k] == sh[k]:
                    run += 1
                else:
                    if run > gap:
                        gap = run
                        gap_at = k - run
                    run = 0
                k += 1
            if run > gap:
                gap = run
                gap_at = k - run
            if gap > _SPLIT_GAP:
                last[p] = gap_at - 1 - base
                first2[p] = gap_at + gap - base
                last2[p] = j - base
                split += 1
        if not changed:
            self.last_bytes = 0
            return 0
        self._valid = False  # until every write below has gone through
        if self.sh1106:
            n = self._send_pages_sh1106(buf, first, last)
            if split:
                n += self._send_pages_sh1106(buf, first2, last2)
        else:
            n = self._send_pages(buf, first, last)
            if split:
                n += self._send_pages(buf, first2, last2)
        self._valid = True
        self.last_bytes = n
        return n

    def _page_views(self, buf):
        # Once per new buffer object. (Kept out of show(): a comprehension
        # there would turn show's locals into closure cells, allocated on
        # every call.)
        self._buf = buf
        bm = memoryview(buf)
        w = self.width
        self._buf_pages = [bm[p * w:(p + 1) * w] for p in range(self.pages)]

    def _send_full(self, buf):
        w = self.width
        first = self._first
        last = self._last
        for p in range(self.pages):
            first[p] = 0
            last[p] = w - 1
        self._valid = False
        if self.sh1106:
            n = self._send_pages_sh1106(buf, first, last)
        else:
            n = self._send_pages(buf, first, last)
        self._valid = True
        self.last_bytes = n
        return n

    def _span(self, s, e):
        """Columns actually sent for changed columns s..e: length rounded up
        to a multiple of 4 (so a preallocated view fits)."""
        return (e - s + 4) & ~3

    def _send_page_data(self, buf, p, start, length):
        """Copy `length` columns of page p from buf into the send buffer and
        the shadow, and write them as one data transaction."""
        tx = self._tx
        sh = self._shadow
        i = p * self.width + start
        end = i + length
        k = 1
        while i < end:
            v = buf[i]
            tx[k] = v
            sh[i] = v
            i += 1
            k += 1
        self.bus.writeto(self.addr, self._views[length >> 2])
        return 2 + length

    def _send_pages(self, buf, first, last):
        # SSD1306, horizontal addressing: window per run of changed pages.
        w = self.width
        npages = self.pages
        off = self.col_offset
        win = self._win
        n = 0
        p = 0
        while p < npages:
            s = first[p]
            if s == _NONE:
                p += 1
                continue
            e = last[p]
            q = p
            length = self._span(s, e)
            while q + 1 < npages and first[q + 1] != _NONE:
                ns = first[q + 1]
                ne = last[q + 1]
                nlen = self._span(ns, ne)
                if ns > s:
                    ns = s
                if ne < e:
                    ne = e
                mlen = self._span(ns, ne)
                k = q - p + 1
                # merged: one window, k+1 pages of mlen; apart: a second window
                if (k + 1) * mlen > k * length + nlen + _WINDOW_COST:
                    break
                s = ns
                e = ne
                length = mlen
                q += 1
            start = s
            if start + length > w:
                start = w - length
            win[0] = _CTRL_CMD
            win[2] = start + off
            win[3] = start + length - 1 + off
            win[5] = p
            win[6] = q
            self.bus.writeto(self.addr, win)
            n += _WINDOW_COST
            while p <= q:
                n += self._send_page_data(buf, p, start, length)
                p += 1
        return n

    def _send_pages_sh1106(self, buf, first, last):
        # SH1106, page addressing: page and start column per changed page.
        w = self.width
        off = self.col_offset
        pg = self._pg
        pg[0] = _CTRL_CMD
        n = 0
        for p in range(self.pages):
            s = first[p]
            if s == _NONE:
                continue
            length = self._span(s, last[p])
            if s + length > w:
                s = w - length
            c = s + off
            pg[1] = _SET_PAGE | p
            pg[2] = c & 0x0F
            pg[3] = 0x10 | (c >> 4)
            self.bus.writeto(self.addr, pg)
            n += 5
            n += self._send_page_data(buf, p, s, length)
        return n
