"""Saving: the game save, the settings' save, the game records, the notes
a start leaves for the player, and what follows when the flash refuses.

firmware.app.App makes one, app.saving; the screens call it directly:

    sv = Saving(app, records)   # records: firmware.saves.records.Records, or None
    fresh = sv.load()        # at start: app.settings, and app.session
    sv.save_match()          # after every completed turn: the session's save
    sv.hand_counted()        # a hand's end counted in app.stats
    sv.store(name, payload)  # one save (payload None: remove); True if done
    sv.next_note()           # (title, text) still to show at start, or None
    sv.start_record(finished)   # at start (saveload): a record still due
    sv.records               # firmware.saves.records.Records (the port's), or None
    sv.saved_at, sv.error, sv.failing   # for the device loop and the console

and the App's loop brackets each step with sv.stepping = True / False,
calls sv.catch_up() first and sv.flush() after the frame is shown. The
screens call sv's methods rather than delegating methods on App: the App's
code (on the heap from the .mpy bundle) stays that of the loop and the
router, and a call costs one attribute lookup more.

The parts: firmware/saves/gamesave.py encodes and decodes the game save. Two
cold parts are on the heap only while they work: firmware/saves/saveload.py
reads the saves at start and is then unloaded (firmware.compat.unload);
firmware/saves/savefail.py, imported only when a save fails, makes room on a
full flash and says a refused save in a banner. Both work through this
object's public interface; savefail keeps its state here, in public
attributes (unsaved, said_at, freed_at, error, failing).

Saves: after every completed turn the session's save (app.session
.save_name and .payload(): "game", firmware/saves/gamesave.py, the statistics
and the match in one commit, so a turn played again after a power cut is
never counted twice; a link match's "link", firmware/link/linkmatch.py), then
at a hand's end the match's game record (firmware/saves/records.py); the
settings when they change ("settings", firmware/settings.py). At start every damage
or reset the storage recovered from is noted (notes, shown once each by
the message screen; firmware/saves/saveload.py).

A save the flash refuses (full: OSError 28, or any write error) is said at
once in a banner over the screen (App.show_banner: FLASH FULL or SAVE
FAILED, with what to do); on a full flash the older matches' game records
are deleted (Records.free), then the backup copies of the saves
(Storage.free_backups), the save tried again after each. A save still
refused is tried again at the next turn (the game save is made after every
turn; a refused settings save goes with it), and play goes on: what was
saved before stays as it was, so a restart resumes it, never an older
state. The first save that goes through again says so.
"""

from firmware.compat import heap_free, hold_reserve, let_reserve_go, unload


