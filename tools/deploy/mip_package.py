"""Write mip/package.json: the game as a mip package (MicroPython's own
package format, not npm's; npm's package.json at the top of the repository
only pins the host tests' JavaScript tools).

    python -m tools.deploy.mip_package           write mip/package.json
    python -m tools.deploy.mip_package --check   exit 1 if it is not up to date

Its files are the .mpy bundle's modules (tools/deploy/deploy.py: PACKAGES,
sources() and ENTRY), as sources: each engine/ and firmware/ module at the
same path on the board, and firmware/main.py as the board's /main.py. The
source URLs are relative to mip/ ("../engine/cards.py"), which mip and
mpremote resolve against where they found the package.json, so the same
file serves a GitHub repository, a fork and a local checkout:

    mpremote mip install --target= github:OWNER/REPO/mip
    mpremote mip install --target= mip/package.json        (a checkout)

`--target=` (empty) puts the files at the filesystem's root, where the
board runs /main.py; mip's default target /lib would hide main.py there.
The version is engine.version.VERSION.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.deploy.deploy import ENTRY, sources  # noqa: E402

OUT = os.path.join(ROOT, "mip", "package.json")


def version(root=ROOT):
    """engine/version.py's VERSION, read without importing the engine."""
    ns = {}
    with open(os.path.join(root, "engine", "version.py")) as f:
        exec(f.read(), ns)
    return ns["VERSION"]


def package(root=ROOT):
    """The package.json object: urls [[dest on the board, source], ...],
    no deps, the version."""
    urls = []
    for rel in sources(root):
        p = rel.replace(os.sep, "/")
        urls.append([p, "../" + p])
    urls.append(["main.py", "../" + ENTRY.replace(os.sep, "/")])
    return {"urls": urls, "deps": [], "version": version(root)}


def text(root=ROOT):
    """The file's text: one url pair a line, so a diff shows a module added
    or gone."""
    pkg = package(root)
    lines = ["{", '  "urls": [']
    urls = pkg["urls"]
    for i, u in enumerate(urls):
        lines.append("    " + json.dumps(u) + ("," if i < len(urls) - 1 else ""))
    lines.append("  ],")
    lines.append('  "deps": [],')
    lines.append('  "version": %s' % json.dumps(pkg["version"]))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    want = text()
    if "--check" in args:
        try:
            with open(OUT) as f:
                have = f.read()
        except OSError:
            have = None
        if have != want:
            print("mip/package.json is not up to date: run tools/deploy/mip_package.py")
            return 1
        print("mip/package.json is up to date")
        return 0
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(want)
    print("wrote %s: %d files, version %s" % (os.path.relpath(OUT), len(package()["urls"]),
                                             version()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
