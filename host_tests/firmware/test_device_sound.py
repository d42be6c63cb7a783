"""The optional piezo buzzer: firmware/sound.py's sequencer, the PWM pin
in pico (fake `machine` on the MicroPython unix port), the mute setting,
and the simulator's --sound."""

import os
import subprocess
import sys

from devutil import ROOT, run_mp
from firmware.sound import TUNES, Sound

FAKES = os.path.join(ROOT, "host_tests", "firmware", "kit", "fakes")


class Clock:
    def __init__(self):
        self.t = 5000

    def __call__(self):
        return self.t


def rig():
    clock = Clock()
    tones = []
    snd = Sound(lambda hz: tones.append((clock.t, hz)), clock)
    return clock, tones, snd


def run_for(clock, snd, ms, step=2):
    for _ in range(ms // step):
        clock.t += step
        snd.update(clock.t)


def test_every_game_sound_is_short():
    for name in ("draw", "discard", "knock", "gin", "win", "lose", "error"):
        notes = TUNES[name]
        assert len(notes) % 2 == 0
        assert sum(notes[1::2]) <= 600, name
        assert all(0 <= f <= 5000 for f in notes[0::2])


def test_play_starts_at_once_and_the_timer_ends_the_notes():
    clock, tones, snd = rig()
    snd.play("knock")                      # 659 60, rest 40, 659 60
    assert tones == [(5000, 659)] and snd.playing
    run_for(clock, snd, 300)
    assert tones == [(5000, 659), (5060, 0), (5100, 659), (5160, 0)]
    assert not snd.playing and snd.last == "knock"


def test_a_new_sound_cuts_the_one_playing():
    clock, tones, snd = rig()
    snd.play("win")
    run_for(clock, snd, 20)
    snd.play("draw")
    run_for(clock, snd, 100)
    assert [hz for _, hz in tones] == [523, 1568, 0]


def test_unknown_names_are_ignored_and_stop_silences():
    clock, tones, snd = rig()
    snd.play("fanfare")
    assert tones == [] and not snd.playing
    snd.play("gin")
    snd.stop()
    assert tones[-1][1] == 0 and not snd.playing


def test_the_app_plays_sounds_unless_muted():
    from tools.sim.simulator import MemStorage, Sim, SimSound

    sim = Sim(seed=4, storage=MemStorage(), sound=SimSound())
    sim.settle()
    sim.keys("A A")                         # new match, draw from the stock
    assert sim.sound.played[:1] == ["draw"]
    muted = Sim(seed=4, storage=MemStorage(), sound=SimSound(), settings={"sound": 0})
    muted.settle()
    muted.keys("A A")
    assert muted.sound.played == []
    assert muted.app.screen_name == sim.app.screen_name == "play"


def test_simulator_is_silent_unless_asked(tmp_path):
    cmd = [sys.executable, "-m", "tools.sim.simulator", "--saves", str(tmp_path), "--keys", "A A"]
    quiet = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    loud = subprocess.run(cmd + ["--sound"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert quiet.returncode == loud.returncode == 0, quiet.stderr + loud.stderr
    assert "sounds:" not in quiet.stdout and "\a" not in quiet.stdout
    assert loud.stdout.splitlines()[-1].startswith("sounds: draw")


UPDATE_NO_ALLOC = r"""
import sys, micropython
sys.path.insert(0, %(repo)r)
from firmware.sound import Sound
t = [0]
log = bytearray(8)
def tone(hz):
    log[0] = 1 if hz else 0
snd = Sound(tone, lambda: t[0])
snd.play("gin")
res = [0]
def locked():
    micropython.heap_lock()
    try:
        for now in range(0, 400, 2):
            snd.update(now)
    finally:
        micropython.heap_unlock()
locked()
print("@@", snd.playing, log[0])
"""


def test_update_allocates_nothing_on_micropython(tmp_path):
    path = tmp_path / "s.py"
    path.write_text(UPDATE_NO_ALLOC % {"repo": ROOT})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "@@ False 0" in r.stdout


BUZZER = r"""
import sys, time
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
from tools.sim.fakebus import FakeBus
machine.setup(bus=FakeBus.with_display(0x3C)[0])
import firmware.board.board as board
board.BUZZER_PIN = %(pin)r
if %(broken)r:
    def _no_pwm(pin, *a, **k):
        raise ValueError("no PWM on this pin")
    machine.PWM = _no_pwm
from firmware.display import fb
from firmware.pico import pico

class Saving:          # what the device loop sets and reads (firmware.saves.saving.Saving)
    records = None
    saved_at = 0
    failing = None


class Stub:
    def __init__(self, ports):
        self.saving = Saving()
        self.sound = ports.sound
        self.n = 0

    def start(self):
        pass

    def step(self):
        self.n += 1
        if self.n == 1 and self.sound is not None:
            self.sound.play("gin")              # returns at once
            print("@@ PLAYING", self.sound.playing)
        if self.n == 2 and self.sound is not None:
            for _ in range(200):                # 400 ms of 2 ms timer ticks
                machine.fire_timers()
                time.sleep_ms(2)
            print("@@ AFTER", self.sound.playing)
        if self.n == 3:
            if self.sound is not None:
                self.sound.play("lose")         # still sounding at Ctrl-C
            raise KeyboardInterrupt
        return 1

pico.run(app_factory=Stub, root=%(root)r)
print("@@ LOG", [e for e in machine.LOG if e[0].startswith("pwm")])
"""


def buzzer_case(tmp_path, pin, broken=False):
    path = tmp_path / "bz.py"
    path.write_text(BUZZER % {"fakes": FAKES, "repo": ROOT, "pin": pin, "broken": broken,
                              "root": str(tmp_path / "data")})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    facts = {}
    said = []
    for line in r.stdout.splitlines():
        if line.startswith("@@ "):
            k, _, v = line[3:].partition(" ")
            facts[k] = v
        else:
            said.append(line)
    return "\n".join(said), facts


def test_buzzer_on_a_pwm_pin_plays_without_waiting_and_is_silenced_at_the_end(tmp_path):
    said, f = buzzer_case(tmp_path, 16)
    assert "Buzzer on GP16 (pin 21) (mute it in SETTINGS > SOUND)." in said
    assert f["PLAYING"] == "True" and f["AFTER"] == "False"
    log = eval(f["LOG"])
    assert log[0] == ("pwm_init", 16)
    sounding = [e[2] for e in log if e[0] == "pwm" and e[3]]
    assert sounding[:4] == [784, 988, 1175, 1568]         # the gin tune, in order
    assert ("pwm", 16, 392, 0x8000) in log                 # 'lose' started...
    assert log[-2:] == [("pwm", 16, 392, 0), ("pwm_deinit", 16)]   # ...and silenced


def test_no_buzzer_by_default(tmp_path):
    said, f = buzzer_case(tmp_path, None)
    assert "Buzzer" not in said and "PLAYING" not in f
    assert eval(f["LOG"]) == []


def test_a_buzzer_pin_without_pwm_is_reported_and_the_game_runs_silent(tmp_path):
    said, f = buzzer_case(tmp_path, 16, broken=True)
    assert ("The buzzer on GP16 (pin 21) could not be used (no PWM on this pin); playing "
            "without sound. Check \"buzzer\" in /board.json (null: no buzzer).") in said
    assert "PLAYING" not in f and "Stopped by Ctrl-C" in said
