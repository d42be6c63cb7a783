"""Fake `digitalio`: inputs read the fake pin's level."""


class Pull:
    UP = "UP"
    DOWN = "DOWN"


class Direction:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"


class DriveMode:
    PUSH_PULL = "PUSH_PULL"
    OPEN_DRAIN = "OPEN_DRAIN"


class DigitalInOut:
    claimed = set()

    def __init__(self, pin):
        if pin.name in DigitalInOut.claimed:
            raise ValueError("%s in use" % pin.name)
        DigitalInOut.claimed.add(pin.name)
        self.pin = pin
        self.direction = Direction.INPUT
        self.pull = None
        self._out = False

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction = Direction.OUTPUT
        self._out = value

    @property
    def value(self):
        if self.direction == Direction.OUTPUT:
            return self._out
        return bool(self.pin.level)

    @value.setter
    def value(self, v):
        self._out = bool(v)

    def deinit(self):
        DigitalInOut.claimed.discard(self.pin.name)
