"""The README's picture of a hand's review, made with the real evaluator.

    .venv/bin/python -m tools.sim.review_shot [--seed 3] [--out docs/review.png]

The simulator plays seeded hands, the player's side pressing the buttons of
a simple policy (take the upcard only when it lowers the deadwood, throw
what leaves the least, knock at once: the tests' own), against the normal
AI, until a hand's review (DOWN on the result) shows three decisions;
that screen is written as a PNG. The review is the handheld's, so the
picture changes when the evaluator does: run this again then.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

from tools.kit.ui_driver import play_turn  # noqa: E402
from tools.sim import render  # noqa: E402
from tools.sim.simulator import MemStorage, Sim  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "review.png"))
    a = ap.parse_args(argv)
    sim = Sim(seed=a.seed, storage=MemStorage(), level="normal", settings={"speed": "fast"})
    sim.press("A")
    for _ in range(2000):
        s = sim.screen
        if s == "result":
            sim.press("D")
            if len(sim.app.screen.entries) == 3:
                os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
                render.to_png(sim.image(), a.out)
                print("%s: hand %d of seed %d" % (a.out, sim.app.screen.index + 1, a.seed))
                return 0
            sim.press("A")
        elif s in ("showdown", "match_end"):
            sim.press("A")
        elif s == "title":
            sim.press("A")
        else:
            play_turn(sim)
    print("no hand with three decisions to show")
    return 1


if __name__ == "__main__":
    sys.exit(main())
