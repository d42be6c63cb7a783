"""The forgery campaign: genuine game records and thousands of tampered
ones, each given to the verifier (engine/verify.py, what
`replay.py --verify` runs), counted by kind of tampering.

    python -m tools.records.forgery [--quick | --step N] [RECORD ...]
    micropython tools/records/forgery.py [--quick | --step N] [RECORD ...]

The genuine records of this version (format 5: a deal the device cannot
choose, transcripts in the chain, a seal): a match with a cut played to
its end under each rules preset, one with a hand in play, a link match's
as its second board writes it (its mirror line), a V6 box match and one
with its hand in play. Each of their forgeries is checked with what the
player noted: the match commitment (MATCH #), the cut and the seal (SEAL
#); of a match not over, the DEAL # of every hand instead of the seal.
Then records of version 1.1 (format 4: what the App writes until it asks
for a cut, and the records given as arguments: host_tests/test_forgery.py
adds records the App wrote in the simulator) and of version 1.0.0 (format
3, host_tests/records_1_0_0/) with a match dealt by deal numbers, checked
without notes: what their formats cannot show (GAPS4, GAPS) is counted,
not failed.

Beside lines changed by hand, a forger holds the record and the
project's own code (tools/records/forger.py): it plays the same deals
again with other legal moves and writes the record with the project's
writer, rewrites results and the winner and makes every commitment,
transcript and the seal again, drops the last hands, swaps the seats
(a mirror line), splices two records, changes the version, level, seats,
cut or match line, and notes a hand the record does not have.

Each tampered record changes what the record says (a variant that reads
the same, or that is a record the device itself wrote earlier in the
match, such as a cut right after a hand's result, is not counted, unless
the player noted the seal: then the match was over). Every
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
from engine.deal import secret_from_int  # noqa: E402
from engine.record_grammar import NewerRecord, Unreadable, items_of  # noqa: E402
from engine.sha256 import sha256, hex_text  # noqa: E402
from engine.verify import Notes, verify_record  # noqa: E402
from forger import (blocks, forged_commitment, format_of, hand_lines, other_play,  # noqa: E402
                    read_hand, remake, renumbered, rescore, rescored_under, seats_swapped,
                    splice)
from record_match import choose  # noqa: E402

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
        self.format = format_of(self.lines[0])
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


def play_match(rules, secret_n, hands=None, open_moves=0, numbered=False, mirror=False,
               cut=None):
    """A two-player match played by the scripted players of
    record_match.py: to its end, or to `hands` finished hands and then
    `open_moves` moves of the next (`mirror`: as a link match's second
    board plays it; `cut`: a match of format 5, against the CPU at the
    hard level, or of a link when mirrored). Its record and every record
    it had."""
    kw = {}
    if cut is not None:
        kw = {"cut": cut, "level": "none" if mirror else "hard",
              "seats": "link link" if mirror else "you cpu"}
    m = Match(rules, 17 + secret_n, None if numbered else secret_from_int(secret_n),
              mirror=mirror, **kw)
    seen = [_digest(record_text(m))]
    # not tools/kit/play.play_out: the record's digest is kept after every
    # deal and move, and the match may stop `open_moves` into a hand
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


def play_box(secret_n, hands=None, open_moves=0, cut=None):
    kw = {} if cut is None else {"cut": cut, "level": "medium"}
    bm = BoxMatch(None, 8 + secret_n, secret=secret_from_int(secret_n), **kw)
    seen = [_digest(box_record_text(bm))]
    # not play_out, as play_match above
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


CUTS = ("HELLO", "7", "ACE2", "GIN42", "K", "Q", "LINK", "BOX", "BOX9")


def genuine_records():
    """The records of this version (format 5): matches with a cut."""
    out = []
    for i in range(len(PRESETS)):
        r = PRESETS[i]
        text, seen = play_match(r, 40 + i, cut=CUTS[i])
        out.append(Genuine("%s match" % r.name, text, seen))
    text, seen = play_match(None, 50, hands=2, open_moves=5, cut=CUTS[4])
    out.append(Genuine("hand in play", text, seen))
    text, seen = play_match(None, 71, cut=CUTS[5])
    out.append(Genuine("cardems match, another", text, seen))
    text, seen = play_match(None, 70, mirror=True, cut=hex_text(secret_from_int(170)))
    out.append(Genuine("link match (second board)", text, seen))
    text, seen = play_box(60, cut=CUTS[7])
    out.append(Genuine("box match", text, seen))
    text, seen = play_box(61, hands=2, open_moves=6, cut=CUTS[8])
    out.append(Genuine("box hand in play", text, seen))
    return out


def format4_records():
    """Records of format 4 (version 1.1's, and those of the matches it
    saved that this version resumes): a match played to its end, a link match's second board, a box
    match."""
    out = []
    text, seen = play_match(None, 40)
    out.append(Genuine("cardems match (format 4)", text, seen))
    text, seen = play_match(None, 71)
    out.append(Genuine("cardems match, another (format 4)", text, seen))
    text, seen = play_match(None, 70, mirror=True)
    out.append(Genuine("link match, second board (format 4)", text, seen))
    text, seen = play_box(60)
    out.append(Genuine("box match (format 4)", text, seen))
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
# nonce can be made again for a new nonce; nor the moves, results and
# winner, the version line, or (deal numbers: no commitment at all) the seats
GAPS = ("renumber hands", "drop a hand", "re-commit", "other rules", "other rules, rescored",
        "other seed line", "other legal moves", "last hands dropped", "splice of two records",
        "version, level, seats, cut line", "seats swapped")
# what a record of format 4 (version 1.1) cannot show: the moves, the
# results and the winner are in no commitment (so other legal play from the
# same deals, the last hands dropped, a splice made again with its chain),
# nor whose seat is seat 0 (the mirror line) or the version line
GAPS4 = ("other legal moves", "last hands dropped", "seats swapped", "splice of two records",
         "version, level, seats, cut line")


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


class Record:
    """Genuine record g's lines as the variants cut them: `L` the lines,
    `head`, `blocks` (hand by hand) and `tail` (the closing lines), the
    indexes of the move lines and of the others."""

    def __init__(self, g):
        self.g = g
        L = self.L = g.lines
        self.n = len(L)
        self.head, self.blocks, self.tail = blocks(L)
        self.moves = [i for i in range(self.n) if L[i].split()[0] in ("0", "1", "2")]
        self.others = [i for i in range(self.n) if i not in self.moves]

    def at(self, word):
        """The index of the first line starting with `word`, or None."""
        for i in range(self.n):
            if self.L[i].split()[0] == word:
                return i
        return None


def _delete_line(r, step):
    L = r.L
    for i in _every(r.others + _every(r.moves, 6), step):
        yield L[:i] + L[i + 1:]


def _delete_result(r, step):
    L = r.L
    for i in range(r.n):
        if L[i].startswith("result "):
            yield L[:i] + L[i + 1:]


def _change_field(r, step):
    L = r.L
    fields = [i for i in r.others if L[i].split()[0] not in ("rules", "seed", "version")]
    for i in _every(fields + _every(r.moves, 4), step):
        w = L[i].split()
        for j in range(len(w)):
            for x in _field_changes(w[j]):
                yield L[:i] + [" ".join(w[:j] + [x] + w[j + 1:])] + L[i + 1:]


def _rescore_result(r, step):
    L = r.L
    for i in range(r.n):
        w = L[i].split()
        if w[0] == "result" and "points" in w:
            p = w.index("points") + 1
            for d in (1, -1, 10):
                if int(w[p]) + d >= 0:
                    v = w[:p] + [str(int(w[p]) + d)] + w[p + 1:]
                    yield rescore(L[:i] + [" ".join(v)] + L[i + 1:])


def _swap_lines(r, step):
    L = r.L
    for i in _every(list(range(1, r.n - 1)), 3 * step):
        if L[i] != L[i + 1]:
            yield L[:i] + [L[i + 1], L[i]] + L[i + 2:]


def _swapped_hands(r, renumber):
    bls = r.blocks
    for a in range(len(bls)):
        for b in range(a + 1, min(len(bls), a + 3)):
            bl = list(bls)
            bl[a], bl[b] = bl[b], bl[a]
            flat = []
            for k in range(len(bl)):
                flat.extend(renumbered(bl[k], k + 1) if renumber else bl[k])
            yield rescore(r.head + flat + r.tail) if renumber else r.head + flat + r.tail


def _swap_hands(r, step):
    return _swapped_hands(r, False)


def _renumber_hands(r, step):
    return _swapped_hands(r, True)


def _drop_hand(r, step):
    bls = r.blocks
    for a in range(len(bls) - 1):
        flat = []
        bl = bls[:a] + bls[a + 1:]
        for k in range(len(bl)):
            flat.extend(renumbered(bl[k], k + 1))
        yield rescore(r.head + flat + r.tail)


def _truncate(r, step):
    for i in _every(list(range(1, r.n)), step):
        yield r.L[:i]


def _recommit(r, step):
    L = r.L
    for k in range(len(r.blocks)):
        w = r.blocks[k][0].split()
        if read_hand(r.blocks[k][0], L[0]).kind == "revealed":
            nonce = _new_nonce(w[5], k)
            w2 = list(w)
            w2[7] = nonce
            w2[3] = forged_commitment(r.g, w, nonce)
            i = L.index(r.blocks[k][0])
            yield L[:i] + [" ".join(w2)] + L[i + 1:]


def _other_rules(r, step):
    L = r.L
    ri = r.at("rules")
    for rl in _rules_changes(L[ri]):
        yield L[:ri] + [rl] + L[ri + 1:]


def _other_rules_rescored(r, step):
    g = r.g
    if g.box or g.name.startswith("deal numbers"):
        return
    for rl in _rules_changes(r.L[r.at("rules")]):
        again = rescored_under(g, rl)
        if again is not None:
            yield again


def _other_seed(r, step):
    L = r.L
    si = r.at("seed")
    s = int(L[si].split()[1])
    for x in (s + 1, s - 1, s + 1000, 0, s * 2 + 1):
        if 0 <= x < (1 << 30) and x != s:
            yield L[:si] + ["seed %d" % x] + L[si + 1:]


def _other_version(r, step):
    L = r.L
    vi = r.at("version")
    if vi is None:
        return
    for v in ("0.9.0", "0.1.0", "0.0.0", "1.0", "1.0.0.0", "v1.0.0", "01.0.0", "1.0.x",
              "1.0.0 beta") + NEWER:
        yield L[:vi] + ["version " + v] + L[vi + 1:]
    yield L[:vi] + L[vi + 1:]


def _hide_hand(r, step):
    L = r.L
    for k in range(len(r.blocks)):
        bk = r.blocks[k]
        w = bk[0].split()
        if read_hand(bk[0], L[0]).kind == "revealed":
            hidden = " ".join(w[:4] + w[8:])
            i = L.index(bk[0])
            body = [x for x in bk[1:] if not x.startswith("result ")]
            rest = L[i + len(bk):]
            yield L[:i] + [hidden] + body + rest
            yield L[:i] + [hidden] + body
            yield L[:i] + [hidden] + body[:len(body) // 2]


def _after_open(r, step):
    L = r.L
    if not r.blocks or not _is_open(r.blocks[-1][0].split()):
        return
    i = L.index(r.blocks[-1][0])
    rest = L[i + 1:]
    mv = [j for j in range(len(rest)) if rest[j].split()[0] in ("0", "1", "2")]
    for j in mv:
        w = rest[j].split()
        for x in _field_changes(w[1]) + [str((int(w[0]) + 1) % 3)]:
            v = [w[0], x] if not x.isdigit() else [x, w[1]]
            yield L[:i + 1] + rest[:j] + [" ".join(v)] + rest[j + 1:]
        yield L[:i + 1] + rest[:j] + rest[j + 1:]
    for junk in ("winner 0 scores 100 0", "result knock seat 0 points 20 scores 20 0",
                 "hello", "scores 100 0 0", "winner 1", "0 knock:As", "hand 99 commit "
                 "0123456789 first 0", "secret 00112233445566778899AABBCCDDEEFF",
                 "seal " + "0" * 64):
        yield L + [junk]
        yield L[:i + 1] + [junk] + rest


def _mirror_line(r, step):
    """The mirror line (a link match's second board) dropped, added, moved."""
    L = r.L
    if r.g.box or r.at("version") is None:
        return
    mi = r.at("mirror")
    at = len(r.head)
    if mi is not None:
        at = mi
        yield L[:at] + L[at + 1:]
        yield L[:at - 1] + ["mirror", L[at - 1]] + L[at + 1:]
        yield L[:at] + ["mirror 1"] + L[at + 1:]
    else:
        yield L[:at] + ["mirror"] + L[at:]
        yield L[:at - 1] + ["mirror"] + L[at - 1:]


def _other_moves(r, step):
    """The same deals played again with other legal moves from hand j on,
    written by the project's own writer (forger.other_play)."""
    for j in _every(list(range(1, len(r.blocks) + 1)), step):
        for salt in (j, 1000 + j):
            again = other_play(r.g, j, salt)
            if again is not None and again != r.L:
                yield again


def _results_rewritten(r, step):
    """A result given to the other seat (box: another player), the scores
    and the winner made to agree, every commitment, transcript and the
    seal made again."""
    L = r.L
    res = [i for i in range(r.n) if L[i].startswith("result ") and "points" in L[i].split()]
    for i in _every(res, step):
        w = L[i].split()
        w[3] = str((int(w[3]) + 1) % (3 if r.g.box else 2))
        lines = rescore(L[:i] + [" ".join(w)] + L[i + 1:])
        lines = _winner_agrees(lines)
        yield lines
        again = remake(lines)
        if again is not None and again != lines:
            yield again


def _winner_agrees(lines):
    """The winner line (box: the winner line after the scores line) naming
    the seat or player with the most points."""
    out = list(lines)
    scores = None
    for i in range(len(out)):
        w = out[i].split()
        if w[0] == "scores":
            scores = [int(x) for x in w[1:]]
        elif w[0] == "winner" and len(w) >= 5:
            s = [int(w[3]), int(w[4])]
            w[1] = "0" if s[0] >= s[1] else "1"
            out[i] = " ".join(w)
        elif w[0] == "winner" and scores is not None:
            out[i] = "winner %d" % scores.index(max(scores))
    return out


def _last_dropped(r, step):
    """The last hands dropped: the record as the device wrote it then (a
    match not over), and with the closing lines kept and made to agree,
    every commitment and the seal made again."""
    bls = r.blocks
    for d in range(1, min(3, len(bls) - 1) + 1):
        flat = []
        for x in bls[:len(bls) - d]:
            flat.extend(x)
        yield r.head + flat
        lines = _winner_agrees(rescore(r.head + flat + r.tail))
        yield lines
        again = remake(lines)
        if again is not None and again != lines:
            yield again


def _seats_swapped(r, step):
    """Every seat swapped and a mirror line added (dropped on a second
    board's record): as is, and with the chain and the seal made again."""
    if r.g.box:
        return
    lines = seats_swapped(r.L)
    yield lines
    again = remake(lines)
    if again is not None and again != lines:
        yield again


def _splice(r, step):
    """Hands 1..k of this record, the rest from another genuine record of
    the same kind, format and rules, the scores and the chain made again."""
    for other in r.g.partners:
        ob = blocks(other.lines)[1]
        for k in _every(list(range(1, min(len(r.blocks), len(ob)))), step):
            lines = splice(r.L, other.lines, k)
            yield lines
            again = remake(lines)
            if again is not None and again != lines:
                yield again


def _header_lines(r, step):
    """A plausible version, and (format 5) another level, seats, cut or
    match commitment: as is, and with the chain and the seal made again."""
    L = r.L
    changes = []
    vi = r.at("version")
    if vi is not None:
        for v in ("1.1.0", "1.1.1", "1.0.0"):
            if L[vi] != "version " + v:
                changes.append((vi, "version " + v))
    for word, alts in (("level", ("easy", "hard", "none")),
                       ("seats", ("you cpu", "cpu cpu", "link link", "you cpu cpu")),
                       ("cut", ("HELLO", "HELLP", "0"))):
        i = r.at(word)
        if i is not None:
            for x in alts:
                if L[i] != word + " " + x:
                    changes.append((i, word + " " + x))
    i = r.at("match")
    if i is not None and r.g.format >= 5:
        w = L[i].split()
        changes.append((i, "match " + w[1][:-1] + ("0" if w[1][-1] != "0" else "1")))
    for i, line in changes:
        lines = L[:i] + [line] + L[i + 1:]
        yield lines
        again = remake(lines)
        if again is not None and again != lines:
            yield again


# The kinds of tampering, in the order the report lists them: (kind, the
# maker of its variants of a Record, re-chained, whole).
# maker None: "re-chained" is made from the re-chained kinds' variants,
#   "notes past the end" of the notes, not the lines (campaign).
# re-chained: a forger can follow the kind by making every commitment of
#   the chain again (format 4; format 5: each hand's transcript and the
#   seal too): counted under "re-chained", checked against what a player
#   noted.
# whole: the kind claims to be the match's whole record: a record the
#   device wrote earlier in the match is a forgery of it (the match went on).
TABLE = (
    ("delete a line", _delete_line, False, False),
    ("delete a result line", _delete_result, False, False),
    ("change a field", _change_field, False, False),
    ("rescore a result", _rescore_result, False, False),
    ("swap two lines", _swap_lines, False, False),
    ("swap two hands", _swap_hands, True, False),
    ("renumber hands", _renumber_hands, True, False),
    ("drop a hand", _drop_hand, True, False),
    ("truncate", _truncate, False, False),
    ("re-commit", _recommit, True, False),
    ("other rules", _other_rules, True, False),
    ("other rules, rescored", _other_rules_rescored, True, False),
    ("other seed line", _other_seed, True, False),
    ("other version line", _other_version, True, False),
    ("hide a finished hand", _hide_hand, False, False),
    ("after the hand in play", _after_open, False, False),
    ("re-chained", None, False, False),
    ("mirror line", _mirror_line, True, False),
    ("other legal moves", _other_moves, False, True),
    ("results rewritten, re-sealed", _results_rewritten, False, False),
    ("last hands dropped", _last_dropped, False, True),
    ("seats swapped", _seats_swapped, False, False),
    ("splice of two records", _splice, False, False),
    ("version, level, seats, cut line", _header_lines, False, False),
    ("notes past the end", None, False, False),
)
KINDS = tuple([row[0] for row in TABLE])
RECHAIN = tuple([row[0] for row in TABLE if row[2]])
WHOLE = tuple([row[0] for row in TABLE if row[3]])


def variants(g, step=1):
    """(kind, lines) of every tampered record made from genuine record g."""
    r = Record(g)
    for kind, make, _, _ in TABLE:
        if make is not None:
            for lines in make(r, step):
                yield kind, lines


def noted_of(g, past_end=False):
    """What a player noted of record g: of a match with a cut (format 5)
    its match commitment (MATCH #), the cut and, once the match is over,
    the seal (SEAL #) alone; of a match not over, or of an older format,
    each hand's DEAL # (the first 10 hex digits of its commitment), as the
    screen showed them. `past_end`: and a DEAL # for a hand after the
    record's last."""
    from engine.cut import MATCH_HEX
    from engine.deal import COMMIT_HEX
    notes = Notes()
    seal = None
    for ln in g.lines:
        w = ln.split()
        if g.format >= 5 and w[0] == "match":
            notes.match = w[1][:MATCH_HEX]
        elif g.format >= 5 and w[0] == "cut":
            notes.cut = w[1]
        elif w[0] == "seal":
            seal = w[1][:COMMIT_HEX]
    if seal is not None:
        notes.seal = seal
    else:
        notes.deals = [hl.commit[:COMMIT_HEX] for hl in hand_lines(g.lines) if hl.commit is not None]
    if past_end:
        n = len(hand_lines(g.lines))
        notes.deals = notes.deals + [""] * (n - len(notes.deals)) + ["0123456789"]
    return notes


def notes_text(notes):
    """Notes as `replay.py --verify --noted` and the web page take them."""
    parts = []
    if notes.match is not None:
        parts.append("MATCH #" + notes.match)
    if notes.cut is not None:
        parts.append("CUT " + notes.cut)
    if notes.seal is not None:
        parts.append("SEAL #" + notes.seal)
    for d in notes.deals:
        parts.append(d or "-")
    return ", ".join(parts)


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


def classify(g, lines, noted=None, kind=None):
    """The outcome of a tampered record; "earlier" when it is no forgery
    (it reads as g, or as a record the device wrote earlier: unless the
    player noted the seal, or the kind claims the match's whole record),
    "other game" when it is another legal game from the same deals
    (other_game; not of the kinds that make one on purpose)."""
    text = "\n".join(lines) + "\n"
    if _norm(text) == _norm(g.text) and kind != "notes past the end":
        return "earlier"
    if _digest(text) in g.earlier and kind not in WHOLE + ("notes past the end",) and \
            (noted is None or noted.seal is None):
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
    if kind not in WHOLE and other_game(g, lines):
        return "other game"
    return "ACCEPTED"


def campaign(records, step=1, say=None):
    """{kind: {outcome: count}}, {record name: cosmetic variants refused},
    the genuine records refused, and (kind, record, lines) of what was
    accepted. A record of format 5 has each variant checked with what its
    player noted (noted_of); an older one's without notes, and its
    re-chained variants with the DEAL # noted."""
    counts = {}
    for k in KINDS + ("re-chained, no notes", "no notes"):
        counts[k] = {}
        for o in OUTCOMES:
            counts[k][o] = 0
    cosmetic_bad = {}
    genuine_bad = []
    accepted = []
    counts["not forgeries"] = {"earlier": 0, "other game": 0}
    for g in records:
        g.partners = [x for x in records if x is not g and x.box == g.box and
                      x.format == g.format and x.format >= 3 and x.lines[2] == g.lines[2]]
        noted = noted_of(g) if g.format >= 5 else None
        st, out = _verdict(g.text, noted)
        if st != 0:
            genuine_bad.append((g.name, out))
        bad = 0
        for v in cosmetic(g):
            if _verdict("\n".join(v) + "\n", noted)[0] != 0:
                bad += 1
        cosmetic_bad[g.name] = bad
        _count(counts, accepted, g, "notes past the end", g.lines,
               classify(g, g.lines, noted_of(g, True), "notes past the end"))
        for kind, lines in variants(g, step):
            if gc is not None:
                gc.collect()
            o = classify(g, lines, noted, kind)
            _count(counts, accepted, g, kind, lines, o)
            if noted is not None and o not in ("earlier", "other game"):
                o = classify(g, lines, None, kind)
                if o in OUTCOMES:
                    counts["no notes"][o] += 1
            if kind in RECHAIN and g.format >= 4:
                again = remake(lines)
                if again is not None and again != lines:
                    o = classify(g, again, noted_of(g), kind)
                    if o not in ("earlier", "other game"):
                        _count(counts, accepted, g, "re-chained", again, o)
                        o = classify(g, again, None, kind)
                        if o in OUTCOMES:
                            counts["re-chained, no notes"][o] += 1
        if say:
            say(g.name)
    return counts, cosmetic_bad, genuine_bad, accepted


def _count(counts, accepted, g, kind, lines, o):
    if o in ("earlier", "other game"):
        counts["not forgeries"][o] += 1
        return
    counts[kind][o] += 1
    if o in ("ACCEPTED", "crashed"):
        accepted.append((kind, g.name, lines))


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
        write("re-chained records checked without the notes a player took: %d accepted of %d (a "
              "forger who makes every commitment again is held only by what the screen showed)\n"
              % (rc["ACCEPTED"], sum([rc[o] for o in OUTCOMES])))
    nn = counts["no notes"]
    if sum([nn[o] for o in OUTCOMES]):
        write("the same forgeries checked without the notes: %d accepted of %d (what the "
              "project's own code makes passes on its own: the notes hold it)\n"
              % (nn["ACCEPTED"], sum([nn[o] for o in OUTCOMES])))
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
    new = genuine_records() + [g for g in records if g.format >= 5]
    write("records of this version (format 5), %d genuine: %s\n" % (len(new), ", ".join(
        [g.name for g in new])))
    write("(each forgery checked with what the player noted: the match commitment, the cut and "
          "the seal; the DEAL # of each hand of a match not over)\n")
    bad = _run(new, step, write)
    four = format4_records() + [g for g in records if g.format < 5]
    write("\nrecords of version 1.1 (format 4; the App's until it asks for a cut), %d genuine: "
          "%s\n" % (len(four), ", ".join([g.name for g in four])))
    write("(checked without notes; re-chained ones with the DEAL # noted; what their format "
          "cannot show: %s)\n" % ", ".join(GAPS4))
    bad += _run(four, step, write, GAPS4)
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
