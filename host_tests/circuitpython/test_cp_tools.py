"""make flash-circuitpython and tools/bench/bench_circuitpython.py."""

import subprocess


from tools.deploy import deploy_circuitpython as dep

ROOT = dep.ROOT


def test_make_target_runs_the_deploy_with_the_drive():
    r = subprocess.run(["make", "-n", "flash-circuitpython", "DRIVE=/media/u/CIRCUITPY"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert '-m tools.deploy.deploy_circuitpython "/media/u/CIRCUITPY"' in r.stdout


def test_make_target_without_a_drive_says_how():
    r = subprocess.run(["make", "flash-circuitpython", "VENV_STAMP=", "DRIVE="], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode != 0
    assert "DRIVE=" in r.stdout + r.stderr


def test_bench_prints_both_ports(monkeypatch, capsys):
    from tools.bench import bench_circuitpython as bench

    monkeypatch.setattr(bench, "REPEAT", 1)
    assert bench.main() == 0
    out = capsys.readouterr().out
    assert "CircuitPython port (narrowed), Blinka" in out
    assert "CircuitPython plain seam (full frames), Blinka" in out
    if bench.micropython_path():
        assert "MicroPython port ssd1306.show(), unix port" in out
    assert "1040 bytes" in out                 # the plain seam's full frame
