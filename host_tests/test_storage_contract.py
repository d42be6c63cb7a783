"""The storage port's contract (firmware/ports.py), run on every back-end:
firmware.saves.storage.Storage on littlefs-style files (tools/saves/cutsim.FaultFS),
circuitpython/cpnvm.NvmStorage on the RP2040's nvm sector (the CircuitPython
fakes' FakeNvm, its copy on the drive a FaultFS) and
tools/kit/memstorage.MemStorage.

A kit holds a back-end's medium across starts: start() is a power-on (a new
storage on what the medium holds), clone() a copy of the medium to cut."""

import pytest

from firmware.saves import gamesave
from firmware.saves.storage import DAMAGED, KEPT, RESUMED, Storage
from tools.kit import cpenv
from tools.kit.memstorage import MemStorage
from tools.saves.cutsim import FaultFS, Power
from tools.saves.cutsim import PowerCut as FsCut

DATA = "/data"
NAMES = ("settings", "game")


class Files:
    """Storage on the Pico's littlefs (a cut reverts a file not closed)."""
    cuts = (FsCut,)
    told = ()                                # every cut is silent

    def __init__(self, fs=None):
        self.fs = fs if fs is not None else FaultFS(dirs=[DATA], littlefs=True)

    def start(self):
        self.fs = self.fs.copy()
        return Storage(DATA, self.fs)

    def arm(self, power):
        self.fs.power = power

    def clone(self):
        return Files(self.fs.copy())


def cpnvm_module():
    cpenv.install()
    import cpnvm

    return cpnvm


class Nvm:
    """NvmStorage on the nvm sector, with its copy on the CIRCUITPY drive."""

    def __init__(self, image=None, drive=None):
        cpenv.install()
        import microcontroller

        self.micro = microcontroller
        self.cuts = (FsCut, microcontroller.PowerCut)
        self.told = (cpnvm_module().MSG_DRIVE.split(";")[0],)   # a cut in a rewrite, resumed
        self.nvm = microcontroller.FakeNvm(data=image) if image is not None \
            else microcontroller.FakeNvm()
        self.drive = drive if drive is not None else FaultFS()

    def start(self):
        cpnvm = cpnvm_module()
        self.nvm = self.micro.FakeNvm(data=self.nvm.image())
        self.drive = self.drive.copy()
        return cpnvm.NvmStorage(self.nvm, cpnvm.FileBackup(cpnvm.BACKUP_PATH, self.drive))

    def arm(self, power):
        self.nvm.power = power
        self.drive.power = power

    def clone(self):
        return Nvm(self.nvm.image(), self.drive.copy())


class Mem:
    """MemStorage: its files dict is the medium (no power cut in memory)."""
    cuts = ()

    def __init__(self):
        self.files = {}

    def start(self):
        st = MemStorage()
        st.files = self.files
        return st


KITS = {"littlefs": Files, "nvm": Nvm, "memory": Mem}
CUT_KITS = {"littlefs": Files, "nvm": Nvm}


@pytest.fixture(params=sorted(KITS))
def kit(request):
    return KITS[request.param]()


