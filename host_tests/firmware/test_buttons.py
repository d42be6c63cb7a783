"""Button input rules (firmware/buttons.py), driven by a scripted clock."""

from firmware import buttons as bt
from firmware.buttons import (A, B, DOWN, LEFT, LONG_A, LONG_B, NONE, RIGHT, UP,
                              Buttons, event_name, ticks_diff)
from fwtest_util import run_micropython


class Pad:
    """Pins as a timeline: changes = [(t_ms, mask), ...]."""

    def __init__(self, changes):
        self.changes = sorted(changes)
        self.now = 0

    def read(self):
        m = 0
        for t, mask in self.changes:
            if t <= self.now:
                m = mask
        return m


def simulate(changes, end, sample_every=1, frame_every=33, start=0, **kw):
    """Sample every `sample_every` ms (0: only at frames), poll at frames.
    Returns [(frame_time, event_name), ...]."""
    pad = Pad(changes)
    b = Buttons(pad.read, **kw)
    out = []
    t = start
    while t <= end:
        pad.now = t
        if (t - start) % frame_every == 0:
            b.poll(t & 0x3FFFFFFF)
            ev = b.event()
            while ev:
                out.append((t, event_name(ev)))
                ev = b.event()
        elif sample_every and (t - start) % sample_every == 0:
            b.sample(t & 0x3FFFFFFF)
        t += 1
    return out


def bounce(t0, mask, ms=5, other=0):
    """Contact bounce: the reading flips every ms for `ms` ms, then settles."""
    return [(t0 + i, mask if i % 2 == 0 else other) for i in range(ms)] + [(t0 + ms, mask)]


def names(events):
    return [n for _, n in events]


def test_a_bouncing_press_is_one_press():
    ch = bounce(100, UP) + bounce(300, 0, other=UP)
    assert names(simulate(ch, 600)) == ["UP"]


def test_press_is_accepted_at_its_second_reading_2_ms_on():
    pad = Pad([(10, DOWN)])
    b = Buttons(pad.read)
    for t in range(10, 12):
        pad.now = t
        b.sample(t)
        assert b.held() == 0
    pad.now = 12
    assert b.poll(12) == 1
    assert b.event() == DOWN
    assert b.event() == NONE


def test_a_one_sample_glitch_is_ignored():
    assert simulate([(100, A), (101, 0)], 400) == []
    assert simulate([(100, A), (101, 0)], 400, sample_every=2) == []


def test_a_tap_between_two_frames_is_latched():
    # pressed at 40, released at 60: frames at 33 and 66 never see it held
    ev = simulate(bounce(40, RIGHT, 3) + bounce(60, 0, 3, other=RIGHT), 200)
    assert ev == [(66, "RIGHT")]


def test_a_tap_seen_only_at_pin_edges_is_latched():
    # sample() called only when a pin changes (pin IRQ), poll() per frame
    pad = Pad([(40, LEFT), (55, 0)])
    b = Buttons(pad.read, confirm=1)
    for t in (40, 55):  # the two edges
        pad.now = t
        b.sample(t)
    pad.now = 66
    assert b.poll(66) == 1
    assert b.event() == LEFT


def test_short_a_and_b_report_on_release():
    ev = simulate([(100, B), (300, 0), (500, A), (520, 0)], 700)
    assert ev == [(330, "B"), (528, "A")]


def test_holding_b_reports_long_b_at_600_ms_and_nothing_on_release():
    ev = simulate([(100, B), (2000, 0)], 2500, frame_every=1)
    assert ev == [(100 + 2 + 600, "LONG_B")]


def test_holding_a_reports_long_a():
    ev = simulate([(0, A), (1000, 0)], 1200)
    assert names(ev) == ["LONG_A"]


def test_held_left_repeats_after_400_then_every_120_ms():
    ev = simulate([(100, LEFT), (1000, 0)], 1200, frame_every=1)
    t0 = 102  # accepted at the second reading
    want = [t0, t0 + 400] + [t0 + 400 + 120 * k for k in range(1, 5)]
    assert [t for t, _ in ev] == want
    assert set(names(ev)) == {"LEFT"}


def test_up_and_down_do_not_repeat_by_default():
    assert names(simulate([(0, UP), (1000, 0)], 1200)) == ["UP"]


def test_repeat_mask_is_configurable():
    ev = simulate([(0, DOWN), (700, 0)], 800, frame_every=1, repeat_mask=UP | DOWN)
    assert names(ev) == ["DOWN", "DOWN", "DOWN", "DOWN"]


def test_a_stalled_frame_loop_gets_no_burst_of_repeats():
    pad = Pad([(0, RIGHT)])
    b = Buttons(pad.read)
    pad.now = 0
    b.poll(0)
    pad.now = 5
    b.poll(5)
    assert b.event() == RIGHT
    pad.now = 2000  # nothing sampled for two seconds
    assert b.poll(2000) == 1


