"""The grammar of a game record: the one reader of its lines.

engine/record.py (two-player) and engine/box.py (V6 box game) write
records; everything that reads one reads its lines here: the check of a
record (engine/verify.py: `replay.py --verify`, the web page), the
readers that rebuild a match from one (engine/record_read.py,
engine/box_read.py: `engine.replay`), the replay tool and the forgery
campaign (tools/records/).

    items = items_of(text)          # [(line number, line, words)]
    head = Head(items, box)         # the lines before the first hand
    before, hands = split_hands(items[head.next:])
    hl = HandLine(hands[0][0], 1, head.format, box)

A line that does not read raises Refused (its item and why), a file that
is no game record Unreadable, and one from a newer version of the game
NewerRecord. Blank lines, `#` comments and runs of spaces are no part of
a record: items_of leaves them out.

Cold: imported only when a record is read (never by the handheld, which
writes records and reads none).
"""
from .cut import BOX_SEATS, SEATS, check_cut, check_level, header_commitment, secret_commitment
from .deal import match_commitment
from .rules import Rules
from .sha256 import from_hex, hex_text
from .version import VERSION
from .version_parse import parse as parse_version

HEADERS = {"gin-rummy record 5": 5, "gin-rummy record 4": 4, "gin-rummy record 3": 3,
           "gin-rummy record 2": 2, "gin-rummy record 1": 1}
BOX_HEADERS = {"gin-rummy box record 5": 5, "gin-rummy box record 4": 4,
               "gin-rummy box record 3": 3, "gin-rummy box record 2": 2,
               "gin-rummy box record 1": 1}
NEWEST = 5
# the first version of the game that wrote each format with a version line
# (format 4, the chained commitments, from the development builds of 1.1.0;
# format 5, the cut, transcripts and seal, from those of 1.2.0)
FIRST_TEXT = {3: "1.0.0", 4: "1.1.0-dev", 5: "1.2.0-dev"}
FIRST_VERSION = {3: parse_version("1.0.0"), 4: parse_version("1.1.0-dev"),
                 5: parse_version("1.2.0-dev")}
COMMIT_DIGITS = {3: 10, 4: 64, 5: 64}
SEED_LIMIT = 1 << 30


class NewerRecord(ValueError):
    """A record from a newer version of the game than this one."""


class Unreadable(ValueError):
    """No game record this game can read (replay.py's exit status 2)."""


class Refused(ValueError):
    """A record line that does not agree: its number, its text and why."""

    def __init__(self, item, why, incomplete=False):
        super().__init__(why)
        self.item = item
        self.why = why
        self.incomplete = incomplete

    def text(self):
        if self.item is None:
            return self.why
        return "record line %d (%s): %s" % (self.item[0], _short(self.item[1]), self.why)


def _short(s):
    return s if len(s) <= 72 else s[:69] + "..."


def items_of(text):
    """[(line number, line, words)] of a record's lines, without blank
    lines and `#` comments (numbers as in the file, runs of spaces made one)."""
    out = []
    n = 0
    for raw in text.split("\n"):
        n += 1
        s = raw.strip()
        if s and s[0] != "#":
            w = s.split()
            out.append((n, " ".join(w), w))
    return out


def nat(s):
    """The int of a plain decimal number (no sign, no leading zero), else None."""
    if not s or not s.isdigit() or (len(s) > 1 and s[0] == "0"):
        return None
    for ch in s:
        if ch not in "0123456789":
            return None
    return int(s)


def is_hex(s):
    """True for upper-case hex digits only (as the records write them)."""
    for ch in s:
        if ch not in "0123456789ABCDEF":
            return False
    return True


def version_of(s):
    """engine.version_parse.parse's tuple of 'X.Y.Z' or 'X.Y.Z-dev' as the game
    writes it (no leading zero, no sign), or None."""
    try:
        v = parse_version(s)
    except ValueError:
        return None
    written = "%d.%d.%d" % v[:3] + ("" if v[3] else "-dev")
    return v if written == s else None


def newer_than_this(text, verb):
    """NewerRecord for a record written by version `text`, newer than this game's."""
    return NewerRecord("the record was written by version %s of the game, newer than "
                       "this one (%s): %s it with version %s or later" % (text, VERSION, verb, text))