class Saving:
    def __init__(self, app, records=None):
        self.app = app
        self.records = records       # firmware.saves.records.Records: a record per hand end
        self.notes = []              # (title, text) still to show, once each
        self.held = None             # match bytes kept unread (no memory at boot)
        self.saved_at = 0            # the clock at the last game save, 0 before
        self.error = None            # the last save the flash refused, if any
        self.failing = None          # while saves are refused: why (else None)
        self.unsaved = []            # names whose last save was refused (savefail)
        self.said_at = None          # when a refused save was last said (savefail)
        self.freed_at = None         # when room made on a full flash was last said
        self.stepping = False        # inside App.step(): saves wait for the frame
        self._due = False            # a game save waits for the frame
        self._record_due = None      # a match whose record must be written again
        self._finished = None        # a finished match in the save until its record is written
        self._record_after = None    # a record to write once the save is done

    # -- at start ----------------------------------------------------------
    def load(self):
        """Settings, then the game save (statistics and match), into
        app.settings and app.session; every damage or reset is
        noted for the player (notes), and what was recovered is written
        back at once, so the next start is quiet. True when a damaged save
        was set aside: a new match starts. (firmware/saves/saveload.py, a cold
        part: on MicroPython it leaves the heap once read.)"""
        let_reserve_go()        # importing from the .mpy bundle opens a file (firmware.compat)
        try:
            from firmware.saves import saveload
        finally:
            hold_reserve()
        fresh = saveload.load(self)
        if heap_free() is not None:
            unload("firmware.saves.saveload")
            # a match with a cut resumed: engine/cut.py until its hand's
            # end (firmware/screens/result.py, let_cut_go)
            unload("engine.cut")
        return fresh

    def start_record(self, finished):
        """At start: `finished`, a finished match kept in the game save
        until its game record is written (gamesave.Game.finished), or
        None; and the record that is due first, if any."""
        self._finished = finished
        m = self.app.match
        if m is not None:
            if m.phase == "hand_over":
                # The commit that ended this hand may have come just before
                # a cut, before its game record was written.
                self._record_due = m
        elif finished is not None:
            self._record_due = finished

    def next_note(self):
        """The next (title, text) to show, or None (the message screen)."""
        return self.notes.pop(0) if self.notes else None

    # -- saves -------------------------------------------------------------
    def store(self, name, payload=None):
        """Save (or, with no payload, remove) through the storage port. A
        flash that refuses (full, worn, out of memory) must not stop the
        game: firmware/saves/savefail.py makes room on a full flash and tries
        again, says a save still refused (a banner), keeps the error in
        `error` for the console; the save is tried again at the next turn
        while play goes on. (Imported only when a save fails: its code
        stays off the heap otherwise.)"""
        try:
            if payload is None:
                self.app.storage.remove(name)
            else:
                self.app.storage.save(name, payload)
        except (OSError, MemoryError) as e:
            try:
                from firmware.saves import savefail
            except MemoryError:
                # not even the room to load savefail (importing a .mpy opens
                # its file: a 1148-byte run): not saved, tried again at the
                # next turn as savefail would have it, with words that need
                # no memory; the game goes on
                self.error = self.failing = "could not save: no memory"
                if payload is not None and name not in self.unsaved:
                    self.unsaved.append(name)
                return False
            return savefail.refused(self, name, payload, e)
        if self.failing is not None:
            from firmware.saves import savefail

            savefail.stored(self, name, 0)
        return True

    def save_match(self, now=False):
        """Commit the game: the session's save, the statistics and the
        match in play (none once it is over) in one write
        (firmware/saves/gamesave.py, or a link match's). Inside App.step()
        the write waits until the frame is on the display (a turn's save
        costs tens of ms of flash erase and program: the player sees the
        move first); a power cut then still resumes the last completed
        turn. `now`: written before the frame (a match's secret, before
        its commitment is shown: firmware/cutwait.py)."""
        if self.stepping and not now:
            self._due = True
            return
        self._save_now()

    def _save_now(self):
        self._due = False
        app = self.app
        if "settings" in self.unsaved:         # refused before: tried again
            self.store("settings", app.settings.encode())
        s = app.session
        name = s.save_name
        try:
            payload = s.payload(self.held, self._finished)
        except MemoryError as e:
            self.error = "could not save %s: %s" % (name, e)
            return
        if self.store(name, payload):
            self.saved_at = app.clock()

    def hand_counted(self):
        """After a hand end is counted in the statistics: one commit of the
        statistics with the match, and the match's game record (a refused
        save does not stop play). The record is written from the match, so
        it is written after the commit it reflects. At the match's end that
        commit keeps the finished match (never resumed) and the one after
        the record drops it, so a record never runs ahead of the match a
        start resumes (gamesave.Game.finished)."""
        m = self.app.match
        if m is not None and m.cut is not None and heap_free() is not None:
            # a match with a cut: engine/cut.py, let go while the hand was
            # played (firmware/screens/result.py, let_cut_go), is imported
            # again for the record, the proof page and the next deal, with
            # the reserve let go as for any import from the .mpy bundle
            let_reserve_go()
            try:
                import engine.cut  # noqa: F401
            finally:
                hold_reserve()
        if m is not None and m.winner is not None and self.records is not None:
            # The commit that ends the match keeps it (never resumed) until
            # its record is written; the commit after the record drops it.
            self._finished = m
        self.save_match()
        if self._due:
            self._record_after = m      # flush() writes it after the save
        else:
            self._keep_record(m)

    def _keep_record(self, m):
        if self.records is not None and m is not None:
            self.records.keep_match(m)   # never raises
            if m is self._finished:
                self._finished = None
                self.save_match()        # the finished match leaves the save

    # -- around App.step() -------------------------------------------------
    def catch_up(self):
        """At a step's start: a record the last start found missing."""
        if self._record_due is not None and self.records is not None:
            self._keep_record(self._record_due)
            self._record_due = None

    def flush(self):
        """After a step (its frame shown): the save it asked for, then the
        record that waits for that save."""
        if self._due:
            self._save_now()
        if self._record_after is not None:
            self._keep_record(self._record_after)
            self._record_after = None
