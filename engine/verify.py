"""The check of a game record: every line accounted for, hand by hand,
and a verdict that says what it checked.

    status = verify_record(text, write)     # 0 verified, 1 not, 2 unreadable
    status, lines = check(data)             # the same, from a file's bytes or text

Its users are the ones who verify: tools/records/replay.py --verify (the
command line, on CPython and the MicroPython unix port) and the web page's
"Check a game record" panel (web/webport.py, on the MicroPython WebAssembly
port), so both give a record the same verdict. The handheld never imports
it: tools/deploy/deploy.py leaves it out of the device's .mpy bundle
(HOST_ONLY), and a frozen firmware (.uf2; manifest.py freezes engine/
whole) carries it in flash only, using no heap as nothing imports it.

What is checked, for a two-player record (engine/record.py) and a V6 box
record (engine/box.py) alike:

- the header, the version line (a version this game can read the format
  of, and one that wrote that format), the rules line and the seed line;
- a two-player record's `mirror` line, where there is one (a link match's
  second board, docs/LINK.md): its hands are dealt with the seats swapped
  and its seat 1 starts where seat 0 would; versions before link play
  wrote none;
- each hand line's form and number (hand 1, 2, ... in order) and, for a
  committed deal, that its seed and nonce give its commitment; for a deal
  number, its fingerprint;
- every hand dealt again and every move played through the rules'
  legality checks, each written as the engine writes it;
- every finished hand's result line, its points recomputed and compared
  (a finished hand without one is refused), the running scores and the
  winner line (box records: the roles of every hand, the role draws and
  the closing scores line);
- a committed hand still in play when the record was written (its seed and
  nonce are not revealed) only as the record's last hand, with nothing but
  moves after it; those moves are checked to be possible: a deal is made
  up that fits them and they are played through the rules on it (right
  player to move, cards that player can hold, the discard pile's top card
  taken, no move that would have ended the hand). The verdict says that
  hand's deal is unverified and why.

A record cut short (the end of the file inside a hand whose seed is
revealed, or before the winner line of a match that is over) is INCOMPLETE,
never verified. Every refusal names the record line (as numbered in the
file, comments and blank lines counted) and what is wrong with it.

Blank lines, lines starting with `#` and runs of spaces are not part of
the record's content: both kinds of record read them alike.

Exit status (replay.py; check()'s status): 0 verified; 1 not verified (a
line that does not agree, a missing or extra line, incomplete); 2
unreadable (not a game record: not text, more than MAX_BYTES, no hand in
it, from a newer version of the game).

What a record of format 3 (version 1.0.0) cannot show: its commitments are
40 bits and cover only the hand's seed and nonce, so its seed line (in a
two-player record), the rules (beyond what the moves and scores agree
with), the hands' numbers and order are not covered by any commitment.
The verdict of such a record says so.

Runs on CPython and the MicroPython unix and WebAssembly ports (plain
string work).
"""

from engine.cards import card, card_text
from engine.deal import chained_commitment, chained_nonce, commitment, match_commitment
from engine.hand import Hand, OVER, action_code, action_text
from engine.record_read import NewerRecord
from engine.rng import fingerprint_text
from engine.rules import Rules
from engine.sha256 import from_hex, hex_text
from engine.version import VERSION
from engine.version_parse import parse as parse_version

VERIFIED = 0
NOT_VERIFIED = 1
UNREADABLE = 2

HEADERS = {"gin-rummy record 4": 4, "gin-rummy record 3": 3, "gin-rummy record 2": 2,
           "gin-rummy record 1": 1}
BOX_HEADERS = {"gin-rummy box record 4": 4, "gin-rummy box record 3": 3,
               "gin-rummy box record 2": 2, "gin-rummy box record 1": 1}
NEWEST = 4
# the first version of the game that wrote each format with a version line
# (format 4, the chained commitments, from the development builds of 1.1.0)
FIRST_TEXT = {3: "1.0.0", 4: "1.1.0-dev"}
FIRST_VERSION = {3: parse_version("1.0.0"), 4: parse_version("1.1.0-dev")}
COMMIT_DIGITS = {3: 10, 4: 64}
SEED_LIMIT = 1 << 30
MAX_BYTES = 1 << 18     # 256 KB: a long match's record is tens of KB