class Head:
    """The lines before the first hand: format, version, rules, seed, the
    match's commitment (format 4: of the header, `chain`), a two-player
    record's mirror line, and in format 5 the seats, the AI level, the
    match commitment (`pledge`: to the secret) and the cut, with `chain`
    the header's commitment C0 over them all (engine/cut.py).

    `strict` (the check of a record, engine/verify.py) refuses a record
    written by any version newer than this one, and a version older than
    the one that first wrote the record's format: the check vouches only
    for what versions up to its own wrote (the version line is in no
    commitment of formats 3 and 4). Otherwise (a match rebuilt from its
    record, engine/record_read.py) only a newer major or minor version,
    whose format this one may not read, is refused: a patch version writes
    the same format, and a development build of X.Y writes X.Y's."""

    def __init__(self, items, box, strict=True):
        self.box = box
        headers = BOX_HEADERS if box else HEADERS
        prefix = "gin-rummy box record " if box else "gin-rummy record "
        if not items:
            raise Unreadable("not a game record: the file holds no line")
        first = items[0]
        fmt = headers.get(first[1])
        if fmt is None:
            f = nat(first[1][len(prefix):]) if first[1].startswith(prefix) else None
            if f is not None and f > NEWEST:
                raise NewerRecord("the record is of format %d, newer than this version of the "
                                  "game (%s) reads (%d): %s it with a newer version"
                                  % (f, VERSION, NEWEST, "verify" if strict else "replay"))
            raise Unreadable("not a game record: its first line is not '%s%d'" % (prefix, NEWEST))
        self.format = fmt
        self.version = None
        self.version_text = None
        k = 1
        if fmt >= 3:
            it = self._line(items, k, "version", "'version X.Y.Z'")
            if len(it[2]) != 2:
                raise Refused(it, "expected 'version X.Y.Z'")
            v = version_of(it[2][1])
            if v is None:
                raise Refused(it, "%r is not a version X.Y.Z (or X.Y.Z-dev)" % it[2][1])
            mine = version_of(VERSION)
            if v > mine if strict else v[:2] > mine[:2]:
                raise newer_than_this(it[2][1], "verify" if strict else "replay")
            low = FIRST_VERSION[fmt]
            if strict and v < low:
                raise Refused(it, "version %s contradicts the header: 'gin-rummy %srecord %d' was "
                              "first written by version %s" % (it[2][1], "box " if box else "",
                                                                  fmt, FIRST_TEXT[fmt]))
            self.version = v
            self.version_text = it[2][1]
            k += 1
        it = it_rules = self._line(items, k, "rules", "'rules NAME field=value ...'")
        try:
            self.rules = Rules.from_text(it[1][6:])
        except ValueError as e:
            raise Refused(it, "the rules: %s" % e)
        k += 1
        it = self._line(items, k, "seed", "'seed N'")
        s = nat(it[2][1]) if len(it[2]) == 2 else None
        if s is None or s >= SEED_LIMIT:
            raise Refused(it, "the seed is a number 0..%d" % (SEED_LIMIT - 1))
        self.seed = s
        self.seed_item = it
        self.chain = None
        self.cut = self.pledge = None
        if fmt >= 5:
            k = self._five(items, k, box, it_rules)
        elif fmt >= 4:
            if self.rules.text() != it_rules[1][6:]:
                raise Refused(it_rules, "the rules line is not in the form this game writes: %r"
                              % ("rules " + self.rules.text()))
            k += 1
            it = self._line(items, k, "match", "'match C' (the match's commitment, 64 hex digits)")
            c0 = match_commitment(first[1], self.rules.text(), s)
            if len(it[2]) != 2 or it[2][1] != hex_text(c0):
                raise Refused(it, "the match's commitment is SHA-256 of the header, rules and seed "
                              "lines: %s" % hex_text(c0))
            self.chain = c0
        self.mirror = False
        if not box and k + 1 < len(items) and items[k + 1][2][0] == "mirror":
            it = items[k + 1]
            if it[2] != ["mirror"]:
                raise Refused(it, "expected 'mirror' (a link match's second board) or a hand line")
            if fmt < 3 or self.version < FIRST_VERSION[4]:
                raise Refused(it, "%s no mirror line (link play came with %s)"
                              % ("a record of format %d has" % fmt if fmt < 3 else
                                 "version %d.%d.%d wrote" % self.version[:3], FIRST_TEXT[4]))
            if fmt >= 5 and self.seats != "link link":
                raise Refused(it, "a match against the CPU has no second board: only a link "
                              "match's record says 'mirror'")
            self.mirror = True
            k += 1
        self.next = k + 1
        self.lines = [items[j][1] for j in range(self.next)]

    def match_kw(self):
        """The Match or BoxMatch arguments of format 5's header (its cut,
        level, seats, version and match commitment; no secret); {} for an
        older format."""
        if self.format < 5:
            return {}
        return {"cut": self.cut, "level": self.level, "seats": self.seats,
                "version": self.version_text, "match_commit": self.pledge}

    def _five(self, items, k, box, it_rules):
        """Format 5's seats, level, match and cut lines after the seed line;
        the index of the last."""
        if self.rules.text() != it_rules[1][6:]:
            raise Refused(it_rules, "the rules line is not in the form this game writes: %r"
                          % ("rules " + self.rules.text()))
        it = self._line(items, k + 1, "seats", "'seats ...' (who sits where)")
        self.seats = " ".join(it[2][1:])
        kinds = BOX_SEATS if box else SEATS
        if self.seats not in kinds:
            raise Refused(it, "the seats are %s" % " or ".join(["'%s'" % x for x in kinds]))
        it = self._line(items, k + 2, "level", "'level L' (the AI's level, or none)")
        try:
            self.level = check_level(it[2][1] if len(it[2]) == 2 else None)
        except ValueError as e:
            raise Refused(it, str(e))
        it = self._line(items, k + 3, "match", "'match M' (the match commitment, 64 hex digits)")
        try:
            self.pledge = from_hex(it[2][1]) if len(it[2]) == 2 and is_hex(it[2][1]) else b""
        except ValueError:
            self.pledge = b""
        if len(self.pledge) != 32:
            raise Refused(it, "the match commitment is 64 hex digits")
        self.pledge_item = it
        it = self._line(items, k + 4, "cut", "'cut K' (the player's cut)")
        try:
            self.cut = check_cut(it[2][1] if len(it[2]) == 2 else None)
        except ValueError as e:
            raise Refused(it, str(e))
        self.cut_item = it
        self.chain = header_commitment([items[j][1] for j in range(k + 5)])
        return k + 4

    def _line(self, items, k, word, form):
        if k >= len(items):
            raise Unreadable("the record holds no hand: it ends at line %d, before its %s line"
                             % (items[-1][0], word))
        it = items[k]
        if it[2][0] != word:
            raise Refused(it, "expected %s here" % form)
        return it


