"""The first key after the CPU's move, on the emulated Pico (frozen build).

`make play` in a small terminal lost it (host_tests/ui/test_ui_tmux.py):
the simulator reads its buttons only between its steps, and the step that
drew the waiting save mark's frame, with the text view reading the panel
back, outlasted the typed key. The board reads its buttons from a 2 ms
timer, during its steps too, and its console keys last until the
debounce has read them (firmware/pico/consolekeys.py). Here a key comes at the
moment the simulator lost it: as the CPU's move is being drawn (its save
follows, the core stalled in the flash write), typed on the console, and
at the next CPU move a 30 ms tap of the RIGHT button; each is seen.
"""

from firmware.saves.storage import pack
from tools.kit.ui_driver import chosen_game_save
from tools.pico import figures
from tools.pico import harness as h
from tools.sim import textscreen

from pico_util import boot_game


def table_line(p):
    lines = textscreen.read(p.image())
    return next((ln for ln in lines if "STOCK" in ln and "PILE" in ln), "")


def to_the_cpus_move(p, sig):
    """Take and discard (A, A), then run in 1 ms slices until the play
    screen's turn line reads the human's draw again: the CPU's move is on
    the display, its save to come."""
    p.press("A", after_ms=400)              # draw from the stock
    p.press("A", after_ms=100)              # discard the card drawn
    for _ in range(20000):
        p.run(1)
        if figures.region(p.image(), *figures.TURN_LINE) == sig:
            return
    raise AssertionError("the CPU never moved: %r" % textscreen.read(p.image()))


def seen_within(p, pred, ms):
    for _ in range(ms // 5):
        p.run(5)
        if pred():
            return True
    return False


def test_the_first_key_after_the_cpus_move_is_taken_on_the_board(kit, frozen):
    # a deal it chooses (tools/kit/ui_driver.py's chosen_wait), not the
    # board's entropy, which differs from build to build: with some the CPU
    # knocked at its first move
    fs = h.fs_image({"/data/game.dat": bytes(pack(chosen_game_save()))})
    with boot_game(frozen, kit.bootrom, fs) as p:
        figures.new_match(p)                # the waiting match's commitment, the cut
        sig = figures.region(p.image(), *figures.TURN_LINE)
        assert "> STOCK" in table_line(p)
        to_the_cpus_move(p, sig)
        p.type(b"\x1b[C")                   # RIGHT on the console
        assert seen_within(p, lambda: "> PILE" in table_line(p), 400), table_line(p)
        p.press("L", after_ms=300)          # back to the stock
        assert "> STOCK" in table_line(p)
        to_the_cpus_move(p, sig)
        p.pin("R", True)                    # a quick tap of RIGHT
        p.run(30)
        p.pin("R", False)
        assert seen_within(p, lambda: "> PILE" in table_line(p), 400), table_line(p)
