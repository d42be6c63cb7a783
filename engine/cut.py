"""A deal the device cannot choose, and a record that binds the play: the
part of engine/deal.py a match with a cut (record format 5) needs, loaded
only by such a match (a match without one, and the .mpy bundle's heap
until one is made, never hold this code).

The App draws the match's secret, shows the match commitment
(secret_commitment: its first MATCH_HEX hex digits, MATCH #) before the
player gives the cut (check_cut), then makes the match with both
(engine/match.py). Then:

    M      = SHA-256("gin-rummy match secret" || secret)
    C0     = SHA-256(the record's header lines, "gin-rummy record 5" .. "cut K")
    seed   = SHA-256("gin-rummy hand 5" || secret || len(K) || K || n)[0:16]
    C(n)   = engine/deal.py's chained commitment of P(n-1), n, seed and nonce
    P(n)   = SHA-256("gin-rummy hand over" || C(n) || hand n's log || "\\n" || its outcome)
    seal   = SHA-256("gin-rummy seal" || P(last) || closing words || whose record)

with P(0) = C0. The outcome is the hand's result in the deal's seats (a
link match's second board flips its own back, so both boards chain the
same); the closing words are the winner and the final scores, and the
seal's last byte says whether the record is a link match's second
board's. docs/FAIRNESS.md says what each protects against.

Pure and small: a few hashes at a hand's start and at the match's end,
no hot path.
"""
from .match_commit import MATCH_HEX, secret_commitment  # noqa: F401  (this module's API too)
from .match_commit import check_secret as _secret
from .sha256 import sha256, hex_text
from .version import VERSION

CUT_MAX = 32           # characters of a cut, 0-9 and A-Z
LEVEL_MAX = 12         # letters of an AI level's name ("none": no AI plays)
# who sits where, as a record of format 5 says it (its `seats` line): the
# owner of the device ("you") is seat 0 (a box match's player 0); a link
# match's seats are both boards', and its second board's record says
# `mirror` (engine/match.py)
SEATS = ("you cpu", "cpu cpu", "link link")
BOX_SEATS = ("you cpu cpu", "cpu cpu cpu")
_LEN = 16              # bytes of a secret and of a seed (engine/deal.py's SECRET_LEN, SEED_LEN)
_CUT_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CUT_TAG = b"gin-rummy hand 5"
_OVER_TAG = b"gin-rummy hand over"
_SEAL_TAG = b"gin-rummy seal"


def check_cut(cut):
    """The cut as the record writes it (str): 1..CUT_MAX characters 0-9
    and A-Z (a word or a number the player chose); ValueError otherwise."""
    if type(cut) is not str or not 1 <= len(cut) <= CUT_MAX:
        raise ValueError("a cut is 1 to %d characters 0-9 and A-Z, not %r" % (CUT_MAX, cut))
    for ch in cut:
        if ch not in _CUT_CHARS:
            raise ValueError("a cut is 1 to %d characters 0-9 and A-Z, not %r" % (CUT_MAX, cut))
    return cut


def check_level(level):
    """An AI level's name as a record writes it (lower-case letters), or "none"."""
    if type(level) is not str or not 1 <= len(level) <= LEVEL_MAX:
        raise ValueError("an AI level is 1 to %d letters a-z, not %r" % (LEVEL_MAX, level))
    for ch in level:
        if not "a" <= ch <= "z":
            raise ValueError("an AI level is 1 to %d letters a-z, not %r" % (LEVEL_MAX, level))
    return level


def cut_seed(secret, cut, n):
    """The seed (16 bytes) of hand n (1..65535) of a match of `secret` and `cut`."""
    if type(n) is not int or not 1 <= n <= 0xFFFF:
        raise ValueError("a hand number is 1..65535, not %r" % (n,))
    c = check_cut(cut).encode()
    return sha256(_CUT_TAG + _secret(secret) + bytes((len(c),)) + c
                  + bytes((n >> 8, n & 255)))[:_LEN]


def header_commitment(lines):
    """C0 (32 bytes): SHA-256 of a record's header lines, from the first to
    the cut line (header_lines)."""
    return sha256("\n".join(lines).encode())


def hand_over(c, log, outcome):
    """The chain after a finished hand (32 bytes): SHA-256 of its
    commitment `c`, its log (engine/hand.py: a byte a move) and its outcome
    (outcome below). Once a hand, at the next hand's start."""
    return sha256(_OVER_TAG + bytes(c) + bytes(log) + b"\n" + outcome.encode())