def hex16(it, s, what):
    """The 16 bytes of 32 hex digits `s` (a seed, a nonce), else Refused."""
    try:
        b = from_hex(s)
    except ValueError:
        b = b""
    if len(b) != 16:
        raise Refused(it, "the %s is 32 hex digits, not %r" % (what, s))
    return b


class HandLine:
    """A hand line read: its kind ('revealed', 'open': the hand in play,
    'numbered': a deal number), commitment, seed, nonce, deal number and
    fingerprint; a two-player record's first player (`first`), a box
    record's roles (box, captain, sitter). k: the hand's number in the
    record (None: not checked)."""

    def __init__(self, it, k, fmt, box=False):
        w = it[2]
        self.item = it
        n = nat(w[1]) if len(w) > 1 else None
        if n is None:
            raise Refused(it, "a hand line is 'hand N ...' with N the hand's number%s"
                          % ("" if k is None else " (%d)" % k))
        if k is not None and n != k:
            raise Refused(it, "this is hand %d of the record, not hand %d" % (k, n))
        self.n = n
        self.commit = self.seed = self.nonce = self.deal = self.fp = None
        self.first = self.roles = None
        if box:
            self._box(it, w, fmt)
        else:
            self._two(it, w, fmt)
        if self.kind == "numbered" and (self.deal is None or self.deal >= SEED_LIMIT):
            raise Refused(it, "a deal number is 0..%d" % (SEED_LIMIT - 1))
        if not box:
            if w[-1] not in ("0", "1"):
                raise Refused(it, "the first player is seat 0 or 1, not %r" % w[-1])
            self.first = int(w[-1])

    def _two(self, it, w, fmt):
        """hand N commit C seed S nonce X first F | hand N commit C first F |
        hand N fingerprint P deal D first F | (format 1) hand N deal D first F"""
        if len(w) >= 3 and w[2] == "commit" and fmt >= 3:
            if len(w) == 10 and w[4] == "seed" and w[6] == "nonce" and w[8] == "first":
                self._revealed(it, w[5], w[7])
            elif len(w) == 6 and w[4] == "first":
                self.kind = "open"
            else:
                raise Refused(it, "expected 'hand N commit C seed S nonce X first F' (or, for the "
                              "hand in play, 'hand N commit C first F')")
            self._commit(it, w[3], fmt)
        elif fmt >= 2 and len(w) == 8 and w[2] == "fingerprint" and w[4] == "deal" and w[6] == "first":
            self._numbered(w[3], w[5])
        elif fmt == 1 and len(w) == 6 and w[2] == "deal" and w[4] == "first":
            self._numbered(None, w[3])
        else:
            raise Refused(it, "not a hand line of a 'gin-rummy record %d'" % fmt)

    def _box(self, it, w, fmt):
        """hand N (commit C [seed S nonce X] | fingerprint P deal D | deal D)
        box B captain C sitter S"""
        tail = w[-6:]
        if len(w) < 10 or tail[0] != "box" or tail[2] != "captain" or tail[4] != "sitter":
            raise Refused(it, "a box hand line ends 'box B captain C sitter S'")
        roles = []
        for x in (tail[1], tail[3], tail[5]):
            if x not in ("0", "1", "2") or int(x) in roles:
                raise Refused(it, "the roles are players 0, 1 and 2, one each")
            roles.append(int(x))
        self.roles = tuple(roles)
        mid = w[2:-6]
        if mid and mid[0] == "commit" and fmt >= 3:
            if len(mid) == 6 and mid[2] == "seed" and mid[4] == "nonce":
                self._revealed(it, mid[3], mid[5])
            elif len(mid) == 2:
                self.kind = "open"
            else:
                raise Refused(it, "expected 'hand N commit C seed S nonce X box B captain C sitter "
                              "S' (or, for the hand in play, 'hand N commit C box B ...')")
            self._commit(it, mid[1], fmt)
        elif fmt >= 2 and len(mid) == 4 and mid[0] == "fingerprint" and mid[2] == "deal":
            self._numbered(mid[1], mid[3])
        elif fmt == 1 and len(mid) == 2 and mid[0] == "deal":
            self._numbered(None, mid[1])
        else:
            raise Refused(it, "not a hand line of a 'gin-rummy box record %d'" % fmt)

    def _revealed(self, it, seed, nonce):
        self.kind = "revealed"
        self.seed = hex16(it, seed, "seed")
        self.nonce = hex16(it, nonce, "nonce")

    def _commit(self, it, c, fmt):
        n = COMMIT_DIGITS[fmt]
        if len(c) != n or not is_hex(c):
            raise Refused(it, "a commitment is %d hex digits, not %r" % (n, c))
        self.commit = c

    def _numbered(self, fp, deal):
        self.kind = "numbered"
        self.fp = fp
        self.deal = nat(deal)


