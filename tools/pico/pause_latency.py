"""Button to complete frame while the AI thinks, on an emulated Pico.

    .venv/bin/python -m tools.pico.pause_latency [--turns 10] [--frozen [UF2]]
        [--root DIR] [--firmware F.uf2 --bootrom FILE]

The game boots (the frozen build, or the .mpy bundle of --root), the
settings are set to a hard AI at the fast speed (400 ms, the shortest
pause) and a match starts. In each of the human's turns: A draws from the
stock, A discards, and then, while the AI's first decision is being worked
out and shown (a press lands 120-360 ms after the discard's release, turn
by turn: after its frame and the turn's save, in the AI's decision or its
pause): on even turns B opens the menu (its frame measured from the
release), DOWN moves in it (from the press), B closes it; on odd turns A
hurries the AI (from the release to the frame of its move: any steps
still to do run first, so the move never depends on timing).
Frames and presses as tools/pico/figures.py measures them. Emulated time:
a real Pico is 10-40% slower.
"""

import argparse
import sys

from tools.pico import figures, session
from tools.pico import harness as h


def pause_latencies(p, turns):
    """{'B': [ms], 'direction': [ms], 'A': [ms]} over `turns` turns."""
    out = {"B": [], "direction": [], "A": []}
    p.run_until_text("Game running", 30000)
    p.run(600)
    for k in "D A R D R B U".split():   # AI level -> hard, AI speed -> fast
        p.press(k, after_ms=300)
    figures.new_match(p)                # NEW MATCH, the cut
    sig = figures.region(p.image(), *figures.TURN_LINE)
    for turn in range(turns):
        if turn and not figures.await_your_draw(p, sig):
            break
        p.press("A", after_ms=400)      # draw from the stock
        p.pin("A", True)                # discard the card under the cursor
        p.run(40)
        p.pin("A", False)
        p.run(120 + (turn * 53) % 241)  # into the AI's think
        if turn % 2 == 0:
            out["B"].append(figures.press_to_frame(p, "B", settle_ms=400))
            out["direction"].append(figures.press_to_frame(p, "D", settle_ms=150))
            p.press("B", after_ms=200)
        else:
            out["A"].append(figures.press_to_frame(p, "A", settle_ms=600))
        p.run(1500)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    session.add_arguments(ap)
    ap.add_argument("--turns", type=int, default=10)
    a = ap.parse_args(argv)
    session.check(a)
    files = h.board_files(a.root, bundle=not a.frozen, main=True)
    print("Button to complete frame while the hard AI thinks (%s), %d turns, emulated time "
          "(a real Pico is 10-40%% slower)" % (session.label(a), a.turns))
    with h.Pico(a.firmware, a.bootrom, h.fs_image(files)) as p:
        r = pause_latencies(p, a.turns)
    print("  B (menu opens, from the release): " + figures.stats(r["B"]))
    print("  DOWN in the menu (from the press): " + figures.stats(r["direction"]))
    print("  A hurries the AI (from the release to its move's frame): " + figures.stats(r["A"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
