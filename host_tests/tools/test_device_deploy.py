"""tools/deploy/deploy.py: the mpremote command it runs and the board-side cleanup
(run here on the MicroPython unix port against a folder standing in for the
board's filesystem)."""

import os
import subprocess
import sys

import pytest

from devutil import ROOT, run_mp

from tools.deploy import deploy


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("bundle"))
    return out, deploy.build(out, quiet=True)


def test_mpremote_command_copies_packages_and_main_then_resets(built):
    out, files = built
    args = deploy.mpremote_args("/dev/ttyACM0", files, out)
    assert args[:3] == ["connect", "/dev/ttyACM0", "exec"]
    chain = " ".join(a for a in args[3:] if "\n" not in a)
    assert "+ fs cp -r %s :" % os.path.join(out, "engine") in chain
    assert "+ fs cp -r %s :" % os.path.join(out, "firmware") in chain
    assert "+ fs cp %s :main.py" % os.path.join(out, "main.py") in chain
    assert args[-2:] == ["+", "reset"]


def test_port_is_optional_and_shortcuts_pass_through(built):
    out, files = built
    assert deploy.mpremote_args("", files, out)[0] == "exec"
    assert deploy.mpremote_args("a0", files, out)[:2] == ["a0", "exec"]
    assert deploy.mpremote_args("COM5", files, out)[:2] == ["connect", "COM5"]
    assert "reset" not in deploy.mpremote_args("", files, out, reset=False)


def test_dry_run_prints_the_command(tmp_path):
    r = subprocess.run([sys.executable, "-m", "tools.deploy.deploy", "--dry-run",
                        "--out", str(tmp_path / "b"), "/dev/ttyACM1"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "-m mpremote connect /dev/ttyACM1 exec" in r.stdout
    assert r.stdout.rstrip().endswith("+ reset")


def test_cleanup_removes_stale_files_and_keeps_the_saves(built, tmp_path):
    out, files = built
    board = tmp_path / "board"
    for rel in ("engine/cards.py", "engine/cards.mpy", "engine/gone.mpy",
                "firmware/old/x.mpy", "firmware/screens/title.mpy",
                "data/match.dat", "data/match.bak", "main.py", "boot.py"):
        p = board / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"x")
    script = tmp_path / "clean.py"
    script.write_text(deploy.cleanup_script(files, str(board)))
    r = run_mp(str(script), cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    left = sorted(os.path.relpath(os.path.join(d, f), board).replace(os.sep, "/")
                  for d, _, fs in os.walk(board) for f in fs)
    assert left == ["boot.py", "data/match.bak", "data/match.dat", "engine/cards.mpy",
                    "firmware/screens/title.mpy", "main.py"]
    assert not (board / "firmware" / "old").exists()
    assert "removed stale engine/cards.py" in r.stdout
    assert "mpy v6" in r.stdout and "WARNING" not in r.stdout
