"""The game in the ROMFS partition, on the emulated Pico: the release .uf2
(`make uf2`) starts it from flash; `make flash` (tools/deploy/flash.py,
mpremote over the board's USB serial: tools/pico/serial_bridge.py)
replaces it on a board that runs the game, deploy after deploy; a power
cut during a deploy leaves a board that starts, its saves kept; and the
saves of a board on release 1.1.0 survive the upgrade to this firmware.

Needs build/gin-rummy-pico.uf2 made by `make uf2` (the firmware part is
used with the images the tests build: tools/pico/romfs_cuts.py)."""

import os
import re
import subprocess
import sys

import pytest

from pico_util import boot_game, saved_match, to_first_discard
from tools.deploy import romfs
from tools.pico import harness as h
from tools.pico import romfs_cuts as rc
from tools.pico import scripted
from tools.pico.serial_bridge import SerialBridge

RELEASE_1_1_0 = os.path.join(h.ROOT, "dist", "1.1.0", "gin-rummy-pico-1.1.0.uf2")


@pytest.fixture(scope="module")
def games(romfs_uf2, tmp_path_factory):
    """Two games (tools/pico/romfs_cuts.py: A, and B with one line more at
    the image's end), their trees, images and a .uf2 of the release
    firmware with A."""
    tmp = str(tmp_path_factory.mktemp("games"))
    trees = (rc.tree_copy(os.path.join(tmp, "a")), rc.tree_copy(os.path.join(tmp, "b"), mark=True))
    images = tuple(romfs.build_image(t) for t in trees)
    paths = []
    for name, image in zip("ab", images):
        paths.append(os.path.join(tmp, name + ".romfs"))
        with open(paths[-1], "wb") as f:
            f.write(image)
    uf2 = rc.firmware_uf2(romfs_uf2, str(tmp_path_factory.mktemp("uf2")), images[0])
    return {"trees": trees, "images": images, "paths": paths, "uf2": uf2}


def test_the_release_uf2_runs_the_game_from_its_romfs_partition(kit, romfs_uf2):
    # erased flash around the firmware and the image: the filesystem is
    # formatted on the first start, as on a new board
    with boot_game(romfs_uf2, kit.bootrom, None) as p:
        out = p.output()
        free = int(out.split("free memory ")[1].split()[0])
        assert "Traceback" not in out
        p.interrupt()
        got, err = p.exec("import firmware, engine.melds\n"
                          "print(firmware.__file__, engine.melds.__file__)")
        assert not err
    assert got.split() == ["/rom/firmware/__init__.mpy", "/rom/engine/melds.mpy"]
    # the code runs from flash: about 120 KB more heap free than the .mpy
    # bundle's 17 KB (docs/DEVICE.md)
    assert free > 120000, free


def test_without_a_game_in_the_partition_the_board_says_to_deploy_again(kit, romfs_uf2, tmp_path):
    with open(romfs_uf2, "rb") as f:
        fw, image = romfs.firmware_part(f.read())
    assert image is not None
    path = str(tmp_path / "firmware-only.uf2")
    with open(path, "wb") as f:
        f.write(fw)
    with h.Pico(path, kit.bootrom, None) as p:
        p.run(3000)
        assert "Deploy it again: `make flash`" in p.output()
        assert p.frames, "nothing on the display"
        p.type(b"\r")
        p.run_until_text(">>> ", 2000)            # the REPL is free


def _flash(port, image_path, timeout=1800):
    """`make flash` of a ROMFS image onto the board on `port`."""
    r = subprocess.run([sys.executable, "-m", "tools.deploy.flash", port.url,
                        "--image", image_path], capture_output=True, text=True,
                       timeout=timeout, cwd=h.ROOT)
    return r.returncode, r.stdout + r.stderr


def test_make_flash_on_an_rp2040_with_stock_micropython_copies_nothing_and_says_why(
        kit, games):
    # no ROMFS partition, and the bundle's code would sit in the RP2040's
    # RAM: a match would not fit (firmware/pico/pico.py's LOW_HEAP), so nothing
    # is copied and the .uf2 is named; the board's files stay as they were
    with h.Pico(kit.firmware, kit.bootrom, None) as p, SerialBridge(p) as port:
        port.call(lambda p: p.run(500))
        before = port.call(lambda p: sorted(p.files()))
        rcode, out = _flash(port, games["paths"][0])
        after = port.call(lambda p: sorted(p.files()))
    assert rcode == 1, out
    assert "no ROMFS partition" in out and "Nothing was copied" in out and ".uf2" in out, out
    assert after == before and not any(f.endswith(".mpy") for f in after), after


