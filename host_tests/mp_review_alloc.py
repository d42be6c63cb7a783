"""Prove a hand review allocates nothing once made (run on MicroPython).

Usage: micropython host_tests/mp_review_alloc.py ROOT
Plays seeded matches (easy against hard); after each hand, for each seat,
makes an engine.review.Review (which may allocate), then runs every one of
its steps under micropython.heap_lock(): any allocation raises MemoryError.
On the 32-bit WebAssembly port an int reaching 2**30 would allocate too.
Prints "review alloc-free: N reviews, M decisions, K shown".
"""
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")
import gc
import micropython
from engine import Match
from engine.ai import Player
from engine.review import Review


def main():
    reviews = decisions = shown = 0
    for seed in (3, 4, 5, 6):
        m = Match(None, seed)
        players = (Player("easy", seed), Player("hard", seed + 1))
        reviewers = (Player("hard", 0), Player("hard", 1))
        while m.phase != "match_over":
            if m.phase == "hand_over":
                i = len(m.results) - 1
                for seat in (0, 1):
                    r = Review(m, i, seat, reviewers[seat])
                    gc.collect()
                    micropython.heap_lock()
                    try:
                        while r.step():
                            pass
                    finally:
                        micropython.heap_unlock()
                    reviews += 1
                    decisions += r.n
                    shown += r.ntop
                m.next_hand()
                continue
            s = m.to_move
            m.act(players[s].choose(m.view(s)))
    print("review alloc-free: %d reviews, %d decisions, %d shown" % (reviews, decisions, shown))


main()
