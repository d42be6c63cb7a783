"""The screen as text on the serial console.

Used when no display answers on I2C (headless): the game goes on, each
changed frame is printed on the serial console (what `mpremote` shows) and
keys typed there act as the six buttons.

Frames (TextView): the 128x64 picture as 32 lines of 128 characters, two
pixel rows per character, inside a border, then a legend:

  "blocks" (default): the simulator's rendering (tools/render.to_text),
           UTF-8 half blocks: ' ' none, '\u2580' upper, '\u2584' lower,
           '\u2588' both. mpremote, and the terminals of Linux, macOS and
           Windows 10+ show them.
  "ascii": ' ' none, "'" upper, ',' lower, '#' both: for a serial console
           that shows UTF-8 as garbage (older Windows consoles, some serial
           monitors). About a third of the bytes of "blocks".

A frame is printed only when it differs from the last one printed. Lines end
in CR LF (the console is raw: a bare LF would not return the carriage). The
terminal needs 130 columns and 35 rows to show a whole frame. show()
allocates nothing on MicroPython (the stream's write(buf, n)); it takes
roughly 4 KB (ascii) to 12 KB (blocks) of serial output per frame.

Keys typed there: firmware/pico/consolekeys.py (imported on its own, so a
board with a display never loads this module).
"""

import sys

from firmware.compat import const

try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython
    heap_lock = heap_unlock = None

W = const(128)
H = const(64)
ROWS = const(32)

LEGEND = (b"keys: arrows move, z/Enter/space = A, x/Backspace = B, Z/X = hold A/B;"
          b" Ctrl-C stops the game")

# UTF-8 of U+2580 upper half, U+2584 lower half, U+2588 full block share
# the first two bytes.
_U8A = const(0xE2)
_U8B = const(0x96)
_BLOCK3 = b"\x80\x84\x88"   # third byte, by (upper, lower) = (1,0) (0,1) (1,1)
_ASCII = b" ,'#"            # by upper * 2 + lower


def _writer():
    """write(buf, n): the first n bytes of buf to stdout, unconverted."""
    out = getattr(sys.stdout, "buffer", None)
    if out is None:
        def w(b, n):
            sys.stdout.write(bytes(b[:n]).decode())
        return w, getattr(sys.stdout, "flush", None)
    if sys.implementation.name == "micropython":
        return out.write, None   # stream write(buf, max_len): no slice
    def w(b, n):
        out.write(memoryview(b)[:n])
    return w, out.flush


class TextView:
    """show(buf): print the 1024-byte MONO_VLSB framebuffer as text if it
    changed since the last frame printed. `write(buf, n)` defaults to raw
    stdout; `footer` is a list of extra lines (bytes) under the legend."""

    def __init__(self, style="blocks", write=None, flush=None, footer=()):
        if style not in ("blocks", "ascii"):
            raise ValueError("text style must be 'blocks' or 'ascii', not %r" % (style,))
        self.ascii = style == "ascii"
        if write is None:
            write, flush = _writer()
        self.write = write
        self.flush = flush
        self.last = bytearray(W * ROWS // 4)   # the frame last printed
        self.printed = 0                       # frames printed
        self.line = bytearray(3 + W * 3 + 3 + 2)
        if self.ascii:
            top = b"+" + b"-" * W + b"+\r\n"
            self.bottom = top
            self.side = b"|"
        else:
            top = "\u250c".encode() + "\u2500".encode() * W + "\u2510\r\n".encode()
            self.bottom = "\u2514".encode() + "\u2500".encode() * W + "\u2518\r\n".encode()
            self.side = "\u2502".encode()
        self.top = top
        tail = LEGEND + b"\r\n"
        for ln in footer:
            tail += bytes(ln) + b"\r\n"
        self.tail = tail

    def show(self, buf, full=False):
        """Print the frame unless it is the one printed last (or `full`).
        Returns the bytes written."""
        last = self.last
        if self.printed and not full and buf == last:
            return 0
        i = 0
        while i < 1024:
            last[i] = buf[i]
            i += 1
        if heap_lock is None:
            return self._print(buf)
        # Printed with the heap locked: the button sampler's timer ticks
        # between these bytecodes, and each of its calls with more than 11
        # words of frame takes the frame from the heap when it can. On the
        # heap a new match leaves (the .mpy bundle, cut into short runs)
        # none was long enough, so every call collected the heap first and
        # a frame took 14 s to print instead of 0.2 s. Locked, the frames
        # are on the C stack; printing allocates nothing.
        heap_lock()
        try:
            return self._print(buf)
        finally:
            heap_unlock()

    def _print(self, buf):
        w = self.write
        n = len(self.top)
        w(self.top, n)
        line = self.line
        side = self.side
        ns = len(side)
        ascii = self.ascii
        row = 0
        while row < ROWS:
            k = 0
            while k < ns:
                line[k] = side[k]
                k += 1
            base = (row >> 2) * W
            sh = (row & 3) * 2
            x = 0
            while x < W:
                v = (buf[base + x] >> sh) & 3   # bit 0 upper, bit 1 lower
                if ascii:
                    line[k] = _ASCII[((v & 1) << 1) | (v >> 1)]
                    k += 1
                elif v == 0:
                    line[k] = 32
                    k += 1
                else:
                    line[k] = _U8A
                    line[k + 1] = _U8B
                    line[k + 2] = _BLOCK3[v - 1]
                    k += 3
                x += 1
            j = 0
            while j < ns:
                line[k] = side[j]
                k += 1
                j += 1
            line[k] = 13
            line[k + 1] = 10
            k += 2
            w(line, k)
            n += k
            row += 1
        w(self.bottom, len(self.bottom))
        w(self.tail, len(self.tail))
        n += len(self.bottom) + len(self.tail)
        if self.flush is not None:
            self.flush()
        self.printed += 1
        return n
