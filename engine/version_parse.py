"""Versions read and ordered, and the version line with the commit: the
part of engine/version.py the handheld needs only now and then (a save's
or a record's version checked, the console's first line), kept out of
that always-loaded module so that its code is not on the .mpy bundle's
heap through a match (firmware.board.boardcfg and firmware.saves.gamesave let it go
after use)."""

from .version import COMMIT, DEV, VERSION


def parse(text):
    """(major, minor, patch, final) of 'X.Y.Z' (final 1) or 'X.Y.Z-dev'
    (final 0: before X.Y.Z), so tuples order as the versions do;
    ValueError for anything else."""
    final = 1
    if text.endswith(DEV):
        text, final = text[:-len(DEV)], 0
    parts = text.split(".")
    if len(parts) != 3:
        raise ValueError("not a version: %r" % text)
    out = []
    for p in parts:
        if not p or not p.isdigit():
            raise ValueError("not a version: %r" % text)
        out.append(int(p))
    out.append(final)
    return tuple(out)


def described():
    """The version with the commit of a development build that knows it:
    '1.1.0-dev (commit abc1234)', or the version alone."""
    return VERSION + (" (commit %s)" % COMMIT if COMMIT else "")
