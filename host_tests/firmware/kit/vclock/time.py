"""A stand-in for MicroPython's `time` on the unix port (device tests that
need seconds of the board's time in a fraction of a second): emulated
milliseconds since power-on.

Put this folder first on sys.path, before anything imports time, with
host_tests/firmware/kit/fakes (machine.py) after it. sleep_ms(n) moves the
clock n ms on at once; on the way, each of the fake machine's running
timers fires whenever its period comes round (the device's soft timers:
the button sampler, the LED), and each of AT's events runs when its time
comes: AT is a list of (ms, function), kept in order by at(). A function
that raises (KeyboardInterrupt: Ctrl-C) raises out of sleep_ms, as Ctrl-C
lands in the loop. reset() sets the clock to 0 (a power-on); a soft reset
keeps it, as the chip's timer does. sleep_ms lets a locked heap go
while it runs (its bookkeeping allocates; the board's sleep does not).
"""

import machine

NOW = [0]      # ms since power-on
AT = []        # [(ms, function)], earliest first
_MASK = (1 << 30) - 1


def reset():
    NOW[0] = 0
    del AT[:]


def at(ms, fn):
    """Run fn() when the clock reaches `ms`."""
    i = 0
    while i < len(AT) and AT[i][0] <= ms:
        i += 1
    AT.insert(i, (ms, fn))


def ticks_ms():
    return NOW[0] & _MASK


def ticks_us():
    return (NOW[0] * 1000) & _MASK


def ticks_add(t, d):
    return (t + d) & _MASK


def ticks_diff(a, b):
    d = (a - b) & _MASK
    return d - (1 << 30) if d & (1 << 29) else d


def _next_timer():
    best = None
    for t in machine.TIMERS:
        if not t.running or t.callback is None or not t.period or t.period < 0:
            continue
        due = getattr(t, "due", None)
        if due is None or getattr(t, "due_period", None) != t.period:
            due = t.due = NOW[0] + t.period
            t.due_period = t.period
        if best is None or due < best.due:
            best = t
    return best


def sleep_ms(n):
    # the board's sleep takes no heap, and the run loop's wait runs with the
    # heap locked (firmware.compat.locked): this stand-in's bookkeeping
    # allocates, so the lock is let go meanwhile, as the fake machine's logs do
    depth = machine._let_go()
    try:
        _sleep(n)
    finally:
        machine._lock_again(depth)


def _sleep(n):
    end = NOW[0] + max(0, n)
    while True:
        t = _next_timer()
        ev = AT[0][0] if AT else None
        if ev is not None and ev <= end and (t is None or ev <= t.due):
            NOW[0] = max(NOW[0], ev)
            fn = AT.pop(0)[1]
            fn()
            continue
        if t is None or t.due > end:
            break
        NOW[0] = t.due
        t.due += t.period
        t.callback(t)
    NOW[0] = end


def sleep_us(n):
    sleep_ms(n // 1000)


def sleep(s):
    sleep_ms(int(s * 1000))


def time():
    return 1767225600 + NOW[0] // 1000


def time_ns():
    return (1767225600000 + NOW[0]) * 1000000
