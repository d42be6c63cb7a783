"""code.py on the fake board (safe boot, a normal boot that plays), and the
deploy to a CIRCUITPY drive (files, stale cleanup, the circup command; circup
itself is not run: it downloads library bundles)."""

import os
import runpy
import subprocess
import sys
import time

import pytest

import board
import busio
import cpports
import microcontroller
import supervisor

from tools.deploy import deploy_circuitpython as dep
from tools.kit import cpenv
from tools.kit.ui_driver import title_entries
from tools.sim.simulator import Sim

CODE = os.path.join(dep.CPDIR, "code.py")
FAKES = cpenv.FAKES


@pytest.fixture
def fake_time(monkeypatch):
    """time.sleep advances the fake supervisor clock instead of sleeping."""
    slept = []

    def sleep(s):
        slept.append(s)
        supervisor.advance(max(1, int(s * 1000)))

    monkeypatch.setattr(time, "sleep", sleep)
    return slept


def run_code_py(capsys):
    runpy.run_path(CODE, run_name="__main__")
    return capsys.readouterr().out


def test_safe_boot_skips_the_game(monkeypatch, capsys, fake_time):
    board.GP15.level = 0                 # B held (active low)
    monkeypatch.setattr(cpports, "run", lambda *a, **k: pytest.fail("the game started"))
    out = run_code_py(capsys)
    assert "Safe boot" in out and "REPL is free" in out
    img = busio.last_bus.devices[0x3C].image()
    assert any(img)                      # SAFE BOOT on the panel
    assert microcontroller.nvm.writes == 0


def test_a_short_b_glitch_at_boot_is_not_a_safe_boot(monkeypatch, capsys, fake_time):
    monkeypatch.setattr(cpports, "MAX_STEPS", 3)
    out = run_code_py(capsys)
    assert "Safe boot" not in out and "Game running" in out


def made_keys(monkeypatch):
    """The list every cpports.make_keys call appends its keys to."""
    made = []
    real_keys = cpports.make_keys

    def keys(cfg):
        k = real_keys(cfg)
        made.append(k)
        return k

    monkeypatch.setattr(cpports, "make_keys", keys)
    return made


def test_boot_shows_the_title_and_a_press_starts_a_match(monkeypatch, capsys, fake_time):
    monkeypatch.setattr(cpports, "MAX_STEPS", 60)
    made = made_keys(monkeypatch)
    title = []

    def sleep(s):
        supervisor.advance(max(1, int(s * 1000)))
        if busio.last_bus is None:       # code.py's safe-boot check: no bus yet
            return
        emu = busio.last_bus.devices[0x3C]
        if not title and any(emu.image()):
            title.append(bytes(emu.image()))
            made[0].press(4)             # A: NEW MATCH
        elif title and made[0].down:
            made[0].release(4)

    monkeypatch.setattr(time, "sleep", sleep)
    out = run_code_py(capsys)
    assert "Display: SSD1306 at 0x3C" in out and "Game running" in out
    sim = Sim(seed=1)
    sim.settle()
    assert title and title[0] == sim.image()   # the same title screen as the simulator
    st = cpports.NvmStorage(microcontroller.nvm)
    assert st.load("game")[0] is not None     # the new match's secret went into the nvm
    assert made[0].deinited                   # the pins are freed at the end
    # the new match waits for the player's cut: its secret and AI seed
    # from the board's entropy (os.urandom), saved before its commitment
    # is shown (firmware/cutwait.py)
    from firmware.saves import gamesave

    g = gamesave.decode(st.load("game")[0])
    assert g.match is None and g.wait is not None and not g.wait.box
    assert len(g.wait.secret) == 16 and g.wait.secret != bytes(16) and 0 <= g.wait.ai_seed


def test_boot_opens_one_title(monkeypatch, capsys, fake_time):
    # the App is made with its ports, then started: the title is entered
    # once, and drawn once, at power-on
    entered = title_entries(monkeypatch)
    monkeypatch.setattr(cpports, "MAX_STEPS", 5)
    apps = []
    real_new_app = cpports.new_app

    def new_app(*a):
        apps.append(real_new_app(*a))
        return apps[-1]

    monkeypatch.setattr(cpports, "new_app", new_app)
    out = run_code_py(capsys)
    assert "Game running" in out
    assert entered == [0] and apps[0].screen_name == "title" and apps[0].full_frames == 1


