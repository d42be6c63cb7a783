"""Saves in microcontroller.nvm on the RP2040: a log in one flash sector.

What the port gives: CircuitPython's nvm on the RP2040 is 4 KB, one flash
sector. A write whose target bytes are all still erased (0xFF) is
programmed in place, page by page; any other write erases the whole sector
and programs all 16 pages of 256 bytes again, in address order (some
50 ms, and one of the sector's ~100,000 erase cycles).

So the image is a log of records appended into erased bytes only:

- A save after a turn appends one small record: the bytes the match's save
  grew by (engine saves only grow), tied to the match by its length so
  far. At a hand's end the same record carries the new statistics: one
  commit for the turn (firmware/saves/gamesave.py). Settings are a record of
  their own. The newest record of each kind wins.
- The sector is erased only when the log is full (or holds no image of
  this layout): the newest state is written as a fresh image, its header
  and the record just saved first, since pages are programmed in address
  order; the rest of the sector is left erased for the appends to come.
- Before that erase the same image is written to a file on the CIRCUITPY
  drive (BACKUP_PATH) when boot.py has made the drive writable for the
  game. If the drive refuses that write, the file is deleted; if it
  cannot be deleted either, the sector is not erased (BackupStale: the
  save fails, the game says so in the error's own words, SAVING PAUSED
  "...Free the drive or delete that file, then unplug the board and plug
  it in again.", and tries
  again at the next turn), so no
  erase ever leaves an older file beside it. A cut during the
  programming, once the header is whole, is recovered from the file of
  the same generation at the next start, silently: nothing was lost. A
  sector left blank (a cut between the erase and the first byte) or cut
  inside its header tells no generation: the file is resumed and that is
  said (MSG_DRIVE), since a start with the drive read-only may have
  rewritten the sector without keeping the file.
- Without the file, a cut inside the rewrite loses what was not
  programmed yet; that is detected (a torn header or snapshot) and said,
  naming every kind of data lost (the match and statistics, the
  settings). Only a cut exactly between the erase and the first
  programmed byte leaves a blank sector, which looks like a new board.
  Two halves of the sector (A/B) would not close it: every write that is
  not into erased bytes erases the whole sector, both halves at once
  (docs/SAVES.md gives the figures).

Record (big-endian):

    b0 = kind << 4 | length >> 8,  b1 = length & 0xFF,  payload,  crc16:2

CRC-16/CCITT (firmware.saves.storage.crc16) over b0..payload. kind is 1..14, so
b0 is never 0xFF: the first erased byte ends the log.

    HEAD      b"GRNV" version:1 generation:2 snapshot:2   first, at 0;
              snapshot = bytes of the records written with it, which must
              all be whole
    SETTINGS  the settings payload
    GAME      a game payload (firmware/saves/gamesave.py), or empty: none
    MOVES     base:2, then the bytes the match grew by from `base` bytes
    HANDEND   base:2, stats_len:1, statistics, then the match's new bytes

Reading: a record whose CRC fails is a torn append (a cut while it was
written) when its last byte is still erased: it never counted, and is
skipped. Any other bad record, or a MOVES/HANDEND whose base is not the
match's length so far, is damage: what came before it stands, the player
is told, and the next save rewrites the image. An image of the older
layout (version 1: two slots per save) is read once and rewritten.

Loading never raises; the methods are the storage port's (firmware/ports.py
says its contract, host_tests/test_storage_contract.py runs it):
load(name, decode=None) -> (value, message), save(name, payload) -> bool,
remove(name), with `outcome`, `kept`, `damage` and, as
firmware.saves.storage.Storage has it, `reason`.
"""

from firmware.compat import const
from firmware.saves.storage import (DAMAGED, KEPT, MSG_KEPT, NEWER, RESTART, RESUMED, NewerSave, crc16,
                              gc_collect, pack, unpack)

