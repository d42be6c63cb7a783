"""The forgery campaign: genuine game records and thousands of tampered
ones, each given to the verifier (engine/verify.py, what
`replay.py --verify` runs), counted by kind of tampering.

    python -m tools.records.forgery [--quick | --step N] [RECORD ...]
    micropython tools/records/forgery.py [--quick | --step N] [RECORD ...]

The genuine records: a committed match played to its end under each rules
preset, one with a hand in play, a link match's as its second board
writes it (its mirror line), a V6 box match and one with its hand in
play, a match dealt by deal numbers, and the records given as arguments
(host_tests/test_forgery.py adds records the App wrote in the simulator).

Each tampered record changes what the record says (a variant that reads
the same, or that is a record the device itself wrote earlier in the
match, such as a cut right after a hand's result, is not counted). Every
variant is verified and lands in one of:

  refused      exit status 1: the line and what is wrong are named
  unreadable   exit status 2
  unverified   exit status 0, but the change is inside the hand in play,
               which the verdict says is unverified (its seed is not
               revealed: nobody can check its deal yet)
  ACCEPTED     exit status 0 with a verdict that covers the change: a
               forgery accepted as verified
  crashed      an error the verifier does not expect

Cosmetic variants (comments, blank lines, doubled spaces, CRLF) are no
forgeries: they must all verify.

Runs on CPython and the MicroPython unix port (the same counts on both
for the same records; --quick takes about every third variant, --step N
about every N-th).
"""

import sys

gc = None
if sys.implementation.name == "micropython":    # a small heap: collect between variants
    import gc

_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
if _here not in sys.path:       # this folder first: its siblings by their bare names
    sys.path.insert(0, _here)
import _root  # noqa: E402

_root.add_repo_root()

from engine import Match, PRESETS, record_text, replay  # noqa: E402
from engine.version import VERSION  # noqa: E402
from engine.box import BoxMatch, box_record_text  # noqa: E402
from engine.deal import (chained_commitment, chained_nonce, commitment,  # noqa: E402
                         match_commitment, secret_from_int)
from engine.record_format import result_line, winner_line  # noqa: E402
from engine.record_grammar import (BOX_HEADERS, HEADERS, HandLine, Head, NewerRecord,  # noqa: E402
                                   Unreadable, items_of)
from engine.sha256 import sha256, hex_text  # noqa: E402
from record_match import choose  # noqa: E402
from engine.verify import verify_record  # noqa: E402

KINDS = (
    "delete a line",
    "delete a result line",
    "change a field",
    "rescore a result",
    "swap two lines",
    "swap two hands",
    "renumber hands",
    "drop a hand",
    "truncate",
    "re-commit",
    "other rules",
    "other rules, rescored",
    "other seed line",
    "other version line",
    "hide a finished hand",
    "after the hand in play",
    "re-chained",
    "mirror line",
)
# the kinds a forger can follow by making every commitment of the chain
# again (format 4): counted under "re-chained", checked against the DEAL #
# a player noted
RECHAIN = ("swap two hands", "renumber hands", "drop a hand", "re-commit", "other rules",
           "other rules, rescored", "other seed line")
OUTCOMES = ("refused", "unreadable", "unverified", "ACCEPTED", "crashed")


# -- genuine records ---------------------------------------------------------------

class Genuine:
    """A genuine record's lines and every record the device wrote before
    it in the same match (their digests): a cut that gives one of those is
    a genuine record too."""

    def __init__(self, name, text, earlier=None):
        self.name = name
        self.text = text
        self.lines = text.split("\n")[:-1]
        self.box = text.startswith("gin-rummy box record")
        if earlier is None and self.box:
            earlier = []
        elif earlier is None:         # a record read from a file
            earlier = self._written_before()
        self.earlier = set(earlier)

    def _written_before(self):
        """The records the device wrote before this one, as far as the
        record shows them: a two-player record as it was at the end of each
        hand before the last (a box record's closing lines then differed)."""
        L = self.lines
        ends = [i for i in range(len(L)) if L[i].startswith("result ")]
        o = _open_start(L)
        if o is not None:           # and as the hand in play went on
            ends = ends + list(range(o, len(L) - 1))
        else:
            ends = ends[:-1]
        return [_digest("\n".join(L[:i + 1]) + "\n") for i in ends]


