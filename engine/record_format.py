"""The game record's lines (engine/record.py says what a record holds),
shared by the writer, engine/record.py, and what reads a record
(engine/record_read.py, engine/verify.py), which is imported only when a
record is read; the lines are read by engine/record_grammar.py."""
from .rng import fingerprint_text
from .sha256 import hex_text

# the header of a record of format 5 (a match with a cut) is engine/match.py's
# HEADER5 (engine/cut.py writes that header); engine/record_grammar.py reads
# every format, 1 to 5
HEADER_V4 = "gin-rummy record 4"    # chained commitments (1.1)
HEADER_V3 = "gin-rummy record 3"    # version 1.0.0's, and matches dealt by deal numbers


def result_line(res, scores):
    if res.winner is None:
        head = "result draw %s" % res.why
    else:
        head = "result %s seat %d points %d" % (res.kind, res.winner, res.points)
    return "%s scores %d %d" % (head, scores[0], scores[1])


def hand_line(n, h, match=None):
    if h.deal is not None:
        return "hand %d fingerprint %s deal %d first %d" % (
            n, fingerprint_text(h.deal), h.deal, h.first)
    if match is not None and n <= len(match.results):
        hs, nonce = match.proof(n - 1)
        return revealed_line(n, h.commit, hs, nonce, h.first)
    return "hand %d commit %s first %d" % (n, h.commit, h.first)


def revealed_line(n, commit, hs, nonce, first):
    return "hand %d commit %s seed %s nonce %s first %d" % (
        n, commit, hex_text(hs), hex_text(nonce), first)


def winner_line(m):
    line = "winner %d scores %d %d" % (m.winner, m.scores[0], m.scores[1])
    e = m.end
    if m.rules.match_bonus:       # V4
        line += " bonus %d %d %d total %d" % (e.game_bonus, e.hand_bonus,
                                             e.shutout_bonus, e.total)
    return line
