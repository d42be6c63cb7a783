"""Save and restore a match in progress as compact bytes (DESIGN: power cuts).

Layout, version 3, 4 and 5:

    magic:4  version:1  rules_len:1  rules_text  seed:4 (big-endian)
    flags:1  [secret:16 if flags & 1]  [ai_seed:4 if flags & 2]
    [if flags & 8: version, seats, level, cut: each len:1 and its ASCII]
    (flags & 4: the match is mirrored, the second board's of a link match,
    engine/match.py; a two-player match's only, and never written by 1.0.0)
    then one byte per move: every hand's log in order (hand.py's log
    codes), NEXT (3) between two hands

secret is the match's deal secret (engine/deal.py: committed deals) and
ai_seed the AI's own seed, drawn apart from it, so a resumed match deals
and plays on as it would have (a V6 box match's too). Version 5 is a
match with a cut (engine/deal.py, records of format 5): flags & 8 holds
what its header's commitment covers beside the rules and the seed (the
game's version that dealt it, so that a match resumed by a newer firmware
keeps the chain it showed, its seats, its AI level and its cut). Version
4 is a match whose commitments are chained (records of format 4, 1.1's);
version 3, version 1.0.0's, resumes with the commitments it showed. A match with
neither (one dealt by deal numbers) is written as version 2, the same bytes without
the flags, which older firmware reads too. Version 2 is read as ever.

magic is b"GRSV", or b"GRSB" for a V6 box match (engine/box.py), whose
roles and scores follow from the replay as a two-player match's scores do.

The save is the match's own record in binary, and it only grows: the save
after more moves is the save before with the new move bytes appended (an
append-only store such as the CircuitPython nvm log writes just those).
Integrity (a torn or damaged file) is the storage container's job
(firmware/saves/storage.py, a CRC-16); what the bytes mean is checked here:
restoring replays every move through the engine's legality checks, so even
bytes with a valid checksum cannot produce a state the rules forbid, and
the rules line must be one this engine writes back identically (so a
loaded match can always be saved again). Anything wrong raises SaveError
with the reason; MemoryError is left to the caller (the save is not
damaged: there was no room to rebuild it now).

Version 1 (older firmware) is still read: length:2 after the version,
rules and seed as above, hands:2, then per hand moves:2 and its codes, a
score:2 per player and a Fletcher-16; the scores must match the replay.
"""
from .hand import TOOK, DRAW_UPCARD, action_text, is_code
from .match import Match
from .rules import Rules

MAGIC = b"GRSV"
BOX_MAGIC = b"GRSB"     # V6 box match: same layout
VERSION = 5             # 4's, with a cut (flags & 8); 4: 3's layout, chained commitments
NEXT = 3                # between two hands' moves (no action has code 3)
HEAD = 6                # magic, version, rules_len


class SaveError(ValueError):
    pass


def fletcher16(data, start=0, end=None):
    """Fletcher-16 checksum of data[start:end] (16-bit, small ints only)."""
    if end is None:
        end = len(data)
    a = 0
    b = 0
    for i in range(start, end):
        a = (a + data[i]) % 255
        b = (b + a) % 255
    return (b << 8) | a


def _hands(match):
    for h in match.hands:
        yield h[0] if isinstance(h, tuple) else h     # BoxMatch: (hand, roles)


