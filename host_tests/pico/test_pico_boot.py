"""Boot to the title and a scripted hand on the emulated Pico with the
release's .uf2 (`make uf2`); the .mpy bundle on an RP2040's stock
MicroPython boots and says it has too little memory for a match."""

import os
import re

from pico_util import boot_game, repl, same_as_golden
from tools.pico import harness as h
from tools.pico import scripted
from tools.sim import textscreen

# firmware/pico/pico.py's (it imports `machine`, which only a board has)
with open(os.path.join(h.ROOT, "firmware", "pico", "pico.py")) as _f:
    LOW_HEAP = int(re.search(r"^LOW_HEAP = const\((\d+)\)", _f.read(), re.M).group(1))


def _title(p, tmp_path):
    out = p.output()
    assert "Traceback" not in out, out
    assert "Display: SSD1306 at 0x3C" in out
    assert p.frames, "nothing was sent to the display"
    assert same_as_golden(p.frames[-1].image, "86_title_link", tmp_path)


def test_the_bundle_on_stock_micropython_says_a_match_will_not_fit(kit, game_fs, tmp_path):
    # its code is on the heap: about 15 KB is left, where a match needs
    # LOW_HEAP (firmware/pico/pico.py); the console and the screen say so and
    # what to install, then the title
    with boot_game(kit.firmware, kit.bootrom, game_fs) as p:
        out = p.output()
        free = int(out.split("free memory ")[1].split()[0])
        assert free < LOW_HEAP
        assert "Too little memory for a match" in out and ".uf2" in out
        lines = []
        for _ in range(30):                 # (its frame follows the title's)
            lines = textscreen.read(p.image())
            if lines and lines[0] == "TOO LITTLE MEMORY":
                break
            p.run(100)
        assert lines and lines[0] == "TOO LITTLE MEMORY" and any("UF2" in ln for ln in lines), lines
        p.press("A", after_ms=300)
        _title(p, tmp_path)


def test_frozen_uf2_boots_to_the_title_with_an_empty_filesystem(kit, frozen, tmp_path):
    # erased flash: the firmware formats littlefs itself, as on a new board
    with boot_game(frozen, kit.bootrom, None) as p:
        _title(p, tmp_path)
        assert set(p.files()) <= {"/data/settings.dat", "/data/game.dat"}, p.files()


def _hand(firmware, bootrom, fs, frozen=False):
    want, want_screen = scripted.simulator_frames(3)
    with repl(firmware, bootrom, fs, frozen) as p:
        got, screen = scripted.device_frames(p, 3)
    assert screen == want_screen
    assert len(got) == len(want), (len(got), len(want))
    for i, (a, b) in enumerate(zip(got, want)):
        assert a == b, "frame %d differs from the simulator's" % i
    assert len(want) > 20


def test_frozen_uf2_plays_the_scripted_hand_as_the_simulator(kit, frozen, frozen_repl_fs):
    _hand(frozen, kit.bootrom, frozen_repl_fs, frozen=True)
