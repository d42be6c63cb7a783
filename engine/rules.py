"""Rule options (R13, V1-V5).

One small object carries every option a hand or a match consults; the
state machine reads fields and never asks which preset is in force, so a
variant is a field here plus the code that honours it. `CARDEMS` is the
default and the only preset whose options are all fixed by R13.
"""


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
        """Inverse of text(). ValueError naming the bad field."""
        words = line.split()
        if not words:
            raise ValueError("empty rules line")
        # A preset's name brings its fields ("classic stop_at=0" is Classic
        # without the two-card stop); any other name starts from Cardems.
        r = Rules(name=words[0])
        for p in PRESETS:
            if p.name == words[0]:
                r = p.copy()
        for w in words[1:]:
            k, _, v = w.partition("=")
            if k not in Rules.__slots__ or k == "name" or not v:
                raise ValueError("unknown rules field: %r" % w)
            cur = getattr(r, k)
            if isinstance(cur, bool):
                if v not in ("0", "1"):
                    raise ValueError("bad value for %s: %r" % (k, v))
                setattr(r, k, v == "1")
            elif isinstance(cur, int):
                try:
                    setattr(r, k, int(v))
                except ValueError:
                    raise ValueError("bad value for %s: %r" % (k, v))
            else:
                setattr(r, k, v)
        r.check()
        return r

    def check(self):
        if self.first not in ("human", "alternate", "loser"):
            raise ValueError("first must be human, alternate or loser")
        if not 0 <= self.knock_limit <= 10 * 10:
            raise ValueError("knock limit out of range")
        if not 1 <= self.target <= 10000:
            raise ValueError("target out of range")
        if not 0 <= self.stop_at <= 30:
            raise ValueError("stop_at out of range")
        if not 1 <= self.max_pile_turns <= 1000:
            raise ValueError("max_pile_turns out of range")

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
