"""Build the web version of the handheld (web/) into a static folder.

    .venv/bin/python -m tools.web.build [--out DIR] [--source]

`make web-build` runs this (and `make web` serves the result). The folder
needs no server code; any static host will do:

    index.html  style.css  web.js      the page (web/)
    micropython.mjs  micropython.wasm  the MicroPython WebAssembly port
                                       (node_modules, pinned in package.json)
    app.pack                           engine/ and firmware/ compiled to .mpy
                                       (bytecode, mpy v6.3) with mpy-cross,
                                       plus webport.py as webport.mpy

app.pack is one request: a first line of JSON, the index of the files to
mount ({"files": [[path, size], ...], ...}, paths relative to /app in the
wasm filesystem), then the files' bytes one after another in that order.
--source packs the .py sources instead of .mpy (readable tracebacks).

Device-only modules are left out: firmware/main.py, pico.py, board.py,
ssd1306.py (they import `machine` or drive the I2C panel), textview.py and
consolekeys.py (the serial console's screens as text and keys as buttons).
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WEB = os.path.join(ROOT, "web")   # the page's files and its port module

from tools.deploy import buildinfo  # noqa: E402
from tools.deploy.deploy import compile_commit, mpy_cross_command  # noqa: E402

DEFAULT_OUT = os.path.join(ROOT, "build", "web")
PACKAGES = ("engine", "firmware")
DEVICE_ONLY = {"firmware/main.py", "firmware/pico/romboot.py", "firmware/pico/pico.py", "firmware/board/board.py",
               "firmware/display/ssd1306.py", "firmware/display/textview.py", "firmware/pico/consolekeys.py"}
PAGE_FILES = ("index.html", "style.css", "web.js")
WASM_PKG = os.path.join(ROOT, "node_modules", "@micropython",
                        "micropython-webassembly-pyscript")
RUNTIME_FILES = ("micropython.mjs", "micropython.wasm")
PORT_MODULES = ("webport.py",)  # web/*.py that the page imports
MPY_VERSION = 6  # what MicroPython 1.23 .. 1.27 (the wasm package) loads


def sources():
    """(repository-relative path of every .py the page needs), sorted."""
    out = []
    for pkg in PACKAGES:
        for d, dirs, files in os.walk(os.path.join(ROOT, pkg)):
            dirs[:] = sorted(x for x in dirs
                             if x != "__pycache__" and not x.startswith("."))
            for f in sorted(files):
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(d, f), ROOT).replace(os.sep, "/")
                    if rel not in DEVICE_ONLY:
                        out.append(rel)
    for m in PORT_MODULES:
        out.append("web/" + m)
    return sorted(out)


def mount_path(rel):
    """Where a source goes under /app: packages keep their folders, the port
    modules sit at the top (import webport)."""
    if rel.startswith("web/"):
        return rel[len("web/"):]
    return rel


def compile_all(rels, tmp, source=False):
    """[(mount path, bytes)] for each source, compiled unless `source`."""
    out = []
    if source:
        for rel in rels:
            with open(os.path.join(ROOT, rel), "rb") as f:
                out.append((mount_path(rel), f.read()))
        return out
    mc = mpy_cross_command()
    errors = []
    for rel in rels:
        dst = os.path.join(tmp, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        r = subprocess.run(mc + ["-s", rel, "-o", dst, os.path.join(ROOT, rel)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            errors.append("%s:\n%s%s" % (rel, r.stdout, r.stderr))
            continue
        with open(dst, "rb") as f:
            data = f.read()
        if data[:2] != bytes((ord("M"), MPY_VERSION)):
            errors.append("%s: mpy-cross made mpy v%d; the wasm port loads v%d"
                          % (rel, data[1], MPY_VERSION))
            continue
        out.append((mount_path(rel)[:-3] + ".mpy", data))
    if errors:
        raise SystemExit("mpy-cross failed:\n" + "\n".join(errors))
    return out


def commit_files(tmp, source=False):
    """[(mount path, bytes)] of engine/build_commit for a development
    version (tools/deploy/buildinfo.py: SETTINGS > VERSION names the
    commit the page was built from), compiled unless `source`; [] for a
    release or without git."""
    if source:
        d = buildinfo.write_module(os.path.join(tmp, "commit"), ROOT)
        if not d:
            return []
        with open(os.path.join(d, "engine", "build_commit.py"), "rb") as f:
            return [("engine/build_commit.py", f.read())]
    os.makedirs(tmp, exist_ok=True)
    dst = os.path.join(tmp, "build_commit.mpy")
    if not compile_commit(dst, ROOT, opts=()):   # (the page's modules: no -O3)
        return []
    with open(dst, "rb") as f:
        return [("engine/build_commit.mpy", f.read())]


def pack(files):
    """The app.pack bytes for [(path, data)]."""
    h = hashlib.sha256()
    for path, data in files:
        h.update(path.encode() + b"\0" + data)
    index = {
        "format": 1,
        "files": [[p, len(d)] for p, d in files],
        "bytes": sum(len(d) for _, d in files),
        "sha256": h.hexdigest()[:16],
    }
    head = json.dumps(index, separators=(",", ":")).encode() + b"\n"
    return head + b"".join(d for _, d in files), index


def build(out=DEFAULT_OUT, source=False, quiet=False):
    """Assemble the static folder; returns {file name: size}."""
    for f in RUNTIME_FILES:
        if not os.path.isfile(os.path.join(WASM_PKG, f)):
            raise SystemExit("%s missing: run `make node_modules` (npm ci)"
                             % os.path.join(WASM_PKG, f))
    out = os.path.abspath(out)
    if os.path.isdir(out) and os.listdir(out):
        if not os.path.isfile(os.path.join(out, "app.pack")):
            raise SystemExit("%s is not empty and holds no app.pack: not replacing it" % out)
        shutil.rmtree(out)
    os.makedirs(out, exist_ok=True)
    for f in PAGE_FILES:
        shutil.copyfile(os.path.join(WEB, f), os.path.join(out, f))
    for f in RUNTIME_FILES:
        shutil.copyfile(os.path.join(WASM_PKG, f), os.path.join(out, f))
    with tempfile.TemporaryDirectory() as tmp:
        files = compile_all(sources(), tmp, source) + commit_files(tmp, source)
    data, index = pack(files)
    with open(os.path.join(out, "app.pack"), "wb") as f:
        f.write(data)
    sizes = {}
    for name in sorted(os.listdir(out)):
        sizes[name] = os.path.getsize(os.path.join(out, name))
    if not quiet:
        print("built %s: %d modules (%s) in app.pack; %d bytes in all" % (
            os.path.relpath(out, os.getcwd()), len(files),
            "sources" if source else ".mpy", sum(sizes.values())))
        for name, n in sizes.items():
            print("  %-18s %8d" % (name, n))
    return sizes


def main(argv=None):
    ap = argparse.ArgumentParser(description="Build the web handheld (static folder).")
    ap.add_argument("--out", default=DEFAULT_OUT, help="folder (default build/web)")
    ap.add_argument("--source", action="store_true",
                    help="pack .py sources instead of .mpy")
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args(argv)
    build(a.out, a.source, a.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
