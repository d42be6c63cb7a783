"""Rebuilding a match from its game record (engine/record.py says what a
record holds, engine/record_format.py writes its lines, and
engine/record_grammar.py reads them): replay, with every commitment,
deal, move and result checked on the way.

Cold: imported only when a record is replayed (engine.replay); the
handheld writes records and never reads one. The check that accounts for
every line and says a verdict is engine/verify.py's.
"""
from .match import Match
from .rng import fingerprint_text
from .deal import commitment, chained_nonce
from .sha256 import hex_text
from .record_format import hand_line, revealed_line, result_line, winner_line
from .record_grammar import (HandLine, Head, Refused, Unreadable, is_move, items_of, match_args,
                             running, split_hands)


def read_reveals(hand_items, fmt):
    """The (seed, nonce) of every revealed hand of a committed record, in
    order, and the number of the hand left unrevealed (0: none), from its
    hand lines (items); Refused for a commitment of format 3 its seed and
    nonce do not give (a chain, format 4, is checked line by line). None
    for the reveals when the record deals by deal numbers."""
    reveals = []
    open_hand = 0
    committed = None
    for i in range(len(hand_items)):
        it = hand_items[i]
        hl = HandLine(it, i + 1, fmt)
        c = hl.kind != "numbered"
        if committed is None:
            committed = c
        elif c != committed:
            raise Refused(it, "hands of one match are all committed or all numbered")
        if not c:
            continue
        if open_hand:
            raise Refused(it, "hand %d before it was not revealed" % open_hand)
        if hl.kind == "open":
            open_hand = len(reveals) + 1
            continue
        if fmt < 4:
            got = commitment(hl.seed, hl.nonce)
            if got != hl.commit:
                raise Refused(it, "the commitment %s is not what its seed and nonce give (%s)"
                              % (hl.commit, got))
        reveals.append((hl.seed, hl.nonce))
    return (reveals if committed else None), open_hand


def replay(text, on_move=None):
    """Rebuild a match from a record; ValueError naming the line that fails
    (NewerRecord for a record of a newer version of the game).

    on_move(match, seat, action) is called before each move, e.g. to print it.
    """
    if type(text) is not str:
        raise ValueError("a game record is text, not %r" % (text,))
    try:
        return _replay(items_of(text), on_move)
    except Refused as r:
        raise ValueError(r.text())


def _replay(items, on_move):
    head = Head(items, False, strict=False)
    fmt = head.format
    before, hands = split_hands(items[head.next:])
    if before:
        raise Refused(before[0], "a line before the first hand line")
    if not hands:
        raise Unreadable("the record holds no hand")
    reveals, open_hand = read_reveals([h[0] for h in hands], fmt)
    chained = fmt >= 4
    if chained and reveals is None:
        raise Refused(hands[0][0], "the hands of a 'gin-rummy record %d' are committed" % fmt)
    if open_hand == 1:
        raise ValueError("hand 1 is still in play: its seed and nonce are revealed once it "
                         "is over, and no hand before it can be replayed")
    m = Match(head.rules, head.seed, reveals=reveals, chained=chained, mirror=head.mirror,
              **match_args(head, hands[-1][1]))
    m.unrevealed = open_hand
    for k in range(1, len(hands) + 1):
        hit, rest = hands[k - 1]
        if k == open_hand:
            # the hand in play when the record was written: its deal was
            # not revealed, so it is not dealt or replayed
            return m
        if k > 1:
            why = m.next_hand()
            if why:
                raise Refused(hit, why)
        if chained:
            hs = reveals[k - 1][0]
            want = revealed_line(k, hex_text(m.chain_head()), hs,
                                 chained_nonce(m.chain_prev, hs), m.hand.first)
        elif reveals is not None:
            hs, nonce = reveals[k - 1]
            want = revealed_line(k, m.hand.commit, hs, nonce, m.hand.first)
        else:
            want = hand_line(k, m.hand)
        if fmt == 1:      # no fingerprint: "hand N deal D first F"
            want = " ".join(want.split()[:2] + want.split()[4:])
        if hit[1] != want:
            w = hit[2]
            if w[2] == "fingerprint" and w[3] != fingerprint_text(m.hand.deal):
                raise Refused(hit, "deal %d has the fingerprint %s, not %s" % (
                    m.hand.deal, fingerprint_text(m.hand.deal), w[3]))
            raise Refused(hit, "expected %s" % want)
        for it in rest:
            _line(m, k, it, on_move)
    return m


def _line(m, k, it, on_move):
    """One line of hand k: a move, its result line, the winner line and
    (format 5) the secret and seal lines."""
    w = it[2]
    if w[0] in ("secret", "seal"):
        from .cut import revealed, seal
        v = revealed(m) if w[0] == "secret" else seal(m)
        want = "no %s: the match is not over" % w[0] if v is None else w[0] + " " + hex_text(v)
        if it[1] != want:
            raise Refused(it, "replay gives %r" % want)
    elif w[0] == "result":
        if not m.results or len(m.results) != k:
            raise Refused(it, "the hand has not ended")
        want = result_line(m.results[-1], running(m.results))
        if it[1] != want:
            raise Refused(it, "replay gives %r" % want)
    elif w[0] == "winner":
        want = winner_line(m) if m.winner is not None else "no winner yet"
        if it[1] != want:
            raise Refused(it, "replay gives %r" % want)
    elif is_move(w, ("0", "1")):
        seat = int(w[0])
        if m.to_move != seat:
            raise Refused(it, "it is not seat %s's move" % w[0])
        act = w[1]
        if act.startswith("draw_upcard:"):
            up = m.hand.upcard()
            if act != "draw_upcard:" + _ctext(up):
                raise Refused(it, "the upcard is %s" % _ctext(up))
        if on_move:
            on_move(m, seat, act)
        why = m.act(act)
        if why:
            raise Refused(it, why)
    else:
        raise Refused(it, "not understood")


def _ctext(c):
    from .cards import card_text
    return card_text(c) if c < 52 else "none"
