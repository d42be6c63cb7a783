"""The check of a game record: every line accounted for, hand by hand,
and a verdict that says what it checked.

    status = verify_record(text, write)     # 0 verified, 1 not, 2 unreadable
    status, lines = check(data)             # the same, from a file's bytes or text

Its users are the ones who verify: tools/records/replay.py --verify (the
command line, on CPython and the MicroPython unix port) and the web page's
"Check a game record" panel (web/webport.py, on the MicroPython WebAssembly
port), so both give a record the same verdict. The handheld never imports
it: tools/deploy/deploy.py leaves it out of the device's .mpy bundle and
of the frozen firmware (HOST_ONLY; manifest.py freezes deploy's
package_files).

The record's lines are read by engine/record_grammar.py (the one reader
of the record's grammar, which engine.replay and the tools use too); this
module walks the hands (one walker, `Walk`, whose two-player and box
rules are its subclasses `TwoWalk` and `BoxWalk`) and says the verdict.

What is checked, for a two-player record (engine/record.py) and a V6 box
record (engine/box.py) alike:

- the header, the version line (a version this game can read the format
  of, and one that wrote that format), the rules line and the seed line;
- a two-player record's `mirror` line, where there is one (a link match's
  second board, docs/LINK.md): its hands are dealt with the seats swapped
  and its seat 1 starts where seat 0 would; versions before link play
  wrote none;
- each hand line's form and number (hand 1, 2, ... in order) and, for a
  committed deal, that its seed and nonce give its commitment; for a deal
  number, its fingerprint;
- every hand dealt again and every move played through the rules'
  legality checks, each written as the engine writes it;
- every finished hand's result line, its points recomputed and compared
  (a finished hand without one is refused), the running scores and the
  winner line (box records: the roles of every hand, the role draws and
  the closing scores line);
- a committed hand still in play when the record was written (its seed and
  nonce are not revealed) only as the record's last hand, with nothing but
  moves after it; those moves are checked to be possible: a deal is made
  up that fits them and they are played through the rules on it (right
  player to move, cards that player can hold, the discard pile's top card
  taken, no move that would have ended the hand). The verdict says that
  hand's deal is unverified and why.

A record cut short (the end of the file inside a hand whose seed is
revealed, or before the winner line of a match that is over) is INCOMPLETE,
never verified. Every refusal names the record line (as numbered in the
file, comments and blank lines counted) and what is wrong with it.

Blank lines, lines starting with `#` and runs of spaces are not part of
the record's content: both kinds of record read them alike.

Exit status (replay.py; check()'s status): 0 verified; 1 not verified (a
line that does not agree, a missing or extra line, incomplete); 2
unreadable (not a game record: not text, more than MAX_BYTES, no hand in
it, from a newer version of the game).

What a record of format 3 (version 1.0.0) cannot show: its commitments are
40 bits and cover only the hand's seed and nonce, so its seed line (in a
two-player record), the rules (beyond what the moves and scores agree
with), the hands' numbers and order are not covered by any commitment.
The verdict of such a record says so.

Runs on CPython and the MicroPython unix and WebAssembly ports (plain
string work).
"""

from engine.box import box_result_line
from engine.cards import card, card_text
from engine.cut import CUT_MAX, MATCH_HEX, chain_after, check_cut, cut_seed, secret_commitment
from engine.cut import seal as cut_seal
from engine.deal import COMMIT_HEX, chained_commitment, chained_nonce, commitment
from engine.hand import Hand, OVER, action_code, action_text
from engine.record_format import result_line, winner_line
from engine.record_grammar import (HandLine, Head, NewerRecord, Refused, Unreadable, hex16,
                                   is_move, items_of, running, split_hands)
from engine.rng import fingerprint_text
from engine.sha256 import hex_text

VERIFIED = 0
NOT_VERIFIED = 1
UNREADABLE = 2

MAX_BYTES = 1 << 18     # 256 KB: a long match's record is tens of KB


class Verdict:
    """Hand by hand lines and the verdict, written as they are known."""

    def __init__(self, write, hands):
        self.write = write
        self.hands = hands          # [(number, what)] of every hand line
        self.done = 0               # hands said so far

    def hand(self, line):
        self.write("hand %d: %s\n" % (self.done + 1, line))
        self.done += 1

    def fail(self, r):
        """A refusal at the hand being checked: that hand, the rest not checked."""
        word = "INCOMPLETE" if r.incomplete else "NOT VERIFIED"
        if self.done < len(self.hands):
            what = self.hands[self.done][1]
            self.hand("%s%s: %s" % (what + ": " if what else "", word, r.text()))
            while self.done < len(self.hands):
                self.hand("%s: not checked (the check stopped before it)" % self.hands[self.done][1])
        else:
            self.write("%s: %s\n" % (word, r.text()))
        if r.incomplete:
            self.write("INCOMPLETE: the record is cut short, so it is not verified\n")
        else:
            self.write("NOT VERIFIED: the record does not come from the deals it committed to "
                       "and legal play\n")
        return NOT_VERIFIED


