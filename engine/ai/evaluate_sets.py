"""value10 for a hand that holds a rank three or four times (evaluate.py's
Evaluator inherits it): the ways to take its sets are listed once, and a
draw that makes no new set is valued over them with the runs-only tables
(a card that joins a run: over the ways grouped by the cards they leave in
its suit, a handful of groups for up to 36 ways).
Values are deadwood points x16 (lower is better); allocation-free (the
choice buffers below are made once, at import)."""
from array import array
from ..compat import const
from ..cards import CARD_VALUE
from ..melds import dsets
from ..tables import RUN_DW, DROP

GIN_VALUE = const(-3200)  # a gin hand: nothing is better

# The ways to take the sets of a hand (masks left for runs, 13 bits),
# listed by _choices: at most 6 x 6 x 2 for 11 cards. Scratch of one
# value10 call: every Evaluator (the match's AI, the hint's and the
# reviews') shares these four, half the size of lists on a 32-bit port.
_CHOICES = const(72)
_CA = array("H", bytes(2 * _CHOICES))
_CB = array("H", bytes(2 * _CHOICES))
_CC = array("H", bytes(2 * _CHOICES))
_CD = array("H", bytes(2 * _CHOICES))
_CS = (_CA, _CB, _CC, _CD)
# Per choice: its runs' deadwood, and the largest and second largest DROP
# over its four suits.
_CT = array("H", bytes(2 * _CHOICES))
_CM = array("H", bytes(2 * _CHOICES))
_CM2 = array("H", bytes(2 * _CHOICES))
# Per suit, the choices grouped by the set ranks' cards they leave in it
# (at most 8: three ranks of sets): the mask left, and over the group the
# least "deadwood of the other suits" (B) and the least of that less their
# best DROP (A). A card that joins a run in the suit, making mask y, gives
# that group's best discard: rd[y] + 128 + min(A, B - DROP[y]) (see
# _groups). _GN[s]: suit s grouped in this value10 call.
_GX = array("H", bytes(64))
_GA = array("h", bytes(64))
_GB = array("h", bytes(64))
_GN = bytearray(4)


