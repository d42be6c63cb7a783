"""The board's settings on the emulated Pico (the release's .uf2): /board.json choosing SH1106 and flip
reaches the panel model (tools/pico: the SH1106's 132-column RAM, the
picture turned 180 degrees); a display wired to other I2C pins is found by
the boot; the version is the first console line. Slow (a boot each)."""

import os

from tools.pico import harness as h
from tools.sim import render

from pico_util import GOLDEN, boot_game


def golden_buf(name):
    """host_tests/ui/golden/NAME.png as a 1024-byte MONO_VLSB picture."""
    return render.from_png(os.path.join(GOLDEN, name + ".png"))


def fs_with(files):
    return h.fs_image(dict(files))


def test_sh1106_and_flip_from_board_json_reach_the_panel(kit, frozen):
    fs = fs_with({"/board.json": b'{"display": "sh1106", "flip": true}'})
    with boot_game(frozen, kit.bootrom, fs, sh1106=True) as p:
        out = p.output()
        assert "Traceback" not in out and "board.json" not in out, out
        assert out.lstrip().startswith("Gin Rummy "), out[:200]
        assert "Display: SH1106 at 0x3C on I2C0" in out
        assert p.emu.sh1106 and p.emu.col_offset == 2
        assert p.image() == render.turned(golden_buf("86_title_link"))


def test_a_display_on_other_pins_is_found_at_boot(kit, frozen):
    with boot_game(frozen, kit.bootrom, fs_with({}), display_bus=(1, 6, 7)) as p:
        out = p.output()
        assert "No display found: nothing answered on I2C0" in out, out
        assert "Display found at 0x3C on I2C1 (SDA GP6 (pin 9), SCL GP7 (pin 10))" in out, out
        assert '"i2c_id": 1, "i2c_sda": 6, "i2c_scl": 7 in /board.json' in out
        assert p.image() == golden_buf("86_title_link")


def test_a_bad_board_json_gives_one_line_and_the_game_starts(kit, frozen):
    fs = fs_with({"/board.json": b'{"btn_a": 40, "flip": "yes"}'})
    with boot_game(frozen, kit.bootrom, fs) as p:
        lines = [t for _, _, t in p.lines() if t.startswith("board.json")]
        assert len(lines) == 2, lines
        assert p.image() == golden_buf("86_title_link")
