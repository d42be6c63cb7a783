"""What a forger holding a game record can make with the project's own
code (engine/): the kinds of tampering tools/records/forgery.py counts
beyond a line changed by hand.

- the scores made to agree with changed results (rescore);
- the chain of commitments made again (remake: rechain for format 4,
  rechain5 for format 5, where each hand's transcript and the seal are
  made again from what the lines claim, as the engine hashes them);
- a hand committed again with another nonce (forged_commitment);
- the match replayed under other rules (rescored_under), or with other
  legal moves from some hand on and written by the project's own writer
  (other_play: the deals are known once revealed, and with a revealed
  secret and cut every deal of the match);
- the seats swapped with a mirror line (seats_swapped), and two records
  spliced (splice).

Runs on CPython and the MicroPython unix port (tools/records/ scripts;
deterministic: engine.rng, no `random`).
"""
import _root  # this script's folder, tools/records/, is first on sys.path on every runtime

_root.add_repo_root()

from engine import Match, record_text  # noqa: E402
from engine.box import BoxMatch, box_record_text  # noqa: E402
from engine.cut import hand_over, header_commitment, seal_of  # noqa: E402
from engine.deal import (chained_commitment, chained_nonce, commitment,  # noqa: E402
                         match_commitment)
from engine.hand import TOOK, action_code  # noqa: E402
from engine.cards import card  # noqa: E402
from engine.record_format import result_line, winner_line  # noqa: E402
from engine.record_grammar import (BOX_HEADERS, HEADERS, HandLine, Head, items_of,  # noqa: E402
                                   match_args)
from engine.rng import Rng  # noqa: E402
from engine.sha256 import hex_text  # noqa: E402
from record_match import choose  # noqa: E402

# the lines that close a record, after its last hand
CLOSING = ("scores", "winner", "secret", "seal")


def format_of(header):
    """The record format of a record's first line (None: no record's)."""
    box = header.startswith("gin-rummy box record")
    return (BOX_HEADERS if box else HEADERS).get(header)


def rescore(lines):
    """The running scores of every result line, the winner line and a box
    record's scores line made to agree with the results' points."""
    out = []
    s = [0, 0, 0]
    for ln in lines:
        w = ln.split()
        if w[0] == "result" and len(w) >= 8 and w[2] == "seat":
            s[int(w[3])] += int(w[5])
            w[-2:] = [str(s[0]), str(s[1])]
        elif w[0] == "result" and w[1] == "draw" and len(w) == 6:
            w[-2:] = [str(s[0]), str(s[1])]
        elif w[0] == "result" and len(w) == 6 and w[2] == "player":
            s[int(w[3])] += int(w[5])
        elif w[0] == "winner" and len(w) >= 5:
            w[3:5] = [str(s[0]), str(s[1])]
        elif w[0] == "scores" and len(w) == 4:
            w[1:] = [str(s[0]), str(s[1]), str(s[2])]
        out.append(" ".join(w))
    return out


def rescored_under(g, rules_line):
    """A two-player record replayed under other rules, its results and
    winner line rewritten to agree (hand lines kept as they are), or None
    when a move is not legal under those rules."""
    try:
        text = "\n".join([rules_line if ln.startswith("rules ") else ln
                          for ln in g.lines
                          if ln.split()[0] not in ("result", "winner", "secret", "seal")]) + "\n"
        from engine.rules import Rules
        reveals = []
        for hl in hand_lines(g.lines):
            if hl.kind == "revealed":
                reveals.append((hl.seed, hl.nonce))
        m = Match(Rules.from_text(rules_line[6:]), Head(items_of(g.text), g.box).seed,
                  reveals=reveals if reveals else None)
    except ValueError:
        return None
    out = []
    k = 0
    scores = [0, 0]
    for ln in text.split("\n")[:-1]:
        w = ln.split()
        if w[0] == "hand":
            k += 1
            if k > 1:
                try:
                    if m.next_hand():
                        return None
                except ValueError:      # the hand in play: its seed is not revealed
                    return None
            out.append(ln)
        elif w[0] in ("0", "1") and len(w) == 2:
            if m.to_move != int(w[0]) or m.act(w[1]):
                return None
            out.append(ln)
            if len(m.results) == k:
                r = m.results[-1]
                if r.winner is not None:
                    scores[r.winner] += r.points
                out.append(result_line(r, scores))
        else:
            out.append(ln)
    if m.winner is not None:
        out.append(winner_line(m))
    return out


def forged_commitment(g, hand_words, nonce_hex):
    """The commitment a forger computes for a hand line's seed and a new
    nonce, as the record's format defines it (format 4: from the
    commitment before it in the record, the hand's number, seed and nonce)."""
    from engine.sha256 import from_hex
    hl = read_hand(" ".join(hand_words), g.lines[0])
    nonce = from_hex(nonce_hex)
    if not g.lines[0].endswith(" 4"):
        return commitment(hl.seed, nonce)
    prev = Head(items_of(g.text), g.box).chain
    for h in hand_lines(g.lines):
        if h.n == hl.n:
            break
        prev = from_hex(h.commit)
    return hex_text(chained_commitment(prev, hl.n, hl.seed, nonce))


