"""Save and restore a match in progress as compact bytes (DESIGN: power cuts).

Layout (big-endian), version 1:

    b"GRSV"  version:1  length:2  payload  fletcher16:2
    payload = rules_len:1 rules_text  seed:4  hands:2
              (moves:2 log_codes...) per hand   score:2 per player

A V6 box match (engine/box.py) is saved the same way under b"GRSB" with
three scores; its roles follow from the replay.

The payload is the match's own record in binary: restoring replays every move
through the engine's legality checks, so even a file with a valid checksum
cannot produce a state the rules forbid. The stored scores are checked against
the replay. Anything wrong raises SaveError with the reason.
"""
from .hand import TOOK, DRAW_UPCARD, action_text
from .match import Match
from .rules import Rules

MAGIC = b"GRSV"
BOX_MAGIC = b"GRSB"     # V6 box match: same layout, three scores
VERSION = 1


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


def _u16(buf, v):
    buf.append((v >> 8) & 255)
    buf.append(v & 255)


def dumps(match):
    """The match as bytes (see the module docstring)."""
    p = bytearray()
    rt = match.rules.text().encode()
    if len(rt) > 255:
        raise ValueError("rules text too long to save")
    p.append(len(rt))
    p.extend(rt)
    s = match.seed
    p.extend(bytes(((s >> 24) & 255, (s >> 16) & 255, (s >> 8) & 255, s & 255)))
    _u16(p, len(match.hands))
    for h in match.hands:
        if isinstance(h, tuple):      # BoxMatch: (hand, roles)
            h = h[0]
        _u16(p, len(h.log))
        p.extend(h.log)
    for sc in match.scores:
        _u16(p, sc)
    out = bytearray(BOX_MAGIC if len(match.scores) == 3 else MAGIC)
    out.append(VERSION)
    _u16(out, len(p))
    out.extend(p)
    _u16(out, fletcher16(out))
    return bytes(out)


def loads(data):
    """Bytes -> Match. SaveError with the reason for anything wrong."""
    if not isinstance(data, (bytes, bytearray)):
        raise SaveError("save data must be bytes")
    if len(data) < 9:
        raise SaveError("save file is truncated (%d bytes)" % len(data))
    magic = bytes(data[:4])
    if magic != MAGIC and magic != BOX_MAGIC:
        raise SaveError("not a save file (bad magic)")
    if data[4] != VERSION:
        raise SaveError("save version %d is not supported (expected %d)" % (data[4], VERSION))
    n = (data[5] << 8) | data[6]
    if len(data) != 9 + n:
        raise SaveError("save file length %d does not match its header (%d)" % (len(data), 9 + n))
    want = (data[-2] << 8) | data[-1]
    if fletcher16(data, 0, len(data) - 2) != want:
        raise SaveError("save file checksum mismatch (corrupt)")
    pos = [7]
    end = 7 + n

    def take(k):
        if pos[0] + k > end:
            raise SaveError("save payload is truncated")
        v = data[pos[0]:pos[0] + k]
        pos[0] += k
        return v

    def u16():
        v = take(2)
        return (v[0] << 8) | v[1]

    rl = take(1)[0]
    try:
        rules = Rules.from_text(bytes(take(rl)).decode())
        sb = take(4)
        seed = (sb[0] << 24) | (sb[1] << 16) | (sb[2] << 8) | sb[3]
        if magic == BOX_MAGIC:
            from .box import BoxMatch
            m = BoxMatch(rules, seed)
        else:
            m = Match(rules, seed)
    except SaveError:
        raise
    except (ValueError, UnicodeError) as e:
        raise SaveError("save header is invalid: %s" % e)
    hands = u16()
    if hands < 1:
        raise SaveError("save holds no hand")
    for i in range(hands):
        if i:
            why = m.next_hand()
            if why:
                raise SaveError("hand %d: %s" % (i + 1, why))
        k = u16()
        for code in take(k):
            if code >= TOOK:
                if m.hand.upcard() != code - TOOK:
                    raise SaveError("hand %d: logged pickup does not match the upcard" % (i + 1))
                code = DRAW_UPCARD
            try:
                act = action_text(code)
            except ValueError:
                raise SaveError("hand %d: unknown move code %d in save" % (i + 1, code))
            why = m.act(act)
            if why:
                raise SaveError("hand %d: illegal move in save: %s" % (i + 1, why))
    saved = [u16() for _ in m.scores]
    if pos[0] != end:
        raise SaveError("save payload has trailing bytes")
    if saved != m.scores:
        raise SaveError("saved scores do not match the replayed match")
    return m
