"""The game's ROMFS image and how make flash writes it (tools/deploy/romfs.py),
on the host: the image's format and its stable layout, the .uf2 that carries
it, the flash map read from the board definition, and the write order
against a board whose flash behaves as NOR flash does, with the power cut
at every one of its erases and programs, a cut erase or program leaving
any mix of the bits it was changing. The same deploys on the emulated
Pico, with mpremote over its serial port: host_tests/pico/test_pico_romfs.py."""

import hashlib
import io
import os
import random
import re
import sys
import types
import zlib

import pytest

from tools.deploy import romfs


def test_the_flash_map_keeps_the_filesystem_where_rpi_pico_has_it():
    # the saves of a board on stock MicroPython or an earlier release stay
    # where they are through the upgrade (tools/pico/fsimage.py: RPI_PICO's)
    from tools.pico.fsimage import FS_OFFSET, FS_SIZE

    assert romfs.FS_OFFSET == FS_OFFSET == 0xA0000
    assert romfs.FLASH_SIZE - romfs.FS_OFFSET == FS_SIZE
    assert romfs.ROMFS_OFFSET + romfs.ROMFS_BYTES == romfs.FS_OFFSET
    assert romfs.ROMFS_BYTES % romfs.BLOCK == 0
    with open(os.path.join(romfs.BOARD_DIR, "mpconfigboard.h")) as f:
        assert '"Raspberry Pi Pico"' in f.read()       # the same board to mpremote


