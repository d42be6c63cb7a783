"""Game records: rules, seed and every move in card notation (DESIGN).

A record is plain text, the same bytes on every runtime, and replays to the
same match:

    gin-rummy record 2
    rules cardems knock_limit=10 ...
    seed 12345
    hand 1 fingerprint 704C02 deal 987654321 first 0
    0 draw_stock
    0 discard:Td
    ...
    result knock seat 0 points 11 scores 11 0
    hand 2 ...
    winner 0 scores 104 37

`replay` re-plays every move through the legality checks and verifies each
deal number, fingerprint and result line, so a record that does not match
the engine is rejected with the line that disagrees. The fingerprint
(engine.rng.fingerprint) is what the handheld showed when the hand
started; the deal number, shown at the showdown, must give it: the deck
was fixed before the first card was seen. Records of version 1 (no
fingerprints) still replay.
"""
from .hand import action_text
from .match import Match
from .rng import fingerprint_text
from .rules import Rules

HEADER = "gin-rummy record 2"
HEADER_V1 = "gin-rummy record 1"


def _result_line(res, scores):
    if res.winner is None:
        head = "result draw %s" % res.why
    else:
        head = "result %s seat %d points %d" % (res.kind, res.winner, res.points)
    return "%s scores %d %d" % (head, scores[0], scores[1])


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
    yield HEADER
    yield "rules " + match.rules.text()
    yield "seed %d" % match.seed
    scores = [0, 0]
    for i in range(len(match.hands)):
        h = match.hands[i]
        yield _hand_line(i + 1, h)
        for j in range(len(h.log)):
            yield "%d %s" % (h.log_seat[j], action_text(h.log[j]))
        if i < len(match.results):
            res = match.results[i]
            if res.winner is not None:
                scores[res.winner] += res.points
            yield _result_line(res, scores)
    if match.winner is not None:
        yield _winner_line(match)


def _hand_line(n, h):
    return "hand %d fingerprint %s deal %d first %d" % (n, fingerprint_text(h.deal), h.deal, h.first)


def _winner_line(m):
    line = "winner %d scores %d %d" % (m.winner, m.scores[0], m.scores[1])
    e = m.end
    if m.rules.match_bonus:       # V4
        line += " bonus %d %d %d total %d" % (e.game_bonus, e.hand_bonus,
                                             e.shutout_bonus, e.total)
    return line


def record_text(match):
    """The match so far as a record (ends with a newline)."""
    return "\n".join(record_lines(match)) + "\n"


def replay(text, on_move=None):
    """Rebuild a match from a record; ValueError naming the line that fails.

    on_move(match, seat, action) is called before each move, e.g. to print it.
    """
    if type(text) is not str:
        raise ValueError("a game record is text, not %r" % (text,))
    lines = [ln.strip() for ln in text.split("\n")]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    if len(lines) < 3 or lines[0] != HEADER and lines[0] != HEADER_V1:
        raise ValueError("not a game record (first line must be %r)" % HEADER)
    v1 = lines[0] == HEADER_V1
    if not lines[1].startswith("rules "):
        raise ValueError("line 2: expected 'rules ...'")
    rules = Rules.from_text(lines[1][6:])
    if not lines[2].startswith("seed "):
        raise ValueError("line 3: expected 'seed N'")
    m = Match(rules, _int(lines[2][5:], 3))
    hand_seen = 0
    for n in range(3, len(lines)):
        ln = lines[n]
        where = "record line %d (%s)" % (n + 1, ln)
        w = ln.split()
        if w[0] == "hand":
            if hand_seen:
                why = m.next_hand()
                if why:
                    raise ValueError("%s: %s" % (where, why))
            hand_seen += 1
            want = _hand_line(hand_seen, m.hand)
            if v1:      # no fingerprint: "hand N deal D first F"
                want = " ".join(want.split()[:2] + want.split()[4:])
            if ln != want:
                if len(w) >= 6 and w[2] == "fingerprint" and w[4] == "deal" and \
                        _int(w[5], n) == m.hand.deal and w[3] != fingerprint_text(m.hand.deal):
                    raise ValueError("%s: deal %d has the fingerprint %s, not %s" % (
                        where, m.hand.deal, fingerprint_text(m.hand.deal), w[3]))
                raise ValueError("%s: expected %s" % (where, want))
        elif w[0] == "result":
            if not m.results or len(m.results) != hand_seen:
                raise ValueError("%s: the hand has not ended" % where)
            want = _result_line(m.results[-1], _running(m))
            if ln != want:
                raise ValueError("%s: replay gives %r" % (where, want))
        elif w[0] == "winner":
            want = _winner_line(m) if m.winner is not None else "no winner yet"
            if ln != want:
                raise ValueError("%s: replay gives %r" % (where, want))
        elif w[0] in ("0", "1") and len(w) == 2:
            seat = int(w[0])
            if m.to_move != seat:
                raise ValueError("%s: it is not seat %s's move" % (where, w[0]))
            act = w[1]
            if act.startswith("draw_upcard:"):
                up = m.hand.upcard()
                if act != "draw_upcard:" + _ctext(up):
                    raise ValueError("%s: the upcard is %s" % (where, _ctext(up)))
            if on_move:
                on_move(m, seat, act)
            why = m.act(act)
            if why:
                raise ValueError("%s: %s" % (where, why))
        else:
            raise ValueError("%s: not understood" % where)
    return m


def _running(m):
    s = [0, 0]
    for r in m.results:
        if r.winner is not None:
            s[r.winner] += r.points
    return s


def _ctext(c):
    from .cards import card_text
    return card_text(c) if c < 52 else "none"


def _int(s, n):
    try:
        return int(s)
    except ValueError:
        raise ValueError("record line %d: %r is not a number" % (n + 1, s))
