"""The opponent's hand as chances per unseen card, and the danger of a discard.

Unseen cards are in no known place: not ours, not in the pile, not known to
be held by the opponent (it took them from the pile and has not thrown them
back). Each gets a weight for "the opponent holds it": the same-rank cards
and the one- and two-away suit neighbours of a card it discarded or left
lying as the upcard are less likely (it had no use for that card), those
around a card it picked up more likely (it made a meld with it). The weights
are normalised to the number of unknown cards in its hand; the rest of each
unseen card's chance is "next stock card".
"""
from array import array
from ..compat import const
from ..cards import CARD_VALUE
from ..melds import BIT_RANK
from .know import bits

P_MAX = const(240)      # cap on a card's "opponent holds it" chance (x1/256)


class CardModel:
    """Per unseen card: po (opponent holds it, x1/256) and ps (next stock
    card weight, 256 - po); all buffers made once."""

    def __init__(self):
        self.unseen = [0, 0, 0, 0]
        self.ul = bytearray(52)      # unseen cards
        self.un = 0
        # 16-bit arrays (po is at most 4096, ps at most 256): half a list's
        # heap on a 32-bit port
        self.po = array("H", bytes(104))
        self.ps = array("H", bytes(104))
        self.ps_sum = 1
        self.nopp = 10               # unknown cards in the opponent's hand
        self.f_p = 0                 # feed(): chance the opponent melds the card
        self.f_save = 0              # feed(): deadwood (x16) that meld saves it
        self.f_pp = 0                # _pairs(): the summed pair chances
        self.f_pu = 0                # _pairs(): the chance of at least one pair (x1/1024)
        # 1: a card's meld chance is that of holding at least one of its
        # pairs; 0: the pairs' chances summed (up to 1), which counts a card
        # with several likely pairs more than once
        self.t_union = 1
        # x/4 weights of an unseen card's same-rank and +-1, +-2 suit
        # neighbours after the opponent discarded / left / took a card
        self.t_nd = (2, 2, 3)
        self.t_np = (3, 3, 4)
        self.t_nt = (8, 8, 6)

    def fill(self, k, evidence):
        """Unseen cards and their chances from Know `k`; `evidence`: use the
        opponent's discards, passes and pickups (hard) or not."""
        mine = k.mine
        un = 0
        ul = self.ul
        po = self.po
        ps = self.ps
        unseen = self.unseen
        nk = 0
        for s in range(4):
            u = 0x1FFF & ~(mine[s] | k.dead[s] | k.oppk[s])
            unseen[s] = u
            nk += bits(k.oppk[s])
            left = u
            while left:
                bit = left & -left
                left ^= bit
                c = s * 13 + BIT_RANK[bit % 37]
                ul[un] = c
                un += 1
                po[c] = 64
        self.un = un
        nopp = 10 - nk
        if nopp < 0:
            nopp = 0
        self.nopp = nopp
        if un == 0:
            self.ps_sum = 1
            return
        if evidence:
            nd = self.t_nd
            np_ = self.t_np
            nt = self.t_nt
            for s in range(4):
                ev = k.odisc[s]
                while ev:
                    bit = ev & -ev
                    ev ^= bit
                    self._nudge(s, BIT_RANK[bit % 37], nd[0], nd[1], nd[2])
                ev = k.opass[s] & ~k.odisc[s]
                while ev:
                    bit = ev & -ev
                    ev ^= bit
                    self._nudge(s, BIT_RANK[bit % 37], np_[0], np_[1], np_[2])
                ev = k.otook[s]
                while ev:
                    bit = ev & -ev
                    ev ^= bit
                    self._nudge(s, BIT_RANK[bit % 37], nt[0], nt[1], nt[2])
        tot = 0
        for i in range(un):
            tot += po[ul[i]]
        sps = 0
        for i in range(un):
            c = ul[i]
            p = po[c] * nopp * 256 // tot
            if p > P_MAX:
                p = P_MAX
            po[c] = p
            q = 256 - p
            ps[c] = q
            sps += q
        self.ps_sum = sps if sps > 0 else 1

    def _nudge(self, s, r, f0, f1, f2):
        """Scale (x f/4) the weights of rank r's other suits (f0) and of
        suit s's neighbours of r at distance one (f1) and two (f2)."""
        po = self.po
        unseen = self.unseen
        bit = 1 << r
        for t in range(4):
            if t != s and unseen[t] & bit:
                c = t * 13 + r
                w = (po[c] * f0) >> 2
                po[c] = 4 if w < 4 else (4096 if w > 4096 else w)
        u = unseen[s]
        for dr in (-2, -1, 1, 2):
            q = r + dr
            if 0 <= q <= 12 and (u >> q) & 1:
                c = s * 13 + q
                w = (po[c] * (f2 if dr == -2 or dr == 2 else f1)) >> 2
                po[c] = 4 if w < 4 else (4096 if w > 4096 else w)

    def p(self, k, c):
        """Chance (x1/256) that the opponent holds card c."""
        s = c // 13
        bit = 1 << (c % 13)
        if k.oppk[s] & bit:
            return 256
        if self.unseen[s] & bit:
            return self.po[c]
        return 0

    def _pairs(self, k, c):
        """The pairs of cards that would make a meld with card c (two of its
        rank, or suit neighbours): the sum of the chances (x1/65536) that
        the opponent holds both, into self.f_pp, the chance that it holds
        at least one of them (x1/1024; the pairs taken as independent),
        into self.f_pu, and the deadwood (x16) a pair saves it on average
        (by the pairs' chances), into self.f_save; returns the sum with
        each pair's chance times the pair's value."""
        s = c // 13
        r = c % 13
        v = CARD_VALUE
        p1 = p2 = p3 = 0
        i = 0
        for t in range(4):
            if t == s:
                continue
            p = self.p(k, t * 13 + r)
            if i == 0:
                p1 = p
            elif i == 1:
                p2 = p
            else:
                p3 = p
            i += 1
        pp = p1 * p2 + p1 * p3 + p2 * p3
        sv = pp * 2 * v[c]
        # no pair at all: the product of (1 - each pair's chance), x1/1024
        u = 1024 - (p1 * p2 >> 6)
        u = u * (1024 - (p1 * p3 >> 6)) >> 10
        u = u * (1024 - (p2 * p3 >> 6)) >> 10
        base = s * 13
        pm2 = self.p(k, base + r - 2) if r >= 2 else 0
        pm1 = self.p(k, base + r - 1) if r >= 1 else 0
        pp1 = self.p(k, base + r + 1) if r <= 11 else 0
        pp2 = self.p(k, base + r + 2) if r <= 10 else 0
        if pm1:
            if pm2:
                x = pm2 * pm1
                pp += x
                u = u * (1024 - (x >> 6)) >> 10
                sv += x * (v[base + r - 2] + v[base + r - 1])
            if pp1:
                x = pm1 * pp1
                pp += x
                u = u * (1024 - (x >> 6)) >> 10
                sv += x * (v[base + r - 1] + v[base + r + 1])
        if pp1 and pp2:
            x = pp1 * pp2
            pp += x
            u = u * (1024 - (x >> 6)) >> 10
            sv += x * (v[base + r + 1] + v[base + r + 2])
        self.f_pp = pp
        self.f_pu = 1024 - u
        self.f_save = sv * 16 // pp if pp else 0
        return sv

    def feed(self, k, c):
        """If we throw card c: the chance (x1/256) the opponent holds two
        cards that meld with it (at least one such pair), into self.f_p,
        and the deadwood (x16) a pair would then stop costing it, on
        average, into self.f_save."""
        self._pairs(k, c)
        if self.t_union:
            self.f_p = self.f_pu >> 2
            return
        pp = self.f_pp >> 8
        self.f_p = pp if pp < 256 else 256

    def danger(self, k, c):
        """How much discarding card c may help the opponent: the chance it
        holds at least one pair of cards that would make a meld with c (two
        of its rank, or suit neighbours) times the deadwood such a pair
        would stop counting, on average over the pairs by their chances
        (x1/256 chance x points / 13; a pair of tens it surely holds: about
        394, the most there is)."""
        sv = self._pairs(k, c)
        if self.t_union:
            # (x16 points a pair saves) x (x1/1024 chance) / 832 = x1/256 x points / 13
            return self.f_save * self.f_pu // 832
        d = sv // 3328       # 13 * 256
        return d if d < 512 else 512
