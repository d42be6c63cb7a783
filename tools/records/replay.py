"""Replay a game record and print every move and the result.

    python3 tools/records/replay.py RECORD [RECORD ...]
    micropython tools/records/replay.py RECORD
    python3 tools/records/replay.py --review [--seat 1] RECORD
    python3 tools/records/replay.py --verify RECORD [RECORD ...]

--review adds, after each hand, the review of one seat's decisions (YOU,
seat 0, unless --seat 1: the CPU), as the handheld's hand result shows it:
at each of that seat's decisions the hard level's choice, from the view
that seat had then, against the move played, and the three costliest in a
few words; then the match's summary (engine/review.py).

RECORD is a game record (engine/record.py): a file the handheld keeps in
/data/records (`make records` copies them into ./records/), one the
simulator keeps in saves/records/, or one tools/records/record_match.py printed.
The replay checks each hand's commitment (shown by the handheld when the
hand started: DEAL #...) against the seed and nonce revealed at its end
(SHA-256, engine/deal.py), deals the hand again from its seed, plays every
move through the rules' legality checks and checks every result line, so
a record that does not come from a fair deal and legal play is rejected
with the line that disagrees (exit 1). Records of matches dealt by deal
numbers (tests, tools, older firmware) have each deal number checked
against its fingerprint instead.

--verify (engine/verify.py, the check the web page makes too) accounts for every line of the record
and says, hand by hand, whether its commitment holds, its deal and moves
replay and its result is the one recomputed, then a verdict: exit 0 when
it verifies, 1 when it does not (the record line and what is wrong are
named) or is cut short inside a hand (INCOMPLETE). A hand still in play
when the record was written has not revealed its seed: it may only be the
last hand, its moves are checked to be possible, and the verdict says its
deal is unverified.

A file that is not a game record (not text, cut short, more than
MAX_BYTES, from a newer version of the game) is answered with one line and
exit status 2.

Runs unchanged on CPython and the MicroPython unix port and prints the same
bytes on both. Seat 0 is YOU and seat 1 the CPU, as on the handheld.
"""

import sys

import _root  # this script's folder, tools/records/, is first on sys.path on every runtime

_root.add_repo_root()

from engine import Hand, card_text, fingerprint_text, replay  # noqa: E402
from engine.hand import action_text  # noqa: E402
from engine.record_grammar import NewerRecord, Unreadable, is_move, items_of  # noqa: E402
from engine.verify import MAX_BYTES, noted_list, record_text, verify_record  # noqa: E402

USAGE = ("usage: replay.py RECORD [RECORD ...]   (a game record file)\n"
         "       replay.py --review [--seat 0|1] RECORD ...   (and review YOU's or the CPU's decisions)\n"
         "       replay.py --verify [--noted C1,C2,...] RECORD ...   (check every hand's "
         "commitment and replay it;\n"
         "           --noted: the DEAL # you noted, hand by hand, must start each commitment)\n")
CHUNK = 1 << 14
BAD = 2                 # exit status: not a game record
NAMES = ("YOU", "CPU")
# what a committed record's commitments are, by format (--verify checks them)
COMMITMENTS = {
    3: "commitments: each hand's is SHA-256 of the seed and nonce revealed at its end, so the "
       "deck was fixed before the first card was seen\n",
    4: "commitments: each hand's chains the one before it with its number, seed and nonce, so "
       "the deck was fixed before the first card was seen (--verify checks them)\n",
    5: "commitments: each hand's chains every hand before it, moves and results, with its "
       "number, seed and nonce; the secret and the cut give every seed, and the seal ends the "
       "match (--verify checks them)\n",
}
WHY = {"stock": "the stock ran down with no knock", "pile": "the discard pile went round"}


def _cards(cs):
    return " ".join([card_text(c) for c in sorted(cs)])


def _melds(ms):
    return " | ".join([" ".join([card_text(c) for c in m]) for m in ms]) or "none"