BACKUP_PATH = "/saves-backup.bin"
NEWER_IMAGE = "/saves-newer.bin"   # a newer version's sector, kept on the drive
NEWER_GAME = "/game.new"           # a newer version's game save, kept on the drive
MAGIC = b"GRNV"
VERSION = const(2)
HEAD = const(1)
SETTINGS = const(2)
GAME = const(3)
MOVES = const(4)
HANDEND = const(5)
MAX_LEN = const(4095)
GAME_NAME = "game"

MSG_LOST = ("The power went off while the saved data were being rewritten: "
            "%s were lost.")
MSG_LOST_ALL = ("The power went off while the saved data were being rewritten: whatever "
                "was saved (match, statistics, settings) was lost.")
MSG_IMAGE = "Saved data were damaged (%s); started fresh."
MSG_LOG = "Saved data were damaged (%s); resumed the save before."
MSG_BACKUP = ("Saved data were damaged (%s); resumed the copy on the drive, made when "
              "the flash was last rewritten: turns played since then are lost.")
MSG_OLDER = ("The saved data of the firmware before this one were damaged: %s could "
             "not be read.")
MSG_DRIVE = ("The power went off while the saved data were being rewritten; resumed "
             "the copy on the drive (rewrite %d). Turns played after that copy was "
             "made, if any, are lost.")
MSG_STALE = ("the copy of the saves on the drive (%s) could not be updated or deleted, "
             "so the flash is not rewritten: saving is paused. Free the drive or delete "
             "that file, then " + RESTART + ".")


_ENOENT = const(2)


def _errno(e):
    try:
        return e.args[0]
    except (AttributeError, IndexError):
        return None

MSG_TOO_LARGE = ("Not saved: the saves need %d bytes, the save area holds %d. The last "
                 "save still loads; a new match saves again.")
MSG_STALE_SCREEN = ("Not saved: %s on the drive cannot be updated. Free the drive or "
                    "delete that file, then " + RESTART + ".")


class NvmFull(OSError):
    """The saves need `need` bytes where `room` fit (error 28, a full
    flash): a match longer than any measured. `banner`: what the game says
    on the screen (firmware/saves/savefail.py), since nothing on the drive can
    be deleted to make room."""

    def __init__(self, need, room):
        super().__init__(28, "the saves need %d bytes; the nvm has room for %d" % (need, room))
        self.banner = (b"SAVE TOO LARGE", MSG_TOO_LARGE % (need, room))


class BackupStale(OSError):
    """The sector must be rewritten, but the backup file at `path` could
    be neither brought up to date nor deleted: erasing now could leave a
    blank sector beside an older file. Error 30 (read-only), with the
    console's words (MSG_STALE) and the screen's: `banner`, (title, text),
    which firmware/saves/savefail.py shows instead of its own."""

    def __init__(self, path):
        super().__init__(30, MSG_STALE % path)
        self.banner = (b"SAVING PAUSED", MSG_STALE_SCREEN % path)


def _lost_words(lost):
    """The kinds of data in `lost` (names) in words."""
    kinds = []
    if GAME_NAME in lost:
        kinds.append("the match")
        kinds.append("statistics")
    if "settings" in lost:
        kinds.append("settings")
    if len(kinds) == 1:
        return "the " + kinds[0] if kinds[0] == "settings" else kinds[0]
    if kinds[-1] == "settings" and len(kinds) == 3:
        return "the match, statistics and settings"
    return " and ".join(kinds)


def record(kind, payload):
    n = len(payload)
    if n > MAX_LEN:
        raise NvmFull(n, MAX_LEN)
    out = bytearray()
    out.append((kind << 4) | (n >> 8))
    out.append(n & 0xFF)
    out.extend(payload)
    c = crc16(out)
    out.append(c >> 8)
    out.append(c & 0xFF)
    return bytes(out)


def _programmed_from(img, saved):
    """True when the sector `img` holds `saved`'s first bytes and is
    erased after them (a rewrite of `saved` cut in its programming)."""
    end = len(img)
    while end > 0 and img[end - 1] == 0xFF:
        end -= 1
    return end <= len(saved) and img[:end] == saved[:end]


