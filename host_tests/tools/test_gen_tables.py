"""engine/tables.py is what tools/ailab/gen_tables.py writes (its --check),
and --check tells a stale file from a fresh one."""
import os
import shutil
import subprocess
import sys

import pytest

from tools.ailab import gen_tables

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_engine_tables_are_up_to_date():
    r = subprocess.run([sys.executable, "-m", "tools.ailab.gen_tables", "--check"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "up to date" in r.stdout


def test_check_fails_on_a_stale_table(tmp_path, capsys):
    stale = tmp_path / "tables.py"
    shutil.copy(gen_tables.OUT, stale)
    text = stale.read_text()
    i = text.index('b"', text.index("DROP")) + 2      # one byte of DROP changed
    stale.write_text(text[:i] + ("A" if text[i] != "A" else "B") + text[i + 1:])
    with pytest.raises(SystemExit) as e:
        gen_tables.main(["--check"], out=str(stale))
    assert e.value.code == 1
    assert "STALE" in capsys.readouterr().out


def test_writing_then_checking_agrees(tmp_path, capsys):
    out = tmp_path / "tables.py"
    gen_tables.main([], out=str(out))
    with pytest.raises(SystemExit) as e:
        gen_tables.main(["--check"], out=str(out))
    assert e.value.code == 0
