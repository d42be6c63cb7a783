"""Frames on the link cable: what firmware/link/link.py sends and reads, byte by byte.

A frame on the wire (docs/LINK.md has the table):

    FLAG | TYPE SES SEQ LEN | payload (LEN bytes) | CRC hi, CRC lo

FLAG (0x7E) starts every frame and appears nowhere else: inside a frame a
0x7E or 0x7D byte is sent as 0x7D followed by the byte xor 0x20 (HDLC's
byte stuffing). So the reader never loses the frame boundaries for good:
garbage, a frame cut short or a corrupted length are dropped at the next
FLAG at the latest, and the next frame reads whole. The CRC is
CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF) over the four header
bytes and the payload, before stuffing.

`Reader.feed(byte)` is the per-byte path: it allocates nothing (one
preallocated buffer, small ints). `Writer.frame(...)` builds a frame in
its own preallocated buffer and returns how many bytes of it to write.
"""

from firmware.compat import const

FLAG = const(0x7E)
ESC = const(0x7D)
HEADER = const(4)           # TYPE SES SEQ LEN
MAX_PAYLOAD = const(200)    # a HELLO (version + rules line) fits with room
PRINT_LO = const(0x20)      # the text the other board sends: printable ASCII only,
PRINT_HI = const(0x7E)      # what the screens' fonts draw
QUOTE = const(0x22)

# CRC-16/CCITT-FALSE, four bits at a time (16 small ints, not 256).
_T = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
      0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc16(buf, n, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of buf[0:n] (check: b"123456789" -> 0x29B1)."""
    t = _T
    for i in range(n):
        b = buf[i]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b & 15)]
    return crc


def printable(buf, limit):
    """`buf` as a str when it is at most `limit` bytes, every one printable
    ASCII (0x20..0x7E, what the fonts draw); else None. Text from the other
    board (a HELLO's version and rules, a move) is checked here where it
    arrives: bytes that are not UTF-8, or UTF-8 beyond ASCII, never reach
    a decode or a drawing routine."""
    if len(buf) > limit:
        return None
    for b in buf:
        if b < PRINT_LO or b > PRINT_HI:
            return None
    return bytes(buf).decode()


def shown(buf, limit):
    """At most `limit` bytes of `buf` as a str to quote on the screen: each
    byte that is not printable ASCII, and each double quote (the other
    board's words cannot close the quote they are shown in), becomes '?'."""
    out = bytearray(buf[:limit])
    for i in range(len(out)):
        b = out[i]
        if b < PRINT_LO or b > PRINT_HI or b == QUOTE:
            out[i] = 63
    return bytes(out).decode()


class Reader:
    """Bytes in, whole checked frames out.

    feed(b) returns True when a frame is complete and its CRC right; its
    fields are then `kind`, `ses`, `seq`, `size` and the payload is
    buf[HEADER:HEADER + size] (valid until the next feed). `bad` counts
    frames dropped (bad CRC, impossible length, cut by a new FLAG);
    `noise` counts bytes outside any frame."""

    def __init__(self):
        self.buf = bytearray(HEADER + MAX_PAYLOAD + 2)
        self.n = -1            # -1: between frames, hunting for FLAG
        self.esc = False
        self.need = 0
        self.kind = 0
        self.ses = 0
        self.seq = 0
        self.size = 0
        self.bad = 0
        self.noise = 0

    def feed(self, b):
        if b == FLAG:
            if self.n > 0:
                self.bad += 1          # the frame before was cut short
            self.n = 0
            self.esc = False
            self.need = HEADER + 2
            return False
        n = self.n
        if n < 0:
            self.noise += 1
            return False
        if b == ESC:
            self.esc = True
            return False
        if self.esc:
            b ^= 0x20
            self.esc = False
        buf = self.buf
        buf[n] = b
        n += 1
        if n == HEADER:
            if b > MAX_PAYLOAD:
                self.bad += 1
                self.n = -1
                return False
            self.need = HEADER + b + 2
        if n < self.need:
            self.n = n
            return False
        self.n = -1
        m = n - 2
        if crc16(buf, m) != (buf[m] << 8) | buf[m + 1]:
            self.bad += 1
            return False
        self.kind = buf[0]
        self.ses = buf[1]
        self.seq = buf[2]
        self.size = buf[3]
        return True


class Writer:
    """Frames built into one preallocated buffer."""

    def __init__(self):
        self.raw = bytearray(HEADER + MAX_PAYLOAD + 2)
        self.out = bytearray(1 + 2 * len(self.raw))

    def frame(self, kind, ses, seq, payload=b""):
        """Build a frame; return its length in self.out (bytes 0..len-1)."""
        size = len(payload)
        if size > MAX_PAYLOAD:
            raise ValueError("a link message is at most %d bytes" % MAX_PAYLOAD)
        raw = self.raw
        raw[0] = kind
        raw[1] = ses
        raw[2] = seq
        raw[3] = size
        raw[HEADER:HEADER + size] = payload
        m = HEADER + size
        crc = crc16(raw, m)
        raw[m] = crc >> 8
        raw[m + 1] = crc & 255
        out = self.out
        out[0] = FLAG
        k = 1
        for i in range(m + 2):
            b = raw[i]
            if b == FLAG or b == ESC:
                out[k] = ESC
                out[k + 1] = b ^ 0x20
                k += 2
            else:
                out[k] = b
                k += 1
        return k