def verify_record(text, write, noted=None):
    """Check a record (two-player or box); write the lines; return the exit
    status. noted: what the player noted (Notes, or a list of the DEAL #,
    hand by hand: hex text, "" for a hand not noted): a commitment (or the
    match commitment, the seal) that does not start with its note, another
    cut, or a note for what the record does not have is refused."""
    items = items_of(text)
    noted = as_notes(noted)
    box = bool(items) and items[0][1].startswith("gin-rummy box record")
    try:
        head = Head(items, box)
    except Refused as r:
        Verdict(write, []).fail(r)
        return NOT_VERIFIED
    walk = BoxWalk(head, write, noted) if box else TwoWalk(head, write, noted)
    walk.comments = _comments(text)
    return walk.run(items[head.next:])


def _comments(text):
    """How many `#` comment lines `text` has (no part of the record)."""
    n = 0
    for ln in text.split("\n"):
        if ln.strip()[:1] == "#":
            n += 1
    return n


def record_text(data):
    """(text, None), or (None, why) for data that is not a game record:
    empty, more than MAX_BYTES, not ASCII text, without the header or cut
    short in a line. data: a file's bytes, or its text with one character
    per byte (the web page's file reader)."""
    if len(data) > MAX_BYTES:
        return None, "not a game record: more than %d bytes" % MAX_BYTES
    if not data:
        return None, "not a game record: the file is empty"
    text = isinstance(data, str)
    i = 0
    for b in data:                      # by iteration: MicroPython indexes a
        if text:                        # str that is not ASCII from its start
            b = ord(b)
        if b >= 128 or b < 32 and b not in (9, 10, 13):
            return None, ("not a game record: byte %d (0x%02x) is not text "
                          "(a record is plain ASCII)" % (i, b))
        i += 1
    if not text:
        data = data.decode()
    first = ""
    for ln in data.split("\n"):        # the first line that is no comment
        first = ln.strip()
        if first and first[0] != "#":
            break
    first = " ".join(first.split())
    kind = first[:-1].rstrip() if first[-1:].isdigit() else ""
    if kind not in ("gin-rummy record", "gin-rummy box record"):
        return None, "not a game record: it does not start with 'gin-rummy record N'"
    if not data.endswith("\n"):
        return None, "the record is cut short: its last line has no end"
    return data, None


class Notes:
    """What the player noted: `deals`, each hand's DEAL # in hand order (""
    for a hand not noted), and of a match with a cut (format 5) its match
    commitment (`match`, MATCH #), its `cut` and its `seal` (SEAL #): hex
    text as the handheld showed it, or None."""

    def __init__(self, deals=()):
        self.deals = list(deals)
        self.match = self.cut = self.seal = None

    def any(self):
        for d in self.deals:
            if d:
                return True
        return self.match is not None or self.cut is not None or self.seal is not None


def noted_list(text):
    """Notes from '3FA09C21B7,-,...' (the DEAL # of each hand in order; -
    or nothing: a hand not noted) with, anywhere among them, 'MATCH #...',
    'CUT ...' and 'SEAL #...'; ValueError for a DEAL #, MATCH # or SEAL #
    that is not 4 to 64 hex digits, or a cut that is none."""
    out = Notes()
    for part in text.split(","):
        p = part.strip().upper()
        what = "DEAL"
        for w in ("DEAL", "MATCH", "CUT", "SEAL"):
            if p.startswith(w):
                what = w
                p = p[len(w):].strip()
        if what == "CUT":
            try:
                out.cut = check_cut(p)
            except ValueError:
                raise ValueError("--noted: %r is no cut (1 to %d characters 0-9 and A-Z)"
                                 % (part, CUT_MAX))
            continue
        if p.startswith("#"):
            p = p[1:]
        if p in ("", "-") and what == "DEAL":
            out.deals.append("")
            continue
        if not 4 <= len(p) <= 64:
            raise ValueError("--noted: %r is not 4 to 64 hex digits" % part)
        for ch in p:
            if ch not in "0123456789ABCDEF":
                raise ValueError("--noted: %r is not 4 to 64 hex digits" % part)
        if what == "MATCH":
            out.match = p
        elif what == "SEAL":
            out.seal = p
        else:
            out.deals.append(p)
    return out


def as_notes(noted):
    """Notes of `noted`: Notes, a list of DEAL # (hand by hand) or None."""
    if isinstance(noted, Notes):
        return noted
    return Notes(noted or ())


def check(data, noted=None):
    """(status, [lines]) of a file's bytes or text: record_text, then
    verify_record, with an unreadable record or a fault of this check said
    in one line (status 2), as replay.py --verify says them."""
    out = []
    text, why = record_text(data)
    if text is None:
        return UNREADABLE, [why]
    try:
        status = verify_record(text, out.append, noted)
    except (NewerRecord, Unreadable) as e:
        return UNREADABLE, [str(e)]
    except MemoryError:
        return UNREADABLE, ["not enough memory to check it here"]
    except Exception as e:   # a fault of this check, not a verdict on the record
        return UNREADABLE, ["the check failed with an error it does not expect (%s: %s): it "
                            "cannot say whether the record is genuine" % (type(e).__name__, e)]
    lines = []
    for chunk in out:
        for ln in chunk.split("\n"):
            if ln:
                lines.append(ln)
    return status, lines



