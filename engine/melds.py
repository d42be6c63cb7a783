"""Meld search and deadwood (R5), allocation-free on the hot paths.

A hand is four 13-bit suit masks (s, h, d, c; bit r = rank r). Runs live inside
one suit; sets join suits at one rank. The search is exact:

* Runs only, one suit: every maximal stretch of >= 3 consecutive ranks is one
  run and the rest is deadwood, so the runs-only deadwood of every suit mask is
  a table (RUN_DW, 8 KB, a constant in engine/tables.py).
* Sets: only ranks held in >= 3 suits can form one (at most three such ranks in
  11 cards). For each of them the search tries the 4-set, each 3-set (the
  fourth card then free for a run) and no set, and sums RUN_DW over what is
  left. Any arrangement is one of these choices followed by the per-suit runs,
  so the minimum over them is the lowest deadwood.

With no rank held three times (most hands) the deadwood of a hand is four table
lookups. The hot-path functions take masks as ints and return ints; they build
no lists, tuples or strings.
"""
from .compat import const
from .cards import CARD_VALUE, NO_CARD, card_list
from .tables import RUN_DW, DROP   # constants: in flash when frozen

FULL = const(0x1FFF)
_BIG = const(999)


# Rank of a one-bit mask: powers of two up to 2**12 are distinct modulo 37.
BIT_RANK = bytearray(37)
for _r in range(13):
    BIT_RANK[(1 << _r) % 37] = _r


def bit_rank(bit):
    """Rank 0..12 of a one-bit suit mask."""
    return BIT_RANK[bit % 37]


def triples(a, b, c, d):
    """Mask of ranks held in at least three of the four suits."""
    return (a & b & (c | d)) | (c & d & (a | b))


def deadwood4(a, b, c, d):
    """Lowest deadwood (R5) of the hand given by four suit masks."""
    t = (a & b & (c | d)) | (c & d & (a | b))
    if t:
        return _sets(a, b, c, d, t)
    return RUN_DW[a] + RUN_DW[b] + RUN_DW[c] + RUN_DW[d]


def _free(a, b, c, d, bit):
    """No card of this rank lies in three consecutive ranks of its suit, so
    none can be in a run: a set of them loses nothing."""
    w = a & (a >> 1) & (a >> 2)
    x = w | (w << 1) | (w << 2)
    w = b & (b >> 1) & (b >> 2)
    x |= w | (w << 1) | (w << 2)
    w = c & (c >> 1) & (c >> 2)
    x |= w | (w << 1) | (w << 2)
    w = d & (d >> 1) & (d >> 2)
    x |= w | (w << 1) | (w << 2)
    return not (x & bit)


def _sets(a, b, c, d, t):
    # the next rank of sets, or the runs once none is left, called straight
    # (no helper level between: the recursion stays shallow on the C stack)
    bit = t & -t
    t ^= bit
    nxt = _sets if t else _runs
    n = bit ^ FULL
    if _free(a, b, c, d, bit):
        return nxt(a & n, b & n, c & n, d & n, t)
    best = nxt(a, b, c, d, t)
    if a & b & c & d & bit:
        x = nxt(a & n, b & n, c & n, d & n, t)   # the 4-set
        if x < best:
            best = x
        x = nxt(a, b & n, c & n, d & n, t)       # 3-sets, one card left out
        if x < best:
            best = x
        x = nxt(a & n, b, c & n, d & n, t)
        if x < best:
            best = x
        x = nxt(a & n, b & n, c, d & n, t)
        if x < best:
            best = x
        x = nxt(a & n, b & n, c & n, d, t)
    else:
        x = nxt(a & n, b & n, c & n, d & n, t)   # the only 3-set
    if x < best:
        best = x
    return best


def _runs(a, b, c, d, t):
    # (t: always 0 here, taken for the call shape of _sets)
    return RUN_DW[a] + RUN_DW[b] + RUN_DW[c] + RUN_DW[d]


def low_after_discard4(a, b, c, d):
    """Lowest deadwood (R5) left after discarding any one card of the hand
    given by four suit masks (the value part of best_discard4, with no
    forbidden card).

    Every arrangement after a discard is a set choice of the hand (sets at
    ranks held three or four times) with the discard taken from the cards
    left for runs, so the answer is the minimum over set choices of the
    runs-only deadwood less the most one removal lowers it (per suit).
    One search instead of one per discard: much cheaper for hands with sets.
    """
    t = (a & b & (c | d)) | (c & d & (a | b))
    if t:
        return dsets(a, b, c, d, t)
    return _dleaf(a, b, c, d, 0)


def _dleaf(a, b, c, d, t):
    # (t: always 0 here, taken for the call shape of dsets)
    # DROP[x] - 128: the most removing one card of suit x lowers its runs
    # deadwood; 0 for an empty suit (nothing to remove).
    dr = DROP
    best = dr[a]
    r = dr[b]
    if r > best:
        best = r
    r = dr[c]
    if r > best:
        best = r
    r = dr[d]
    if r > best:
        best = r
    if best == 0:
        return _BIG          # every card is in a set: no discard from here
    rd = RUN_DW
    return rd[a] + rd[b] + rd[c] + rd[d] + 128 - best