class Unreadable(ValueError):
    """No game record this verifier can read (exit status 2)."""


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
    lines and `#` comments (numbers as in the file)."""
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


def version_of(s):
    """engine.version_parse.parse's tuple of 'X.Y.Z' or 'X.Y.Z-dev' as the game
    writes it (no leading zero, no sign), or None."""
    try:
        v = parse_version(s)
    except ValueError:
        return None
    written = "%d.%d.%d" % v[:3] + ("" if v[3] else "-dev")
    return v if written == s else None


class Head:
    """The lines before the first hand: format, version, rules, seed."""

    def __init__(self, items, box):
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
                                  "game (%s) reads (%d): verify it with a newer version"
                                  % (f, VERSION, NEWEST))
            raise Unreadable("not a game record: its first line is not '%s%d'" % (prefix, NEWEST))
        self.format = fmt
        self.version = None
        k = 1
        if fmt >= 3:
            it = self._line(items, k, "version", "'version X.Y.Z'")
            if len(it[2]) != 2:
                raise Refused(it, "expected 'version X.Y.Z'")
            v = version_of(it[2][1])
            if v is None:
                raise Refused(it, "%r is not a version X.Y.Z (or X.Y.Z-dev)" % it[2][1])
            # a verifier vouches only for what versions up to its own wrote
            # (the version line is in no commitment: a newer one, even a
            # patch or the release a development build leads to, may have
            # written what this one cannot check)
            mine = version_of(VERSION)
            if v > mine:
                raise NewerRecord("the record was written by version %s of the game, newer than "
                                  "this one (%s): verify it with version %s or later"
                                  % (it[2][1], VERSION, it[2][1]))
            low = FIRST_VERSION[fmt]
            if v < low:
                raise Refused(it, "version %s contradicts the header: 'gin-rummy %srecord %d' was "
                              "first written by version %s" % (it[2][1], "box " if box else "",
                                                                  fmt, FIRST_TEXT[fmt]))
            self.version = v
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
        if fmt >= 4:
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
            self.mirror = True
            k += 1
        self.next = k + 1

    def _line(self, items, k, word, form):
        if k >= len(items):
            raise Unreadable("the record holds no hand: it ends at line %d, before its %s line"
                             % (items[-1][0], word))
        it = items[k]
        if it[2][0] != word:
            raise Refused(it, "expected %s here" % form)
        return it


def _hex16(it, s, what):
    try:
        b = from_hex(s)
    except ValueError:
        b = b""
    if len(b) != 16:
        raise Refused(it, "the %s is 32 hex digits, not %r" % (what, s))
    return b


def _seat(w, seats):
    return len(w) == 2 and w[0] in seats


class Verdict:
    """Hand by hand lines and the verdict, written as they are known."""

    def __init__(self, write, hands):
        self.write = write
        self.hands = hands          # [(number, what)] of every hand line
        self.done = 0               # hands said so far

    def hand(self, line):
        self.write("hand %d: %s\n" % (self.done + 1, line))
        self.done += 1

    def fail(self, r):
        """A refusal at the hand being checked: that hand, the rest not checked."""
        word = "INCOMPLETE" if r.incomplete else "NOT VERIFIED"
        if self.done < len(self.hands):
            what = self.hands[self.done][1]
            self.hand("%s%s: %s" % (what + ": " if what else "", word, r.text()))
            while self.done < len(self.hands):
                self.hand("%s: not checked (the check stopped before it)" % self.hands[self.done][1])
        else:
            self.write("%s: %s\n" % (word, r.text()))
        if r.incomplete:
            self.write("INCOMPLETE: the record is cut short, so it is not verified\n")
        else:
            self.write("NOT VERIFIED: the record does not come from the deals it committed to "
                       "and legal play\n")
        return NOT_VERIFIED


def verify_record(text, write, noted=None):
    """Check a record (two-player or box); write the lines; return the exit
    status. noted: the DEAL # the player noted, hand by hand (hex text; ""
    for a hand not noted): a commitment that does not start with its note
    is refused."""
    items = items_of(text)
    box = bool(items) and items[0][1].startswith("gin-rummy box record")
    try:
        head = Head(items, box)
    except Refused as r:
        Verdict(write, []).fail(r)
        return NOT_VERIFIED
    body = items[head.next:]
    if box:
        return check_box(head, body, write, noted)
    return check_two(head, body, write, noted)


def record_text(data):
    """(text, None), or (None, why) for data that is not a game record:
    empty, more than MAX_BYTES, not ASCII text, without the header or cut
    short in a line. data: a file's bytes, or its text with one character
    per byte (the web page's file reader)."""
    if len(data) > MAX_BYTES:
        return None, "not a game record: more than %d bytes" % MAX_BYTES
    if not data:
        return None, "not a game record: the file is empty"
    text = isinstance(data, str)
    i = 0
    for b in data:                      # by iteration: MicroPython indexes a
        if text:                        # str that is not ASCII from its start
            b = ord(b)
        if b >= 128 or b < 32 and b not in (9, 10, 13):
            return None, ("not a game record: byte %d (0x%02x) is not text "
                          "(a record is plain ASCII)" % (i, b))
        i += 1
    if not text:
        data = data.decode()
    first = ""
    for ln in data.split("\n"):        # the first line that is no comment
        first = ln.strip()
        if first and first[0] != "#":
            break
    first = " ".join(first.split())
    kind = first[:-1].rstrip() if first[-1:].isdigit() else ""
    if kind not in ("gin-rummy record", "gin-rummy box record"):
        return None, "not a game record: it does not start with 'gin-rummy record N'"
    if not data.endswith("\n"):
        return None, "the record is cut short: its last line has no end"
    return data, None


def noted_list(text):
    """['3FA09C21B7', '', ...] from '3FA09C21B7,-,...' (- or nothing: a hand
    not noted); ValueError for what is not 4 to 64 hex digits."""
    out = []
    for part in text.split(","):
        p = part.strip().upper()
        if p.startswith("DEAL"):
            p = p[4:].strip()
        if p.startswith("#"):
            p = p[1:]
        if p in ("", "-"):
            out.append("")
            continue
        if not 4 <= len(p) <= 64:
            raise ValueError("--noted: %r is not 4 to 64 hex digits" % part)
        for ch in p:
            if ch not in "0123456789ABCDEF":
                raise ValueError("--noted: %r is not 4 to 64 hex digits" % part)
        out.append(p)
    return out


def check(data, noted=None):
    """(status, [lines]) of a file's bytes or text: record_text, then
    verify_record, with an unreadable record or a fault of this check said
    in one line (status 2), as replay.py --verify says them."""
    out = []
    text, why = record_text(data)
    if text is None:
        return UNREADABLE, [why]
    try:
        status = verify_record(text, out.append, noted)
    except (NewerRecord, Unreadable) as e:
        return UNREADABLE, [str(e)]
    except MemoryError:
        return UNREADABLE, ["not enough memory to check it here"]
    except Exception as e:   # a fault of this check, not a verdict on the record
        return UNREADABLE, ["the check failed with an error it does not expect (%s: %s): it "
                            "cannot say whether the record is genuine" % (type(e).__name__, e)]
    lines = []
    for chunk in out:
        for ln in chunk.split("\n"):
            if ln:
                lines.append(ln)
    return status, lines


# -- two-player records ---------------------------------------------------------

def _hand_what(w):
    if len(w) >= 4 and w[2] == "commit":
        return "commitment %s" % (w[3] if len(w[3]) <= 10 else w[3][:10] + "...")
    if len(w) >= 6 and w[2] == "fingerprint":
        return "fingerprint %s of deal %s" % (w[3], w[5])
    if len(w) >= 4 and w[2] == "deal":
        return "deal %s" % w[3]
    return ""


def split_hands(body, extra_words=()):
    """(lines before the first hand, [(hand line, [its lines])])."""
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


class HandLine:
    """A two-player hand line read: its kind ('revealed', 'open', 'numbered'),
    commitment, seed, nonce, deal number, fingerprint and first player."""

    def __init__(self, it, k, fmt):
        w = it[2]
        self.item = it
        n = nat(w[1]) if len(w) > 1 else None
        if n is None:
            raise Refused(it, "a hand line is 'hand N ...' with N the hand's number (%d)" % k)
        if n != k:
            raise Refused(it, "this is hand %d of the record, not hand %d" % (k, n))
        self.commit = self.seed = self.nonce = self.deal = self.fp = None
        if len(w) >= 3 and w[2] == "commit" and fmt >= 3:
            if len(w) == 10 and w[4] == "seed" and w[6] == "nonce" and w[8] == "first":
                self.kind = "revealed"
                self.seed = _hex16(it, w[5], "seed")
                self.nonce = _hex16(it, w[7], "nonce")
            elif len(w) == 6 and w[4] == "first":
                self.kind = "open"
            else:
                raise Refused(it, "expected 'hand N commit C seed S nonce X first F' (or, for the "
                              "hand in play, 'hand N commit C first F')")
            self.commit = w[3]
            _commit_form(it, self.commit, fmt)
        elif fmt >= 2 and len(w) == 8 and w[2] == "fingerprint" and w[4] == "deal" and w[6] == "first":
            self.kind = "numbered"
            self.fp = w[3]
            self.deal = nat(w[5])
        elif fmt == 1 and len(w) == 6 and w[2] == "deal" and w[4] == "first":
            self.kind = "numbered"
            self.deal = nat(w[3])
        else:
            raise Refused(it, "not a hand line of a 'gin-rummy record %d'" % fmt)
        if self.kind == "numbered" and (self.deal is None or self.deal >= SEED_LIMIT):
            raise Refused(it, "a deal number is 0..%d" % (SEED_LIMIT - 1))
        if w[-1] not in ("0", "1"):
            raise Refused(it, "the first player is seat 0 or 1, not %r" % w[-1])
        self.first = int(w[-1])


def _commit_form(it, c, fmt):
    n = COMMIT_DIGITS[fmt]
    if len(c) != n or not _is_hex(c):
        raise Refused(it, "a commitment is %d hex digits, not %r" % (n, c))


def check_commitment(fmt, hl, k, prev):
    """(why or None, the chain after hand k) for revealed hand line `hl`:
    format 3, 40 bits of SHA-256(seed, nonce); format 4, the chain."""
    if fmt < 4:
        got = commitment(hl.seed, hl.nonce)
        if got != hl.commit:
            return ("commitment %s, but SHA-256 of the seed and nonce revealed starts %s"
                    % (hl.commit, got)), prev
        return None, prev
    nonce = chained_nonce(prev, hl.seed)
    if nonce != hl.nonce:
        return ("the nonce %s is not the one the commitment before it and the seed give (%s): "
                "a hand's nonce is fixed by them" % (hex_text(hl.nonce), hex_text(nonce))), prev
    c = chained_commitment(prev, k, hl.seed, hl.nonce)
    if hex_text(c) != hl.commit:
        return ("commitment %s..., but SHA-256 of the commitment before it, the hand's number "
                "(%d), seed and nonce is %s..." % (hl.commit[:16], k, hex_text(c)[:16])), prev
    return None, c


def check_noted(hl, k, noted):
    """Refused when the player noted hand k's DEAL # and the record's
    commitment does not start with it."""
    if noted and k <= len(noted) and noted[k - 1] and hl.commit is not None \
            and not hl.commit.startswith(noted[k - 1]):
        raise Refused(hl.item, "you noted DEAL #%s for hand %d; this record's commitment starts "
                      "%s: these are not the deals the handheld showed"
                      % (noted[k - 1], k, hl.commit[:len(noted[k - 1])]))


def _is_hex(s):
    for ch in s:
        if ch not in "0123456789ABCDEF":
            return False
    return True


def next_first(rules, prev_first, last, mirror=False):
    """The seat that starts the hand after one started by `prev_first` and
    ending in `last` (engine.Match's rule: R2, V5); `mirror`: a link
    match's second board, whose seat 1 is the other board's seat 0."""
    if rules.first == "human":
        return 1 if mirror else 0
    if rules.first == "alternate":
        return 1 - prev_first
    return prev_first if last.winner is None else 1 - last.winner


def result_words(res, scores):
    if res.winner is None:
        head = "result draw %s" % res.why
    else:
        head = "result %s seat %d points %d" % (res.kind, res.winner, res.points)
    return ("%s scores %d %d" % (head, scores[0], scores[1])).split()


def winner_words(m):
    line = "winner %d scores %d %d" % (m.winner, m.scores[0], m.scores[1])
    e = m.end
    if m.rules.match_bonus:
        line += " bonus %d %d %d total %d" % (e.game_bonus, e.hand_bonus, e.shutout_bonus, e.total)
    return line.split()


def play_move(it, hand, tok, act=None):
    """Play the move of line `it` on `hand` (an engine Hand) through act(tok)
    (a Match's or BoxMatch's act, which scores the hand it ends; None: the
    hand's own apply); Refused if it is not legal or not written as the
    engine writes it. The caller has checked it is that player's move."""
    if hand.phase == OVER:
        raise Refused(it, "a move after the hand was over")
    try:
        code = action_code(tok)
    except ValueError as e:
        raise Refused(it, str(e))
    if tok.startswith("draw_upcard:"):
        up = hand.upcard()
        if up > 51 or tok[12:] != card_text(up):
            raise Refused(it, "the discard pile's top card is the %s" % (
                card_text(up) if up <= 51 else "none"))
    why = hand.apply(code) if act is None else act(tok)
    if why:
        raise Refused(it, why)
    done = action_text(hand.log[len(hand.log) - 1])
    if done != tok:
        raise Refused(it, "the move is written %r" % done)


def turn_of(it, hand, seat):
    if hand.phase != OVER and hand.turn != seat:
        raise Refused(it, "it is not this player's move")


def possible_moves(rules, first, moves):
    """Check the moves of a hand whose deal is not revealed: make up a deal
    they fit and play them through the rules on it. moves: [(item, hand
    seat, move text)]. Refused for the first move no deal allows, or for
    moves that end the hand (a hand over has its seed revealed)."""
    deck = bytearray(52)
    placed = bytearray(52)       # by deck position
    used = bytearray(52)         # by card
    free = [list(range(0, 10)), list(range(10, 20))]
    drawn = [[], []]             # stock positions each seat drew, not yet placed
    held = [[], []]              # cards known in each seat's hand (taken from the pile)
    pile = [-1]                  # -1: the upcard, not known yet
    k = 0
    for it, seat, tok in moves:
        try:
            action_code(tok)
            c = card(tok[tok.find(":") + 1:]) if ":" in tok else -1
        except ValueError as e:
            raise Refused(it, str(e))
        if tok == "draw_stock":
            if k < 31:
                drawn[seat].append(51 - k)
            k += 1
        elif tok.startswith("draw_upcard"):
            if not pile:
                raise Refused(it, "the discard pile is empty")
            top = pile[-1]
            if top < 0:
                if used[c]:
                    raise Refused(it, "the %s cannot be the upcard: it is elsewhere" % tok[12:])
                deck[20] = c
                placed[20] = 1
                used[c] = 1
            elif top != c:
                raise Refused(it, "the discard pile's top card is the %s" % card_text(top))
            pile.pop()
            held[seat].append(c)
        elif c >= 0:
            if c in held[seat]:
                held[seat].remove(c)
            elif used[c]:
                raise Refused(it, "this player cannot hold the %s: it is elsewhere" % card_text(c))
            else:
                if free[seat]:
                    p = free[seat].pop(0)
                elif drawn[seat]:
                    p = drawn[seat].pop(0)
                else:
                    raise Refused(it, "this player holds no card that could be the %s"
                                  % card_text(c))
                deck[p] = c
                placed[p] = 1
                used[c] = 1
            pile.append(c)
    rest = [c for c in range(52) if not used[c]]
    j = 0
    for p in range(52):
        if not placed[p]:
            deck[p] = rest[j]
            j += 1
    h = Hand(rules, deck, first, None)
    for it, seat, tok in moves:
        turn_of(it, h, seat)
        play_move(it, h, tok)
        if h.phase == OVER:
            raise Refused(it, "this move ends the hand, but the hand line does not reveal its "
                          "seed and nonce as a finished hand's does")
    return len(moves)


def _broken(v, hands, why, hit, write):
    v.hand("NOT VERIFIED: %s (record line %d)" % (why, hit[0]))
    while v.done < len(hands):
        v.hand("%s: not checked (the check stopped before it)" % v.hands[v.done][1])
    write("NOT VERIFIED: the record does not come from the deals it committed to and legal "
          "play\n")
    return NOT_VERIFIED


def _said(fmt, what, k):
    if fmt >= 4:
        return "%s = SHA-256(the commitment before it, hand %d, seed, nonce): verified; dealt " \
               "again from the seed and replayed" % (what, k)
    return "%s = SHA-256(seed, nonce): verified; dealt again from the seed and replayed" % what


def check_two(head, body, write, noted=None):
    """A two-player record's hands, after its header lines."""
    from engine.match import Match

    before, hands = split_hands(body)
    if not hands:
        if before:
            Verdict(write, []).fail(Refused(before[0], "a line before any hand line"))
            return NOT_VERIFIED
        raise Unreadable("the record holds no hand: it is cut short")
    v = Verdict(write, [(i + 1, _hand_what(hands[i][0][2])) for i in range(len(hands))])
    if before:
        return v.fail(Refused(before[0], "a line before the first hand line"))
    fmt = head.format
    rules = head.rules
    m = None
    chain = head.chain
    reveals = []
    kind = None
    last_res = None
    prev_first = 0
    try:
        for i in range(len(hands)):
            k = i + 1
            hit, rest = hands[i]
            final = i == len(hands) - 1
            hl = HandLine(hit, k, fmt)
            check_noted(hl, k, noted)
            if kind is None:
                kind = "numbered" if hl.kind == "numbered" else "committed"
            elif (hl.kind == "numbered") != (kind == "numbered"):
                raise Refused(hit, "hands of one match are all committed or all dealt by numbers")
            if m is not None and m.winner is not None:
                raise Refused(hit, "the match was over after hand %d" % (k - 1))
            if hl.kind == "open":
                if not final:
                    raise Refused(hit, "a hand whose seed is not revealed (in play) can only be the "
                                  "record's last")
                first = (1 if head.mirror else 0) if m is None else \
                    next_first(rules, prev_first, last_res, head.mirror)
                if hl.first != first:
                    raise Refused(hit, "hand %d's first player is seat %d" % (k, first))
                moves = []
                for it in rest:
                    if not _seat(it[2], ("0", "1")):
                        raise Refused(it, "only moves can follow the hand in play (its seed is not "
                                      "revealed, so it is not over)")
                    moves.append((it, int(it[2][0]), it[2][1]))
                possible_moves(rules, first, moves)
                return _in_play(v, i, len(moves), head, kind, write, False, noted, len(hands), k)
            if hl.kind == "revealed":
                why, chain = check_commitment(fmt, hl, k, chain)
                if why:
                    return _broken(v, hands, why, hit, write)
                reveals.append((hl.seed, hl.nonce))
            if m is None:
                m = Match(rules, head.seed, reveals=reveals if kind == "committed" else None,
                          mirror=head.mirror)
            else:
                why = m.next_hand()
                if why:
                    raise Refused(hit, why)
            h = m.hand
            if hl.kind == "numbered":
                _check_deal_number(hl, h, k, fmt, hit)
            if hl.first != h.first:
                raise Refused(hit, "hand %d's first player is seat %d" % (k, h.first))
            res_seen = None
            last_move = hit
            for it in rest:
                w = it[2]
                if _seat(w, ("0", "1")):
                    if res_seen is not None:
                        raise Refused(it, "a move after the hand's result line")
                    turn_of(it, h, int(w[0]))
                    play_move(it, h, w[1], m.act)
                    last_move = it
                elif w[0] == "result":
                    if res_seen is not None:
                        raise Refused(it, "a second result line for hand %d" % k)
                    if len(m.results) < k:
                        raise Refused(it, "a result line, but the hand is not over")
                    want = result_words(m.results[k - 1], _running(m))
                    if w != want:
                        raise Refused(it, "the replay gives %r" % " ".join(want))
                    res_seen = it
                elif w[0] == "winner":
                    if res_seen is None:
                        raise Refused(it, "a winner line before the hand's result line")
                    if m.winner is None:
                        raise Refused(it, "the match is not over: scores %d %d"
                                      % (m.scores[0], m.scores[1]))
                    if not final or it is not rest[-1]:
                        raise Refused(it, "the winner line is the record's last line")
                    want = winner_words(m)
                    if w != want:
                        raise Refused(it, "the replay gives %r" % " ".join(want))
                else:
                    raise Refused(it, "not a line of a game record")
            over = len(m.results) >= k
            if over and res_seen is None:
                if final:
                    raise Refused(last_move, "the record ends here: hand %d is over after this "
                                  "line, but its result line is missing" % k, True)
                raise Refused(hands[i + 1][0], "hand %d was over (its last move is record line "
                              "%d), but its result line is missing" % (k, last_move[0]))
            if not over:
                if not final:
                    raise Refused(hands[i + 1][0], "hand %d is not over: its moves stop at record "
                                  "line %d" % (k, last_move[0]))
                if hl.kind == "revealed":
                    raise Refused(last_move, "the record ends here, inside hand %d: its seed and "
                                  "nonce are revealed, so it was over when the record was written"
                                  % k, True)
            if final and m.winner is not None and rest[-1][2][0] != "winner":
                raise Refused(rest[-1], "the record ends here: the match is over (seat %d wins), "
                              "but its winner line is missing" % m.winner, True)
            if hl.kind == "revealed":
                what = _said(fmt, v.hands[i][1], k)
            else:
                what = "%s: matches; dealt again and replayed (a deal number: a check, not a " \
                       "commitment)" % v.hands[i][1] if fmt >= 2 else \
                    "%s: dealt again and replayed (a record from before fingerprints)" % v.hands[i][1]
            if over:
                r = m.results[k - 1]
                what += "; result recomputed: %s" % (
                    "no score (%s)" % r.why if r.winner is None else
                    "%s, %d points to seat %d" % (r.kind, r.points, r.winner))
            else:
                what += "; in play when the record was written: its %d moves so far" % len(h.log)
            v.hand(what)
            last_res = m.results[k - 1] if over else None
            prev_first = h.first
    except Refused as r:
        return v.fail(r)
    n = len(hands)
    _note(head, kind, write, False, noted, len(hands))
    write("verified: %d hand%s, every commitment, deal, move and result\n"
          % (n, "" if n == 1 else "s") if kind == "committed" else
          "verified: %d hand%s, every deal, move and result\n" % (n, "" if n == 1 else "s"))
    return VERIFIED


def _note(head, kind, write, box=False, noted=None, hands=0):
    k = 0
    for i in range(min(len(noted or ()), hands)):
        if noted[i]:
            k += 1
    if k:
        write("noted: the commitment%s of %d hand%s start%s with the DEAL # you noted\n"
              % ("" if k == 1 else "s", k, "" if k == 1 else "s", "s" if k == 1 else ""))
    if getattr(head, "mirror", False):
        write("note: the record of a link match's second board (its mirror line): seat 0 is "
              "that board's player, dealt what the other board's record deals seat 1; the "
              "commitments are the same on both boards' records, and the mirror line is in "
              "none of them\n")
    if kind == "numbered":
        write("note: a match dealt by deal numbers has no commitments: a deal number is a check "
              "of the deal, and the rules are checked only as far as the play agrees with them\n")
    if kind == "committed" and head.format == 3:
        write("note: in this record's format (3, version 1.0.0) a commitment is 40 bits of "
              "SHA-256(seed, nonce) and covers nothing else: %sthe rules and the hands' numbers "
              "and order are checked only as far as the play agrees with them\n"
              % ("" if box else "the seed line, "))



def _check_deal_number(hl, h, k, fmt, hit):
    """Hand k of a match dealt by deal numbers: its hand line names the deal
    it was dealt (and, from format 2, that deal's fingerprint)."""
    if hl.deal != h.deal:
        raise Refused(hit, "the seed line's hand %d is deal %d" % (k, h.deal))
    if fmt >= 2 and hl.fp != fingerprint_text(h.deal):
        raise Refused(hit, "deal %d has the fingerprint %s, not %s"
                      % (h.deal, fingerprint_text(h.deal), hl.fp))


def _in_play(v, i, n_moves, head, kind, write, box, noted, n_hands, k):
    """VERIFIED for a record whose last hand, hand k, is still in play: its
    deal unverified (seed and nonce not revealed), its moves checked to fit
    the rules, every hand before it verified."""
    v.hand("%s: in play when the record was written; seed and nonce not revealed: its "
           "deal is unverified; its %d move%s fit the rules (checked on a deal made "
           "up to fit them)" % (v.hands[i][1], n_moves, "" if n_moves == 1 else "s"))
    _note(head, kind, write, box, noted, n_hands)
    write("verified: %d hand%s, every commitment, deal, move and result; hand %d "
          "unverified: in play when the record was written, its seed not revealed "
          "yet\n" % (k - 1, "" if k == 2 else "s", k))
    return VERIFIED

def _running(m):
    s = [0, 0]
    for r in m.results:
        if r.winner is not None:
            s[r.winner] += r.points
    return s


# -- V6 box records -----------------------------------------------------------------

class BoxHandLine:
    """A box hand line read: as HandLine, with the roles (box, captain, sitter)."""

    def __init__(self, it, k, fmt):
        w = it[2]
        self.item = it
        n = nat(w[1]) if len(w) > 1 else None
        if n is None:
            raise Refused(it, "a hand line is 'hand N ...' with N the hand's number (%d)" % k)
        if n != k:
            raise Refused(it, "this is hand %d of the record, not hand %d" % (k, n))
        self.commit = self.seed = self.nonce = self.deal = self.fp = None
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
                self.kind = "revealed"
                self.seed = _hex16(it, mid[3], "seed")
                self.nonce = _hex16(it, mid[5], "nonce")
            elif len(mid) == 2:
                self.kind = "open"
            else:
                raise Refused(it, "expected 'hand N commit C seed S nonce X box B captain C sitter "
                              "S' (or, for the hand in play, 'hand N commit C box B ...')")
            self.commit = mid[1]
            _commit_form(it, self.commit, fmt)
        elif fmt >= 2 and len(mid) == 4 and mid[0] == "fingerprint" and mid[2] == "deal":
            self.kind = "numbered"
            self.fp = mid[1]
            self.deal = nat(mid[3])
        elif fmt == 1 and len(mid) == 2 and mid[0] == "deal":
            self.kind = "numbered"
            self.deal = nat(mid[1])
        else:
            raise Refused(it, "not a hand line of a 'gin-rummy box record %d'" % fmt)
        if self.kind == "numbered" and (self.deal is None or self.deal >= SEED_LIMIT):
            raise Refused(it, "a deal number is 0..%d" % (SEED_LIMIT - 1))


def box_result_words(res, roles):
    if res.winner is None:
        return ("result draw %s" % res.why).split()
    p = roles[1] if res.winner == 0 else roles[0]
    return ("result %s player %d points %d" % (res.kind, p, res.points)).split()


def _box_seat(roles, player):
    """Hand seat of a player (0 captain, 1 box), or None for the sitter."""
    if player == roles[1]:
        return 0
    if player == roles[0]:
        return 1
    return None


_DUMMY = (bytes(16), bytes(16))


def check_box(head, body, write, noted=None):
    """A V6 box record's role draws, hands and closing lines."""
    from engine.box import BoxMatch

    before, hands = split_hands(body)
    if not hands:
        raise Unreadable("the record holds no hand: it is cut short")
    v = Verdict(write, [(i + 1, _hand_what(hands[i][0][2])) for i in range(len(hands))])
    fmt = head.format
    reveals = []
    chain = head.chain
    kind = None
    bm = None
    try:
        hl = BoxHandLine(hands[0][0], 1, fmt)
        kind = "numbered" if hl.kind == "numbered" else "committed"
        if hl.kind == "revealed":
            reveals.append((hl.seed, hl.nonce))
        probe = BoxMatch(head.rules, head.seed, reveals=[_DUMMY] if hl.kind == "open" else
                         (reveals if kind == "committed" else None))
        draws = probe.draws
        if len(before) != len(draws):
            raise Refused(before[len(draws)] if len(before) > len(draws) else hands[0][0],
                          "the seed's role draws are %d line%s 'draw X Y Z'"
                          % (len(draws), "" if len(draws) == 1 else "s"))
        for j in range(len(draws)):
            d = draws[j]
            want = ["draw", card_text(d[0]), card_text(d[1]), card_text(d[2])]
            if before[j][2] != want:
                raise Refused(before[j], "the seed's role draw is %r" % " ".join(want))
    except Refused as r:
        return v.fail(r)
    try:
        for i in range(len(hands)):
            k = i + 1
            hit, rest = hands[i]
            final = i == len(hands) - 1
            hl = BoxHandLine(hit, k, fmt)
            check_noted(hl, k, noted)
            if (hl.kind == "numbered") != (kind == "numbered"):
                raise Refused(hit, "hands of one match are all committed or all dealt by numbers")
            if bm is not None and bm.winner is not None:
                raise Refused(hit, "the match was over after hand %d" % (k - 1))
            if hl.kind == "open":
                if not final:
                    raise Refused(hit, "a hand whose seed is not revealed (in play) can only be the "
                                  "record's last")
                roles = probe.roles if bm is None else bm.rotate(bm.results[-1][0])
                if hl.roles != roles:
                    raise Refused(hit, "hand %d's roles are box %d captain %d sitter %d" % (
                        (k,) + tuple(roles)))
                moves = []
                tail = []
                for it in rest:
                    w = it[2]
                    if tail or w[0] in ("scores", "winner"):
                        tail.append(it)
                        continue
                    if not _seat(w, ("0", "1", "2")):
                        raise Refused(it, "only moves can follow the hand in play (its seed is not "
                                      "revealed, so it is not over)")
                    s = _box_seat(roles, int(w[0]))
                    if s is None:
                        raise Refused(it, "player %s sits this hand out" % w[0])
                    moves.append((it, s, w[1]))
                possible_moves(head.rules, 0, moves)
                scores = [0, 0, 0] if bm is None else bm.scores
                _box_close(tail, rest, scores, None)
                return _in_play(v, i, len(moves), head, kind, write, True, noted, len(hands), k)
            if hl.kind == "revealed":
                why, chain = check_commitment(fmt, hl, k, chain)
                if why:
                    return _broken(v, hands, why, hit, write)
                if k > 1:
                    reveals.append((hl.seed, hl.nonce))
            if bm is None:
                bm = probe if hl.kind != "open" else None
            else:
                why = bm.next_hand()
                if why:
                    raise Refused(hit, why)
            h = bm.hand
            if hl.kind == "numbered":
                _check_deal_number(hl, h, k, fmt, hit)
            if hl.roles != bm.hand_roles:
                raise Refused(hit, "hand %d's roles are box %d captain %d sitter %d" % (
                    (k,) + tuple(bm.hand_roles)))
            res_seen = None
            last_move = hit
            tail = []
            for it in rest:
                w = it[2]
                if tail or w[0] in ("scores", "winner"):
                    tail.append(it)
                elif _seat(w, ("0", "1", "2")):
                    if res_seen is not None:
                        raise Refused(it, "a move after the hand's result line")
                    s = _box_seat(bm.hand_roles, int(w[0]))
                    if s is None:
                        raise Refused(it, "player %s sits this hand out" % w[0])
                    turn_of(it, h, s)
                    play_move(it, h, w[1], bm.act)
                    last_move = it
                elif w[0] == "result":
                    if res_seen is not None:
                        raise Refused(it, "a second result line for hand %d" % k)
                    if len(bm.results) < k:
                        raise Refused(it, "a result line, but the hand is not over")
                    want = box_result_words(bm.results[k - 1][0], bm.results[k - 1][1])
                    if w != want:
                        raise Refused(it, "the replay gives %r" % " ".join(want))
                    res_seen = it
                else:
                    raise Refused(it, "not a line of a box game record")
            over = len(bm.results) >= k
            if tail and not final:
                raise Refused(tail[0], "the closing lines come after the last hand")
            if over and res_seen is None:
                if final and not tail:
                    raise Refused(last_move, "the record ends here: hand %d is over after this "
                                  "line, but its result line is missing" % k, True)
                raise Refused(tail[0] if final else hands[i + 1][0], "hand %d was over (its last "
                              "move is record line %d), but its result line is missing"
                              % (k, last_move[0]))
            if not over:
                if not final:
                    raise Refused(hands[i + 1][0], "hand %d is not over: its moves stop at record "
                                  "line %d" % (k, last_move[0]))
                if hl.kind == "revealed":
                    raise Refused(tail[0] if tail else last_move, "hand %d's seed and nonce are "
                                  "revealed, so it was over when the record was written, but its "
                                  "moves stop at record line %d" % (k, last_move[0]), not tail)
            if final:
                _box_close(tail, rest, bm.scores, bm.winner)
            if hl.kind == "revealed":
                what = _said(fmt, v.hands[i][1], k)
            else:
                what = "%s: matches; dealt again and replayed (a deal number: a check, not a " \
                       "commitment)" % v.hands[i][1] if fmt >= 2 else \
                    "%s: dealt again and replayed (a record from before fingerprints)" % v.hands[i][1]
            if over:
                r, roles = bm.results[k - 1]
                what += "; result recomputed: %s" % (
                    "no score (%s)" % r.why if r.winner is None else "%s, %d points to player %d"
                    % (r.kind, r.points, roles[1] if r.winner == 0 else roles[0]))
            else:
                what += "; in play when the record was written: its %d moves so far" % len(h.log)
            v.hand(what)
    except Refused as r:
        return v.fail(r)
    n = len(hands)
    _note(head, kind, write, True, noted, len(hands))
    write("verified: %d hand%s, every commitment, deal, move and result\n"
          % (n, "" if n == 1 else "s") if kind == "committed" else
          "verified: %d hand%s, every deal, move and result\n" % (n, "" if n == 1 else "s"))
    return VERIFIED


def _box_close(tail, rest, scores, winner):
    """The closing lines: 'scores A B C', then 'winner P' once the match is over."""
    want = [["scores"] + [str(x) for x in scores]]
    if winner is not None:
        want.append(["winner", str(winner)])
    for j in range(len(tail)):
        if j >= len(want):
            raise Refused(tail[j], "a line after the record's last")
        if tail[j][2] != want[j]:
            raise Refused(tail[j], "the replay gives %r" % " ".join(want[j]))
    if len(tail) < len(want):
        end = tail[-1] if tail else rest[-1] if rest else None
        raise Refused(end, "the record ends here, without its closing line %r"
                      % " ".join(want[len(tail)]), True)
