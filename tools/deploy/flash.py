"""`make flash`: put this tree's game on a Pico over its USB serial, with
mpremote, and start it.

    python -m tools.deploy.flash [PORT]      build, write, reset into the game
    options: --no-reset   leave the board at the REPL afterwards
             --dry-run    build, then say what would be written, touch nothing
             --bundle     copy the .mpy bundle even onto a board with a ROMFS
                          partition (tools/deploy/deploy.py; for comparing)
             --root DIR   the tree whose game is built (default: this one)
             --image FILE a ROMFS image to write instead of building one

PORT is what `mpremote connect` takes (/dev/ttyACM0, COM5, id:...,
socket://host:port), or a shortcut (a0 = /dev/ttyACM0, u0 = /dev/ttyUSB0,
c0 = COM0); without it the first USB serial port is used, as mpremote does.

What it does, by what the board runs (found in the raw REPL, which stops a
running game first):

- the release's firmware (its .uf2, or `make uf2`): the game's ROMFS image
  (tools/deploy/romfs.py) is written into the board's ROMFS partition,
  only the blocks that differ, in an order a power cut cannot turn into a
  half-valid image; the board then restarts (a soft reset) into the new
  game, whose first console lines are shown. The filesystem (saves,
  settings, records) is not written.
- stock MicroPython (no ROMFS partition): it says so and how to get the
  partition (the release's .uf2, once: the saves stay). On an RP2040 (a
  Pico, 264 KB of RAM) it copies nothing: the .mpy bundle's code would sit
  in RAM and leave too little for a match (docs/DEVICE.md); --bundle
  copies it all the same. On a chip with more RAM (an RP2350, a Pico 2) it
  copies the .mpy bundle instead (tools/deploy/deploy.py).
- a firmware with the game frozen in and no partition (release 1.1.0 and
  before, `make uf2-frozen`): copied files would never run, so it says to
  install the release's .uf2 and copies nothing.
"""

import argparse
import os
import re
import sys
import time

from firmware.board import chip
from tools.deploy import deploy, romfs

IMAGE = os.path.join(deploy.ROOT, "build", "gin-rummy-romfs.img")

NO_ROMFS = (
    "This board's MicroPython has no ROMFS partition (stock MicroPython, or an older "
    "release's firmware), so the game cannot run from its flash. For the game at full "
    "power, install the release's firmware once: gin-rummy-pico-<version>.uf2 of release "
    "1.2.0 or later (dist/), or `make uf2`; hold BOOTSEL while plugging the Pico in and "
    "copy the .uf2 onto the RPI-RP2 drive (the saves on the board are kept). Then `make "
    "flash` again.")
BUNDLE_FALLBACK = (
    "Meanwhile the .mpy bundle is copied instead (the fallback for stock MicroPython): its "
    "code sits in the board's RAM, so it has less memory free (docs/DEVICE.md).")
BUNDLE_TOO_BIG = (
    "Nothing was copied: on this board's chip (an RP2040, 264 KB of RAM) the .mpy bundle, "
    "whose code sits in RAM, leaves too little memory for a match (a new match runs out of "
    "memory; docs/DEVICE.md). `make flash FLASH_ARGS=--bundle` copies it all the same.")
# the chip's name, in the raw REPL (firmware/board/chip.py's of() tells the chip by it)
CHIP_CHECK = "import sys\n_m = sys.implementation._machine\n"

FROZEN_GAME = (
    "This board runs a firmware with the game frozen in and no ROMFS partition (release "
    "1.1.0 or earlier, or `make uf2-frozen`): a game copied to it would never run. Install "
    "the release's firmware once: gin-rummy-pico-<version>.uf2 of release 1.2.0 or later "
    "(dist/), or `make uf2`; hold BOOTSEL while plugging the Pico in and copy the .uf2 onto "
    "the RPI-RP2 drive (the saves on the board are kept). Then `make flash` again.")
NOT_CONNECTED = (
    "mpremote could not reach the board (%s). Check the USB cable (a data cable, not "
    "charge-only), close other programs using the port (Thonny, a serial monitor), give "
    "PORT=/dev/ttyACM0 (Linux), /dev/cu.usbmodem... (macOS) or COMn (Windows); `mpremote "
    "devs` lists the ports. If the board does not answer, hold B while plugging it in (safe "
    "boot: the game does not start) and try again.")

# the game's first lines after the reset, and how they end
STARTED = b"Ctrl-C stops it and frees the REPL."
NOT_STARTED = (b"Deploy it again", b"The game could not start", b"Safe boot")

FROZEN_CHECK = """\
import sys
sys.path.insert(0, '.frozen')
try:
    import firmware
    _f = firmware.__file__
except ImportError:
    _f = ''
sys.path.pop(0)
"""


def device(port):
    """The device mpremote's SerialTransport opens for PORT ('' : None,
    found as mpremote finds it)."""
    m = re.match(r"^([acu])(\d)$", port or "")
    if m:
        return {"a": "/dev/ttyACM", "u": "/dev/ttyUSB", "c": "COM"}[m.group(1)] + m.group(2)
    return port or None


def connect(port):
    """mpremote's transport to the board (mpremote.commands.do_connect, so
    PORT and the search work as `mpremote connect` does)."""
    from mpremote.commands import CommandError, do_connect
    from mpremote.main import State

    class Args:
        pass

    st = State()
    dev = device(port)
    args = None
    if dev:
        args = Args()
        args.device = [dev]
    try:
        do_connect(st, args)
    except CommandError as e:
        raise SystemExit(NOT_CONNECTED % e)
    return st.transport


