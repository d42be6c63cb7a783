"""A reviewed decision in a few words (engine/review.py's records).

    words(rec) -> ("T6 YOU THREW 8h: CPU MELDED IT", "BETTER 9c", 7)

The first line says what was played, the second what the hard level would
have played, then the cost in points (the screens show it as -7). T6 is
the player's sixth turn of the hand (T1: its first draw or pass). Cards are
in the project's notation (8h); the screens draw them as card glyphs.
Not a hot path: it allocates the strings.

A record is REC_LEN bytes: turn, the move played and the hard level's
choice (engine action codes), the upcard at that moment, the deadwood each
of the two moves leaves (discards and knocks), flags (F_TOOK, F_MELDED),
the cost (x16, two bytes, high first).
"""
from .cards import card_text
from .hand import DRAW_STOCK, DRAW_UPCARD, PASS, KNOCK
from .review import F_TOOK, F_MELDED, REC_LEN, points


def cost_of(rec):
    """A record's cost (x16)."""
    return (rec[7] << 8) | rec[8]


def words(rec, me="YOU", opp="CPU"):
    """(what was played, what was better, cost in points) of a record;
    `me` names the reviewed player, `opp` the other."""
    if len(rec) != REC_LEN:
        raise ValueError("a review record is %d bytes, not %d" % (REC_LEN, len(rec)))
    turn, played, best, up, tdw, bdw, flags = rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6]
    t = "T%d %s " % (turn, me)
    took = ""
    if flags & F_MELDED:
        took = ": %s MELDED IT" % opp
    elif flags & F_TOOK:
        took = ": %s TOOK IT" % opp
    if played == PASS or played == DRAW_STOCK or played == DRAW_UPCARD:
        u = card_text(up) if up < 52 else "?"
        if played == PASS:
            first = t + "PASSED ON " + u + took
        elif played == DRAW_STOCK:
            first = t + "LEFT " + u + " ON THE PILE"
        else:
            first = t + "TOOK " + u
        return first, _better(best, bdw), points(cost_of(rec))
    c = card_text(played & 63)
    if played < KNOCK:
        if best >= KNOCK:
            first = t + ("COULD GO GIN" if bdw == 0 else "COULD KNOCK (DW %d)" % bdw)
        else:
            first = t + "THREW " + c + took
        return first, _better(best, bdw), points(cost_of(rec))
    if tdw == 0:
        first = t + "WENT GIN WITH " + c
    elif best >= KNOCK and bdw == 0:
        first = t + "COULD GO GIN"
    elif best >= KNOCK:
        first = t + "KNOCKED WITH " + c
    else:
        first = t + "KNOCKED (DW %d)" % tdw
        return first, "BETTER PLAY ON, THROW " + card_text(best & 63), points(cost_of(rec))
    return first, _better(best, bdw), points(cost_of(rec))


def _better(best, bdw):
    """The hard level's choice, as the second line says it."""
    if best == DRAW_STOCK:
        return "BETTER THE STOCK"
    if best == DRAW_UPCARD:
        return "BETTER TAKE IT"
    if best == PASS:
        return "BETTER PASS"
    c = card_text(best & 63)
    if best >= KNOCK:
        return ("GIN WITH " if bdw == 0 else "KNOCK WITH ") + c
    return "BETTER " + c


def average(total, n):
    """The average cost per decision in points with one decimal, '1.3'
    (integers only: the same text on every runtime)."""
    if n <= 0:
        return "0.0"
    tenths = (total * 10 + 8 * n) // (16 * n)
    return "%d.%d" % (tenths // 10, tenths % 10)


def cost(total, n):
    """average() as the screens show a cost: '-1.3', and '0.0' (never
    '-0.0') when it rounds to nothing."""
    a = average(total, n)
    return a if a == "0.0" else "-" + a


def line(rec, me="YOU", opp="CPU"):
    """A record on one line: 'T6 YOU THREW 8h: CPU MELDED IT / BETTER 9c  -7'."""
    a, b, p = words(rec, me, opp)
    return "%s / %s  -%d" % (a, b, p)