def move_text(code, last, result):
    """One move in words."""
    a = action_text(code)
    kind, _, c = a.partition(":")
    if kind == "draw_stock":
        return "draw from the stock"
    if kind == "draw_upcard":
        return "take %s from the discard pile" % c
    if kind == "pass":
        return "pass on the upcard"
    if kind == "knock":
        if last and result is not None and result.kind == "gin":
            return "gin, discarding %s face down" % c
        return "knock, discarding %s face down" % c
    return "discard " + c


def result_lines(h, res, scores):
    if res.winner is None:
        return ["result: no score, %s" % WHY.get(res.why, res.why)]
    o = res.outcome
    k = res.knocker
    d = 1 - k
    out = []
    kmelded = []
    for m in o.knocker_melds:
        kmelded.extend(m)
    out.append("%s  melds %s; deadwood %s = %d" % (
        NAMES[k], _melds(o.knocker_melds),
        _cards([c for c in h.cards_of(k) if c not in kmelded]) or "none",
        o.knocker_deadwood))
    dmelded = []
    for m in o.defender_melds:
        dmelded.extend(m)
    laid = [c for c, _ in o.layoffs]
    out.append("%s  melds %s; lays off %s; deadwood %s = %d" % (
        NAMES[d], _melds(o.defender_melds), _cards(laid) or "nothing",
        _cards([c for c in h.cards_of(d) if c not in dmelded and c not in laid]) or "none",
        o.defender_deadwood))
    if res.kind == "gin":
        how = "gin by %s" % NAMES[k]
    elif res.kind == "undercut":
        how = "undercut: %s knocked, %s has less or equal deadwood" % (NAMES[k], NAMES[d])
    else:
        how = "knock by %s" % NAMES[k]
    out.append("result: %s, %d points to %s; scores YOU %d, CPU %d" % (
        how, res.points, NAMES[res.winner], scores[0], scores[1]))
    return out


def replay_text(text, write, review_seat=None):
    """Replay `text`, writing the account through write(str) (with the
    review of seat `review_seat`'s decisions, if given). True if the record
    replays; False (after saying why) if not."""
    items = items_of(text)
    first = items[0][1] if items else ""
    if first.startswith("gin-rummy box record"):
        if review_seat is not None:
            write("the review is of two-player hands; this is a box game record\n")
            return False
        return replay_box(text, write)
    try:
        m = replay(text)
    except NewerRecord:
        raise
    except ValueError as e:
        write("the record does not replay: %s\n" % (e,))
        return False
    except (IndexError, KeyError, TypeError):
        # a line the replay does not expect: the verifier names it
        write("the record does not replay: %s\n" % why_not(text))
        return False
    write("rules: %s\n" % m.rules.text())
    write("seed: %d\n" % m.seed)
    scores = [0, 0]
    rv = None if review_seat is None else MatchReview(m, review_seat)
    for i in range(len(m.hands)):
        h = m.hands[i]
        res = m.results[i] if i < len(m.results) else None
        start = Hand(m.rules, m.deck_of(i), h.first, h.deal)
        if h.deal is None:
            write("\nhand %d, commitment %s, %s first\n" % (i + 1, h.commit, NAMES[h.first]))
        else:
            write("\nhand %d, fingerprint %s, deal number %d, %s first\n" % (
                i + 1, fingerprint_text(h.deal), h.deal, NAMES[h.first]))
        write("  YOU  dealt %s\n" % _cards(start.cards_of(0)))
        write("  CPU  dealt %s\n" % _cards(start.cards_of(1)))
        write("  upcard    %s\n" % card_text(start.upcard()))
        n = len(h.log)
        for j in range(n):
            write("  %3d %s  %s\n" % (j + 1, NAMES[h.log_seat[j]],
                                     move_text(h.log[j], j == n - 1, res)))
        if res is None:
            write("  (the hand is not over)\n")
            continue
        if res.winner is not None:
            scores[res.winner] += res.points
        for line in result_lines(h, res, scores):
            write("  " + line + "\n")
        if rv is not None:
            rv.hand(i, write)
    write("\n")
    if rv is not None:
        rv.summary(write)
    if m.end is None:
        write("match not over: YOU %d, CPU %d after %d hands\n" % (
            m.scores[0], m.scores[1], len(m.results)))
    else:
        e = m.end
        write("match won by %s: YOU %d, CPU %d\n" % (NAMES[e.winner], m.scores[0], m.scores[1]))
        if m.rules.match_bonus:
            write("bonuses: game %d, hands %d, shutout %d; total %d\n" % (
                e.game_bonus, e.hand_bonus, e.shutout_bonus, e.total))
    if m.unrevealed:
        write("hand %d was in play when the record was written: its deal is not "
              "revealed, so it is not replayed\n" % m.unrevealed)
    if m.committed:
        write("replayed: every deal, move and result as recorded\n")
        write(COMMITMENTS[5 if m.cut is not None else 4 if m.chained else 3])
    elif first == "gin-rummy record 1":
        write("replayed: every deal number, move and result as recorded\n")
        write("(a record from before fingerprints: none to check)\n")
    else:
        write("replayed: every deal number, move and result as recorded\n")
        write("fingerprints: each hand's matches its deal number (a match dealt by "
              "deal numbers: a check, not a commitment)\n")
    return True