def game(i):
    """The i-th game save of a match: its bytes grow turn by turn, as an
    engine save does (the nvm appends the new bytes)."""
    return gamesave.join(b"stats%d" % (i // 3), bytes(range(40, 40 + 5 * i + 3)))


def payload(name, i):
    return game(i) if name == "game" else b"speed=fast\nlevel=%d\n" % i


def boot(st):
    """Every name loaded, as a start does: {name: (value, message)}."""
    return {n: st.load(n) for n in NAMES}


def refuse(bad):
    def decode(p):
        if p == bad:
            raise ValueError("not a save")
        return p
    return decode


def no_memory(p):
    raise MemoryError("decoding")


# -- load, save, remove, names --------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_nothing_saved_loads_none_silently(kit, name):
    st = kit.start()
    assert st.load(name) == (None, None)
    assert st.load(name, refuse(b"")) == (None, None)
    assert name not in st.outcome


@pytest.mark.parametrize("name", NAMES)
def test_the_newest_save_loads_and_survives_a_start(kit, name):
    st = kit.start()
    boot(st)
    for i in range(4):
        assert st.save(name, payload(name, i)) is True
        assert st.load(name) == (payload(name, i), None)
    assert st.load(name, lambda p: ("decoded", p)) == (("decoded", payload(name, 3)), None)
    assert kit.start().load(name) == (payload(name, 3), None)


@pytest.mark.parametrize("name", NAMES)
def test_saving_the_same_payload_again_is_no_error(kit, name):
    st = kit.start()
    boot(st)
    st.save(name, payload(name, 1))
    assert st.save(name, payload(name, 1)) in (True, False)
    assert kit.start().load(name) == (payload(name, 1), None)


def test_remove_forgets_the_save_for_good(kit):
    name = "game"                            # the name the game removes (ports.py)
    st = kit.start()
    boot(st)
    st.remove(name)                          # nothing there: no error
    st.save(name, payload(name, 0))
    st.save(name, payload(name, 1))
    st.remove(name)
    assert st.load(name) == (None, None)
    assert kit.start().load(name) == (None, None)
    st = kit.start()
    boot(st)
    assert st.save(name, payload(name, 2)) is True
    assert kit.start().load(name) == (payload(name, 2), None)


def test_names_do_not_mix(kit):
    st = kit.start()
    boot(st)
    st.save("settings", payload("settings", 5))
    st.save("game", payload("game", 2))
    st.save("settings", payload("settings", 6))
    assert boot(kit.start()) == {"settings": (payload("settings", 6), None),
                                 "game": (payload("game", 2), None)}
    st = kit.start()
    boot(st)
    st.remove("game")
    assert boot(kit.start()) == {"settings": (payload("settings", 6), None),
                                 "game": (None, None)}


# -- damage ------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_damage_is_set_aside_said_once_and_saving_goes_on(kit, name):
    st = kit.start()
    boot(st)
    for i in range(3):
        st.save(name, payload(name, i))
    bad = payload(name, 2)
    st = kit.start()
    value, msg = st.load(name, refuse(bad))
    assert isinstance(msg, str) and msg
    assert st.damage and isinstance(st.damage[-1], str)
    if st.outcome.get(name) == RESUMED:      # an older good save, given instead
        assert value in (payload(name, 0), payload(name, 1))
    else:
        assert (value, st.outcome.get(name)) == (None, DAMAGED)
    assert st.load(name)[0] != bad           # never given again
    assert st.save(name, payload(name, 3)) is True
    assert kit.start().load(name, refuse(bad)) == (payload(name, 3), None)


def test_a_decode_error_of_any_kind_is_damage_never_a_crash(kit):
    st = kit.start()
    boot(st)
    st.save("settings", payload("settings", 1))
    st = kit.start()

    def broken(p):
        return {}["no such key"]

    value, msg = st.load("settings", broken)
    assert value is None and msg
    assert st.outcome.get("settings") == DAMAGED


@pytest.mark.parametrize("name", NAMES)
def test_a_save_that_cannot_be_read_now_is_kept_whole(kit, name):
    st = kit.start()
    boot(st)
    st.save(name, payload(name, 1))
    st = kit.start()
    value, msg = st.load(name, no_memory)
    assert value is None and msg
    assert st.outcome.get(name) == KEPT and name in st.kept
    with pytest.raises(OSError):
        st.save(name, payload(name, 2))
    assert st.load(name, no_memory)[0] is None
    assert kit.start().load(name) == (payload(name, 1), None)   # the next start reads it


# -- power cuts ----------------------------------------------------------------

OPS = [("save", "settings", 0), ("save", "game", 0), ("save", "game", 1),
       ("save", "game", 2), ("save", "settings", 1), ("save", "game", 3),
       ("remove", "game", None), ("save", "game", 4)]


def apply(st, op):
    kind, name, i = op
    if kind == "save":
        st.save(name, payload(name, i))
    else:
        st.remove(name)


@pytest.mark.parametrize("which", sorted(CUT_KITS))
def test_a_power_cut_anywhere_leaves_the_save_before_or_the_new_one(which):
    kit = CUT_KITS[which]()
    state = {n: None for n in NAMES}
    cuts = 0
    for op in OPS:
        probe = kit.clone()
        boot(probe.start())
        power = Power()
        st = probe.start()
        boot(st)
        probe.arm(power)
        apply(st, op)
        total = power.steps
        after = dict(state)
        after[op[1]] = payload(op[1], op[2]) if op[0] == "save" else None
        for k in range(total + 1):
            cut = kit.clone()
            st = cut.start()
            boot(st)
            cut.arm(Power(k))
            try:
                apply(st, op)
            except cut.cuts:
                cuts += 1
            got = boot(cut.start())
            for n in NAMES:
                value, msg = got[n]
                assert msg is None or msg.startswith(cut.told), (op, k, n, msg)
                assert value in (state[n], after[n]), (op, k, n)
        st = kit.start()
        boot(st)
        apply(st, op)
        state = after
        assert boot(kit.start()) == {n: (state[n], None) for n in NAMES}
    assert cuts > len(OPS)
