"""The simulator in a terminal: the panel drawn as large as the terminal
allows, redrawn when it is resized, and typed keys as button presses.

Renderings, largest first (tools/sim/render.py); the first that fits with its
border and the key legend is used:

    half blocks   128 x 32 characters (a 130 x 35 terminal or larger)
    quadrants      64 x 32             (66 x 36)
    text          the panel read back as words (tools/sim/textscreen.py):
                  cards as 9♥ T♠, melds in [ ], the stock and the pile
                  labelled, the status and key lines as words, and a
                  line saying what the marks mean (fits 80 x 24; needs
                  50 x 16)

A picture smaller than the quadrants' (braille dots, 2x4 pixels a
character) leaves a card's rank 1.5 characters wide: the text view is used
instead, and the picture comes back when the terminal grows. Below the
text view's size, one line says how large the terminal must be.

Keys go through the board's serial-console key map and queue
(firmware.pico.consolekeys.ConsoleKeys): each typed key is one press held 60 ms,
then 40 ms released, in the order typed, so two keys typed (or pasted)
within a few ms are two presses. The loop sleeps in select() until a key,
a resize or the app's next timer, so an idle simulator uses no CPU.
"""

import os
import select
import signal
import sys

from tools.sim import render, textscreen

H_LINE = "\u2500"
LEGEND = ("arrows move", "z/Enter/space: A", "x/Backspace: B", "Z/X: hold A/B", "q: quit")
# What the text view's marks mean (a line of its own under the legend).
MARKS = "marks: > chosen or raised   * lit (laid off)   [ ] a meld   ## face down"
GAP = "   "


class Rendering:
    def __init__(self, name, cols, rows, draw):
        self.name = name
        self.cols = cols            # characters across the panel
        self.rows = rows            # lines down the panel
        self.draw = draw            # buf -> text

    def lines(self, buf):
        return self.draw(buf).split("\n")


RENDERINGS = (
    Rendering("half blocks", 128, 32, render.to_text),
    Rendering("quadrants", 64, 32, render.to_quads),
)

# The text view: its heading, and the least terminal it takes (the widest
# line the panel holds is about 40 characters, the most lines about 12).
TEXT = "text"
TEXT_TITLE = "Gin Rummy (the panel as text; %dx%d or more shows the picture)"
TEXT_MIN = (50, 16)


def legend_lines(width):
    """The key legend packed into lines of at most `width` characters."""
    lines = []
    cur = ""
    for w in LEGEND:
        if cur and len(cur) + len(GAP) + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = cur + GAP + w if cur else w
    lines.append(cur)
    return lines


def needs(r, cols, status):
    """(columns, rows) rendering r takes in a terminal `cols` wide."""
    width = r.cols + 2
    legend = legend_lines(max(cols, width))
    return width, r.rows + 2 + len(legend) + (1 if status else 0)


def choose(cols, rows, status=False):
    """The largest rendering that fits a cols x rows terminal, TEXT when
    none does but the text view fits, or None."""
    for r in RENDERINGS:
        w, h = needs(r, cols, status)
        if w <= cols and h <= rows:
            return r
    if cols >= TEXT_MIN[0] and rows >= TEXT_MIN[1]:
        return TEXT
    return None


def smallest(status=False):
    """The least terminal (columns, rows) anything is shown in: the text view's."""
    return TEXT_MIN


def picture_needs(status=False):
    """The least terminal that shows the picture (the quadrants)."""
    r = RENDERINGS[-1]
    return needs(r, r.cols + 2, status)


def too_small(cols, rows, status=False):
    w, h = smallest(status)
    return "Terminal %dx%d: needs %dx%d or more (q quits)" % (cols, rows, w, h)


def frame(buf, r, cols, status=None):
    """The lines of one screen: the panel in rendering r inside a border,
    the legend, and the status line (when not None)."""
    out = ["\u250c" + H_LINE * r.cols + "\u2510"]
    out += ["\u2502" + ln + "\u2502" for ln in r.lines(buf)]
    out.append("\u2514" + H_LINE * r.cols + "\u2518")
    out += legend_lines(max(cols, r.cols + 2))
    if status is not None:
        out.append(status)
    return out


