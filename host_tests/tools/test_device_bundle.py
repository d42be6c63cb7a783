"""Issue 4, "what it must show" 4: the .mpy bundle that `make flash` copies
imports and plays an AI-vs-AI match on the MicroPython unix port.

The bundle is built by `tools/deploy/deploy.py --build-only` (into a temporary
folder); MicroPython then runs with that folder as its only import path
(chdir there, every other sys.path entry removed but the fake `machine`), so
nothing can come from the .py sources. The match it plays must be the same,
move for move, as the one CPython plays from the sources.
"""

import os
import subprocess
import sys

import pytest

from devutil import ROOT, run_mp

FAKES = os.path.join(ROOT, "host_tests", "firmware", "kit", "fakes")
SEEDS = (1, 2024)

PLAY = r"""
def play(engine, Player, seed):
    m = engine.Match(seed=seed)
    players = (Player("hard", seed + 1), Player("normal", seed + 2))
    n = 0
    while m.phase != "match_over":
        if m.phase == "hand_over":
            why = m.next_hand()
            assert why is None, why
            continue
        seat = m.to_move
        a = players[seat].choose(m.view(seat))
        why = m.act(a)
        assert why is None, (seat, a, why)
        n += 1
        assert n < 20000, "match does not end"
    return m
"""

BUNDLE_SCRIPT = r"""
import sys, os
BUNDLE = %(bundle)r
os.chdir(BUNDLE)
del sys.path[:]
sys.path.append("")
sys.path.append(%(fakes)r)   # only machine.py there, for firmware.pico.pico
import machine
machine.setup()

MODULES = %(modules)r
for name in MODULES:
    __import__(name)
    mod = sys.modules[name]
    f = getattr(mod, "__file__", "")
    assert f.endswith(".mpy"), (name, f)
print("imported", len(MODULES), "modules, all .mpy")
""" + PLAY + r"""
import engine
from engine.ai import Player
for seed in %(seeds)r:
    m = play(engine, Player, seed)
    print("RESULT seed=%%d winner=%%d scores=%%d-%%d hands=%%d" %% (
        seed, m.winner, m.scores[0], m.scores[1], len(m.hands)))
    print("RECORD", engine.record_text(m).replace("\n", "|"))
"""


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    out = tmp_path_factory.mktemp("bundle")
    r = subprocess.run([sys.executable, "-m", "tools.deploy.deploy",
                        "--build-only", "--out", str(out)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    return str(out)


def bundle_files(bundle):
    out = []
    for d, _, files in os.walk(bundle):
        for f in files:
            out.append(os.path.relpath(os.path.join(d, f), bundle).replace(os.sep, "/"))
    return sorted(out)


def test_bundle_is_mpy_plus_main(bundle):
    files = bundle_files(bundle)
    assert "main.py" in files
    assert [f for f in files if f.endswith(".py")] == ["main.py"]
    from tools.deploy.deploy import HOST_ONLY
    left_out = tuple(p.replace(os.sep, "/") for p in HOST_ONLY)
    assert "engine/verify.py" in left_out and "engine/cut.py" not in left_out
    want = []
    for pkg in ("engine", "firmware"):
        for d, dirs, fs in os.walk(os.path.join(ROOT, pkg)):
            dirs[:] = [x for x in dirs if x != "__pycache__"]
            for f in fs:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(d, f), ROOT).replace(os.sep, "/")
                    # /main.py, the release firmware's own main.py, and what only
                    # a host uses (the record checker and reader, keyscript)
                    if rel not in left_out + ("firmware/main.py", "firmware/pico/romboot.py"):
                        want.append(rel[:-3] + ".mpy")
    from tools.deploy import buildinfo
    if buildinfo.dev_commit(ROOT):          # a development version names its commit
        want.append("engine/build_commit.mpy")
    assert sorted(f for f in files if f.endswith(".mpy")) == sorted(want)
    with open(os.path.join(bundle, "main.py")) as a, \
            open(os.path.join(ROOT, "firmware", "main.py")) as b:
        assert a.read() == b.read()


def run_bundle(bundle, tmp_path):
    modules = sorted(f[:-4].replace("/", ".").replace(".__init__", "")
                     for f in bundle_files(bundle) if f.endswith(".mpy"))
    script = tmp_path / "play_bundle.py"
    script.write_text(BUNDLE_SCRIPT % {"bundle": bundle, "fakes": FAKES, "modules": modules,
                                       "seeds": SEEDS})
    r = run_mp(str(script), cwd=str(tmp_path), timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


@pytest.fixture(scope="module")
def bundle_run(bundle, tmp_path_factory):
    return run_bundle(bundle, tmp_path_factory.mktemp("run"))


def test_every_bundle_module_imports_from_mpy(bundle_run):
    assert "modules, all .mpy" in bundle_run


def test_bundle_plays_an_ai_match_to_the_end(bundle_run):
    results = [l for l in bundle_run.splitlines() if l.startswith("RESULT")]
    print("\n".join(results))
    assert len(results) == len(SEEDS)
    for line in results:
        assert " winner=" in line


def test_bundle_match_equals_the_cpython_match(bundle_run):
    import engine
    from engine.ai import Player

    ns = {}
    exec(PLAY, ns)
    want = []
    for seed in SEEDS:
        m = ns["play"](engine, Player, seed)
        want.append(engine.record_text(m).replace("\n", "|"))
    got = [l[len("RECORD "):] for l in bundle_run.splitlines() if l.startswith("RECORD ")]
    assert got == want
