"""A decision with MicroPython's heap locked: every frame on the C stack.

A decision allocates nothing, but MicroPython takes the frame of a call
with more than 11 words of locals and stack from the heap when it can
(freed on return) and from the C stack only when the heap refuses. On a
nearly full heap (the .mpy bundle on a Pico: 1-2 KB free) every such call
searched the heap for a free run, or collected it when none was long
enough: decisions in the App took 2-4x their time alone. Locked, every
frame is on the C stack. That stack is 8 KB on a Pico, so the calls are
kept shallow: locked_decision calls the decision's parts itself, and the
meld searches recurse without helper levels (engine/melds.py).
"""
from ..compat import const, heap_lock, heap_unlock

# the parts of a decision
PART_ALL = const(0)
PART_FIRST = const(1)       # Player.choose_first: as far as the knock check
PART_REST = const(2)        # Player.choose_rest: the rest


def locked_decision(p, view, part, lv):
    """Player p's decision, or its `part`, at level lv for the view p.k has
    read, with the heap locked. Whatever the lock refuses (an allocation:
    MemoryError; a C stack too deep for the frames: RuntimeError) makes the
    part again unlocked, the view read afresh, and counts in p.unlocked; a
    real fault raises there as it would have. While the heap is locked the
    handler and the finally allocate nothing (a bare name to match, no
    tuple)."""
    k = p.k
    lock = heap_lock is not None
    while True:
        if lock:
            heap_lock()
        try:
            if part == PART_REST:
                p._setup(k, lv)
            else:
                code = p._decide_first(k, lv)
                if code >= 0 or part == PART_FIRST:
                    return code
            return p._decide_rest(k, lv)
        except Exception:
            if not lock:
                raise
        finally:
            if lock:
                heap_unlock()
        lock = False
        p.unlocked += 1
        k.key_hand = -1
        k.fill(view)
