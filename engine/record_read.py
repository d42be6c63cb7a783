"""Reading game records (engine/record.py says what they hold, and
engine/record_format.py writes their lines): replay,
the commitments' check, and the version a record was written by."""
from .match import Match
from .rng import fingerprint_text
from .rules import Rules
from .deal import commitment, chained_nonce
from .sha256 import hex_text
from .sha256 import from_hex
from .version import VERSION
from .version_parse import parse as _version_tuple
from .record_format import (FORMAT, HEADER, HEADER_V3, HEADER_V2, HEADER_V1, PREFIX, hand_line,
                            revealed_line, result_line, winner_line)


class NewerRecord(ValueError):
    """A record from a newer version of the game than this one."""


def check_version(text):
    """ValueError if `text` is not a version X.Y.Z (or X.Y.Z-dev);
    NewerRecord if it is a newer major or minor version than this game's
    (a patch version writes the same format, and a development build of
    X.Y writes X.Y's)."""
    v = _version_tuple(text)
    mine = _version_tuple(VERSION)
    if v[:2] > mine[:2]:
        raise NewerRecord("the record was written by version %s of the game, newer than "
                          "this one (%s): replay it with version %s or later"
                          % (text, VERSION, text))
    return v


def read_reveals(lines, chained=False):
    """The (seed, nonce) of every revealed hand of a committed record, in
    order, and the number of the hand left unrevealed (0: none), from its
    hand lines; ValueError for a commitment its seed and nonce do not give
    (or None when the record deals by deal numbers)."""
    reveals = []
    open_hand = 0
    committed = None
    for n in range(len(lines)):
        w = lines[n].split()
        if not w or w[0] != "hand":
            continue
        where = "record line %d (%s)" % (n + 1, lines[n])
        c = len(w) >= 4 and w[2] == "commit"
        if committed is None:
            committed = c
        elif c != committed:
            raise ValueError("%s: hands of one match are all committed or all numbered" % where)
        if not c:
            continue
        if open_hand:
            raise ValueError("%s: hand %d before it was not revealed" % (where, open_hand))
        if len(w) == 6 and w[4] == "first":
            open_hand = len(reveals) + 1
            continue
        if len(w) != 10 or w[4] != "seed" or w[6] != "nonce" or w[8] != "first":
            raise ValueError("%s: expected 'hand N commit C seed S nonce X first F'" % where)
        try:
            hs = from_hex(w[5])
            nonce = from_hex(w[7])
        except ValueError:
            raise ValueError("%s: the seed and nonce are hex" % where)
        if len(hs) != 16 or len(nonce) != 16:
            raise ValueError("%s: a seed and a nonce are 32 hex digits each" % where)
        got = w[3] if chained else commitment(hs, nonce)     # a chain: checked line by line
        if got != w[3]:
            raise ValueError("%s: the commitment %s is not what its seed and nonce give (%s)"
                             % (where, w[3], got))
        reveals.append((hs, nonce))
    return (reveals if committed else None), open_hand