# -- the hands ------------------------------------------------------------------

def _hand_what(w):
    if len(w) >= 4 and w[2] == "commit":
        return "commitment %s" % (w[3] if len(w[3]) <= 10 else w[3][:10] + "...")
    if len(w) >= 6 and w[2] == "fingerprint":
        return "fingerprint %s of deal %s" % (w[3], w[5])
    if len(w) >= 4 and w[2] == "deal":
        return "deal %s" % w[3]
    return ""


def check_commitment(fmt, hl, k, prev):
    """(why or None, hand k's commitment) for revealed hand line `hl`:
    format 3, 40 bits of SHA-256(seed, nonce); format 4 and 5, the chain
    (`prev`: the commitment before it, or in format 5 the chain after the
    hand before it, moves and result taken in)."""
    if fmt < 4:
        got = commitment(hl.seed, hl.nonce)
        if got != hl.commit:
            return ("commitment %s, but SHA-256 of the seed and nonce revealed starts %s"
                    % (hl.commit, got)), prev
        return None, prev
    nonce = chained_nonce(prev, hl.seed)
    if nonce != hl.nonce:
        return ("the nonce %s is not the one the commitment before it and the seed give (%s): "
                "a hand's nonce is fixed by them" % (hex_text(hl.nonce), hex_text(nonce))), prev
    c = chained_commitment(prev, k, hl.seed, hl.nonce)
    if hex_text(c) != hl.commit:
        return ("commitment %s..., but SHA-256 of the %s, the hand's number "
                "(%d), seed and nonce is %s..." % (hl.commit[:16], "commitment before it"
                                                   if fmt < 5 else "chain before it (every hand "
                                                   "before, its moves and result)", k,
                                                   hex_text(c)[:16])), prev
    return None, c


def check_noted(hl, k, notes):
    """Refused when the player noted hand k's DEAL # and the record's
    commitment does not start with it."""
    noted = notes.deals
    if noted and k <= len(noted) and noted[k - 1] and hl.commit is not None \
            and not hl.commit.startswith(noted[k - 1]):
        raise Refused(hl.item, "you noted DEAL #%s for hand %d; this record's commitment starts "
                      "%s: these are not the deals the handheld showed"
                      % (noted[k - 1], k, hl.commit[:len(noted[k - 1])]))


def next_first(rules, prev_first, last, mirror=False):
    """The seat that starts the hand after one started by `prev_first` and
    ending in `last` (engine.Match's rule: R2, V5); `mirror`: a link
    match's second board, whose seat 1 is the other board's seat 0."""
    if rules.first == "human":
        return 1 if mirror else 0
    if rules.first == "alternate":
        return 1 - prev_first
    return prev_first if last.winner is None else 1 - last.winner


def play_move(it, hand, tok, act=None):
    """Play the move of line `it` on `hand` (an engine Hand) through act(tok)
    (a Match's or BoxMatch's act, which scores the hand it ends; None: the
    hand's own apply); Refused if it is not legal or not written as the
    engine writes it. The caller has checked it is that player's move."""
    if hand.phase == OVER:
        raise Refused(it, "a move after the hand was over")
    try:
        code = action_code(tok)
    except ValueError as e:
        raise Refused(it, str(e))
    if tok.startswith("draw_upcard:"):
        up = hand.upcard()
        if up > 51 or tok[12:] != card_text(up):
            raise Refused(it, "the discard pile's top card is the %s" % (
                card_text(up) if up <= 51 else "none"))
    why = hand.apply(code) if act is None else act(tok)
    if why:
        raise Refused(it, why)
    done = action_text(hand.log[len(hand.log) - 1])
    if done != tok:
        raise Refused(it, "the move is written %r" % done)


def turn_of(it, hand, seat):
    if hand.phase != OVER and hand.turn != seat:
        raise Refused(it, "it is not this player's move")


