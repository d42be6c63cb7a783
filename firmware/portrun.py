"""What the two device ports' entry points and run loops share:
firmware/main.py and firmware/pico.py (MicroPython), circuitpython/code.py
and circuitpython/cpports.py (CircuitPython). Plain Python that imports no
hardware module, so both runtimes load it.

- play(): the run loop, stepping the App until Ctrl-C or an error, and its
  error tail: the error printed, a line of advice on the console and two on
  the display; out of memory after a saved turn, the port's `restart`
  starts again on a fresh heap (it resumes that turn).
- safe_screen(): the safe boot's picture (B held at power-on) on the
  display, if one answers. The safe boot's check and its console text stay
  in the entry points, which need nothing of the game's files for them.
"""

import sys

from firmware.port_common import show_lines

SAFE_LINES = ("SAFE BOOT", "REPL IS FREE", "", "RESET TO PLAY")


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


def play(start, step, pause, display, out=print, max_steps=None, again="press reset",
         oom_advice="", restart=None, stopped=None):
    """Run the game: `start()` builds the App and returns it, then
    `step(app)` (the App's step, returning the ms it may sleep) and
    `pause(ms)` (sleep, waking at a press) alternate, until `max_steps`
    steps (tests), Ctrl-C or an error. Returns the App (None if start()
    failed).

    Ctrl-C: a line saying the REPL is free, then how to play again
    (`again`). An error: printed, with advice on the console and on
    `display`, and `stopped()` called (the Pico's LED). Out of memory after
    a turn was saved in this start (app.saved_at, saves not refused:
    app.save_failing), `restart()` starts again on a fresh heap, which
    resumes that turn; a start that runs out before its first save stops
    as any error, so this never loops. `oom_advice` ends the out of memory
    line."""
    app = None
    try:
        app = start()
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
        if (restart is not None and getattr(app, "saved_at", 0)
                and not getattr(app, "save_failing", None)):
            out("The game ran out of memory; it starts again from the last completed "
                "turn (saved).")
            try:
                show_lines(display, ("OUT OF MEMORY", "RESUMING..."))
            except MemoryError:
                pass
            restart()
        out("The game ran out of memory. Press reset; the match was saved after the "
            "last completed turn." + oom_advice)
        show_lines(display, ("OUT OF MEMORY", "PRESS RESET"))
        if stopped is not None:
            stopped()
    except Exception as e:
        print_exception(e)
        out("The game stopped with the error above. Press reset to play on: the match "
            "was saved after the last completed turn.")
        show_lines(display, ("ERROR", "PRESS RESET"))
        if stopped is not None:
            stopped()
    return app
