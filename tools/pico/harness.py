"""The emulated Pico from Python: boot a .uf2 in rp2040js (tools/pico/
serve.mjs), with a littlefs filesystem made here, the display's I2C bytes
decoded into frames by tools/sim/ssd1306_emu.py, buttons pressed on a timeline,
the serial console (and its raw REPL), power cuts and boots from the flash
as it was left.

    from tools.pico import harness as h
    kit, why = h.Kit.find()                 # $PICO_FIRMWARE/$PICO_BOOTROM or found
    with h.Pico(kit.firmware, kit.bootrom, h.fs_image(h.bundle_files())) as p:
        p.run_until_text("Game running")
        p.press("A")
        p.frames[-1].image                  # 1024 bytes, MONO_VLSB

All times are emulated (rp2040js: 8 ns a cycle at 125 MHz, flash
zero-wait: a real Pico, with XIP cache misses, is 10-40% slower), or with
`xip_cache=True` through a model of the flash's XIP cache
(tools/pico/xipcache.mjs), each miss stalling the core.
"""

import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.pico.fsimage import FS_OFFSET, fs_image, read_fs  # noqa: E402,F401
from tools.sim.ssd1306_emu import SSD1306Emu  # noqa: E402
from tools.kit.mpversion import MICROPYTHON  # noqa: E402

SERVE = os.path.join(ROOT, "tools", "pico", "serve.mjs")
FRAME_GAP_NS = 5000000  # transactions closer than 5 ms belong to one frame
BUTTON_GPIO = {"L": 10, "R": 11, "U": 12, "D": 13, "A": 14, "B": 15}

# The kit: the stock firmware and the boot ROM. Each is taken from its
# environment variable when set, else found by name in the usual places.
FIRMWARE_NAMES = ("firmware-rpi-pico-%s.uf2" % MICROPYTHON, "RPI_PICO-*-v%s.uf2" % MICROPYTHON,
                  "RPI_PICO-v%s.uf2" % MICROPYTHON)
BOOTROM_NAMES = ("bootrom.mjs", "bootrom.ts")
CACHE = os.path.join("~", ".cache", "gin-rummy-pico")

WHERE = {
    "PICO_FIRMWARE": ("the stock MicroPython %s firmware for the Raspberry Pi Pico: "
                      "the .uf2 named like RPI_PICO-<date>-v%s.uf2 on "
                      "https://micropython.org/download/RPI_PICO/" % (MICROPYTHON, MICROPYTHON)),
    "PICO_BOOTROM": "the RP2040 B1 boot ROM: demo/bootrom.ts of "
                    "https://github.com/wokwi/rp2040js (`export const bootromB1 = "
                    "new Uint32Array([...])`; a .mjs of the same text works too)",
}
NAMES = {"PICO_FIRMWARE": FIRMWARE_NAMES, "PICO_BOOTROM": BOOTROM_NAMES}


def kit_dirs(root=ROOT, home=None):
    """Where the kit is looked for, in order: ../shared/pico beside the
    checkout (how CI lays it out), ~/.cache/gin-rummy-pico/ and the
    checkout's build/pico-kit/."""
    home = home if home is not None else os.path.expanduser("~")
    return [os.path.join(os.path.dirname(os.path.abspath(root)), "shared", "pico"),
            os.path.join(home, ".cache", "gin-rummy-pico"),
            os.path.join(root, "build", "pico-kit")]


def find(var, env=None, root=ROOT, home=None):
    """(path, None) for PICO_FIRMWARE / PICO_BOOTROM, or (None, why):
    $var when set (it must name a file), else the first file named as in
    NAMES (a glob for the dated RPI_PICO-*.uf2, newest name last) in
    kit_dirs()."""
    import glob

    env = os.environ if env is None else env
    v = env.get(var)
    if v:
        if os.path.isfile(v):
            return v, None
        return None, "%s=%s is not a file; it should be %s" % (var, v, WHERE[var])
    for d in kit_dirs(root, home):
        for name in NAMES[var]:
            hits = sorted(glob.glob(os.path.join(glob.escape(d), name)))
            hits = [f for f in hits if os.path.isfile(f)]
            if hits:
                return hits[-1], None
    return None, "%s not found: %s. Put it in %s/ (as %s) or set %s=/path/to/it" % (
        var, WHERE[var], CACHE, "bootrom.ts" if var == "PICO_BOOTROM" else "downloaded", var)


