"""The MicroPython the Pico's firmware is built on and tested with: the one
place its version is written. tools/deploy/release.py (the kit's source
tarball and tree, the release's texts), tools/deploy/romfs.py (the flash
map), tools/pico/harness.py (the stock firmware's file names) and the
Makefile (its messages, reading the line below) take it from here;
host_tests/tools/test_mpversion.py checks that requirements.txt's and
requirements-stubs.txt's MicroPython pins agree with it.
"""

MICROPYTHON = "1.28.0"
MINOR = ".".join(MICROPYTHON.split(".")[:2])     # "1.28": what the texts name
