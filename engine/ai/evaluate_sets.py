"""value10 for a hand that holds a rank three or four times (evaluate.py's
Evaluator inherits it): the ways to take its sets are listed once, and a
draw that makes no new set is valued over them with the runs-only tables.
Values are deadwood points x16 (lower is better); allocation-free (the
choice buffers below are made once, at import)."""
from array import array
from ..compat import const
from ..cards import CARD_VALUE
from ..melds import low_after_discard4
from ..tables import RUN_DW, DROP
from .know import in_meld

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


class SetsValue:
    def _choices(self, a, b, c, d, t, n):
        """Append to the choice buffers every way to take sets at the ranks
        in t (each rank held three or four times: no set, the set, or for
        four of a rank the 4-set or a 3-set leaving each one out), as the
        suit masks left for runs; returns the new count."""
        if not t:
            _CA[n] = a
            _CB[n] = b
            _CC[n] = c
            _CD[n] = d
            return n + 1
        bit = t & -t
        t ^= bit
        n = self._choices(a, b, c, d, t, n)
        x = bit ^ 0x1FFF
        if a & b & c & d & bit:
            n = self._choices(a & x, b & x, c & x, d & x, t, n)
            n = self._choices(a, b & x, c & x, d & x, t, n)
            n = self._choices(a & x, b, c & x, d & x, t, n)
            n = self._choices(a & x, b & x, c, d & x, t, n)
            return self._choices(a & x, b & x, c & x, d, t, n)
        return self._choices(a & x, b & x, c & x, d & x, t, n)

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
        nch = self._choices(a, b, c, d, t, 0)
        ca = _CA
        cb = _CB
        cc = _CC
        cd = _CD
        rd = RUN_DW
        dr = DROP
        dw = 999
        low = 999
        for i in range(nch):
            x = rd[ca[i]] + rd[cb[i]] + rd[cc[i]] + rd[cd[i]]
            if x < dw:
                dw = x
            top = dr[ca[i]]
            y = dr[cb[i]]
            if y > top:
                top = y
            y = dr[cc[i]]
            if y > top:
                top = y
            y = dr[cd[i]]
            if y > top:
                top = y
            if top:
                x += 128 - top
                if x < low:
                    low = x
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
                # u makes a new set: the full search
                e = low_after_discard4(a | ub if s == 0 else a, b | ub if s == 1 else b,
                                       c | ub if s == 2 else c, d | ub if s == 3 else d)
                gm += p * (dw - e)
                if e == 0:
                    gp += p
                    gn += 1
                continue
            if not in_meld(h, u):
                e = dw + CARD_VALUE[u] - hv
                if e < dw:
                    gs += p * (dw - e)
                continue
            # u joins a run: the best, over the ways to take the sets, of
            # discarding the card that lowers that way's runs most
            e = 999
            for j in range(nch):
                x0 = ca[j]
                x1 = cb[j]
                x2 = cc[j]
                x3 = cd[j]
                if s == 0:
                    x0 |= ub
                elif s == 1:
                    x1 |= ub
                elif s == 2:
                    x2 |= ub
                else:
                    x3 |= ub
                top = dr[x0]
                y = dr[x1]
                if y > top:
                    top = y
                y = dr[x2]
                if y > top:
                    top = y
                y = dr[x3]
                if y > top:
                    top = y
                x = rd[x0] + rd[x1] + rd[x2] + rd[x3] + 128 - top
                if x < e:
                    e = x
            if e > dw:
                e = dw
            gm += p * (dw - e)
            if e == 0:
                gp += p
                gn += 1
        return self._result(dw, gm, gs, gp, gn)
