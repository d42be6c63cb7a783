"""Power cuts during a ROMFS deploy on the emulated Pico: after each, the
board must start with the old game, the new one, or romboot's "deploy
again" (never a half-written image), and its saves as they were.

    .venv/bin/python -m tools.pico.romfs_cuts [--uf2 build/gin-rummy-pico.uf2]
        [--points N] [--firmware F.uf2 --bootrom FILE]

Two games are built from copies of this tree: A, and B with one more line
in firmware/stats.py (the image's last file, so a few blocks differ, as
after a small change: the deploy is short). A board with the release
firmware (the firmware part of --uf2, `make uf2`) and A in its partition
plays a turn, so that /data holds a save; that flash is where every run
starts. A first run writes B whole (tools/deploy/romfs.write_image, in the
raw REPL, the board at its safe boot) and notes when each flash operation
began and ended. Then, from the same start each time, a power cut falls at
N instants: inside every erase and program and between them, and before
and after the deploy; the board is powered on again and must show, by
where the cut fell:

    before the old image was invalidated (its first page's program ended)  A
    from then until the commit's program ended                  "deploy again"
    after the commit                                                       B

and the files in /data byte for byte as they were. Emulated time is
deterministic, so the instants found in the first run fall at the same
operations in the others. write_image talks to the board through the
harness's raw REPL here (HarnessTransport), not mpremote's serial
transport over a socket (tools/pico/serial_bridge.py), so that the times
do not depend on the host; both send the same commands.
"""

import argparse
import ast
import os
import shutil
import sys
import tempfile

from tools.deploy import romfs
from tools.pico import harness as h

MARK = '\n# a second game for the deploy tests (tools/pico/romfs_cuts.py)\nDEPLOYED = "B"\n'
NO_GAME = "Deploy it again: `make flash`"     # firmware/pico/romboot.py's words
OLD, NONE, NEW = "A", "deploy again", "B"


class HarnessTransport:
    """What romfs.write_image needs of mpremote's transport (exec, eval),
    over the harness's raw REPL. A board that stops (a power cut) raises."""

    def __init__(self, pico):
        self.p = pico

    def exec(self, code):
        out, err = self.p.exec(code)
        if err:
            raise RuntimeError("the board says:\n" + err)
        return out.encode()

    def eval(self, expr):
        return ast.literal_eval(self.exec("print(repr(%s))" % expr).decode().strip())


