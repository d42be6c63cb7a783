"""Prove the engine's hot paths allocate nothing (run on MicroPython).

Usage: micropython host_tests/mp_alloc_check.py ROOT
Plays seeded matches to collect positions (allocating freely), then, under
micropython.heap_lock(), computes for every position: the deadwood of a
10-card hand, the best discard of an 11-card hand and the legal-action
enumeration. Any allocation raises MemoryError. On the 32-bit WebAssembly
port an int reaching 2**30 would allocate too, so this also proves those
paths stay in small ints. Prints "alloc-free: N positions".
"""
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")
import gc
import micropython
from engine import Match
from engine.melds import deadwood4, best_discard4
from engine.hand import DISCARD_PHASE


def position(seed):
    """Play match `seed` for a seed-dependent number of moves; the position
    then reached (its hand is not advanced again)."""
    m = Match(None, seed)
    steps = (seed * 37) % 160
    k = 0
    while k < steps or m.phase not in ("draw", "discard"):
        if m.phase == "match_over":
            m = Match(None, seed + 100000)
            continue
        if m.phase == "hand_over":
            m.next_hand()
            continue
        legal = m.legal()
        m.act(legal[(k * 7 + seed) % len(legal)])
        k += 1
    h = m.hand
    o = h.turn * 4
    return (h, [h.masks[o], h.masks[o + 1], h.masks[o + 2], h.masks[o + 3]],
            h.phase == DISCARD_PHASE, h.taken)


def main():
    pos = [position(seed) for seed in range(1, 301)]
    n11 = len([p for p in pos if p[2]])
    buf = bytearray(64)
    total = 0
    gc.collect()
    micropython.heap_lock()
    try:
        for h, m, eleven, taken in pos:
            if eleven:
                total += best_discard4(m, taken) >> 6
                total += h.legal_codes(buf)
                total += h.deadwood(h.turn)
            else:
                total += deadwood4(m[0], m[1], m[2], m[3])
                total += h.legal_codes(buf)
                total += h.deadwood(1 - h.turn)
    finally:
        micropython.heap_unlock()
    print("alloc-free: %d positions, %d with 11 cards (checksum %d)" % (len(pos), n11, total))


main()