def possible_moves(rules, first, moves):
    """Check the moves of a hand whose deal is not revealed: make up a deal
    they fit and play them through the rules on it. moves: [(item, hand
    seat, move text)]. Refused for the first move no deal allows, or for
    moves that end the hand (a hand over has its seed revealed)."""
    deck = bytearray(52)
    placed = bytearray(52)       # by deck position
    used = bytearray(52)         # by card
    free = [list(range(0, 10)), list(range(10, 20))]
    drawn = [[], []]             # stock positions each seat drew, not yet placed
    held = [[], []]              # cards known in each seat's hand (taken from the pile)
    pile = [-1]                  # -1: the upcard, not known yet
    k = 0
    for it, seat, tok in moves:
        try:
            action_code(tok)
            c = card(tok[tok.find(":") + 1:]) if ":" in tok else -1
        except ValueError as e:
            raise Refused(it, str(e))
        if tok == "draw_stock":
            if k < 31:
                drawn[seat].append(51 - k)
            k += 1
        elif tok.startswith("draw_upcard"):
            if not pile:
                raise Refused(it, "the discard pile is empty")
            top = pile[-1]
            if top < 0:
                if used[c]:
                    raise Refused(it, "the %s cannot be the upcard: it is elsewhere" % tok[12:])
                deck[20] = c
                placed[20] = 1
                used[c] = 1
            elif top != c:
                raise Refused(it, "the discard pile's top card is the %s" % card_text(top))
            pile.pop()
            held[seat].append(c)
        elif c >= 0:
            if c in held[seat]:
                held[seat].remove(c)
            elif used[c]:
                raise Refused(it, "this player cannot hold the %s: it is elsewhere" % card_text(c))
            else:
                if free[seat]:
                    p = free[seat].pop(0)
                elif drawn[seat]:
                    p = drawn[seat].pop(0)
                else:
                    raise Refused(it, "this player holds no card that could be the %s"
                                  % card_text(c))
                deck[p] = c
                placed[p] = 1
                used[c] = 1
            pile.append(c)
    rest = [c for c in range(52) if not used[c]]
    j = 0
    for p in range(52):
        if not placed[p]:
            deck[p] = rest[j]
            j += 1
    h = Hand(rules, deck, first, None)
    for it, seat, tok in moves:
        turn_of(it, h, seat)
        play_move(it, h, tok)
        if h.phase == OVER:
            raise Refused(it, "this move ends the hand, but the hand line does not reveal its "
                          "seed and nonce as a finished hand's does")
    return len(moves)



def _broken(v, hands, why, hit, write):
    v.hand("NOT VERIFIED: %s (record line %d)" % (why, hit[0]))
    while v.done < len(hands):
        v.hand("%s: not checked (the check stopped before it)" % v.hands[v.done][1])
    write("NOT VERIFIED: the record does not come from the deals it committed to and legal "
          "play\n")
    return NOT_VERIFIED


def _said(fmt, what, k):
    if fmt >= 5:
        return "%s = SHA-256(the chain before it: every hand before, its moves and result; hand " \
               "%d, seed, nonce): verified; dealt again from the seed and replayed" % (what, k)
    if fmt >= 4:
        return "%s = SHA-256(the commitment before it, hand %d, seed, nonce): verified; dealt " \
               "again from the seed and replayed" % (what, k)
    return "%s = SHA-256(seed, nonce): verified; dealt again from the seed and replayed" % what


