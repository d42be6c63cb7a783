"""The Pico's littlefs filesystem as an image made on the host (PyPI
littlefs-python), and read back from a flash dump.

MicroPython's RPI_PICO build keeps littlefs v2 at flash offset 0xA0000:
352 blocks of 4096 bytes up to the end of the 2 MB flash, programmed in
256-byte pages (ports/rp2/modules/_boot.py: VfsLfs2(bdev, progsize=256)).
"""

import os

FS_OFFSET = 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
FS_SIZE = BLOCK_SIZE * BLOCK_COUNT


def _lfs(context=None):
    from littlefs import LittleFS

    kw = dict(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=256,
              read_size=32, cache_size=1024, lookahead_size=32, block_cycles=100)
    if context is None:
        return LittleFS(**kw)
    return LittleFS(context=context, mount=True, **kw)


def fs_image(files):
    """A littlefs image holding `files` ({'/main.py': bytes, ...})."""
    fs = _lfs()
    for path in sorted(files):
        d = os.path.dirname(path.lstrip("/"))
        if d:
            fs.makedirs(d, exist_ok=True)
        with fs.open(path.lstrip("/"), "wb") as f:
            f.write(files[path])
    return bytes(fs.context.buffer)


def read_fs(region):
    """{'/path': bytes} of every file in a littlefs image."""
    from littlefs import UserContext

    ctx = UserContext(FS_SIZE)
    ctx.buffer[:] = region[:FS_SIZE]
    fs = _lfs(ctx)
    out = {}
    for top, _dirs, names in fs.walk("/"):
        for n in names:
            p = top.rstrip("/") + "/" + n
            with fs.open(p, "rb") as f:
                out[p if p.startswith("/") else "/" + p] = f.read()
    return out


def tree(root, base="/"):
    """{'/board/path': bytes} of every file under a host folder."""
    out = {}
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(names):
            full = os.path.join(d, n)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            with open(full, "rb") as f:
                out[base.rstrip("/") + "/" + rel] = f.read()
    return out
