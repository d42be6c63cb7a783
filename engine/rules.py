"""Rule options (R13, V1-V5).

One small object carries every option a hand or a match consults; the
state machine reads fields and never asks which preset is in force, so a
variant is a field here plus the code that honours it. `CARDEMS` is the
default and the only preset whose options are all fixed by R13.
"""


NAME_MAX = 16
NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_"
FIRSTS = ("human", "alternate", "loser")
# (field, lowest, highest): the ranges check() allows.
LIMITS = (("knock_limit", 0, 100), ("gin_bonus", 0, 100), ("undercut_bonus", 0, 100),
          ("target", 1, 10000), ("stop_at", 0, 30), ("max_pile_turns", 1, 1000))


def _digits(v):
    """The value of a plain decimal number of 1..5 digits without leading
    zeros, or None (int() would also take '+5', ' 5', '1_0' and '05')."""
    if not 1 <= len(v) <= 5 or (v[0] == "0" and len(v) > 1):
        return None
    n = 0
    for ch in v:
        d = "0123456789".find(ch)
        if d < 0:
            return None
        n = n * 10 + d
    return n


def check_rules(rules):
    """`rules` if it is a Rules in range (check), else ValueError."""
    if not isinstance(rules, Rules):
        raise ValueError("rules must be a Rules object, not %r" % (rules,))
    rules.check()
    return rules


class Rules:
    __slots__ = ("name", "knock_limit", "gin_bonus", "undercut_bonus",
                 "target", "stop_at", "max_pile_turns", "first",
                 "upcard_offer", "oklahoma", "match_bonus")

    def __init__(self, name="cardems", knock_limit=10, gin_bonus=25,
                 undercut_bonus=25, target=100, stop_at=0, max_pile_turns=40,
                 first="human", upcard_offer=False, oklahoma=False,
                 match_bonus=False):
        self.name = name
        self.knock_limit = knock_limit        # R6 / V5
        self.gin_bonus = gin_bonus            # R10
        self.undercut_bonus = undercut_bonus  # R10
        self.target = target                  # R12 / V5
        self.stop_at = stop_at                # R11: 0; V3: 2
        self.max_pile_turns = max_pile_turns  # R14
        self.first = first                    # R2: "human"; V5 others
        self.upcard_offer = upcard_offer      # V1
        self.oklahoma = oklahoma              # V2
        self.match_bonus = match_bonus        # V4

    def copy(self, **changes):
        r = Rules()
        for k in Rules.__slots__:
            setattr(r, k, changes[k] if k in changes else getattr(self, k))
        return r

    def text(self):
        """Stable one-line form for records: name then every field, in slot order."""
        parts = [self.name]
        for k in Rules.__slots__[1:]:
            v = getattr(self, k)
            if v is True:
                v = 1
            elif v is False:
                v = 0
            parts.append("%s=%s" % (k, v))
        return " ".join(parts)

    @staticmethod
    def from_text(line):
        """Inverse of text(). ValueError naming the bad field.

        Strict, so that a rules line reads the same on every runtime and
        what it gives can be written again: fields are `name=value` with
        known names, each at most once; numbers are plain decimal digits
        (no sign, no underscores, no leading zeros); flags are 0 or 1; then
        every field must be in range (check)."""
        if type(line) is not str:
            raise ValueError("a rules line is text, not %r" % (line,))
        words = line.split()
        if not words:
            raise ValueError("empty rules line")
        # A preset's name brings its fields ("classic stop_at=0" is Classic
        # without the two-card stop); any other name starts from Cardems.
        r = Rules(name=words[0])
        for p in PRESETS:
            if p.name == words[0]:
                r = p.copy()
        seen = []
        for w in words[1:]:
            k, _, v = w.partition("=")
            if k not in Rules.__slots__ or k == "name" or not v:
                raise ValueError("unknown rules field: %r" % w)
            if k in seen:
                raise ValueError("rules field %s given twice" % k)
            seen.append(k)
            cur = getattr(r, k)
            if type(cur) is bool:
                if v != "0" and v != "1":
                    raise ValueError("bad value for %s: %r (0 or 1)" % (k, v))
                setattr(r, k, v == "1")
            elif type(cur) is int:
                n = _digits(v)
                if n is None:
                    raise ValueError("bad value for %s: %r (a number)" % (k, v))
                setattr(r, k, n)
            else:
                setattr(r, k, v)
        r.check()
        return r

    def check(self):
        """ValueError naming the first field out of the range the engine
        plays, scores and saves (scores stay far below a save's 16 bits)."""
        n = self.name
        if type(n) is not str or not 1 <= len(n) <= NAME_MAX:
            raise ValueError("rules name must be 1..%d characters" % NAME_MAX)
        for ch in n:
            if ch not in NAME_CHARS:
                raise ValueError("rules name %r: only a-z, 0-9, - and _" % (n,))
        if self.first not in FIRSTS:
            raise ValueError("first must be human, alternate or loser")
        for k, lo, hi in LIMITS:
            v = getattr(self, k)
            if type(v) is not int or not lo <= v <= hi:
                raise ValueError("%s out of range: %r (%d..%d)" % (k, v, lo, hi))
        for k in ("upcard_offer", "oklahoma", "match_bonus"):
            if type(getattr(self, k)) is not bool:
                raise ValueError("%s must be True or False" % k)

    def __eq__(self, other):
        return isinstance(other, Rules) and self.text() == other.text()

    def __repr__(self):
        return "Rules(%s)" % self.text()


CARDEMS = Rules()
# Seeds 001 and 003 play with the upcard offer and the two-card stop.
CLASSIC = CARDEMS.copy(name="classic", upcard_offer=True, stop_at=2)
# Seed 001's Oklahoma: the first upcard sets the knock limit.
OKLAHOMA = CARDEMS.copy(name="oklahoma", upcard_offer=True, oklahoma=True, stop_at=2)
# Seed 002's scoring: end-of-match bonuses.
BONUS = CARDEMS.copy(name="bonus", upcard_offer=True, match_bonus=True)
PRESETS = (CARDEMS, CLASSIC, OKLAHOMA, BONUS)


def preset(name):
    """The preset called `name`; ValueError listing the names otherwise."""
    for r in PRESETS:
        if r.name == name:
            return r
    raise ValueError("no rules preset %r (%s)" % (name, ", ".join([r.name for r in PRESETS])))
