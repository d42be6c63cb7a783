"""Reading the saves at start: a cold part of firmware/saves/saving.py.

Saving.load imports this once, at start, and on MicroPython unloads it
once the saves are read (firmware.compat.unload), so its code is off the
heap for the rest of the game. load(sv) reads into sv.app.settings, and
the game save's statistics and match into the App's first session
(app.session: session_of(), firmware/matchlife.py), through
the Saving object `sv` and its public interface (sv.notes, sv.held,
sv.store, sv.save_match, sv.start_record); True when a damaged save was
set aside (a new match starts).

Every damage or reset the storage recovered from is noted for the player
(sv.notes, shown once each at start): a damaged save was set aside and an
older one resumed, or a new match starts; a save that could not be read
now (no memory, a read error) is kept untouched. What was recovered is
written back at once, so the next start is quiet. Older firmware's "stats"
and "match" saves are read once and written as the game save.

A flash with less than ROOM_LOW bytes free (room()) is noted at
every start, with what to do: FLASH FULL under ROOM_FULL (saves may be
refused), else FLASH NEARLY FULL (old game records will be deleted).
"""

from firmware.saves import gamesave
from firmware.settings import Settings, Stats, playable
from firmware.saves.storage import KEPT, NEWER, RESTART, RESUMED
import engine

# The room a start says is short. A turn's save writes the game save's .tmp
# (a 4 KB littlefs block: the largest game save measured is 1.6 KB) and a
# hand's end the match's game record through its own .tmp (up to 19 KB for
# a match to 500): under ROOM_FULL a save may be refused; under ROOM_LOW
# the older matches' records will be deleted to make room
# (firmware/saves/savefail.py).
ROOM_FULL = 8192
ROOM_LOW = 32768
MSG_FULL = ("Only %d KB free: saves may be refused. Copy the game records off (make "
            "records), then free space with mpremote.")
MSG_LOW = ("%d KB free: old game records will be deleted to make room. Copy them off "
           "first (make records), or free space with mpremote.")

def load(sv):
    return _Reading(sv).load()


def session_of(app, stats, match):
    """The session of the game save's `match` with its statistics: a box
    match's (firmware/boxgame.py, imported only then), else one against
    the CPU (its AI made once the saves are read: App.start, resume())."""
    if match is not None and hasattr(match, "hand_roles"):
        from firmware.boxgame import BoxSession

        return BoxSession(app, stats, match)
    from firmware.matchlife import Session

    return Session(app, stats, match)


def room(st):
    """The bytes free on the filesystem that holds the saves of `st` (a
    firmware.saves.storage.Storage: f_frsize * f_bavail of its root or, before
    it is made, of the folder it goes in), or None when it cannot tell
    (its fs has no statvfs, or it fails; another kind of storage)."""
    statvfs = getattr(getattr(st, "fs", None), "statvfs", None)
    if statvfs is None:
        return None
    r = st.root.rstrip("/") if st.root else ""
    i = r.rfind("/")
    for path in (r or ".", (r[:i] or "/") if i >= 0 else "."):
        try:
            s = statvfs(path)
            return (s[1] or s[0]) * s[4]
        except Exception:
            pass
    return None


def _outcome(storage, name):
    o = getattr(storage, "outcome", None)
    return o.get(name) if o else None


class _Reading:
    def __init__(self, sv):
        self.sv = sv
        self.rewrite = False         # something recovered: written back at once
        self.fresh = False           # a damaged save set aside: a new match

    def load(self):
        sv = self.sv
        app = sv.app
        st = app.storage
        payload, msg = st.load("settings")
        app.settings = Settings.decode(payload)
        self.note(msg, _outcome(st, "settings"), b"SETTINGS",
                  " The settings are those of the save resumed.",
                  " The settings are the defaults again.")
        game, msg = st.load(gamesave.NAME, gamesave.decode)
        outcome = _outcome(st, gamesave.NAME)
        if game is None and msg is None:
            game = self.legacy()
        else:
            self.note_game(msg, outcome)
        if game is None:
            game = gamesave.Game(Stats())
        if getattr(game, "wait", None) is not None:
            # a match waiting for the player's cut: its commitment again,
            # or, the cut given, that match dealt at once (by the title's tick)
            from firmware.cutwait import CutSession, dealt_session
            from firmware.matchlife import Session

            dealt = Session
            if game.wait.box:
                from firmware.boxgame import BoxSession as dealt
            if game.wait.cut is not None:
                app.session = dealt_session(app, game.stats, game.wait, dealt)
            else:
                app.session = CutSession(app, game.stats, game.wait, dealt, Session)
        else:
            app.session = session_of(app, game.stats, game.match)
        sv.held = game.held
        # the commit that ended a match, and then a cut before its record:
        # the record first, then a commit without the match
        sv.start_record(getattr(game, "finished", None))
        if sv.held is not None:
            sv.notes.append((b"MATCH NOT LOADED",
                             "Not enough memory to load the saved match. It is kept; "
                             "to try again, %s (a new match replaces it)."
                             % getattr(st, "restart", RESTART)))
        if self.rewrite:
            sv.store("settings", app.settings.encode())
            sv.save_match()
        self.room(st)
        return self.fresh

    def room(self, st):
        """A note when the flash is full or nearly full (room(); a storage
        that cannot tell says nothing)."""
        free = room(st)
        if free is None or free >= ROOM_LOW:
            return
        if free < ROOM_FULL:
            self.sv.notes.append((b"FLASH FULL", MSG_FULL % (free // 1024)))
        else:
            self.sv.notes.append((b"FLASH NEARLY FULL", MSG_LOW % (free // 1024)))

    def note(self, msg, outcome, what, resumed, fresh):
        """Note a load's message for the player: `what` (b"SAVE", ...) and
        the sentence saying what follows from it."""
        if not msg:
            return False
        notes = self.sv.notes
        if outcome == KEPT:
            notes.append((what + b" NOT READ", msg))
            return False
        self.rewrite = True
        if outcome == RESUMED:
            notes.append((what + b" RESTORED", msg + resumed))
            return False
        if outcome == NEWER:
            notes.append((b"NEWER " + what, msg + fresh))
            return True
        notes.append((what + (b" DAMAGED" if what == b"SAVE" else b" RESET"), msg + fresh))
        return True

    def note_game(self, msg, outcome):
        if self.note(msg, outcome, b"SAVE", " The match and statistics are those of the "
                     "save resumed.", " A new match starts; the statistics count from 0."):
            self.fresh = True

    def legacy(self):
        """The statistics and match of older firmware ("stats" and "match"
        saves), as a Game; written as the game save, then the old ones go
        (a cut between: the game save wins at the next start)."""
        sv = self.sv
        app = sv.app
        st = app.storage
        sp, m1 = st.load("stats")
        self.note(m1, _outcome(st, "stats"), b"STATS", " The statistics are those of "
                  "the save resumed.", " The statistics count from 0.")
        match, m2 = st.load("match", engine.loads)
        self.note_game(m2, _outcome(st, "match"))
        if sp is None and match is None:
            return None
        try:
            stats = Stats.decode(sp)
        except ValueError as e:
            stats = Stats()
            sv.notes.append((b"STATS RESET", "The statistics could not be read (%s); "
                             "they count from 0." % e))
        if match is not None and (match.winner is not None or playable(match.rules)):
            match = None
        self.fresh = self.fresh and match is None
        sv.held = None
        if sv.store(gamesave.NAME, gamesave.encode(stats, match)):
            sv.store("stats")
            sv.store("match")
        return gamesave.Game(stats, match)
