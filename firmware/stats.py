"""The player's statistics and their compact, extensible encoding.

    b"ST"  version:1  then fields, each  tag:1  length:1  value

A counter's value is an unsigned big-endian number of 1..4 bytes (below
2**30: small ints); a blob field's value is its bytes. Tags are fixed for
good (FIELDS): a field is never renumbered, and a tag nobody knows is
skipped, so files written by a newer firmware still load here. A field a
file does not hold (it predates it) takes its default. The statistics are
part of the game save (firmware/saves/gamesave.py), committed with the match in
one write.

Adding a field (an "opponent style" record, say):
  1. append (tag, name, kind, size) to FIELDS with the next unused tag:
     (10, "style", BLOB, 32) for up to 32 bytes of small ints (0..255);
  2. bump VERSION (to 2): the first version that writes it;
  3. give it its default in DEFAULTS (name -> value, e.g. bytes(16));
     every older file then loads with that default;
  4. a settings entry that resets it calls stats.reset("style").
Counters need only steps 1-3 (kind COUNT, size 4) and count from 0.

Every counter saturates: it stops at COUNT_MAX (a hand or match is then
not counted at all, so the counts still add up), so no play from a save
that loads makes one that does not.

Decoding validates: a length that does not fit the kind, a counter over
its bound, a repeated tag, or counts that cannot go together (more hands
won than played) raise ValueError, so a damaged record is set aside with
the save instead of being shown or counted on. Files of the older text
form (key=value lines, before this encoding) still load.
"""

MAGIC = b"ST"
VERSION = 3                   # 2: the opponent style record (tag 10); 3: the hand reviews (11-14)
COUNT = 0
BLOB = 1
# (tag, name, kind, most bytes)
FIELDS = (
    (1, "matches", COUNT, 4),
    (2, "matches_won", COUNT, 4),
    (3, "hands", COUNT, 4),
    (4, "hands_won", COUNT, 4),
    (5, "gins", COUNT, 4),
    (6, "knocks", COUNT, 4),
    (7, "undercuts", COUNT, 4),
    (8, "draws", COUNT, 4),
    (9, "best_hand", COUNT, 4),
    # how the player knocks, as the hard AI learned it over earlier matches
    # (engine/ai/habit.py: Habit.record(); empty: nothing learned yet)
    (10, "style", BLOB, 32),
    # the hand reviews (firmware/reviews.py), counted at each match's end
    # (Stats.record_review)
    (11, "reviewed", COUNT, 4),
    (12, "review_cost", COUNT, 4),
    (13, "review_avg", COUNT, 4),
    (14, "review_matches", COUNT, 4),
    # link matches the other board left after this board revealed its
    # secret, each counted as a match won (Stats.record_forfeit); written
    # only when not 0 (SPARSE), so a save with none is as it was
    (15, "forfeits", COUNT, 4),
)
SPARSE = (15,)                # tags encode() leaves out while their value is 0
REVIEW_RECENT = 4             # see Stats.record_review
DEFAULTS = {"style": b""}     # name -> default for fields other than counters
COUNT_MAX = (1 << 30) - 1
BEST_HAND_MAX = 300           # more than any hand can score (R10; rules.LIMITS)
STAT_KEYS = tuple([f[1] for f in FIELDS if f[2] == COUNT])


def per_decision(cost, n):
    """A cost (points x16) over n decisions, in hundredths of a point per
    decision, rounded: (cost * 100 + 8n) // 16n, with no product on the
    way reaching 2**30 (the quotient and the remainder apart)."""
    if n <= 0:
        return 0
    q = cost // n
    r = cost - q * n
    if q > COUNT_MAX // 25:
        return COUNT_MAX // 100 * 100
    a = q * 25
    b = a & 3                  # v = a//4 + (b*n + 25r + 2n) // 4n
    while n >= (1 << 25):      # 30n stays below 2**30 (a near-exact remainder)
        n >>= 1
        r >>= 1
    return (a >> 2) + (b * n + 25 * r + 2 * n) // (4 * n)


def _more(v, n):
    """v + n, stopping at COUNT_MAX (no sum goes over 2**30 on the way)."""
    return COUNT_MAX if n > COUNT_MAX - v else v + n


def _default(name):
    return DEFAULTS.get(name, 0)


