"""Brute-force reference for the Cardems rules (RULES.md R1, R5-R10).

Written from the rules text alone, sharing no code with engine/, and meant
to be obviously correct rather than fast: it enumerates every collection of
non-overlapping melds and every sequence of layoffs.  The property tests
compare the engine with it.

Cards are ints 0..51: suit * 13 + rank, suits s h d c, ranks A..K.
"""

RANKS = "A23456789TJQK"
SUITS = "shdc"


def card(text):
    """'Td' -> int (same notation as the engine)."""
    if not isinstance(text, str) or len(text) != 2:
        raise ValueError("bad card %r" % (text,))
    r = RANKS.find(text[0])
    s = SUITS.find(text[1])
    if r < 0 or s < 0:
        raise ValueError("bad card %r" % (text,))
    return s * 13 + r


def card_text(c):
    return RANKS[c % 13] + SUITS[c // 13]


def cards(text):
    """'7s 7h 7d' -> [int, ...]"""
    return [card(t) for t in text.split()]


def hand_text(cs):
    return " ".join(card_text(c) for c in sorted(cs))


def rank(c):
    return c % 13


def suit(c):
    return c // 13


def value(c):
    """R1: A = 1, 2-10 face value, J/Q/K = 10."""
    return min(rank(c) + 1, 10)


def deadwood_of(cs):
    return sum(value(c) for c in cs)


# ---------------------------------------------------------------- R5 melds

def is_set(meld):
    """R5: 3 or 4 cards of one rank."""
    return (3 <= len(meld) <= 4 and len(set(meld)) == len(meld)
            and len({rank(c) for c in meld}) == 1)


def is_run(meld):
    """R5: 3 or more consecutive cards of one suit, ace low, no wrap."""
    if len(meld) < 3 or len(set(meld)) != len(meld):
        return False
    if len({suit(c) for c in meld}) != 1:
        return False
    rs = sorted(rank(c) for c in meld)
    return rs == list(range(rs[0], rs[0] + len(rs)))


def is_meld(meld):
    return is_set(meld) or is_run(meld)


def candidate_melds(cs):
    """Every meld (as a sorted tuple) that can be formed from the cards cs."""
    have = set(cs)
    out = []
    # sets: every 3- and 4-subset of one rank
    for r in range(13):
        same = [s * 13 + r for s in range(4) if s * 13 + r in have]
        n = len(same)
        for i in range(n):
            for j in range(i + 1, n):
                for k in range(j + 1, n):
                    out.append((same[i], same[j], same[k]))
        if n == 4:
            out.append(tuple(same))
    # runs: every segment of >= 3 consecutive present ranks in one suit
    for s in range(4):
        for lo in range(13):
            seg = []
            for r in range(lo, 13):
                if s * 13 + r not in have:
                    break
                seg.append(s * 13 + r)
                if len(seg) >= 3:
                    out.append(tuple(seg))
    for m in out:
        assert is_meld(m), m
    return out


def arrangements(cs):
    """Yield every collection of pairwise disjoint melds from cs (a list of
    sorted tuples), the empty collection included."""
    cands = candidate_melds(cs)

    def rec(start, used, chosen):
        yield list(chosen)
        for i in range(start, len(cands)):
            m = cands[i]
            if used.isdisjoint(m):
                chosen.append(m)
                yield from rec(i + 1, used | set(m), chosen)
                chosen.pop()

    yield from rec(0, frozenset(), [])


def arrangement_deadwood(cs, melds):
    inside = set()
    for m in melds:
        inside.update(m)
    return deadwood_of(c for c in cs if c not in inside)


def min_deadwood(cs):
    """R5: the lowest deadwood over every non-overlapping meld collection."""
    return min(arrangement_deadwood(cs, ms) for ms in arrangements(cs))


def best_arrangements(cs):
    """(lowest deadwood, every arrangement reaching it)."""
    alls = [(arrangement_deadwood(cs, ms), ms) for ms in arrangements(cs)]
    low = min(d for d, _ in alls)
    return low, [ms for d, ms in alls if d == low]


# ---------------------------------------------------------------- discard

def discard_key(c, dw):
    """Tie rule: lowest remaining deadwood, then the higher deadwood value
    of the discarded card, then the lower card (order A..K in s h d c)."""
    return (dw, -value(c), c)


def best_discard(cs, forbidden=None):
    """(deadwood of the other 10, the card) over discards != forbidden."""
    best = None
    for c in cs:
        if c == forbidden:
            continue
        rest = [x for x in cs if x != c]
        key = discard_key(c, min_deadwood(rest))
        if best is None or key < best:
            best = key
    return best[0], best[2]


# ---------------------------------------------------------------- R9 layoffs

def can_lay_off(c, meld):
    """R9: onto either end of a run, onto a 3-card set to make it 4."""
    if c in meld:
        return False
    if is_set(meld):
        return len(meld) == 3 and rank(c) == rank(meld[0])
    if is_run(meld):
        if suit(c) != suit(meld[0]):
            return False
        rs = [rank(x) for x in meld]
        return rank(c) == min(rs) - 1 or rank(c) == max(rs) + 1
    return False


def lowest_after_layoffs(knocker_melds, defender_deadwood_cards):
    """The lowest deadwood the defender can keep, trying every sequence of
    layoffs of its deadwood cards onto the knocker's melds."""
    memo = {}

    def rec(melds, left):
        key = (tuple(sorted(tuple(sorted(m)) for m in melds)), left)
        if key in memo:
            return memo[key]
        best = deadwood_of(left)
        for c in left:
            for i, m in enumerate(melds):
                if can_lay_off(c, m):
                    grown = list(melds)
                    grown[i] = tuple(m) + (c,)
                    rest = tuple(x for x in left if x != c)
                    best = min(best, rec(grown, rest))
        memo[key] = best
        return best

    return rec([tuple(m) for m in knocker_melds],
               tuple(sorted(defender_deadwood_cards)))


def unmelded(cs, melds):
    inside = set()
    for m in melds:
        inside.update(m)
    return [c for c in cs if c not in inside]


def defender_final(knocker_melds, defender, defender_arrs):
    """R9: the defender uses, among its lowest-deadwood arrangements, the one
    leaving it the lowest deadwood after layoffs."""
    return min(lowest_after_layoffs(knocker_melds, unmelded(defender, dm))
               for dm in defender_arrs)


class RefOutcome:
    def __init__(self, kind, winner, points, knocker_deadwood,
                 defender_deadwood):
        self.kind = kind
        self.winner = winner
        self.points = points
        self.knocker_deadwood = knocker_deadwood
        self.defender_deadwood = defender_deadwood

    def __repr__(self):
        return "RefOutcome(%s, %s, %d, k=%d, d=%d)" % (
            self.kind, self.winner, self.points, self.knocker_deadwood,
            self.defender_deadwood)


def check_hands(knocker, defender):
    if len(knocker) != 10 or len(defender) != 10:
        raise ValueError("hands must hold 10 cards")
    for c in list(knocker) + list(defender):
        if not isinstance(c, int) or not 0 <= c < 52:
            raise ValueError("bad card %r" % (c,))
    if len(set(knocker)) != 10 or len(set(defender)) != 10:
        raise ValueError("duplicate card")
    if set(knocker) & set(defender):
        raise ValueError("shared card")


def settle(knocker, defender, knock_limit=10, bonus=25):
    """R6-R10 showdown by brute force."""
    check_hands(knocker, defender)
    kd, k_arrs = best_arrangements(knocker)
    if kd > knock_limit:
        raise ValueError("knocker deadwood %d over %d" % (kd, knock_limit))
    dd, d_arrs = best_arrangements(defender)
    if kd == 0:
        # R7, R10: gin, no layoffs
        return RefOutcome("gin", "knocker", dd + bonus, 0, dd)
    # R8: the knocker's arrangement worst for the defender
    final = max(defender_final(km, defender, d_arrs) for km in k_arrs)
    if final > kd:
        return RefOutcome("knock", "knocker", final - kd, kd, final)
    return RefOutcome("undercut", "defender", kd - final + bonus, kd, final)
