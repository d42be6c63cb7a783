"""Saves on the board's flash that survive power cuts (DESIGN: storage): a
back-end of the storage port (firmware/ports.py says its contract).

    st = Storage("/data")
    payload, message = st.load("settings")          # bytes or None
    game, message = st.load("game", gamesave.decode) # decoded, or None
    if message: show it to the player (st.outcome["game"] says what happened)
    st.save("game", payload)                        # True if written
    st.remove("game")

Files for a name, all in `root`:

    <name>.dat   the current save
    <name>.bak   the save before it (kept when a new one replaces it)
    <name>.tmp   a save being written
    <name>.bad   a damaged save, set aside for a look later
    <name>.new   a save written by a newer version of the game, kept whole
                 (a second one: <name>.new2, and so on to .new9; never
                 written over)

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
A full flash (OSError 28) or a write error: a refused write or close
deletes the unfinished .tmp and save() raises, .dat untouched; a refused
first rename raises with .dat untouched; a refused last rename leaves the
second case above, so the save is made, and the next save renames that
.tmp to .dat before it writes a new .tmp (raising if it cannot), so the
newest save is never written over.
remove() deletes .tmp, .bak, then .dat, so a cut in it never brings an
older save back. A payload equal to the last one saved or loaded is not
written again (flash wear).

Loading never raises, and tells damage from "not now" (load() lists every
case). Damage (a bad container, or `decode` raising anything but
MemoryError) sets the file aside as <name>.bad, replacing an older one,
and an older good save is used if there is one; the message says what
happened in plain words, once (the damaged file is gone from .dat). A read
error or a MemoryError is tried once more after a garbage collection; if
it fails again, nothing is moved or replaced: the name is `kept` and
save() refuses it until the next start, so a good save is never thrown
away for want of memory. `reason` keeps the technical cause (and `damage`
every cause since start) for the serial console. A save of a newer version
(a container of a later version whose checksum holds, or `decode` raising
NewerSave) is not damage: it is moved to the first of <name>.new, .new2
.. .new9 that does not exist and said ("Saved by version X; this is Y:
kept as game.new2."), outcome NEWER; a newer save kept before is never
written over. With all nine taken (or the rename refused) it stays as
.dat, kept like a save not read now (outcome KEPT), and said
(firmware/saves/savenewer.py, imported only then).

On a full flash free_backups() makes room without losing any current
save: every .bak, and a .tmp beside its .dat. `fs.statvfs` (None when
the filesystem has none) says how much room is left: a start on a nearly
full flash says so (firmware/saves/saveload.py).

`fs` supplies open/rename/remove/stat/listdir/mkdir like `os` (tests inject
faults through it). Paths are built with string operations: MicroPython has
no os.path.
"""

from firmware.compat import const, hold_reserve, let_reserve_go

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
    length = (data[5] << 8) | data[6]
    whole = n == OVERHEAD + length and \
        crc16(data, 0, n - 2) == (data[n - 2] << 8) | data[n - 1]
    if data[4] != VERSION:
        # A newer container whose checksum holds was written so; any
        # other version byte is damage.
        if data[4] > VERSION and whole:
            return None, NewerSave()
        return None, "save version %d is not supported (expected %d)" % (data[4], VERSION)
    if length > max_payload:
        return None, "length %d is over the limit %d" % (length, max_payload)
    if n != OVERHEAD + length:
        return None, "file is %d bytes, its header says %d" % (n, OVERHEAD + length)
    if not whole:
        return None, "checksum mismatch"
    return bytes(data[HEADER:n - 2]), None


class OsFs:
    """The real filesystem: `os` and the built-in open() (each open with
    firmware.compat's reserve let go first; whoever closes the file holds
    it again: hold_reserve())."""

    def __init__(self):
        hold_reserve()
        import os

        self._os = os
        # CPython on Windows cannot rename over a file; os.replace can.
        self.rename = getattr(os, "replace", None) or os.rename
        self.remove = os.remove
        self.stat = os.stat
        self.listdir = os.listdir
        self.mkdir = os.mkdir
        self.statvfs = getattr(os, "statvfs", None)   # None: the room is not known

    def open(self, path, mode):
        """The file; the reserve is let go for it and held again once the
        caller has closed it (holding it while the file is open would need
        a second run as long)."""
        let_reserve_go()
        try:
            return open(path, mode)
        except BaseException:
            hold_reserve()
            raise


def _errno(e):
    try:
        return e.args[0]
    except (AttributeError, IndexError):
        return None


class _Missing:
    pass


MISSING = _Missing()  # reason: the file does not exist


class NotNow:
    """A reason that is not damage: the file could not be read or rebuilt
    now (a read error, no memory). It stays as it is."""

    def __init__(self, why):
        self.why = why

    def __str__(self):
        return self.why


# What load() did, in Storage.outcome[name] (the App picks its screen).
DAMAGED = "damaged"      # set aside; nothing older was good: started fresh
NEWER = "newer"          # a newer version's save, kept as <name>.new: started fresh
RESUMED = "resumed"      # set aside (or missing); an older good save resumed
KEPT = "kept"            # could not be read now: kept, not replaced

