"""Storage in memory, a back-end of the storage port (firmware/ports.py
says its contract; host_tests/test_storage_contract.py runs it): the
simulator's default and the tests' and benches' storage. MicroPython runs
it too (the benches' scenarios on the unix port).
"""


class MemStorage:
    """In-memory storage with the firmware Storage's methods (tests): a
    payload the decoder refuses is set aside (outcome "damaged"); one it
    has no memory for is kept (outcome "kept", and save() refuses it)."""

    def __init__(self, files=None):
        self.files = dict(files or {})
        self.saves = 0
        self.set_aside = {}
        self.outcome = {}
        self.kept = []
        self.damage = []

    def load(self, name, decode=None):
        self.outcome.pop(name, None)
        payload = self.files.get(name)
        if payload is None:
            return None, None
        if decode is None:
            return payload, None
        try:
            return decode(payload), None
        except MemoryError:
            self.outcome[name] = "kept"
            self.kept.append(name)
            return None, "The %s save could not be read now; it is kept." % name
        except Exception as e:
            self.damage.append("%s: %s" % (name, e))
            self.set_aside[name] = self.files.pop(name)
            self.outcome[name] = "damaged"
            return None, "The %s save was damaged and set aside." % name

    def save(self, name, payload):
        if name in self.kept:
            raise OSError(1, "the %s save is kept" % name)
        self.files[name] = bytes(payload)
        self.saves += 1
        return True

    def remove(self, name):
        self.files.pop(name, None)
