"""The real firmware on an emulated Pico (rp2040js, tools/pico).

Needs the stock MicroPython 1.28.0 RPI_PICO .uf2 and the RP2040 boot ROM
(rp2040js demo/bootrom.ts): $PICO_FIRMWARE and $PICO_BOOTROM, or found by
name beside the checkout (../shared/pico/), in ~/.cache/gin-rummy-pico/ or
in build/pico-kit/ (tools/pico/harness.py, find). Without them these tests
are skipped, the reason naming each file and where to get it. The tests of
the .uf2 that carries the game also need build/gin-rummy-pico.uf2 (`make
uf2`: the release's kind, the game in its ROMFS partition; or PICO_UF2);
those of the ROMFS partition itself need it to be that kind.
"""

import os
import shutil

import pytest

from tools.pico import harness as h

KIT, WHY = h.Kit.find()
if KIT is not None and not shutil.which("node"):
    KIT, WHY = None, "node not found"


@pytest.fixture(scope="session")
def kit():
    if KIT is None:
        pytest.skip("emulated Pico: " + WHY)
    if not os.path.isdir(os.path.join(h.ROOT, "node_modules", "rp2040js")):
        pytest.skip("emulated Pico: node_modules/rp2040js missing (npm ci)")
    return KIT


@pytest.fixture(scope="session")
def frozen(kit):
    """The .uf2 that carries the game (`make uf2`), whichever its kind."""
    if kit.uf2 is None:
        pytest.skip("the game's .uf2: build/gin-rummy-pico.uf2 not built (make uf2)")
    return kit.uf2


@pytest.fixture(scope="session")
def romfs_uf2(frozen):
    """build/gin-rummy-pico.uf2 when it is the release's kind: the game in
    its ROMFS partition."""
    from tools.pico import session

    if session.kind(frozen) != "romfs":
        pytest.skip("%s has the game frozen in, not in a ROMFS partition: make uf2" % frozen)
    return frozen


@pytest.fixture(scope="session")
def game_fs(kit):
    """What `make flash` leaves on the board: the bundle and /main.py."""
    return h.fs_image(h.board_files())


@pytest.fixture(scope="session")
def repl_fs(kit):
    """The bundle without /main.py (an idle REPL) and the key script."""
    return h.fs_image(h.board_files(main=False, onboard=("keyscript",)))


@pytest.fixture(scope="session")
def frozen_repl_fs(kit):
    return h.fs_image(h.board_files(bundle=False, onboard=("keyscript",)))
