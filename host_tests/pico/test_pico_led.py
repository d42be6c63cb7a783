"""The on-board LED (GP25 on a Pico, firmware.pico.picoports.Onboard) watched on the
emulated Pico running the frozen .uf2: on while starting, one blink every
2 s with a display, two without one, steady on in safe boot, fast blinking
once the game stopped on an error, dark after Ctrl-C."""

from tools.pico import harness as h

from pico_util import boot_game, repl


def blinks(changes, t0, t1):
    """[(start ms, length ms)] of the LED's on-times within [t0, t1)."""
    out = []
    on_at = None
    for t, on in changes:
        if on:
            on_at = t
        elif on_at is not None:
            if t0 <= on_at < t1:
                out.append((on_at, t - on_at))
            on_at = None
    return out


def cycles(changes, start, n=2):
    """The blinks of `n` 2 s cycles from the cycle that begins at the first
    blink at or after `start`: [[(offset ms in the cycle, length)], ...]."""
    first = [t for t, on in changes if on and t >= start][0]
    out = []
    for k in range(n):
        c0 = first + 2000 * k
        out.append([(round(t - c0), round(d)) for t, d in blinks(changes, c0 - 1, c0 + 1999)])
    return out


def test_led_one_blink_every_2s_while_the_game_runs(kit, frozen):
    with boot_game(frozen, kit.bootrom, None) as p:
        t = p.t / 1e6
        p.run(4500)
        ch = p.led_changes()
        assert ch[0][1] is True and ch[0][0] < 100      # main.py: on at once (starting)
        got = cycles(ch, t)
        for c in got:
            assert len(c) == 1, got
            assert 95 <= c[0][1] <= 105, got


def test_led_two_blinks_every_2s_without_a_display(kit, frozen):
    with boot_game(frozen, kit.bootrom, None, display=()) as p:
        assert "Running without a display" in p.output()
        t = p.t / 1e6
        p.run(4500)
        got = cycles(p.led_changes(), t)
        for c in got:
            assert len(c) == 2, got
            assert 195 <= c[1][0] <= 205 and all(95 <= d <= 105 for _, d in c), got


def test_led_steady_on_in_safe_boot(kit, frozen):
    with h.Pico(frozen, kit.bootrom, None) as p:
        p.pin("B", True)                   # B held while powering on
        p.run_until_text("Safe boot", 5000)
        p.pin("B", False)
        p.run(3000)
        assert p.led_changes() and all(on for _, on in p.led_changes())


def test_led_dark_after_ctrl_c(kit, frozen):
    with boot_game(frozen, kit.bootrom, None) as p:
        p.interrupt()
        p.run(2500)
        assert p.led_changes()[-1][1] is False


FAILING_GAME = """
from firmware.pico import pico
from firmware.app import App
class Failing(App):
    def step(self):
        self.steps = getattr(self, "steps", 0) + 1
        if self.steps == 2:
            raise ValueError("the game failed")
        App.step(self)
        return 10
pico.run(app_factory=Failing, root="/data")
"""


def test_led_blinks_fast_after_the_game_stopped_on_an_error(kit, frozen, frozen_repl_fs):
    with repl(frozen, kit.bootrom, frozen_repl_fs, frozen=True) as p:
        out, err = p.exec(FAILING_GAME, timeout_ms=30000)
        assert "ValueError: the game failed" in out + err
        assert "The game stopped with the error above" in out
        t = p.t
        p.run(1000)                        # at the REPL: the LED's own timer
        ch = p.led_changes(t)
        assert 9 <= len(ch) <= 11, ch      # on and off every 100 ms
        gaps = [b[0] - a[0] for a, b in zip(ch, ch[1:])]
        assert all(95 <= g <= 105 for g in gaps), gaps
