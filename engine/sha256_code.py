"""SHA-256 (FIPS 180-4) in plain Python on 16-bit halves: the code
engine/sha256.py uses on a runtime without a hashlib (imported only there,
so a board with hashlib never holds these tables on its heap).

Every 32-bit word is two 16-bit halves, so every value stays a small int
(< 2**30) on a 32-bit MicroPython: no long integers. It allocates (lists
per block), which is fine for what calls it: a few hashes when a hand is
dealt or checked, never a hot path.
"""

# The constants as 16-bit halves, written as hex text so that no int
# literal reaches 2**30 on a 32-bit MicroPython.
_KH = None
_KL = None


def _halves(words_hex):
    hi = []
    lo = []
    for w in words_hex:
        hi.append(int(w[:4], 16))
        lo.append(int(w[4:], 16))
    return hi, lo


def _tables():
    global _KH, _KL
    if _KH is None:
        _KH, _KL = _halves(_K_HEX)
    return _KH, _KL


# the round constants and the initial hash (FIPS 180-4, 4.2.2 and 5.3.3)
_K_HEX = (
    "428A2F98", "71374491", "B5C0FBCF", "E9B5DBA5", "3956C25B", "59F111F1", "923F82A4", "AB1C5ED5",
    "D807AA98", "12835B01", "243185BE", "550C7DC3", "72BE5D74", "80DEB1FE", "9BDC06A7", "C19BF174",
    "E49B69C1", "EFBE4786", "0FC19DC6", "240CA1CC", "2DE92C6F", "4A7484AA", "5CB0A9DC", "76F988DA",
    "983E5152", "A831C66D", "B00327C8", "BF597FC7", "C6E00BF3", "D5A79147", "06CA6351", "14292967",
    "27B70A85", "2E1B2138", "4D2C6DFC", "53380D13", "650A7354", "766A0ABB", "81C2C92E", "92722C85",
    "A2BFE8A1", "A81A664B", "C24B8B70", "C76C51A3", "D192E819", "D6990624", "F40E3585", "106AA070",
    "19A4C116", "1E376C08", "2748774C", "34B0BCB5", "391C0CB3", "4ED8AA4A", "5B9CCA4F", "682E6FF3",
    "748F82EE", "78A5636F", "84C87814", "8CC70208", "90BEFFFA", "A4506CEB", "BEF9A3F7", "C67178F2",
)
_H0_HEX = ("6A09E667", "BB67AE85", "3C6EF372", "A54FF53A",
           "510E527F", "9B05688C", "1F83D9AB", "5BE0CD19")


def _rotr(hi, lo, r):
    """(hi, lo) of a 32-bit word rotated right by r (0 < r < 32)."""
    if r >= 16:
        hi, lo = lo, hi
        r -= 16
    if r == 0:
        return hi, lo
    m = (1 << r) - 1
    s = 16 - r
    return (hi >> r) | ((lo & m) << s), (lo >> r) | ((hi & m) << s)


def _shr(hi, lo, r):
    """(hi, lo) of a 32-bit word shifted right by r (0 < r < 16)."""
    m = (1 << r) - 1
    return hi >> r, (lo >> r) | ((hi & m) << (16 - r))


