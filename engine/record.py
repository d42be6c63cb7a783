"""Game records: rules, seed and every move in card notation (DESIGN).

A record is plain text, the same bytes on every runtime, and replays to the
same match:

    gin-rummy record 4
    version 1.0.0
    rules cardems knock_limit=10 ...
    seed 12345
    match 7B40...(64 hex)
    [mirror]
    hand 1 commit 3FA09C21B7...(64 hex) seed 6E0F...(32 hex) nonce 91AB...(32 hex) first 0
    0 draw_stock
    0 discard:Td
    ...
    result knock seat 0 points 11 scores 11 0
    hand 2 ...
    winner 0 scores 104 37

`version` is the game's version (engine/version.py) that wrote it. A hand
line is one of:

    hand N commit C seed S nonce X first F   a committed deal (engine/deal.py)
    hand N commit C first F                  ... still in play: not revealed
    hand N fingerprint P deal D first F      a match dealt by deal numbers

For a committed deal C is the hand's full commitment (the handheld showed
its first 10 hex digits when the hand started), S and X the hand's seed
and nonce it revealed once the hand was over: C is chained (engine/deal.py:
SHA-256 of the commitment before it, the hand's number, S and X; the
`match` line's C0 starts the chain from the header, rules and seed lines),
X is fixed by the commitment before it and S, and S deals the hand. A
record of format 3 (version 1.0.0, and every match dealt by deal numbers)
has no `match` line, and a committed hand's C is the first 10 hex digits
of SHA-256(S || X). For a deal number D, P is engine.rng.fingerprint(D) (a
check value, not a secret: tests, tools and matches from before committed
deals).

`mirror` follows the `match` line (the seed line where there is none) in
the record of a link match's second board (engine/match.py): its seat 0 is
that board's player, dealt the cards the other board's record gives seat
1, so both boards' records replay. The commitments are of the deals, not of
the seats: both boards' records hold the same `match` line and hand
commitments, and the `mirror` line is in none of them (it and every seat
number swapped give the other board's record of the same match).

`replay` checks every commitment (or fingerprint), deals every hand again,
re-plays every move through the legality checks and verifies each result
line, so a record that does not match the engine is rejected with the line
that disagrees. Records of version 1 (no fingerprints) and 2 (no version
line) still replay. A record from a newer version of the game, whose
format this one may not read, is refused with NewerRecord, which says so.

Reading a record (replay, engine/record_read.py, with its lines read by
engine/record_grammar.py) is imported only when asked for: the handheld
writes records and never reads one, and on the .mpy bundle every module's
code is held on the heap. This writer itself is loaded by
engine/__init__.py's record_text and write_record when the first record
is written (a hand's end), after a match's first save. The lines both
sides know are engine/record_format.py's.
"""
from .hand import action_text
from .version import VERSION
from .record_format import HEADER_V3, HEADER_V4, hand_line, result_line, winner_line, revealed_line
from .sha256 import hex_text


def write_record(match, write):
    """Stream the record line by line to write(str) (a file's write, or
    sys.stdout.write): a whole match never has to sit in memory as one string."""
    for line in _lines(match):
        write(line)
        write("\n")


def record_lines(match):
    return list(_lines(match))


def _lines(match):
    """The record's lines (a generator; not a hot path)."""
    chained = match.chained
    cut = match.cut
    if cut is not None:             # format 5: the lines its C0 is of
        from .cut import header_lines
        for line in header_lines(match):
            yield line
    else:
        yield HEADER_V4 if chained else HEADER_V3
        yield "version " + VERSION
        yield "rules " + match.rules.text()
        yield "seed %d" % match.seed
    walk = None
    if chained:
        if cut is None:
            yield "match " + hex_text(match.chain_start())
        walk = match.chain()
    if match.mirror:
        yield "mirror"
    scores = [0, 0]
    for i in range(len(match.hands)):
        h = match.hands[i]
        if walk is None:
            yield hand_line(i + 1, h, match)
        elif i < len(match.results):
            hs, nonce, c = next(walk)
            yield revealed_line(i + 1, hex_text(c), hs, nonce, h.first)
        else:
            yield "hand %d commit %s first %d" % (i + 1, hex_text(match.chain_head()), h.first)
        for j in range(len(h.log)):
            yield "%d %s" % (h.log_seat[j], action_text(h.log[j]))
        if i < len(match.results):
            res = match.results[i]
            if res.winner is not None:
                scores[res.winner] += res.points
            yield result_line(res, scores)
    if match.winner is not None:
        yield winner_line(match)
        if cut is not None:         # the deals to come are no more: the secret
            from .cut import sealed_lines
            for line in sealed_lines(match):
                yield line


def record_text(match):
    """The match so far as a record (ends with a newline)."""
    return "\n".join(record_lines(match)) + "\n"


def replay(text, on_move=None):
    """Rebuild a match from a record; ValueError naming the line that fails
    (engine/record_read.py)."""
    from .record_read import replay as _replay

    return _replay(text, on_move)