def _digest(text):
    return bytes(sha256(_norm(text).encode())[:12])


def _norm(text):
    return "\n".join([it[1] for it in items_of(text)])


def play_match(rules, secret_n, hands=None, open_moves=0, numbered=False, mirror=False):
    """A two-player match played by the scripted players of
    record_match.py: to its end, or to `hands` finished hands and then
    `open_moves` moves of the next (`mirror`: as a link match's second
    board plays it). Its record and every record it had."""
    m = Match(rules, 17 + secret_n, None if numbered else secret_from_int(secret_n),
              mirror=mirror)
    seen = [_digest(record_text(m))]
    while m.winner is None:
        if m.phase == "hand_over":
            seen.append(_digest(record_text(m)))
            if hands is not None and len(m.results) >= hands:
                if not open_moves:
                    break
                m.next_hand()
                seen.append(_digest(record_text(m)))
                for _ in range(open_moves):
                    _step(m)
                    seen.append(_digest(record_text(m)))
                break
            m.next_hand()
            seen.append(_digest(record_text(m)))
            continue
        _step(m)
        seen.append(_digest(record_text(m)))
    return record_text(m), seen


def _step(m):
    for a in choose(m, m.to_move):
        if m.act(a) is None:
            return
    raise RuntimeError("no scripted move accepted")


def play_box(secret_n, hands=None, open_moves=0):
    bm = BoxMatch(None, 8 + secret_n, secret=secret_from_int(secret_n))
    seen = [_digest(box_record_text(bm))]
    while bm.winner is None:
        if bm.phase == "hand_over":
            seen.append(_digest(box_record_text(bm)))
            if hands is not None and len(bm.results) >= hands:
                if open_moves:
                    bm.next_hand()
                    seen.append(_digest(box_record_text(bm)))
                    for _ in range(open_moves):
                        _step(bm)
                        seen.append(_digest(box_record_text(bm)))
                break
            bm.next_hand()
            seen.append(_digest(box_record_text(bm)))
            continue
        _step(bm)
        seen.append(_digest(box_record_text(bm)))
    return box_record_text(bm), seen


def genuine_records():
    out = []
    for i in range(len(PRESETS)):
        r = PRESETS[i]
        text, seen = play_match(r, 40 + i)
        out.append(Genuine("%s match" % r.name, text, seen))
    text, seen = play_match(None, 50, hands=2, open_moves=5)
    out.append(Genuine("hand in play", text, seen))
    text, seen = play_match(None, 70, mirror=True)
    out.append(Genuine("link match (second board)", text, seen))
    text, seen = play_box(60)
    out.append(Genuine("box match", text, seen))
    text, seen = play_box(61, hands=2, open_moves=6)
    out.append(Genuine("box hand in play", text, seen))
    return out


def _newer_versions():
    """Versions newer than this game's: its next patch, minor and major
    release (and the release a development build leads to)."""
    from engine.version_parse import parse
    a, b, c, final = parse(VERSION)
    out = ("%d.%d.%d" % (a, b, c + 1), "%d.%d.0" % (a, b + 1), "%d.0.0" % (a + 1))
    return out if final else ("%d.%d.%d" % (a, b, c),) + out


NEWER = _newer_versions()

LEGACY = "host_tests/records_1_0_0"     # records version 1.0.0 wrote, as it wrote them
# what a record of format 3 (version 1.0.0) or one of a match dealt by deal
# numbers cannot show: no commitment covers the hand's number, the rules or
# (two-player) the seed line, and a 40-bit commitment of a seed and a free
# nonce can be made again for a new nonce
GAPS = ("renumber hands", "drop a hand", "re-commit", "other rules", "other rules, rescored",
        "other seed line")


