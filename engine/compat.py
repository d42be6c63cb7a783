"""Runtime shim: the engine's only contact with `micropython`.

On MicroPython `const()` folds constants at compile time; on CPython it is the
identity. Nothing else in the engine imports a runtime-specific module.
"""
try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython
    def const(x):
        return x
