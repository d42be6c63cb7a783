"""Copy the game to a CircuitPython board's CIRCUITPY drive and install the
Adafruit libraries it needs with circup.

    python -m tools.deploy.deploy_circuitpython DRIVE          copy, then circup install
    options: --dry-run    say what would be copied and the circup command;
                          change nothing
             --no-circup  copy only
             --force      copy even if DRIVE has no boot_out.txt

`make flash-circuitpython DRIVE=/media/$USER/CIRCUITPY` runs this (on
Windows DRIVE=E:/, on macOS DRIVE=/Volumes/CIRCUITPY).

What goes on the drive:
  /code.py               circuitpython/code.py (the entry point)
  /boot.py               circuitpython/boot.py (the drive writable for the
                         game's save backup, unless B is held at power-on)
  /cp*.py                circuitpython/cp*.py (the ports, one module each)
  /engine/, /firmware/   the modules those import, found by following their
                         imports (engine/ whole in practice; firmware/ without
                         the MicroPython-only pico.py, main.py and ssd1306.py),
                         as sources: CircuitPython's .mpy format is not
                         MicroPython's
  /lib/                  adafruit_displayio_ssd1306 (and _sh1106), by circup
                         from circuitpython/requirements-circuitpython.txt
A file is written only when its content differs (flash wear, and
CircuitPython restarts code.py at every write). Files under /engine and
/firmware that are not part of the game any more are removed; nothing else
on the drive is touched. The saves live in the board's nvm (and, across
its rare rewrite, in /saves-backup.bin). circup downloads the library
bundles, so that step needs the network.

Once boot.py is on the board the drive is the game's: the computer sees it
read-only unless B is held while the board powers on. A copy that fails
for that reason says so.
"""

import argparse
import ast
import os
import shlex
import shutil
import subprocess
import sys

from tools.deploy import buildinfo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CPDIR = os.path.join(ROOT, "circuitpython")
ENTRY = "code.py"
BOOT = "boot.py"
PACKAGES = ("engine", "firmware")
REQUIREMENTS = os.path.join(CPDIR, "requirements-circuitpython.txt")
MIN_VERSION = 9


def _module_file(name):
    """The repository file of module `name` in PACKAGES, or None."""
    parts = name.split(".")
    if parts[0] not in PACKAGES:
        return None
    base = os.path.join(ROOT, *parts)
    if os.path.isfile(base + ".py"):
        return base + ".py"
    init = os.path.join(base, "__init__.py")
    if os.path.isfile(init):
        return init
    return None


def _package_of(path):
    rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
    if rel.endswith(".__init__"):
        return rel[: -len(".__init__")]
    return rel.rpartition(".")[0]


def _imports(path):
    """Module names `path` may import (every import statement, also those
    inside functions: the App imports its screens lazily)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    pkg = _package_of(path) if path.startswith(tuple(os.path.join(ROOT, p) for p in PACKAGES)) else ""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.append(a.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                if node.level > 1:
                    base = base[: -(node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.append(mod)
            for a in node.names:
                out.append(mod + "." + a.name)
    return out


def bundle_files():
    """Repository paths (relative, '/'-separated) of the modules the entry
    point and the ports need, with their packages' __init__.py; sorted."""
    todo = [os.path.join(CPDIR, f) for f in entry_files()]
    seen = set()
    found = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _imports(path):
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                f = _module_file(".".join(parts[:i]))
                if f is not None and f not in found:
                    found.add(f)
                    todo.append(f)
    return sorted(os.path.relpath(f, ROOT).replace(os.sep, "/") for f in found)


def entry_files():
    """code.py, boot.py and the port modules (cp*.py), by name."""
    ports = sorted(f for f in os.listdir(CPDIR) if f.startswith("cp") and f.endswith(".py"))
    return [ENTRY, BOOT] + ports


def plan():
    """[(source path, path on the drive)] of everything to copy."""
    out = [(os.path.join(CPDIR, f), f) for f in entry_files()]
    for rel in bundle_files():
        out.append((os.path.join(ROOT, *rel.split("/")), rel))
    # a development version names its commit (SETTINGS > VERSION): the
    # module tools/deploy/buildinfo.py writes under build/commit
    d = buildinfo.write_module(os.path.join(ROOT, "build", "commit"), ROOT)
    if d:
        out.append((os.path.join(d, "engine", "build_commit.py"), "engine/build_commit.py"))
    return out


def circup_command(drive):
    here = os.path.join(os.path.dirname(sys.executable), "circup")
    exe = [here] if os.path.isfile(here) else [shutil.which("circup") or "circup"]
    return exe + ["--path", drive, "install", "-r", REQUIREMENTS]