def _u16(v):
    return bytes(((v >> 8) & 0xFF, v & 0xFF))


class Image:
    """What one nvm image (or its backup) holds, read record by record."""

    def __init__(self):
        self.state = "blank"   # blank | ok | torn (a rewrite cut) | damaged | legacy | newer
        self.why = None
        self.gen = 0
        self.end = None        # where the next record goes; None: rewrite first
        self.settings = None
        self.stats = None
        self.match = None      # None: no game save; b"": no match
        self.whole = []        # kinds of the snapshot that are whole (torn state)
        self.head = False      # the header record is whole (gen is known)
        self.legacy = None
        self.newer = None      # a game record of a newer version (its payload)
        self.legacy_damage = []  # names of the older layout found damaged
        self.torn_kinds = []   # kinds of the records a cut rewrite left unfinished
        self.unknown = True    # ... and whether others may have been lost too


def scan(img):
    """Image of the bytes `img` (never raises)."""
    im = Image()
    n = len(img)
    if img[0] == 0xFF:
        for b in img:
            if b != 0xFF:
                im.state = "damaged"
                im.why = "erased header, data after it"
                return im
        return im
    if bytes(img[0:5]) == MAGIC + b"\x01":
        im.state = "legacy"
        im.legacy_damage = []
        im.legacy = legacy_v1(img, im.legacy_damage)
        im.settings = im.legacy.get("settings")
        return im
    pos = 0
    snapshot = 0
    while pos < n:
        b0 = img[pos]
        if b0 == 0xFF:
            break
        kind = b0 >> 4
        if pos + 1 >= n:
            return _bad(im, pos, snapshot, "a record cut short at the end")
        length = ((b0 & 0x0F) << 8) | img[pos + 1]
        total = length + 4
        if kind < 1 or kind > 14:
            return _bad(im, pos, snapshot, "not a record at byte %d" % pos)
        if pos + total > n:
            if pos < snapshot or pos == 0:
                return _torn(im, img, pos, snapshot)
            im.end = None          # a torn last record fills the sector: full
            break
        crc = crc16(img, pos, pos + 2 + length)
        if crc != (img[pos + total - 2] << 8) | img[pos + total - 1]:
            if img[pos + total - 1] != 0xFF:
                return _bad(im, pos, snapshot, "a record's checksum fails at byte %d" % pos)
            if pos < snapshot or pos == 0:
                return _torn(im, img, pos, snapshot)
            pos += total           # a torn append: it never counted
            im.end = pos
            continue
        p = pos + 2
        why = None
        if pos == 0:
            if kind != HEAD or length != 9 or bytes(img[p:p + 4]) != MAGIC:
                return _bad(im, pos, 0, "not a game image")
            if img[p + 4] != VERSION:
                if img[p + 4] > VERSION:
                    im.state = "newer"      # a newer firmware's layout: not damage
                    im.end = None
                    return im
                return _bad(im, pos, 0, "image version %d" % img[p + 4])
            im.gen = (img[p + 5] << 8) | img[p + 6]
            im.head = True
            snapshot = (img[p + 7] << 8) | img[p + 8]
        else:
            why = _apply(im, kind, img, p, length)
        if why is not None:
            return _bad(im, pos, snapshot, why)
        if pos < snapshot:
            im.whole.append(kind)
        pos += total
        im.end = pos
    if pos < snapshot:
        return _torn(im, img, pos, snapshot)
    im.state = "ok"
    return im