class Kit:
    """Where the firmware and the boot ROM are (see find())."""

    def __init__(self, firmware, bootrom, uf2=None):
        self.firmware = firmware
        self.bootrom = bootrom
        self.uf2 = uf2  # the frozen build (build/gin-rummy-pico.uf2), if made

    @classmethod
    def find(cls, env=None, root=ROOT, home=None):
        """The kit, or None and a reason naming each missing file, where to
        get it and where it was looked for."""
        env = os.environ if env is None else env
        got = {}
        why = []
        for var in WHERE:
            got[var], w = find(var, env, root, home)
            if w:
                why.append(w)
        if why:
            return None, "; ".join(why) + " (looked in %s)" % ", ".join(kit_dirs(root, home))
        uf2 = env.get("PICO_UF2") or os.path.join(root, "build", "gin-rummy-pico.uf2")
        return cls(got["PICO_FIRMWARE"], got["PICO_BOOTROM"],
                   uf2 if os.path.isfile(uf2) else None), None

    from_env = find


class Frame:
    """One picture the display was sent: its first and last transaction's
    emulated times (ns since power-on), the bus bytes, what the panel shows."""

    def __init__(self, boot, t0, t1, nbytes, image):
        self.boot = boot
        self.t0 = t0
        self.t1 = t1
        self.bytes = nbytes
        self.image = image

    def __repr__(self):
        return "Frame(boot %d, %.1f-%.1f ms, %d bytes)" % (
            self.boot, self.t0 / 1e6, self.t1 / 1e6, self.bytes)


class NodeProcess:
    """An emulator process (serve.mjs, two_picos.mjs), JSON lines each way
    (tools/pico/jsonlines.mjs): started with its temporary folder
    (`self._tmp`, the images it reads), told to quit on close."""

    def _spawn(self, script, args):
        self.proc = subprocess.Popen(["node", script] + args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, cwd=ROOT, bufsize=1 << 16)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc.poll() is None:
            try:
                self._send({"op": "quit"})
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
        self._tmp.cleanup()

    def _send(self, cmd):
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        self.proc.stdin.flush()


