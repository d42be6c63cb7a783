"""Runs ON the (emulated) Pico: the App on the real display driver and I2C
bus and the board's /data storage, with a fake clock and scripted presses
stepped exactly as tools/sim/simulator.py's Sim does for --keys (each key held
`tap` ms while stepping at most every `sample` ms, released for 20 ms,
then time advanced until the app waits for input), so the frames can be
compared with the simulator's, one for one.

    import keyscript
    keyscript.main(seed, [(bit, hold_ms), (0, wait_ms), ...], sample, settle_limit)

(0, ms) lets ms pass. Each frame that put bytes on the bus is followed by a
10 ms real pause, so the host sees every frame as its own burst; `@ready`
is printed (20 ms before the first step) once the display is set up.
"""

import time

from firmware.buttons import Buttons


class FakeClock:
    def __init__(self, t=1000):
        self.t = t

    def __call__(self):
        return self.t & 0x3FFFFFFF


def main(seed, keys, sample_ms, settle_limit_ms):
    from firmware import pico

    pico.preload()              # as pico.run() does
    from firmware.app import App
    from firmware.storage import Storage

    display, _bus = pico.open_display(out=lambda s: None)
    clock = FakeClock()
    mask = [0]
    buttons = Buttons(lambda: mask[0])
    time.sleep_ms(10)
    print("@ready")
    time.sleep_ms(20)
    app = App(display, buttons, clock, Storage("/data"), seed=seed)

    def step():
        w = app.step()
        if app.last_bytes:
            time.sleep_ms(10)
        return w

    def run(ms, max_step=None):
        end = clock.t + ms
        while True:
            w = step()
            if w < 1:
                w = 1
            if max_step and w > max_step:
                w = max_step
            if clock.t + w > end:
                clock.t = end
                step()
                return
            clock.t += w

    def settle():
        for _ in range(10000):
            w = step()
            if w > settle_limit_ms and not buttons.held():
                return
            clock.t += max(w, 1)
        raise RuntimeError("the app never settled")

    step()
    settle()
    for bit, ms in keys:
        if bit:
            mask[0] = bit
            run(ms, sample_ms)
            mask[0] = 0
            run(20, sample_ms)
        else:
            run(ms)
        settle()
        print("@key", app.screen_name, app.frames)
    print("@end", app.screen_name, app.frames)
