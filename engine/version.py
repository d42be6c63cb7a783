"""The game's one version string: shown on the title screen and printed at
boot, written into game records and saves, and naming the release in
dist/<VERSION>/ (semantic versioning: a save or record from a newer major
or minor version may hold what this one cannot read).

Between releases it is the next release's number with `-dev`: a
development build of 1.1.0 is newer than 1.0.0 and older than 1.1.0.
`make release` builds a `-dev` commit as the plain version
(tools/deploy/release.py). COMMIT is the short commit of a development
build where the build knows it (the frozen build freezes it in,
manifest.py, and the .mpy bundle carries it, tools/deploy/buildinfo.py;
the terminal simulator asks git), else "".
"""

VERSION = "1.1.0-dev"

try:
    from .build_commit import COMMIT
except ImportError:
    COMMIT = ""

DEV = "-dev"


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
