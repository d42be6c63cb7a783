"""Runtime shim: the engine's only contact with `micropython`.

On MicroPython `const()` folds constants at compile time; on CPython it is the
identity. `heap_lock`/`heap_unlock` are MicroPython's (None where the runtime has
none: CPython, or a port built without them; engine/ai/locked.py says
why the AI locks the heap). Nothing else in the engine imports a
runtime-specific module.
"""
try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython
    def const(x):
        return x

try:
    from micropython import heap_lock, heap_unlock  # noqa: F401
except ImportError:  # CPython, or a port built without them
    heap_lock = heap_unlock = None