class Walk:
    """The one walk over a record's hands: each hand line read and its
    commitment checked, the hand dealt again, its moves played through the
    rules, its result line recomputed, the record's closing lines; a hand
    in play checked to be possible. What differs between a two-player
    record and a box record is said by a subclass: the players who move
    (`seats`), the match (`match`), each hand's place (its first player,
    or its roles), how a player's move reaches the hand, the result line
    and the lines that close the record."""

    box = False                 # the kind of record (its hand lines, the notes)
    seats = ("0", "1")          # who moves: seats, or a box record's players
    stranger = "not a line of a game record"

    def __init__(self, head, write, noted):
        self.head = head
        self.write = write
        self.noted = noted
        self.fmt = head.format
        self.reveals = []           # (seed, nonce) of every hand revealed so far
        self.kind = None            # "committed" or "numbered", from the first hand line
        self.m = None               # the match dealt again, from the first revealed hand
        self.sealed = None          # format 5: the seal line, once verified
        self.comments = 0           # `#` lines in the file: no part of the record

    def run(self, body):
        head = self.head
        write = self.write
        before, hands = split_hands(body)
        if not hands:
            st = self.no_hand(before)
            if st is not None:
                return st
            raise Unreadable("the record holds no hand: it is cut short")
        try:
            self.check_notes(len(hands))
        except Refused as r:
            return Verdict(write, []).fail(r)
        v = Verdict(write, [(i + 1, _hand_what(hands[i][0][2])) for i in range(len(hands))])
        try:
            self.begin(before, hands)
        except Refused as r:
            return v.fail(r)
        fmt = self.fmt
        chain = head.chain
        try:
            for i in range(len(hands)):
                k = i + 1
                hit, rest = hands[i]
                final = i == len(hands) - 1
                hl = HandLine(hit, k, fmt, self.box)
                check_noted(hl, k, self.noted)
                numbered = hl.kind == "numbered"
                if self.kind is None:
                    self.kind = "numbered" if numbered else "committed"
                elif numbered != (self.kind == "numbered"):
                    raise Refused(hit, "hands of one match are all committed or all dealt by "
                                  "numbers")
                m = self.m
                if m is not None and m.winner is not None:
                    raise Refused(hit, "the match was over after hand %d" % (k - 1))
                if hl.kind == "open":
                    if not final:
                        raise Refused(hit, "a hand whose seed is not revealed (in play) can only "
                                      "be the record's last")
                    return self.in_play(v, i, k, hl, hit, rest, len(hands))
                if hl.kind == "revealed":
                    why, c = check_commitment(fmt, hl, k, chain)
                    if why:
                        return _broken(v, hands, why, hit, write)
                    chain = c
                    if len(self.reveals) < k:
                        self.reveals.append((hl.seed, hl.nonce))
                if m is None:
                    m = self.m = self.match()
                else:
                    why = m.next_hand()
                    if why:
                        raise Refused(hit, why)
                h = m.hand
                if numbered:
                    _check_deal_number(hl, h, k, fmt, hit)
                self.check_place(hl, k, hit)
                res_seen = None
                last_move = hit
                tail = []
                for it in rest:
                    w = it[2]
                    if tail or self.closing(w):
                        tail.append(it)
                    elif is_move(w, self.seats):
                        if res_seen is not None:
                            raise Refused(it, "a move after the hand's result line")
                        turn_of(it, h, self.seat_of(it, self.place(), int(w[0])))
                        play_move(it, h, w[1], m.act)
                        last_move = it
                    elif w[0] == "result":
                        if res_seen is not None:
                            raise Refused(it, "a second result line for hand %d" % k)
                        if len(m.results) < k:
                            raise Refused(it, "a result line, but the hand is not over")
                        want = self.result_words(k)
                        if w != want:
                            raise Refused(it, "the replay gives %r" % " ".join(want))
                        res_seen = it
                    else:
                        self.other_line(it, w, res_seen, final, rest)
                over = len(m.results) >= k
                if over and fmt >= 5:       # the hand whole, moves and result: the chain after it
                    chain = chain_after(m, k - 1, chain)
                if tail and not final:
                    raise Refused(tail[0], "the closing lines come after the last hand")
                if over and res_seen is None:
                    if final and not tail:
                        raise Refused(last_move, "the record ends here: hand %d is over after this "
                                      "line, but its result line is missing" % k, True)
                    raise Refused(tail[0] if final else hands[i + 1][0], "hand %d was over (its "
                                  "last move is record line %d), but its result line is missing"
                                  % (k, last_move[0]))
                if not over:
                    if not final:
                        raise Refused(hands[i + 1][0], "hand %d is not over: its moves stop at "
                                      "record line %d" % (k, last_move[0]))
                    if hl.kind == "revealed":
                        self.cut_inside(k, tail, last_move)
                if final:
                    self.close(tail, rest)
                if hl.kind == "revealed":
                    what = _said(fmt, v.hands[i][1], k)
                else:
                    what = "%s: matches; dealt again and replayed (a deal number: a check, not a " \
                           "commitment)" % v.hands[i][1] if fmt >= 2 else \
                        "%s: dealt again and replayed (a record from before fingerprints)" \
                        % v.hands[i][1]
                if over:
                    what += "; result recomputed: %s" % self.result_said(k)
                else:
                    what += "; in play when the record was written: its %d moves so far" % len(h.log)
                v.hand(what)
                self.hand_done(h, over, k)
            self.seal_noted()
        except Refused as r:
            return v.fail(r)
        n = len(hands)
        self.said_seal()
        _note(head, self.kind, write, self.box, self.noted, n, self)
        write("verified: %d hand%s, every commitment, deal, move and result%s\n"
              % (n, "" if n == 1 else "s", "; the secret and the seal" if self.sealed else "")
              if self.kind == "committed" else
              "verified: %d hand%s, every deal, move and result\n" % (n, "" if n == 1 else "s"))
        return VERIFIED

    def check_notes(self, n_hands):
        """The player's notes the record's header must agree with (format
        5: the match commitment and the cut), and no DEAL # noted for a hand
        the record does not have."""
        notes = self.noted
        head = self.head
        last = 0
        for i in range(len(notes.deals)):
            if notes.deals[i]:
                last = i + 1
        if last > n_hands:
            raise Refused(None, "you noted %d hands; this record has %d: a record of the match "
                          "you played holds every hand you noted" % (last, n_hands))
        for what, note in (("MATCH #", notes.match), ("the cut", notes.cut)):
            if note is None:
                continue
            if self.fmt < 5:
                raise Refused(None, "you noted %s %s; a record of format %d has none (the "
                              "version that wrote it drew the deals' secret alone, with no cut)"
                              % (what, note, self.fmt))
            if what == "the cut":
                if note != head.cut:
                    raise Refused(head.cut_item, "you noted the cut %s; this record's is %s: this "
                                  "is not the match you cut" % (note, head.cut))
            elif not hex_text(head.pledge).startswith(note):
                raise Refused(head.pledge_item, "you noted MATCH #%s; this record's match "
                              "commitment starts %s: this is not the match the handheld "
                              "committed to" % (note, hex_text(head.pledge)[:len(note)]))

    def seal_noted(self):
        """Refused when the player noted a seal and the record has none."""
        if self.noted.seal is not None and self.sealed is None:
            raise Refused(None, "you noted SEAL #%s; this record has no seal: %s"
                          % (self.noted.seal, "its match is not over" if self.fmt >= 5 else
                             "a record of format %d has none" % self.fmt))

    def close_lines(self, tail, rest, want):
        """The record's closing lines `tail`: the word lists `want` (a box
        record's scores and winner lines), then, once a match of format 5 is
        over, its secret (which must give the match commitment and every
        hand's seed, with the cut) and its seal."""
        m = self.m
        sealed = self.fmt >= 5 and m is not None and m.winner is not None
        n = len(want) + (2 if sealed else 0)
        for j in range(len(tail)):
            it = tail[j]
            if j >= n:
                raise Refused(it, "a line after the record's last")
            if j < len(want):
                if it[2] != want[j]:
                    raise Refused(it, "the replay gives %r" % " ".join(want[j]))
            elif j == len(want):
                self.check_secret(it)
            else:
                self.check_seal(it)
        if len(tail) < n:
            end = tail[-1] if tail else rest[-1] if rest else None
            k = len(tail)
            raise Refused(end, "the record ends here, without its closing line %r"
                          % (" ".join(want[k]) if k < len(want) else
                             "secret S" if k == len(want) else "seal Z"), True)

    def check_secret(self, it):
        """The secret line of a match of format 5 that is over."""
        head = self.head
        w = it[2]
        if w[0] != "secret" or len(w) != 2:
            raise Refused(it, "expected 'secret S' here (the match's secret, 32 hex digits: "
                          "revealed once the match is over)")
        secret = hex16(it, w[1], "secret")
        if secret_commitment(secret) != head.pledge:
            raise Refused(it, "SHA-256 of this secret is not the match commitment %s...: this is "
                          "not the secret the handheld committed to" % hex_text(head.pledge)[:16])
        for k in range(1, len(self.reveals) + 1):
            if cut_seed(secret, head.cut, k) != self.reveals[k - 1][0]:
                raise Refused(it, "hand %d's seed is not the one this secret and the cut %s give: "
                              "the deal was not the one the secret and the cut make"
                              % (k, head.cut))

    def check_seal(self, it):
        """The seal line of a match of format 5 that is over."""
        w = it[2]
        seal = hex_text(cut_seal(self.m))
        if w != ["seal", seal]:
            raise Refused(it, "the seal of the last hand, the final scores and the winner is "
                          "%s..." % seal[:16] if w[0] == "seal" else "expected 'seal %s...' "
                          "here" % seal[:16])
        notes = self.noted
        if notes.seal is not None and not seal.startswith(notes.seal):
            raise Refused(it, "you noted SEAL #%s; this record's seal starts %s: this is not the "
                          "match that ended on the handheld" % (notes.seal, seal[:len(notes.seal)]))
        self.sealed = seal

    def last_body(self, rest):
        """The last of a hand's lines before the record's closing lines."""
        for j in range(len(rest) - 1, -1, -1):
            if not self.closing(rest[j][2]):
                return rest[j]
        return None

    def said_seal(self):
        """The lines of a verified match of format 5 that is over."""
        if self.sealed is None:
            return
        head = self.head
        self.write("secret: SHA-256 of it is the match commitment %s... (MATCH #%s); every "
                   "hand's seed follows from it and the cut %s\n"
                   % (hex_text(head.pledge)[:16], hex_text(head.pledge)[:MATCH_HEX], head.cut))
        self.write("seal %s... (SEAL #%s): the last hand, the final scores and the winner: "
                   "verified\n" % (self.sealed[:16], self.sealed[:COMMIT_HEX]))

    def in_play(self, v, i, k, hl, hit, rest, n_hands):
        """The record's last hand, in play when it was written (hand k):
        its place, then only moves (checked to be possible on a deal made
        up to fit them) and the closing lines."""
        place = self.open_place(k, hl, hit)
        moves = []
        tail = []
        for it in rest:
            w = it[2]
            if tail or self.closing(w):
                tail.append(it)
                continue
            if not is_move(w, self.seats):
                raise Refused(it, "only moves can follow the hand in play (its seed is not "
                              "revealed, so it is not over)")
            moves.append((it, self.seat_of(it, place, int(w[0])), w[1]))
        possible_moves(self.head.rules, self.first_of(place), moves)
        self.close_in_play(tail, rest)
        self.seal_noted()
        return _in_play(v, i, len(moves), self, n_hands, k)

