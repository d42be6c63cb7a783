"""Fake CircuitPython `storage`: getmount("/").readonly and remount().

Read-only for the game by default, as without boot.py (tests set it)."""


class _Mount:
    readonly = True


_root = _Mount()
remounts = []


def getmount(path):
    if path != "/":
        raise OSError(22, path)
    return _root


def remount(path, readonly=False, disable_concurrent_write_protection=False):
    remounts.append((path, readonly))
    getmount(path).readonly = readonly