def test_pack_and_unpack_are_each_others_inverse():
    files = {"a.mpy": b"x" * 300, "d/b.mpy": b"", "d/e/c.mpy": bytes(range(256)) * 3}
    image = romfs.pack(files)
    assert image.startswith(romfs.MAGIC) and len(image) % 2 == 0
    assert romfs.unpack(image) == files
    with pytest.raises(ValueError):
        romfs.unpack(b"\x00" + image[1:])
    with pytest.raises(ValueError):
        romfs.unpack(image[:len(image) // 2])


def test_the_image_is_the_format_mpremote_writes():
    # mpremote's own writer, read back by our reader (same records)
    from mpremote.romfs import VfsRomWriter

    w = VfsRomWriter()
    w.mkfile("a.mpy", b"abc")
    w.opendir("d")
    w.mkfile("b.mpy", b"de")
    w.closedir()
    assert romfs.unpack(w.finalise()) == {"a.mpy": b"abc", "d/b.mpy": b"de"}


def test_a_change_to_a_file_moves_nothing_before_it():
    # so make flash rewrites the blocks from that file on, and the first,
    # whatever the change does to the image's length or its parity
    files = {"engine/%02d.mpy" % i: bytes([i]) * 3000 for i in range(40)}
    files["firmware/z.mpy"] = b"z" * 1000
    a = romfs.pack(files)
    for extra in (1, 2, 3, 700):
        files["firmware/z.mpy"] = b"z" * (1000 + extra)
        b = romfs.pack(files)
        at = next(i for i in range(7, len(a)) if a[i] != b[i])
        assert at > 100000, (extra, at)        # the folder's header, then the file


@pytest.fixture(scope="module")
def tree_image():
    return romfs.build_image()


def test_the_tree_s_image_holds_the_game_and_fits_its_partition(tree_image):
    from tools.deploy import deploy

    files = romfs.unpack(tree_image)
    assert romfs.ENTRY_MODULE in files                       # what romboot imports
    assert "firmware/keyscript.mpy" in files                 # frozen all the same
    assert "firmware/pico/romboot.mpy" not in files and "main.py" not in files
    assert "engine/verify.mpy" not in files                  # host only
    for rel in deploy.sources():
        assert rel[:-3].replace(os.sep, "/") + ".mpy" in files
    assert all(v[:1] == b"M" for v in files.values())        # .mpy, none as source
    # room to grow: a quarter of the partition at least
    assert len(tree_image) < romfs.ROMFS_BYTES * 0.85, len(tree_image)


def _fake_uf2(top, start=0):
    payloads = [(romfs.XIP_BASE + a, bytes([a >> 8 & 255]) * 256) for a in range(start, top, 256)]
    return romfs.uf2_bytes(payloads, 0x2000, 0xE48BFF56)


def test_the_uf2_carries_the_firmware_and_the_image_and_splits_back():
    fw = _fake_uf2(64 * 1024)
    image = romfs.pack({"firmware/main.mpy": b"M" * 5000})
    data = romfs.uf2_with_image(fw, image)
    blocks = romfs.uf2_blocks(data)
    assert [b[0] for b in blocks] == sorted(b[0] for b in blocks)
    assert blocks[-1][0] == romfs.XIP_BASE + romfs.ROMFS_OFFSET + (len(image) - 1) // 256 * 256
    assert romfs.firmware_part(data) == (fw, image)
    assert romfs.firmware_part(fw) == (fw, None)


def test_the_uf2_refuses_a_firmware_that_reaches_the_partition_or_a_game_too_big():
    with pytest.raises(ValueError, match="inside the ROMFS partition"):
        romfs.uf2_with_image(_fake_uf2(romfs.ROMFS_OFFSET + 256), romfs.pack({"a": b"x"}))
    big = romfs.pack({"a": b"x" * romfs.ROMFS_BYTES})
    with pytest.raises(ValueError, match="the partition holds"):
        romfs.uf2_with_image(_fake_uf2(4096), big)


# -- the write order against NOR flash ------------------------------------------------

class Cut(Exception):
    """The power went."""


class Dev(bytearray):
    """The ROMFS partition as rp2.Flash gives it (ioctl, writeblocks, the
    buffer), as NOR flash: an erase sets a 4 KB block's bits, a program
    clears bits of whole 256-byte pages. After `left` operations the power
    goes inside the next one, which leaves the bits it was changing as
    `way` says: 0 none changed, 1 all, 2 only its first byte's, 3 all but
    its first byte's, else each bit either way (`rng`)."""

    def __init__(self, size, rng, left=None, way=4):
        bytearray.__init__(self, b"\xff" * size)
        self.rng = rng
        self.left = left
        self.way = way
        self.ops = 0

    def _mask(self, i):
        """For byte i of the cut operation: the bits it leaves unchanged."""
        w = self.way
        if w == 0:
            return 0xFF
        if w == 1:
            return 0
        if w == 2:
            return 0 if i == 0 else 0xFF
        if w == 3:
            return 0xFF if i == 0 else 0
        return self.rng.getrandbits(8)

    def _op(self):
        self.ops += 1
        if self.left is not None:
            if self.left == 0:
                return True
            self.left -= 1
        return False

    def _erase(self, b):
        cut = self._op()
        a = b * 4096
        if cut:
            for i in range(4096):
                self[a + i] |= ~self._mask(i) & 0xFF
            raise Cut()
        self[a:a + 4096] = b"\xff" * 4096

    def _program(self, at, data):
        assert at % 256 == 0 and len(data) % 256 == 0, (at, len(data))
        cut = self._op()
        for i, v in enumerate(data):
            self[at + i] &= v | (self._mask(i) if cut else 0)
        if cut:
            raise Cut()

    def ioctl(self, op, arg):
        if op == 4:
            return len(self) // 4096
        if op == 5:
            return 4096
        if op == 6:
            self._erase(arg)
            return 0
        return None

    def writeblocks(self, b, buf, offset=None):
        if offset is None:
            for k in range(len(buf) // 4096):
                self._erase(b + k)
            offset = 0
        self._program(b * 4096 + offset, bytes(buf))


class FakeBoard:
    """mpremote's transport to a board that runs what write_image sends in
    this Python, with MicroPython's vfs and deflate standing in."""

    def __init__(self, dev):
        self.dev = dev
        vfs = types.ModuleType("vfs")
        vfs.rom_ioctl = lambda op, *a: 1 if op == 1 else dev

        def umount(path):
            raise OSError(22)
        vfs.umount = umount
        deflate = types.ModuleType("deflate")
        deflate.RAW = 1
        deflate.DeflateIO = lambda stream, _fmt, bits: io.BytesIO(
            zlib.decompress(stream.read(), -bits))
        self.mods = {"vfs": vfs, "deflate": deflate}
        self.ns = {}

    def exec(self, code):
        saved = {k: sys.modules.get(k) for k in self.mods}
        sys.modules.update(self.mods)
        out = io.StringIO()
        self.ns["print"] = lambda *a: out.write(" ".join(str(x) for x in a) + "\n")
        try:
            exec(code, self.ns)
        finally:
            for k, v in saved.items():
                if v is None:
                    sys.modules.pop(k, None)
                else:
                    sys.modules[k] = v
        return out.getvalue().encode()

    def eval(self, expr):
        import ast

        return ast.literal_eval(self.exec("print(repr(%s))" % expr).decode().strip())


def _games():
    rng = random.Random(5)
    files = {"engine/%02d.mpy" % i: bytes(rng.getrandbits(8) for _ in range(2500))
             for i in range(12)}
    files["firmware/main.mpy"] = b"M" * 3000
    old = romfs.pack(files)
    files["firmware/main.mpy"] = b"M" * 3001 + b"new"
    return old, romfs.pack(files)


def _board(image, rng, left=None, way=4):
    dev = Dev(64 * 1024, rng, left, way)
    dev[:len(image)] = image
    return dev, FakeBoard(dev)


def test_write_image_writes_the_changed_blocks_and_then_nothing():
    old, new = _games()
    dev, board = _board(old, random.Random(1))
    n = romfs.write_image(board, new)
    assert romfs.image_of_flash(bytes(dev), 0) == new
    assert n == 3                       # the file's two blocks and the first
    assert romfs.write_image(board, new) == 0
    ops = dev.ops
    assert romfs.write_image(board, new) == 0 and dev.ops == ops


def test_a_power_cut_anywhere_in_a_deploy_leaves_the_old_image_or_none_never_a_mix():
    # (or the new one, complete, when the cut fell in the commit's program)
    # every operation of the deploy, each cut 12 ways (the bits a cut
    # erase or program was changing: none, all, only the first byte's, all
    # but those, and each bit either way)
    old, new = _games()
    dev, board = _board(old, random.Random(1))
    romfs.write_image(board, new)
    total = dev.ops
    seen = set()
    for k in range(total):
        for way in range(12):
            dev, board = _board(old, random.Random(k * 100 + way), left=k, way=way)
            with pytest.raises(Cut):
                romfs.write_image(board, new)
            held = romfs.image_of_flash(bytes(dev), 0)
            got = {old: "old", new: "new", None: "none"}.get(held, "a mix")
            # the last operation is the commit: a cut there may have set
            # its one byte all the same (the rest was checked before)
            ok = ("none", "new") if k == total - 1 else ("old", "none")
            assert got in ok, "cut in operation %d of %d: %s" % (k + 1, total, got)
            if held is None:
                # and the next make flash puts the new game there
                dev.left = None
                romfs.write_image(board, new)
                assert romfs.image_of_flash(bytes(dev), 0) == new
            seen.add(got)
    assert {"old", "none"} <= seen


def test_write_image_refuses_a_board_without_a_partition_or_too_small_a_one():
    old, new = _games()
    dev, board = _board(old, random.Random(1))
    board.mods["vfs"].rom_ioctl = lambda op, *a: 0 if op == 1 else dev
    with pytest.raises(romfs.DeployError, match="no ROMFS partition"):
        romfs.write_image(board, new)
    dev, board = _board(old, random.Random(1))
    with pytest.raises(romfs.DeployError, match="holds 65536"):
        romfs.write_image(board, romfs.pack({"a": b"x" * 70000}))


def test_the_board_side_hashes_are_the_hosts():
    # the lines the board prints for its spans are what write_image
    # compares with the image's
    data = bytes(range(256)) * 20
    dev, board = _board(romfs.pack({"a": data}), random.Random(1))
    board.exec(romfs.BOARD_SETUP)
    spans = [(0, 4096), (4096, 100), (1, 4095)]
    got = romfs.board_hashes(board, spans)
    assert got == [romfs._block_hash(bytes(dev[a:a + n])) for a, n in spans]
    assert all(re.fullmatch(r"[0-9a-f]{16}", x) for x in got)
    assert got[0] == hashlib.sha256(bytes(dev[:4096])).hexdigest()[:16]