class TwoWalk(Walk):
    """A two-player record: seats 0 and 1, each hand's first player on its
    hand line, the winner line last (a link match's second board: its
    mirror line, engine/match.py)."""

    def no_hand(self, before):
        """A record with lines after its header but no hand line: NOT_VERIFIED
        when they are no part of the record, None when it is cut short."""
        if before:
            return Verdict(self.write, []).fail(Refused(before[0], "a line before any hand line"))
        return None

    def begin(self, before, hands):
        if before:
            raise Refused(before[0], "a line before the first hand line")
        self.prev_first = 0
        self.last_res = None

    def match(self):
        from engine.match import Match

        return Match(self.head.rules, self.head.seed,
                     reveals=self.reveals if self.kind == "committed" else None,
                     chained=self.fmt >= 5, mirror=self.head.mirror, **self.head.match_kw())

    def place(self):
        return None

    def open_place(self, k, hl, hit):
        """The first player of the hand in play, as the rules give it."""
        head = self.head
        first = (1 if head.mirror else 0) if self.m is None else \
            next_first(head.rules, self.prev_first, self.last_res, head.mirror)
        if hl.first != first:
            raise Refused(hit, "hand %d's first player is seat %d" % (k, first))
        return first

    def first_of(self, place):
        return place

    def check_place(self, hl, k, hit):
        h = self.m.hand
        if hl.first != h.first:
            raise Refused(hit, "hand %d's first player is seat %d" % (k, h.first))

    def seat_of(self, it, place, player):
        return player

    def closing(self, w):
        return self.fmt >= 5 and w[0] in ("secret", "seal")

    def result_words(self, k):
        m = self.m
        return result_line(m.results[k - 1], running(m.results)).split()

    def result_said(self, k):
        r = self.m.results[k - 1]
        return "no score (%s)" % r.why if r.winner is None else \
            "%s, %d points to seat %d" % (r.kind, r.points, r.winner)

    def other_line(self, it, w, res_seen, final, rest):
        m = self.m
        if w[0] != "winner":
            raise Refused(it, self.stranger)
        if res_seen is None:
            raise Refused(it, "a winner line before the hand's result line")
        if m.winner is None:
            raise Refused(it, "the match is not over: scores %d %d" % (m.scores[0], m.scores[1]))
        if not final or it is not self.last_body(rest):
            raise Refused(it, "the winner line is the record's last line%s"
                          % (" before its secret and seal" if self.fmt >= 5 else ""))
        want = winner_line(m).split()
        if w != want:
            raise Refused(it, "the replay gives %r" % " ".join(want))

    def cut_inside(self, k, tail, last_move):
        raise Refused(last_move, "the record ends here, inside hand %d: its seed and nonce are "
                      "revealed, so it was over when the record was written" % k, True)

    def close(self, tail, rest):
        m = self.m
        last = self.last_body(rest)
        if m.winner is not None and (last is None or last[2][0] != "winner"):
            raise Refused(rest[-1], "the record ends here: the match is over (seat %d wins), "
                          "but its winner line is missing" % m.winner, True)
        self.close_lines(tail, rest, [])

    def close_in_play(self, tail, rest):
        self.close_lines(tail, rest, [])

    def hand_done(self, h, over, k):
        self.last_res = self.m.results[k - 1] if over else None
        self.prev_first = h.first


