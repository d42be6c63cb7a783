"""Deterministic random numbers identical on every runtime.

L'Ecuyer's combined generator for 16-bit machines (CACM 31(6), 1988): three
multiplicative generators with moduli 32363, 31727 and 31657, combined by
difference. Every product stays below 2**23, so the state and all
intermediate values are small ints on a 32-bit MicroPython (< 2**30), and the
same seed gives the same numbers on CPython, the unix and the WebAssembly
ports. Period about 8e12: far beyond a match's needs.
"""
from .compat import const

_M1 = const(32363)
_M2 = const(31727)
_M3 = const(31657)
_SPAN = const(32362)  # outputs are 1.._SPAN
SEED_LIMIT = const(1 << 30)


class Rng:
    def __init__(self, seed=0):
        self.seed(seed)

    def seed(self, seed):
        """Seed with any int 0 <= seed < 2**30 (the deal number)."""
        if type(seed) is not int or seed < 0 or seed >= SEED_LIMIT:
            raise ValueError("seed must be an int 0..%d, not %r" % (SEED_LIMIT - 1, seed))
        self.s1 = 1 + seed % (_M1 - 1)
        q = seed // (_M1 - 1)
        self.s2 = 1 + q % (_M2 - 1)
        self.s3 = 1 + (q // (_M2 - 1) + seed % 7919) % (_M3 - 1)
        for _ in range(8):
            self.next()

    def next(self):
        """Next output, 1..32362."""
        s1 = 157 * self.s1 % _M1
        s2 = 146 * self.s2 % _M2
        s3 = 142 * self.s3 % _M3
        self.s1 = s1
        self.s2 = s2
        self.s3 = s3
        z = (s1 - s2 + s3) % _SPAN
        if z < 1:
            z += _SPAN
        return z

    def below(self, n):
        """Uniform int 0..n-1 for 1 <= n <= 32362 (rejection, no bias)."""
        if type(n) is not int or not 1 <= n <= _SPAN:
            raise ValueError("below(n) needs 1 <= n <= %d" % _SPAN)
        limit = _SPAN - _SPAN % n
        while True:
            z = self.next() - 1
            if z < limit:
                return z % n

    def seed30(self):
        """A fresh seed 0 <= s < 32362**2 (< 2**30): the next deal number."""
        return (self.next() - 1) * _SPAN + self.next() - 1

    def shuffle(self, buf):
        """Fisher-Yates in place over a bytearray or list."""
        for i in range(len(buf) - 1, 0, -1):
            j = self.below(i + 1)
            t = buf[i]
            buf[i] = buf[j]
            buf[j] = t

    def state(self):
        return (self.s1, self.s2, self.s3)


def deck_for(seed):
    """The 52-card order of deal number `seed` (R2 shuffles this way)."""
    deck = bytearray(range(52))
    Rng(seed).shuffle(deck)
    return deck


_FP_KEYS = (0x1F3D, 0x5A27, 0x2C69, 0x7B11, 0x0E95, 0x63C3)


def fingerprint(deal):
    """A 24-bit check value of deal number `deal` (0 <= deal < 2**30),
    shown when a hand starts; the showdown and the game record reveal the
    deal number, and anyone can recompute this from it (tools/records/replay.py
    does), so the deck was fixed before the first card was seen.

    Six Feistel rounds over the deal's two 15-bit halves (each round's
    product stays below 2**30: small ints everywhere), then the top 24 of
    the 30 bits. 64 deal numbers share each value, so it does not give the
    deal away; it is a check, not a secret (a computer could list those 64)."""
    if type(deal) is not int or deal < 0 or deal >= SEED_LIMIT:
        raise ValueError("a deal number is an int 0..%d, not %r" % (SEED_LIMIT - 1, deal))
    left = deal >> 15
    right = deal & 0x7FFF
    for k in _FP_KEYS:
        f = ((right * 23505 + k) ^ (right >> 5)) & 0x7FFF
        left, right = right, left ^ f
    return ((left << 15) | right) >> 6


def fingerprint_text(deal):
    """The fingerprint as six hex digits, e.g. 'A3F91C'."""
    return "%06X" % fingerprint(deal)
