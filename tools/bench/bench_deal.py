"""What a committed deal costs (engine/deal.py): the six SHA-256
computations of one hand (its seed and nonce, its commitment, the
shuffle's four blocks), with the runtime's hashlib and with the engine's
own small-integer code (engine/sha256_code.py, what a runtime without
hashlib runs).

    python3 -m tools.bench.bench_deal
    micropython tools/bench/bench_deal.py      (from the repository root)

Prints the mean time of a hand over 200 hands, for each.
"""
import sys
import time

if "." not in sys.path:
    sys.path.insert(0, ".")

import engine.sha256 as S  # noqa: E402
from engine.deal import commitment, deck_from_seed, hand_keys  # noqa: E402

HANDS = 200


def _now():
    t = getattr(time, "ticks_us", None)
    return t() if t is not None else time.perf_counter()


def _ms(t0, t1):
    d = getattr(time, "ticks_diff", None)
    return d(t1, t0) / 1000 if d is not None else (t1 - t0) * 1000


def per_hand():
    secret = bytes(range(16))
    t0 = _now()
    for n in range(1, HANDS + 1):
        seed, nonce = hand_keys(secret, n)
        commitment(seed, nonce)
        deck_from_seed(seed)
    return _ms(t0, _now()) / HANDS


def main():
    impl = getattr(sys, "implementation", None)
    name = impl.name if impl else "python"
    if S.lib is not None:
        print("%s, hashlib: %.3f ms a hand" % (name, per_hand()))
    lib = S.lib
    S.lib = None
    try:
        print("%s, engine.sha256_code: %.3f ms a hand" % (name, per_hand()))
    finally:
        S.lib = lib


main()