_DUMMY = (bytes(16), bytes(16))


class BoxWalk(Walk):
    """A V6 box record: three players, the role draws after the header,
    each hand's roles (box, captain, sitter) on its hand line, the moves
    by player, and the closing lines 'scores A B C' and 'winner P'."""

    box = True
    seats = ("0", "1", "2")
    stranger = "not a line of a box game record"

    def no_hand(self, before):
        return None         # the role draws alone: the record is cut short

    def begin(self, before, hands):
        from engine.box import BoxMatch

        hl = HandLine(hands[0][0], 1, self.fmt, True)
        self.kind = "numbered" if hl.kind == "numbered" else "committed"
        if hl.kind == "revealed":
            self.reveals.append((hl.seed, hl.nonce))
        head = self.head
        probe = BoxMatch(head.rules, head.seed, reveals=[_DUMMY] if hl.kind == "open" else
                         (self.reveals if self.kind == "committed" else None),
                         chained=self.fmt >= 5, **head.match_kw())
        self.probe = probe
        draws = probe.draws
        if len(before) != len(draws):
            raise Refused(before[len(draws)] if len(before) > len(draws) else hands[0][0],
                          "the seed's role draws are %d line%s 'draw X Y Z'"
                          % (len(draws), "" if len(draws) == 1 else "s"))
        for j in range(len(draws)):
            d = draws[j]
            want = ["draw", card_text(d[0]), card_text(d[1]), card_text(d[2])]
            if before[j][2] != want:
                raise Refused(before[j], "the seed's role draw is %r" % " ".join(want))

    def match(self):
        return self.probe

    def place(self):
        return self.m.hand_roles

    def open_place(self, k, hl, hit):
        """The roles of the hand in play, as the last result gives them."""
        bm = self.m
        roles = self.probe.roles if bm is None else bm.rotate(bm.results[-1][0])
        if hl.roles != roles:
            raise Refused(hit, "hand %d's roles are box %d captain %d sitter %d" % (
                (k,) + tuple(roles)))
        return roles

    def first_of(self, place):
        return 0        # the captain (hand seat 0) acts first (V6)

    def check_place(self, hl, k, hit):
        roles = self.m.hand_roles
        if hl.roles != roles:
            raise Refused(hit, "hand %d's roles are box %d captain %d sitter %d" % (
                (k,) + tuple(roles)))

    def seat_of(self, it, roles, player):
        """Hand seat of a player (0 captain, 1 box); Refused for the sitter."""
        if player == roles[1]:
            return 0
        if player == roles[0]:
            return 1
        raise Refused(it, "player %d sits this hand out" % player)

    def closing(self, w):
        return w[0] in ("scores", "winner") or self.fmt >= 5 and w[0] in ("secret", "seal")

    def result_words(self, k):
        r = self.m.results[k - 1]
        return box_result_line(r[0], r[1]).split()

    def result_said(self, k):
        r, roles = self.m.results[k - 1]
        return "no score (%s)" % r.why if r.winner is None else "%s, %d points to player %d" % (
            r.kind, r.points, roles[1] if r.winner == 0 else roles[0])

    def other_line(self, it, w, res_seen, final, rest):
        raise Refused(it, self.stranger)

    def cut_inside(self, k, tail, last_move):
        raise Refused(tail[0] if tail else last_move, "hand %d's seed and nonce are revealed, so "
                      "it was over when the record was written, but its moves stop at record "
                      "line %d" % (k, last_move[0]), not tail)

    def close(self, tail, rest):
        self.close_lines(tail, rest, _box_closing(self.m.scores, self.m.winner))

    def close_in_play(self, tail, rest):
        bm = self.m
        self.close_lines(tail, rest, _box_closing([0, 0, 0] if bm is None else bm.scores, None))

    def hand_done(self, h, over, k):
        pass


