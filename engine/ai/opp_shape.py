"""The buckets of the opponent tables (engine/ai/opp_tables.py, written by
tools/fit_opponent.py): the opponent's deadwood D, its turn number n in the
hand and the rank of the card it last threw."""
from ..compat import const

D_BUCKETS = const(16)
N_BUCKETS = const(10)
V_BUCKETS = const(4)

# Deadwood bucket of each deadwood value 0..99 (0..10 one each, then 11-13,
# 14-17, 18-22, 23-29, 30 and over), and each bucket's typical value.
_DB = bytearray(100)
for _d in range(100):
    _DB[_d] = (_d if _d <= 10 else 11 if _d <= 13 else 12 if _d <= 17
               else 13 if _d <= 22 else 14 if _d <= 29 else 15)
D_MID = bytes((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 26, 44))
# n (the opponent's discards this hand, its turn number) -> bucket
_NB = bytes((0, 0, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8, 8, 8))
# rank (A..K) of its last discard -> bucket (value 1-3, 4-6, 7-9, 10)
_VB = bytes((0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3))


def d_bucket(d):
    return _DB[d] if d < 100 else 15


def n_bucket(n):
    return _NB[n] if n < 14 else 9


def v_bucket(rank):
    return _VB[rank]
