"""The commit a development build names (engine/version.py's COMMIT).

Between releases VERSION is `X.Y.Z-dev`; a build that knows its commit
says which: the frozen build (`make uf2`, manifest.py freezes the module
this writes) and the terminal simulator (`make play`). A release's
version is plain and names no commit (its RELEASE file does).
"""

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def version(root=ROOT):
    """VERSION as engine/version.py in `root` writes it (read, not imported)."""
    with open(os.path.join(root, "engine", "version.py"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("VERSION = "):
                return line.split("=", 1)[1].strip().strip("\"'")
    raise ValueError("no VERSION in %s/engine/version.py" % root)


def commit(root=ROOT):
    """`git rev-parse --short HEAD` of the checkout at `root`, with
    '-dirty' when tracked files differ from it; '' without git or a
    repository."""
    try:
        short = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                               capture_output=True, text=True, timeout=10)
        if short.returncode:
            return ""
        dirty = subprocess.run(["git", "diff-index", "--quiet", "HEAD", "--"], cwd=root,
                               capture_output=True, timeout=10).returncode
    except (OSError, subprocess.SubprocessError):
        return ""
    return short.stdout.strip() + ("-dirty" if dirty else "")


def dev_commit(root=ROOT):
    """The commit to name: only for a development version."""
    return commit(root) if version(root).endswith("-dev") else ""


def write_module(out_dir, root=ROOT):
    """engine/build_commit.py under `out_dir` for the frozen build of a
    development version; the folder to freeze it from, or None (a release,
    or no git)."""
    c = dev_commit(root)
    if not c:
        return None
    d = os.path.join(out_dir, "engine")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "build_commit.py")
    text = "# written by tools/deploy/buildinfo.py for this build\nCOMMIT = %r\n" % c
    try:
        with open(path, encoding="utf-8") as f:
            same = f.read() == text
    except OSError:
        same = False
    if not same:                    # unchanged: left alone, so nothing is rebuilt
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return out_dir