def dumps(match):
    """The match as bytes (see the module docstring)."""
    box = not isinstance(match, Match)
    if box:
        # V6 only: a two-player match's save never loads the box game's
        # code (from the .mpy bundle it would stay on the heap all match)
        from .box import BoxMatch
        if not isinstance(match, BoxMatch):
            raise ValueError("dumps takes a Match or a BoxMatch, not %r" % (match,))
    rt = match.rules.text().encode()
    if len(rt) > 255:   # Rules.check keeps it far shorter
        raise ValueError("rules text too long to save")
    secret = getattr(match, "_secret", None)
    ai = getattr(match, "ai_seed", None)
    if getattr(match, "_reveals", None) is not None:
        raise ValueError("a match dealt again from a record has no secret to save")
    mirror = match.mirror
    cut = match.cut
    v3 = secret is not None or ai is not None or mirror
    out = bytearray(BOX_MAGIC if box else MAGIC)
    out.append(VERSION if cut is not None else 4 if match.chained else 3 if v3 else 2)
    out.append(len(rt))
    out.extend(rt)
    _u32(out, match.seed)
    if v3:
        out.append((1 if secret is not None else 0) | (2 if ai is not None else 0)
                   | (4 if mirror else 0) | (8 if cut is not None else 0))
        if secret is not None:
            out.extend(secret)
        if ai is not None:
            _u32(out, ai)
        if cut is not None:
            _save_tail(match, out)
    first = True
    for h in _hands(match):
        if not first:
            out.append(NEXT)
        first = False
        out.extend(h.log)
    return bytes(out)


def _u32(out, s):
    out.extend(bytes(((s >> 24) & 255, (s >> 16) & 255, (s >> 8) & 255, s & 255)))


# a match with a cut (engine/cut.py): what its header's commitment covers
# beside the rules and the seed, in the save after the flags, the secret
# and the AI's seed (here, not in engine/cut.py: a turn's save needs
# nothing of that module)
_SAVED = ("version", "seats", "level", "cut")


def _save_tail(d, out):
    """The version that dealt `d`, its seats, level and cut, each its
    length (a byte) and its ASCII."""
    for name in _SAVED:
        t = getattr(d, name).encode()
        out.append(len(t))
        out.extend(t)


def _load_tail(data, pos):
    """({version:, seats:, level:, cut:}, the index after them) of a save's
    bytes from `pos`; ValueError when they are cut short (UnicodeError when
    not text): the Match checks what they say."""
    kw = {}
    for name in _SAVED:
        if pos >= len(data) or pos + 1 + data[pos] > len(data):
            raise ValueError("the match's cut is cut short")
        kw[name] = bytes(data[pos + 1:pos + 1 + data[pos]]).decode()
        pos += 1 + data[pos]
    return kw, pos


def header_size(data):
    """Bytes of the header (magic to the last byte before the moves) of a
    version 2 or 3 save, or 0 when `data` does not start with one."""
    if len(data) < HEAD or bytes(data[:4]) not in (MAGIC, BOX_MAGIC) or \
            data[4] not in (2, 3, 4, 5):
        return 0
    n = HEAD + data[5] + 4
    if data[4] >= 3:
        if len(data) <= n:
            return 0
        f = data[n]
        n += 1 + (16 if f & 1 else 0) + (4 if f & 2 else 0)
        if f & 8:
            try:
                n = _load_tail(data, n)[1]
            except (ValueError, UnicodeError):
                return 0
    return n if len(data) >= n else 0


