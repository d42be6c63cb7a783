"""Shims that let firmware modules run unchanged on MicroPython and CPython.

`const(x)` is MicroPython's compile-time constant marker (the parser folds
`NAME = const(1)` whatever module `const` was imported from); on CPython it is
the identity function. heap_free() and collect() are MicroPython's small
heap: its free bytes (None on CPython) and a collection (none on CPython,
whose memory is not the one that runs out). unload(name) forgets a
module. let_reserve_go() and hold_reserve(): the heap run kept for opening
a file (below). locked(fn, arg): a call whose callees' frames go on the C
stack (below).
"""
import gc

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x

try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython, or a port without them
    heap_lock = heap_unlock = None


def heap_free():
    """Free heap bytes on MicroPython; None on CPython."""
    f = getattr(gc, "mem_free", None)
    return f() if f is not None else None


def collect():
    """A garbage collection on MicroPython; nothing on CPython."""
    if hasattr(gc, "mem_free"):
        gc.collect()


def unload(name):
    """Forget module `name` (sys.modules and its package's attribute), so
    that its functions and classes can leave the heap; it is imported again
    when next needed. True when it was loaded."""
    import sys

    was = sys.modules.pop(name, None) is not None
    pkg, _, leaf = name.rpartition(".")
    p = sys.modules.get(pkg)
    if p is not None and hasattr(p, leaf):
        delattr(p, leaf)
    return was


# A file opened on MicroPython's littlefs is one heap block: the file object
# and its 1 KB cache (1148 bytes on the rp2 port), and importing a module of
# the .mpy bundle opens its file. With the bundle's code filling most of the
# heap, the free bytes at a hand's end can be many while no run of them is
# that long: a game record failed to open with 14 KB free, a screen failed
# to import with 8 KB. So a run of RESERVE bytes is held while no file is
# being opened, and let go just before an open or an import: the allocator,
# finding no room, collects, and the reserve's run is then free. It is the
# file object's size in the heap's 16-byte blocks (72), so the run a closed
# file leaves is the run the reserve is held in again.
RESERVE = const(1152)
_reserve = [None]


def let_reserve_go():
    _reserve[0] = None


def hold_reserve():
    if _reserve[0] is None:
        try:
            _reserve[0] = bytearray(RESERVE)
        except MemoryError:
            pass       # no run that long now: tried again at the next hold


# MicroPython takes the frame of a call with more than 11 words of locals
# and stack from the heap when it can (freed on return), searching the heap
# for a free run from its lowest free block, and from the C stack only when
# the heap refuses. With a hand's garbage on the heap (collected only when
# it runs low) that search grew turn by turn: on the emulated Pico every
# call of the run loop's waits and of a button's frame took longer at each
# turn, a cursor move 70 ms by the fourth. Code that allocates nothing runs
# through locked(): with the heap locked, every frame is on the C stack
# (engine/ai/locked.py does the same for the AI's decisions).
def locked(fn, arg):
    """fn(arg) with the heap locked on MicroPython (at once elsewhere); an
    allocation in it raises MemoryError. Its own frame is small enough for
    the C stack: a caller passes a bound method it keeps (making one
    allocates)."""
    if heap_lock is None:
        return fn(arg)
    heap_lock()
    try:
        return fn(arg)
    finally:
        heap_unlock()
