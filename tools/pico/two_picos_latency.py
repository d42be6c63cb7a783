"""Button to frame in a link match on two emulated Picos, and the same
buttons in a game against the CPU, in one run.

    .venv/bin/python -m tools.pico.two_picos_latency [--hands 1] [--frozen [UF2]]
        [--root DIR] [--firmware F.uf2 --bootrom FILE]

Two boards joined by the cable (tools/pico/two_picos.py) choose LINK and
play `--hands` hands with two_picos' simple player, reading their panels;
then one board alone (the same build, a new board) starts a NEW MATCH
against the CPU and its player plays as many hands the same way. For each
press:

- a move's A on one board (a draw, a discard, a knock's confirmation) to
  the end of the first frame on the other board that shows something new
  (the move sent, taken and drawn there);
- LEFT/RIGHT at the table (from the press) and a move's A (from the
  release) to the end of the first frame on the same board, as
  tools/pico/figures.py measures them.

Emulated time: rp2040js runs flash at zero wait states, a real Pico is
10-40% slower. The .mpy bundle on the stock firmware has no room for the
link (OUT OF MEMORY at LINK): use the frozen build.
"""

import argparse
import bisect
import sys
import time

from tools.pico import figures, session
from tools.pico import harness as h
from tools.pico import two_picos as lp


class Presses:
    """The presses of the players, kept with what the other board showed
    at each one's release."""

    def __init__(self):
        self.rows = []   # (board, key, kind, press ns, release ns, other board, its image)

    def hook(self, others):
        def on_press(player, key, kind, lines, t_press, t_release):
            other = others.get(player.board)
            self.rows.append((player.board, key, kind, t_press, t_release, other,
                              other.image() if other is not None else None))
        return on_press


def _frame_after(board, t, differs_from=None):
    """The first complete frame of `board` that starts at `t` or later (and
    shows something else than `differs_from`), or None."""
    starts = [f.t0 for f in board.frames]
    for f in board.frames[bisect.bisect_left(starts, t):]:
        if differs_from is None or f.image != differs_from:
            return f
    return None


def own_latencies(rows):
    """{'direction': [ms], 'A': [ms]}: each press to its own board's frame."""
    out = {"direction": [], "A": []}
    for board, key, kind, t_press, t_release, _, _ in rows:
        if kind == "cursor":
            f = _frame_after(board, t_press)
            out["direction"].append(None if f is None else (f.t1 - t_press) / 1e6)
        elif kind == "move":
            f = _frame_after(board, t_release)
            out["A"].append(None if f is None else (f.t1 - t_release) / 1e6)
    return out


def _flash_ns(board, t0, t1):
    """ns of `board`'s flash erases and programs between t0 and t1."""
    return sum(max(0, min(e, t1) - max(s, t0)) for _, s, e, _, _, _ in board.flash_ops)


def remote_latencies(rows):
    """([ms], [ms]): each move's A to the other board's first new frame,
    and how much of that time the two boards spent writing their flash
    (the saves: the core stalls in each erase and program)."""
    out = []
    flash = []
    for board, _, kind, _, t_release, other, before in rows:
        if kind == "move" and other is not None:
            f = _frame_after(other, t_release, before)
            out.append(None if f is None else (f.t1 - t_release) / 1e6)
            if f is not None:
                flash.append((_flash_ns(board, t_release, f.t1)
                              + _flash_ns(other, t_release, f.t1)) / 1e6)
    return out, flash


def link_hands(a, hands, fs, out=None):
    """The presses of `hands` hands of a link match on two boards."""
    presses = Presses()
    with lp.LinkPair(a.firmware, a.bootrom, fs=(fs, fs)) as pair:
        pair.boot()
        x, y = pair.boards
        hook = presses.hook({x: y, y: x})
        players = [lp.Player(b, on_press=hook) for b in pair.boards]
        lp.play_link_match(pair, players, out=out,
                           until=lambda pl: all(p.showdowns >= hands for p in pl))
        pair.run(500)                # the last frames closed
        return presses.rows, pair.t / 1e9, pair.wire


def cpu_hands(a, hands, fs, out=None):
    """The presses of `hands` hands against the CPU on one board."""
    presses = Presses()
    with lp.Single(a.firmware, a.bootrom, fs) as p:
        p.run_until_text("Game running", 60000)
        player = lp.Player(p, on_press=presses.hook({}), entry="NEW MATCH")
        lp.play([player], p.run, out=out, until=lambda pl: pl[0].showdowns >= hands)
        p.run(500)
        return presses.rows, p.t / 1e9


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    session.add_arguments(ap)
    ap.add_argument("--hands", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="print each panel as it changes")
    a = ap.parse_args(argv)
    session.check(a)
    files = {} if a.frozen else h.board_files(a.root)
    fs = h.fs_image(files) if files else None
    out = print if a.verbose else None
    print("Button to frame, link match on two emulated boards and a game against the CPU "
          "(%s), %d hand(s) each, emulated ms (a real Pico is 10-40%% slower)"
          % (session.label(a), a.hands))
    t0 = time.time()
    rows, link_s, wire = link_hands(a, a.hands, fs, out)
    t1 = time.time()
    cpu_rows, cpu_s = cpu_hands(a, a.hands, fs, out)
    own = own_latencies(rows)
    cpu = own_latencies(cpu_rows)
    remote, flash = remote_latencies(rows)
    print("  link: a move's A on one board to the other board's frame: " + figures.stats(remote))
    print("        of which the two boards' flash writes (saves): " + figures.stats(flash))
    print("  link: LEFT/RIGHT to its own frame (from the press): " + figures.stats(own["direction"]))
    print("  link: a move's A to its own frame (from the release): " + figures.stats(own["A"]))
    print("  CPU:  LEFT/RIGHT to its own frame (from the press): " + figures.stats(cpu["direction"]))
    print("  CPU:  a move's A to its own frame (from the release): " + figures.stats(cpu["A"]))
    print("  [link %.1f s emulated, %.0f s host; CPU %.1f s emulated, %.0f s host]"
          % (link_s, t1 - t0, cpu_s, time.time() - t1))
    print("  wire (board 0 to 1, 1 to 0): %s" % wire)
    return 0


if __name__ == "__main__":
    sys.exit(main())
