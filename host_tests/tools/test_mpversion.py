"""The MicroPython version is written once (tools/kit/mpversion.py): the
Makefile reads it, and the pinned MicroPython packages (the unix port the
host tests run, the editor's stubs) are of that version."""
import os
import re
import subprocess

from tools.kit.mpversion import MICROPYTHON, MINOR
from tools.pico import harness

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pins(name):
    with open(os.path.join(ROOT, name)) as f:
        return re.findall(r"^(\S*micropython\S*)==(\S+)", f.read(), re.M)


def test_the_version_is_a_release_number():
    assert re.fullmatch(r"\d+\.\d+\.\d+", MICROPYTHON)
    assert MICROPYTHON.startswith(MINOR + ".")


def test_the_makefile_reads_it():
    r = subprocess.run(["make", "-s", "--no-print-directory", "--eval",
                        "mpversion-shown: ; @echo $(MICROPY_VERSION)", "mpversion-shown"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == MICROPYTHON, r.stdout + r.stderr
    with open(os.path.join(ROOT, "Makefile")) as f:
        assert MICROPYTHON not in f.read()       # written nowhere else


def test_the_pinned_micropython_packages_are_of_that_version():
    found = pins("requirements.txt") + pins("requirements-stubs.txt")
    assert len(found) >= 2, found
    for name, version in found:
        assert version.startswith(MICROPYTHON + "."), (name, version)


def test_the_emulated_pico_looks_for_that_stock_firmware():
    assert all(MICROPYTHON in n for n in harness.FIRMWARE_NAMES)
