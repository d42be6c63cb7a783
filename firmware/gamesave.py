"""The game save: the statistics and the match in play, in one commit.

    b"GRGM"  version:1  stats_len:2  stats  match

stats is firmware/stats.py's encoding; match is engine.dumps of the match
in play, or nothing. The App writes this whole payload through the storage
("game") after every completed turn, so whatever a turn changes (the
match, and at a hand's end the statistics) is one write: after a power cut
the statistics and the match are always those of the same moment, and a
turn played again after a restart is counted once. (The game records,
firmware/records.py, are written from the match after that commit; the
App writes them again at boot when the commit that ended a hand came just
before a cut. The commit that ends a match keeps the finished match,
which is never resumed, until its record is written: the next commit
drops it, and a start that finds it writes the record first, so a record
never runs ahead of the match a start resumes.)

decode() checks everything it holds before the App uses it: the
statistics add up, the match replays through the rules (engine.loads),
its rules are ones this handheld plays (settings.playable) so nothing
loaded can fail later in play or when saved again. A finished match is not
resumed (Game.finished: its record is due). A MemoryError while rebuilding the match is not damage: the
statistics still load and the match's bytes are kept (Game.held) so the
App writes them back unchanged until the player starts another match.
"""

MAGIC = b"GRGM"
VERSION = 1
HEAD = 7          # magic, version, stats_len


class Game:
    def __init__(self, stats, match=None, held=None, finished=None):
        self.stats = stats
        self.match = match        # engine Match / BoxMatch in play, or None
        self.held = held          # match bytes that could not be rebuilt now
        self.finished = finished  # a finished match whose game record is due


def join(stats_bytes, match_bytes):
    """The payload of statistics and match bytes (b"" for no match)."""
    n = len(stats_bytes)
    out = bytearray(MAGIC)
    out.append(VERSION)
    out.append(n >> 8)
    out.append(n & 0xFF)
    out.extend(stats_bytes)
    out.extend(match_bytes)
    return bytes(out)


def split(payload):
    """(stats bytes, match bytes) of a payload; ValueError if it is none."""
    if len(payload) < HEAD or bytes(payload[:4]) != MAGIC:
        raise ValueError("not a game save (bad magic)")
    if payload[4] != VERSION:
        raise ValueError("game save version %d is not supported (expected %d)"
                         % (payload[4], VERSION))
    n = (payload[5] << 8) | payload[6]
    if HEAD + n > len(payload):
        raise ValueError("game save is cut short")
    return bytes(payload[HEAD:HEAD + n]), bytes(payload[HEAD + n:])


def encode(stats, match=None, held=None, finished=None):
    """The payload for `stats` and the match in play (None, or over: no
    match; `held`: match bytes to keep as they are; `finished`: with no
    match in play, a finished match kept until its game record is
    written)."""
    import engine

    if match is not None and match.winner is None:
        mb = engine.dumps(match)
    elif finished is not None:
        mb = engine.dumps(finished)
    else:
        mb = held or b""
    return join(stats.encode(), mb)


def decode(payload):
    """Game from a payload; ValueError (engine.SaveError among them) when
    anything in it is unsound."""
    import engine
    from firmware.settings import playable
    from firmware.stats import Stats

    sb, mb = split(payload)
    stats = Stats.decode(sb)
    if not mb:
        return Game(stats)
    try:
        match = _loads(engine, mb)
    except MemoryError:
        return Game(stats, None, mb)
    why = playable(match.rules)
    if why:
        raise ValueError("the saved match: %s" % why)
    if match.winner is not None:
        return Game(stats, finished=match)
    return Game(stats, match)


def _loads(engine, mb):
    """engine.loads, once more after a garbage collection if memory ran
    out (the heap may only be fragmented)."""
    try:
        return engine.loads(mb)
    except MemoryError:
        pass
    import gc

    gc.collect()
    return engine.loads(mb)
