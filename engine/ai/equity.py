"""Match equity: a hand's points weighed by the match they leave (R12).

The match is a race to the target. The knock estimate (knock.py) compares
outcomes of this hand; what they are worth is the chance to win the match
after them, E(a, b) with a our need and b the opponent's (equity_table.py,
fitted by tools/ailab/fit_equity.py from the spread of hand results). Near the
start E is close to linear in the points, so nothing changes; near the end
points beyond the target are worth nothing, a loss that ends the match
costs no more than it, and a player far behind wants the big outcomes.

u(v) gives an outcome of v points (x16; > 0 ours, < 0 the opponent's) in
"points at this score": (E(after) - E(now)) over the local worth of a point
(the equity between winning and losing 25 now, a typical hand's result,
over 50), so margins kept in points (knock.py's MARGIN, BIAS) keep their
meaning as a share of a typical swing. Allocation-free.
"""
from array import array
from ..compat import const
from .equity_table import EQ, CELLS

_G = const(64)            # the grid step in needs x16 (STEP = 4 points)
_TOP = const(1600)        # the largest need the table holds (x16)
_SWING = const(400)       # the local worth of a point: E at +-25 points (x16)
_MIN_DE = const(1311)     # ... at least 2% a 50-point swing
_CLIP = const(4000)       # |u| at most 250 points (keeps sums in small ints)
_SCALE = const(800)       # 2 * _SWING


def _knots(out, base, base1, stride, f):
    """out[n] = the table's two-byte cells at base + n * stride and
    base1 + n * stride, blended f/64 of the way to the second."""
    t = EQ
    for n in range(CELLS):
        k = base + n * stride
        k1 = base1 + n * stride
        out[n] = (((t[k] << 8) | t[k + 1]) * (_G - f) + ((t[k1] << 8) | t[k1 + 1]) * f) >> 6


class Equity:
    """E along the two lines a hand's outcome can move the score: our need
    falling (kp[i] = E(64 i, b)) or the opponent's (km[j] = E(a, 64 j));
    E is linear between these knots (the table is bilinear), so u() is
    two lookups."""

    def __init__(self):
        self.a = -1                      # no score set yet
        self.b = -1
        self.kp = array("H", bytes(2 * CELLS))   # E in 0..65535: 16 bits
        self.km = array("H", bytes(2 * CELLS))
        self.e0 = 32768
        self.de = 6554

    def set(self, mine, opp, target):
        """The score now: our points, the opponent's, the match target."""
        a = target - mine
        b = target - opp
        if target > 100:                 # V5: a longer race, scaled to the table's
            a = a * 100 // target
            b = b * 100 // target
        a = a * 16 if a > 0 else 16
        b = b * 16 if b > 0 else 16
        if a > _TOP:
            a = _TOP
        if b > _TOP:
            b = _TOP
        if a == self.a and b == self.b:
            return                       # the same score: kept (once a hand)
        self.a = a
        self.b = b
        # kp: column b of the table, between its two nearest columns;
        # km: row a, between its two nearest rows
        j = b // _G
        j1 = j + 1 if j + 1 < CELLS else j
        _knots(self.kp, 2 * j, 2 * j1, 2 * CELLS, b - j * _G)
        i = a // _G
        i1 = i + 1 if i + 1 < CELLS else i
        _knots(self.km, 2 * i * CELLS, 2 * i1 * CELLS, 2, a - i * _G)
        km = self.km
        km[0] = 0                        # its need met: lost (row 0 of the table is ours)
        self.e0 = self.at(0)
        de = self.at(_SWING) - self.at(-_SWING)
        self.de = de if de > _MIN_DE else _MIN_DE

    def at(self, v):
        """E (x65535) after an outcome of v points x16 (> 0: we score)."""
        if v >= 0:
            x = self.a - v
            k = self.kp
        else:
            x = self.b + v
            k = self.km
        if x <= 0:
            return k[0]
        i = x >> 6
        if i >= CELLS - 1:
            return k[CELLS - 1]
        f = x & 63
        return (k[i] * (_G - f) + k[i + 1] * f) >> 6

    def u(self, v):
        """An outcome of v points x16 (> 0: we score), in points x16 at
        this score."""
        x = (self.at(v) - self.e0) * _SCALE // self.de
        if x > _CLIP:
            return _CLIP
        if x < -_CLIP:
            return -_CLIP
        return x

    def weigh(self, arr, n):
        """arr[:n], outcomes in points x16, to points at this score: u()
        written out (it runs for about a hundred outcomes an estimate)."""
        a = self.a
        b = self.b
        kp = self.kp
        km = self.km
        e0 = self.e0
        de = self.de
        top = CELLS - 1
        for i in range(n):
            v = arr[i]
            if v >= 0:
                x = a - v
                kk = kp
            else:
                x = b + v
                kk = km
            if x <= 0:
                q = kk[0]
            else:
                c = x >> 6
                if c >= top:
                    q = kk[top]
                else:
                    f = x & 63
                    q = (kk[c] * (_G - f) + kk[c + 1] * f) >> 6
            q = (q - e0) * _SCALE // de
            arr[i] = _CLIP if q > _CLIP else -_CLIP if q < -_CLIP else q
