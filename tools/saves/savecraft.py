"""Crafted saves: real game saves changed on purpose, every checksum made
good again, fed to the game's load path and then played on.

    pool = real_saves(seed=1, matches=3)
    for data in crafted(pool, n=1000, seed=7):
        verdict = try_save(data)        # "refused", "loaded" or "crash: ..."

A crafted save is a game payload (firmware/saves/gamesave.py) with one to three
changes: a rules field (any text, out of range, a long or odd name), the
seed, the move bytes (changed, inserted, dropped, a hand boundary moved),
the statistics (a tag, a length, a count out of range or not adding up)
or the header; a tenth are older-firmware saves (engine save version 1,
its Fletcher-16 recomputed). The storage container's CRC is recomputed
too, so nothing but the contents can reject it.

try_save loads it as the App does at start (firmware.saves.storage.Storage on a
littlefs-like filesystem, firmware.saves.gamesave.decode) and, when a match
loads, plays it on: both seats by the engine's AI for up to MOVES moves,
with a save after every move (the payload must load back to the same
match and fit the device's storage), the statistics counting each ended
hand, the next hand dealt. A crash is any exception at load other than
the decoder's ValueError (which sets the save aside), or any exception at
all later in play.
"""

import random
import sys
import os


MOVES = 40
NVM_RECORD = 4095           # the largest record the CircuitPython nvm holds


def real_saves(seed=1, matches=3, targets=(100, 250, 500), every=7):
    """Game payloads taken along AI matches (every `every` moves), with
    statistics that count what was played."""
    import engine
    from engine.ai import Player
    from firmware.saves import gamesave
    from firmware.settings import Settings
    from firmware.stats import Stats
    from tools.kit.play import play_out, players_choose

    out = []
    rnd = random.Random(seed)
    stats = Stats()
    for n in range(matches):
        st = Settings()
        st.set_rule("target", targets[n % len(targets)])
        if n % 2:
            st.set_rule("upcard_offer", 1)
        m = engine.Match(st.match_rules(), rnd.randrange(1 << 30))
        ps = (Player("hard", n), Player("easy", n + 1))
        k = [0]

        def each(m, seat):
            if m.phase in ("hand_over", "match_over"):
                stats.record_hand(m.results[-1])
                if m.end is not None:
                    stats.record_match(m.end)
            k[0] += 1
            if k[0] % every == 0 and m.winner is None:
                out.append(gamesave.encode(stats, m))

        play_out(m, players_choose(ps), each)
    return out


def _field(rnd):
    return rnd.choice((
        str(rnd.randrange(-5, 20000)), str(rnd.randrange(10 ** 9)), "", "x", "1_0", "+5",
        "05", "-1", "0", "1", "999999", "human", "loser", "alternate", "\u00e9", " ",
        str(rnd.randrange(0, 600)), str(rnd.randrange(0, 120)),
    ))


def _rules(rnd, text):
    words = text.split()
    kind = rnd.randrange(6)
    if kind == 0:
        i = rnd.randrange(1, len(words))
        k = words[i].partition("=")[0]
        words[i] = k + "=" + _field(rnd)
    elif kind == 1:
        words[0] = rnd.choice(("", "x" * rnd.randrange(1, 200), "Cardems", "custom",
                               "box", "classic", "a b", "bonus", "oklahoma", "\xff",
                               "".join(rnd.choice("abz09_-=") for _ in range(rnd.randrange(1, 20)))))
    elif kind == 2:
        words.append(rnd.choice(("target", "knock_limit", "gin_bonus", "first", "oops",
                                 "name", "undercut_bonus")) + "=" + _field(rnd))
    elif kind == 3 and len(words) > 1:
        del words[rnd.randrange(1, len(words))]
    elif kind == 4:
        rnd.shuffle(words)
    else:
        i = rnd.randrange(len(words))
        words[i] = words[i].upper()
    return " ".join(words).encode("utf-8", "replace")


def _engine_part(rnd, mb):
    """One change to an engine save (version 2) `mb`."""
    from engine.save import HEAD

    rl = mb[5]
    head_end = HEAD + rl + 4
    kind = rnd.randrange(8)
    b = bytearray(mb)
    if kind == 0:
        rt = _rules(rnd, bytes(mb[HEAD:HEAD + rl]).decode())[:255]
        return bytes(mb[:5]) + bytes((len(rt),)) + rt + bytes(mb[HEAD + rl:])
    if kind == 1:
        for i in range(4):
            b[HEAD + rl + i] = rnd.randrange(256)
        return bytes(b)
    moves = len(b) - head_end
    if kind == 2 and moves:
        b[head_end + rnd.randrange(moves)] = rnd.randrange(256)
    elif kind == 3:
        b.insert(head_end + rnd.randrange(moves + 1),
                 rnd.choice((3, 0, 2, 1, rnd.randrange(256), 64 + rnd.randrange(52),
                             128 + rnd.randrange(52), 192 + rnd.randrange(52))))
    elif kind == 4 and moves:
        del b[head_end + rnd.randrange(moves)]
    elif kind == 5 and moves > 4:
        i = head_end + rnd.randrange(moves - 2)
        b[i:i] = b[i:i + rnd.randrange(1, 6)]
    elif kind == 6:
        b[rnd.randrange(len(b))] = rnd.randrange(256)
    else:
        b = b[:rnd.randrange(len(b) + 1)]
    return bytes(b)


