"""The game in the Pico's ROMFS partition: the flash map, the image, the
.uf2 that carries it, and writing it over the USB serial (`make flash`).

    python -m tools.deploy.romfs image --out FILE        the ROMFS image of this tree
    python -m tools.deploy.romfs uf2 --firmware F.uf2 --out FILE
                                                          the firmware with the image
    python -m tools.deploy.romfs map                      the flash map

The flash map of the release (2 MB of flash; offsets from its start, the
board sees them at 0x10000000 and up):

    0x000000  the firmware: MicroPython 1.28 for the Pico with a ROMFS
              partition (the board definition tools/deploy/RPI_PICO_ROMFS/,
              frozen: the port's modules and firmware/pico/romboot.py as main.py)
    ROMFS_OFFSET  the ROMFS partition (ROMFS_BYTES): the game's .mpy files,
              mounted by MicroPython at /rom at every start; their bytecode
              and constants are used where they lie in flash, as frozen
              code's are, instead of being copied onto the heap
    FS_OFFSET  the littlefs filesystem to the end of the flash: saves,
              settings, records. Where the stock RPI_PICO firmware and every
              release before keep it, so a board's saves stay through an
              upgrade.

The sizes come from the board definition (mpconfigboard.h), read here, so
they are written once.

The image: the .mpy files of the .mpy bundle (tools/deploy/deploy.py:
engine/ and firmware/, -O3), firmware/main.py compiled as
firmware/main.mpy (romboot imports it: the game's entry point, updated with
the rest), and the modules frozen all the same (deploy.FROZEN_TOO), in
MicroPython's ROMFS format (pack()), folders and files sorted: the same
tree gives the same bytes.

Writing it (write_image): over mpremote's serial transport, in an order a
power cut at any instant leaves a board that starts: the old game (cut
before its image was invalidated) or romboot's "deploy again" (cut later),
never a half-written image that MicroPython would mount. An image is valid
when its first byte is the ROMFS magic 0xD2 (MicroPython checks three bytes,
d2 cd 31), and flash programming only clears bits, so:
  1. the first page is programmed with its first byte 0x00: the old image is
     invalid from then on (a cut during this program leaves 0xD2 or a byte
     with fewer bits set, never a valid one made of old and new);
  2. every block of the new image but the first whose flash differs is
     erased and written (the device hashes the blocks it holds, so an
     unchanged block is not written again: less wear, and less time);
  3. the first block is erased and written with its first byte left 0xFF;
  4. the device hashes the image as written, first byte aside, against
     the host's (a block that differs is written again, once);
  5. the commit: the first page programmed with 0xD2 alone, the one byte
     that makes the image valid, and then checked.
The filesystem is never written. An image already on the board is left as
it is.
"""

import argparse
import hashlib
import os
import re
import struct
import sys
import tempfile

from tools.kit.mpversion import MINOR

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARD_DIR = os.path.join(ROOT, "tools", "deploy", "RPI_PICO_ROMFS")
FLASH_SIZE = 2 * 1024 * 1024
XIP_BASE = 0x10000000
BLOCK = 4096            # the flash's erase sector, ROMFS's block
PAGE = 256              # the flash's program page
MAGIC = b"\xd2\xcd\x31"
ENTRY_MODULE = "firmware/main.mpy"   # what firmware/pico/romboot.py imports


def board_sizes(board_dir=BOARD_DIR):
    """{'romfs': bytes, 'fs': bytes} from the board definition's
    mpconfigboard.h (MICROPY_HW_ROMFS_BYTES, MICROPY_HW_FLASH_STORAGE_BYTES,
    written as (N * 1024))."""
    with open(os.path.join(board_dir, "mpconfigboard.h"), encoding="utf-8") as f:
        text = f.read()
    out = {}
    for key, name in (("romfs", "MICROPY_HW_ROMFS_BYTES"), ("fs", "MICROPY_HW_FLASH_STORAGE_BYTES")):
        m = re.search(r"#define\s+%s\s+\((\d+)\s*\*\s*1024\)" % name, text)
        if not m:
            raise SystemExit("%s: no `#define %s (N * 1024)`" % (board_dir, name))
        out[key] = int(m.group(1)) * 1024
    return out


_SIZES = board_sizes()
ROMFS_BYTES = _SIZES["romfs"]
FS_OFFSET = FLASH_SIZE - _SIZES["fs"]
ROMFS_OFFSET = FS_OFFSET - ROMFS_BYTES


# -- the image -----------------------------------------------------------------

