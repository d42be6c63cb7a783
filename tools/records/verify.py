"""Check game records: `replay.py --verify`, by its own name.

    python3 tools/records/verify.py [--noted C1,C2,...] RECORD [RECORD ...]
    micropython tools/records/verify.py RECORD

The check itself is engine/verify.py (the web page's "Check a game record"
panel runs it too); replay.py reads the files and prints its verdict, hand
by hand. Exit status: 0 verified, 1 not verified, 2 unreadable.
"""

import sys

import _root  # this script's folder, tools/records/, is first on sys.path on every runtime

_root.add_repo_root()

import replay  # noqa: E402


def main(argv):
    return replay.main(argv[:1] + ["--verify"] + argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
