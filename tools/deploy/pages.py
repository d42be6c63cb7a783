"""The release the pages send a reader to install, from one source.

README.md and docs/*.md name the release to install by its files and its
folder: `dist/1.1.0/gin-rummy-pico-1.1.0.uf2`, `gin-rummy-mpy-1.1.0.zip`,
`cd dist/1.1.0`, and the boot line `Gin Rummy 1.1.0`. Every such name must
be the newest release in dist/ (the newest dist/<version>/ holding a
RELEASE file): `make check-docs` and host_tests/test_docs.py refuse a page
that names an older one, and `make release` moves every name on to the
release it has just built (`name_release`), so no page is edited by hand
for a release. The release's zips carry the docs with the names moved on
to the release they are in (tools/deploy/release.py).

A line that speaks of an older release on purpose (a figure measured on
it, say) carries the marker `<!-- an older release -->`; names inside
other HTML comments (a figure marker's `measured="release 1.1.0"`) are not
read either. A development version (`1.2.0-dev`) is never a release name.
"""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# dist/X.Y.Z, a release file's name, the console's first line
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")       # [words](target), ![picture](target)
NAME = re.compile(r"(?<![\w.-])(dist/|gin-rummy-(?:pico|mpy|circuitpython|web|source)-"
                  r"|Gin Rummy )(\d+\.\d+\.\d+)(?![\w-]|\.\d)")
OLDER = "<!-- an older release -->"
COMMENT = re.compile(r"<!--.*?-->", re.S)


def pages(root=ROOT):
    """README.md and docs/*.md, as paths from the top (those that exist)."""
    out = ["README.md"] if os.path.isfile(os.path.join(root, "README.md")) else []
    d = os.path.join(root, "docs")
    if os.path.isdir(d):
        out += sorted("docs/" + f for f in os.listdir(d) if f.endswith(".md"))
    return out


def _version_key(v):
    return tuple(int(p) for p in v.split("."))


def newest(root=ROOT):
    """The newest released version in root/dist (X.Y.Z with a RELEASE
    file), or None."""
    d = os.path.join(root, "dist")
    if not os.path.isdir(d):
        return None
    found = [v for v in os.listdir(d) if re.fullmatch(r"\d+\.\d+\.\d+", v)
             and os.path.isfile(os.path.join(d, v, "RELEASE"))]
    return max(found, key=_version_key) if found else None


def _spans(line):
    """The spans of `line` that are HTML comments."""
    return [m.span() for m in COMMENT.finditer(line)]


def names(text):
    """[(line number, version, the name as written)] of every release name
    in `text` outside HTML comments, lines marked OLDER left out."""
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if OLDER in line:
            continue
        skip = _spans(line)
        for m in NAME.finditer(line):
            if any(a <= m.start() < b for a, b in skip):
                continue
            out.append((i, m.group(2), m.group(0)))
    return out


def stale(root=ROOT, version=None):
    """['page:line: names 1.0.0 (...), the newest release is 1.1.0'] for
    every release name in the pages that is not `version` (default: the
    newest in dist/). Empty when dist/ holds no release."""
    version = version or newest(root)
    if version is None:
        return []
    out = []
    for rel in pages(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = f.read()
        for line, v, said in names(text):
            if v != version:
                out.append("%s:%d: names %s (%r); the newest release is %s"
                           % (rel, line, v, said, version))
    return out


def name_release(text, version):
    """`text` with every release name (as `names` finds them) naming
    `version` instead."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if OLDER in line:
            continue
        skip = _spans(line)

        def sub(m):
            if any(a <= m.start() < b for a, b in skip):
                return m.group(0)
            return m.group(1) + version
        lines[i] = NAME.sub(sub, line)
    return "\n".join(lines)


def write_pages(version, root=ROOT):
    """Every page names `version` (make release, once the release is
    built); returns the pages changed."""
    changed = []
    for rel in pages(root):
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = name_release(text, version)
        if new != text:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(new)
            changed.append(rel)
    return changed


def link_targets(text, rel):
    """The files of the tree the Markdown links of page `rel` lead to, as
    paths from the top (anchors dropped; addresses such as https://... and
    mailto: left out)."""
    out = []
    base = os.path.dirname(rel)
    for m in LINK.finditer(text):
        target = m.group(1).split("#")[0]
        if target and not re.match(r"^[a-z]+:", target):
            out.append(os.path.normpath(os.path.join(base, target)))
    return out


def linked(root=ROOT, start="README.md"):
    """`start` and every file its links lead to, page after page (sorted):
    what a reader of the README can open. A release's own files (dist/)
    are not followed: they lie beside the zips, not in them."""
    seen = set()
    todo = [start]
    while todo:
        rel = todo.pop()
        if rel in seen or rel.split("/")[0] == "dist":
            continue
        seen.add(rel)
        if rel.endswith(".md") and os.path.isfile(os.path.join(root, rel)):
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                todo += link_targets(f.read(), rel)
    return sorted(seen)