def split_hands(body):
    """(lines before the first hand, [(hand line, [its lines])]) of items."""
    before = []
    hands = []
    for it in body:
        if it[2][0] == "hand":
            hands.append((it, []))
        elif hands:
            hands[-1][1].append(it)
        else:
            before.append(it)
    return before, hands


def is_move(w, seats):
    """True for the words of a move line: a seat (or player) of `seats` and a move."""
    return len(w) == 2 and w[0] in seats


def running(results):
    """The two seats' scores after a two-player match's `results`."""
    s = [0, 0]
    for r in results:
        if r.winner is not None:
            s[r.winner] += r.points
    return s


def match_args(head, last):
    """The Match or BoxMatch arguments of a record of format 5 (its cut,
    seats, level, version and match commitment, and the secret its last
    lines `last` reveal: Refused when that does not give the match
    commitment); {} for an older format."""
    if head.format < 5:
        return {}
    secret = None
    for it in last:
        if it[2][0] == "secret" and len(it[2]) == 2:
            secret = hex16(it, it[2][1], "secret")
            if secret_commitment(secret) != head.pledge:
                raise Refused(it, "SHA-256 of this secret is not the match commitment %s..."
                              % hex_text(head.pledge)[:16])
    kw = head.match_kw()
    kw["secret"] = secret
    return kw
