"""Play seeded matches between two scripted players and print their records.

One match under each rules preset (Cardems, Classic, Oklahoma, Bonus) and
one V6 three-player box match, or only the one named with --rules NAME
(a preset name or "box").

    python tools/records/record_match.py [SEED] [--rules NAME]   (default seed 0)
    micropython tools/records/record_match.py [SEED]
    node tools/kit/run_wasm.mjs tools/records/record_match.py [SEED]

Runs unchanged on CPython, the MicroPython unix port and the MicroPython
WebAssembly port; host_tests/engine/test_runtimes.py checks that all of them print
the same bytes.  Uses only the engine's public API.

The scripted players are deterministic:
- first_upcard / draw: take the upcard when holding it (and then making the
  best discard other than it) lowers the player's deadwood by at least the
  player's margin (seat 0: 1, seat 1: 4); otherwise pass / draw from stock.
- discard: pick the best discard (never the card just taken); try
  'knock:Xx' with it, and if the engine refuses, 'discard:Xx'.
After the match the record is replayed through the engine as a check.
"""

import sys

import _root  # this script's folder, tools/records/, is first on sys.path on every runtime

_root.add_repo_root()

from engine import (Match, PRESETS, preset, best_discard, best_melds,  # noqa: E402
                    card_text, record_text, replay)
from tools.kit.play import play_out  # noqa: E402

MARGINS = (1, 4)        # how much a taken upcard must lower deadwood, per seat


def wants_upcard(view, margin):
    up = view.upcard
    if up is None:
        return False
    hand = view.hand
    now = best_melds(hand)[0]
    after = best_discard(hand + [up], up)[0]
    return now - after >= margin


def choose(m, seat):
    """The scripted player's action for seat `seat` (it is its move)."""
    view = m.view(seat)
    seat = view.seat
    legal = m.legal()
    phase = m.phase
    if phase in ("first_upcard", "draw"):
        if "draw_upcard" in legal and wants_upcard(view, MARGINS[seat]):
            return ["draw_upcard"]
        if "draw_stock" in legal:
            return ["draw_stock"]
        return ["pass"]
    if phase == "discard":
        _, c = best_discard(view.hand, view.taken)
        t = card_text(c)
        return ["knock:" + t, "discard:" + t]
    raise RuntimeError("seat %d to move in phase %r" % (seat, phase))


def play(seed, rules=None):
    m = Match(rules, seed)
    play_out(m, choose)
    return m


def play_box(seed):
    """A V6 box match between three scripted players."""
    from engine.box import BoxMatch
    m = BoxMatch(None, seed)
    play_out(m, choose)
    return m


def main(argv):
    args = list(argv[1:])
    presets = PRESETS
    if "--rules" in args:
        i = args.index("--rules")
        presets = () if args[i + 1] == "box" else (preset(args[i + 1]),)
        del args[i:i + 2]
    seed = int(args[0]) if args else 0
    for rules in presets:
        m = play(seed, rules)
        text = record_text(m)
        again = replay(text)
        if record_text(again) != text:
            raise RuntimeError("the record does not replay to the same match")
        sys.stdout.write(text)
    if "--rules" not in argv or "box" in argv:
        from engine.box import box_record_text
        from engine.box_read import box_replay
        text = box_record_text(play_box(seed))
        if box_record_text(box_replay(text)) != text:
            raise RuntimeError("the box record does not replay to the same match")
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv)