MSG_FRESH = "Save was damaged; started fresh."
MSG_RESUMED = "Save was damaged; resumed the one before."
MSG_RESUMED_NEWEST = ("Save was damaged; resumed its newer complete copy (a power cut had "
                      "left it unrenamed).")
MSG_LOST = "The newest save was lost; resumed the one before."
MSG_NEWER_MOVED = "Saved by a newer version: kept as a .new file."
MSG_BAK_DELETED = " Its backup was damaged too and was deleted."
MSG_BAK_LEFT = " Its backup was damaged too; it is left as %s."
MSG_KEPT = ("Save could not be read now (%s). It is kept as it is and not "
            "written over; to try again, %s.")
# how the player starts the game again, in the messages (a board has no
# reset button; the web page and the simulator give their own words)
RESTART = "unplug the board and plug it in again"


def gc_collect():
    try:
        import gc

        gc.collect()
    except Exception:
        pass


class SaveTooLarge(OSError):
    pass


class NewerSave(ValueError):
    """A save written by a newer version of the game, which this one cannot
    read (raised by a decoder, or found in a newer container): kept as
    <name>.new, never read as damage. `version`: the one it names, if any."""

    def __init__(self, version=None):
        super().__init__("saved by version %s" % (version or "(newer)"))
        self.version = version