def test_no_display_runs_headless_with_advice(monkeypatch, capsys, fake_time):
    monkeypatch.setattr(busio, "default_devices", lambda: {})
    monkeypatch.setattr(cpports, "MAX_STEPS", 3)
    out = run_code_py(capsys)
    assert "No display found: nothing answered on SDA GP4, SCL GP5." in out
    assert "Check: display VCC" in out and "Game running" in out


def test_display_at_0x3d_is_found(monkeypatch, capsys, fake_time):
    from tools.sim.ssd1306_emu import SSD1306Emu

    monkeypatch.setattr(busio, "default_devices", lambda: {0x3D: SSD1306Emu()})
    monkeypatch.setattr(cpports, "MAX_STEPS", 5)
    out = run_code_py(capsys)
    assert "Display found at 0x3D (board.py says 0x3C)" in out
    assert any(busio.last_bus.devices[0x3D].image())


def test_board_file_sets_the_pins_and_a_bad_value_gets_one_line(monkeypatch, capsys, fake_time,
                                                                 tmp_path):
    # /board.json as on MicroPython (firmware/board/boardcfg.py): buttons to 3V3,
    # A on GP20, and a pin out of range that falls back to its default
    from firmware.board import boardcfg
    from engine.version import VERSION

    path = tmp_path / "board.json"
    path.write_text('{"buttons_active_low": false, "btn_a": 20, "btn_b": 99}')
    monkeypatch.setattr(boardcfg, "PATH", str(path))
    made = made_keys(monkeypatch)
    monkeypatch.setattr(cpports, "MAX_STEPS", 3)
    out = run_code_py(capsys)
    assert "Gin Rummy " + VERSION in out
    lines = [s for s in out.splitlines() if s.startswith("board.json")]
    assert lines == ["board.json: btn_b = 99 is not a GPIO of the RP2040 (0..29): "
                     "using 15 (the default)."]
    assert "Game running" in out
    k = made[0]
    assert k.value_when_pressed is True
    assert k.pins == tuple(getattr(board, "GP%d" % n) for n in (10, 11, 12, 13, 20, 15))


# -- deploy --

def make_drive(tmp_path, version="9.2.1"):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text(
        "Adafruit CircuitPython %s on 2024-11-20; Raspberry Pi Pico with rp2040\n"
        "Board ID:raspberry_pi_pico\n" % version)
    return d


def test_bundle_is_what_the_ports_import():
    files = dep.bundle_files()
    for f in ("firmware/app.py", "firmware/display/fb.py", "firmware/buttons.py",
              "firmware/saves/storage.py", "firmware/board/board.py", "firmware/screens/play.py",
              "firmware/screens/title.py", "engine/__init__.py", "engine/ai/__init__.py",
              "engine/ai/player.py"):
        assert f in files
    for f in ("firmware/pico/pico.py", "firmware/main.py", "firmware/display/ssd1306.py"):
        assert f not in files            # MicroPython only (machine, framebuf driver)


def test_deploy_copies_the_game_and_gives_circup_the_requirements(tmp_path):
    drive = make_drive(tmp_path)
    (drive / "lib").mkdir()
    (drive / "lib" / "keep.mpy").write_bytes(b"x")
    (drive / "settings.toml").write_text("X=1\n")
    (drive / "engine").mkdir()
    (drive / "engine" / "gone.py").write_text("stale")
    (drive / "firmware").mkdir()
    (drive / "firmware" / "app.mpy").write_bytes(b"stale")
    ran = []
    lines = []
    copied, removed, cmd = dep.deploy(str(drive), out=lines.append,
                                      run=lambda c: ran.append(c) or subprocess.CompletedProcess(c, 0))
    assert (drive / "code.py").read_bytes() == open(CODE, "rb").read()
    for f in ("cpports.py", "cpnvm.py", "cpkeys.py", "cpdisplay.py", "cpclock.py",
              "cphw.py", "cpsafe.py", "boot.py"):
        assert (drive / f).exists(), f
    assert (drive / "firmware" / "screens" / "play.py").exists()
    assert not (drive / "firmware" / "pico.py").exists()
    assert removed == ["engine/gone.py", "firmware/app.mpy"]
    assert not (drive / "engine" / "gone.py").exists()
    assert (drive / "lib" / "keep.mpy").exists() and (drive / "settings.toml").exists()
    assert ran == [cmd]
    assert cmd[-5:] == ["--path", str(drive), "install", "-r", dep.REQUIREMENTS]
    assert os.path.basename(cmd[0]) == "circup"
    # Again: nothing differs, nothing is written.
    copied2, removed2, _ = dep.deploy(str(drive), out=lines.append,
                                      run=lambda c: subprocess.CompletedProcess(c, 0))
    assert copied2 == [] and removed2 == []


