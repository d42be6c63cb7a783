"""A newer version's save found at start: set aside, never over one kept
before. A cold part of firmware/storage.py: Storage.load imports it only
when a save names a newer version, so none of it is on the heap otherwise.

set_aside(fs, path, name, dat) moves <name>.dat to the first of <name>.new,
.new2 .. .new9 that does not exist (a stat failing for another reason
counts as taken); the storage says so ("Saved by version X; this is Y:
kept as game.new2."), outcome NEWER. With all nine taken, or the rename
refused, the file stays as <name>.dat and the storage keeps the name
(Storage.save refuses it until the next start), outcome KEPT, said with
what to do (left_message). A power cut at any point leaves the file either
as .dat (the next start does it again) or whole under its new name.
"""

NEW_KEEP = 9  # a newer version's saves kept: <name>.new, .new2 .. .new9
_ENOENT = 2

MSG_LEFT = "Saved by %s; this is %s: left as %s.dat, not written over; %s."
MSG_TAKEN = "%s.new to %s.new%d are taken: move them off, then press reset"
MSG_REFUSED = "the flash refused to move it (error %s): press reset to try again"


def _errno(e):
    try:
        return e.args[0]
    except (AttributeError, IndexError):
        return None


def set_aside(fs, path, name, dat):
    """Move `dat`, the newer save of `name`: (ext, None) once it is
    <name><ext>, or (None, why) when it is left as it is. `fs` and
    `path(name, ext)` are the storage's."""
    for k in range(1, NEW_KEEP + 1):
        ext = ".new" if k == 1 else ".new%d" % k
        dst = path(name, ext)
        try:
            fs.stat(dst)
            continue                   # kept before: never written over
        except OSError as e:
            if _errno(e) != _ENOENT:
                continue               # cannot tell: not written over either
        try:
            fs.rename(dat, dst)
        except OSError as e:
            return None, MSG_REFUSED % (_errno(e),)
        return ext, None
    return None, MSG_TAKEN % (name, name, NEW_KEEP)


def left_message(version, name, why):
    """What the player is told of a newer save left as <name>.dat (`why`)."""
    from engine.version import VERSION as this

    v = "version " + version if version else "a newer version"
    return MSG_LEFT % (v, this, name, why)