def rechain(lines):
    """The lines with the match's commitment and every revealed hand's
    nonce and commitment made again from what the lines say (format 4), as
    a forger who rewrites the whole record would; None when the lines are
    not read so far."""
    from engine.rules import Rules
    from engine.sha256 import from_hex
    try:
        header = lines[0]
        rl = [ln for ln in lines if ln.startswith("rules ")][0]
        sl = [ln for ln in lines if ln.startswith("seed ")][0]
        rules = Rules.from_text(rl[6:])
        prev = match_commitment(header, rules.text(), int(sl.split()[1]))
        out = []
        for ln in lines:
            w = ln.split()
            if w[0] == "rules":
                ln = "rules " + rules.text()
            elif w[0] == "match":
                ln = "match " + hex_text(prev)
            elif w[0] == "hand" and read_hand(ln, header).kind == "revealed":
                seed = from_hex(w[5])
                nonce = chained_nonce(prev, seed)
                prev = chained_commitment(prev, int(w[1]), seed, nonce)
                w[3] = hex_text(prev)
                w[7] = hex_text(nonce)
                ln = " ".join(w)
            out.append(ln)
        return out
    except (ValueError, IndexError):
        return None


def read_hand(ln, header):
    """Hand line `ln` of a record whose first line is `header`, as the
    record's grammar reads it (engine/record_grammar.py); ValueError when
    it does not read."""
    box = header.startswith("gin-rummy box record")
    fmt = (BOX_HEADERS if box else HEADERS).get(header)
    if fmt is None:
        raise ValueError("not a record's first line: %r" % header)
    return HandLine((0, ln, ln.split()), None, fmt, box)


def hand_lines(lines):
    """The hand lines of a record's lines, read (HandLine)."""
    return [read_hand(ln, lines[0]) for ln in lines if ln.startswith("hand ")]


def remake(lines):
    """The lines with their chain made again as the record's format defines
    it (format 4: rechain; format 5: rechain5); None for an older format or
    lines that do not read so far."""
    f = format_of(lines[0]) if lines else None
    if f == 4:
        return rechain(lines)
    if f == 5:
        return rechain5(lines)
    return None


def _log_code(tok):
    """The log code (engine/hand.py) of a move as a record writes it."""
    if tok.startswith("draw_upcard:"):
        return TOOK + card(tok[12:])
    return action_code(tok)


def rechain5(lines):
    """Format 5: the lines with the header's commitment, every revealed
    hand's nonce and commitment, each finished hand's transcript and the
    seal made again from what the lines say (the moves, the results and
    the winner they claim), as a forger who rewrites the whole record with
    the engine's own hashing would; None when the lines do not read so far."""
    try:
        box = lines[0].startswith("gin-rummy box record")
        ci = [i for i in range(len(lines)) if lines[i].startswith("cut ")][0]
        prev = header_commitment(lines[:ci + 1])
        mirror = 1 if "mirror" in lines else 0
        out = list(lines)
        c = None
        log = bytearray()
        outcome = None
        roles = None
        scores = None
        for i in range(len(lines)):
            w = lines[i].split()
            if w[0] == "hand":
                if c is not None and outcome is not None:       # the hand before, whole
                    prev = hand_over(c, log, outcome)
                hl = read_hand(lines[i], lines[0])
                roles = hl.roles
                c = None
                if hl.kind == "revealed":
                    nonce = chained_nonce(prev, hl.seed)
                    c = chained_commitment(prev, hl.n, hl.seed, nonce)
                    w[3] = hex_text(c)
                    w[7] = hex_text(nonce)
                    out[i] = " ".join(w)
                log = bytearray()
                outcome = None
            elif len(w) == 2 and w[0] in ("0", "1", "2"):
                log.append(_log_code(w[1]))
            elif w[0] == "result":
                outcome = _outcome(w, mirror, roles)
            elif w[0] == "scores":
                scores = w[1:]
            elif w[0] == "seal" and c is not None and outcome is not None:
                win = [ln.split() for ln in lines if ln.startswith("winner ")][0]
                out[i] = "seal " + hex_text(seal_of(hand_over(c, log, outcome),
                                                    _closing(win, mirror, box, scores), mirror))
        return out
    except (ValueError, IndexError, KeyError, TypeError):
        return None


def _outcome(w, mirror, roles):
    """Dealer.outcome of the result line words `w`, as the line claims it."""
    if w[1] == "draw":
        return "draw " + w[2]
    if w[2] == "player":            # a box hand: the hand seat of the player who scores
        seat = 0 if int(w[3]) == roles[1] else 1
        return "%s %d %s" % (w[1], seat, w[5])
    return "%s %d %s" % (w[1], int(w[3]) ^ mirror, w[5])


def _closing(win, mirror, box, scores):
    """Match.closing or BoxMatch.closing of the winner line words, as claimed."""
    if box:
        return "winner %s scores %s" % (win[1], " ".join(scores))
    s = [win[3], win[4]]
    text = "winner %d scores %s %s" % (int(win[1]) ^ mirror, s[mirror], s[1 - mirror])
    if "total" in win:
        text += " total " + win[win.index("total") + 1]
    return text