def test_requirements_name_the_display_driver():
    with open(dep.REQUIREMENTS) as f:
        names = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    assert "adafruit_displayio_ssd1306" in names


def test_dry_run_changes_nothing(tmp_path):
    drive = make_drive(tmp_path)
    lines = []
    copied, _, cmd = dep.deploy(str(drive), dry_run=True, out=lines.append,
                                run=lambda c: pytest.fail("ran circup"))
    assert "code.py" in copied
    assert sorted(os.listdir(drive)) == ["boot_out.txt"]
    assert any(ln.startswith("would run: ") and "install -r" in ln for ln in lines)


def test_deploy_refuses_what_is_not_a_circuitpython_9_drive(tmp_path):
    with pytest.raises(SystemExit, match="boot_out.txt"):
        dep.deploy(str(tmp_path), out=lambda s: None)
    with pytest.raises(SystemExit, match="DRIVE="):
        dep.deploy("", out=lambda s: None)
    old = make_drive(tmp_path, version="8.2.10")
    with pytest.raises(SystemExit, match="CircuitPython 9 or later"):
        dep.deploy(str(old), out=lambda s: None)


def test_the_copied_drive_boots_on_its_own(tmp_path):
    """code.py from the drive, with nothing of the repository on sys.path but
    the fakes: the copied files are all the game needs."""
    drive = make_drive(tmp_path)
    dep.deploy(str(drive), circup=False, out=lambda s: None)
    script = r'''
import sys, time
sys.path[:0] = [%r, %r]
import busio, supervisor, displayio
displayio._stop_background()
class Sink:
    def write(self, data):
        pass
busio.default_devices = lambda: {0x3C: Sink()}
time.sleep = lambda s: supervisor.advance(max(1, int(s * 1000)))
import cpports
cpports.MAX_STEPS = 5
import runpy
runpy.run_path("code.py", run_name="__main__")
mods = [m.__file__ for m in list(sys.modules.values())
        if getattr(m, "__name__", "").split(".")[0] in ("engine", "firmware", "cpports")]
assert all(f.startswith(%r) for f in mods), mods
print("modules from the drive:", len(mods))
''' % (str(drive), FAKES, str(drive))
    r = subprocess.run([sys.executable, "-c", script], cwd=str(drive), capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Game running" in r.stdout and "modules from the drive:" in r.stdout


def test_boot_py_gives_the_drive_to_the_game_unless_b_is_held(fake_time):
    import storage

    boot = os.path.join(dep.CPDIR, "boot.py")
    storage.remounts.clear()
    runpy.run_path(boot, run_name="__main__")
    assert storage.remounts == [("/", False)] and not storage.getmount("/").readonly
    storage.getmount("/").readonly = True
    storage.remounts.clear()
    board.GP15.level = 0                 # B held: the computer may write the drive
    runpy.run_path(boot, run_name="__main__")
    assert storage.remounts == [] and storage.getmount("/").readonly


def test_the_game_keeps_a_backup_file_when_the_drive_is_writable(monkeypatch, capsys,
                                                                  fake_time, tmp_path):
    import storage

    import cpnvm

    storage.getmount("/").readonly = False
    monkeypatch.setattr(cpnvm, "BACKUP_PATH", str(tmp_path / "saves-backup.bin"))
    monkeypatch.setattr(cpports, "BACKUP_PATH", str(tmp_path / "saves-backup.bin"))
    monkeypatch.setattr(cpports, "MAX_STEPS", 3)
    out = run_code_py(capsys)
    assert "Game running" in out and "read-only" not in out
    storage.getmount("/").readonly = True
    out = run_code_py(capsys)
    assert "The CIRCUITPY drive is read-only for the game" in out
