"""What a committed deal costs (engine/deal.py): the six SHA-256
computations of one hand (its seed and nonce, its commitment, the
shuffle's four blocks), with the runtime's hashlib and with the engine's
own small-integer code (engine/sha256_code.py, what a runtime without
hashlib runs); then what the handheld spends at a hand's start
(Match.next_hand: the hand's seed, nonce and commitment and the deal, and
in record format 5 the transcript of the hand before it) in a match
without a cut (format 4) and with one (format 5), and the seal at the
match's end (Match.seal), over the hands of matches played to their end.

    python3 -m tools.bench.bench_deal
    micropython tools/bench/bench_deal.py      (from the repository root)

Prints the mean time of a hand over 200 hands, for each; then the median
hand's start and seal in ms, with the Pico's estimate from the DESIGN's
ratio (the game's Python runs 175-260 times slower on a Pico than on the
unix port; the rp2 port has hashlib).
"""
import sys
import time

try:
    import gc
except ImportError:
    gc = None

if "." not in sys.path:
    sys.path.insert(0, ".")

import engine.sha256 as S  # noqa: E402
from engine import Match  # noqa: E402
from engine.cut import seal  # noqa: E402
from engine.deal import commitment, deck_from_seed, hand_keys, secret_from_int  # noqa: E402

HANDS = 200
MATCHES = 6
PICO = (175, 260)       # the DESIGN's ratio: a Pico against the unix port


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


def _pick(legal):
    for a in legal:
        if a.startswith("knock:"):
            return a
    return "draw_stock" if "draw_stock" in legal else legal[-1]


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def starts_and_seals(cut):
    """(median ms of a hand's start, median ms of the seal or None, hands)
    over MATCHES matches played to their end (a match with `cut`: format
    5); the heap collected before each, so that a collection does not fall
    inside one."""
    starts = []
    seals = []
    for k in range(MATCHES):
        secret = secret_from_int(k)
        m = Match(None, k, secret=secret, cut=cut, level="hard") if cut else \
            Match(None, k, secret=secret)
        # not tools/kit/play.play_out: each next_hand is timed on its own
        while m.winner is None:
            while m.to_move is not None:
                m.act(_pick(m.legal()))
            if m.winner is not None:
                break
            if gc is not None:
                gc.collect()
            t0 = _now()
            m.next_hand()
            starts.append(_ms(t0, _now()))
        if cut:
            if gc is not None:
                gc.collect()
            t0 = _now()
            seal(m)
            seals.append(_ms(t0, _now()))
    return _median(starts), (_median(seals) if cut else None), len(starts)


def _pico(ms, name):
    if name != "micropython":       # the ratio is to the unix port's times
        return ""
    return "; %.0f-%.0f ms on a Pico" % (ms * PICO[0], ms * PICO[1])


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
    for source in ("hashlib", "engine.sha256_code"):
        if source == "hashlib" and lib is None:
            continue
        if source != "hashlib":
            S.lib = None
        try:
            four = starts_and_seals(None)
            five = starts_and_seals("HELLO")
        finally:
            S.lib = lib
        print("%s, %s: a hand's start %.3f ms without a cut (format 4%s), %.3f ms with one "
              "(format 5%s), over %d hands" % (name, source, four[0], _pico(four[0], name),
                                                five[0], _pico(five[0], name), five[2]))
        print("%s, %s: the seal %.3f ms (at the match's end%s)" % (name, source, five[1],
                                                                 _pico(five[1], name)))


main()