def _apply(im, kind, img, p, length):
    """Apply one whole record to the state; None, or why it cannot be."""
    data = bytes(img[p:p + length])
    if kind == SETTINGS:
        im.settings = data
    elif kind == GAME:
        if not data:
            im.stats = None
            im.match = None
            return None
        from firmware.saves.gamesave import newer, saved_by, split

        try:
            im.stats, im.match = split(data)
            # A newer version's save in this layout: loaded as it is (its
            # version line too), so that one this version cannot read is
            # said as newer and kept, not rebuilt under this version's.
            im.newer = data if newer(saved_by(data)) else None
        except NewerSave:
            im.newer = data          # said at load, and kept on the drive if it can be
            im.stats = im.match = None
        except ValueError as e:
            return "a game record that is no game save (%s)" % (e,)
    elif kind == MOVES or kind == HANDEND:
        if im.match is None or length < 2:
            return "moves with no match before them"
        base = (data[0] << 8) | data[1]
        if base != len(im.match):
            return "moves for a match of %d bytes, not %d" % (base, len(im.match))
        i = 2
        if kind == HANDEND:
            if length < 3 or 3 + data[2] > length:
                return "a hand's end record cut short"
            im.stats = data[3:3 + data[2]]
            i = 3 + data[2]
        im.match = im.match + data[i:]
        im.newer = None                # saved on by this version
    else:
        return "record kind %d unknown" % kind
    return None


def _bad(im, pos, snapshot, why):
    if pos < snapshot or pos == 0:
        im.state = "damaged"
    else:
        im.state = "ok"            # what came before the damage stands
    im.why = why
    im.end = None
    return im


def _torn(im, img, pos, snapshot):
    """A rewrite cut in its programming at or after `pos`: the kinds of
    the records it had not finished, where their first byte was
    programmed (im.torn_kinds); im.unknown when some of the snapshot's
    bytes say nothing of what they were to hold."""
    im.state = "torn"
    im.end = None
    kinds = []
    unknown = not im.head
    p = pos
    while not unknown and p < snapshot:
        b0 = img[p]
        if b0 == 0xFF or p + 1 >= len(img) or img[p + 1] == 0xFF:
            unknown = True
            break
        kinds.append(b0 >> 4)
        p += (((b0 & 0x0F) << 8) | img[p + 1]) + 4
    im.torn_kinds = kinds
    im.unknown = unknown
    return im


