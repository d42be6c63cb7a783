"""Showdown: arrangements, layoffs and hand scoring (R7-R10).

Not a hot path (once per hand), so it may allocate. `settle` enumerates the
knocker's lowest-deadwood arrangements (R8) and, for each, the defender's
lowest-deadwood arrangements (R9) with their best layoffs, then scores (R10).
"""
from .cards import CARD_VALUE, card_text
from .melds import masks_of, best_arrangements, deadwood_cards
from .rules import CARDEMS, Rules


class Outcome:
    """Result of a knock (R8-R10). Card ints throughout."""

    def __init__(self, kind, winner, points, knocker_deadwood,
                 defender_deadwood, knocker_melds, defender_melds, layoffs,
                 defender_deadwood_before=None):
        self.kind = kind                      # 'gin' | 'knock' | 'undercut'
        self.winner = winner                  # 'knocker' | 'defender'
        self.points = points
        self.knocker_deadwood = knocker_deadwood
        self.defender_deadwood = defender_deadwood  # after layoffs
        self.knocker_melds = knocker_melds    # as shown, before any layoff
        self.defender_melds = defender_melds
        self.layoffs = layoffs                # [(card, knocker meld index)]
        if defender_deadwood_before is None:
            defender_deadwood_before = defender_deadwood
        self.defender_deadwood_before = defender_deadwood_before

    def __repr__(self):
        return "Outcome(%s, %s +%d, knocker %d, defender %d, layoffs %s)" % (
            self.kind, self.winner, self.points, self.knocker_deadwood,
            self.defender_deadwood,
            " ".join([card_text(c) + ">" + str(i) for c, i in self.layoffs]))

    def melded(self, knocker, c):
        """Is card c in one of the knocker's (knocker true) or the
        defender's melds as shown? Allocates nothing."""
        for ml in (self.knocker_melds if knocker else self.defender_melds):
            for x in ml:
                if x == c:
                    return True
        return False


_KINDS = ("gin", "knock", "undercut")
_WINNERS = ("knocker", "defender")
_FIELDS = 6      # bytes of a PastOutcome before its melds


def _pack_melds(out, melds):
    out.append(len(melds))
    for ml in melds:
        out.append(len(ml))
        out.extend(ml)


def _skip_melds(b, i):
    """The index after the melds packed at b[i] (allocates nothing)."""
    n = b[i]
    i += 1
    for _ in range(n):
        i += 1 + b[i]
    return i


def _unpack_melds(b, i):
    """(the melds packed at b[i], the index after them)."""
    melds = []
    n = b[i]
    i += 1
    for _ in range(n):
        k = b[i]
        melds.append(list(b[i + 1:i + 1 + k]))
        i += 1 + k
    return melds, i


class PastOutcome:
    """An Outcome as a finished hand keeps it once the next hand is dealt:
    the same fields, read from one bytes (kind, winner, points, the three
    deadwoods, then the melds and the layoffs); an Outcome's lists took
    ~0.5 KB a hand of a long match on the Pico. The melds and layoffs are
    made again as lists when read."""

    @staticmethod
    def fits(o):
        """Can Outcome o be kept this way (every number below 256, as with
        the game's own bonuses; a custom rule could score more)?"""
        return max(o.points, o.knocker_deadwood, o.defender_deadwood,
                   o.defender_deadwood_before) < 256

    def __init__(self, o):
        b = bytearray((_KINDS.index(o.kind), _WINNERS.index(o.winner), o.points,
                       o.knocker_deadwood, o.defender_deadwood, o.defender_deadwood_before))
        _pack_melds(b, o.knocker_melds)
        _pack_melds(b, o.defender_melds)
        for c, i in o.layoffs:
            b.append(c)
            b.append(i)
        self._b = bytes(b)

    @property
    def kind(self):
        return _KINDS[self._b[0]]

    @property
    def winner(self):
        return _WINNERS[self._b[1]]

    @property
    def points(self):
        return self._b[2]

    @property
    def knocker_deadwood(self):
        return self._b[3]

    @property
    def defender_deadwood(self):
        return self._b[4]

    @property
    def defender_deadwood_before(self):
        return self._b[5]

    @property
    def knocker_melds(self):
        return _unpack_melds(self._b, _FIELDS)[0]

    @property
    def defender_melds(self):
        return _unpack_melds(self._b, _skip_melds(self._b, _FIELDS))[0]

    @property
    def layoffs(self):
        b = self._b
        i = _skip_melds(b, _skip_melds(b, _FIELDS))
        return [(b[j], b[j + 1]) for j in range(i, len(b), 2)]

    __repr__ = Outcome.__repr__

    def melded(self, knocker, c):
        b = self._b
        i = _FIELDS if knocker else _skip_melds(b, _FIELDS)
        n = b[i]
        i += 1
        for _ in range(n):
            k = b[i]
            for j in range(i + 1, i + 1 + k):
                if b[j] == c:
                    return True
            i += 1 + k
        return False


