"""Contributors' tools: ruff passes over the tree with the project's rules
(pyproject.toml; `make lint`), and an editor's pyright resolves
MicroPython's own modules (machine, framebuf, micropython ...) in firmware/
from the pinned rp2 stubs (requirements-stubs.txt, in .venv/mpstubs)."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYRIGHT = os.path.join(ROOT, "node_modules", ".bin", "pyright")
STUBS = os.path.join(ROOT, ".venv", "mpstubs")


def test_ruff_passes_with_the_project_rules():
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    conf = open(os.path.join(ROOT, "pyproject.toml")).read()
    assert "[tool.ruff.lint]" in conf and "select" in conf


def test_pyright_resolves_the_micropython_modules_in_firmware():
    if not os.path.exists(PYRIGHT):
        pytest.skip("pyright is not installed (npm ci: package.json)")
    for m in ("machine.pyi", "framebuf.pyi", "micropython.pyi"):
        assert os.path.isfile(os.path.join(STUBS, m)), "make venv installs the stubs: " + m
    files = []
    for d, dirs, names in os.walk(os.path.join(ROOT, "firmware")):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            src = open(os.path.join(d, name)).read()
            if any(("import %s" % m) in src or ("from %s " % m) in src
                   for m in ("machine", "framebuf", "micropython")):
                files.append(os.path.relpath(os.path.join(d, name), ROOT))
    assert len(files) >= 3, files
    r = subprocess.run([PYRIGHT, "--outputjson"] + files, cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    out = json.loads(r.stdout)
    missing = [d["message"] for d in out["generalDiagnostics"]
               if d.get("rule") in ("reportMissingImports", "reportMissingModuleSource")]
    assert not missing, missing
    assert out["summary"]["filesAnalyzed"] >= len(files)
