"""Shims that let firmware modules run unchanged on MicroPython and CPython.

`const(x)` is MicroPython's compile-time constant marker (the parser folds
`NAME = const(1)` whatever module `const` was imported from); on CPython it is
the identity function. heap_free() and collect() are MicroPython's small
heap: its free bytes (None on CPython) and a collection (none on CPython,
whose memory is not the one that runs out).
"""
import gc

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


def heap_free():
    """Free heap bytes on MicroPython; None on CPython."""
    f = getattr(gc, "mem_free", None)
    return f() if f is not None else None


def collect():
    """A garbage collection on MicroPython; nothing on CPython."""
    if hasattr(gc, "mem_free"):
        gc.collect()