def _start(data):
    """(magic, Match or BoxMatch, index after the seed) from a header."""
    if not isinstance(data, (bytes, bytearray)):
        raise SaveError("save data must be bytes")
    if len(data) < HEAD:
        raise SaveError("save file is truncated (%d bytes)" % len(data))
    magic = bytes(data[:4])
    if magic != MAGIC and magic != BOX_MAGIC:
        raise SaveError("not a save file (bad magic)")
    ver = data[4]
    if ver > VERSION:
        raise SaveError("save version %d is newer than this firmware reads (%d): "
                        "it comes from a newer firmware" % (ver, VERSION))
    if ver < 1:
        raise SaveError("save version %d is not supported (expected %d)" % (ver, VERSION))
    pos = 7 if ver == 1 else HEAD
    if ver == 1:
        if len(data) < 9:
            raise SaveError("save file is truncated (%d bytes)" % len(data))
        n = (data[5] << 8) | data[6]
        if len(data) != 9 + n:
            raise SaveError("save file length %d does not match its header (%d)" % (len(data), 9 + n))
        if fletcher16(data, 0, len(data) - 2) != (data[-2] << 8) | data[-1]:
            raise SaveError("save file checksum mismatch (corrupt)")
    rl = data[pos] if ver == 1 else data[pos - 1]
    if ver == 1:
        pos += 1
    if pos + rl + 4 > len(data):
        raise SaveError("save header is truncated")
    try:
        text = bytes(data[pos:pos + rl]).decode()
        rules = Rules.from_text(text)
        if rules.text() != text:
            raise ValueError("the rules line is not in this engine's form")
        pos += rl
        seed = _read_u32(data, pos)
        pos += 4
        secret = ai = None
        flags = 0
        if ver >= 3:
            if pos >= len(data):
                raise ValueError("the flags are missing")
            flags = data[pos]
            pos += 1
            if flags & ~15 or (flags & 4 and magic == BOX_MAGIC) or flags & 8 and ver < 5:
                raise ValueError("unknown flags %d" % flags)
            if flags & 1:
                if pos + 16 > len(data):
                    raise ValueError("the deal secret is cut short")
                secret = bytes(data[pos:pos + 16])
                pos += 16
            if flags & 2:
                if pos + 4 > len(data):
                    raise ValueError("the AI's seed is cut short")
                ai = _read_u32(data, pos)
                pos += 4
        kw = {}
        if flags & 8:
            kw, pos = _load_tail(data, pos)
        if magic == BOX_MAGIC:
            from .box import BoxMatch
            m = BoxMatch(rules, seed, secret, ai, None, ver >= 4, **kw)
        else:
            m = Match(rules, seed, secret, ai, None, ver >= 4, flags & 4, **kw)
    except (ValueError, UnicodeError) as e:
        raise SaveError("save header is invalid: %s" % e)
    return ver, m, pos


def _read_u32(data, pos):
    """A big-endian u32 that must stay below 2**30 (a seed)."""
    if data[pos] >= 64:
        raise ValueError("a seed is below 2**30")
    return (data[pos] << 24) | (data[pos + 1] << 16) | (data[pos + 2] << 8) | data[pos + 3]


def _play(m, hand_no, code):
    """Replay one logged move; SaveError if it is not legal now."""
    if not is_code(code) or code == DRAW_UPCARD:   # a logged pickup names its card
        raise SaveError("hand %d: unknown move code %d in save" % (hand_no, code))
    if code >= TOOK:
        if m.hand.upcard() != code - TOOK:
            raise SaveError("hand %d: logged pickup does not match the upcard" % hand_no)
        code = DRAW_UPCARD
    # A Match takes the code itself (no text to build and parse again).
    why = m.act(code if type(m) is Match else action_text(code))
    if why:
        raise SaveError("hand %d: illegal move in save: %s" % (hand_no, why))


def loads(data):
    """Bytes -> Match (or BoxMatch). SaveError with the reason for anything
    wrong; MemoryError when there is no room to rebuild it now."""
    ver, m, pos = _start(data)
    if ver == 1:
        return _loads_v1(data, m, pos)
    hand_no = 1
    for i in range(pos, len(data)):
        code = data[i]
        if code == NEXT:
            why = m.next_hand()
            if why:
                raise SaveError("hand %d: %s" % (hand_no, why))
            hand_no += 1
        else:
            _play(m, hand_no, code)
    return m


def _loads_v1(data, m, pos):
    end = len(data) - 2

    def u16(p):
        if p + 2 > end:
            raise SaveError("save payload is truncated")
        return (data[p] << 8) | data[p + 1]

    hands = u16(pos)
    pos += 2
    if hands < 1:
        raise SaveError("save holds no hand")
    for i in range(hands):
        if i:
            why = m.next_hand()
            if why:
                raise SaveError("hand %d: %s" % (i + 1, why))
        k = u16(pos)
        pos += 2
        if pos + k > end:
            raise SaveError("save payload is truncated")
        for j in range(pos, pos + k):
            _play(m, i + 1, data[j])
        pos += k
    saved = []
    for _ in m.scores:
        saved.append(u16(pos))
        pos += 2
    if pos != end:
        raise SaveError("save payload has trailing bytes")
    if saved != m.scores:
        raise SaveError("saved scores do not match the replayed match")
    return m