def image_files(root=ROOT):
    """{'engine/cards.mpy': bytes, ...}: what the image holds (the module
    docstring), built from the tree at `root`."""
    from tools.deploy import deploy
    from tools.pico.fsimage import tree

    with tempfile.TemporaryDirectory(prefix="gin-rummy-romfs-") as tmp:
        deploy.build(tmp, quiet=True, root=root)
        files = {k.lstrip("/"): v for k, v in tree(tmp).items()}
        files.pop("main.py")                         # the bundle's /main.py: source
        for rel in (deploy.ENTRY,) + deploy.FROZEN_TOO:
            dst = os.path.join(tmp, "one.mpy")
            deploy.compile_one(rel, dst, root)
            with open(dst, "rb") as f:
                files[rel[:-3].replace(os.sep, "/") + ".mpy"] = f.read()
    return files


def _varuint(v, width=0):
    """ROMFS's unsigned int: 7 bits a byte, big-endian, the high bit set on
    all but the last; padded to `width` bytes with leading 0x80s (which
    MicroPython reads as the same number)."""
    out = [v & 0x7F]
    v >>= 7
    while v:
        out.insert(0, 0x80 | (v & 0x7F))
        v >>= 7
    return bytes([0x80] * (width - len(out)) + out)


def _record(kind, payload):
    return _varuint(kind) + _varuint(len(payload)) + payload


def pack(files):
    """The ROMFS image of {'dir/name': bytes} (MicroPython's format,
    extmod/vfs_rom.c; what mpremote's `romfs build` writes), folders and
    files in sorted order. Unlike mpremote's, the image's length is written
    in a fixed 4 bytes and its even length made up by a padding record at
    its end, so that a change to a file moves nothing before it: a deploy
    rewrites the blocks from that file on, and the first."""
    tree = {}
    for path, data in files.items():
        node = tree
        parts = path.split("/")
        for d in parts[:-1]:
            node = node.setdefault(d, {})
        node[parts[-1]] = bytes(data)

    def records(node):
        out = b""
        for name in sorted(node):
            v = node[name]
            head = _varuint(len(name.encode())) + name.encode()
            if isinstance(v, dict):
                out += _record(4, head + records(v))
            else:
                out += _record(5, head + _record(2, v))
        return out
    body = records(tree)
    if (len(MAGIC) + 4 + len(body)) % 2:
        body += _record(1, b"\x00")           # padding: the whole an even length
    if len(body) >= 1 << 28:
        raise ValueError("a ROMFS image of %d bytes" % len(body))
    return MAGIC + _varuint(len(body), 4) + body


def _uint(data, i):
    v = 0
    while True:
        b = data[i]
        i += 1
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            return v, i


def unpack(image):
    """{'dir/name': bytes} of a ROMFS image (the inverse of pack());
    ValueError when it is not one."""
    if not image.startswith(MAGIC):
        raise ValueError("not a ROMFS image (no d2 cd 31 at its start)")
    size, i = _uint(image, 3)
    if i + size > len(image):
        raise ValueError("ROMFS image cut short: %d bytes of %d" % (len(image) - i, size))
    out = {}

    def records(i, end, prefix):
        while i < end:
            kind, i = _uint(image, i)
            n, i = _uint(image, i)
            body, nxt = i, i + n
            if kind in (4, 5):          # a directory, a file: its name first
                ln, j = _uint(image, body)
                name = image[j:j + ln].decode()
                j += ln
                if kind == 4:
                    records(j, nxt, prefix + name + "/")
                else:
                    dk, j = _uint(image, j)
                    dn, j = _uint(image, j)
                    if dk != 2:
                        raise ValueError("%s%s: data kind %d not handled" % (prefix, name, dk))
                    out[prefix + name] = bytes(image[j:j + dn])
            i = nxt
    records(i, i + size, "")
    return out


def build_image(root=ROOT):
    return pack(image_files(root))


# -- the .uf2 ------------------------------------------------------------------

UF2_MAGIC = (0x0A324655, 0x9E5D5157)
UF2_END = 0x0AB16F30


def uf2_blocks(data):
    """[(flash address, payload, flags, family)] of a .uf2."""
    out = []
    for off in range(0, len(data) - 511, 512):
        m0, m1, flags, addr, n, _no, _count, fam = struct.unpack_from("<8I", data, off)
        if (m0, m1) != UF2_MAGIC:
            raise ValueError("not a UF2 block at byte %d" % off)
        out.append((addr, data[off + 32:off + 32 + n], flags, fam))
    return out