def tree_copy(dst, mark=False, root=h.ROOT):
    """engine/ and firmware/ of `root` copied into dst (no git there: no
    engine/build_commit, so two copies differ only where they are changed),
    with MARK added to firmware/stats.py when `mark`."""
    for pkg in ("engine", "firmware"):
        shutil.copytree(os.path.join(root, pkg), os.path.join(dst, pkg),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if mark:
        with open(os.path.join(dst, "firmware", "stats.py"), "a", encoding="utf-8") as f:
            f.write(MARK)
    return dst


def two_games(tmp):
    """(image A, image B) of two copies of the tree (the module docstring)."""
    a = romfs.build_image(tree_copy(os.path.join(tmp, "a")))
    b = romfs.build_image(tree_copy(os.path.join(tmp, "b"), mark=True))
    return a, b


def firmware_uf2(uf2_path, tmp, image):
    """A .uf2 file in tmp: the release firmware of `uf2_path` with `image`."""
    with open(uf2_path, "rb") as f:
        fw, _img = romfs.firmware_part(f.read())
    path = os.path.join(tmp, "board-%d.uf2" % len(os.listdir(tmp)))
    with open(path, "wb") as f:
        f.write(romfs.uf2_with_image(fw, image))
    return path


def saves_fs(uf2, bootrom):
    """The filesystem of a board that played its first turn (a save in
    /data), as an image for harness.Pico."""
    with h.Pico(uf2, bootrom, None) as p:
        p.run_until_text("Game running", 30000)
        p.run(300)
        p.press("A")              # NEW MATCH
        p.run(800)
        p.press("A")              # draw from the stock
        p.run(500)
        p.press("A")              # discard: the turn is saved
        p.run(600)
        flash = p.flash()
    return flash[romfs.FS_OFFSET:]


def data_files(pico):
    return {k: v for k, v in pico.files().items() if k.startswith("/data/")}


def at_safe_boot(uf2, bootrom, fs):
    """A board powered on with B held: the game does not start, the REPL
    is free."""
    p = h.Pico(uf2, bootrom, fs)
    p.pin("B", True)
    p.run_until_text("Safe boot", 30000)
    p.pin("B", False)
    p.run(50)
    # the safe boot waits 5 s for BOOTSEL (the recovery start) before it
    # frees the REPL (firmware/pico/start.py); a Ctrl-C ends that wait at once
    p.type(b"\x03\r")
    p.run_until_text(">>> ", 8000)
    return p


def outcome(p, images, timeout_ms=30000):
    """Power on again; (what the board starts with: OLD, NEW or NONE, the
    console text). AssertionError when the flash and the console disagree."""
    p.power_on()
    text = ""
    for want in ("Game running", NO_GAME):
        try:
            p.run_until_text(want, timeout_ms // 2)
            break
        except TimeoutError:
            pass
    text = p.output(p.boot_no)
    held = romfs.image_of_flash(p.flash())
    got = {images[0]: OLD, images[1]: NEW}.get(held, NONE if held is None else "another image")
    started = "Game running" in text
    if (got == NONE) == started or (got == NONE) != (NO_GAME in text) or "Traceback" in text:
        raise AssertionError("the flash holds %s but the board said:\n%s" % (got, text[-1500:]))
    return got, text


def expected(t, ops):
    """What a cut at `t` (ns from the deploy's start) must leave, from the
    dry run's flash operations [(t0, t1, kind)]: the first program
    invalidates, the last one commits."""
    programs = [o for o in ops if o[2] == "program"]
    if t < programs[0][1]:
        return OLD
    if t < programs[-1][1]:
        return NONE
    return NEW


def instants(ops, n):
    """Up to n cut instants (ns from the deploy's start), in order: the
    middle of every operation and of every gap between two, and one before
    and after all of them, spread evenly when there are more. (The
    emulator gives each operation the chip's duration but does not stall
    the core for it, so operations can overlap in time: a cut inside an
    erase leaves that sector half erased all the same.)"""
    pts = {ops[0][0] / 2, max(t1 for _t0, t1, _k in ops) + 1e6}
    for i, (t0, t1, _k) in enumerate(ops):
        pts.add((t0 + t1) / 2)
        if i + 1 < len(ops) and ops[i + 1][0] > t1:
            pts.add((t1 + ops[i + 1][0]) / 2)
    pts = sorted(pts)
    if len(pts) > n:
        step = (len(pts) - 1) / (n - 1)
        pts = [pts[round(i * step)] for i in range(n)]
    return pts


class Campaign:
    """The runs of the module docstring, step by step (the tests take a
    few instants, the command all of them)."""

    def __init__(self, uf2, bootrom, tmp):
        self.bootrom = bootrom
        self.images = two_games(tmp)
        self.uf2 = firmware_uf2(uf2, tmp, self.images[0])
        self.fs = saves_fs(self.uf2, bootrom)
        self.ops = None

    def dry_run(self):
        """Write B whole; [(t0, t1, kind)] of its flash operations, ns from
        its start, and the blocks written."""
        with at_safe_boot(self.uf2, self.bootrom, self.fs) as p:
            self.saves = data_files(p)
            start, k = p.t, len(p.flash_ops)
            n = romfs.write_image(HarnessTransport(p), self.images[1])
            self.ops = [(t0 - start, t1 - start, kind) for _b, t0, t1, kind, _at, _n
                        in p.flash_ops[k:]]
            self.span = p.t - start
            got, _text = outcome(p, self.images)
            assert got == NEW and data_files(p) == self.saves
        return self.ops, n

    def cut(self, t):
        """A cut `t` ns after the deploy's start; (what the board starts
        with, what it must start with)."""
        with at_safe_boot(self.uf2, self.bootrom, self.fs) as p:
            p.cut_after(t / 1e6)
            try:
                romfs.write_image(HarnessTransport(p), self.images[1])
            except (TimeoutError, RuntimeError):
                pass                  # the board stopped under it
            got, _text = outcome(p, self.images)
            if data_files(p) != self.saves:
                raise AssertionError("a cut %.1f ms into the deploy changed /data" % (t / 1e6))
        return got, expected(t, self.ops)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uf2", default=os.path.join(h.ROOT, "build", "gin-rummy-pico.uf2"),
                    help="the release .uf2 (make uf2): its firmware is used")
    ap.add_argument("--bootrom", default=h.find("PICO_BOOTROM")[0])
    ap.add_argument("--points", type=int, default=40)
    a = ap.parse_args(argv)
    if not a.bootrom or not os.path.isfile(a.uf2):
        print("needs the boot ROM and %s (make uf2): %s" % (a.uf2, h.Kit.find()[1] or ""))
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        c = Campaign(a.uf2, a.bootrom, tmp)
        ops, n = c.dry_run()
        print("deploy of B over A: %d blocks written, %d flash operations in %.0f ms of "
              "emulated time" % (n, len(ops), c.span / 1e6))
        tally = {}
        bad = 0
        for t in instants(ops, a.points):
            got, want = c.cut(t)
            tally[got] = tally.get(got, 0) + 1
            ok = got == want
            bad += not ok
            print("  cut at %8.1f ms: %-12s %s" % (t / 1e6, got, "ok" if ok else "WANTED " + want))
            sys.stdout.flush()
        print("%d cuts: %s; saves kept every time; %d unexpected"
              % (sum(tally.values()), ", ".join("%s %d" % kv for kv in sorted(tally.items())), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