def text_frame(buf, cols, rows, status=None):
    """The lines of the text view: a heading, the panel's lines (cut to the
    terminal), a rule, the legend and the status line."""
    pw, ph = picture_needs(status is not None)
    head = TEXT_TITLE % (pw, ph)
    rule = H_LINE * min(cols, 80)
    out = [head[:cols], rule]
    legend = legend_lines(cols) + [MARKS[:cols]]
    room = rows - len(out) - 1 - len(legend) - (1 if status is not None else 0)
    body = ["  " + ln for ln in textscreen.read(buf)]
    if len(body) > room:
        body = body[:max(room, 0)]
    out += [ln[:cols] for ln in body]
    out.append(rule)
    out += legend
    if status is not None:
        out.append(status[:cols])
    return out


def terminal_size(fd):
    try:
        s = os.get_terminal_size(fd)
        return s.columns, s.lines
    except OSError:
        return 80, 24


class Screen:
    """Writes frames to the terminal only when something changed: the
    picture, the status line, or the terminal's size."""

    def __init__(self, out, size):
        self.out = out
        self.size = size            # () -> (columns, rows)
        self.shown = None           # (picture, status, size)
        self.r = None

    def show(self, buf, status=None):
        cols, rows = self.size()
        key = (buf, status, cols, rows)
        if key == self.shown:
            return False
        resized = self.shown is None or self.shown[2:] != (cols, rows)
        self.shown = key
        r = choose(cols, rows, status is not None)
        text = "\x1b[H"
        if resized:
            text += "\x1b[2J"
        if r is None:
            text += too_small(cols, rows, status is not None) + "\x1b[K"
        elif r is TEXT:
            text += "\x1b[K\r\n".join(text_frame(buf, cols, rows, status)) + "\x1b[K\x1b[J"
        else:
            text += "\x1b[K\r\n".join(frame(buf, r, cols, status)) + "\x1b[K"
        self.r = r
        self.out.write(text)
        self.out.flush()
        return True


def status_line(sim):
    """With --sound: the last sound played (the device's buzzer)."""
    if sim.sound is None:
        return None
    played = sim.sound.played
    return "sound: %s" % (played[-1] if played else "")


def make_keys(clock):
    """The typed keys' queue (the board's console keys, firmware.pico.consolekeys)."""
    from firmware.pico.consolekeys import ConsoleKeys

    return ConsoleKeys(clock, poll_stdin=False)


def pressed(keys, clock, ms):
    """The button masks `keys` holds down over `ms` of the fake `clock`, one
    entry per press (tests)."""
    out = []
    last = 0
    for _ in range(ms):
        keys.update(clock())
        m = keys.read()
        if m and not last:
            out.append(m)
        last = m
        clock.advance(1)
    return out


def next_wait(sim, keys):
    """Seconds the loop may sleep: until the app's next timer (the AI's
    move, a pause, dimming), or 5 ms while a typed key is being pressed."""
    wait = sim.wait
    if keys.pending():
        wait = min(wait, 5)
    return max(wait, 1) / 1000.0


def run(sim, fd=None, out=None):
    """Play in the terminal until q: sim is a tools.sim.simulator.Sim on a real
    clock."""
    import termios
    import tty

    fd = sys.stdin.fileno() if fd is None else fd
    out = sys.stdout if out is None else out
    keys = make_keys(sim.clock)
    sim.extra = keys.read
    screen = Screen(out, lambda: terminal_size(fd))
    # A resize (SIGWINCH) wakes the select below through this pipe.
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    old_wakeup = signal.set_wakeup_fd(wake_w)
    old_winch = signal.signal(signal.SIGWINCH, lambda *a: None)
    old = termios.tcgetattr(fd)
    out.write("\x1b[?25l\x1b[2J")
    try:
        tty.setraw(fd)
        while not keys.quit:
            keys.update(sim.clock())
            sim.step()
            screen.show(sim.image(), status_line(sim))
            ready = select.select([fd, wake_r], [], [], next_wait(sim, keys))[0]
            if fd in ready:
                data = os.read(fd, 64)
                if not data:
                    break
                for c in data:
                    keys.feed(c)
            if wake_r in ready:
                os.read(wake_r, 64)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        signal.signal(signal.SIGWINCH, old_winch)
        signal.set_wakeup_fd(old_wakeup)
        os.close(wake_r)
        os.close(wake_w)
        out.write("\x1b[?25h\r\n")
        out.flush()
