"""Finding the emulated Pico's kit (tools/pico/harness.py, find): the stock
MicroPython firmware and the RP2040 boot ROM, from the environment or by
name in the usual places, and a skip reason that says where to get each."""

import os
import shutil
import subprocess

import pytest

from tools.pico import harness as h

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def touch(path, text="x"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


@pytest.fixture
def tree(tmp_path):
    """A checkout at tmp/work/checkout, a home at tmp/home, nothing else."""
    root = tmp_path / "work" / "checkout"
    root.mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    return str(root), str(home)


def find(tree, env=None):
    root, home = tree
    return h.Kit.find(env=env or {}, root=root, home=home)


def test_nothing_found_says_which_files_and_where_to_get_them(tree):
    kit, why = find(tree)
    assert kit is None
    for words in ("PICO_FIRMWARE", "PICO_BOOTROM", "RPI_PICO-<date>-v1.28.0.uf2",
                  "https://micropython.org/download/RPI_PICO/", "demo/bootrom.ts",
                  "https://github.com/wokwi/rp2040js", "bootromB1",
                  "~/.cache/gin-rummy-pico/", os.path.join(tree[0], "build", "pico-kit")):
        assert words in why, words


def test_the_kit_beside_the_checkout_is_found_without_any_variable(tree):
    shared = os.path.join(os.path.dirname(tree[0]), "shared", "pico")
    fw = touch(os.path.join(shared, "firmware-rpi-pico-1.28.0.uf2"))
    rom = touch(os.path.join(shared, "bootrom.mjs"))
    kit, why = find(tree)
    assert why is None and (kit.firmware, kit.bootrom) == (fw, rom)
    assert kit.uf2 is None                       # no frozen build made


def test_the_downloads_in_the_cache_are_found_the_newest_firmware_first(tree):
    cache = os.path.join(tree[1], ".cache", "gin-rummy-pico")
    touch(os.path.join(cache, "RPI_PICO-20250101-v1.28.0.uf2"))
    new = touch(os.path.join(cache, "RPI_PICO-20260415-v1.28.0.uf2"))
    touch(os.path.join(cache, "RPI_PICO-20260415-v1.27.0.uf2"))   # another version: not it
    rom = touch(os.path.join(cache, "bootrom.ts"))
    kit, why = find(tree)
    assert why is None and (kit.firmware, kit.bootrom) == (new, rom)


def test_the_checkouts_build_kit_and_the_order_of_the_places(tree):
    kitdir = os.path.join(tree[0], "build", "pico-kit")
    fw = touch(os.path.join(kitdir, "firmware-rpi-pico-1.28.0.uf2"))
    rom = touch(os.path.join(kitdir, "bootrom.mjs"))
    kit, _ = find(tree)
    assert (kit.firmware, kit.bootrom) == (fw, rom)
    # the cache comes before build/pico-kit, the kit beside the checkout first
    cached = touch(os.path.join(tree[1], ".cache", "gin-rummy-pico", "bootrom.ts"))
    assert find(tree)[0].bootrom == cached
    shared = touch(os.path.join(os.path.dirname(tree[0]), "shared", "pico", "bootrom.mjs"))
    assert find(tree)[0].bootrom == shared
    uf2 = touch(os.path.join(tree[0], "build", "gin-rummy-pico.uf2"))
    assert find(tree)[0].uf2 == uf2


def test_a_variable_wins_and_a_wrong_one_is_named(tree, tmp_path):
    kitdir = os.path.join(tree[0], "build", "pico-kit")
    touch(os.path.join(kitdir, "firmware-rpi-pico-1.28.0.uf2"))
    touch(os.path.join(kitdir, "bootrom.mjs"))
    mine = touch(str(tmp_path / "my.uf2"))
    kit, _ = find(tree, {"PICO_FIRMWARE": mine})
    assert kit.firmware == mine
    kit, why = find(tree, {"PICO_BOOTROM": str(tmp_path / "nope.ts")})
    assert kit is None
    assert "PICO_BOOTROM=%s is not a file" % (tmp_path / "nope.ts") in why
    assert "PICO_FIRMWARE" not in why            # that one was found


def rom_text(words, ts):
    body = ",\n  ".join("0x%08x" % w for w in words)
    decl = "export const bootromB1 = new Uint32Array([\n  %s,\n]);\n" % body
    head = "// RP2040 bootrom binary\n"
    return head + decl if not ts else head + "\n" + decl


@pytest.mark.skipif(shutil.which("node") is None, reason="node not found")
@pytest.mark.parametrize("name", ["bootrom.ts", "bootrom.mjs"])
def test_the_emulator_reads_the_boot_rom_as_ts_or_mjs(tmp_path, name):
    words = [(i * 2654435761) & 0xFFFFFFFF for i in range(4096)]
    path = touch(str(tmp_path / name), rom_text(words, name.endswith(".ts")))
    flash = os.path.join(ROOT, "tools", "pico", "flash.mjs")
    js = ("import fs from 'node:fs'; import { parseBootrom } from %r;"
          "const r = parseBootrom(fs.readFileSync(%r, 'utf8'));"
          "console.log(r.length, r[1], r[4095]);" % (flash, path))
    out = subprocess.run(["node", "--input-type=module", "-e", js], capture_output=True,
                         text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["4096", str(words[1]), str(words[4095])]
    touch(path, rom_text(words[:100], False))
    out = subprocess.run(["node", "--input-type=module", "-e", js], capture_output=True,
                         text=True, cwd=ROOT)
    assert out.returncode != 0 and "100 words, expected 4096" in out.stderr