def dsets(a, b, c, d, t):
    # as _sets: the next rank, or the leaf, called straight
    bit = t & -t
    t ^= bit
    nxt = dsets if t else _dleaf
    n = bit ^ FULL
    if a & b & c & d & bit and _free(a, b, c, d, bit):
        # Four of a rank, none of them in reach of a run: the 4-set, or
        # three of them with the fourth to be the discard (which one makes
        # no difference); leaving all four loose is never better.
        best = nxt(a & n, b & n, c & n, d & n, t)
        x = nxt(a, b & n, c & n, d & n, t)
        return x if x < best else best
    best = nxt(a, b, c, d, t)
    if a & b & c & d & bit:
        x = nxt(a & n, b & n, c & n, d & n, t)   # the 4-set
        if x < best:
            best = x
        x = nxt(a, b & n, c & n, d & n, t)       # 3-sets, one card left out
        if x < best:
            best = x
        x = nxt(a & n, b, c & n, d & n, t)
        if x < best:
            best = x
        x = nxt(a & n, b & n, c, d & n, t)
        if x < best:
            best = x
        x = nxt(a & n, b & n, c & n, d, t)
    else:
        x = nxt(a & n, b & n, c & n, d & n, t)   # the only 3-set
    if x < best:
        best = x
    return best


def best_discard4(m, forbidden):
    """Best discard of the 11-card hand in the 4-item list `m` (suit masks).

    Returns deadwood * 64 + card (one small int, so nothing is allocated):
    the card whose removal leaves the lowest deadwood; among equals the higher
    deadwood value, then the lower card (RULES.md tie rule). `forbidden` (R4)
    is never chosen (NO_CARD for none). `m` is restored before returning.
    """
    a = m[0]
    b = m[1]
    c = m[2]
    d = m[3]
    best = _BIG
    best_card = NO_CARD
    best_val = 0
    # No rank held three times in 11 cards: none in 10 either, so a discard
    # only changes its own suit's runs: one table lookup per candidate.
    runs_only = not ((a & b & (c | d)) | (c & d & (a | b)))
    total = RUN_DW[a] + RUN_DW[b] + RUN_DW[c] + RUN_DW[d]
    for s in range(4):
        x = m[s]
        base = total - RUN_DW[x]
        left = x
        while left:
            bit = left & -left
            left ^= bit
            card = s * 13 + BIT_RANK[bit % 37]
            if card == forbidden:
                continue
            if runs_only:
                dw = base + RUN_DW[x ^ bit]
            else:
                m[s] = x ^ bit
                dw = deadwood4(m[0], m[1], m[2], m[3])
                m[s] = x
            v = CARD_VALUE[card]
            if dw < best or (dw == best and v > best_val):
                best = dw
                best_card = card
                best_val = v
    return best * 64 + best_card


# ---------------------------------------------------------------------------
# Arrangements (allocating; used by the public API and the showdown).

def masks_of(cards, what="cards"):
    """Card ints -> [s, h, d, c] suit masks. ValueError naming the input on
    a wrong type, a bad int or a duplicate."""
    m = [0, 0, 0, 0]
    for x in card_list(cards, what):
        s = x // 13
        bit = 1 << (x % 13)
        if m[s] & bit:
            raise ValueError("duplicate card: %s" % _text(x))
        m[s] |= bit
    return m


def _text(x):
    from .cards import card_text
    return card_text(x)


def _runs_of(s, x):
    """Maximal stretches of >= 3 ranks in suit mask x, as card lists."""
    runs = []
    r = 0
    while r < 13:
        if x >> r & 1:
            e = r
            while e + 1 < 13 and x >> (e + 1) & 1:
                e += 1
            if e - r >= 2:
                runs.append([s * 13 + k for k in range(r, e + 1)])
            r = e + 1
        else:
            r += 1
    return runs


def arrangements(m, low=-1):
    """Every set choice of the hand with suit masks `m` as (deadwood, melds).

    One entry per choice of sets (4-set, each 3-set, none, per rank held three
    times), each completed with the per-suit runs; melds are card lists sorted
    by their lowest card. The lowest deadwood among them is the hand's (R5).
    Choices leading to the same melds are listed once. With `low` >= 0 only
    the choices whose deadwood is `low` are listed, and only their melds are
    built (a hand with several set ranks has dozens of choices: on a Pico's
    nearly full heap their lists at once could find no room).
    """
    out = []
    seen = []
    _arr(list(m), triples(m[0], m[1], m[2], m[3]), [], out, seen, low)
    return out


def _arr(m, t, sets, out, seen, low):
    if not t:
        dead = _runs(m[0], m[1], m[2], m[3], 0)
        if low >= 0 and dead != low:
            return
        melds = [list(s) for s in sets]
        for s in range(4):
            melds.extend(_runs_of(s, m[s]))
        melds.sort(key=lambda ml: ml[0])
        key = tuple(tuple(ml) for ml in melds)
        if key not in seen:
            seen.append(key)
            out.append((dead, melds))
        return
    bit = t & -t
    t ^= bit
    r = bit_rank(bit)
    held = [s for s in range(4) if m[s] & bit]
    options = []
    if len(held) == 4:
        options.append(held)
        for leave in held:
            options.append([s for s in held if s != leave])
    else:
        options.append(held)
    for opt in options:
        saved = list(m)
        for s in opt:
            m[s] &= ~bit
        _arr(m, t, sets + [[s * 13 + r for s in opt]], out, seen, low)
        m[:] = saved
    _arr(m, t, sets, out, seen, low)


def best_arrangements(m):
    """All lowest-deadwood arrangements: (deadwood, [melds, ...]) of the
    four suit masks `m` (masks_of)."""
    if type(m) is not list and type(m) is not tuple or len(m) != 4:
        raise ValueError("best_arrangements takes four suit masks, not %r" % (m,))
    for x in m:
        if type(x) is not int or not 0 <= x <= 8191:
            raise ValueError("not a suit mask: %r (0..8191)" % (x,))
    low = deadwood4(m[0], m[1], m[2], m[3])
    return low, [a[1] for a in arrangements(m, low)]


def deadwood_cards(cards, melds):
    """The cards of `cards` in none of `melds`, sorted."""
    used = []
    for ml in melds:
        used.extend(ml)
    return sorted([x for x in cards if x not in used])
