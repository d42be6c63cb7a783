"""Game records kept on the board (DESIGN: players suspect a rigged deck).

At the end of every hand the app hands the match to keep_match(), which
writes the match's game record (engine.write_record: the game's version,
rules, seed, each finished hand's commitment with the seed and nonce that
give it, every move and each result) to

    <root>/NNNNNN-SEED.txt      e.g. /data/records/000012-734112093.txt

one file per match, written again as the match goes on, so each file holds
every finished hand of its match. NNNNNN counts matches; SEED is the
match's seed, which finds the file of a resumed match after a restart.
The newest KEEP matches are kept; older files are removed when a new match
gets its file.

The files are plain text (no save container): `make records` copies them
off with mpremote and `tools/records/replay.py FILE` replays one anywhere
(--verify checks every hand's commitment: docs/FAIRNESS.md). Written
atomically: the text goes to <file>.tmp, which is then renamed over the
file (littlefs renames atomically), so a power cut leaves the previous
version or the new one; a stray .tmp is ignored and replaced later.

A record that cannot be written (flash full, failing) never stops the game:
keep_match() returns None, `error` says why, and the first failure is
reported on the serial console. On a full flash (OSError 28) the older
matches' records are deleted (free()) and the record is tried once more;
the App does the same before it tries a refused save again, so the game
save always goes before the records.
"""

from firmware.compat import const, hold_reserve

KEEP = const(8)      # matches kept
_DIGITS = const(6)
_ENOSPC = const(28)


def no_space(e):
    """True for an OSError that says the flash is full."""
    try:
        return e.args[0] == _ENOSPC
    except (AttributeError, IndexError):
        return False


def _num(name):
    """The match counter of a record file name, or -1."""
    if len(name) < _DIGITS + 6 or name[_DIGITS] != "-" or not name.endswith(".txt"):
        return -1
    try:
        return int(name[:_DIGITS])
    except ValueError:
        return -1


class Records:
    def __init__(self, root, fs=None, keep=KEEP, out=None):
        if fs is None:
            from firmware.saves.storage import OsFs

            fs = OsFs()
        self.root = root.rstrip("/") or "/"
        self.fs = fs
        self.keep = keep
        self.out = out
        self.error = None
        self.written = 0
        self._reported = False

    def path(self, name):
        r = self.root
        return name if not r else (r + name if r[-1] == "/" else r + "/" + name)

    def names(self):
        """The record files, oldest first."""
        try:
            items = self.fs.listdir(self.root)
        except OSError:
            return []
        return sorted(n for n in items if _num(n) >= 0)

    def _mkdirs(self):
        """Make the folder and its parents (/data/records: /data too)."""
        fs = self.fs
        r = self.root
        i = 1 if r.startswith("/") else 0
        while i >= 0:
            j = r.find("/", i)
            p = r if j < 0 else r[:j]
            i = -1 if j < 0 else j + 1
            if not p or p == "/":
                continue
            try:
                fs.stat(p)
            except OSError:
                try:
                    fs.mkdir(p)
                except OSError:
                    pass  # made meanwhile, or a parent is missing: open() says

    def free(self, keep=None):
        """Delete the records of every match but `keep` (a match seed, or
        None), oldest first, and any unfinished .tmp: room on a full flash.
        The number of files deleted."""
        tail = None if keep is None else "-%d.txt" % keep
        try:
            items = self.fs.listdir(self.root)
        except OSError:
            return 0
        gone = 0
        for n in sorted(items):
            base = n[:-4] if n.endswith(".tmp") else n
            if _num(base) < 0 or (tail is not None and base.endswith(tail)
                                  and not n.endswith(".tmp")):
                continue
            try:
                self.fs.remove(self.path(n))
                gone += 1
            except OSError:
                pass
        return gone

    def keep_match(self, match):
        """Write `match`'s record; the file's path, or None (see `error`).
        A full flash: the older matches' records are deleted and the record
        is tried once more."""
        try:
            try:
                return self._keep(match)
            except OSError as e:
                if not no_space(e) or not self.free(match.seed):
                    raise
            return self._keep(match)
        except Exception as e:  # OSError, MemoryError: the game goes on
            self.error = "%s: %s" % (type(e).__name__, e)
            if self.out is not None and not self._reported:
                self._reported = True
                why = ("Low on memory: are only the game's files on the board? (mpremote ls)"
                       if isinstance(e, MemoryError) else "Is the flash full? (mpremote df)")
                self.out("The game record could not be written in %s (%s); the game "
                         "goes on without it. %s" % (self.root, self.error, why))
            return None

    def _keep(self, match):
        names = self.names()
        tail = "-%d.txt" % match.seed
        name = None
        for n in names:
            if n.endswith(tail):
                name = n
        new = name is None
        if new:
            num = _num(names[-1]) + 1 if names else 1
            name = "%06d%s" % (num, tail)
            self._mkdirs()
        path = self.path(name)
        tmp = path + ".tmp"
        fs = self.fs
        f = fs.open(tmp, "wb")
        try:
            try:
                write = f.write
                _write_record(match, lambda s: write(s.encode()))
                f.flush()
            finally:
                f.close()
                hold_reserve()     # let go by OsFs.open (firmware.compat)
        except BaseException:
            try:               # a torn .tmp would only take room
                fs.remove(tmp)
            except OSError:
                pass
            raise
        try:
            fs.rename(tmp, path)
        except OSError:
            # a filesystem that cannot rename over a file
            try:
                fs.remove(path)
            except OSError:
                pass
            fs.rename(tmp, path)
        if new:
            names.append(name)
            while len(names) > self.keep:
                old = self.path(names.pop(0))
                for p in (old, old + ".tmp"):
                    try:
                        fs.remove(p)
                    except OSError:
                        pass
        self.written += 1
        self.error = None
        return path


def _write_record(match, write):
    if hasattr(match, "hand_roles"):      # a V6 box match
        from engine.box import box_record_text

        write(box_record_text(match))
        return
    from engine import write_record

    write_record(match, write)
