"""No press is lost, on the frozen build nor on the .mpy bundle: a hand
against the hard AI played off the panel by the latency bench's player
(tools/pico/latency.py), every direction and A press answered by a new
frame. The bundle's free heap is read from the board's RAM meanwhile
(latency.HeapTable) and must agree with what the game itself says at
its start."""

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


def test_the_bundle_answers_every_press_of_a_hand_and_its_heap_is_read(kit):
    r = lat.play(kit.firmware, kit.bootrom, h.board_files(), hands=1, heap=True)
    assert r["hands"] == 1 and unanswered(r) == 0
    free = r["free"]
    assert free and all(0 < f < 64 * 1024 for f in free)   # the bundle's small heap


def test_the_heap_read_from_ram_is_what_the_board_says(kit):
    with h.Pico(kit.firmware, kit.bootrom, h.fs_image(h.board_files(main=False))) as p:
        p.run(20)
        p.interrupt()
        table = lat.HeapTable(p)
        out, err = p.exec("import gc\ngc.collect()\nprint('@free', gc.mem_free())\n")
        said = int(re.search(r"@free (\d+)", out).group(1))
        # read after the REPL printed: the same heap, give or take its line
        assert abs(table.free(p) - said) <= 256
