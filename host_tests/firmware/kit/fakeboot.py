"""One start of the fake Pico on the MicroPython unix port, as
host_tests/firmware/pico/test_device_bringup.py and
host_tests/firmware/board/test_board_file.py run it: firmware/main.py
exec'd as the board would, with host_tests/firmware/kit/fakes first on
sys.path (machine.py), and a stub firmware.app that steps a few times and
then raises KeyboardInterrupt (or the crash asked for). run_case returns
what the board said and the facts the script printed ("@@ NAME value").
"""

import os

from devutil import ROOT, run_mp

FAKES = os.path.join(ROOT, "host_tests", "firmware", "kit", "fakes")

PRELUDE = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
from tools.sim.fakebus import FakeBus, EIO, ENODEV
from tools.sim.ssd1306_emu import SSD1306Emu
import firmware.board.board as board
import firmware.board.boardcfg as boardcfg
boardcfg.PATH = "board.json"      # the case's folder: the board's /board.json
EMU = None
"""

STUB_APP = r"""
import time
from firmware.display import fb
from firmware import buttons as btn

MATCH_SCREENS = ()      # what firmware.pico.pico.preload imports: none here


def class_of_screen(name):
    raise ValueError("the stub app has no screens")

class StubSaving:               # as firmware.saves.saving.Saving: what the device loop reads
    def __init__(self):
        self.records = None
        self.failing = None
        self.saved_at = SAVED_AT   # the clock at the last save of a turn, 0 before


class Ports:                    # as firmware.app.Ports: what firmware.pico.pico gives the App
    def __init__(self, display, buttons, clock, storage, seed=None, **kw):
        self.display = display
        self.buttons = buttons
        self.clock = clock
        self.storage = storage
        self.seed = seed


class StubApp:
    def __init__(self, ports):
        global APP
        APP = self
        self.display = ports.display
        self.buttons = ports.buttons
        self.clock = ports.clock
        self.storage = ports.storage
        self.seed = ports.seed
        self.n = 0
        self.went = None
        self.screen = None
        self.events = []
        self.saving = StubSaving()
        self.canvas = fb.Canvas()
        self.canvas.text(b"HELLO PICO", 0, 0, 1, fb.BIG)
        self.canvas.fill_rect(100, 40, 20, 20, 1)

    def start(self):
        pass

    def go(self, name, **kw):          # as App.go: the HARDWARE page at boot
        self.screen = None
        self.went = name

    def step(self):
        self.n += 1
        if self.n == 2:   # a tap of A between frames, sampled by the timer only
            machine.LEVELS[14] = 0
            for _ in range(5):
                machine.fire_timers()
                time.sleep_ms(3)
            machine.LEVELS[14] = 1
            for _ in range(5):
                machine.fire_timers()
                time.sleep_ms(3)
        if self.n == 3:
            exec(getattr(machine, "AT_3", ""))    # a case's own step
            # the sampler's ticks: a number, or [(ticks, BOOTSEL down)...]
            phases = getattr(machine, "FIRE_AT_3", 0)
            for n, down in ([(phases, None)] if isinstance(phases, int) else phases):
                if down is not None:
                    import rp2
                    rp2.BOOTSEL[0] = down
                for _ in range(n):
                    machine.fire_timers()
            self.buttons.poll(self.clock())
            ev = self.buttons.event()
            while ev:
                self.events.append(btn.event_name(ev))
                ev = self.buttons.event()
        self.display.show(self.canvas.buf)
        if self.n == STEPS:
            if CRASH == "memory":
                raise MemoryError("memory allocation failed, allocating 1148 bytes")
            if CRASH:
                raise ValueError("stub app failed")
            raise KeyboardInterrupt
        return 20
"""

RUN_MAIN = r"""
APP = None
try:
    exec(open(%(main)r).read(), {"__name__": "__main__"})
except SystemExit:
    pass
import stub_app_mod
app = stub_app_mod.APP
print("@@ LOG", machine.LOG)
print("@@ LED", machine.LED)
print("@@ RUNNING_TIMERS", [t.period for t in machine.TIMERS if t.running])
if app is not None:
    d = app.display
    print("@@ HEADLESS", d.headless)
    print("@@ STEPS", app.n)
    print("@@ WENT", app.went)
    print("@@ EVENTS", app.events)
    print("@@ SEED", 0 <= app.seed < (1 << 30))
    print("@@ ROOT", app.storage.root)
if EMU is not None:
    if app is not None:
        print("@@ PICTURE", EMU.display_on and bytes(EMU.image()) == bytes(app.canvas.buf))
    print("@@ LIT", sum(bin(b).count("1") for b in EMU.image()))
"""


def run_case(tmp_path, setup, steps=4, crash=False, saved_at=0, after=""):
    (tmp_path / "stub_app_mod.py").write_text(
        "import sys, machine\nSTEPS = %d\nCRASH = %r\nSAVED_AT = %d\nAPP = None\n"
        % (steps, crash, saved_at) + STUB_APP)
    script = (PRELUDE % {"fakes": FAKES, "repo": ROOT}
              + setup + "\n"
              + "import stub_app_mod\nsys.modules['firmware.app'] = stub_app_mod\n"
              + "stub_app_mod.App = stub_app_mod.StubApp\n"
              + RUN_MAIN % {"main": os.path.join(ROOT, "firmware", "main.py")}
              + after)
    path = tmp_path / "case.py"
    path.write_text(script)
    r = run_mp(str(path), cwd=str(tmp_path), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    text = r.stdout
    facts = {}
    said = []
    for line in text.splitlines():
        if line.startswith("@@ "):
            k, _, v = line[3:].partition(" ")
            facts[k] = v
        else:
            said.append(line)
    return "\n".join(said), facts, r.stderr
