"""Runs ON the (emulated) Pico: the App on the real display driver and I2C
bus and the board's /data storage, with a fake clock and scripted presses
stepped by firmware/keyscript.py, as tools/sim/simulator.py's Sim steps them
for --keys, so the frames can be compared with the simulator's, one for one.

    import keyscript
    keyscript.main(seed, "A A R A LB w500 ...")

Each frame that put bytes on the bus is followed by a 10 ms real pause, so
the host sees every frame as its own burst; `@ready` is printed (20 ms
before the first step) once the display is set up. The board needs
firmware/keyscript.py beside the game (tools/pico/harness.py, board_files,
puts it there with this script; a frozen firmware has it frozen in).
"""

import time

from firmware.buttons import Buttons
from firmware.keyscript import FakeClock, KeyScript


class Board(KeyScript):
    """The app on the board's ports, stepped by the scripted presses."""

    def __init__(self):
        self.clock = FakeClock()
        self.mask = 0
        self.buttons = Buttons(self._read)
        self.app = None

    def _read(self):
        return self.mask

    def tick(self):
        w = self.app.step()
        if self.app.last_bytes:
            time.sleep_ms(10)
        return w


def main(seed, keys):
    from firmware.pico import pico
    from firmware.compat import unload

    pico.preload()              # as pico.run() does
    from firmware.app import App
    from firmware.ports import Ports
    from firmware.saves.storage import Storage

    display, _bus = pico.open_display(out=lambda s: None)
    board = Board()
    time.sleep_ms(10)
    print("@ready")
    time.sleep_ms(20)
    app = board.app = App(Ports(display, board.buttons, board.clock, Storage("/data"), seed=seed))
    Ports = None                # as firmware.pico.pico lets the ports' record go
    unload("firmware.ports")
    app.start()
    board.tick()
    board.settle()
    for k in keys.split():
        board.key(k)
        board.settle()
        print("@key", app.screen_name, app.frames)
    print("@end", app.screen_name, app.frames)