def legacy_records(root="."):
    """The records of version 1.0.0 kept in LEGACY, and a match dealt by
    deal numbers (the tests' and tools' records)."""
    import os
    folder = root.rstrip("/") + "/" + LEGACY
    out = []
    names = sorted(os.listdir(folder))
    for name in names:
        out.append(Genuine("1.0.0 " + name[:-4], read_file(folder + "/" + name)))
    text, seen = play_match(None, 70, hands=3, numbered=True)
    out.append(Genuine("deal numbers", text, seen))
    return out


# -- tampering ---------------------------------------------------------------------

def _every(seq, n):
    """Every n-th element of seq (all of it for n <= 1)."""
    return seq if n <= 1 else [seq[i] for i in range(0, len(seq), n)]


def _blocks(lines):
    """(head lines, [hand blocks], tail lines): a hand block is its hand
    line, moves and result line; the tail is what follows the last result
    (winner, scores) or is empty."""
    head = []
    blocks = []
    tail = []
    for ln in lines:
        w = ln.split()
        if w[0] == "hand":
            blocks.append([ln])
        elif not blocks:
            head.append(ln)
        elif w[0] in ("winner", "scores"):
            tail.append(ln)
        else:
            blocks[-1].append(ln)
    return head, blocks, tail


def _renumber(block, n):
    w = block[0].split()
    w[1] = str(n)
    return [" ".join(w)] + block[1:]


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


_CARDS = [r + s for s in "shdc" for r in "A23456789TJQK"]


def _field_changes(tok):
    """Other values for one word of a record line."""
    out = []
    if tok.isdigit():
        v = int(tok)
        out.append(str(v + 1))
        if v > 0:
            out.append(str(v - 1))
        if v < 10:
            out.append(str(v + 10))
    elif ":" in tok:
        kind, _, c = tok.partition(":")
        if c in _CARDS:
            i = _CARDS.index(c)
            out.append("%s:%s" % (kind, _CARDS[(i + 1) % 52]))
            out.append("%s:%s" % (kind, _CARDS[(i + 13) % 52]))
            out.append("%s:%s" % ("knock" if kind == "discard" else "discard", c))
        elif "=" not in tok:
            out.append(kind)
    elif "=" in tok:
        k, _, v = tok.partition("=")
        if v.isdigit():
            out.append("%s=%d" % (k, int(v) + 1))
            if int(v) > 0:
                out.append("%s=%d" % (k, int(v) - 1))
        else:
            out.append("%s=%s" % (k, "alternate" if v != "alternate" else "loser"))
    elif len(tok) >= 10 and _is_hex(tok):
        d = "0123456789ABCDEF"
        out.append(tok[:-1] + d[(d.index(tok[-1]) + 1) % 16])
        out.append(d[(d.index(tok[0]) + 1) % 16] + tok[1:])
    else:
        alt = {"draw_stock": ["pass", "draw_upcard"], "pass": ["draw_stock"],
               "knock": ["gin", "undercut"], "gin": ["knock"], "undercut": ["knock"],
               "stock": ["pile"], "pile": ["stock"], "cardems": ["classic"],
               "classic": ["cardems"], "oklahoma": ["classic"], "bonus": ["cardems"],
               "box": ["classic"]}
        out.extend(alt.get(tok, []))
    return out


def _is_hex(s):
    for ch in s:
        if ch not in "0123456789ABCDEF":
            return False
    return True


def _new_nonce(seed_hex, k):
    return hex_text(sha256(("forged nonce %s %d" % (seed_hex, k)).encode())[:16])


