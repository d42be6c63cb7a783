"""Saves on the board's flash that survive power cuts (DESIGN: storage).

    st = Storage("/data")
    payload, message = st.load("match")            # bytes or None
    match, message = st.load("match", engine.loads) # decoded, or None
    if message: show it to the player (a save was damaged)
    st.save("match", engine.dumps(match))          # True if written
    st.remove("match")                             # the match is over

Files for a name, all in `root`:

    <name>.dat   the current save
    <name>.bak   the save before it (kept when a new one replaces it)
    <name>.tmp   a save being written
    <name>.bad   a damaged save, set aside for a look later

Each file is a container around the payload (big-endian):

    b"GRST"  version:1  length:2  payload  crc16:2

CRC-16/CCITT (poly 0x1021, init 0xFFFF) over everything before it: small
ints only, and unlike Fletcher-16 it tells erased flash (0xFF) from zeros.

Saving: write <name>.tmp completely and close it, rename <name>.dat to
<name>.bak, rename <name>.tmp to <name>.dat. On littlefs a rename over an
existing file is atomic, so after a power cut at any point one of these
holds, and load() finds the newest complete save:
  - .dat is complete (the old or the new save; a stray .tmp is ignored);
  - .dat is missing (cut between the renames): .tmp is complete and new.
A payload equal to the last one saved or loaded is not written again
(flash wear).

Loading never raises. A damaged .dat (bad container, or `decode` raising)
is renamed to <name>.bad, replacing an older one, and the previous save in
<name>.bak is used if it is good; the message says what happened in plain
words. `reason` keeps the technical cause (and `damage` every cause since
start) for the serial console.

`fs` supplies open/rename/remove/stat/listdir/mkdir like `os` (tests inject
faults through it). Paths are built with string operations: MicroPython has
no os.path.
"""

from firmware.compat import const

MAGIC = b"GRST"
VERSION = const(1)
HEADER = const(7)  # magic 4, version 1, length 2
OVERHEAD = const(9)  # header + crc 2
MAX_PAYLOAD = const(16384)  # a match is far smaller; bounds what load() reads

_ENOENT = const(2)

_crc_table = None


def _table():
    global _crc_table
    if _crc_table is None:
        from array import array

        t = array("H", bytes(512))
        for i in range(256):
            c = i << 8
            for _ in range(8):
                c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
            t[i] = c & 0xFFFF
        _crc_table = t
    return _crc_table