def uf2_with_image(firmware_uf2, image, offset=ROMFS_OFFSET):
    """The firmware's .uf2 (bytes) with `image` at flash `offset` after its
    blocks: one file a drag onto RPI-RP2 writes whole. ValueError when the
    firmware reaches into the partition or the image does not fit it."""
    blocks = uf2_blocks(firmware_uf2)
    if not blocks:
        raise ValueError("an empty .uf2")
    top = max(a + len(p) for a, p, _f, _m in blocks) - XIP_BASE
    if top > offset:
        raise ValueError("the firmware ends at flash offset %d, inside the ROMFS partition at %d"
                         % (top, offset))
    if len(image) > FS_OFFSET - offset:
        raise ValueError("the ROMFS image is %d bytes; the partition holds %d"
                         % (len(image), FS_OFFSET - offset))
    flags, fam = blocks[0][2], blocks[0][3]
    payloads = [(a, p) for a, p, _f, _m in blocks]
    for i in range(0, len(image), PAGE):
        chunk = image[i:i + PAGE]
        payloads.append((XIP_BASE + offset + i, chunk + b"\xff" * (PAGE - len(chunk))))
    return uf2_bytes(payloads, flags, fam)


def uf2_bytes(payloads, flags, family):
    """A .uf2 of [(flash address, payload)], numbered in that order."""
    out = bytearray()
    for no, (addr, data) in enumerate(payloads):
        out += struct.pack("<8I", UF2_MAGIC[0], UF2_MAGIC[1], flags, addr, len(data), no,
                           len(payloads), family)
        out += data + bytes(476 - len(data)) + struct.pack("<I", UF2_END)
    return bytes(out)


def firmware_part(data, offset=ROMFS_OFFSET):
    """(the .uf2 `data` without its blocks at or above `offset`: the
    firmware alone, the image it carried or None)."""
    blocks = uf2_blocks(data)
    fw = [b for b in blocks if b[0] - XIP_BASE < offset]
    rest = sorted(b for b in blocks if b[0] - XIP_BASE >= offset)
    out = uf2_bytes([(a, p) for a, p, _f, _m in fw], fw[0][2], fw[0][3])
    image = None
    if rest and rest[0][0] - XIP_BASE == offset:
        flash = bytearray(b"\xff" * (FS_OFFSET - offset))
        for addr, payload, _f, _m in rest:
            at = addr - XIP_BASE - offset
            flash[at:at + len(payload)] = payload
        image = image_of_flash(bytes(flash), 0)
    return out, image


def image_of_flash(flash, offset=ROMFS_OFFSET):
    """The ROMFS image a flash dump holds at `offset`, or None (no valid one)."""
    part = flash[offset:offset + ROMFS_BYTES]
    if not part.startswith(MAGIC):
        return None
    size, i = _uint(part, 3)
    return bytes(part[:i + size])


# -- writing it on a board -----------------------------------------------------

class DeployError(Exception):
    """The board cannot take the image; the text says why and what to do."""


# Runs on the board first: the partition, its hashes, the decoder. _hs
# prints a line a span as it goes, so that a slow board (the emulated one
# on a busy computer) never keeps mpremote waiting 10 s for a character.
BOARD_SETUP = """\
import vfs, hashlib, binascii
try:
    from io import BytesIO
    from deflate import DeflateIO, RAW
except ImportError:
    DeflateIO = None
_dev = vfs.rom_ioctl(2, 0)
try:
    vfs.umount('/rom')
except OSError:
    pass
def _hs(spans):
    for a, n in spans:
        print(binascii.hexlify(hashlib.sha256(memoryview(_dev)[a:a + n]).digest()[:8]).decode())
def _d(z, b64):
    d = binascii.a2b_base64(b64)
    return DeflateIO(BytesIO(d), RAW, 9).read() if z else d
"""

PARTITION = "(hasattr(vfs, 'rom_ioctl') and vfs.rom_ioctl(1) > 0 and hasattr(vfs.rom_ioctl(2, 0), 'ioctl'))"


def _block_hash(data):
    """What the board's _hs prints for these bytes."""
    return hashlib.sha256(data).hexdigest()[:16]


def _payload(block):
    """(compressed?, base64 text) of one block for the board's _d()."""
    import binascii
    import zlib

    c = zlib.compressobj(wbits=-9)
    z = c.compress(block) + c.flush()
    if len(z) < len(block):
        return 1, binascii.b2a_base64(z, newline=False)
    return 0, binascii.b2a_base64(block, newline=False)


def partition_size(t):
    """The ROMFS partition's bytes on the board at transport `t` (in the raw
    REPL), or 0 when its MicroPython has none."""
    t.exec("import vfs")
    if not t.eval(PARTITION):
        return 0
    return t.eval("vfs.rom_ioctl(2, 0).ioctl(4, 0) * vfs.rom_ioctl(2, 0).ioctl(5, 0)")


def board_hashes(t, spans):
    """_block_hash of each (offset, length) of the board's partition (after
    BOARD_SETUP)."""
    return t.exec("_hs(%r)" % (spans,)).decode().split()


