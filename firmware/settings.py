"""Player settings and their small text encoding.

They persist through the storage port (name "settings") as `key=value`
lines in sorted key order, so the same state always gives the
same bytes on every runtime (DESIGN: never serialise dict order). Decoding is
forgiving: unknown keys are ignored, a bad or missing value falls back to the
default, so an old or damaged file never stops the game from starting.

The rules for new matches (R13, V1-V5) are kept field by field under the
names of engine.rules.Rules (upcard_offer, oklahoma, stop_at, match_bonus,
target, knock_limit, first) plus `rules`, the preset they equal or
"custom". Choosing a preset sets every field; changing a field makes the
rules "custom" unless they then equal a preset again. A file names the
preset, or "custom" and the fields that differ from Cardems; decoding takes
the named preset's fields (Cardems for "custom" or an unknown name), then
each field the file holds. Files from before the fields existed hold
`rules` and `target` and read the same way.
"""

from engine.rules import PRESETS, Rules
from firmware.stats import STAT_KEYS, Stats  # noqa: F401 (their home before firmware/stats.py)

LEVELS = ("easy", "normal", "hard")
SPEEDS = ("slow", "normal", "fast")
# How long each AI move stays on screen before the next one (ms), by speed.
SPEED_MS = (1600, 900, 400)
BRIGHTNESS = ("low", "medium", "high")
CONTRAST = (0x10, 0x60, 0xCF)

# Rules presets (engine.rules.PRESETS names); Cardems is the default.
RULES = tuple([r.name for r in PRESETS])
CUSTOM = "custom"
# The rule fields one by one, with the values the settings screen offers.
TARGETS = tuple(range(50, 501, 50))     # V5: match target
KNOCK_LIMITS = tuple(range(11))         # V5: knock limit (V2 overrides it)
FIRSTS = ("human", "alternate", "loser")  # V5: who plays first
ONOFF = (0, 1)
STOPS = (0, 2)                          # V3: 2 = the two-card stop
RULE_FIELDS = (
    ("upcard_offer", ONOFF),            # V1
    ("oklahoma", ONOFF),                # V2
    ("stop_at", STOPS),                 # V3
    ("match_bonus", ONOFF),             # V4
    ("target", TARGETS),                # V5
    ("knock_limit", KNOCK_LIMITS),      # V5
    ("first", FIRSTS),                  # V5
)
_BOOL_FIELDS = ("upcard_offer", "oklahoma", "match_bonus")


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


def _preset(name):
    for r in PRESETS:
        if r.name == name:
            return r
    return None


def _field_of(rules, key):
    """A Rules field as the settings keep it (bools as 0/1)."""
    v = getattr(rules, key)
    if v is True:
        return 1
    if v is False:
        return 0
    return v


class Settings:
    """What the player chose on the settings screen."""

    def __init__(self):
        self.level = "normal"        # AI strength (not a rule, R13)
        self.speed = "normal"        # how long AI moves stay on screen
        self.brightness = "high"
        self.sound = 1               # 0: muted
        self.set_preset("cardems")   # the rule fields (RULE_FIELDS)

    def speed_ms(self):
        return SPEED_MS[SPEEDS.index(self.speed)]

    def contrast(self):
        return CONTRAST[BRIGHTNESS.index(self.brightness)]

    # -- the rules for new matches (R13, V1-V5) ---------------------------
    @property
    def rules(self):
        """The preset the rule fields equal, or "custom"."""
        return self.preset_name()

    @rules.setter
    def rules(self, name):
        # Naming a preset chooses it (sets every field); "custom" changes
        # nothing (it only names fields that equal no preset).
        if name in RULES:
            self.set_preset(name)

    def set_preset(self, name):
        """Every rule field from preset `name` (ValueError if there is none)."""
        r = _preset(name)
        if r is None:
            raise ValueError("no rules preset %r" % (name,))
        for key, _ in RULE_FIELDS:
            setattr(self, key, _field_of(r, key))

    def set_rule(self, key, value):
        """Change one rule field (the rules then are the preset they equal,
        or "custom")."""
        for k, options in RULE_FIELDS:
            if k == key:
                if value not in options:
                    raise ValueError("bad value for %s: %r" % (key, value))
                setattr(self, key, value)
                return
        raise ValueError("no rule field %r" % (key,))

    def preset_name(self):
        """The preset whose every field equals these settings, or "custom"."""
        for r in PRESETS:
            same = True
            for key, _ in RULE_FIELDS:
                if _field_of(r, key) != getattr(self, key):
                    same = False
                    break
            if same:
                return r.name
        return CUSTOM

    def match_rules(self):
        """The engine Rules a new match is played with."""
        r = _preset(self.preset_name())
        if r is not None:
            return r
        ch = {"name": CUSTOM}
        for key, _ in RULE_FIELDS:
            v = getattr(self, key)
            ch[key] = (v == 1) if key in _BOOL_FIELDS else v
        return Rules().copy(**ch)

    # -- encoding ---------------------------------------------------------
    def pairs(self):
        """(key, value) in key order: the older keys (a preset is its name
        and target), and for custom rules the fields that differ from
        Cardems (kept short: the CircuitPython port stores settings in a
        192-byte slot)."""
        name = self.rules
        out = [("brightness", self.brightness), ("level", self.level),
               ("rules", name), ("sound", self.sound),
               ("speed", self.speed), ("target", self.target)]
        if name == CUSTOM:
            base = PRESETS[0]
            for key, _ in RULE_FIELDS:
                v = getattr(self, key)
                if key != "target" and v != _field_of(base, key):
                    out.append((key, v))
        out.sort()
        return out

    def encode(self):
        return encode(self.pairs())

    @classmethod
    def decode(cls, payload):
        d = decode(payload)
        s = cls()
        s.level = _choice(d, "level", LEVELS, s.level)
        s.speed = _choice(d, "speed", SPEEDS, s.speed)
        s.brightness = _choice(d, "brightness", BRIGHTNESS, s.brightness)
        s.sound = 1 if _int(d, "sound", 1, 0, 1) else 0
        # The named preset's fields first (older files name only the
        # preset), then each field the file holds with a valid value.
        name = d.get("rules")
        if name in RULES:
            s.set_preset(name)
        for key, options in RULE_FIELDS:
            if key == "first":
                v = _choice(d, key, options, None)
            else:
                v = _int(d, key, None)
            if v is not None and v in options:
                setattr(s, key, v)
        return s


def playable(rules):
    """None when the handheld can play and save a match under `rules`,
    else why not. It plays the rules its settings make: a preset, "custom"
    fields over Cardems, or the box game's (V6), each field one the
    settings screen offers, so a match from a save is as long as one the
    player could start (a match to 500 is the longest the flash holds)."""
    name = rules.name
    if name == "box":
        from engine.box import BOX_RULES as base
    elif name == CUSTOM:
        base = PRESETS[0]
    else:
        base = _preset(name)
        if base is None:
            return "rules %r are not among this handheld's" % (name,)
    for key in Rules.__slots__[1:]:
        v = _field_of(rules, key)
        options = None
        for k, opts in RULE_FIELDS:
            if k == key:
                options = opts
        if options is None:
            if v != _field_of(base, key):
                return "%s=%s is not a rule this handheld plays" % (key, v)
        elif v not in options:
            return "%s=%s is not offered in the settings" % (key, v)
    return None
