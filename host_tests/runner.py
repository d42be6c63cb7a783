# Minimal test runner that works on CPython, the MicroPython unix port and
# the MicroPython WebAssembly port.
#
# Usage:
#   runner.py [-p DIR]... [-d DIR]... [-k SUBSTR] [-v] [MODULE ...]
#
#   -p DIR     append DIR to sys.path (e.g. the repository root, so that
#              `import engine` works)
#   -d DIR     append DIR to sys.path and run every test_*.py module in it
#              (imported by its bare name, so DIR needs no __init__.py)
#   -k SUBSTR  only run tests whose "module.function" name contains SUBSTR
#   -v         print one line per test
#   MODULE     a module to run, dotted names allowed (pkg.test_x)
#
# For each module, every module-level callable whose name starts with
# "test_" is called with no arguments, in sorted name order.  A test passes
# when it returns without raising.  The last line printed is always
#   N passed, N failed
# and the exit status is 1 if anything failed (a module that cannot be
# imported, or a -d folder that cannot be listed, counts as one failure),
# else 0.
#
# Only features that MicroPython has are used here: no f-strings with '=',
# no inspect, pathlib, os.walk or importlib.

import sys

try:
    import gc
except ImportError:  # pragma: no cover
    gc = None

try:
    import os
except ImportError:  # pragma: no cover
    import uos as os


def _print_exc(exc):
    if hasattr(sys, "print_exception"):
        # MicroPython
        sys.print_exception(exc, sys.stdout)
    else:
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stdout)


def _list_test_modules(d):
    names = []
    for fn in os.listdir(d):
        if fn.startswith("test_") and fn.endswith(".py"):
            names.append(fn[:-3])
    names.sort()
    return names


def _import(name):
    __import__(name)
    return sys.modules[name]


def _tests_of(mod):
    tests = []
    for name in sorted(dir(mod)):
        if not name.startswith("test_"):
            continue
        obj = getattr(mod, name)
        if callable(obj) and not isinstance(obj, type):
            tests.append((name, obj))
    return tests


def _usage(msg):
    print("runner: " + msg)
    print("usage: runner.py [-p DIR]... [-d DIR]... [-k SUBSTR] [-v] [MODULE ...]")
    sys.exit(2)


def _drop_script_dir():
    # The interpreter puts this file's directory (host_tests/) first on
    # sys.path.  MicroPython treats any directory as a package, so
    # host_tests/engine/ would shadow the real engine package: drop it.
    if not sys.path:
        return
    first = sys.path[0]
    if first in ("", ".frozen"):
        return
    try:
        names = os.listdir(first)
    except OSError:
        return
    if "runner.py" in names:
        sys.path.pop(0)


def main(argv):
    paths = []
    dirs = []
    modules = []
    pattern = None
    verbose = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-p", "-d", "-k"):
            if i + 1 >= len(argv):
                _usage("option " + a + " needs a value")
            v = argv[i + 1]
            i += 2
            if a == "-p":
                paths.append(v)
            elif a == "-d":
                dirs.append(v)
            else:
                pattern = v
            continue
        if a == "-v":
            verbose = True
        elif a.startswith("-"):
            _usage("unknown option " + a)
        else:
            modules.append(a)
        i += 1

    for p in paths + dirs:
        if p not in sys.path:
            sys.path.append(p)
    passed = 0
    failed = 0
    for d in dirs:
        try:
            found = _list_test_modules(d)
        except OSError as e:
            print("FAIL cannot list " + d + ": " + repr(e))
            failed += 1
            found = []
        if not found:
            print("runner: no test_*.py modules in " + d)
        for m in found:
            if m not in modules:
                modules.append(m)

    for modname in modules:
        try:
            mod = _import(modname)
        except Exception as e:
            failed += 1
            print("FAIL " + modname + " (import)")
            _print_exc(e)
            continue
        for name, fn in _tests_of(mod):
            full = modname + "." + name
            if pattern is not None and pattern not in full:
                continue
            try:
                fn()
            except Exception as e:
                failed += 1
                print("FAIL " + full)
                _print_exc(e)
            else:
                passed += 1
                if verbose:
                    print("ok   " + full)
            if gc is not None:
                gc.collect()

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    _drop_script_dir()
    sys.exit(main(sys.argv[1:]))
