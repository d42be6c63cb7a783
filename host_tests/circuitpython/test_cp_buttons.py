"""Issue 9, check 2 (buttons): keypad events injected into fake keypad.Keys
come out of cpkeys.KeypadButtons as the game's button events; the clock
port keeps time across supervisor.ticks_ms()'s 2**29 wrap."""

import keypad
import supervisor

import cpclock
import cphw
import cpkeys
from firmware.board import board as cfg
from firmware import buttons as btn


class Rig:
    def __init__(self, start=1000):
        supervisor.set_ms(start)
        self.keys = keypad.Keys([cphw.pin(n) for n in cfg.BUTTON_PINS],
                                value_when_pressed=False, pull=True)
        self.clock = cpclock.Clock()
        self.b = cpkeys.KeypadButtons(self.keys, self.clock)

    def at(self, ms):
        supervisor.set_ms(ms)

    def poll(self, ms):
        """One frame at `ms`: poll, then every waiting event."""
        self.at(ms)
        self.b.poll(self.clock())
        out = []
        ev = self.b.event()
        while ev:
            out.append(btn.event_name(ev))
            ev = self.b.event()
        return out

    def key(self, name):
        return btn.NAMES.index(name)


def test_keys_are_made_on_the_six_pins_active_low_with_pull_ups(monkeypatch):
    keys = cpkeys.make_keys()
    assert [p.name for p in keys.pins] == ["GP10", "GP11", "GP12", "GP13", "GP14", "GP15"]
    assert keys.value_when_pressed is False and keys.pull is True


def test_a_direction_press_is_reported_once_debounced():
    r = Rig()
    r.keys.press(r.key("LEFT"), supervisor.ticks_ms())
    assert r.poll(1002) == ["LEFT"]    # keypad debounced it: taken at once
    assert r.poll(1010) == []
    r.keys.release(r.key("LEFT"), 1060)
    assert r.poll(1070) == []


def test_a_tap_between_two_frames_is_still_one_press():
    r = Rig()
    r.keys.press(r.key("A"), 1005)
    r.keys.release(r.key("A"), 1030)   # keypad: at least one 20 ms scan apart
    assert r.poll(1040) == ["A"]
    r.keys.press(r.key("RIGHT"), 1100)
    r.keys.release(r.key("RIGHT"), 1125)
    assert r.poll(1200) == ["RIGHT"]
    assert r.b.held() == 0


def test_holding_a_is_a_long_press_and_nothing_on_release():
    r = Rig()
    r.keys.press(r.key("A"), 1000)
    assert r.poll(1010) == []
    assert r.poll(1500) == []
    assert r.poll(1620) == ["LONG_A"]
    r.keys.release(r.key("A"), 1700)
    assert r.poll(1710) == []


def test_left_repeats_while_held():
    r = Rig()
    r.keys.press(r.key("LEFT"), 1000)
    got = []
    for t in range(1000, 1700, 10):
        got += r.poll(t)
    assert got.count("LEFT") == 1 + 1 + 2   # press, 400 ms, then every 120 ms


def test_two_buttons_in_one_frame():
    r = Rig()
    r.keys.press(r.key("UP"), 1000)
    r.keys.press(r.key("B"), 1003)
    r.keys.release(r.key("B"), 1030)
    assert sorted(r.poll(1040)) == ["B", "UP"]


def test_an_overflowed_queue_is_reset_and_held_keys_come_back():
    r = Rig()
    r.keys.events.max_events = 4
    for t in range(0, 12, 2):          # more changes than the queue holds
        r.keys.press(r.key("DOWN"), 1000 + 10 * t)
        r.keys.release(r.key("DOWN"), 1005 + 10 * t)
    r.keys.press(r.key("DOWN"), 1200)
    assert r.keys.events.overflowed
    r.poll(1210)
    assert not r.keys.events.overflowed
    assert r.b.mask == 1 << r.key("DOWN")  # reset() reported the held key again


def test_draining_allocates_no_event_objects(monkeypatch):
    r = Rig()
    made = []
    monkeypatch.setattr(keypad.EventQueue, "get", lambda self: made.append(1))
    r.keys.press(r.key("A"), 1000)
    r.keys.release(r.key("A"), 1030)
    assert r.poll(1040) == ["A"]
    assert made == []                  # get_into the one preallocated Event


def test_clock_runs_on_across_the_ticks_ms_wrap():
    supervisor.set_ms((1 << 29) - 50)
    c = cpclock.Clock()
    t0 = c()
    supervisor.advance(100)            # ticks_ms wrapped to 50
    assert supervisor.ticks_ms() == 50
    t1 = c()
    assert btn.ticks_diff(t1, t0) == 100
    assert 0 <= t1 < (1 << 30)
    for _ in range(5):                 # more wraps, read every 2**28 ms
        supervisor.advance(1 << 28)
        t2 = c()
        assert btn.ticks_diff(t2, t1) == 1 << 28
        assert 0 <= t2 < (1 << 30)
        t1 = t2


def test_event_timestamps_map_into_the_clock_across_the_wrap():
    supervisor.set_ms((1 << 29) - 10)
    c = cpclock.Clock()
    c()
    stamp = supervisor.ticks_ms()      # an event 10 ms before the wrap
    supervisor.advance(30)
    now = c()
    assert btn.ticks_diff(now, c.at(stamp)) == 30


def test_a_press_across_the_wrap_is_one_press():
    r = Rig(start=(1 << 29) - 12)
    r.keys.press(r.key("B"), supervisor.ticks_ms())
    r.poll((1 << 29) - 5)
    r.keys.release(r.key("B"), 20)     # after the wrap
    assert r.poll((1 << 29) + 30) == ["B"]


def test_wait_returns_early_at_a_press():
    r = Rig()
    slept = []

    def sleep(s):
        slept.append(s)
        supervisor.advance(int(s * 1000))
        if len(slept) == 3:
            r.keys.press(r.key("A"), supervisor.ticks_ms())
        if len(slept) == 5:
            r.keys.release(r.key("A"), supervisor.ticks_ms())

    cpkeys.wait(r.b, r.clock, 60000, sleep)
    assert len(slept) < 10
    assert r.b.event() == btn.A
