"""A link match's secret, made by both boards so that neither chooses it.

Each board draws its own secret (SECRET_LEN bytes of its entropy) and
sends a commitment to it first; a board reveals its secret only after it
holds the other's commitment, and checks the other's secret against the
commitment it received. The match secret (engine/deal.py: it makes every
hand's seed, nonce and shown commitment) is then

    SHA-256(b"gin-rummy link match" || n || secret of role 0 || secret of role 1)[:16]

    commitment = SHA-256(b"gin-rummy link commit" || role || n || secret)

where role is 0 or 1 (the two boards agree which is which when they link)
and n (0..65535) numbers the draws of one match (0 unless the boards draw
again). Binding the role means a board cannot answer with a copy of the
other's commitment and then of its secret.

Why neither board bends it: when a board reveals, the other's secret is
already fixed by its commitment (to change it, it would need a second
secret with the same SHA-256), and its own was fixed before it saw
anything; so each secret is chosen without knowing the other, and the
hash of the two is as unpredictable as the better of them. A board that
refuses to reveal once it sees the other's secret can only stop the match:
the other board keeps the deal (firmware/link/linkmatch.py: bound) and counts
the stop as its forfeit, never drawing a fresh secret in its place. What it does not protect: both boards know
the match secret, so a board whose firmware was changed can work out
every hand, the other player's included (docs/LINK.md).

Pure and small: a few hashes a match, no hot path.
"""
from .deal import SECRET_LEN
from .sha256 import sha256

COMMIT_LEN = 32
_COMMIT_TAG = b"gin-rummy link commit"
_MATCH_TAG = b"gin-rummy link match"

WORDS_MISMATCH = "The other board's secret does not match its commitment: deal refused."
WORDS_BAD_COMMIT = "The other board sent no valid commitment: deal refused."
WORDS_COPY = "The other board sent back this board's commitment: deal refused."
WORDS_CHANGED = ("The other board sent another commitment after this board revealed its "
                 "secret: it left the deal.")
WORDS_BAD_SECRET = "The other board's secret is not %d bytes: deal refused." % SECRET_LEN


def _n2(n):
    if type(n) is not int or not 0 <= n <= 0xFFFF:
        raise ValueError("a draw number is 0..65535, not %r" % (n,))
    return bytes((n >> 8, n & 255))


def commitment(role, n, secret):
    """The 32-byte commitment of a board of `role` (0, 1) to `secret` for draw n."""
    if role not in (0, 1):
        raise ValueError("a role is 0 or 1, not %r" % (role,))
    if len(secret) != SECRET_LEN:
        raise ValueError("a secret is %d bytes" % SECRET_LEN)
    return sha256(_COMMIT_TAG + bytes((role,)) + _n2(n) + bytes(secret))


def match_secret(n, secret0, secret1):
    """The match secret from both boards' secrets, role 0's first."""
    return sha256(_MATCH_TAG + _n2(n) + bytes(secret0) + bytes(secret1))[:SECRET_LEN]


class Deal:
    """One board's side of the exchange.

        d = Deal(role, secret)            # secret: entropy(SECRET_LEN)
        send d.commitment()
        d.take_commitment(theirs)         # None, or words: refused
        send d.reveal()                   # only once theirs is held
        d.take_reveal(their_secret)       # None, or words: refused
        s0, s1 = d.secrets()              # the match's secret and cut, same on both

    A refusal is final for this Deal: `refused` holds the words."""

    def __init__(self, role, secret, n=0):
        self.role = role
        self.n = n
        self._mine = bytes(secret)
        self._commit = commitment(role, n, self._mine)
        self._theirs = None       # their commitment
        self._their_secret = None
        self.refused = None

    def commitment(self):
        return self._commit

    def take_commitment(self, c):
        if self.refused:
            return self.refused
        if self._theirs is not None:
            if bytes(c) == self._theirs:
                return None           # the same again (a resend)
            return self._refuse(WORDS_CHANGED)
        if len(c) != COMMIT_LEN:
            return self._refuse(WORDS_BAD_COMMIT)
        if bytes(c) == self._commit:
            return self._refuse(WORDS_COPY)
        self._theirs = bytes(c)
        return None

    def reveal(self):
        """This board's secret: ValueError until the other's commitment is held."""
        if self._theirs is None:
            raise ValueError("the other board's commitment comes before this reveal")
        if self.refused:
            raise ValueError(self.refused)
        return self._mine

    def take_reveal(self, s):
        if self.refused:
            return self.refused
        if self._theirs is None:
            return self._refuse(WORDS_BAD_COMMIT)
        if len(s) != SECRET_LEN:
            return self._refuse(WORDS_BAD_SECRET)
        if commitment(1 - self.role, self.n, s) != self._theirs:
            return self._refuse(WORDS_MISMATCH)
        self._their_secret = bytes(s)
        return None

    def done(self):
        return self._their_secret is not None and not self.refused

    def secret(self):
        """The match secret (SECRET_LEN bytes) of a match of record format
        4 (version 1.1's link matches); ValueError before both reveals."""
        if not self.done():
            raise ValueError("the deal is not complete")
        if self.role == 0:
            return match_secret(self.n, self._mine, self._their_secret)
        return match_secret(self.n, self._their_secret, self._mine)

    def secrets(self):
        """(secret of role 0, secret of role 1): the match's secret and its
        cut (in hex) on both boards (engine/match.py, record format 5: the
        other board's secret plays the role of a player's cut, and neither
        board knew the other's when it committed to its own); ValueError
        before both reveals."""
        if not self.done():
            raise ValueError("the deal is not complete")
        if self.role == 0:
            return self._mine, self._their_secret
        return self._their_secret, self._mine

    def _refuse(self, words):
        self.refused = words
        return words