def _rules_changes(rules_line):
    w = rules_line.split()
    out = []
    for j in range(2, len(w)):
        k, _, v = w[j].partition("=")
        if k == "knock_limit":
            vals = [int(v) + d for d in (-3, -1, 1, 2, 5, 20) if 0 <= int(v) + d <= 100]
            for x in vals:
                out.append(w[:j] + ["%s=%d" % (k, x)] + w[j + 1:])
        elif v.isdigit() and k not in ("upcard_offer", "oklahoma", "match_bonus"):
            for x in (int(v) + 1, int(v) + 10, max(0, int(v) - 1)):
                if str(x) != v:
                    out.append(w[:j] + ["%s=%d" % (k, x)] + w[j + 1:])
        elif v in ("0", "1"):
            out.append(w[:j] + ["%s=%s" % (k, "1" if v == "0" else "0")] + w[j + 1:])
        else:
            for x in ("human", "alternate", "loser"):
                if x != v:
                    out.append(w[:j] + ["%s=%s" % (k, x)] + w[j + 1:])
    for name in ("cardems", "classic", "oklahoma", "bonus", "box"):
        if name != w[1]:
            out.append(w[:1] + [name] + w[2:])
    return [" ".join(x) for x in out]


def _rescored_under(g, rules_line):
    """A two-player record replayed under other rules, its results and
    winner line rewritten to agree (hand lines kept as they are), or None
    when a move is not legal under those rules."""
    try:
        text = "\n".join([rules_line if ln.startswith("rules ") else ln
                          for ln in g.lines if ln.split()[0] not in ("result", "winner")]) + "\n"
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


