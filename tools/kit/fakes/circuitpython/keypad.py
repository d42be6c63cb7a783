"""Fake `keypad`: Keys whose events the test injects (with timestamps)."""

import supervisor


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = supervisor.ticks_ms() if timestamp is None else timestamp

    @property
    def released(self):
        return not self.pressed

    def __eq__(self, other):
        return (self.key_number, self.pressed) == (other.key_number, other.pressed)

    def __repr__(self):
        return "<Event: key_number %d %s>" % (
            self.key_number, "pressed" if self.pressed else "released")


class EventQueue:
    def __init__(self, max_events=64):
        self.max_events = max_events
        self._q = []
        self.overflowed = False

    def put(self, key_number, pressed, timestamp):
        if len(self._q) >= self.max_events:
            self.overflowed = True
            return
        self._q.append((key_number, pressed, timestamp))

    def get(self):
        if not self._q:
            return None
        k, p, t = self._q.pop(0)
        return Event(k, p, t)

    def get_into(self, event):
        if not self._q:
            return False
        k, p, t = self._q.pop(0)
        event.key_number = k
        event.pressed = p
        event.timestamp = t
        return True

    def clear(self):
        self._q = []
        self.overflowed = False

    def __len__(self):
        return len(self._q)

    def __bool__(self):
        return bool(self._q)


class Keys:
    """keypad.Keys: `press(i)`, `release(i)` and `set_mask(m)` inject what
    the background scan would report; `reset()` reports the keys held as new
    presses."""

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02,
                 max_events=64):
        self.pins = tuple(pins)
        self.key_count = len(self.pins)
        self.value_when_pressed = value_when_pressed
        self.pull = pull
        self.interval = interval
        self.events = EventQueue(max_events)
        self.down = 0  # mask of keys the scan has seen pressed
        self.deinited = False

    def press(self, i, timestamp=None):
        self._change(i, True, timestamp)

    def release(self, i, timestamp=None):
        self._change(i, False, timestamp)

    def _change(self, i, pressed, timestamp):
        bit = 1 << i
        if bool(self.down & bit) == pressed:
            return
        self.down ^= bit
        t = supervisor.ticks_ms() if timestamp is None else timestamp
        self.events.put(i, pressed, t)

    def set_mask(self, mask, timestamp=None):
        """Report the changes from the keys down now to `mask`."""
        for i in range(self.key_count):
            self._change(i, bool(mask & (1 << i)), timestamp)

    def reset(self):
        held = self.down
        self.down = 0
        t = supervisor.ticks_ms()
        for i in range(self.key_count):
            if held & (1 << i):
                self._change(i, True, t)

    def deinit(self):
        self.deinited = True
