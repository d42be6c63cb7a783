"""Power cuts for the saves: the storage media as fault-injecting models.

Used by the tests and by tools/bench/bench_saves.py (the cut campaign). Each
model counts the steps that change what it holds; with `budget` set, the
step past it raises PowerCut instead of running and the medium is dead
from then on (every call raises PowerCut), so no cleanup code can change
what survived; copy() is what a restart finds.

- FaultFS: a filesystem (open/rename/remove/stat/listdir/mkdir like os),
  with three models of a file cut while it is written: its bytes so far
  (default), littlefs (the file as it was before it was opened: littlefs
  commits a file at close), or emptied (nothing of it).
- CutKv: a key/value store with the browser's localStorage methods, each
  setItem or removeItem one atomic step.

(The RP2040 nvm, erase-then-program, is modelled by the CircuitPython
fakes' microcontroller.FakeNvm, which must run with nothing but the
CIRCUITPY drive's files.)
"""

ENOENT = 2
EIO = 5
ENOSPC = 28


class PowerCut(BaseException):
    """The power went off: nothing after this point runs (BaseException so
    that no `except Exception` in the code under test can swallow it)."""


class FaultFS:
    """An in-memory filesystem with the few `os` calls Storage uses.

    Every operation that changes the flash is a step: open for writing,
    each byte written, flush, close, rename, remove, mkdir. With `budget`
    set, the step that would exceed it raises PowerCut instead of running,
    and the filesystem is dead from then on (every call raises PowerCut),
    so no cleanup code can change what survived. Bytes are durable as soon
    as they are written: a cut leaves the file truncated at that byte, a
    harsher model than littlefs (which reverts an unclosed file).

    With `littlefs=True` a cut models littlefs instead: a file opened for
    writing and not closed yet goes back to what it held before the open
    (or disappears if it was new). With `emptied=True` such a file is left
    empty.

    `fail_at`: the step with that number raises OSError(`fail_errno`)
    instead (a failing flash that keeps running).

    A full flash: with `capacity` set, a byte written past that many bytes
    in all files raises OSError(ENOSPC); with `full_from` set, every step
    that writes (open for writing, a byte, flush, close) from that step on
    raises it (a flash that fills in the middle of a commit; rename and
    remove still work: they free space or move metadata; with
    `full_renames` renames fail too, as a littlefs rename can when its
    metadata block has no room to be compacted). A file whose
    write failed for lack of space is left as the model says: littlefs,
    as it was when opened (empty if it was new: littlefs commits a file
    only at close and does not commit a file whose write failed); prefix,
    the bytes written so far; emptied, nothing. Its close then succeeds
    and changes nothing more.
    """

    def __init__(self, files=None, dirs=None, littlefs=False, emptied=False,
                 capacity=None, full_from=None):
        self.files = {k: bytearray(v) for k, v in (files or {}).items()}
        self.dirs = set(dirs or ())
        self.littlefs = littlefs
        self.emptied = emptied
        self.capacity = capacity
        self.full_from = full_from
        self.full_renames = False  # once full, renames fail too (a metadata commit)
        self.nospace = 0           # writes refused for lack of space
        self._unclosed = {}  # path -> content before it was opened for writing
        self.steps = 0
        self.budget = None
        self.dead = False
        self.fail_at = None
        self.fail_errno = EIO
        self.log = []
        self.power = None  # a Power shared with other media (one cut for all)

    def copy(self):
        """A live filesystem with the same files (a restart)."""
        files = dict(self.files)
        if self.dead:
            for path, before in self._unclosed.items():
                if self.emptied:
                    files[path] = bytearray()
                elif not self.littlefs:
                    pass
                elif before is None:
                    files.pop(path, None)
                else:
                    files[path] = before
        return FaultFS(files, self.dirs, self.littlefs, self.emptied, self.capacity)

    def used(self):
        return sum(len(v) for v in self.files.values())

    def _full(self, what):
        """A write step refused for lack of space (counted as a step: a
        cut may come before it)."""
        self._step(what)
        self.nospace += 1
        raise OSError(ENOSPC, "no space left: " + what)

    def _filling(self):
        return self.full_from is not None and self.steps >= self.full_from

    def _step(self, what):
        if self.dead:
            raise PowerCut(what)
        if self.budget is not None and self.steps >= self.budget:
            self.dead = True
            raise PowerCut(what)
        if self.power is not None:
            try:
                self.power.step()
            except BaseException:
                self.dead = True
                raise
        self.steps += 1
        if self.fail_at is not None and self.steps == self.fail_at:
            raise OSError(self.fail_errno, what)
        self.log.append(what)

    def _room(self, n):
        """How many steps may run before a cut or a failure (at most n)."""
        if self.dead:
            return 0
        room = n
        if self.budget is not None:
            room = min(room, self.budget - self.steps)
        if self.power is not None:
            p = self.power
            if p.dead:
                return 0
            if p.budget is not None:
                room = min(room, p.budget - p.steps)
        if self.fail_at is not None and self.steps < self.fail_at <= self.steps + room:
            room = self.fail_at - self.steps - 1
        return max(room, 0)

    def _bulk(self, n, what):
        """n steps at once (none of them cut or failed: see _room)."""
        self.steps += n
        if self.power is not None:
            self.power.steps += n
        self.log.extend([what] * n)

    def _alive(self):
        if self.dead:
            raise PowerCut("dead")

    # -- os-like API --
    def open(self, path, mode):
        self._alive()
        if "r" in mode:
            if path not in self.files:
                raise OSError(ENOENT, path)
            return _Reader(self, bytes(self.files[path]))
        if self._filling():
            self._full("open " + path)
        self._step("open " + path)
        old = self.files.get(path)
        self._unclosed[path] = None if old is None else bytes(old)
        self.files[path] = bytearray()
        return _Writer(self, path)

    def rename(self, src, dst):
        self._alive()
        if src not in self.files:
            raise OSError(ENOENT, src)
        if self.full_renames and self._filling():
            self._full("rename %s %s" % (src, dst))
        self._step("rename %s %s" % (src, dst))
        self.files[dst] = self.files.pop(src)

    def remove(self, path):
        self._alive()
        if path not in self.files:
            raise OSError(ENOENT, path)
        self._step("remove " + path)
        del self.files[path]

    def stat(self, path):
        self._alive()
        if path in self.files:
            return (0x8000, 0, 0, 0, 0, 0, len(self.files[path]), 0, 0, 0)
        if path in self.dirs:
            return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(ENOENT, path)

    def listdir(self, path):
        self._alive()
        pre = path.rstrip("/") + "/"
        return sorted(p[len(pre):] for p in self.files if p.startswith(pre))

    def mkdir(self, path):
        self._alive()
        self._step("mkdir " + path)
        self.dirs.add(path)

    def statvfs(self, path):
        """os.statvfs's tuple, in bytes (block size 1): the room left
        under `capacity`; with no capacity the room is not known (raises,
        as a filesystem without statvfs would be said to)."""
        self._alive()
        if self.capacity is None:
            raise OSError(22, "statvfs: no capacity set")
        free = max(self.capacity - self.used(), 0)
        return (1, 1, self.capacity, free, free, 0, 0, 0, 0, 255)