def crc16(data, start=0, end=None, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of data[start:end] (b"123456789" -> 0x29B1)."""
    t = _table()
    if end is None:
        end = len(data)
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


def pack(payload):
    """The container bytes for `payload`."""
    n = len(payload)
    if n > 0xFFFF:
        raise ValueError("payload too large for a save (%d bytes)" % n)
    # (no slice assignment: not every MicroPython build has it)
    out = bytearray(MAGIC)
    out.append(VERSION)
    out.append(n >> 8)
    out.append(n & 0xFF)
    out.extend(payload)
    c = crc16(out)
    out.append(c >> 8)
    out.append(c & 0xFF)
    return out


def unpack(data, max_payload=MAX_PAYLOAD):
    """(payload, None) from container bytes, or (None, reason)."""
    n = len(data)
    if n < OVERHEAD:
        return None, "file is truncated (%d bytes)" % n
    if bytes(data[0:4]) != MAGIC:
        return None, "not a save file (bad magic)"
    if data[4] != VERSION:
        return None, "save version %d is not supported (expected %d)" % (data[4], VERSION)
    length = (data[5] << 8) | data[6]
    if length > max_payload:
        return None, "length %d is over the limit %d" % (length, max_payload)
    if n != OVERHEAD + length:
        return None, "file is %d bytes, its header says %d" % (n, OVERHEAD + length)
    want = (data[n - 2] << 8) | data[n - 1]
    if crc16(data, 0, n - 2) != want:
        return None, "checksum mismatch"
    return bytes(data[HEADER:n - 2]), None


class OsFs:
    """The real filesystem: `os` and the built-in open()."""

    def __init__(self):
        import os

        self._os = os
        # CPython on Windows cannot rename over a file; os.replace can.
        self.rename = getattr(os, "replace", None) or os.rename
        self.remove = os.remove
        self.stat = os.stat
        self.listdir = os.listdir
        self.mkdir = os.mkdir

    def open(self, path, mode):
        return open(path, mode)


def _errno(e):
    try:
        return e.args[0]
    except (AttributeError, IndexError):
        return None


class _Missing:
    pass


MISSING = _Missing()  # reason: the file does not exist


class Storage:
    def __init__(self, root, fs=None, max_payload=MAX_PAYLOAD):
        self.root = root
        self.fs = fs if fs is not None else OsFs()
        self.max_payload = max_payload
        self.reason = None  # why the last load() set a file aside
        self.damage = []  # every such reason since start (for the console)
        self._last = {}  # name -> payload known to be in <name>.dat
        self._root_ok = False

    def path(self, name, ext):
        r = self.root
        if not r:
            return name + ext
        if r[-1] == "/":
            return r + name + ext
        return r + "/" + name + ext

    # -- reading --
    def _exists(self, path):
        try:
            self.fs.stat(path)
            return True
        except OSError:
            return False

    def _read(self, path):
        """(payload, None), (None, MISSING) or (None, reason)."""
        try:
            f = self.fs.open(path, "rb")
        except OSError as e:
            if _errno(e) == _ENOENT:
                return None, MISSING
            return None, "cannot open %s: %s" % (path, e)
        try:
            try:
                head = f.read(HEADER)
                if head is None:
                    head = b""
                # A header may claim up to 64 KB: read no more than the
                # limit allows (plus the checksum and one byte to detect
                # trailing data), so a damaged file cannot exhaust the heap.
                if len(head) < HEADER:
                    return unpack(head, self.max_payload)
                if bytes(head[0:4]) != MAGIC:
                    return None, "not a save file (bad magic)"
                length = (head[5] << 8) | head[6]
                if length > self.max_payload:
                    return None, "length %d is over the limit %d" % (
                        length, self.max_payload)
                data = bytes(head) + bytes(f.read(length + 3) or b"")
            finally:
                f.close()
        except OSError as e:
            return None, "cannot read %s: %s" % (path, e)
        except MemoryError:
            return None, "%s is too large to read" % path
        return unpack(data, self.max_payload)

    def _read_decoded(self, path, decode):
        """(payload, value, None) or (None, None, MISSING | reason)."""
        payload, why = self._read(path)
        if why is not None:
            return None, None, why
        if decode is None:
            return payload, payload, None
        try:
            value = decode(payload)
        except Exception as e:  # a decoder bug must not stop the boot
            return None, None, "contents rejected: %s" % (e,)
        return payload, value, None

    def _set_aside(self, src, dst):
        """Rename src to dst, replacing dst; never raises."""
        fs = self.fs
        try:
            fs.rename(src, dst)
            return True
        except OSError:
            pass
        try:  # a filesystem that cannot rename over a file
            fs.remove(dst)
        except OSError:
            pass
        try:
            fs.rename(src, dst)
            return True
        except OSError:
            pass
        try:  # last resort: do not trip over it at every boot
            fs.remove(src)
        except OSError:
            pass
        return False

    def load(self, name, decode=None):
        """(payload, message): the newest good save of `name` (decoded by
        `decode(payload)` when given) or None; message is None unless the
        player should be told something. Never raises."""
        self.reason = None
        dat = self.path(name, ".dat")
        payload, value, why = self._read_decoded(dat, decode)
        if why is None:
            self._last[name] = payload
            return value, None
        damaged = why is not MISSING
        bad_name = name + ".bad"
        if damaged:
            self.reason = "%s: %s" % (dat, why)
            self.damage.append(self.reason)
            if not self._set_aside(dat, self.path(name, ".bad")):
                bad_name = None
        # The newest complete save: a finished .tmp (a cut came between the
        # two renames of save()), then the backup.
        tmp = self.path(name, ".tmp")
        payload, value, why = self._read_decoded(tmp, decode)
        if why is None:
            try:
                self.fs.rename(tmp, dat)
                self._last[name] = payload
            except OSError:
                pass  # still usable; the next save writes .dat again
            if damaged:
                return value, self._damaged_message(bad_name, True)
            return value, None
        payload, value, why = self._read_decoded(self.path(name, ".bak"), decode)
        if why is None:
            # .dat is not this payload: the next save() writes it.
            if damaged:
                return value, self._damaged_message(bad_name, True)
            return value, None
        if damaged:
            return None, self._damaged_message(bad_name, False)
        return None, None

    @staticmethod
    def _damaged_message(bad_name, resumed):
        if resumed:
            msg = "Save was damaged; resumed the one before."
        else:
            msg = "Save was damaged; started fresh."
        if bad_name:
            msg += " Kept as " + bad_name
        return msg

    # -- writing --
    def _ensure_root(self):
        if self._root_ok or not self.root or self.root == "/":
            return
        r = self.root.rstrip("/")
        if not self._exists(r):
            mkdir = getattr(self.fs, "mkdir", None)
            if mkdir is not None:
                try:
                    mkdir(r)
                except OSError:
                    pass  # raced, or a parent is missing: open() will say
        self._root_ok = True

    def save(self, name, payload):
        """Store payload as the new save of `name`. Returns False when it
        equals the last one saved or loaded (nothing written), True when
        written. Raises OSError when the flash refuses (full, failing): the
        previous save is then still in place."""
        payload = bytes(payload)
        if len(payload) > self.max_payload:
            raise ValueError("save %s is %d bytes, over the limit %d" % (
                name, len(payload), self.max_payload))
        if self._last.get(name) == payload:
            return False
        data = pack(payload)
        self._ensure_root()
        fs = self.fs
        tmp = self.path(name, ".tmp")
        dat = self.path(name, ".dat")
        try:
            f = fs.open(tmp, "wb")
            try:
                n = f.write(data)
                if n is not None and n != len(data):
                    raise OSError(28, "short write (flash full?)")
                f.flush()
            finally:
                f.close()
        except OSError:
            try:
                fs.remove(tmp)
            except OSError:
                pass
            raise
        if self._exists(dat):
            fs.rename(dat, self.path(name, ".bak"))
        fs.rename(tmp, dat)
        self._last[name] = payload
        return True

    def remove(self, name):
        """Delete the saves of `name` (current, backup, unfinished); a
        set-aside .bad file stays."""
        self._last.pop(name, None)
        for ext in (".dat", ".bak", ".tmp"):
            try:
                self.fs.remove(self.path(name, ext))
            except OSError:
                pass