def seal_of(after, closing_words, mirror):
    """The seal (32 bytes): SHA-256 of the chain after the last hand, the
    closing words (closing below) and whose record it is (a link match's
    second board: mirror)."""
    return sha256(_SEAL_TAG + bytes(after) + closing_words.encode()
                  + (b"\x01" if mirror else b"\x00"))


# -- a Dealer's (engine/deal.py) part with a cut ----------------------------------
# (its save's part, the version, seats, level and cut, is engine/save.py's:
# a turn's save needs nothing of this module, so the device can let it go
# between a hand's start and its end)

def start(d, secret, cut=None, level=None, seats=None, version=None, match_commit=None):
    """Dealer `d` made with a cut: its cut, seats, level and version, and
    the header's commitment C0 over them and the match commitment (from
    its `secret`, or `match_commit` for a match rebuilt from a record);
    None for no cut (cut=None and nothing else)."""
    if cut is None:
        if level is not None or seats is not None or version is not None or \
                match_commit is not None:
            raise ValueError("a match's level, seats, version or match commitment go with its cut")
        return None
    if not d.chained:
        raise ValueError("a match with a cut chains its commitments")
    d.cut = check_cut(cut)
    d.level = check_level("none" if level is None else level)
    kinds = BOX_SEATS if d.PLAYERS == 3 else SEATS
    d.seats = kinds[0] if seats is None else seats
    if d.seats not in kinds:
        raise ValueError("the seats are one of %r, not %r" % (kinds, seats))
    if d.mirror and d.seats != "link link":
        raise ValueError("only a link match has a second board (mirror)")
    v = VERSION if version is None else version
    if type(v) is not str or not 5 <= len(v) <= 24 or v.strip("0123456789.-dev"):
        raise ValueError("a version is X.Y.Z or X.Y.Z-dev, not %r" % (v,))
    d.version = v
    if secret is not None:
        match_commit = secret_commitment(secret)
    elif match_commit is None or len(match_commit) != 32:
        raise ValueError("a match rebuilt from a record takes its match commitment (32 bytes)")
    d.match_commit = bytes(match_commit)
    return header_commitment(header_lines(d))


def header_lines(d):
    """The lines of a format 5 record's header (engine/record.py and
    engine/box.py write them; their commitment C0 starts the chain)."""
    return [d.HEADER5, "version " + d.version, "rules " + d.rules.text(), "seed %d" % d.seed,
            "seats " + d.seats, "level " + d.level, "match " + hex_text(d.match_commit),
            "cut " + d.cut]


def outcome(d, i):
    """Finished hand i's (0-based) result as its transcript takes it in: the
    kind, the seat that scores, in the deal's seats (a mirrored match's
    flipped back), and the points; or the draw and why."""
    r = d.results[i]
    if d.PLAYERS == 3:
        r = r[0]            # a box match's (result, roles)
    if r.winner is None:
        return "draw " + r.why
    return "%s %d %d" % (r.kind, r.winner ^ (1 if d.mirror else 0), r.points)


def closing(d):
    """The match's end as its seal takes it in, in the deal's seats: the
    winner, the final scores and (V4) the winner's total; a box match's
    winner and its three players' scores."""
    s = d.scores
    if len(s) == 3:
        return "winner %d scores %d %d %d" % (d.winner, s[0], s[1], s[2])
    f = 1 if d.mirror else 0
    text = "winner %d scores %d %d" % (d.winner ^ f, s[f], s[1 - f])
    if d.rules.match_bonus:
        text += " total %d" % d.end.total
    return text


def chain_after(d, i, c):
    """The chain after finished hand i (0-based) of `d`, whose commitment is
    `c`: its whole transcript taken in."""
    return hand_over(c, d.dealt(i).log, outcome(d, i))


def seal(d):
    """The seal (32 bytes) of match `d` with a cut, once it is over: the
    chain after its last hand, the final scores and the winner, and whose
    device wrote it (a link match's second board); else None. The App
    shows its first COMMIT_HEX (engine/deal.py) hex digits: SEAL #."""
    if d.cut is None or d.winner is None:
        return None
    return seal_of(chain_after(d, len(d.results) - 1, d.chain_head()), closing(d), d.mirror)


def revealed(d):
    """The secret of match `d` with a cut once it is over (its record
    reveals it), else None: before the end it would give every deal to
    come. (The Dealer keeps it as `_secret`; this module is its part.)"""
    if d.cut is None or d.winner is None:
        return None
    return d._secret


def sealed_lines(d):
    """The lines a record of match `d` with a cut ends with once it is
    over: its secret (no deal is left to come) and its seal."""
    return ["secret " + hex_text(revealed(d)), "seal " + hex_text(seal(d))]