def why_not(text):
    """What verify_record refuses in `text`: its last line that says so."""
    out = []
    verify_record(text, out.append)
    for line in out:
        k = line.find("NOT VERIFIED: ")
        if k < 0:
            k = line.find("INCOMPLETE: ")
        if k >= 0:
            return line[k:].rstrip("\n")
    return "it does not replay"


def read_record(path):
    """(text, None), or (None, why) for a file that is not a game record:
    unreadable, more than MAX_BYTES, not ASCII text, or cut short in a line."""
    try:
        with open(path, "rb") as f:
            parts = []
            n = 0
            while n <= MAX_BYTES:           # by pieces: MicroPython's read(n)
                b = f.read(CHUNK)           # takes n bytes of heap at once
                if not b:
                    break
                parts.append(b)
                n += len(b)
    except OSError as e:
        return None, "cannot read it (%s)" % (e,)
    except MemoryError:
        return None, "not enough memory to read it"
    if n > MAX_BYTES:
        return None, "not a game record: more than %d bytes" % MAX_BYTES
    return record_text(b"".join(parts))


def replay_box(text, write):
    """A V6 three-player box record: checked by engine.box_read, then listed."""
    from engine.box_read import box_replay

    try:
        bm = box_replay(text)
    except NewerRecord:
        raise
    except ValueError as e:
        write("the record does not replay: %s\n" % (e,))
        return False
    for _, ln, w in items_of(text)[1:]:
        if is_move(w, ("0", "1", "2")):
            write("  player %s %s\n" % (w[0], w[1]))
        elif w[0] == "hand":
            write("\n" + ln + "\n")
        else:
            write(ln + "\n")
    write("\nmatch: %s\n" % ("player %d wins" % bm.winner if bm.winner is not None
                             else "not over"))
    if bm.unrevealed:
        write("hand %d was in play when the record was written: its deal is not "
              "revealed, so it is not replayed\n" % bm.unrevealed)
    if bm.committed:
        write("replayed: every deal, move and result as recorded\n")
        write(COMMITMENTS[5 if bm.cut is not None else 4 if bm.chained else 3])
    else:
        write("replayed: every deal number, move and result as recorded\n")
    return True


