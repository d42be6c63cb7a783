"""Power cuts, safe boot, running out of memory and a missing display, on
the emulated Pico with the release's .uf2 (`make uf2`: the game in its
ROMFS partition), its filesystem erased as on a new board. (The .mpy
bundle on an RP2040's stock MicroPython has too little memory for a
match: test_pico_boot.py.)"""

import os

from pico_util import boot_game, saved_match, to_first_discard
from tools.deploy import romfs
from tools.pico import harness as h
from tools.pico import romfs_cuts as rc
from tools.pico.figures import new_match


def test_a_power_cut_in_the_middle_of_a_save_resumes_the_last_completed_turn(
        kit, frozen, tmp_path):
    # The run is deterministic: find the save that the discard starts ...
    with boot_game(frozen, kit.bootrom, None) as p:
        to_first_discard(p)
        before, _ = saved_match(p.files(), tmp_path, "before")
        ops0 = len(p.flash_ops)
        p.pin("A", False)  # A reports on release: the discard, then its save
        t_release = p.t
        p.run(400)         # the AI waits 900 ms before it moves
        ops = [o for o in p.flash_ops[ops0:] if o[1] >= t_release]
        after, _ = saved_match(p.files(), tmp_path, "after")
    assert before is not None and after is not None and before != after
    assert ops, "the discard wrote nothing to the flash"
    start, end = ops[0][1], ops[-1][2]
    # ... then cut the power inside it, at several points, and boot again.
    resumed = []
    for k, frac in enumerate((0.05, 0.6)):
        with boot_game(frozen, kit.bootrom, None) as p:
            to_first_discard(p)
            p.pin("A", False)
            cut = start + frac * (end - start)
            p.cut_after((cut - p.t) / 1e6)
            assert p.run(400) == "cut"
            p.power_on()
            p.run_until_text("Game running", 30000)
            got, msg = saved_match(p.files(), tmp_path, "cut%d" % k)
            assert got in (before, after), "cut at %.1f ms resumed another match" % (cut / 1e6)
            assert "Traceback" not in p.output(2)
            resumed.append(got)
    assert resumed[0] == before          # early in the save: the turn before


def test_safe_boot_with_b_held_leaves_the_repl_free(kit, frozen):
    with h.Pico(frozen, kit.bootrom, None) as p:
        p.pin("B", True)   # held from power-on
        p.run_until_text("Safe boot: B was held", 20000)
        p.pin("B", False)
        p.run(200)
        assert "Game running" not in p.output()
        # BOOTSEL is watched for 5 s (the recovery start), then the REPL
        hold = "Hold BOOTSEL (the button on the Pico) in the next 5 s"
        if hold not in p.output():
            p.run_until_text(hold, 5000)
        p.run(5000)
        p.type(b"\r")
        p.run_until_text(">>> ", 2000)
        out, err = p.exec("print(6 * 7)")
        assert out.strip() == "42" and not err


def test_without_a_display_the_game_plays_on_the_serial_console(kit, frozen):
    with h.Pico(frozen, kit.bootrom, None, display=()) as p:
        p.run_until_text("Game running", 30000)
        p.run(300)
        out = p.output()
        assert "No display found: nothing answered on I2C0" in out
        assert "Running without a display: the game goes on." in out
        assert not p.frames
        mark = len(p.chunks)
        p.type(b"z")       # A: NEW MATCH
        p.run(1500)
        shown = "".join(c[2] for c in p.chunks[mark:])
        assert "Traceback" not in shown
        assert len(shown) > 500, shown   # the play screen, printed as text


# For the next test, at the top of the game's firmware/main.py: the first
# App step after a turn is saved raises MemoryError once (a marker in /data
# says it did).
OOM_MAIN = r'''
import os
from firmware import app as _app

_step = _app.App.step


def _oom_once(self):
    w = _step(self)
    if self.saving.saved_at and self.match is not None:
        try:
            os.stat("/data/oom_done")
        except OSError:
            with open("/data/oom_done", "w") as f:
                f.write("1")
            raise MemoryError("memory allocation failed (injected)")
    return w


_app.App.step = _oom_once
'''


def test_out_of_memory_after_a_saved_turn_restarts_the_game_on_the_board(kit, romfs_uf2,
                                                                          tmp_path):
    # the real firmware's soft reset: the game starts again and the saved
    # match is there to continue. The game's image is this tree's with the
    # hook above at the top of firmware/main.py.
    tree = rc.tree_copy(str(tmp_path / "tree"))
    main = os.path.join(tree, "firmware", "main.py")
    with open(main) as f:
        text = f.read()
    with open(main, "w") as f:
        f.write(OOM_MAIN + text)
    uf2 = rc.firmware_uf2(romfs_uf2, str(tmp_path), romfs.build_image(tree))
    with boot_game(uf2, kit.bootrom, None) as p:
        mark = len(p.chunks)
        new_match(p, after_ms=50)     # NEW MATCH, the cut: the match is saved
        p.run_until_text("it starts again from the last completed turn", 20000)
        p.run_until_text("Game running", 30000)
        p.run(300)
        said = "".join(c[2] for c in p.chunks[mark:])
        assert "MemoryError: memory allocation failed (injected)" in said
        assert said.count("Game running") == 1 and "plug it in again" not in said
        files = p.files()
        assert "/data/oom_done" in files              # it ran out once ...
        saved, _ = saved_match(files, tmp_path, "after")
        assert saved is not None                      # ... and the match is kept
        p.press("A")                                  # CONTINUE
        p.run(1500)
        assert saved_match(p.files(), tmp_path, "played")[0].startswith(saved)
        assert "Traceback" not in "".join(c[2] for c in p.chunks[mark:])[len(said):]