def enter_raw_repl(t):
    from mpremote.transport import TransportError

    try:
        t.enter_raw_repl(soft_reset=True)   # Ctrl-C stops the game, then a clean start
    except TransportError as e:
        raise SystemExit(NOT_CONNECTED % e)


def start_game(t, out=print, timeout=60):
    """Soft reset from the friendly REPL (MicroPython then runs main.py:
    the game), and show its first console lines. True when it started."""
    t.exit_raw_repl()
    t.serial.write(b"\x04")
    data = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        data += t.read_until(1, b"\n", timeout=timeout, timeout_overall=end - time.monotonic())
        if STARTED in data or any(w in data for w in NOT_STARTED):
            break
    text = data.decode("utf-8", "replace").replace("\r\n", "\n")
    lines = [x for x in text.split("\n") if x.strip() and "soft reboot" not in x]
    for line in lines:
        out("  board: " + line)
    return STARTED in data


def write_romfs(t, image, out=print):
    t0 = time.monotonic()

    def progress(i, n):
        sys.stdout.write("\rwriting block %d of %d" % (i + 1, n))
        sys.stdout.flush()
    n = romfs.write_image(t, image, progress)
    if n:
        sys.stdout.write("\n")
    dt = time.monotonic() - t0
    if n:
        out("wrote %d of %d blocks of the ROMFS partition in %.1f s"
            % (n, (len(image) + romfs.BLOCK - 1) // romfs.BLOCK, dt))
    else:
        out("the board holds this image already: nothing written (%.1f s)" % dt)
    return n


def stale_bundle(t):
    """The bundle's folders or /main.py an earlier `make flash` left on the
    filesystem (not used under the release firmware)."""
    t.exec("import os")
    here = t.eval("os.listdir('/')")
    return [x for x in ("engine", "firmware", "main.py") if x in here]


def copy_bundle(port, reset, root=deploy.ROOT):
    """The fallback: tools/deploy/deploy.py's bundle copy."""
    return deploy.main(([port] if port else []) + ([] if reset else ["--no-reset"])
                       + ["--root", root])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("port", nargs="?", default="", help="the board's serial port (default: found)")
    ap.add_argument("--no-reset", action="store_true", help="leave the board at the REPL")
    ap.add_argument("--dry-run", action="store_true", help="build, then say what would be written")
    ap.add_argument("--bundle", action="store_true", help="copy the .mpy bundle instead")
    ap.add_argument("--root", default=deploy.ROOT, help="the tree to build (default: this checkout)")
    ap.add_argument("--image", help="a ROMFS image to write instead of building one")
    a = ap.parse_args(argv)
    if a.bundle:
        return copy_bundle(a.port, not a.no_reset, a.root)
    if a.image:
        with open(a.image, "rb") as f:
            image = f.read()
        try:
            files = romfs.unpack(image)
        except (ValueError, IndexError) as e:
            raise SystemExit("%s is not a ROMFS image: %s" % (a.image, e))
        if romfs.ENTRY_MODULE not in files:
            raise SystemExit("%s holds no %s: not the game's image" % (a.image, romfs.ENTRY_MODULE))
    else:
        image = romfs.build_image(a.root)
        os.makedirs(os.path.dirname(IMAGE), exist_ok=True)
        with open(IMAGE, "wb") as f:
            f.write(image)
        print("built %s: the game's ROMFS image, %d bytes (the partition holds %d)"
              % (os.path.relpath(IMAGE), len(image), romfs.ROMFS_BYTES))
    if a.dry_run:
        print("would write it into the ROMFS partition of the board%s; on a board without one, "
              "copy the .mpy bundle instead:" % (" on " + a.port if a.port else ""))
        return deploy.main(["--dry-run", "--root", a.root] + ([a.port] if a.port else []))
    t0 = time.monotonic()
    t = connect(a.port)
    try:
        enter_raw_repl(t)
        if not romfs.partition_size(t):
            t.exec(FROZEN_CHECK)
            frozen = t.eval("_f").startswith(".frozen")
            t.exec(CHIP_CHECK)
            rp2040 = chip.of(t.eval("_m")) is chip.RP2040
            t.exit_raw_repl()
            t.close()
            t = None
            if frozen:
                print(FROZEN_GAME, file=sys.stderr)
                return 1
            if rp2040:
                print(NO_ROMFS + "\n" + BUNDLE_TOO_BIG, file=sys.stderr)
                return 1
            print(NO_ROMFS + "\n" + BUNDLE_FALLBACK)
            return copy_bundle(a.port, not a.no_reset, a.root)
        try:
            write_romfs(t, image)
        except romfs.DeployError as e:
            print("\nmake flash: %s" % e, file=sys.stderr)
            return 1
        left = stale_bundle(t)
        if left:
            print("note: the board's filesystem still holds %s from a bundle install; the "
                  "release firmware does not use them (mpremote rm -r %s frees the space)"
                  % (", ".join("/" + x for x in left), " ".join(":" + x for x in left)))
        if a.no_reset:
            print("done in %.1f s; the board is at the REPL." % (time.monotonic() - t0))
            return 0
        ok = start_game(t)
        print("done in %.1f s: %s" % (time.monotonic() - t0, "the board runs the new game."
                                      if ok else "the game did not start: see the lines above."))
        return 0 if ok else 1
    finally:
        if t is not None:
            t.close()


if __name__ == "__main__":
    sys.exit(main())