class MatchReview:
    """The review of one seat over a match, hand by hand (one hard Player,
    which learns the opponent from the hands finished before each)."""

    def __init__(self, match, seat):
        from engine.ai import Player

        self.m = match
        self.seat = seat
        self.player = Player("hard", 0)
        self.n = 0
        self.total = 0
        self.worst = None        # (cost, hand number, record)

    def hand(self, i, write):
        from engine.review import Review
        from engine.review_text import line, average, cost_of

        r = Review(self.m, i, self.seat, self.player).run()
        me = NAMES[self.seat]
        opp = NAMES[1 - self.seat]
        write("  review of %s: %d decision%s, %d point%s of cost (%s a decision)\n" % (
            me, r.n, "" if r.n == 1 else "s", (r.total + 8) // 16,
            "" if (r.total + 8) // 16 == 1 else "s", average(r.total, r.n)))
        shown = r.shown()
        for d in shown:
            write("    " + line(r.record(d), me, opp) + "\n")
        if not shown:
            write("    nothing worth showing: no decision cost a point or more\n")
        self.n += r.n
        self.total += r.total
        w = r.worst()
        if w >= 0:
            rec = r.record(w)
            if self.worst is None or cost_of(rec) > self.worst[0]:
                self.worst = (cost_of(rec), i + 1, rec)

    def summary(self, write):
        from engine.review_text import line, average

        me = NAMES[self.seat]
        write("review of %s over the match: %d decisions, %s points a decision on average\n" % (
            me, self.n, average(self.total, self.n)))
        if self.worst is not None:
            write("costliest: hand %d, %s\n" % (self.worst[1], line(
                self.worst[2], me, NAMES[1 - self.seat])))


def _options(args):
    """(review seat or None, paths); ValueError for a bad option."""
    seat = None
    review = False
    verify = False
    noted = None
    paths = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--review":
            review = True
        elif a == "--verify":
            verify = True
        elif a == "--noted":
            if i + 1 >= len(args):
                raise ValueError("--noted takes the DEAL # you noted, hand by hand: "
                                 "3FA09C21B7,D3AECD8D57,...")
            noted = noted_list(args[i + 1])
            i += 1
        elif a == "--seat":
            if i + 1 >= len(args) or args[i + 1] not in ("0", "1"):
                raise ValueError("--seat takes 0 (YOU) or 1 (CPU)")
            seat = int(args[i + 1])
            i += 1
        elif a.startswith("--"):
            raise ValueError("unknown option %s" % a)
        else:
            paths.append(a)
        i += 1
    if seat is not None and not review:
        raise ValueError("--seat goes with --review")
    if review and seat is None:
        seat = 0
    if review and verify:
        raise ValueError("--verify and --review go one at a time")
    if noted is not None and not verify:
        raise ValueError("--noted goes with --verify")
    return seat, paths, (noted if noted is not None else []) if verify else None


def main(argv):
    args = argv[1:]
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0 if args else BAD
    try:
        seat, paths, verify = _options(args)
    except ValueError as e:
        sys.stdout.write("%s\n%s" % (e, USAGE))
        return BAD
    if not paths:
        sys.stdout.write(USAGE)
        return BAD
    status = 0
    for i in range(len(paths)):
        p = paths[i]
        if len(paths) > 1:
            sys.stdout.write("%s== %s\n" % ("\n" if i else "", p))
        text, why = read_record(p)
        if text is None:
            sys.stdout.write("%s: %s\n" % (p, why))
            status = BAD
            continue
        try:
            if verify is not None:
                ok = verify_record(text, sys.stdout.write, verify) == 0
            else:
                ok = replay_text(text, sys.stdout.write, seat)
        except (NewerRecord, Unreadable) as e:
            sys.stdout.write("%s: %s\n" % (p, e))
            status = BAD
            continue
        except MemoryError:
            sys.stdout.write("%s: not enough memory to replay it here (CPython, or "
                             "micropython -X heapsize=4M, has room)\n" % p)
            status = BAD
            continue
        except Exception as e:   # a fault of this tool, not a verdict on the record
            sys.stdout.write("%s: the check failed with an error it does not expect (%s: %s): "
                             "it cannot say whether the record is genuine\n"
                             % (p, type(e).__name__, e))
            status = BAD
            continue
        if not ok and status == 0:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