class SetsValue:
    def _choices(self, a, b, c, d, t):
        """Fill the choice buffers with every way to take sets at the ranks
        in t (each rank held three or four times: no set, the set, or for
        four of a rank the 4-set or a 3-set leaving each one out), as the
        suit masks left for runs; returns their count."""
        ca = _CA
        cb = _CB
        cc = _CC
        cd = _CD
        ca[0] = a
        cb[0] = b
        cc[0] = c
        cd[0] = d
        n = 1
        while t:
            bit = t & -t
            t ^= bit
            x = bit ^ 0x1FFF
            quad = a & b & c & d & bit
            for i in range(n):
                p0 = ca[i]
                p1 = cb[i]
                p2 = cc[i]
                p3 = cd[i]
                q0 = p0 & x
                q1 = p1 & x
                q2 = p2 & x
                q3 = p3 & x
                ca[n] = q0
                cb[n] = q1
                cc[n] = q2
                cd[n] = q3
                n += 1            # the set (all of the rank) taken
                if quad:
                    # the 3-sets, each leaving suit v's card for runs
                    for v in range(4):
                        ca[n] = p0 if v == 0 else q0
                        cb[n] = p1 if v == 1 else q1
                        cc[n] = p2 if v == 2 else q2
                        cd[n] = p3 if v == 3 else q3
                        n += 1
        return n

    def _groups(self, s, nch, b0, b1, b2):
        """Group the nch ways to take the sets by the cards of the set
        ranks (b0, b1, b2: one bit each, or 0) they leave in suit s: _GX,
        _GA, _GB from s * 8 (empty groups: _GB 32767). A way leaving x
        there, with rest = the runs' deadwood of its other suits and top =
        their best DROP, values a card joining a run in s (mask y = x |
        card) at rest + RUN_DW[y] + 128 - max(top, DROP[y]); and rest -
        max(top, D) is min(rest - top, rest - D), so over a group only the
        least rest - top (A) and the least rest (B) matter."""
        arr = _CS[s]
        ct = _CT
        cm = _CM
        cm2 = _CM2
        gx = _GX
        ga = _GA
        gb = _GB
        rd = RUN_DW
        dr = DROP
        base = s * 8
        for j in range(base, base + 8):
            gb[j] = 32767
        for i in range(nch):
            x = arr[i]
            j = base
            if x & b0:
                j += 1
            if x & b1:
                j += 2
            if x & b2:
                j += 4
            rest = ct[i] - rd[x]
            a = rest - (cm2[i] if dr[x] == cm[i] else cm[i])
            if gb[j] == 32767:
                gx[j] = x
                ga[j] = a
                gb[j] = rest
            else:
                if a < ga[j]:
                    ga[j] = a
                if rest < gb[j]:
                    gb[j] = rest
        _GN[s] = 1

    def _value10_sets(self, h):
        """value10 for a hand holding a rank three or four times (sets). The
        ways to take its sets are listed once; a draw that makes no new set
        keeps them, so its best discard is the best over them of a runs-only
        formula (RUN_DW, DROP). A draw that makes a new set gets the full
        search."""
        a = h[0]
        b = h[1]
        c = h[2]
        d = h[3]
        t = (a & b & (c | d)) | (c & d & (a | b))
        nch = self._choices(a, b, c, d, t)
        # the set ranks, one bit each (at most three in 10 or 11 cards)
        b0 = t & -t
        b2 = t ^ b0
        b1 = b2 & -b2
        b2 ^= b1
        ca = _CA
        cb = _CB
        cc = _CC
        cd = _CD
        rd = RUN_DW
        dr = DROP
        dw = 999
        low = 999
        ct = _CT
        cm = _CM
        cm2 = _CM2
        for i in range(nch):
            x = rd[ca[i]] + rd[cb[i]] + rd[cc[i]] + rd[cd[i]]
            ct[i] = x
            if x < dw:
                dw = x
            top = dr[ca[i]]
            y = dr[cb[i]]
            if y > top:
                t2 = top
                top = y
            else:
                t2 = y
            y = dr[cc[i]]
            if y > top:
                t2 = top
                top = y
            elif y > t2:
                t2 = y
            y = dr[cd[i]]
            if y > top:
                t2 = top
                top = y
            elif y > t2:
                t2 = y
            cm[i] = top
            cm2[i] = t2
            if top:
                x += 128 - top
                if x < low:
                    low = x
        gcount = _GN
        gcount[0] = gcount[1] = gcount[2] = gcount[3] = 0   # not grouped yet
        gx = _GX
        ga = _GA
        gb = _GB
        if dw == 0:
            self.v1 = 0
            return GIN_VALUE
        hv = dw - low
        if hv < 0:
            hv = 0
        model = self.model
        ul = model.ul
        ps = model.ps
        gm = 0
        gs = 0
        gp = 0
        gn = 0
        for i in range(model.un):
            u = ul[i]
            p = ps[u]
            s = u // 13
            ub = 1 << (u % 13)
            n = 0
            if a & ub:
                n += 1
            if b & ub:
                n += 1
            if c & ub:
                n += 1
            if d & ub:
                n += 1
            if n >= 2:
                # u makes a new set: the full search (melds.low_after_discard4's,
                # called at its set search: the set ranks are t and u's)
                e = dsets(a | ub if s == 0 else a, b | ub if s == 1 else b,
                           c | ub if s == 2 else c, d | ub if s == 3 else d, t | ub)
                gm += p * (dw - e)
                if e == 0:
                    gp += p
                    gn += 1
                continue
            # (no new set:) does u join a run with its suit's cards?
            x = h[s] | ub
            if not (x & (x >> 1) & (x >> 2) & ((ub * 7) >> 2)):
                e = dw + CARD_VALUE[u] - hv
                if e < dw:
                    gs += p * (dw - e)
                continue
            # u joins a run: the best, over the ways to take the sets, of
            # discarding the card that lowers that way's runs most (over
            # the groups of ways that leave the same cards in u's suit)
            if not gcount[s]:
                self._groups(s, nch, b0, b1, b2)
            e = 999
            j = s * 8
            for j in range(j, j + 8):
                if gb[j] == 32767:
                    continue
                y = gx[j] | ub
                z = dr[y]
                x = gb[j] - z
                z = ga[j]
                if z < x:
                    x = z
                x += rd[y] + 128
                if x < e:
                    e = x
            if e > dw:
                e = dw
            gm += p * (dw - e)
            if e == 0:
                gp += p
                gn += 1
        return self._result(dw, gm, gs, gp, gn)
