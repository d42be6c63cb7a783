"""A match waiting for the player's cut, as the game save holds it
(firmware/saves/gamesave.py, layout 3; firmware/cutwait.py makes it). Cold:
imported only by a new match with an entropy source and by a start that
finds such a save.

    b"GRCW"  kind:1 (0 two-player, 1 box)  rules_len:1  rules  seed:4  secret:16  ai_seed:4
             cut_len:1  cut (0-9, A-Z)

A cut of no length: the player has not given it (the cut screen). The cut
is saved once given, before the first hand is dealt (firmware/cutwait.py's
deal), so a start after a power cut or a restart on a fresh heap deals
that same match without asking again.
"""

MAGIC = b"GRCW"   # a match waiting for its cut, in the game save (layout 3)
LEN = 31          # its bytes but its rules text and its cut


class Wait:
    """A match waiting for the player's cut: its kind (box: a V6 box
    match), rules, seed, deal secret (16 bytes) and AI seed, drawn before
    its commitment is shown (firmware/cutwait.py's begin), and the cut
    (str) once given, or None."""

    def __init__(self, box, rules, seed, secret, ai_seed, cut=None):
        self.box = box
        self.rules = rules
        self.seed = seed
        self.secret = bytes(secret)
        self.ai_seed = ai_seed
        self.cut = cut

    def encode(self):
        rt = self.rules.text().encode()
        out = bytearray(MAGIC)
        out.append(1 if self.box else 0)
        out.append(len(rt))
        out.extend(rt)
        _u32(out, self.seed)
        out.extend(self.secret)
        _u32(out, self.ai_seed)
        c = (self.cut or "").encode()
        out.append(len(c))
        out.extend(c)
        return bytes(out)

    @staticmethod
    def decode(b):
        """The Wait of `b`; ValueError when it is not one this version
        plays (its rules too: settings.playable)."""
        import engine
        from firmware.settings import playable

        if len(b) < LEN or bytes(b[:4]) != MAGIC or b[4] > 1:
            raise ValueError("not a match waiting for its cut")
        n = b[5]
        k = b[LEN - 1 + n] if len(b) >= LEN + n else 0
        if len(b) != LEN + n + k:
            raise ValueError("a match waiting for its cut is %d bytes, not %d"
                             % (LEN + n + k, len(b)))
        cut = None
        if k:
            # a cut as engine/cut.py takes it (ValueError, a UnicodeError
            # among them, when not); a start that finds one deals at once,
            # which needs that module anyway
            from engine.cut import check_cut

            cut = check_cut(bytes(b[LEN + n:]).decode())
        rules = engine.Rules.from_text(bytes(b[6:6 + n]).decode())
        why = playable(rules)
        if why:
            raise ValueError("the match waiting for its cut: %s" % why)
        i = 6 + n
        seed = _read_u32(b, i)
        a = _read_u32(b, i + 20)
        if seed >= 1 << 30 or a >= 1 << 30:
            raise ValueError("a seed of the match waiting for its cut is out of range")
        return Wait(b[4] == 1, rules, seed, b[i + 4:i + 20], a, cut)


def _u32(out, v):
    out.extend(bytes(((v >> 24) & 255, (v >> 16) & 255, (v >> 8) & 255, v & 255)))


def _read_u32(b, i):
    return (b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]
