"""Reading V6 box game records (engine/box.py writes them): replay and
the commitments' check. Imported only when a record is read: the handheld
writes box records and never reads one."""
from .box import BoxMatch, box_record_text, BOX_HEADER, BOX_HEADER_V3, BOX_HEADER_V2, BOX_HEADER_V1
from .deal import commitment

FORMS = {BOX_HEADER: 4, BOX_HEADER_V3: 3, BOX_HEADER_V2: 2, BOX_HEADER_V1: 1}


def box_replay(text):
    """Rebuild a box match from its record, checking every line."""
    from .rules import Rules
    if type(text) is not str:
        raise ValueError("a game record is text, not %r" % (text,))
    from .record_read import NewerRecord, check_version
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    if lines and lines[0].startswith("gin-rummy box record ") and lines[0] not in FORMS:
        f = lines[0][21:]
        if f.isdigit() and int(f) > 4:
            raise NewerRecord("the box record is of format %s, newer than this version of "
                              "the game reads (4): replay it with a newer version" % f)
    if len(lines) < 3 or lines[0] not in FORMS:
        raise ValueError("not a box game record")
    form = FORMS[lines[0]]
    b = 0
    if form >= 3:
        if not lines[1].startswith("version "):
            raise ValueError("record line 2: expected 'version X.Y.Z'")
        check_version(lines[1][8:])
        b = 1
    if len(lines) < 3 + b or not lines[1 + b].startswith("rules ") or \
            not lines[2 + b].startswith("seed "):
        raise ValueError("not a box game record")
    try:
        seed = int(lines[2 + b][5:])
    except ValueError:
        raise ValueError("record line %d: the seed is a number" % (3 + b))
    reveals, lines = _box_reveals(lines, form == 4)
    if form == 4 and reveals[0] is None:
        raise ValueError("the hands of a 'gin-rummy box record 4' are committed ones")
    bm = BoxMatch(Rules.from_text(lines[1 + b][6:]), seed, reveals=reveals[0],
                  chained=form == 4 and reveals[0] is not None)
    bm.unrevealed = reveals[1]
    seen = 0
    for n in range(3 + b, len(lines)):
        ln = lines[n]
        w = ln.split()
        if w[0] in ("0", "1", "2") and len(w) == 2:
            if bm.to_move != int(w[0]):
                raise ValueError("record line %d: not player %s's move" % (n + 1, w[0]))
            why = bm.act(w[1])
            if why:
                raise ValueError("record line %d: %s" % (n + 1, why))
        elif w[0] == "hand":
            seen += 1
            if seen > 1:
                why = bm.next_hand()
                if why:
                    raise ValueError("record line %d: %s" % (n + 1, why))
    again = box_record_text(bm, form=form).split("\n")
    if form >= 3:
        again[1] = lines[1]      # the version as written (a patch version may differ)
    if "\n".join(again) != "\n".join(lines) + "\n":
        raise ValueError("the record does not replay to the same match")
    return bm


def _box_reveals(lines, chained=False):
    """((reveals or None, number of the hand left unrevealed or 0), lines
    without that hand) of a box record: each committed hand's seed and
    nonce, checked against its commitment (ValueError if they disagree).
    The hand in play when the record was written (its commitment only)
    is left out with its moves: it cannot be dealt again."""
    from .sha256 import from_hex

    reveals = []
    committed = None
    out = []
    skipping = False
    for n in range(len(lines)):
        ln = lines[n]
        w = ln.split()
        if w and w[0] == "hand":
            c = len(w) >= 4 and w[2] == "commit"
            if committed is None:
                committed = c
            elif c != committed:
                raise ValueError("record line %d: hands of one match are all committed "
                                 "or all numbered" % (n + 1))
            if c:
                if skipping:
                    raise ValueError("record line %d: a hand after one not revealed" % (n + 1))
                if len(w) == 10:
                    skipping = True
                    continue
                if len(w) != 14 or w[4] != "seed" or w[6] != "nonce":
                    raise ValueError("record line %d: expected 'hand N commit C seed S "
                                     "nonce X box B captain C sitter S'" % (n + 1))
                try:
                    hs = from_hex(w[5])
                    nonce = from_hex(w[7])
                except ValueError:
                    raise ValueError("record line %d: the seed and nonce are hex" % (n + 1))
                if len(hs) != 16 or len(nonce) != 16 or \
                        not chained and commitment(hs, nonce) != w[3]:
                    raise ValueError("record line %d: the commitment %s is not what its seed "
                                     "and nonce give" % (n + 1, w[3]))
                reveals.append((hs, nonce))
        elif skipping and w and w[0] in ("0", "1", "2") and len(w) == 2:
            continue
        out.append(ln)
    if skipping and not reveals:
        raise ValueError("hand 1 is still in play: its seed and nonce are revealed once it "
                         "is over, and no hand before it can be replayed")
    return ((reveals if committed else None), len(reveals) + 1 if skipping else 0), out