def write_image(t, image, progress=None):
    """Write `image` into the ROMFS partition of the board at transport `t`
    (mpremote's SerialTransport, in the raw REPL, the game stopped), in the
    order of the module docstring. Returns the number of blocks written (0:
    the board held this image already). DeployError when the board has no
    partition or the image does not fit. progress(i, n): block i of n is
    being written."""
    size = partition_size(t)
    if not size:
        raise DeployError("this board's MicroPython has no ROMFS partition")
    if len(image) > size:
        raise DeployError("the game's ROMFS image is %d bytes; the board's partition holds %d "
                          "(a firmware made for an older, smaller game: install this "
                          "release's .uf2 once)" % (len(image), size))
    if not image.startswith(MAGIC):
        raise ValueError("not a ROMFS image")
    t.exec(BOARD_SETUP)
    padded = image + b"\xff" * (-len(image) % BLOCK)
    n = len(padded) // BLOCK
    blocks = [padded[i * BLOCK:(i + 1) * BLOCK] for i in range(n)]
    # each block's part of the image (the last one's may be short), and
    # the same with the first byte left out (before the commit it is 0xFF)
    spans = [(i * BLOCK, min(BLOCK, len(image) - i * BLOCK)) for i in range(n)]
    unset = [(1, spans[0][1] - 1)] + spans[1:]

    def want(sp):
        return [_block_hash(image[a:a + m]) for a, m in sp]
    have = board_hashes(t, spans)
    if have == want(spans):
        return 0
    # 1. the old image invalid from here on
    t.exec("_dev.writeblocks(0, b'\\x00' + b'\\xff' * 255, 0)")
    written = 0

    def write(i, data, offset=None):
        z, text = _payload(data)
        t.exec("_b = _d(%d, %r)" % (z, text))
        if offset is None:
            t.exec("_dev.writeblocks(%d, _b)" % i)           # erase, then program
        else:
            t.exec("_dev.writeblocks(%d, _b, %d)" % (i, offset))

    for attempt in range(2):
        # 2. every block but the first whose part of the image differs
        for i in range(1, n):
            if have[i] != want(spans)[i]:
                if progress is not None:
                    progress(i, n)
                write(i, blocks[i])
                written += 1
        # 3. the first block, its first byte left erased
        t.exec("_dev.ioctl(6, 0)")
        write(0, blocks[0][PAGE:], PAGE)
        write(0, b"\xff" + blocks[0][1:PAGE], 0)
        written += 1
        # 4. what the board holds now, the first byte aside
        have = board_hashes(t, unset)
        if have == want(unset):
            break
    else:
        raise DeployError("the image read back from the board differs from the one written "
                          "(twice): the flash may be worn. The board now says to deploy again.")
    # 5. the commit: one byte
    t.exec("_dev.writeblocks(0, b'\\xd2' + b'\\xff' * 255, 0)")
    if board_hashes(t, spans[:1]) != want(spans[:1]):
        raise DeployError("the image's first byte did not take: deploy again")
    return written


# -- the command line --------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("image", help="the ROMFS image of this tree")
    p.add_argument("--out", required=True)
    p = sub.add_parser("uf2", help="a firmware .uf2 with this tree's image in its partition")
    p.add_argument("--firmware", required=True, help="the ROMFS firmware's firmware.uf2")
    p.add_argument("--out", required=True)
    sub.add_parser("map", help="the flash map")
    a = ap.parse_args(argv)
    if a.cmd == "map":
        print(flash_map())
        return 0
    image = build_image()
    if a.cmd == "image":
        with open(a.out, "wb") as f:
            f.write(image)
        print("wrote %s: ROMFS image %d bytes (the partition holds %d)"
              % (a.out, len(image), ROMFS_BYTES))
        return 0
    with open(a.firmware, "rb") as f:
        fw = f.read()
    try:
        data = uf2_with_image(fw, image)
    except ValueError as e:
        raise SystemExit(str(e))
    with open(a.out, "wb") as f:
        f.write(data)
    top = max(addr + len(p) for addr, p, _f, _m in uf2_blocks(fw)) - XIP_BASE
    print("firmware %d bytes (%d left below the ROMFS partition), ROMFS image %d bytes "
          "(%d left in the partition)" % (top, ROMFS_OFFSET - top, len(image),
                                         ROMFS_BYTES - len(image)))
    return 0


def flash_map():
    kb = 1024
    return "\n".join((
        "0x%06x  firmware (MicroPython %s with a ROMFS partition)  up to %d KB" % (
            0, MINOR, ROMFS_OFFSET // kb),
        "0x%06x  ROMFS partition (the game, /rom)  %d KB" % (ROMFS_OFFSET, ROMFS_BYTES // kb),
        "0x%06x  littlefs filesystem (saves, settings, records)  %d KB" % (
            FS_OFFSET, (FLASH_SIZE - FS_OFFSET) // kb)))


if __name__ == "__main__":
    sys.exit(main())