def _compress(hh, hl, block, kh, kl):
    wh = [0] * 64
    wl = [0] * 64
    for t in range(16):
        i = 4 * t
        wh[t] = (block[i] << 8) | block[i + 1]
        wl[t] = (block[i + 2] << 8) | block[i + 3]
    for t in range(16, 64):
        # s0 = rotr7 ^ rotr18 ^ shr3 of w[t-15]; s1 = rotr17 ^ rotr19 ^ shr10 of w[t-2]
        a, b = _rotr(wh[t - 15], wl[t - 15], 7)
        c, d = _rotr(wh[t - 15], wl[t - 15], 18)
        e, f = _shr(wh[t - 15], wl[t - 15], 3)
        s0h = a ^ c ^ e
        s0l = b ^ d ^ f
        a, b = _rotr(wh[t - 2], wl[t - 2], 17)
        c, d = _rotr(wh[t - 2], wl[t - 2], 19)
        e, f = _shr(wh[t - 2], wl[t - 2], 10)
        lo = (b ^ d ^ f) + s0l + wl[t - 16] + wl[t - 7]
        hi = (a ^ c ^ e) + s0h + wh[t - 16] + wh[t - 7] + (lo >> 16)
        wh[t] = hi & 0xFFFF
        wl[t] = lo & 0xFFFF
    ah, bh, ch, dh, eh, fh, gh, h_h = hh
    al, bl, cl, dl, el, fl, gl, h_l = hl
    for t in range(64):
        x1, y1 = _rotr(eh, el, 6)
        x2, y2 = _rotr(eh, el, 11)
        x3, y3 = _rotr(eh, el, 25)
        s1h = x1 ^ x2 ^ x3
        s1l = y1 ^ y2 ^ y3
        chh = (eh & fh) ^ (~eh & 0xFFFF & gh)
        chl = (el & fl) ^ (~el & 0xFFFF & gl)
        lo = h_l + s1l + chl + kl[t] + wl[t]
        hi = h_h + s1h + chh + kh[t] + wh[t] + (lo >> 16)
        t1h = hi & 0xFFFF
        t1l = lo & 0xFFFF
        x1, y1 = _rotr(ah, al, 2)
        x2, y2 = _rotr(ah, al, 13)
        x3, y3 = _rotr(ah, al, 22)
        s0h = x1 ^ x2 ^ x3
        s0l = y1 ^ y2 ^ y3
        mjh = (ah & bh) ^ (ah & ch) ^ (bh & ch)
        mjl = (al & bl) ^ (al & cl) ^ (bl & cl)
        lo = s0l + mjl
        hi = s0h + mjh + (lo >> 16)
        t2h = hi & 0xFFFF
        t2l = lo & 0xFFFF
        h_h, h_l = gh, gl
        gh, gl = fh, fl
        fh, fl = eh, el
        lo = dl + t1l
        eh = (dh + t1h + (lo >> 16)) & 0xFFFF
        el = lo & 0xFFFF
        dh, dl = ch, cl
        ch, cl = bh, bl
        bh, bl = ah, al
        lo = t1l + t2l
        ah = (t1h + t2h + (lo >> 16)) & 0xFFFF
        al = lo & 0xFFFF
    out_h = (ah, bh, ch, dh, eh, fh, gh, h_h)
    out_l = (al, bl, cl, dl, el, fl, gl, h_l)
    for i in range(8):
        lo = hl[i] + out_l[i]
        hh[i] = (hh[i] + out_h[i] + (lo >> 16)) & 0xFFFF
        hl[i] = lo & 0xFFFF


def digest(data):
    """The SHA-256 digest of `data` by this module's own code (32 bytes)."""
    kh, kl = _tables()
    hh, hl = _halves(_H0_HEX)
    n = len(data)
    msg = bytearray(data)
    msg.append(0x80)
    while len(msg) % 64 != 56:
        msg.append(0)
    bits_hi = n >> 29               # the length in bits, as 64 bits big-endian
    bits_lo = n & 0x1FFFFFFF        # (a message below 2**29 bytes)
    msg.extend(bytes((0, 0, 0, bits_hi & 255)))
    x = bits_lo << 3 if bits_lo < (1 << 26) else None
    if x is None:
        raise ValueError("sha256_py: message too long")
    msg.extend(bytes(((x >> 24) & 255, (x >> 16) & 255, (x >> 8) & 255, x & 255)))
    for off in range(0, len(msg), 64):
        _compress(hh, hl, msg[off:off + 64], kh, kl)
    out = bytearray(32)
    for i in range(8):
        out[4 * i] = hh[i] >> 8
        out[4 * i + 1] = hh[i] & 255
        out[4 * i + 2] = hl[i] >> 8
        out[4 * i + 3] = hl[i] & 255
    return bytes(out)