def check_drive(drive, force=False):
    """The CircuitPython version line of boot_out.txt; raises SystemExit
    when DRIVE is not a CIRCUITPY drive (unless force)."""
    if not drive:
        raise SystemExit("give the CIRCUITPY drive: make flash-circuitpython DRIVE=/media/$USER/CIRCUITPY")
    if not os.path.isdir(drive):
        raise SystemExit("%s is not a folder: is the board plugged in and its CIRCUITPY "
                         "drive mounted?" % drive)
    boot = os.path.join(drive, "boot_out.txt")
    if not os.path.isfile(boot):
        if force:
            return None
        raise SystemExit("%s has no boot_out.txt, so it does not look like a CIRCUITPY drive "
                         "(pass --force to copy anyway)." % drive)
    with open(boot, encoding="utf-8", errors="replace") as f:
        first = f.readline().strip()
    words = first.split()
    if "CircuitPython" in words:
        i = words.index("CircuitPython")
        if i + 1 < len(words):
            try:
                major = int(words[i + 1].split(".")[0])
            except ValueError:
                major = None
            if major is not None and major < MIN_VERSION:
                raise SystemExit("%s runs %s; the game needs CircuitPython %d or later "
                                 "(keypad timestamps, i2cdisplaybus)." % (drive, first, MIN_VERSION))
    return first


def _same(src, dst):
    if not os.path.isfile(dst):
        return False
    with open(src, "rb") as a, open(dst, "rb") as b:
        return a.read() == b.read()


def stale_files(drive, keep):
    """Files under DRIVE/engine and DRIVE/firmware not in `keep`."""
    out = []
    for pkg in PACKAGES:
        top = os.path.join(drive, pkg)
        for d, dirs, files in os.walk(top):
            for f in files:
                rel = os.path.relpath(os.path.join(d, f), drive).replace(os.sep, "/")
                if rel not in keep:
                    out.append(rel)
    return sorted(out)


def deploy(drive, dry_run=False, circup=True, force=False, out=print, run=subprocess.run):
    """Copy the game to `drive`, then run circup; returns (copied, removed,
    circup command or None)."""
    version = check_drive(drive, force)
    if version:
        out("CIRCUITPY drive %s: %s" % (drive, version))
    items = plan()
    keep = set(dst for _, dst in items)
    copied = []
    for src, dst in items:
        target = os.path.join(drive, *dst.split("/"))
        if _same(src, target):
            continue
        copied.append(dst)
        if not dry_run:
            try:
                os.makedirs(os.path.dirname(target) or drive, exist_ok=True)
                with open(src, "rb") as f:
                    data = f.read()
                with open(target, "wb") as f:
                    f.write(data)
            except OSError as e:
                raise SystemExit("%s could not be written (%s). The board's boot.py gives the "
                                 "drive to the game: hold B while plugging the board in, then "
                                 "copy again." % (target, e))
    removed = stale_files(drive, keep)
    if not dry_run:
        for rel in removed:
            os.remove(os.path.join(drive, *rel.split("/")))
        for pkg in PACKAGES:  # folders left empty
            for d, dirs, files in os.walk(os.path.join(drive, pkg), topdown=False):
                if not os.listdir(d):
                    os.rmdir(d)
    size = sum(os.path.getsize(src) for src, _ in items)
    verb = "would copy" if dry_run else "copied"
    out("%s %d of %d files (%d bytes in the game); %s %d stale" % (
        verb, len(copied), len(items), size, "would remove" if dry_run else "removed", len(removed)))
    cmd = None
    if circup:
        cmd = circup_command(drive)
        line = " ".join(shlex.quote(c) for c in cmd)
        if dry_run:
            out("would run: " + line)
        else:
            out("running: " + line)
            r = run(cmd)
            if r.returncode:
                raise SystemExit("circup failed (exit %d): it downloads the Adafruit library "
                                 "bundles, so it needs the network; the game's files are on the "
                                 "drive already." % r.returncode)
    if not dry_run:
        out("Done. The board restarts code.py by itself; hold B at power-on to skip the game.")
    return copied, removed, cmd


def main(argv=None):
    ap = argparse.ArgumentParser(description="copy the game to a CIRCUITPY drive")
    ap.add_argument("drive", nargs="?", default=os.environ.get("DRIVE"),
                    help="the mounted CIRCUITPY drive (or $DRIVE)")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--no-circup", action="store_true")
    ap.add_argument("--force", action="store_true")
    args = ap.parse_args(argv)
    deploy(args.drive, dry_run=args.dry_run, circup=not args.no_circup, force=args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
