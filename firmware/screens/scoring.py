"""A hand's score written as its sum (R10), for the showdown and the result:

    knock      DEADWOOD 18 - 7 = 11      the defender's deadwood after
                                         layoffs less the knocker's
    undercut   1 + 25 UNDERCUT = 26      the knocker's less the defender's,
                                         plus the undercut bonus
    gin        21 + 25 GIN = 46          the defender's deadwood plus the
                                         gin bonus

The bonus is whatever the hand scored above the deadwood difference, so the
sum always adds up to the points the engine gave (25 in Cardems; the box
game's undercut is worth 10, V6). Allocates: call when a screen is entered.
"""


def score_sum(res):
    """The sum of a won hand's points as bytes; b"" for a drawn hand."""
    o = res.outcome
    if o is None or res.winner is None:
        return b""
    k = o.knocker_deadwood
    d = o.defender_deadwood
    if res.kind == "knock":
        return ("DEADWOOD %d - %d = %d" % (d, k, res.points)).encode()
    diff = d if res.kind == "gin" else k - d
    word = "GIN" if res.kind == "gin" else "UNDERCUT"
    return ("%d + %d %s = %d" % (diff, res.points - diff, word, res.points)).encode()
