"""The game save: the statistics and the match in play, in one commit.

    b"GRGM"  layout:1  vlen:1  game version  stats_len:2  stats  match

layout is this encoding's version (2; layout 1 had no game version:
b"GRGM" 1 stats_len:2 stats match, still read; layout 3 is layout 2 whose
match is one waiting for the player's cut, below). The game version is
engine/version.py's VERSION of the firmware that wrote it, in ASCII. Every
later layout keeps b"GRGM" layout vlen version first, so a save from a
newer layout, or from a newer game version that this one cannot read, is
told apart from damage: decode() raises firmware.saves.storage.NewerSave, which
the storage keeps as <name>.new and says ("Saved by version X; this is Y:
kept as game.new"). Only a save that names a newer version than this one
(engine.version_parse.parse: X.Y.Z, and X.Y.Z-dev before X.Y.Z) is a newer one: a newer
layout, or a save this one cannot read, that names this version, an older
one or none is damage, so the screen never says "Saved by version 1.0.0;
this is 1.0.0".

stats is firmware/stats.py's encoding; match is engine.dumps of the match
in play, or nothing; in layout 3, a match waiting for the player's cut
(firmware/saves/cutsave.py's Wait: its deal secret is drawn and saved before
its commitment is shown, so a start resumes the same commitment, never a
second secret for the same match):

    b"GRCW"  kind:1 (0 two-player, 1 box)  rules_len:1  rules  seed:4  secret:16  ai_seed:4

Only a match waiting for its cut is written as layout 3, so every other
save stays one that version 1.1 reads; 1.1 keeps a layout 3 save as a
newer version's (game.new) and loses nothing. A waiting match's bytes are
also read as one under layout 2 (b"GRCW" is no match's magic): the
CircuitPython nvm keeps the statistics and the match apart and joins them
again as layout 2. The App writes this whole payload through the storage
("game") after every completed turn, so whatever a turn changes (the
match, and at a hand's end the statistics) is one write: after a power cut
the statistics and the match are always those of the same moment, and a
turn played again after a restart is counted once. (The game records,
firmware/saves/records.py, are written from the match after that commit; the
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

NAME = "game"     # its name in the storage (firmware/saves/saving.py writes it)
MAGIC = b"GRGM"
VERSION = 3       # the newest layout (2, or 3 with a match waiting for its cut)
PLAIN = 2         # the layout of every save but one waiting for a cut


class Game:
    def __init__(self, stats, match=None, held=None, finished=None, wait=None):
        self.stats = stats
        self.match = match        # engine Match / BoxMatch in play, or None
        self.held = held          # match bytes that could not be rebuilt now
        self.finished = finished  # a finished match whose game record is due
        self.wait = wait          # firmware.saves.cutsave.Wait: a match waiting for its cut, or None


def join(stats_bytes, match_bytes, layout=PLAIN):
    """The payload of statistics and match bytes (b"" for no match; a
    waiting match's bytes in layout 3)."""
    from engine.version import VERSION as GAME_VERSION

    v = GAME_VERSION.encode()
    n = len(stats_bytes)
    out = bytearray(MAGIC)
    out.append(layout)
    out.append(len(v))
    out.extend(v)
    out.append(n >> 8)
    out.append(n & 0xFF)
    out.extend(stats_bytes)
    out.extend(match_bytes)
    return bytes(out)


def saved_by(payload):
    """The game version a payload names (layout 2 and later), or None."""
    if len(payload) < 6 or bytes(payload[:4]) != MAGIC or payload[4] < 2:
        return None
    n = payload[5]
    if 6 + n > len(payload):
        return None
    try:
        return bytes(payload[6:6 + n]).decode()
    except UnicodeError:
        return None


def newer(version):
    """True when game version `version` is newer than this one (a
    development build X.Y.Z-dev comes before X.Y.Z; a version this one
    cannot parse does not count)."""
    if version is None:
        return False
    from engine.version import VERSION as GAME_VERSION
    from engine.version_parse import parse
    from firmware.compat import heap_free, unload

    try:
        return parse(version) > parse(GAME_VERSION)
    except ValueError:
        return False
    finally:
        if heap_free() is not None:      # MicroPython: its code off the heap
            unload("engine.version_parse")


def _head(payload):
    """The offset of stats_len in a payload; ValueError, or NewerSave for
    a layout newer than this one's."""
    if len(payload) < 7 or bytes(payload[:4]) != MAGIC:
        raise ValueError("not a game save (bad magic)")
    layout = payload[4]
    if layout == 1:
        return 5
    if layout > VERSION:
        # Only a newer version writes a newer layout: one that names this
        # version, an older one or none it can order is damage.
        v = saved_by(payload)
        if newer(v):
            from firmware.saves.storage import NewerSave

            raise NewerSave(v)
        raise ValueError("game save layout %d names version %s, not a newer one"
                         % (layout, v[:16] if v else "none"))
    if layout < PLAIN:
        raise ValueError("game save layout %d is not supported (expected %d or %d)"
                         % (layout, PLAIN, VERSION))
    i = 6 + payload[5]
    if i + 2 > len(payload):
        raise ValueError("game save is cut short")
    return i


def split(payload):
    """(stats bytes, match bytes) of a payload; ValueError if it is none
    (NewerSave: a newer layout)."""
    return _split(payload)[:2]


def _split(payload):
    """(stats bytes, match bytes, the match is a waiting one: layout 3)."""
    i = _head(payload)
    n = (payload[i] << 8) | payload[i + 1]
    i += 2
    if i + n > len(payload):
        raise ValueError("game save is cut short")
    return bytes(payload[i:i + n]), bytes(payload[i + n:]), payload[4] == 3


def encode(stats, match=None, held=None, finished=None):
    """The payload for `stats` and the match in play (None, or over: no
    match; `held`: match bytes to keep as they are; `finished`: with no
    match in play, a finished match kept until its game record is
    written). A match waiting for its cut is written by its session
    (firmware/cutwait.py: join(..., VERSION))."""
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
    anything in it is unsound, NewerSave when it is a newer version's that
    this one cannot read."""
    try:
        return _decode(payload)
    except MemoryError:
        raise
    except Exception as e:
        from firmware.saves.storage import NewerSave

        v = saved_by(payload)
        if not isinstance(e, NewerSave) and newer(v):
            raise NewerSave(v)
        raise


def _decode(payload):
    import engine
    from firmware.settings import playable
    from firmware.stats import Stats

    sb, mb, waiting = _split(payload)
    stats = Stats.decode(sb)
    # layout 3, or its match bytes joined again as layout 2 by a storage
    # that keeps the statistics and the match apart (circuitpython/cpnvm.py)
    if waiting or bytes(mb[:4]) == b"GRCW":
        from firmware.saves.cutsave import Wait     # cold: only such a save needs it

        return Game(stats, wait=Wait.decode(mb))
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