def replay(text, on_move=None):
    """Rebuild a match from a record; ValueError naming the line that fails.

    on_move(match, seat, action) is called before each move, e.g. to print it.
    """
    if type(text) is not str:
        raise ValueError("a game record is text, not %r" % (text,))
    lines = [ln.strip() for ln in text.split("\n")]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    heads = (HEADER, HEADER_V3, HEADER_V2, HEADER_V1)
    if lines and lines[0].startswith(PREFIX) and lines[0] not in heads:
        f = lines[0][len(PREFIX):]
        if f.isdigit() and int(f) > FORMAT:
            raise NewerRecord("the record is of format %s, newer than this version of the "
                              "game (%s) reads (%d): replay it with a newer version"
                              % (f, VERSION, FORMAT))
    if len(lines) < 3 or lines[0] not in heads:
        raise ValueError("not a game record (first line must be %r)" % HEADER)
    v1 = lines[0] == HEADER_V1
    chained = lines[0] == HEADER
    b = 0
    if lines[0] in (HEADER, HEADER_V3):
        if not lines[1].startswith("version "):
            raise ValueError("record line 2: expected 'version X.Y.Z'")
        check_version(lines[1][8:])
        b = 1
    if len(lines) < 3 + b or not lines[1 + b].startswith("rules "):
        raise ValueError("record line %d: expected 'rules ...'" % (2 + b))
    rules = Rules.from_text(lines[1 + b][6:])
    if not lines[2 + b].startswith("seed "):
        raise ValueError("record line %d: expected 'seed N'" % (3 + b))
    reveals, open_hand = read_reveals(lines, chained)
    if chained and reveals is None:
        raise ValueError("record line 6: the hands of a 'gin-rummy record 4' are committed")
    if open_hand == 1:
        raise ValueError("hand 1 is still in play: its seed and nonce are revealed once it "
                         "is over, and no hand before it can be replayed")
    # a link match's second board: `mirror` after the match line (format
    # 4) or the seed line (format 3); only in a record with a version line
    at = 4 + b if chained else 3 + b
    mirror = b == 1 and len(lines) > at and lines[at] == "mirror"
    m = Match(rules, _int(lines[2 + b][5:], 2 + b), reveals=reveals, chained=chained,
              mirror=mirror)
    m.unrevealed = open_hand
    hand_seen = 0
    prev = None
    if chained:
        want = "match " + hex_text(m.chain_start())
        if len(lines) < 4 + b or lines[3 + b] != want:
            raise ValueError("record line %d: expected %r" % (4 + b, want))
        prev = m.chain_start()
        b += 1
    if mirror:
        b += 1
    for n in range(3 + b, len(lines)):
        ln = lines[n]
        where = "record line %d (%s)" % (n + 1, ln)
        w = ln.split()
        if w[0] == "hand":
            if hand_seen + 1 == open_hand:
                # the hand in play when the record was written: its deal
                # was not revealed, so it is not dealt or replayed
                return m
            if hand_seen:
                why = m.next_hand()
                if why:
                    raise ValueError("%s: %s" % (where, why))
            hand_seen += 1
            if chained:
                hs = reveals[hand_seen - 1][0]
                want = revealed_line(hand_seen, hex_text(m.chain_head()), hs,
                                     chained_nonce(prev, hs), m.hand.first)
                prev = m.chain_head()
            elif reveals is not None:
                hs, nonce = reveals[hand_seen - 1]
                want = revealed_line(hand_seen, m.hand.commit, hs, nonce, m.hand.first)
            else:
                want = hand_line(hand_seen, m.hand)
            if v1:      # no fingerprint: "hand N deal D first F"
                want = " ".join(want.split()[:2] + want.split()[4:])
            if ln != want:
                if len(w) >= 6 and w[2] == "fingerprint" and w[4] == "deal" and \
                        _int(w[5], n) == m.hand.deal and w[3] != fingerprint_text(m.hand.deal):
                    raise ValueError("%s: deal %d has the fingerprint %s, not %s" % (
                        where, m.hand.deal, fingerprint_text(m.hand.deal), w[3]))
                raise ValueError("%s: expected %s" % (where, want))
        elif w[0] == "result":
            if not m.results or len(m.results) != hand_seen:
                raise ValueError("%s: the hand has not ended" % where)
            want = result_line(m.results[-1], _running(m))
            if ln != want:
                raise ValueError("%s: replay gives %r" % (where, want))
        elif w[0] == "winner":
            want = winner_line(m) if m.winner is not None else "no winner yet"
            if ln != want:
                raise ValueError("%s: replay gives %r" % (where, want))
        elif w[0] in ("0", "1") and len(w) == 2:
            seat = int(w[0])
            if m.to_move != seat:
                raise ValueError("%s: it is not seat %s's move" % (where, w[0]))
            act = w[1]
            if act.startswith("draw_upcard:"):
                up = m.hand.upcard()
                if act != "draw_upcard:" + _ctext(up):
                    raise ValueError("%s: the upcard is %s" % (where, _ctext(up)))
            if on_move:
                on_move(m, seat, act)
            why = m.act(act)
            if why:
                raise ValueError("%s: %s" % (where, why))
        else:
            raise ValueError("%s: not understood" % where)
    return m


def _running(m):
    s = [0, 0]
    for r in m.results:
        if r.winner is not None:
            s[r.winner] += r.points
    return s


def _ctext(c):
    from .cards import card_text
    return card_text(c) if c < 52 else "none"


def _int(s, n):
    try:
        return int(s)
    except ValueError:
        raise ValueError("record line %d: %r is not a number" % (n + 1, s))
