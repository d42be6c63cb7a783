"""What the two device ports share: firmware/pico/pico.py and firmware/main.py
(MicroPython), circuitpython/cpports.py and circuitpython/code.py
(CircuitPython). Plain Python that imports no hardware module, so both
runtimes can load it.

- display_address(), bus_error(), HeadlessDisplay, show_lines(): the
  display's address, its errors, no display, a few lines of text.
- play(): the run loop, stepping the App until Ctrl-C or an error, and its
  error tail: the error printed, a line of advice on the console and two on
  the display; out of memory after a saved turn, the port's `restart`
  starts again on a fresh heap (it resumes that turn).
- safe_screen(): the safe boot's picture (B held at power-on) on the
  display, if one answers. The safe boot's check and its console text stay
  in the entry points, which need nothing of the game's files for them.
"""

import sys

# The addresses an SSD1306 or SH1106 module answers at, tried after
# board.DISPLAY_ADDR.
ADDRESSES = (0x3C, 0x3D)


def display_address(found, cfg):
    """The display's address among the I2C addresses `found`: board.py's
    DISPLAY_ADDR first, then 0x3C and 0x3D; -1 when none of them answered."""
    for a in (cfg.DISPLAY_ADDR,) + ADDRESSES:
        if a in found:
            return a
    return -1


def bus_error(port, e):
    """A display port's I2C error `e`: the first one since the display last
    answered is reported through port.out; port.errors counts them."""
    if not port.errors:
        port.out("The display stopped answering on I2C (%s). The game goes on; "
                 "check the display's wires." % (e,))
    port.errors += 1


class HeadlessDisplay:
    """No display: frames go nowhere, the game runs on."""

    headless = True
    last_bytes = 0

    def show(self, buf, full=False):
        return 0

    def contrast(self, value):
        pass

    def power(self, on):
        pass

    def invert(self, on):
        pass

    def invalidate(self):
        pass


def show_lines(display, lines):
    """Best effort: a few lines of text on the display (safe boot, errors)."""
    if display is None or display.headless:
        return
    try:
        from firmware.display import fb

        c = fb.Canvas()
        y = 2
        for s in lines:
            c.text(s, 2, y, 1, fb.BIG)
            y += 10
        display.show(c.buf, True)
    except Exception:
        pass


SAFE_LINES = ("SAFE BOOT", "REPL IS FREE", "", "TO PLAY: UNPLUG,", "PLUG IN AGAIN")
AGAIN_LINES = ("UNPLUG AND", "PLUG IN AGAIN")     # a board has no reset button


def print_exception(e):
    """The error and its traceback on the console: MicroPython's
    sys.print_exception, else the traceback module (CircuitPython,
    CPython), else its repr."""
    pe = getattr(sys, "print_exception", None)
    if pe is not None:
        pe(e)
        return
    try:
        import traceback

        traceback.print_exception(e)
    except Exception:
        print(repr(e))


def safe_screen(open_display):
    """SAFE BOOT on the display `open_display()` returns; never raises."""
    try:
        show_lines(open_display(), SAFE_LINES)
    except Exception:
        pass


def play(start, args, step, pause, display, out=print, max_steps=None,
         again="unplug the board and plug it in again",
         oom_advice="", restart=None, stopped=None):
    """Run the game: `start(*args)` builds the App and returns it, then
    `step(app)` (the App's step, returning the ms it may sleep) and
    `pause(ms)` (sleep, waking at a press) alternate, until `max_steps`
    steps (tests), Ctrl-C or an error. Returns the App (None if start
    failed).

    Ctrl-C: a line saying the REPL is free, then how to play again
    (`again`). An error: printed, with advice on the console and on
    `display`, and `stopped()` called (the Pico's LED). Out of memory after
    a turn was saved in this start (app.saving.saved_at, saves not
    refused: app.saving.failing), `restart()` starts again on a fresh heap, which
    resumes that turn; a start that runs out before its first save stops
    as any error, so this never loops. `oom_advice` ends the out of memory
    line."""
    app = sv = None
    try:
        app = start(*args)
        sv = getattr(app, "saving", None)
        steps = 0
        while True:
            ms = step(app)
            steps += 1
            if max_steps is not None and steps >= max_steps:
                break
            pause(ms)
    except KeyboardInterrupt:
        out("Stopped by Ctrl-C. The REPL is free; %s to play again." % again)
    except MemoryError as e:
        print_exception(e)
        if restart is not None and sv is not None and sv.saved_at and not sv.failing:
            out("The game ran out of memory; it starts again from the last completed "
                "turn (saved).")
            try:
                show_lines(display, ("OUT OF MEMORY", "RESUMING..."))
            except MemoryError:
                pass
            restart()
        out("The game ran out of memory. Unplug the board and plug it in again; the match "
            "was saved after the last completed turn." + oom_advice)
        show_lines(display, ("OUT OF MEMORY",) + AGAIN_LINES)
        if stopped is not None:
            stopped()
    except Exception as e:
        print_exception(e)
        out("The game stopped with the error above. To play on, unplug the board and plug "
            "it in again: the match was saved after the last completed turn.")
        show_lines(display, ("ERROR",) + AGAIN_LINES)
        if stopped is not None:
            stopped()
    return app