class Stats:
    """The human player's record over every match played on this device."""

    def __init__(self):
        for f in FIELDS:
            setattr(self, f[1], _default(f[1]))

    def reset(self, name):
        """One field back to its default (a settings entry's reset)."""
        for f in FIELDS:
            if f[1] == name:
                setattr(self, name, _default(name))
                return
        raise ValueError("no statistics field %r" % (name,))

    def record_hand(self, result, seat=0):
        """Count a finished hand (HandResult) from `seat`'s side. Every
        counter stops at COUNT_MAX (_more): once `hands` is there, a hand
        is not counted at all, so the counts still add up (check())."""
        if self.hands >= COUNT_MAX:
            return
        self.hands += 1
        if result.winner is None:
            self.draws += 1
            return
        if result.winner != seat:
            return
        self.hands_won += 1
        if result.kind == "gin":
            self.gins += 1
        elif result.kind == "knock":
            self.knocks += 1
        elif result.kind == "undercut":
            self.undercuts += 1
        if result.points > self.best_hand:
            self.best_hand = min(result.points, BEST_HAND_MAX)

    def record_match(self, end, seat=0):
        """Count a finished match (MatchEnd); none once `matches` is at
        COUNT_MAX."""
        if self.matches >= COUNT_MAX:
            return
        self.matches += 1
        if end.winner == seat:
            self.matches_won += 1

    def record_forfeit(self):
        """A link match the other board left after this board revealed its
        secret (docs/LINK.md): counted as a match won, and as a forfeit."""
        if self.matches >= COUNT_MAX:
            return
        self.matches += 1
        self.matches_won += 1
        self.forfeits += 1

    def record_review(self, n, cost):
        """Count a match's review: n decisions reviewed, their summed cost
        (points x16). review_avg is the running figure, the cost per
        decision in hundredths of a point, moving 1/REVIEW_RECENT of the way
        to each match's own (the first match sets it): it follows the last
        few matches, so a player sees it fall as they learn. A review
        with no match counted for it (the statistics were reset before it
        was finished, or `matches` stopped at its maximum) is not counted;
        the sums stop at COUNT_MAX."""
        if n <= 0 or self.review_matches >= self.matches:
            return
        self.reviewed = _more(self.reviewed, n)
        self.review_cost = _more(self.review_cost, cost)
        avg = per_decision(cost, n)
        if self.review_matches == 0:
            self.review_avg = avg
        else:
            self.review_avg += (avg - self.review_avg) // REVIEW_RECENT
        self.review_matches += 1

    def pairs(self):
        return [(k, getattr(self, k)) for k in STAT_KEYS]

    def encode(self):
        out = bytearray(MAGIC)
        out.append(VERSION)
        for tag, name, kind, size in FIELDS:
            v = getattr(self, name)
            if kind == COUNT:
                if not v and tag in SPARSE:
                    continue
                n = 1
                while n < 4 and v >> (8 * n):
                    n += 1
                out.append(tag)
                out.append(n)
                for i in range(n - 1, -1, -1):
                    out.append((v >> (8 * i)) & 0xFF)
            else:
                out.append(tag)
                out.append(len(v))
                out.extend(v)
        return bytes(out)

    @classmethod
    def decode(cls, payload):
        """Stats from encode()'s bytes (or the older text); a blank payload
        (None, b"") gives zeros. ValueError when the bytes are not sound."""
        s = cls()
        if not payload:
            return s
        payload = bytes(payload)
        if payload[:2] != MAGIC:
            _from_text(s, payload)
        else:
            _from_fields(s, payload)
        s.check()
        return s

    def check(self):
        """ValueError unless the counts can go together."""
        for k in STAT_KEYS:
            v = getattr(self, k)
            if type(v) is not int or not 0 <= v <= COUNT_MAX:
                raise ValueError("statistics: %s out of range" % k)
        if self.matches_won > self.matches or self.hands_won + self.draws > self.hands \
                or self.gins + self.knocks + self.undercuts != self.hands_won \
                or self.best_hand > BEST_HAND_MAX \
                or self.best_hand and not self.hands_won \
                or self.review_matches > self.matches \
                or self.forfeits > self.matches_won \
                or (self.review_matches == 0) != (self.reviewed == 0):
            raise ValueError("statistics: the counts do not add up")


def _from_fields(s, data):
    if len(data) < 3 or data[2] < 1:
        raise ValueError("statistics: bad header")
    seen = []
    i = 3
    n = len(data)
    while i < n:
        if i + 2 > n:
            raise ValueError("statistics: a field is cut short")
        tag = data[i]
        size = data[i + 1]
        i += 2
        if i + size > n:
            raise ValueError("statistics: field %d is cut short" % tag)
        if tag in seen:
            raise ValueError("statistics: field %d twice" % tag)
        seen.append(tag)
        for t, name, kind, most in FIELDS:
            if t != tag:
                continue
            if kind == COUNT:
                if not 1 <= size <= 4:
                    raise ValueError("statistics: %s has %d bytes" % (name, size))
                v = 0
                for k in range(size):
                    v = (v << 8) | data[i + k]
                if v > COUNT_MAX:
                    raise ValueError("statistics: %s out of range" % name)
            else:
                if size > most:
                    raise ValueError("statistics: %s has %d bytes" % (name, size))
                v = bytes(data[i:i + size])
            setattr(s, name, v)
        i += size          # a tag nobody knows (a newer firmware's): skipped


def _from_text(s, data):
    """The older form: b'key=value' lines (unknown keys ignored)."""
    try:
        text = data.decode()
    except UnicodeError:
        raise ValueError("statistics: neither fields nor text")
    for line in text.split("\n"):
        k, sep, v = line.strip().partition("=")
        if not sep:
            if k:
                raise ValueError("statistics: not a key=value line")
            continue
        k = k.strip()
        if k in STAT_KEYS:
            v = v.strip()
            if not v or len(v) > 10 or not v.isdigit():
                raise ValueError("statistics: bad value for %s" % k)
            setattr(s, k, int(v))
