"""The buckets of the opponent tables (engine/ai/opp_tables.py, written by
tools/ailab/fit_opponent.py): the opponent's deadwood D, its turn number n in the
hand, the rank of the card it last threw, the rank of the one before it and
how many of the cards it took from the pile it still holds.

Deadwood buckets: 0, 1, 2, 3-4, 5-6, 7-8, 9-10, 11-14, 15-20, 21-28, 29-40,
41 and over (LOW[j]..TOP[j]); opp_tables.D_MEAN holds each one's measured
mean. Fine at the bottom, where a knock and an undercut are decided by a
point or two; coarse above the knock limit.
"""
from ..compat import const

D_BUCKETS = const(12)
N_BUCKETS = const(10)
V_BUCKETS = const(4)
P_BUCKETS = const(5)     # the discard before the last: V's four, and a king or none
H_BUCKETS = const(4)     # pickups still held: 0, 1, 2, 3 or more

LOW = bytes((0, 1, 2, 3, 5, 7, 9, 11, 15, 21, 29, 41))
TOP = bytes((0, 1, 2, 4, 6, 8, 10, 14, 20, 28, 40, 255))
_DB = bytearray(100)
for _d in range(100):
    _b = 0
    while _b + 1 < D_BUCKETS and _d >= LOW[_b + 1]:
        _b += 1
    _DB[_d] = _b
# n (the opponent's discards this hand, its turn number) -> bucket
_NB = bytes((0, 0, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8, 8, 8))
# rank (A..K) of its last discard -> bucket (value 1-3, 4-6, 7-9, 10)
_VB = bytes((0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3))


def d_bucket(d):
    return _DB[d] if d < 100 else D_BUCKETS - 1


def n_bucket(n):
    return _NB[n] if n < 14 else 9


def v_bucket(rank):
    return _VB[rank]


def p_bucket(rank):
    """The bucket of the rank of the discard before the last: v_bucket's,
    but 4 for rank 12 (a king, or none yet: Know reads both as 12)."""
    return 4 if rank == 12 else _VB[rank]


def below(j, t):
    """Share (x1/256) of deadwood bucket j at or below t (a threshold: the
    part of the bucket a player with threshold t would have knocked with)."""
    lo = LOW[j]
    hi = TOP[j]
    if hi <= t:
        return 256
    if lo > t:
        return 0
    return (t - lo + 1) * 256 // (hi - lo + 1)