def _stats_part(rnd, sb):
    b = bytearray(sb)
    kind = rnd.randrange(5)
    if kind == 0 and len(b) > 3:
        b[rnd.randrange(3, len(b))] = rnd.randrange(256)
    elif kind == 1:
        b.extend(bytes((rnd.randrange(256), rnd.randrange(8))) + bytes(rnd.randrange(256) for _ in range(rnd.randrange(8))))
    elif kind == 2 and len(b) > 3:
        del b[rnd.randrange(3, len(b)):]
    elif kind == 3:
        return b"hands=%d\nhands_won=%d\n" % (rnd.randrange(-3, 10), rnd.randrange(12))
    elif len(b) > 2:
        b[2] = rnd.randrange(256)
    return bytes(b)


def _v1(rnd, mb):
    """The same match as an older-firmware save (engine save version 1),
    then changed, its Fletcher-16 made good."""
    import engine
    from engine.save import fletcher16

    m = engine.loads(mb)
    rt = m.rules.text().encode()
    if rnd.randrange(2):
        rt = _rules(rnd, rt.decode())[:255]
    hands = [h[0] if isinstance(h, tuple) else h for h in m.hands]
    p = bytearray((len(rt),)) + rt + bytes(((m.seed >> 24) & 255, (m.seed >> 16) & 255,
                                             (m.seed >> 8) & 255, m.seed & 255))
    p += bytes((len(hands) >> 8, len(hands) & 255))
    for h in hands:
        log = bytearray(h.log)
        if log and rnd.randrange(3) == 0:
            log[rnd.randrange(len(log))] = rnd.randrange(256)
        p += bytes((len(log) >> 8, len(log) & 255)) + log
    for sc in m.scores:
        sc = sc + rnd.choice((0, 0, 1, -1))
        p += bytes(((sc >> 8) & 255, sc & 255))
    out = bytearray(b"GRSV\x01") + bytes((len(p) >> 8, len(p) & 255)) + p
    c = fletcher16(out)
    return bytes(out) + bytes((c >> 8, c & 255))


def crafted(pool, n, seed=7):
    """`n` crafted game payloads from the real ones in `pool`."""
    from firmware.saves import gamesave

    rnd = random.Random(seed)
    for i in range(n):
        sb, mb = gamesave.split(rnd.choice(pool))
        if i % 10 == 9:
            mb = _v1(rnd, mb)
        for _ in range(rnd.randrange(1, 4)):
            part = rnd.randrange(10)
            if part < 7:
                try:
                    mb = _engine_part(rnd, mb)
                except (IndexError, ValueError):
                    pass                  # an earlier change left no header to change
            elif part < 9:
                sb = _stats_part(rnd, sb)
            else:
                sb = sb[:rnd.randrange(len(sb) + 1)]
        data = gamesave.join(sb, mb)
        if rnd.randrange(40) == 0:
            data = bytearray(data)
            data[rnd.randrange(7)] = rnd.randrange(256)
            data = bytes(data)
        yield data


class Seats:
    """Both seats played by the engine's AI (one object per level)."""

    def __init__(self):
        from engine.ai import Player

        self.players = (Player("normal", 1), Player("easy", 2))


def try_save(data, seats=None, moves=MOVES):
    """'refused', 'loaded' or 'crash: ...' for crafted payload `data` put in
    a game save file and loaded, then played on, as the App does."""
    from firmware.saves import gamesave
    from firmware.saves.storage import MAX_PAYLOAD, Storage, pack
    from tools.saves.cutsim import FaultFS

    fs = FaultFS({"/data/game.dat": pack(data)}, ["/data"])
    st = Storage("/data", fs)
    bug = []

    def decode(payload):
        try:
            return gamesave.decode(payload)
        except (ValueError, MemoryError):
            raise
        except Exception as e:   # the storage sets it aside, but it is a bug
            bug.append("%s: %s" % (type(e).__name__, e))
            raise

    game, msg = st.load("game", decode)
    if bug:
        return "crash at load: " + bug[0]
    if game is None:
        return "refused"
    m = game.match
    if m is None:
        return "loaded"
    if seats is None:
        seats = Seats()
    try:
        stats = game.stats
        payload = data
        # not tools/kit/play.play_out: a deal counts as one of `moves`, a
        # refusal is the verdict (no exception) and a box match's seat is
        # its player's
        for _ in range(moves):
            if m.phase == "match_over":
                break
            if m.phase == "hand_over":
                why = m.next_hand()
                if why:
                    return "crash in play: next_hand refused: %s" % why
            else:
                if hasattr(m, "hand_roles"):
                    p = m.to_move
                    seat = m.seat_of(p)
                    view = m.view(p)
                else:
                    seat = m.to_move
                    view = m.view(seat)
                act = seats.players[seat].choose(view)
                why = m.act(act)
                if why:
                    return "crash in play: the AI's %s refused: %s" % (act, why)
                if m.phase in ("hand_over", "match_over"):
                    res = m.results[-1]
                    stats.record_hand(res[0] if isinstance(res, tuple) else res)
            payload = gamesave.encode(stats, m)
            if len(payload) > MAX_PAYLOAD or len(payload) > NVM_RECORD:
                return "crash in play: a save of %d bytes does not fit" % len(payload)
        again = gamesave.decode(payload)
        if m.winner is None and gamesave.encode(again.stats, again.match) != payload:
            return "crash in play: the save does not load back the same"
    except Exception as e:
        return "crash in play: %s: %s" % (type(e).__name__, e)
    return "loaded"
