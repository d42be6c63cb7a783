"""Committed deals: the deck fixed, and said to be fixed, before a card is seen.

A match played on the handheld has a secret of SECRET_LEN (16) bytes from
the board's entropy (os.urandom or its port's equivalent; never the match
seed). Each hand n (1, 2, ...) has

    key    = SHA-256(b"gin-rummy hand" || secret || n as 2 bytes)
    seed   = key[0:16]          the hand's seed: it shuffles the deck

and its commitment is a link of a chain (below: the previous hand's
commitment, the hand's number and seed, and a nonce fixed by them), of
which the screen shows the first COMMIT_HEX hex digits. A match saved or
recorded by version 1.0.0 (chained=False) had nonce = key[16:32] and
commit = SHA-256(seed || nonce).

The commitment is shown when the hand starts; seed and nonce are shown
when it is over (the hand result's proof page) and written in the game
record, where anyone can check that they give the commitment and deal the
hand that was played (tools/records/replay.py --verify).

Why this gives nothing away: the deck is a Fisher-Yates shuffle driven by
SHA-256(seed || counter), so knowing a hand's cards means knowing its
128-bit seed, and no list of candidate seeds can be made from a player's
own ten cards; the commitment is a hash of the 128 secret bits of the
seed (and of what the record shows anyway); and a hand's seed, once
revealed, is a one-way function of the secret, so it says nothing about
the next hand's. The secret itself is never
shown, written in a record, or held by what the AI reads (engine/view.py).

Every value is a small int on a 32-bit MicroPython; this runs a few hashes
a hand (engine/sha256.py), not in a hot path.

`Dealer` is what a two-player match (engine/match.py) and a V6 box match
(engine/box.py) share: their seeds and secret, and the dealing of each
hand, committed or by deal numbers.
"""
from .sha256 import sha256, hex_text
from .rng import Rng, deck_for
from .rules import check_rules
from .hand import Hand

SECRET_LEN = 16
SEED_LEN = 16
NONCE_LEN = 16
COMMIT_HEX = 10        # hex digits of the commitment shown (40 bits)
_TAG = b"gin-rummy hand"


def check_secret(secret):
    if not isinstance(secret, (bytes, bytearray)) or len(secret) != SECRET_LEN:
        raise ValueError("a match secret is %d bytes, not %r" % (SECRET_LEN, secret))
    return bytes(secret)


def hand_keys(secret, n):
    """(seed, nonce) of hand n (1..65535) of the match of `secret`."""
    if type(n) is not int or not 1 <= n <= 0xFFFF:
        raise ValueError("a hand number is 1..65535, not %r" % (n,))
    k = sha256(_TAG + check_secret(secret) + bytes((n >> 8, n & 255)))
    return k[:SEED_LEN], k[SEED_LEN:SEED_LEN + NONCE_LEN]


def keys_of(secret, reveals, n):
    """(seed, nonce) of hand n of a committed match: made again from its
    secret, or the n-th of the pairs revealed (a match rebuilt from a
    record); ValueError for a hand not revealed."""
    if secret is not None:
        return hand_keys(secret, n)
    if n <= len(reveals):
        return reveals[n - 1]
    raise ValueError("hand %d's seed is not revealed" % n)


