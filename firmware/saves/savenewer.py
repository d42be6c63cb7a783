"""A newer version's save found at start: set aside, never over one kept
before. A cold part of firmware/saves/storage.py: Storage.load imports it only
when a save names a newer version, so none of it is on the heap otherwise.

set_aside(st, name, dat, why) moves <name>.dat to the first of <name>.new,
.new2 .. .new9 that does not exist (a stat failing for another reason
counts as taken), says so ("Saved by version X; this is Y: kept as
game.new2."), outcome NEWER. With all nine taken, or the rename refused,
the file stays as <name>.dat and the name is kept (Storage.save refuses it
until the next start), outcome KEPT, said with what to do. A power cut at
any point leaves the file either as .dat (the next start does it again) or
whole under its new name. newer_message is what CircuitPython's nvm
storage says of the newer saves it keeps on the drive too. (It works
through the storage it is given: it imports nothing of firmware.saves.storage.)
"""

NEW_KEEP = 9  # a newer version's saves kept: <name>.new, .new2 .. .new9
NEWER = "newer"  # the outcomes, as firmware.saves.storage names them (NEWER, KEPT)
KEPT = "kept"
_ENOENT = 2

MSG_NEWER = "Saved by %s; this is %s: %s."
MSG_LEFT = "Saved by %s; this is %s: left as %s.dat, not written over; %s."
MSG_TAKEN = "%s.new to %s.new%d are taken: move them off, then %s"
MSG_REFUSED = "the flash refused to move it (error %s): to try again, %s"


def _errno(e):
    try:
        return e.args[0]
    except (AttributeError, IndexError):
        return None


def _saved_by(version):
    return "version " + version if version else "a newer version"


def newer_message(version, kept):
    """What the player is told of a newer version's save kept as `kept`
    (None: it could not be kept)."""
    from engine.version import VERSION as this

    return MSG_NEWER % (_saved_by(version), this,
                        "kept as " + kept if kept else "it could not be kept")


def set_aside(st, name, dat, why):
    """(None, message) for the newer save `dat` of `name` (NewerSave
    `why`), through the storage `st` (firmware.saves.storage.Storage)."""
    fs = st.fs
    left = MSG_TAKEN % (name, name, NEW_KEEP, st.restart)
    for k in range(1, NEW_KEEP + 1):
        ext = ".new" if k == 1 else ".new%d" % k
        dst = st.path(name, ext)
        try:
            fs.stat(dst)
            continue                   # kept before: never written over
        except OSError as e:
            if _errno(e) != _ENOENT:
                continue               # cannot tell: not written over either
        try:
            fs.rename(dat, dst)
        except OSError as e:
            left = MSG_REFUSED % (_errno(e), st.restart)
            break
        st._note(dat, "%s; kept as %s%s" % (why, name, ext))
        return st._told(name, NEWER, None, newer_message(why.version, name + ext))
    st._note(dat, "%s; left as it is (%s)" % (why, left))
    if name not in st.kept:
        st.kept.append(name)
    from engine.version import VERSION as this

    return st._told(name, KEPT, None, MSG_LEFT % (_saved_by(why.version), this, name, left))
