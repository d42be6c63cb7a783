"""No press is lost: a hand against the hard AI played off the panel by
the latency bench's player (tools/pico/latency.py) on the release .uf2,
every direction and A press answered by a new frame. The free heap the
bench reads from the board's RAM (latency.HeapTable) agrees with what
MicroPython says. (The .mpy bundle on an RP2040's stock MicroPython has
too little memory for a match: test_pico_boot.py.)"""

import re

from tools.pico import harness as h
from tools.pico import latency as lat


def unanswered(r):
    return sum(lat.stats(r["presses"], k)["unanswered"] for k in lat.KINDS)


def test_the_frozen_build_answers_every_press_of_a_hand(kit, frozen):
    r = lat.play(frozen, kit.bootrom, {}, hands=1)
    assert r["hands"] == 1
    assert lat.stats(r["presses"], lat.DIRECTION)["n"] > 3
    assert lat.stats(r["presses"], lat.A)["n"] > 3
    assert unanswered(r) == 0


def test_the_heap_read_from_ram_is_what_the_board_says(kit):
    with h.Pico(kit.firmware, kit.bootrom, h.fs_image(h.board_files(main=False))) as p:
        p.run(20)
        p.interrupt()
        table = lat.HeapTable(p)
        out, err = p.exec("import gc\ngc.collect()\nprint('@free', gc.mem_free())\n")
        said = int(re.search(r"@free (\d+)", out).group(1))
        # read after the REPL printed: the same heap, give or take its line
        assert abs(table.free(p) - said) <= 256
