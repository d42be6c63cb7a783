"""Shims that let firmware modules run unchanged on MicroPython and CPython.

`const(x)` is MicroPython's compile-time constant marker (the parser folds
`NAME = const(1)` whatever module `const` was imported from); on CPython it is
the identity function.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x