class Pico(NodeProcess):
    """An emulated board. `fs`: the littlefs image (bytes) or None (an
    erased region: the firmware formats it). `display`: I2C addresses that
    answer ((): no display). `flash_timing`: 'typical' (the chip's erase and
    program times) or 'zero'. `display_bus`: (I2C block, SDA, SCL) the
    display is wired to. `floating`: GPIOs besides the buttons' that read
    their pull (nothing wired); the others read low. `xip_cache`: flash
    reads go through the model of the XIP cache (tools/pico/xipcache.mjs;
    `xip_stats` then holds its hits, misses and stall cycles); without it
    the flash runs at zero wait states."""

    def __init__(self, firmware, bootrom, fs=None, display=(0x3C,), flash_timing="typical",
                 sh1106=False, workdir=None, display_bus=(0, 4, 5), floating=(),
                 xip_cache=False):
        import tempfile

        self._tmp = tempfile.TemporaryDirectory(dir=workdir)
        args = ["--firmware", firmware, "--bootrom", bootrom,
                "--display", ",".join("%x" % a for a in display) or "none",
                "--flash-timing", flash_timing,
                "--display-bus", ",".join(str(x) for x in display_bus)]
        if floating:
            args += ["--floating", ",".join(str(g) for g in floating)]
        if xip_cache:
            args += ["--xip-cache", "on"]
        if fs is not None:
            path = os.path.join(self._tmp.name, "fs.bin")
            with open(path, "wb") as f:
                f.write(fs)
            args += ["--fs", path, "--fs-offset", str(FS_OFFSET)]
        self.sh1106 = sh1106
        self._spawn(SERVE, args)
        self.boot_no = 1
        self.t = 0              # emulated ns since this power-on
        self.host_ms = 0.0      # host time spent emulating
        self.chunks = []        # (boot, t, text) console output
        self.frames = []        # Frame, in order
        self.transactions = []  # (boot, t0, t1, addr, bytes) with keep_i2c
        self.keep_i2c = False
        self.flash_ops = []     # (boot, t0, t1, 'erase'|'program', offset, bytes)
        self.led = []           # (boot, t, on): each change of the on-board LED
        self.flash_stats = {}
        self.xip_stats = None
        self._emu_reset()
        self._burst = None

    # -- process ------------------------------------------------------------
    def _command(self, cmd):
        self._send(cmd)
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the emulator stopped (exit %s)" % self.proc.wait())
            ev = json.loads(line)
            kind = ev["ev"]
            if kind == "i2c":
                self._i2c(ev)
            elif kind == "flash":
                self.flash_ops.append((self.boot_no, ev["t0"], ev["t"], ev["op"], ev["at"], ev["n"]))
            elif kind == "led":
                self.led.append((self.boot_no, ev["t"], ev["on"]))
            elif kind == "out":
                self.chunks.append((self.boot_no, ev["t"], ev["data"]))
            elif kind == "done":
                self.t = ev["t"]
                self.host_ms += ev["host_ms"]
                self.flash_stats = ev["flash"]
                self.xip_stats = ev.get("xip")
                if ev["boot"] != self.boot_no:
                    self.boot_no = ev["boot"]
                    self._emu_reset()
                self._settle_burst()
                return ev

    # -- the display ----------------------------------------------------------
    def _emu_reset(self):
        self._close_burst()
        self.emu = SSD1306Emu(sh1106=self.sh1106)

    def _i2c(self, ev):
        data = bytes.fromhex(ev["data"])
        if self.keep_i2c:
            self.transactions.append((self.boot_no, ev["t0"], ev["t"], ev["addr"], data))
        b = self._burst
        if b is not None and ev["t0"] - b[1] > FRAME_GAP_NS:
            self._close_burst()
            b = None
        if b is None:
            b = self._burst = [ev["t0"], ev["t"], 0]
        b[1] = ev["t"]
        b[2] += 1 + len(data)
        self.emu.write(data)

    def _close_burst(self):
        b = getattr(self, "_burst", None)
        if b is not None:
            self._burst = None
            self.frames.append(Frame(self.boot_no, b[0], b[1], b[2], bytes(self.emu.image())))

    def _settle_burst(self):
        if self._burst is not None and self.t - self._burst[1] > FRAME_GAP_NS:
            self._close_burst()

    def image(self):
        """What the panel shows now."""
        return bytes(self.emu.image())

    # -- time, buttons, console ------------------------------------------------
    def run(self, ms):
        """Let `ms` of emulated time pass. Returns why it stopped ('time',
        'cut')."""
        return self._command({"op": "run", "ms": ms})["why"]

    def run_until_text(self, text, timeout_ms=30000, slice_ms=None, progress=None):
        """Run until `text` appears on the console; raises on timeout.
        With `slice_ms`, runs in slices and calls progress(new console
        text) after each."""
        start = len(self.chunks)
        end = self.t + timeout_ms * 1e6
        while True:
            ms = (end - self.t) / 1e6
            if slice_ms and ms > slice_ms:
                ms = slice_ms
            mark = len(self.chunks)
            ev = self._command({"op": "run", "ms": ms, "text": text})
            if progress is not None:
                progress("".join(c[2] for c in self.chunks[mark:]))
            if ev["why"] == "text" or text in "".join(c[2] for c in self.chunks[start:])[-4096:]:
                return self.t
            if ev["why"] != "time" or self.t >= end:
                got = "".join(c[2] for c in self.chunks[start:])
                raise TimeoutError("%r not seen in %d ms (%s); console:\n%s"
                                   % (text, timeout_ms, ev["why"], got[-2000:]))

    def pin(self, button, down):
        self._command({"op": "pin", "gpio": BUTTON_GPIO[button], "high": not down})

    def gpio(self, g, down):
        """Press (True) or release a switch to GND on GPIO `g` (a button's,
        or one of `floating`)."""
        self._command({"op": "pin", "gpio": g, "high": not down})

    def bootsel(self, down):
        """Press (True) or release the BOOTSEL button."""
        self._command({"op": "bootsel", "down": bool(down)})

    def led_changes(self, since_ns=0, boot=None):
        """[(emulated ms, on)] of the LED's changes from `since_ns` on, in
        this power-on (or `boot`)."""
        boot = self.boot_no if boot is None else boot
        return [(t / 1e6, on) for b, t, on in self.led if b == boot and t >= since_ns]

    def press(self, button, hold_ms=50, after_ms=50):
        """Press and release a button (L R U D A B); returns the emulated ns
        at the release."""
        self.pin(button, True)
        self.run(hold_ms)
        self.pin(button, False)
        t = self.t
        self.run(after_ms)
        return t

    def type(self, data):
        if isinstance(data, str):
            data = data.encode()
        self._command({"op": "type", "hex": data.hex()})

    def output(self, boot=None):
        return "".join(c[2] for c in self.chunks if boot is None or c[0] == boot)

    def lines(self):
        """(boot, emulated ms when the line ended, text) for each console line."""
        out = []
        buf = ""
        for boot, t, text in self.chunks:
            buf += text
            while "\n" in buf:
                line, buf = buf.split("\n", 1)
                out.append((boot, t / 1e6, line.rstrip("\r")))
        return out

    # -- power ---------------------------------------------------------------------
    def cut_after(self, ms):
        """A power cut `ms` from now: the next run stops there."""
        self._command({"op": "cut", "ms": ms})

    def power_on(self):
        """Boot again from the flash as it is now."""
        self._command({"op": "boot"})

    def flash(self):
        path = os.path.join(self._tmp.name, "flash.bin")
        self._command({"op": "flash", "path": path})
        with open(path, "rb") as f:
            return f.read()

    def peek(self, at, n):
        """n bytes of the board's SRAM from address `at` (0x20000000...)."""
        return bytes.fromhex(self._command({"op": "peek", "at": at, "n": n})["data"])

    def files(self):
        """{path: bytes} of the board's filesystem now."""
        return read_fs(self.flash()[FS_OFFSET:])

    # -- raw REPL ---------------------------------------------------------------------
    def interrupt(self, timeout_ms=5000):
        """Ctrl-C until the REPL prompt shows (stops a running main.py)."""
        for _ in range(4):
            self.type(b"\r\x03\x03")
            try:
                self.run_until_text(">>> ", timeout_ms // 4)
                return
            except TimeoutError:
                pass
        self.run_until_text(">>> ", 1)

    def exec(self, code, timeout_ms=60000, progress=None):
        """Run `code` through the raw REPL; returns (stdout, error text).
        The console's time stamps are in self.chunks. `progress`: called
        with the console text every 2 s of emulated time."""
        self.type(b"\x01")
        self.run_until_text("raw REPL; CTRL-B to exit\r\n>", 5000)
        mark = len(self.chunks)
        self.type(code.encode() + b"\x04")
        self.run_until_text("\x04>", timeout_ms, 2000, progress)
        text = "".join(c[2] for c in self.chunks[mark:])
        text = text[text.find("OK") + 2:]
        out, _, err = text.partition("\x04")
        err = err.rsplit("\x04", 1)[0]
        self.type(b"\x02")
        self.run_until_text(">>> ", 5000)
        return out.replace("\r\n", "\n"), err.replace("\r\n", "\n")


# -- what goes on the board ---------------------------------------------------------

ONBOARD = os.path.join(ROOT, "tools", "pico", "onboard")


def compile_mpy(src, dst, name):
    from tools.deploy import deploy

    r = subprocess.run(deploy.mpy_cross_command() + ["-s", name, "-o", dst, src],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("mpy-cross failed on %s:\n%s%s" % (src, r.stdout, r.stderr))


# what an on-board module needs of the tree besides the bundle (the bundle
# leaves it out: tools/deploy/deploy.py, HOST_ONLY; a frozen firmware has it)
ONBOARD_NEEDS = {"keyscript": ("firmware/keyscript.py",)}


def board_files(root=ROOT, bundle=True, main=True, onboard=()):
    """{board path: bytes}: the .mpy bundle `make flash` writes, built from
    the tree at `root` (with or without its /main.py), and the named
    tools/pico/onboard modules compiled to .mpy at the top (with what they
    need of the tree, in the bundle's place)."""
    import tempfile

    from tools.pico.fsimage import tree

    from tools.deploy import deploy

    files = {}
    with tempfile.TemporaryDirectory() as tmp:
        if bundle:
            deploy.build(tmp, quiet=True, root=root)
            files.update(tree(tmp))
            if not main:
                files.pop("/main.py")
        for name in onboard:
            dst = os.path.join(tmp, name + ".mpy")
            compile_mpy(os.path.join(ONBOARD, name + ".py"), dst, name + ".py")
            with open(dst, "rb") as f:
                files["/" + name + ".mpy"] = f.read()
            for rel in ONBOARD_NEEDS.get(name, ()) if bundle else ():
                dst = os.path.join(tmp, "need.mpy")
                compile_mpy(os.path.join(root, rel), dst, rel)
                with open(dst, "rb") as f:
                    files["/" + rel[:-3] + ".mpy"] = f.read()
    return files