def _is_set(meld):
    return meld[0] % 13 == meld[-1] % 13


def fits(c, meld):
    """Can card c be laid off onto meld (as it stands) under R9?"""
    if _is_set(meld):
        return len(meld) == 3 and c % 13 == meld[0] % 13
    s = meld[0] // 13
    if c // 13 != s:
        return False
    return c == meld[0] - 1 and meld[0] % 13 > 0 or \
        c == meld[-1] + 1 and meld[-1] % 13 < 12


def best_layoffs(melds, dead):
    """Most deadwood the cards `dead` can shed onto `melds` (R9).

    Returns (value laid off, [(card, meld index), ...] in a legal order).
    Exhaustive over the cards that fit at each step: a card can fit a 3-set and
    a run end at once, and a run grows card by card (8 then 9 onto 5-6-7).
    """
    work = [list(ml) for ml in melds]
    best = [0, []]
    _lay(work, sorted(dead), 0, [], best)
    return best[0], best[1]


def _lay(work, dead, got, seq, best):
    if got > best[0]:
        best[0] = got
        best[1] = list(seq)
    rest = 0
    for c in dead:
        rest += CARD_VALUE[c]
    if got + rest <= best[0]:
        return  # even shedding every card left would not do better
    for i in range(len(dead)):
        c = dead[i]
        for j in range(len(work)):
            ml = work[j]
            if fits(c, ml):
                if _is_set(ml):
                    ml.append(c)
                    ml.sort()
                elif c < ml[0]:
                    ml.insert(0, c)
                else:
                    ml.append(c)
                seq.append((c, j))
                _lay(work, dead[:i] + dead[i + 1:], got + CARD_VALUE[c], seq, best)
                seq.pop()
                ml.remove(c)


def _check_hand(name, hand):
    m = masks_of(hand, "the %s's hand" % name)  # ValueError: type, bad int, duplicate
    if len(hand) != 10:
        raise ValueError("%s must hold 10 cards, not %d" % (name, len(hand)))
    return m


def settle(knocker, defender, rules=None):
    """Score a knock (R7-R10) of two 10-card hands; see Outcome.

    R8: of the knocker's lowest-deadwood arrangements, the one leaving the
    defender the highest deadwood after R9 is shown. R9: of the defender's
    lowest-deadwood arrangements, the one with the lowest deadwood after its
    best layoffs is used. Gin (R7) allows no layoffs.
    """
    if rules is None:
        rules = CARDEMS
    elif not isinstance(rules, Rules):
        raise ValueError("settle's rules must be a Rules object or None, not %r" % (rules,))
    km = _check_hand("knocker", knocker)
    dm = _check_hand("defender", defender)
    for s in range(4):
        if km[s] & dm[s]:
            shared = [c for c in knocker if c in defender]
            raise ValueError("cards in both hands: %s" % " ".join(
                [card_text(c) for c in sorted(shared)]))
    kdw, karrs = best_arrangements(km)
    if kdw > rules.knock_limit:
        raise ValueError("knocker's deadwood %d is over the knock limit %d"
                         % (kdw, rules.knock_limit))
    ddw, darrs = best_arrangements(dm)
    if kdw == 0:  # R7: gin, no layoffs
        return Outcome("gin", "knocker", ddw + rules.gin_bonus, 0, ddw,
                       karrs[0], darrs[0], [], ddw)
    chosen = None  # (defender final, knocker melds, defender melds, layoffs)
    for kmelds in karrs:
        mine = None
        for dmelds in darrs:
            dead = deadwood_cards(defender, dmelds)
            got, seq = best_layoffs(kmelds, dead)
            final = ddw - got
            if mine is None or final < mine[0]:
                mine = (final, kmelds, dmelds, seq)
        if chosen is None or mine[0] > chosen[0]:
            chosen = mine
    final, kmelds, dmelds, seq = chosen
    if final > kdw:
        return Outcome("knock", "knocker", final - kdw, kdw, final, kmelds,
                       dmelds, seq, ddw)
    return Outcome("undercut", "defender", kdw - final + rules.undercut_bonus,
                   kdw, final, kmelds, dmelds, seq, ddw)
