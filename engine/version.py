"""The game's one version string: shown on the title screen and printed at
boot, written into game records and saves, and naming the release in
dist/<VERSION>/ (semantic versioning: a save or record from a newer major
or minor version may hold what this one cannot read).

Between releases it is the next release's number with `-dev`: a
development build of 1.2.0 is newer than 1.1.0 and older than 1.2.0.
`make release` builds a `-dev` commit as the plain version
(tools/deploy/release.py). COMMIT is the short commit of a development
build where the build knows it (the frozen build freezes it in,
manifest.py, and the .mpy bundle carries it, tools/deploy/buildinfo.py;
the terminal simulator asks git), else "".

Only these names live here: this module stays loaded on the handheld (the
title, records and saves name VERSION), and from the .mpy bundle its code
is on the heap. Reading and ordering versions, and the console's version
line, are in engine/version_parse.py, imported when needed.
"""

VERSION = "1.3.0-dev"

try:
    from .build_commit import COMMIT
except ImportError:
    COMMIT = ""

DEV = "-dev"