def legacy_v1(img, damaged=None):
    """{name: payload} of an image of the older layout (version 1: a 64-byte
    header, then two slots per save: settings 2 x 192 bytes, stats
    2 x 240, match the rest; a slot holds b"GR" 1 id seq:2 len:2 payload
    crc16), the newer valid slot of each. The names with a slot written
    but none valid are appended to `damaged`."""
    out = {}
    off = 64
    layout = (("settings", 1, 192), ("stats", 2, 240), ("match", 3, (len(img) - 928) // 2))
    for name, rid, slot in layout:
        best = None
        written = False
        for k in (0, 1):
            s = off + k * slot
            h = img[s:s + 8]
            if bytes(h[0:2]) != b"GR" or h[2] != 1 or h[3] != rid:
                if h[0] != 0xFF:
                    written = True
                continue
            written = True
            n = (h[6] << 8) | h[7]
            room = 2 * slot if k == 0 else slot
            if n + 10 > room:
                continue
            if crc16(img, s, s + 8 + n) != (img[s + 8 + n] << 8) | img[s + 9 + n]:
                continue
            seq = (h[4] << 8) | h[5]
            if best is None or 0 < ((seq - best[0]) & 0xFFFF) < 0x8000:
                best = (seq, bytes(img[s + 8:s + 8 + n]))
        if best is not None:
            out[name] = best[1]
        elif written and damaged is not None:
            damaged.append(name)
        off += 2 * slot
    return out


class FileBackup:
    """The image kept in a file (the CIRCUITPY drive) across a rewrite of
    the sector, in firmware.saves.storage's checksummed container. `fs` has
    open and remove like os (tests inject faults)."""

    def __init__(self, path=BACKUP_PATH, fs=None):
        if fs is None:
            from firmware.saves.storage import OsFs

            fs = OsFs()
        self.path = path
        self.fs = fs
        self.error = None

    def write(self, image):
        """True once the whole image is in the file; False (and no stale
        file left behind, where it can be removed) when the drive refuses."""
        try:
            f = self.fs.open(self.path, "wb")
            try:
                f.write(pack(image))
            finally:
                f.close()
            return True
        except OSError as e:
            self.error = "the backup file %s could not be written: %s" % (self.path, e)
            try:
                self.fs.remove(self.path)
            except OSError:
                pass
            return False

    def exists(self):
        try:
            f = self.fs.open(self.path, "rb")
        except OSError:
            return False
        try:
            f.close()
        except OSError:
            pass
        return True

    def read(self):
        try:
            f = self.fs.open(self.path, "rb")
        except OSError:
            return None
        try:
            data = f.read()
        except OSError:
            return None
        finally:
            f.close()
        payload, why = unpack(data or b"", 4096)
        return payload


class NvmStorage:
    restart = RESTART        # how the messages say to start again (savenewer, saveload)

    def __init__(self, nvm, backup=None):
        self.nvm = nvm
        self.size = len(nvm)
        if self.size < 512:
            raise ValueError("nvm of %d bytes is too small for the saves" % self.size)
        self.backup = backup
        self.reason = None
        self.damage = []
        self.outcome = {}
        self.kept = []
        self.writes = 0        # nvm writes (tests, benches)
        self.rewrites = 0      # of them, rewrites of the whole sector (an erase each)
        self.im = None
        self._said = None      # (name, message) the image's damage is told with

    # -- reading --
    def _note(self, why):
        self.reason = why
        self.damage.append(why)

    def _read(self):
        if self.im is not None:
            return self.im
        try:
            img = bytes(self.nvm[0:self.size])
        except Exception as e:  # a failing read: nothing is changed
            im = Image()
            im.state = "unread"
            im.why = "cannot read nvm: %s" % (e,)
            self.im = im
            return im
        im = scan(img)
        if im.state in ("blank", "torn", "damaged") and self.backup is not None:
            saved = self.backup.read()
            if saved is not None:
                bk = scan(saved + b"\xff" * (self.size - len(saved)))
                # A cut rewrite: the file must be the very image the sector
                # was being programmed with (its programmed bytes agree),
                # not only one of the same generation.
                same = im.state != "torn" or not im.head or _programmed_from(img, saved)
                if bk.state == "ok" and same and (not im.head or bk.gen == im.gen):
                    bk.end = None      # the sector is rewritten at the next save
                    if im.state == "damaged":
                        # not a cut rewrite: the file is from the last rewrite
                        self._note("nvm: " + im.why)
                        self._said = (GAME_NAME, MSG_BACKUP % im.why)
                    elif not im.head:
                        # A blank sector (or one cut before its header was
                        # whole) says nothing of the generation it was
                        # given: the file is that rewrite's image unless a
                        # start with the drive read-only (no file kept)
                        # rewrote the sector since. Said, never silent.
                        self._note("nvm: the sector was blank or cut before its header; "
                                   "resumed the backup file (rewrite %d)" % bk.gen)
                        self._said = (GAME_NAME if bk.stats is not None else "settings",
                                      MSG_DRIVE % bk.gen)
                    self.im = bk
                    return bk
        if im.state == "torn":
            self._note("nvm: a rewrite of the sector was cut")
            lost = self._torn_lost(im)
            if SETTINGS not in im.whole:
                im.settings = None
            if GAME not in im.whole:
                im.stats = None
                im.match = None
            # Told with the game save if it was lost, else with the
            # settings; the message names every kind of data lost.
            name = GAME_NAME if GAME_NAME in lost else "settings"
            self._said = (name, self._torn_message(im))
        elif im.state == "damaged":
            self._note("nvm: " + im.why)
            im.settings = im.stats = im.match = None
            self._said = (GAME_NAME, MSG_IMAGE % im.why)
        elif im.state == "ok" and im.why:
            self._note("nvm: " + im.why)
            self._said = (GAME_NAME, MSG_LOG % im.why)
        elif im.state == "legacy" and im.legacy_damage:
            # Damage in the older firmware's saves, said like any other:
            # with the first of them the App loads, naming every one.
            lost = im.legacy_damage
            self._note("nvm: the older layout's %s damaged" % ", ".join(lost))
            words = []
            for name, word in (("settings", "the settings"), ("stats", "the statistics"),
                               ("match", "the match")):
                if name in lost:
                    words.append(word)
            self._said = (lost[0], MSG_OLDER % " and ".join(words))
        elif im.state == "newer":
            # A newer firmware's layout: kept whole on the drive, said, and
            # this version starts fresh (the next save rewrites the sector).
            kept = self._keep_newer(NEWER_IMAGE, img)
            self._note("nvm: a newer version's layout; %s" % (
                "kept as " + kept if kept else "not kept (no writable drive)"))
            from firmware.saves.savenewer import newer_message

            self._said = (GAME_NAME, newer_message(None, kept))
        self.im = im
        return im

    def _keep_newer(self, path, data):
        """Write `data` to the first of `path`, path + "2" .. "9" on the
        drive (the backup file's) that does not exist: a newer save kept
        before is never written over. The path, or None when there is no
        writable drive or all nine are taken."""
        if self.backup is None:
            return None
        from firmware.saves.savenewer import NEW_KEEP

        fs = self.backup.fs
        for k in range(1, NEW_KEEP + 1):
            p = path if k == 1 else "%s%d" % (path, k)
            try:
                fs.open(p, "rb").close()
                continue                   # kept before: not written over
            except OSError as e:
                if _errno(e) != _ENOENT:
                    continue               # cannot tell: not written over either
            try:
                f = fs.open(p, "wb")
                try:
                    f.write(pack(data))
                finally:
                    f.close()
                return p
            except OSError:
                return None
        return None

    @staticmethod
    def _torn_lost(im):
        """The names a cut rewrite lost: those whose record was not whole
        (and that the image held or may have held)."""
        lost = []
        known = not im.unknown
        if GAME not in im.whole and (not known or GAME in im.torn_kinds):
            lost.append(GAME_NAME)
        if SETTINGS not in im.whole and (not known or SETTINGS in im.torn_kinds):
            lost.append("settings")
        return lost

    def _torn_message(self, im):
        lost = self._torn_lost(im)
        if not lost or im.unknown and len(lost) == 2:
            # cut in its header, or before the records' first bytes: what
            # the sector held before cannot be told (nothing, on a new board)
            return MSG_LOST_ALL
        return MSG_LOST % _lost_words(lost)

    def _payload(self, name):
        im = self._read()
        if name == "settings":
            return im.settings
        if name == GAME_NAME:
            if im.newer is not None:
                return im.newer
            if im.stats is None:
                return None
            from firmware.saves.gamesave import join

            return join(im.stats, im.match)
        if im.legacy is not None:       # "stats", "match" of the older layout
            return im.legacy.get(name)
        return None

    def load(self, name, decode=None):
        """(value, message): the newest save of `name` (decoded when
        `decode` is given) or None; never raises."""
        self.reason = None
        self.outcome.pop(name, None)
        payload = self._payload(name)
        msg = None
        said = self._said
        if said is not None and said[0] == name:
            self._said = None
            msg = said[1]
            self.outcome[name] = RESUMED if payload is not None else (
                NEWER if self.im.state == "newer" else DAMAGED)
        if self.im.state == "unread":
            return self._keep(name, self.im.why)
        if payload is None or decode is None:
            return payload, msg
        for attempt in (0, 1):
            try:
                return decode(payload), msg
            except MemoryError:
                gc_collect()
            except NewerSave as e:
                kept = self._keep_newer(NEWER_GAME, payload)
                self._note("nvm %s: %s; %s" % (name, e, "kept as " + kept if kept
                                                else "not kept (no writable drive)"))
                self._forget(name)
                self.im.newer = None
                self.outcome[name] = NEWER
                from firmware.saves.savenewer import newer_message

                return None, newer_message(e.version, kept)
            except Exception as e:
                self._note("nvm %s: contents rejected: %s" % (name, e))
                self._forget(name)
                self.outcome[name] = DAMAGED
                return None, "Save was damaged (%s); started fresh." % (e,)
        return self._keep(name, "no memory to rebuild it")

    def _keep(self, name, why):
        if name not in self.kept:
            self.kept.append(name)
        self.outcome[name] = KEPT
        return None, MSG_KEPT % (why, RESTART)

    def _forget(self, name):
        im = self.im
        if name == "settings":
            im.settings = None
        elif name == GAME_NAME:
            im.stats = None
            im.match = None
        im.end = None                 # the next save rewrites without it

    # -- writing --
    def save(self, name, payload):
        """Store payload as the new save of `name`: False when it is what
        is saved already, True when written. Raises OSError when it does
        not fit or the nvm refuses; the previous saves then still stand."""
        im = self._read()
        if name in self.kept or im.state == "unread":
            raise OSError(1, "the %s save could not be read at start; it is kept" % name)
        payload = bytes(payload)
        settings, stats, match = im.settings, im.stats, im.match
        if name == "settings":
            if payload == settings:
                return False
            settings = payload
            rec = record(SETTINGS, payload)
        elif name == GAME_NAME:
            from firmware.saves.gamesave import split

            stats, match = split(payload)
            if stats == im.stats and match == im.match:
                return False
            cur = im.match
            if cur and len(cur) < 0x10000 and len(match) > len(cur) \
                    and match[:len(cur)] == cur and len(stats) < 256:
                tail = match[len(cur):]
                if stats == im.stats:
                    rec = record(MOVES, _u16(len(cur)) + tail)
                else:
                    rec = record(HANDEND, _u16(len(cur)) + bytes((len(stats),)) + stats + tail)
            else:
                rec = record(GAME, payload)
        else:
            raise ValueError("no nvm save named %r" % (name,))
        if self._fits(im, rec):
            self._append(im, rec)
        else:
            self._rewrite(name, settings, stats, match)
        im = self.im
        im.settings, im.stats, im.match = settings, stats, match
        return True

    def remove(self, name):
        """Forget the save of `name` (the older layout's are forgotten with
        the rewrite that leaves it)."""
        if name == GAME_NAME:
            im = self._read()
            if im.stats is not None and name not in self.kept:
                if self._fits(im, record(GAME, b"")):
                    self._append(im, record(GAME, b""))
                else:
                    self._rewrite(name, im.settings, None, None)
                self.im.stats = self.im.match = None

    def _fits(self, im, rec):
        if im.state != "ok" or im.end is None or im.legacy is not None:
            return False
        end = im.end + len(rec)
        if end > self.size:
            return False
        for b in self.nvm[im.end:end]:
            if b != 0xFF:
                return False
        return True

    def _write(self, start, data):
        self.writes += 1
        self.nvm[start:start + len(data)] = data
        if bytes(self.nvm[start:start + len(data)]) != bytes(data):
            self.im.end = None
            raise OSError(5, "nvm write did not verify")

    def _append(self, im, rec):
        self._write(im.end, rec)
        im.end += len(rec)

    def _rewrite(self, first, settings, stats, match):
        """Erase and program the sector with the newest state: the header,
        the save just made, then the other (pages go in address order)."""
        from firmware.saves.gamesave import join

        game = record(GAME, join(stats, match)) if stats is not None else b""
        sett = record(SETTINGS, settings) if settings is not None else b""
        body = game + sett if first == GAME_NAME else sett + game
        gen = (self.im.gen + 1) & 0xFFFF
        head = record(HEAD, MAGIC + bytes((VERSION,)) + _u16(gen) + _u16(len(body) + 13))
        image = head + body
        if len(image) > self.size:
            raise NvmFull(len(image), self.size)
        if self.backup is not None and not self.backup.write(image) \
                and self.backup.exists():
            raise BackupStale(self.backup.path)
        self.rewrites += 1
        self._write(0, image + b"\xff" * (self.size - len(image)))
        im = Image()
        im.state = "ok"
        im.gen = gen
        im.end = len(image)
        self.im = im
