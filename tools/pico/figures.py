"""Device figures measured on the emulated Pico: boot to the title, and
button to complete frame.

A complete frame is the end of the last I2C transaction of the burst the
display gets after the press (transactions less than 5 ms apart are one
frame, harness.FRAME_GAP_NS). Direction buttons act when pressed (after the
5 ms debounce); A acts when released, so its time is counted from the
release. Presses fall at different instants of the game loop's cycle
(each one 0-9 ms later than a whole number of milliseconds after the last
frame). Emulated time: rp2040js runs flash at zero wait states.
"""

import re

from tools.kit.ui_driver import CUT_KEYS
from tools.pico import harness as h


def new_match(p, after_ms=800):
    """NEW MATCH on a board at its title: the match commitment shows, then
    the cut AAAA is given (tools/kit/ui_driver.py's CUT_KEYS) and the first
    hand dealt. Returns the emulated ns at the last A's release."""
    p.press("A", after_ms=300)
    for k in CUT_KEYS[:-1]:
        p.press(k, after_ms=100)
    return p.press(CUT_KEYS[-1], after_ms=after_ms)


def boot(p):
    """(ms to the complete title frame, free heap the game reports) of a
    board just powered on into the game."""
    p.run_until_text("Game running", 30000)
    p.run(400)
    m = re.search(r"free memory (\d+) bytes", p.output())
    title = p.frames[-1]
    first = [f for f in p.frames if f.image == title.image][0]
    return first.t1 / 1e6, int(m.group(1)) if m else None


def _frame_after(p, t_ns):
    later = [f for f in p.frames if f.t0 >= t_ns]
    return later[0] if later else None


def press_to_frame(p, button, hold_ms=40, settle_ms=300):
    """Press `button`; ms from the press (direction) or the release (A, B)
    to the end of the next complete frame, or None when none came."""
    p.pin(button, True)
    t_press = p.t
    p.run(hold_ms)
    p.pin(button, False)
    t_release = p.t
    p.run(settle_ms)
    t = t_press if button in "LRUD" else t_release
    f = _frame_after(p, t)
    return None if f is None else (f.t1 - t) / 1e6


# The play screen's turn line (TURN_Y, right of TEXT_X): the human's turn
# starts when it reads as it did when the match began (YOUR DRAW).
TURN_LINE = (31, 30, 90, 7)   # left of the save mark (x 122)


def region(image, x0, y0, w, h):
    """The pixels of a rectangle of a 1024-byte MONO_VLSB picture."""
    out = bytearray()
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            out.append((image[(y >> 3) * 128 + x] >> (y & 7)) & 1)
    return bytes(out)


def await_your_draw(p, sig, limit_ms=20000):
    """Run until the play screen shows the human's draw again; A moves
    the hand's end screens on (the next hand starts with the human's draw,
    R2). False when it never came."""
    waited = 0
    while waited < limit_ms:
        if region(p.image(), *TURN_LINE) == sig:
            p.run(500)                       # a player's reaction time
            return True
        if waited and waited % 1000 == 0 and p.frames and p.frames[-1].t1 < p.t - 600e6:
            p.press("A", after_ms=0)         # a showdown or result waiting for A
        p.run(100)
        waited += 100
    return False


def play_latencies(p, turns=5):
    """{'direction': [ms], 'A': [ms]} over `turns` of the human's turns in
    a new match (the board at the title, nothing in progress): each turn
    two source picks, A (draw), three cursor moves, A (discard). A turn
    starts only once the play screen reads YOUR DRAW (the AI has moved;
    after a hand's end, the next hand)."""
    out = {"direction": [], "A": []}
    new_match(p)                 # NEW MATCH, the cut
    sig = region(p.image(), *TURN_LINE)
    for turn in range(turns):
        if turn and not await_your_draw(p, sig):
            break
        p.run(turn % 10)
        for k in range(2):       # choosing the source: stock <-> pile
            p.run((3 * k + turn) % 10)
            out["direction"].append(press_to_frame(p, "R"))
        out["A"].append(press_to_frame(p, "A"))      # draw
        for k in range(3):       # along the hand
            p.run((7 * k + turn) % 10)
            out["direction"].append(press_to_frame(p, "R"))
        out["A"].append(press_to_frame(p, "A", settle_ms=400))   # discard
        p.run(1500)              # the AI's turn
    return out


def stats(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return "none"
    return "median %.1f, min %.1f, max %.1f ms (n=%d)" % (
        xs[len(xs) // 2], xs[0], xs[-1], len(xs))


def measure(firmware, bootrom, fs):
    """Boot and latency figures of one build."""
    with h.Pico(firmware, bootrom, fs) as p:
        boot_ms, free = boot(p)
        lat = play_latencies(p)
        return {"boot_ms": boot_ms, "free_title": free, "lat": lat}