def variants(g, step=1):
    """(kind, lines) of every tampered record made from genuine record g."""
    L = g.lines
    n = len(L)
    head, blocks, tail = _blocks(L)
    moves = [i for i in range(n) if L[i].split()[0] in ("0", "1", "2")]
    others = [i for i in range(n) if i not in moves]
    some = others + _every(moves, 6)
    for i in _every(some, step):
        yield ("delete a line", L[:i] + L[i + 1:])
    for i in range(n):
        if L[i].startswith("result "):
            yield ("delete a result line", L[:i] + L[i + 1:])
    fields = [i for i in others if L[i].split()[0] not in ("rules", "seed", "version")]
    for i in _every(fields + _every(moves, 4), step):
        w = L[i].split()
        for j in range(len(w)):
            for x in _field_changes(w[j]):
                yield ("change a field", L[:i] + [" ".join(w[:j] + [x] + w[j + 1:])] + L[i + 1:])
    for i in range(n):
        w = L[i].split()
        if w[0] == "result" and "points" in w:
            p = w.index("points") + 1
            for d in (1, -1, 10):
                if int(w[p]) + d >= 0:
                    v = w[:p] + [str(int(w[p]) + d)] + w[p + 1:]
                    yield ("rescore a result", rescore(L[:i] + [" ".join(v)] + L[i + 1:]))
    for i in _every(list(range(1, n - 1)), 3 * step):
        if L[i] != L[i + 1]:
            yield ("swap two lines", L[:i] + [L[i + 1], L[i]] + L[i + 2:])
    for a in range(len(blocks)):
        for b in range(a + 1, min(len(blocks), a + 3)):
            bl = list(blocks)
            bl[a], bl[b] = bl[b], bl[a]
            flat = []
            for x in bl:
                flat.extend(x)
            yield ("swap two hands", head + flat + tail)
            flat = []
            for k in range(len(bl)):
                flat.extend(_renumber(bl[k], k + 1))
            yield ("renumber hands", rescore(head + flat + tail))
    for a in range(len(blocks) - 1):
        flat = []
        bl = blocks[:a] + blocks[a + 1:]
        for k in range(len(bl)):
            flat.extend(_renumber(bl[k], k + 1))
        yield ("drop a hand", rescore(head + flat + tail))
    for i in _every(list(range(1, n)), step):
        yield ("truncate", L[:i])
    for k in range(len(blocks)):
        w = blocks[k][0].split()
        if read_hand(blocks[k][0], L[0]).kind == "revealed":
            nonce = _new_nonce(w[5], k)
            w2 = list(w)
            w2[7] = nonce
            w2[3] = forged_commitment(g, w, nonce)
            i = L.index(blocks[k][0])
            yield ("re-commit", L[:i] + [" ".join(w2)] + L[i + 1:])
    ri = [i for i in range(n) if L[i].startswith("rules ")][0]
    for rl in _rules_changes(L[ri]):
        yield ("other rules", L[:ri] + [rl] + L[ri + 1:])
        if not g.box and not g.name.startswith("deal numbers"):
            again = _rescored_under(g, rl)
            if again is not None:
                yield ("other rules, rescored", again)
    si = [i for i in range(n) if L[i].startswith("seed ")][0]
    s = int(L[si].split()[1])
    for x in (s + 1, s - 1, s + 1000, 0, s * 2 + 1):
        if 0 <= x < (1 << 30) and x != s:
            yield ("other seed line", L[:si] + ["seed %d" % x] + L[si + 1:])
    vi = [i for i in range(n) if L[i].startswith("version ")]
    if vi:
        vi = vi[0]
        for v in ("0.9.0", "0.1.0", "0.0.0", "1.0", "1.0.0.0", "v1.0.0", "01.0.0", "1.0.x",
                  "1.0.0 beta") + NEWER:
            yield ("other version line", L[:vi] + ["version " + v] + L[vi + 1:])
        yield ("other version line", L[:vi] + L[vi + 1:])
    for k in range(len(blocks)):
        w = blocks[k][0].split()
        if read_hand(blocks[k][0], L[0]).kind == "revealed":
            hidden = " ".join(w[:4] + w[8:])
            i = L.index(blocks[k][0])
            body = [x for x in blocks[k][1:] if not x.startswith("result ")]
            rest = L[i + len(blocks[k]):]
            yield ("hide a finished hand", L[:i] + [hidden] + body + rest)
            yield ("hide a finished hand", L[:i] + [hidden] + body)
            yield ("hide a finished hand", L[:i] + [hidden] + body[:len(body) // 2])
    if not g.box and vi:
        # the mirror line (a link match's second board) dropped, added, moved
        mi = [i for i in range(n) if L[i] == "mirror"]
        at = len(head)
        if mi:
            at = mi[0]
            yield ("mirror line", L[:at] + L[at + 1:])
            yield ("mirror line", L[:at - 1] + ["mirror", L[at - 1]] + L[at + 1:])
            yield ("mirror line", L[:at] + ["mirror 1"] + L[at + 1:])
        else:
            yield ("mirror line", L[:at] + ["mirror"] + L[at:])
            yield ("mirror line", L[:at - 1] + ["mirror"] + L[at - 1:])
    if blocks and _is_open(blocks[-1][0].split()):
        i = L.index(blocks[-1][0])
        rest = L[i + 1:]
        mv = [j for j in range(len(rest)) if rest[j].split()[0] in ("0", "1", "2")]
        for j in mv:
            w = rest[j].split()
            for x in _field_changes(w[1]) + [str((int(w[0]) + 1) % 3)]:
                v = [w[0], x] if not x.isdigit() else [x, w[1]]
                yield ("after the hand in play",
                       L[:i + 1] + rest[:j] + [" ".join(v)] + rest[j + 1:])
            yield ("after the hand in play", L[:i + 1] + rest[:j] + rest[j + 1:])
        for junk in ("winner 0 scores 100 0", "result knock seat 0 points 20 scores 20 0",
                     "hello", "scores 100 0 0", "winner 1", "0 knock:As", "hand 99 commit "
                     "0123456789 first 0"):
            yield ("after the hand in play", L + [junk])
            yield ("after the hand in play", L[:i + 1] + [junk] + rest)


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


def noted_of(g):
    """What a player noted of record g: each hand's DEAL # (the first 10
    hex digits of its commitment), as the screen showed it."""
    return [hl.commit[:10] for hl in hand_lines(g.lines) if hl.commit is not None]


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


def cosmetic(g):
    """Variants that read the same: they must all verify."""
    L = g.lines
    out = []
    out.append(["# a comment"] + L)
    out.append(L[:2] + ["# a comment", ""] + L[2:])
    out.append([ln.replace(" ", "  ") for ln in L])
    out.append(["  " + ln + " " for ln in L])
    out.append([ln + "\r" for ln in L])
    out.append(L[:4] + ["", ""] + L[4:])
    return out


# -- the campaign ----------------------------------------------------------------

def _verdict(text, noted=None):
    out = []
    try:
        st = verify_record(text, out.append, noted)
    except (NewerRecord, Unreadable):
        return 2, out
    except Exception as e:     # counted: there must be none
        return -1, ["%s: %s" % (type(e).__name__, e)]
    return st, out


def _is_open(w):
    """A hand line of a hand in play: a commitment, no seed."""
    return len(w) > 2 and w[2] == "commit" and "seed" not in w


def _open_start(lines):
    """Index of the last hand line when it is a hand in play (no seed), else None."""
    for i in range(len(lines) - 1, -1, -1):
        w = lines[i].split()
        if w and w[0] == "hand":
            return i if _is_open(w) else None
    return None


def _hand_lines(lines):
    return [ln for ln in lines if ln.startswith("hand ")]


def other_game(g, lines):
    """True when `lines` is the record of another legal game from the very
    same deals: the header and every hand line as in g, and the engine's
    own replay (engine/record_read.py) writes it again as it is. The moves
    are no part of any commitment: such a record is no forgery the record
    could show."""
    h = _open_start(g.lines)
    if lines[:4] != g.lines[:4] or _hand_lines(lines) != _hand_lines(g.lines):
        return False
    text = "\n".join(lines) + "\n"
    try:
        if g.box:
            from engine.box_read import box_replay
            again = box_record_text(box_replay(text))
        else:
            again = record_text(replay(text))
    except Exception:
        return False
    return h is None and _norm(again) == _norm(text)


def classify(g, lines, noted=None):
    """The outcome of a tampered record; "earlier" when it is no forgery
    (it reads as g, or as a record the device wrote earlier), "other game"
    when it is another legal game from the same deals (other_game)."""
    text = "\n".join(lines) + "\n"
    if _norm(text) == _norm(g.text) or _digest(text) in g.earlier:
        return "earlier"
    st, out = _verdict(text, noted)
    if st == -1:
        return "crashed"
    if st == 2:
        return "unreadable"
    if st == 1:
        return "refused"
    o = _open_start(lines)
    if o is not None and "unverified" in out[-1]:
        gi = _open_start(g.lines)
        if gi is not None and lines[:o] == g.lines[:gi] or lines[:o] == g.lines[:o]:
            return "unverified"
    if other_game(g, lines):
        return "other game"
    return "ACCEPTED"


def campaign(records, step=1, say=None):
    """{kind: {outcome: count}}, {record name: cosmetic variants refused},
    the genuine records refused, and (kind, record, lines) of what was accepted."""
    counts = {}
    for k in KINDS:
        counts[k] = {}
        for o in OUTCOMES:
            counts[k][o] = 0
    cosmetic_bad = {}
    genuine_bad = []
    accepted = []
    counts["not forgeries"] = {"earlier": 0, "other game": 0}
    counts["re-chained, no notes"] = {}
    for o in OUTCOMES:
        counts["re-chained, no notes"][o] = 0
    for g in records:
        st, out = _verdict(g.text)
        if st != 0:
            genuine_bad.append((g.name, out))
        bad = 0
        for v in cosmetic(g):
            if _verdict("\n".join(v) + "\n")[0] != 0:
                bad += 1
        cosmetic_bad[g.name] = bad
        for kind, lines in variants(g, step):
            if gc is not None:
                gc.collect()
            o = classify(g, lines)
            if o in ("earlier", "other game"):
                counts["not forgeries"][o] += 1
                continue
            counts[kind][o] += 1
            if o in ("ACCEPTED", "crashed"):
                accepted.append((kind, g.name, lines))
            if kind in RECHAIN and g.lines[0].endswith(" 4"):
                again = rechain(lines)
                if again is not None and again != lines:
                    o = classify(g, again, noted_of(g))
                    if o not in ("earlier", "other game"):
                        counts["re-chained"][o] += 1
                        if o in ("ACCEPTED", "crashed"):
                            accepted.append(("re-chained", g.name, again))
                        counts["re-chained, no notes"][classify(g, again)] += 1
        if say:
            say(g.name)
    return counts, cosmetic_bad, genuine_bad, accepted


def report(counts, cosmetic_bad, genuine_bad, write):
    write("%-26s %8s %8s %10s %10s %8s %7s\n" % (("kind", "variants") + OUTCOMES))
    total = {}
    for o in OUTCOMES:
        total[o] = 0
    for k in KINDS:
        c = counts[k]
        n = 0
        for o in OUTCOMES:
            n += c[o]
            total[o] += c[o]
        write("%-26s %8d %8d %10d %10d %8d %7d\n" % ((k, n) + tuple([c[o] for o in OUTCOMES])))
    n = 0
    for o in OUTCOMES:
        n += total[o]
    write("%-26s %8d %8d %10d %10d %8d %7d\n" % (("all", n) + tuple([total[o] for o in OUTCOMES])))
    bad = 0
    for name in cosmetic_bad:
        bad += cosmetic_bad[name]
    rc = counts["re-chained, no notes"]
    if sum([rc[o] for o in OUTCOMES]):
        write("re-chained records checked without the DEAL # a player noted: %d accepted of %d (a "
              "forger who makes every commitment again is held only by what the screen showed)\n"
              % (rc["ACCEPTED"], sum([rc[o] for o in OUTCOMES])))
    nf = counts["not forgeries"]
    write("not counted: %d variants that are a record the device wrote earlier in the match (or "
          "read as the genuine one), %d the record of another legal game from the same committed "
          "deals (the moves are in no commitment)\n" % (nf["earlier"], nf["other game"]))
    write("genuine records refused: %d; cosmetic variants (comments, blank lines, spaces, CRLF) "
          "refused: %d\n" % (len(genuine_bad), bad))


def read_file(path):
    f = open(path)
    try:
        return f.read()
    finally:
        f.close()


def main(argv):
    step = 1
    records = []
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--quick":
            step = 3
        elif a == "--step" and i + 1 < len(args) and args[i + 1].isdigit():
            step = int(args[i + 1])
            i += 1
        elif a.startswith("-"):
            sys.stdout.write(__doc__.split("\n\n")[1] + "\n")
            return 2
        else:
            records.append(Genuine(a.rsplit("/", 1)[-1], read_file(a)))
        i += 1
    write = sys.stdout.write
    records = genuine_records() + records
    write("records of this version, %d genuine: %s\n" % (len(records), ", ".join(
        [g.name for g in records])))
    bad = _run(records, step, write)
    old = legacy_records(_root_dir())
    write("\nrecords of version 1.0.0 (format 3) and of matches dealt by deal numbers, %d "
          "genuine: %s\n" % (len(old), ", ".join([g.name for g in old])))
    write("(what their format cannot show: %s)\n" % ", ".join(GAPS))
    bad += _run(old, step, write, GAPS)
    return 1 if bad else 0


def _root_dir():
    here = _here.rstrip("/")
    return here[:-len("tools/records")].rstrip("/") or "." if here.endswith("tools/records") \
        else here + "/../.."


def _run(records, step, write, gaps=()):
    """The campaign on `records`, its table; the number of what must not
    happen (a forgery accepted beyond `gaps`, a crash, a genuine record or a
    cosmetic variant refused)."""
    counts, cos, gen, acc = campaign(records, step)
    report(counts, cos, gen, write)
    bad = len(gen)
    for name in cos:
        bad += cos[name]
    for name, out in gen:
        write("genuine record refused: %s: %s" % (name, "".join(out)))
    shown = 0
    for kind, name, lines in acc:
        if kind in gaps:
            continue
        bad += 1
        if shown < 3:
            write("accepted (%s, from %s):\n%s\n" % (kind, name, "\n".join(lines)))
            shown += 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