def commitment(seed, nonce):
    """The commitment text shown at a hand's start, e.g. '3FA09C21B7'."""
    if len(seed) != SEED_LEN or len(nonce) != NONCE_LEN:
        raise ValueError("a hand's seed and nonce are %d and %d bytes" % (SEED_LEN, NONCE_LEN))
    return hex_text(sha256(bytes(seed) + bytes(nonce))[:COMMIT_HEX // 2])


class _Stream:
    """16-bit numbers from SHA-256(seed || counter:2), block after block."""

    def __init__(self, seed):
        self.seed = bytes(seed)
        self.n = 0
        self.buf = b""
        self.i = 0

    def u16(self):
        if self.i >= len(self.buf):
            c = self.n
            self.n += 1
            self.buf = sha256(self.seed + bytes((c >> 8, c & 255)))
            self.i = 0
        b = self.buf
        i = self.i
        self.i = i + 2
        return (b[i] << 8) | b[i + 1]

    def below(self, n):
        """Uniform 0..n-1 (1 <= n <= 65536), by rejection: no bias."""
        limit = 65536 - 65536 % n
        while True:
            z = self.u16()
            if z < limit:
                return z % n


def deck_from_seed(seed):
    """The 52-card order a hand's seed deals (R2's deal order, engine/hand.py)."""
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_LEN:
        raise ValueError("a hand's seed is %d bytes, not %r" % (SEED_LEN, seed))
    deck = bytearray(range(52))
    s = _Stream(seed)
    for i in range(51, 0, -1):
        j = s.below(i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    return deck


def secret_from_int(n):
    """A match secret made from a number: for tests and reproducible
    simulator runs only (anyone who knows or guesses the number knows
    every deal). Play on the handheld uses the board's entropy."""
    return sha256(b"gin-rummy seeded secret " + str(n).encode())[:SECRET_LEN]


class Dealer:
    """The dealing core of a match (Match, BoxMatch): the rules, the match
    seed and its generator, the secret (or the (seed, nonce) pairs revealed
    in a record), the AI's seed, and the hands dealt from them. A subclass
    keeps its hands in `hands` and says how to find hand i's Hand
    (`dealt(i)`)."""

    CHAIN_HEADER = None    # the record header a chain starts from (subclasses)

    def __init__(self, rules, seed, secret, ai_seed, reveals, chained=None):
        check_rules(rules)
        self.rules = rules
        self.seed = seed
        self._rng = Rng(seed)
        self._secret = None if secret is None else check_secret(secret)
        if ai_seed is not None and (type(ai_seed) is not int or not 0 <= ai_seed < 1 << 30):
            raise ValueError("the AI's seed is an int 0..2**30-1, not %r" % (ai_seed,))
        self.ai_seed = ai_seed
        self._reveals = reveals       # (seed, nonce) of every hand, from a record
        self.unrevealed = 0           # replay: the hand a record left unrevealed
        # chained commitments (records of format 4): new committed matches;
        # a match saved or recorded by version 1.0.0 keeps its own kind
        if chained is None:
            chained = secret is not None
        if chained and not self.committed:
            raise ValueError("a chain of commitments is of committed deals")
        self.chained = bool(chained)
        self._c0 = match_commitment(self.CHAIN_HEADER, rules.text(), seed) if chained else None
        self._c = self._c0            # the commitment of the hand dealt last (C0 before)
        self._c_prev = None           # the one before it
        self.mirror = False           # a link match's seat 1 (engine/match.py)

    def _seats(self, deck):
        """The deck as this match deals it: a mirrored match (the second
        board of a link match) gives seat 0 the cards the other board's
        seat 1 gets, and seat 1 seat 0's. The commitments are of the hand's
        seed, not of its seats: both boards show and record the same chain."""
        if not self.mirror:
            return deck
        return deck[10:20] + deck[0:10] + deck[20:]

    @property
    def committed(self):
        """True when the deals are committed ones."""
        return self._secret is not None or self._reveals is not None

    def _new_hand(self, first):
        """The next hand (number len(hands) + 1), `first` to play: from its
        committed seed (hand.commit set), or from the next deal number."""
        if self.committed:
            n = len(self.hands) + 1
            hs, nonce = keys_of(self._secret, self._reveals, n)
            h = Hand(self.rules, self._seats(deck_from_seed(hs)), first, None)
            if self.chained:
                self._c_prev = self._c
                self._c = chained_commitment(self._c, n, hs, chained_nonce(self._c, hs))
                h.commit = hex_text(self._c[:COMMIT_HEX // 2])
            else:
                h.commit = commitment(hs, nonce)
        else:
            deal = self._rng.seed30()
            h = Hand(self.rules, self._seats(deck_for(deal)), first, deal)
        return h

    def proof(self, i):
        """(seed, nonce) of finished hand i (0-based) of a committed match;
        ValueError for the hand in play (its deal stays secret) or a match
        that deals by deal numbers. Made again from the secret when asked
        (once a hand, for the record and the proof page): nothing is kept
        per hand on the heap."""
        if not self.committed:
            raise ValueError("this match deals by deal numbers: no commitments")
        if not 0 <= i < len(self.results):
            raise ValueError("hand %d is not over: its seed stays secret" % (i + 1))
        if not self.chained:
            return keys_of(self._secret, self._reveals, i + 1)
        if i == len(self.hands) - 1:        # the hand dealt last: no walk
            hs = keys_of(self._secret, self._reveals, i + 1)[0]
            return hs, chained_nonce(self._c_prev, hs)
        k = 0
        for hs, nonce, c in self.chain():
            if k == i:
                return hs, nonce
            k += 1

    def chain_start(self):
        """C0 of a chained match (32 bytes): the match's commitment."""
        return self._c0

    def chain_head(self):
        """The full commitment (32 bytes) of the hand dealt last."""
        return self._c

    def chain(self):
        """(seed, nonce, commitment) of every finished hand of a chained
        match, in order, made again from the secret (or the seeds revealed)
        and C0: three hashes a hand, nothing kept per hand."""
        prev = self._c0
        for n in range(1, len(self.results) + 1):
            hs = keys_of(self._secret, self._reveals, n)[0]
            nonce = chained_nonce(prev, hs)
            prev = chained_commitment(prev, n, hs, nonce)
            yield hs, nonce, prev

    def deck_of(self, i):
        """The 52-card order hand i (0-based) was dealt from: any hand of a
        match dealing by deal numbers, a finished hand of a committed one."""
        h = self.dealt(i)
        if h.deal is not None:
            return self._seats(deck_for(h.deal))
        return self._seats(deck_from_seed(self.proof(i)[0]))


# -- the chain of commitments (records of format 4) ------------------------------
# A committed match made by this version chains its hands' commitments:
#
#   C0     = SHA-256(header line || "\n" || rules line || "\n" || seed line)
#   nonce  = SHA-256("gin-rummy nonce" || C(n-1) || seed)[0:16]
#   C(n)   = SHA-256("gin-rummy commit" || C(n-1) || n as 2 bytes || seed || nonce)
#
# (seed as hand_keys gives it). The screen shows the first COMMIT_HEX hex
# digits of C(n); the record holds all 64. A hand's commitment so binds its
# number, the match's rules and seed line and every hand before it, and its
# nonce is fixed by them: no other commitment can be made for the same deal.
_CHAIN_TAG = b"gin-rummy commit"
_NONCE_TAG = b"gin-rummy nonce"


def match_commitment(header, rules_text, seed):
    """C0 of a match: 32 bytes, from its record's header line (e.g.
    'gin-rummy record 4'), rules text and match seed."""
    return sha256(("%s\nrules %s\nseed %d" % (header, rules_text, seed)).encode())


def chained_nonce(prev, seed):
    """The nonce of the hand after commitment `prev` (32 bytes) dealt from `seed`."""
    return sha256(_NONCE_TAG + bytes(prev) + bytes(seed))[:NONCE_LEN]


def chained_commitment(prev, n, seed, nonce):
    """C(n): 32 bytes, from C(n-1), the hand's number, seed and nonce."""
    if len(seed) != SEED_LEN or len(nonce) != NONCE_LEN or len(prev) != 32:
        raise ValueError("a chained commitment takes 32, 16 and 16 bytes")
    return sha256(_CHAIN_TAG + bytes(prev) + bytes((n >> 8, n & 255)) + bytes(seed) + bytes(nonce))
