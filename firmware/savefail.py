"""A save the flash refused: room made, said at once, tried again.

firmware.app.App imports this only when a save fails, so none of it is on
the heap while the flash takes every save.

refused(app, name, payload, e) is called with the error of a save (or a
remove) of `name`. On a full flash (OSError 28) it makes room without
losing the match, in two steps, the save tried again after each:

  1. the game records of the older matches (firmware/records.py:
     Records.free keeps the match in play's);
  2. the backup copies of the saves (firmware/storage.py:
     Storage.free_backups: every .bak, and a .tmp beside its .dat).

A save that goes through then says what was deleted (FLASH FULL, at most
once a minute). A save still refused, or refused for another reason, is
said in a banner (FLASH FULL or SAVE FAILED, with what to do; again at most
once a minute while saves keep failing), kept in app.save_error for the
console, and its name noted (app._unsaved) so that the next turn's save
makes it again. stored(app, name, freed) is called when a save goes
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


def _put(app, name, payload):
    if payload is None:
        app.storage.remove(name)
    else:
        app.storage.save(name, payload)


def free_space(app, tier):
    """Delete what tier `tier` may (RECORDS, BACKUPS); the files deleted."""
    try:
        if tier == RECORDS:
            rec = app.records
            m = app.match
            return rec.free(m.seed if m is not None else None) if rec is not None else 0
        free = getattr(app.storage, "free_backups", None)
        return free() if free is not None else 0
    except Exception:
        return 0


def refused(app, name, payload, e):
    """The save of `name` raised `e`: room made and tried again on a full
    flash; True if it then went through, else said and False."""
    freed = 0
    if errno_of(e) == ENOSPC:
        for tier in (RECORDS, BACKUPS):
            if not free_space(app, tier):
                continue
            freed |= tier
            try:
                _put(app, name, payload)        # once more, with the room made
            except (OSError, MemoryError) as e2:
                e = e2
                if errno_of(e2) != ENOSPC:
                    break
                continue
            stored(app, name, freed)
            return True
    app.save_error = "could not save %s: %s" % (name, e)
    app.save_failing = app.save_error
    if payload is not None and name not in app._unsaved:
        app._unsaved.append(name)
    now = app.clock()
    if app._banner_at is not None and ticks_diff(now, app._banner_at) < AGAIN_MS:
        return False
    app._banner_at = now
    n = errno_of(e)
    if n == ENOSPC:
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


def stored(app, name, freed):
    """The save of `name` went through (after `freed`: what was deleted)."""
    if name in app._unsaved:
        app._unsaved.remove(name)
    if freed:
        now = app.clock()
        if app._freed_at is None or ticks_diff(now, app._freed_at) >= AGAIN_MS:
            app._freed_at = now
            app.show_banner(b"FLASH FULL", "%s to make room; the game is saved." % (
                FREED[freed][:-1],))
    elif app.save_failing is not None and not app._unsaved:
        app.show_banner(b"SAVED AGAIN", "Saving works again; the game is saved.")
    if not app._unsaved:
        app.save_failing = None
        app._banner_at = None
