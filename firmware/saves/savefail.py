"""A save the flash refused: room made, said at once, tried again.

A part of firmware/saves/saving.py: Saving.store imports this only when a save
fails, so none of it is on the heap while the flash takes every save. Its
state is the Saving object's (sv below): error, failing, unsaved, said_at,
freed_at.

refused(sv, name, payload, e) is called with the error of a save (or a
remove) of `name`. On a full flash (OSError 28) it makes room without
losing the match, in two steps, the save tried again after each:

  1. the game records of the older matches (firmware/saves/records.py:
     Records.free keeps the match in play's);
  2. the backup copies of the saves (firmware/saves/storage.py:
     Storage.free_backups: every .bak, and a .tmp beside its .dat).

A save that goes through then says what was deleted (FLASH FULL, at most
once a minute). A save still refused, or refused for another reason, is
said in a banner (FLASH FULL or SAVE FAILED, with what to do; again at most
once a minute while saves keep failing; App.show_banner), kept in
sv.error for the console, and its name noted (sv.unsaved) so that the
next turn's save makes it again. An error that carries its own words for
the screen (`banner`: (title, text), as CircuitPython's cpnvm.BackupStale
does: SAVING PAUSED, what to do) is said in them instead. stored(sv, name, freed) is called when a save goes
through while others were failing: the first one says SAVED AGAIN.
"""

from firmware.buttons import ticks_diff

AGAIN_MS = 60000            # a refusal (or room made) is said again after this
ENOSPC = 28
EROFS = 30
RECORDS = 1                 # freed: the older matches' records
BACKUPS = 2                 # freed: the saves' backup copies
FREED = ("Nothing left to delete.", "Old records deleted.", "Backup copies deleted.",
         "Old records, backups deleted.")


def errno_of(e):
    try:
        return e.args[0]
    except (AttributeError, IndexError):
        return None


def _put(sv, name, payload):
    if payload is None:
        sv.app.storage.remove(name)
    else:
        sv.app.storage.save(name, payload)


def free_space(sv, tier):
    """Delete what tier `tier` may (RECORDS, BACKUPS); the files deleted."""
    try:
        if tier == RECORDS:
            rec = sv.records
            m = sv.app.match
            return rec.free(m.seed if m is not None else None) if rec is not None else 0
        free = getattr(sv.app.storage, "free_backups", None)
        return free() if free is not None else 0
    except Exception:
        return 0


def refused(sv, name, payload, e):
    """The save of `name` raised `e`: room made and tried again on a full
    flash; True if it then went through, else said and False."""
    freed = 0
    if errno_of(e) == ENOSPC:
        for tier in (RECORDS, BACKUPS):
            if not free_space(sv, tier):
                continue
            freed |= tier
            try:
                _put(sv, name, payload)        # once more, with the room made
            except (OSError, MemoryError) as e2:
                e = e2
                if errno_of(e2) != ENOSPC:
                    break
                continue
            stored(sv, name, freed)
            return True
    sv.error = "could not save %s: %s" % (name, e)
    sv.failing = sv.error
    if payload is not None and name not in sv.unsaved:
        sv.unsaved.append(name)
    app = sv.app
    now = app.clock()
    if sv.said_at is not None and ticks_diff(now, sv.said_at) < AGAIN_MS:
        return False
    sv.said_at = now
    n = errno_of(e)
    own = getattr(e, "banner", None)
    if own is not None:
        app.show_banner(own[0], own[1])      # an error with its own words
    elif n == ENOSPC:
        app.show_banner(b"FLASH FULL", "Not saved; tries again each turn. %s Free "
                        "space with mpremote (records first)." % (FREED[freed],))
    elif n == EROFS:
        app.show_banner(b"SAVE FAILED", "Not saved: a file is read-only (error 30). "
                        "Tries again each turn; the last save still loads.")
    elif isinstance(e, MemoryError):
        app.show_banner(b"SAVE FAILED", "Not saved (no memory); tries again each "
                        "turn. The last save still loads.")
    else:
        app.show_banner(b"SAVE FAILED", "Not saved (flash error %s); tries again "
                        "each turn. The last save still loads." % (n,))
    return False


def stored(sv, name, freed):
    """The save of `name` went through (after `freed`: what was deleted)."""
    if name in sv.unsaved:
        sv.unsaved.remove(name)
    app = sv.app
    if freed:
        now = app.clock()
        if sv.freed_at is None or ticks_diff(now, sv.freed_at) >= AGAIN_MS:
            sv.freed_at = now
            app.show_banner(b"FLASH FULL", "%s to make room; the game is saved." % (
                FREED[freed][:-1],))
    elif sv.failing is not None and not sv.unsaved:
        app.show_banner(b"SAVED AGAIN", "Saving works again; the game is saved.")
    if not sv.unsaved:
        sv.failing = None
        sv.said_at = None