def _record(m):
    return box_record_text(m) if isinstance(m, BoxMatch) else record_text(m)


def _hands_of(lines):
    """The move words of each hand of a record's lines, in hand order."""
    out = []
    for ln in lines:
        w = ln.split()
        if w[0] == "hand":
            out.append([])
        elif out and len(w) == 2 and w[0] in ("0", "1", "2"):
            out[-1].append(w)
    return out


def rebuilt(g):
    """The match of genuine record g as a forger deals it again: from its
    revealed secret and cut (format 5 once over: every deal of the match),
    else from the seeds its hand lines reveal; at the start of hand 1."""
    head = Head(items_of(g.text), g.box)
    reveals = [(h.seed, h.nonce) for h in hand_lines(g.lines) if h.kind == "revealed"]
    kw = match_args(head, items_of(g.text)[-2:]) if head.format >= 5 else {}
    chained = head.format >= 4
    if g.box:
        return BoxMatch(head.rules, head.seed, reveals=reveals, chained=chained, **kw)
    return Match(head.rules, head.seed, reveals=reveals, chained=chained, mirror=head.mirror, **kw)


def other_play(g, j, salt):
    """The record of the same match played as in g up to hand j (1-based),
    then with other legal moves, written by the project's own writer:
    the seat that lost g plays the scripted player, the other a move drawn
    from the legal ones (engine.rng, seeded by `salt`), so that the loser
    may win; the match goes on while its deals are known. None when the
    forger cannot deal hand j."""
    try:
        m = rebuilt(g)
    except ValueError:
        return None
    hands = _hands_of(g.lines)
    loser = _loser(g)
    rng = Rng(salt)
    k = 1
    # not tools/kit/play.play_out: hands before j replay g's moves, later
    # ones stop where a seat's moves run out (400) or a deal is not known
    while m.winner is None:
        if k < j:
            for w in hands[k - 1]:
                if m.act(w[1]):
                    return None
        else:
            n = 0
            while m.to_move is not None and n < 400:
                seat = m.to_move
                legal = m.legal()
                if seat == loser:
                    acts = choose(m, seat)
                else:
                    acts = [legal[rng.below(len(legal))]]
                for a in acts:
                    if m.act(a) is None:
                        break
                n += 1
        if m.winner is not None or m.to_move is not None:
            break
        try:
            if m.next_hand():
                break
        except ValueError:          # the next deal is not known to the forger
            break
        k += 1
    try:
        return _record(m).split("\n")[:-1]
    except (ValueError, TypeError):
        return None


def _loser(g):
    """The seat (box: player) that lost genuine record g, or 1."""
    for ln in g.lines:
        w = ln.split()
        if w[0] == "winner":
            if g.box:
                return 0 if w[1] != "0" else 1
            return 1 - int(w[1])
    return 1


def seats_swapped(lines):
    """A two-player record as the other seat's: a mirror line added (or
    dropped) after the header, and every seat number swapped (moves, first
    players, results, running scores and the winner line)."""
    out = []
    cut_at = None
    for ln in lines:
        w = ln.split()
        if w[0] == "mirror":
            continue
        if w[0] in ("0", "1") and len(w) == 2:
            w[0] = str(1 - int(w[0]))
        elif w[0] == "hand":
            w[-1] = str(1 - int(w[-1]))
        elif w[0] == "result" and len(w) >= 8 and w[2] == "seat":
            w[3] = str(1 - int(w[3]))
            w[-2], w[-1] = w[-1], w[-2]
        elif w[0] == "result" and w[1] == "draw":
            w[-2], w[-1] = w[-1], w[-2]
        elif w[0] == "winner":
            w[1] = str(1 - int(w[1]))
            w[3], w[4] = w[4], w[3]
        out.append(" ".join(w))
        if w[0] in ("match", "cut") or w[0] == "seed" and format_of(lines[0]) == 3:
            cut_at = len(out)
    if "mirror" not in lines and cut_at is not None:
        out.insert(cut_at, "mirror")
    return out


def splice(a, b, k):
    """Record lines `a`'s header and hands 1..k, then record `b`'s hands
    after k (renumbered) and its closing lines, the scores made to agree."""
    ha, ba, ta = blocks(a)
    hb, bb, tb = blocks(b)
    flat = []
    for x in ba[:k]:
        flat.extend(x)
    n = k
    for x in bb[k:]:
        n += 1
        flat.extend(renumbered(x, n))
    return rescore(ha + flat + tb)


def blocks(lines):
    """(head lines, [hand blocks], closing lines): a hand block is its hand
    line, moves and result line."""
    head = []
    out = []
    tail = []
    for ln in lines:
        w = ln.split()
        if w[0] == "hand":
            out.append([ln])
        elif not out:
            head.append(ln)
        elif w[0] in CLOSING:
            tail.append(ln)
        else:
            out[-1].append(ln)
    return head, out, tail


def renumbered(block, n):
    w = block[0].split()
    w[1] = str(n)
    return [" ".join(w)] + block[1:]
