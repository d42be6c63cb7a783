"""The simulator's Sim with the CircuitPython ports in place of the MicroPython
ones: the real Adafruit displayio driver (Blinka) on a recording fake I2C
bus decoded by tools/sim/ssd1306_emu.py, keypad events through KeypadButtons,
the supervisor clock through cpclock.Clock.

Sim's scripted presses (press, hold, run, settle) work unchanged: setting
`mask` reports the change as keypad events stamped with the fake clock.
"""

import busio
import cpclock
import cpdisplay
import cphw
import cpkeys
import keypad
import supervisor
from firmware.board import board as cfg
from tools.sim.simulator import FakeClock, MemStorage, Sim, store_settings

# Start near supervisor.ticks_ms()'s 2**29 wrap so every scripted run
# crosses it (cpclock.Clock must keep time continuous for the buttons).
START_MS = (1 << 29) - 20000


class CPSim(Sim):
    def __init__(self, seed=1, level=None, storage=None, clock=None, png_dir=None,
                 player_factory=None, settings=None, narrow=True, start_ms=START_MS,
                 review_factory=None):
        from firmware.app import App
        from firmware.ports import Ports

        self.clock = clock or FakeClock(start_ms)
        self.fake_clock = isinstance(self.clock, FakeClock)
        supervisor.set_ms(self.clock.t)
        self.bus, self.emu = busio.I2C.with_display()
        self.display, _ = cpdisplay.open_display(self.bus, narrow=narrow, out=lambda s: None)
        assert not self.display.headless
        self.keys = keypad.Keys([cphw.pin(n) for n in cfg.BUTTON_PINS],
                                value_when_pressed=False, pull=True)
        self.cpclock = cpclock.Clock(self._ticks)
        self._mask = 0
        self.buttons = cpkeys.KeypadButtons(self.keys, self.cpclock)
        self.storage = storage if storage is not None else MemStorage()
        store_settings(self.storage, level, settings)
        self.app = App(Ports(self.display, self.buttons, self.cpclock, self.storage,
                             seed=seed, player_factory=player_factory,
                             review_factory=review_factory))
        self.app.start()
        self.frames_checked = 0
        self.sent = []  # bytes on the bus of each frame shown
        self._first_frame(png_dir)

    def _ticks(self):
        supervisor.set_ms(self.clock.t)
        return supervisor.ticks_ms()

    @property
    def mask(self):
        return self._mask

    @mask.setter
    def mask(self, m):
        # What keypad's background scan would report, stamped now.
        self._mask = m
        self.keys.set_mask(m, self._ticks())

    def step(self):
        before = self.app.frames
        self.bus.reset_counts()
        self.wait = self.app.step()
        if self.app.frames != before:
            # The port's count is what went over the bus for the frames
            # (a contrast change, 0x80 0x81 0x80 v, may share the step).
            frames = sum(1 + len(d) for _, d in self.bus.log if d[:2] != b"\x80\x81")
            assert self.app.last_bytes == frames, (self.app.last_bytes, frames)
            self.sent.append(frames)
        return self.wait


def assert_panel_is_framebuffer(sim):
    """The emulated panel, rebuilt from the bytes the Adafruit driver wrote,
    equals the game's framebuffer (blank while the screen is blanked)."""
    img = bytes(sim.emu.image())
    fbuf = bytes(sim.app.canvas.buf)
    if sim.app.idle == 2:
        fbuf = bytes(len(fbuf))
    if img != fbuf:
        diff = sum(bin(a ^ b).count("1") for a, b in zip(img, fbuf))
        raise AssertionError("CircuitPython panel differs from the framebuffer in %d "
                             "pixels on %s" % (diff, sim.screen))
    sim.frames_checked += 1


class CheckedCPSim(CPSim):
    """Checks panel == framebuffer after every press, as the UI test does."""

    def press(self, key, settle=True):
        super().press(key, settle)
        assert_panel_is_framebuffer(self)


class ScreenCheck:
    """Stands in for the UI test's Golden: at each named screen, the panel
    must equal the framebuffer; finish() says which screens were seen."""

    seen = []

    def __init__(self, tmp_path):
        self.names = []

    def check(self, sim, name):
        assert_panel_is_framebuffer(sim)
        self.names.append(name)
        ScreenCheck.seen.append(name)

    def finish(self):
        assert self.names
