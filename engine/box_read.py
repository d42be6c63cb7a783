"""Rebuilding a V6 box match from its game record (engine/box.py writes
them; engine/record_grammar.py reads their lines): replay, with every
commitment, move and line checked. Imported only when a record is read:
the handheld writes box records and never reads one."""
from .box import BoxMatch, box_record_text
from .deal import commitment
from .record_grammar import HandLine, Head, Refused, is_move, items_of, match_args, split_hands

PLAYERS = ("0", "1", "2")


def box_replay(text):
    """Rebuild a box match from its record, checking every line; ValueError
    naming what fails (NewerRecord for a record of a newer version)."""
    if type(text) is not str:
        raise ValueError("a game record is text, not %r" % (text,))
    try:
        return _box_replay(items_of(text))
    except Refused as r:
        raise ValueError(r.text())


def _box_replay(items):
    head = Head(items, True, strict=False)
    fmt = head.format
    before, hands = split_hands(items[head.next:])
    # each committed hand's seed and nonce, checked against its commitment
    # (format 3; a chain, format 4 or 5, is checked by the record written
    # again below). The hand in play when the record was written (its
    # commitment only) is left out with its moves: it cannot be dealt again.
    reveals = []
    committed = None
    open_hand = 0
    kept = items[:head.next] + before
    for k in range(1, len(hands) + 1):
        hit, rest = hands[k - 1]
        hl = HandLine(hit, k, fmt, True)
        c = hl.kind != "numbered"
        if committed is None:
            committed = c
        elif c != committed:
            raise Refused(hit, "hands of one match are all committed or all numbered")
        if open_hand:
            raise Refused(hit, "a hand after one not revealed")
        if hl.kind == "open":
            open_hand = k
            kept.extend([it for it in rest if not is_move(it[2], PLAYERS)])
            continue
        if hl.kind == "revealed":
            if fmt < 4 and commitment(hl.seed, hl.nonce) != hl.commit:
                raise Refused(hit, "the commitment %s is not what its seed and nonce give"
                              % hl.commit)
            reveals.append((hl.seed, hl.nonce))
        kept.append(hit)
        kept.extend(rest)
    if open_hand == 1:
        raise ValueError("hand 1 is still in play: its seed and nonce are revealed once it "
                         "is over, and no hand before it can be replayed")
    if fmt >= 4 and not committed:
        raise ValueError("the hands of a 'gin-rummy box record %d' are committed ones" % fmt)
    bm = BoxMatch(head.rules, head.seed, reveals=reveals if committed else None,
                  chained=fmt >= 4, **match_args(head, items[head.next:]))
    bm.unrevealed = open_hand
    seen = 0
    for it in kept[head.next:]:
        w = it[2]
        if is_move(w, PLAYERS):
            if bm.to_move != int(w[0]):
                raise Refused(it, "not player %s's move" % w[0])
            why = bm.act(w[1])
            if why:
                raise Refused(it, why)
        elif w[0] == "hand":
            seen += 1
            if seen > 1:
                why = bm.next_hand()
                if why:
                    raise Refused(it, why)
    again = box_record_text(bm, form=fmt).split("\n")
    if fmt >= 3:
        again[1] = kept[1][1]     # the version as written (a patch version may differ)
    if "\n".join(again) != "\n".join([it[1] for it in kept]) + "\n":
        raise ValueError("the record does not replay to the same match")
    return bm
