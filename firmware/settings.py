"""Player settings and statistics, and their small text encoding.

Both persist through the storage port (names "settings" and "stats") as
`key=value` lines in sorted key order, so the same state always gives the
same bytes on every runtime (DESIGN: never serialise dict order). Decoding is
forgiving: unknown keys are ignored, a bad or missing value falls back to the
default, so an old or damaged file never stops the game from starting.
"""

LEVELS = ("easy", "normal", "hard")
SPEEDS = ("slow", "normal", "fast")
# How long each AI move stays on screen before the next one (ms), by speed.
SPEED_MS = (1600, 900, 400)
TARGETS = (50, 100, 150, 200, 250)
# Rules presets (engine.rules.PRESETS names); Cardems is the default.
RULES = ("cardems", "classic", "oklahoma", "bonus")
BRIGHTNESS = ("low", "medium", "high")
CONTRAST = (0x10, 0x60, 0xCF)


def encode(pairs):
    """[(key, int or str), ...] -> b'key=value\\n...' in sorted key order."""
    pairs = sorted(pairs)
    out = []
    for k, v in pairs:
        out.append("%s=%s\n" % (k, v))
    return "".join(out).encode()


def decode(payload):
    """b'key=value' lines -> {key: value str}; junk lines are skipped."""
    d = {}
    if not payload:
        return d
    for raw in bytes(payload).split(b"\n"):
        try:
            line = raw.decode()
        except UnicodeError:
            continue
        k, sep, v = line.strip().partition("=")
        if sep and k:
            d[k.strip()] = v.strip()
    return d


def _choice(d, key, options, default):
    v = d.get(key)
    return v if v in options else default


def _int(d, key, default, lo=0, hi=1 << 29):
    v = d.get(key)
    if v is None:
        return default
    try:
        n = int(v)
    except ValueError:
        return default
    return n if lo <= n <= hi else default


class Settings:
    """What the player chose on the settings screen."""

    def __init__(self):
        self.level = "normal"        # AI strength (not a rule, R13)
        self.speed = "normal"        # how long AI moves stay on screen
        self.target = 100            # R12 / V5: match target, new matches
        self.rules = "cardems"       # rules preset for new matches (R13, V1-V5)
        self.brightness = "high"
        self.sound = 1               # 0: muted

    def speed_ms(self):
        return SPEED_MS[SPEEDS.index(self.speed)]

    def contrast(self):
        return CONTRAST[BRIGHTNESS.index(self.brightness)]

    def pairs(self):
        return [("brightness", self.brightness), ("level", self.level),
                ("rules", self.rules), ("sound", self.sound),
                ("speed", self.speed),
                ("target", self.target)]

    def encode(self):
        return encode(self.pairs())

    @classmethod
    def decode(cls, payload):
        d = decode(payload)
        s = cls()
        s.level = _choice(d, "level", LEVELS, s.level)
        s.speed = _choice(d, "speed", SPEEDS, s.speed)
        s.brightness = _choice(d, "brightness", BRIGHTNESS, s.brightness)
        s.rules = _choice(d, "rules", RULES, s.rules)
        t = _int(d, "target", s.target)
        s.target = t if t in TARGETS else s.target
        s.sound = 1 if _int(d, "sound", 1, 0, 1) else 0
        return s


STAT_KEYS = ("matches", "matches_won", "hands", "hands_won", "gins",
             "knocks", "undercuts", "draws", "best_hand")


class Stats:
    """The human player's record over every match played on this device."""

    def __init__(self):
        for k in STAT_KEYS:
            setattr(self, k, 0)

    def record_hand(self, result, seat=0):
        """Count a finished hand (HandResult) from `seat`'s side."""
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
            self.best_hand = result.points

    def record_match(self, end, seat=0):
        """Count a finished match (MatchEnd)."""
        self.matches += 1
        if end.winner == seat:
            self.matches_won += 1

    def pairs(self):
        return [(k, getattr(self, k)) for k in STAT_KEYS]

    def encode(self):
        return encode(self.pairs())

    @classmethod
    def decode(cls, payload):
        d = decode(payload)
        s = cls()
        for k in STAT_KEYS:
            setattr(s, k, _int(d, k, 0))
        return s