class Storage:
    restart = RESTART        # how the messages say to start again (a port may set its own)

    def __init__(self, root, fs=None, max_payload=MAX_PAYLOAD):
        self.root = root
        self.fs = fs if fs is not None else OsFs()
        self.max_payload = max_payload
        self.reason = None  # why the last load() set a file aside
        self.damage = []  # every such reason since start (for the console)
        self.outcome = {}  # name -> DAMAGED, RESUMED or KEPT after load()
        self.kept = []  # names whose saves could not be read now (save refuses)
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
        """(payload, None), (None, MISSING), (None, NotNow) or (None, reason)."""
        try:
            f = self.fs.open(path, "rb")
        except OSError as e:
            if _errno(e) == _ENOENT:
                return None, MISSING
            return None, NotNow("cannot open %s: %s" % (path, e))
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
                hold_reserve()
        except OSError as e:
            return None, NotNow("cannot read %s: %s" % (path, e))
        except MemoryError:
            return None, NotNow("no memory to read %s" % path)
        return unpack(data, self.max_payload)

    def _read_decoded(self, path, decode):
        """(payload, value, None) or (None, None, MISSING | NotNow | reason).
        Whatever fails for want of memory or a read error is tried once
        more after a garbage collection."""
        for attempt in (0, 1):
            payload, value, why = self._try_decoded(path, decode)
            if not isinstance(why, NotNow):
                return payload, value, why
            gc_collect()
        return payload, value, why

    def _try_decoded(self, path, decode):
        payload, why = self._read(path)
        if why is not None:
            return None, None, why
        if decode is None:
            return payload, payload, None
        try:
            value = decode(payload)
        except MemoryError:
            return None, None, NotNow("no memory to rebuild %s" % path)
        except NewerSave as e:
            return None, None, e
        except Exception as e:  # damage (and a decoder bug must not stop the boot)
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

    def _note(self, path, why):
        self.reason = "%s: %s" % (path, why)
        self.damage.append(self.reason)

    def load(self, name, decode=None):
        """(value, message): the newest good save of `name` (decoded by
        `decode(payload)` when given) or None; message is None unless the
        player should be told something (outcome[name] says what). Never
        raises.

          .dat good                      -> it (silent)
          .dat unreadable now            -> None, KEPT: nothing is moved
                                            and save() refuses the name
          .dat a newer version's         -> None, NEWER: moved to the first
                                            free .new, .new2 .. .new9; none
                                            free: left, KEPT
          .dat damaged                   -> set aside as .bad; a complete
                                            .tmp, else a good .bak (RESUMED),
                                            else None (DAMAGED)
          .dat missing, .tmp complete    -> .tmp (a cut between save()'s
                                            renames; silent)
          .dat missing, .bak present     -> never left by save() or
                                            remove(): .bak said (RESUMED),
                                            or None (DAMAGED)
          nothing (or a torn first .tmp) -> None (silent: nothing was saved)
        """
        self.reason = None
        self.outcome.pop(name, None)
        dat = self.path(name, ".dat")
        payload, value, why = self._read_decoded(dat, decode)
        if why is None:
            self._last[name] = payload
            return value, None
        if isinstance(why, NotNow):
            return self._keep(name, dat, why)
        if isinstance(why, NewerSave):
            return self._newer(name, dat, why)
        damaged = why is not MISSING
        bad_name = name + ".bad"
        if damaged:
            self._note(dat, why)
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
                return self._told(name, RESUMED, value,
                                  self._damaged_message(bad_name, MSG_RESUMED_NEWEST))
            return value, None
        if isinstance(why, NotNow):
            return self._keep(name, tmp, why)
        bak = self.path(name, ".bak")
        payload, value, why = self._read_decoded(bak, decode)
        if why is None:
            # The newest good save becomes the current one again, so the
            # next start is quiet (the player has been told once).
            try:
                self.fs.rename(bak, dat)
                self._last[name] = payload
            except OSError:
                pass  # still usable; the next save writes .dat
            msg = self._damaged_message(bad_name, MSG_RESUMED) if damaged else MSG_LOST
            return self._told(name, RESUMED, value, msg)
        if isinstance(why, NotNow):
            return self._keep(name, bak, why)
        extra = ""
        if why is not MISSING:
            self._note(bak, why)
            if damaged:
                # .dat was set aside (the newest damage, kept): this older
                # one goes, so that the next start is quiet
                try:
                    self.fs.remove(bak)
                    extra = MSG_BAK_DELETED
                except OSError:
                    extra = MSG_BAK_LEFT % (name + ".bak")
            else:
                bad_name = name + ".bad" if self._set_aside(bak, self.path(name, ".bad")) \
                    else None
            damaged = True
        if damaged:
            return self._told(name, DAMAGED, None,
                              self._damaged_message(bad_name, MSG_FRESH) + extra)
        return None, None

    def _newer(self, name, dat, why):
        """A newer version's save: set aside by firmware/saves/savenewer.py (a
        cold part, imported only now), never over one kept before. Out of
        memory on the way: kept as a save not read now if it is still
        .dat, else said in words that need no memory."""
        let_reserve_go()        # importing from the .mpy bundle opens a file
        try:
            from firmware.saves import savenewer

            return savenewer.set_aside(self, name, dat, why)
        except MemoryError:
            pass
        finally:
            hold_reserve()
        gc_collect()
        if self._exists(dat):
            return self._keep(name, dat, NotNow("no memory to set it aside"))
        self.outcome[name] = NEWER
        return None, MSG_NEWER_MOVED

    def _told(self, name, outcome, value, msg):
        self.outcome[name] = outcome
        return value, msg

    def _keep(self, name, path, why):
        self._note(path, "kept, not set aside (%s)" % (why,))
        if name not in self.kept:
            self.kept.append(name)
        return self._told(name, KEPT, None, MSG_KEPT % (why, self.restart))

    @staticmethod
    def _damaged_message(bad_name, msg):
        if bad_name:
            msg += " Kept as " + bad_name + "."
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
        written. Raises OSError when the flash refuses (full, failing), the
        payload is over the limit (SaveTooLarge) or the save of `name`
        could not be read at boot (kept): the previous save is then still
        in place."""
        payload = bytes(payload)
        if name in self.kept:
            raise OSError(1, "the save of %s could not be read at start; it is "
                             "kept, not written over" % name)
        if len(payload) > self.max_payload:
            raise SaveTooLarge(27, "save %s is %d bytes, over the limit %d" % (
                name, len(payload), self.max_payload))
        if self._last.get(name) == payload:
            return False
        data = pack(payload)
        self._ensure_root()
        fs = self.fs
        tmp = self.path(name, ".tmp")
        dat = self.path(name, ".dat")
        have_dat = self._exists(dat)
        if not have_dat and self._read(tmp)[1] is None:
            # The save before is a complete .tmp (its last rename was
            # refused): it becomes .dat before .tmp is written over; if the
            # flash refuses that too, it stays the newest save.
            fs.rename(tmp, dat)
            have_dat = True
        try:
            f = fs.open(tmp, "wb")
            try:
                n = f.write(data)
                if n is not None and n != len(data):
                    raise OSError(28, "short write (flash full?)")
                f.flush()
            finally:
                f.close()
                hold_reserve()
        except OSError:
            try:
                fs.remove(tmp)
            except OSError:
                pass
            raise
        if have_dat:
            fs.rename(dat, self.path(name, ".bak"))   # refused: .dat still current
        try:
            fs.rename(tmp, dat)
        except OSError:
            # .dat is gone and .tmp is complete: load() takes .tmp, so the
            # save is made (the next save renames it first).
            pass
        self._last[name] = payload
        return True

    def free_backups(self):
        """Room on a full flash: delete every <name>.bak (the save before
        the current one) and every .tmp beside a .dat (a save refused or
        cut before its renames); a .tmp with no .dat is the newest save and
        stays, and so do the set-aside .bad and .new files. The number of
        files deleted."""
        try:
            items = self.fs.listdir(self.root or "/")
        except OSError:
            return 0
        gone = 0
        for n in items:
            stem = n[:-4]
            if n.endswith(".bak") or (n.endswith(".tmp") and (stem + ".dat") in items):
                if stem in self.kept:
                    continue
                try:
                    self.fs.remove(self.path(stem, n[-4:]))
                    gone += 1
                except OSError:
                    pass
        return gone

    def remove(self, name):
        """Delete the saves of `name`: the unfinished .tmp, then the backup,
        then the current save last, so a cut at any point leaves either the
        current save or nothing, never an older one (load() resumes a .bak
        only with a message). A set-aside .bad file stays."""
        if name in self.kept:
            return
        self._last.pop(name, None)
        for ext in (".tmp", ".bak", ".dat"):
            try:
                self.fs.remove(self.path(name, ext))
            except OSError:
                pass