def test_make_flash_replaces_the_game_on_a_board_that_runs_it_deploy_after_deploy(kit, games):
    # the board runs A, in a match; each make flash stops it over the
    # serial port (the raw REPL), writes, and restarts it
    fs = h.fs_image(h.board_files(bundle=False, onboard=("keyscript",)))
    with boot_game(games["uf2"], kit.bootrom, fs) as p, SerialBridge(p) as port:
        port.call(lambda p: (p.press("A"), p.run(1000), p.press("A"), p.run(300)))
        saves = port.call(rc.data_files)
        assert "/data/game.dat" in saves
        said = []
        for k in (1, 0, 1, 1):              # B, A, B, then B again: nothing to write
            rcode, out = _flash(port, games["paths"][k])
            said.append(out)
            assert rcode == 0, out
            assert "the board runs the new game" in out, out
            held = port.call(lambda p: romfs.image_of_flash(p.flash()))
            assert held == games["images"][k]
            assert port.call(rc.data_files) == saves          # the saves untouched
        assert "nothing written" in said[3] and "nothing written" not in said[2]
        # a small change, a few blocks: the first, its folder's, the file's
        # (one or two: the image's last file, firmware/stats.mpy, spans two)
        assert re.search(r"wrote [34] of \d+ blocks", said[0]), said[0]
        # then the new game plays a scripted hand frame for frame as the simulator
        port.call(lambda p: (p.interrupt(), p.exec("import os\nfor f in os.listdir('/data'):\n"
                                                   "    os.remove('/data/' + f)\n")))
        want, want_screen = scripted.simulator_frames(3)
        got, screen = port.call(lambda p: scripted.device_frames(p, 3))
    assert screen == want_screen and got == want


def test_a_power_cut_during_a_deploy_leaves_a_board_that_starts_with_its_saves(kit, romfs_uf2,
                                                                               tmp_path):
    # the whole campaign (every flash operation): python -m tools.pico.romfs_cuts
    c = rc.Campaign(romfs_uf2, kit.bootrom, str(tmp_path))
    ops, n = c.dry_run()
    assert n in (3, 4) and ops          # as above: the first, the folder's, the file's
    pts = rc.instants(ops, 100)
    # before it all, inside the program that invalidates the old image,
    # just after it, in the middle, then just before, inside and after
    # the commit's program
    seen = set()
    for t in [pts[0], pts[1], pts[2], pts[len(pts) // 2], pts[-3], pts[-2], pts[-1]]:
        got, want = c.cut(t)
        assert got == want, "a cut %.1f ms into the deploy: %s, not %s" % (t / 1e6, got, want)
        seen.add(got)
    assert seen == {rc.OLD, rc.NONE, rc.NEW}


def test_the_saves_of_a_board_on_release_1_1_0_survive_the_upgrade(kit, romfs_uf2, tmp_path):
    if not os.path.isfile(RELEASE_1_1_0):
        pytest.skip("dist/1.1.0 is not in this checkout")
    with boot_game(RELEASE_1_1_0, kit.bootrom, None) as p:
        assert "Gin Rummy 1.1.0" in p.output()
        to_first_discard(p)
        p.pin("A", False)                        # the discard, saved
        p.run(400)
        old = p.files()
        fs = p.flash()[romfs.FS_OFFSET:]
    saved, _ = saved_match(old, tmp_path, "old")
    assert saved is not None
    # dragging the new .uf2 writes the firmware and the ROMFS partition
    # only: the filesystem is the one 1.1.0 left
    with boot_game(romfs_uf2, kit.bootrom, fs) as p:
        out = p.output()
        assert "Save set aside" not in out and "Traceback" not in out
        assert saved_match(p.files(), tmp_path, "new")[0] == saved
        p.press("A")                             # CONTINUE
        p.run(1500)
        assert saved_match(p.files(), tmp_path, "played")[0].startswith(saved)