def test_two_buttons_at_once_give_two_events():
    ev = simulate([(100, LEFT | UP), (200, 0)], 300)
    assert sorted(names(ev)) == ["LEFT", "UP"]


def test_holding_one_button_does_not_hide_another():
    ev = simulate([(0, RIGHT), (200, RIGHT | B), (260, RIGHT), (300, 0)], 400,
                  repeat_mask=0)
    assert names(ev) == ["RIGHT", "B"]


def test_queue_overflow_drops_new_events_and_counts_them():
    pad = Pad([])
    b = Buttons(pad.read, queue_size=4, lockout_ms=0)
    t = 0
    for i in range(10):
        pad.changes = [(0, UP if i % 2 == 0 else 0)]
        for _ in range(6):
            b.sample(t)
            t += 1
    assert b.poll(t) == 3
    assert b.dropped == 2
    assert [b.event(), b.event(), b.event(), b.event()] == [UP, UP, UP, NONE]


def test_suppress_mutes_a_held_button_until_released():
    pad = Pad([(0, B), (1000, 0), (1100, B), (1200, 0)])
    b = Buttons(pad.read)
    got = []
    for t in range(0, 1300):
        pad.now = t
        b.poll(t)
        if t == 10:
            b.suppress()  # B was held at boot
        ev = b.event()
        while ev:
            got.append(event_name(ev))
            ev = b.event()
    assert got == ["B"]  # only the second press


def test_clear_drops_waiting_events():
    ev_pad = Pad([(0, UP)])
    b = Buttons(ev_pad.read)
    ev_pad.now = 10
    b.poll(0)
    b.poll(10)
    b.clear()
    assert b.event() == NONE


def test_idle_time_counts_from_the_last_press_or_release():
    pad = Pad([(100, UP), (200, 0)])
    b = Buttons(pad.read)
    for t in range(0, 300):
        pad.now = t
        b.sample(t)
    assert b.idle_ms(1000) == 1000 - 202


def test_ticks_wrap_at_2_to_the_30():
    assert ticks_diff(5, 0x3FFFFFFF) == 6
    assert ticks_diff(0x3FFFFFFF, 5) == -6
    assert ticks_diff(1000, 400) == 600


def test_repeat_and_long_press_work_across_the_ticks_wrap():
    start = 0x3FFFFFFF - 300
    ev = simulate([(start + 10, LEFT), (start + 700, 0), (start + 800, B), (start + 1500, 0)],
                  start + 1700, frame_every=1, start=start)
    assert names(ev) == ["LEFT", "LEFT", "LEFT", "LEFT", "LONG_B"]


def test_event_codes_are_small_distinct_ints():
    codes = [LEFT, RIGHT, UP, DOWN, A, B, LONG_A, LONG_B]
    assert len(set(codes)) == len(codes)
    assert all(0 < c < 128 for c in codes)
    assert NONE == 0
    assert [event_name(c) for c in codes] == [
        "LEFT", "RIGHT", "UP", "DOWN", "A", "B", "LONG_A", "LONG_B"]
    assert bt.ALL == 0x3F


HEAP_SCRIPT = r'''
import micropython
from firmware.buttons import Buttons

state = [0]

def read():
    return state[0]

def drive(b, out):
    t = 0
    k = 0
    while t < 3000:
        state[0] = (0x01 if 100 <= t < 900 else 0) | (0x20 if 1200 <= t < 2000 else 0) \
            | (0x04 if (t // 7) % 2 and 2100 <= t < 2120 else 0)
        b.sample(t)
        if t % 33 == 0:
            b.poll(t)
            ev = b.event()
            while ev:
                out[k] = ev
                k += 1
                ev = b.event()
        t += 1
    return k

b = Buttons(read)
out = bytearray(64)
k = 0
micropython.heap_lock()
try:
    k = drive(b, out)
    ok = 1
except MemoryError:
    ok = 0
micropython.heap_unlock()
print(ok, list(out[:k]))
'''


def test_sampling_and_polling_allocate_nothing_on_micropython():
    out = run_micropython(HEAP_SCRIPT).strip()
    ok, _, events = out.partition(" ")
    assert ok == "1"
    ev = eval(events)
    assert ev[0] == LEFT and LONG_B in ev


def test_a_failing_read_does_not_leave_the_buttons_dead():
    calls = [0]

    def read():
        calls[0] += 1
        if calls[0] == 1:
            raise OSError(5)
        return UP

    b = Buttons(read)
    try:
        b.sample(0)
    except OSError:
        pass
    b.sample(1)
    assert b.poll(10) == 1
    assert b.event() == UP