def _box_closing(scores, winner):
    """A box record's closing lines: 'scores A B C', then 'winner P' once
    the match is over."""
    want = [["scores"] + [str(x) for x in scores]]
    if winner is not None:
        want.append(["winner", str(winner)])
    return want


def _note(head, kind, write, box, notes, hands, walk):
    """The lines after the hands of a record that verifies: what the
    player noted and the record agreed with, and what the record's format
    and its state cannot show."""
    k = 0
    for i in range(min(len(notes.deals), hands)):
        if notes.deals[i]:
            k += 1
    if k:
        write("noted: the commitment%s of %d hand%s start%s with the DEAL # you noted\n"
              % ("" if k == 1 else "s", k, "" if k == 1 else "s", "s" if k == 1 else ""))
    said = []
    if notes.match is not None:
        said.append("the match commitment starts with the MATCH # you noted")
    if notes.cut is not None:
        said.append("the cut is yours")
    if notes.seal is not None:
        said.append("the seal starts with the SEAL # you noted")
    if said:
        write("noted: %s\n" % "; ".join(said))
    if getattr(head, "mirror", False):
        write("note: the record of a link match's second board (its mirror line): seat 0 is "
              "that board's player, dealt what the other board's record deals seat 1; the "
              "commitments are the same on both boards' records, and the mirror line is in "
              "none of them%s\n" % (" but the seal" if head.format >= 5 else ""))
    if kind == "numbered":
        write("note: a match dealt by deal numbers has no commitments: a deal number is a check "
              "of the deal, and the rules are checked only as far as the play agrees with them\n")
    if kind == "committed" and head.format == 3:
        write("note: in this record's format (3, version 1.0.0) a commitment is 40 bits of "
              "SHA-256(seed, nonce) and covers nothing else: %sthe rules and the hands' numbers "
              "and order are checked only as far as the play agrees with them\n"
              % ("" if box else "the seed line, "))
    if kind == "committed" and head.format == 4:
        write("note: in this record's format (4, version 1.1) a commitment holds the deal, the "
              "hand's number, the rules, the seed line and the hands' deals before it, but no "
              "move or result: a record of other legal play from the same deals, or with its "
              "last hands dropped, passes as well; the version line, %sthe AI level are in no "
              "commitment, there is no seal, and the handheld drew the deals' secret alone, "
              "with no cut of yours\n" % ("" if box else "whose seat is seat 0 and "))
    if kind == "committed" and head.format >= 5 and walk.sealed is None:
        write("note: the match is not over in this record: its secret is not revealed yet, so "
              "the seeds are checked against the chain of commitments only (that they follow "
              "from the secret and the cut %s is checked once the match is over), and there is "
              "no seal yet\n" % head.cut)
    if walk.comments:
        write("note: %d comment line%s (#) of the file %s no part of the record: nothing holds "
              "%s\n" % (walk.comments, "" if walk.comments == 1 else "s",
                          "is" if walk.comments == 1 else "are",
                          "it" if walk.comments == 1 else "them"))


def _check_deal_number(hl, h, k, fmt, hit):
    """Hand k of a match dealt by deal numbers: its hand line names the deal
    it was dealt (and, from format 2, that deal's fingerprint)."""
    if hl.deal != h.deal:
        raise Refused(hit, "the seed line's hand %d is deal %d" % (k, h.deal))
    if fmt >= 2 and hl.fp != fingerprint_text(h.deal):
        raise Refused(hit, "deal %d has the fingerprint %s, not %s"
                      % (h.deal, fingerprint_text(h.deal), hl.fp))


def _in_play(v, i, n_moves, walk, n_hands, k):
    """VERIFIED for a record whose last hand, hand k, is still in play: its
    deal unverified (seed and nonce not revealed), its moves checked to fit
    the rules, every hand before it verified."""
    v.hand("%s: in play when the record was written; seed and nonce not revealed: its "
           "deal is unverified; its %d move%s fit the rules (checked on a deal made "
           "up to fit them)" % (v.hands[i][1], n_moves, "" if n_moves == 1 else "s"))
    write = walk.write
    _note(walk.head, walk.kind, write, walk.box, walk.noted, n_hands, walk)
    write("verified: %d hand%s, every commitment, deal, move and result; hand %d "
          "unverified: in play when the record was written, its seed not revealed "
          "yet\n" % (k - 1, "" if k == 2 else "s", k))
    return VERIFIED