class _Reader:
    def __init__(self, fs, data):
        self.fs = fs
        self.data = data
        self.pos = 0

    def read(self, n=-1):
        self.fs._alive()
        if n is None or n < 0:
            n = len(self.data) - self.pos
        out = self.data[self.pos:self.pos + n]
        self.pos += len(out)
        return out

    def close(self):
        pass


class _Writer:
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path
        self.failed = False

    def _no_space(self, what):
        """The write fails for lack of space: the file as the model says."""
        fs = self.fs
        self.failed = True
        before = fs._unclosed.pop(self.path, None)
        if fs.emptied:
            fs.files[self.path] = bytearray()
        elif fs.littlefs:
            fs.files[self.path] = bytearray(before or b"")
        fs._full(what)

    def write(self, data):
        fs = self.fs
        what = "write " + self.path
        if self.failed:
            fs._full(what)
        buf = fs.files[self.path]
        data = bytes(data)
        room = fs._room(len(data))
        if fs.capacity is not None:
            room = min(room, max(fs.capacity - fs.used(), 0))
        if fs.full_from is not None:
            room = min(room, max(fs.full_from - fs.steps, 0))
        if room >= len(data):          # no cut or failure inside: all at once
            fs._bulk(len(data), what)
            buf.extend(data)
            return len(data)
        for b in data:
            if fs._filling() or (fs.capacity is not None and fs.used() >= fs.capacity):
                self._no_space(what)
            fs._step(what)
            buf.append(b)
        return len(data)

    def flush(self):
        if self.failed:
            return
        if self.fs._filling():
            self._no_space("flush " + self.path)
        self.fs._step("flush " + self.path)

    def close(self):
        if self.failed:
            return
        if self.fs._filling():
            self._no_space("close " + self.path)
        self.fs._step("close " + self.path)
        self.fs._unclosed.pop(self.path, None)




class Power:
    """One power supply for several media: each medium's steps count here
    too, and the step past `budget` cuts them all (PowerCut)."""

    def __init__(self, budget=None):
        self.steps = 0
        self.budget = budget
        self.dead = False

    def step(self):
        if self.dead:
            raise PowerCut("dead")
        if self.budget is not None and self.steps >= self.budget:
            self.dead = True
            raise PowerCut("power cut after %d steps" % self.steps)
        self.steps += 1


def _dict_kv():
    from web.webport import DictKv

    return DictKv


class CutKv(_dict_kv()):
    """The browser's localStorage (web/webport.DictKv's methods) in
    memory; every setItem and removeItem is one atomic step (of `power`
    when one is shared)."""

    def __init__(self, items=None):
        super().__init__(items)
        self.power = None

    def copy(self):
        return CutKv(self.items)

    def _step(self):
        if self.power is not None:
            self.power.step()

    def getItem(self, k):
        if self.power is not None and self.power.dead:
            raise PowerCut("dead")
        return super().getItem(k)

    def setItem(self, k, v):
        self._step()
        super().setItem(k, v)

    def removeItem(self, k):
        self._step()
        super().removeItem(k)
