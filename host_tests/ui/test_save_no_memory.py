"""A save refused for want of memory, when there is not even the room to
load the code that handles a refused save (firmware/saves/savefail.py, a cold
module: on the .mpy bundle its import opens a file, a 1148-byte run):
the game goes on, and the save is tried again at the next turn."""
import sys

from tools.kit.memstorage import MemStorage
from tools.sim.simulator import Sim


class _NoRoom:
    """A finder that fails the import of firmware.saves.savefail as the Pico does
    when no run of the heap is long enough for its file."""

    def find_spec(self, name, path=None, target=None):
        if name == "firmware.saves.savefail":
            raise MemoryError("memory allocation failed, allocating 1148 bytes")
        return None


def test_a_save_refused_without_room_for_savefail_is_kept_to_try_again(monkeypatch):
    sim = Sim(seed=3, storage=MemStorage())
    sim.settle()
    sv = sim.app.saving
    storage = sim.app.storage
    real_save = storage.save

    def no_memory(name, payload):
        raise MemoryError("memory allocation failed, allocating 1148 bytes")

    monkeypatch.setattr(storage, "save", no_memory)
    monkeypatch.delitem(sys.modules, "firmware.saves.savefail", raising=False)
    from firmware import saves
    if hasattr(saves, "savefail"):
        monkeypatch.delattr(saves, "savefail")
    finder = _NoRoom()
    sys.meta_path.insert(0, finder)
    try:
        assert sv.store("game", b"payload") is False
    finally:
        sys.meta_path.remove(finder)
    assert sv.failing and "no memory" in sv.error
    assert sv.unsaved == ["game"]
    # the next turn's save goes through and the failure is over
    monkeypatch.setattr(storage, "save", real_save)
    assert sv.store("game", b"payload") is True
    assert sv.failing is None and sv.unsaved == []
