"""tools/sim/simulator.py from the command line, as the README shows it: a
scripted run touches no save unless --saves is given, --png keeps every
frame (the AI's too), a wrong key name gets a usage line; and the terminal
loop sleeps until something is due."""

import os
import subprocess
import sys

from firmware.display import fb
from screen_text import shows
from tools.sim import terminal
from tools.sim.simulator import FakeClock, Sim, host_storage
from tools.kit.ui_driver import play_turn, simple_factory
from ui_golden import png_buf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def simulate(cwd, *args):
    """`python -m tools.sim.simulator ARGS` from the folder `cwd` (the tree
    on PYTHONPATH: the saves folder is the current one's)."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "tools.sim.simulator"] + list(args),
                          cwd=str(cwd), env=env, capture_output=True, text=True, timeout=300)


def tree(d):
    """Every file under d with its bytes and modification time."""
    out = {}
    for base, _, files in os.walk(d):
        for f in files:
            p = os.path.join(base, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, d)] = (fh.read(), os.stat(p).st_mtime_ns)
    return out


def test_scripted_run_leaves_the_saved_match_alone(tmp_path):
    # a match saved by an earlier `make play` in ./saves
    sim = Sim(seed=5, storage=host_storage(str(tmp_path / "saves")),
              player_factory=simple_factory)
    sim.press("A")
    play_turn(sim)
    play_turn(sim)
    before = tree(tmp_path / "saves")
    assert "game.dat" in before
    run = simulate(tmp_path, "--seed", "3", "--keys", "A A A A A")
    assert run.returncode == 0, run.stderr
    assert tree(tmp_path / "saves") == before
    # ... and the same keys give the same screens as with no save at all
    empty = tmp_path / "empty"
    empty.mkdir()
    again = simulate(empty, "--seed", "3", "--keys", "A A A A A")
    assert again.stdout == run.stdout
    assert os.listdir(str(empty)) == []


def test_scripted_run_with_saves_keeps_the_match_there(tmp_path):
    run = simulate(tmp_path, "--seed", "3", "--keys", "A A", "--saves", "mine")
    assert run.returncode == 0, run.stderr
    assert "game.dat" in os.listdir(str(tmp_path / "mine"))
    assert not os.path.exists(str(tmp_path / "saves"))


def test_png_keeps_the_ai_frames_between_key_presses(tmp_path):
    shots = tmp_path / "shots"
    run = simulate(tmp_path, "--seed", "3", "--keys", "A A A", "--png", str(shots))
    assert run.returncode == 0, run.stderr
    names = sorted(os.listdir(str(shots)))
    assert len(names) > 4                       # more than one a key
    pics = [png_buf(str(shots / n)) for n in names]
    assert any(shows(p, b"CPU THINKING", fb.BIG) for p in pics)
    assert any(shows(p, b"CPU DREW STOCK", fb.BIG) or shows(p, b"CPU TOOK", fb.BIG)
               for p in pics)
    assert len(set(pics)) == len(pics)          # one picture per change


def test_an_unknown_key_gets_a_usage_line_not_a_traceback(tmp_path):
    run = simulate(tmp_path, "--keys", "A Q")
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert run.stderr.startswith("usage:")
    assert "unknown key 'Q' in --keys" in run.stderr
    assert not os.path.exists(str(tmp_path / "saves"))


def test_the_terminal_loop_sleeps_until_the_next_timer_when_idle():
    sim = Sim(seed=1, player_factory=simple_factory)
    sim.settle()
    keys = terminal.make_keys(FakeClock())
    assert terminal.next_wait(sim, keys) >= 1.0     # the title: only the dimming is due
    keys.feed(ord("x"))                             # a key queued: pressed at once
    assert terminal.next_wait(sim, keys) <= 0.005
