"""Committed deals: the deck fixed, and said to be fixed, before a card is
seen, and a deal the device cannot choose.

A match played on the handheld has a secret of SECRET_LEN (16) bytes from
the board's entropy (os.urandom or its port's equivalent; never the match
seed). Its commitment, the match commitment M = SHA-256("gin-rummy match
secret" || secret) (engine/cut.py's secret_commitment; the screen shows
its first MATCH_HEX hex digits), is shown before the player gives the
match's cut: a short word or number (check_cut) that the device cannot
know when it draws the secret. Each hand n (1, 2, ...) of such a match
(record format 5, engine/cut.py: loaded by such a match only) has

    seed   = SHA-256("gin-rummy hand 5" || secret || len(cut) || cut || n as 2 bytes)[0:16]

the hand's seed: it shuffles the deck. The secret is revealed when the
match is over (the record's `secret` line), so anyone can check that it
gives M and that every seed follows from it and the cut. A match made
without a cut (record format 4, versions 1.1.x) has

    key    = SHA-256(b"gin-rummy hand" || secret || n as 2 bytes)
    seed   = key[0:16]

and its secret is never revealed: the device chose it alone.

Each hand's commitment is a link of a chain (below: the header's
commitment or the chain after the hand before, the hand's number and
seed, and a nonce fixed by them), of which the screen shows the first
COMMIT_HEX hex digits. In format 5 the chain takes in each finished
hand's whole transcript (every move and its result) before the next
hand's commitment, and the match's end has a seal over the last hand's
transcript, the final scores and the winner. A match saved or recorded by
version 1.0.0 (chained=False) had nonce = key[16:32] and commit =
SHA-256(seed || nonce).

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
the next hand's. The secret itself is never shown or held by what the AI
reads (engine/view.py), and written in a record only once a match with a
cut is over.

Every value is a small int on a 32-bit MicroPython; this runs a few hashes
a hand (engine/sha256.py), not in a hot path: a hand's start in format 5
hashes the transcript of the hand before it (its log of a byte a move and
a few words of result, once), and the seal two hashes at the match's end.

`Dealer` is what a two-player match (engine/match.py) and a V6 box match
(engine/box.py) share: their seeds and secret, and the dealing of each
hand, committed or by deal numbers.
"""
from .match_commit import SECRET_LEN, check_secret  # noqa: F401  (this module's API too)
from .sha256 import sha256, hex_text
from .rng import Rng, deck_for
from .rules import check_rules
from .hand import Hand

SEED_LEN = 16
NONCE_LEN = 16
COMMIT_HEX = 10        # hex digits of a hand's commitment and of the seal shown (40 bits)
_TAG = b"gin-rummy hand"


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
    in a record), the cut, the AI's seed, and the hands dealt from them. A
    subclass keeps its hands in `hands` and says how to find hand i's Hand
    (`dealt(i)`).

    A match with a `cut` (record format 5, engine/cut.py, loaded by such
    a match only) also has its `seats` (engine/cut.py's SEATS, or BOX_SEATS
    for a match of three PLAYERS), the AI `level` it was started at, the game's
    `version` that dealt it and its `match_commit` (the match commitment,
    32 bytes; None without a cut): the header's commitment covers them
    all. One rebuilt from a record has no secret until the record reveals
    it; `match_commit` is then the record's."""

    CHAIN_HEADER = None    # the record header a chain starts from (subclasses)
    HEADER5 = None         # ... and of a match with a cut (format 5)
    PLAYERS = 2            # a box match's 3: its seats (format 5) are engine/cut.py's BOX_SEATS

    def __init__(self, rules, seed, secret, ai_seed, reveals, chained=None, mirror=False,
                 five=None):
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
        # chained commitments (records of format 4 and 5): new committed
        # matches; a match saved or recorded by version 1.0.0 keeps its own kind
        if chained is None:
            chained = secret is not None
        if chained and not self.committed:
            raise ValueError("a chain of commitments is of committed deals")
        self.chained = bool(chained)
        self.cut = self.match_commit = None
        self.mirror = bool(mirror)    # a link match's second board (engine/match.py)
        c0 = None
        if five:        # a match with a cut: its keywords (engine/cut.py's start)
            from .cut import start
            c0 = start(self, self._secret, **five)
        if c0 is None and chained:
            c0 = match_commitment(self.CHAIN_HEADER, rules.text(), seed)
        self._c0 = c0
        self._c = c0                  # the commitment of the hand dealt last (C0 before)
        # what it was chained to: C0 or the commitment before it (format
        # 4), or the chain after the hand before it (format 5); its nonce
        # is fixed by it and the hand's seed
        self.chain_prev = None

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

    def _hand_seed(self, n):
        """The seed of hand n: from the secret (and the cut), or revealed."""
        if self.cut is not None and self._secret is not None:
            from .cut import cut_seed
            return cut_seed(self._secret, self.cut, n)
        return keys_of(self._secret, self._reveals, n)[0]

    def _new_hand(self, first):
        """The next hand (number len(hands) + 1), `first` to play: from its
        committed seed (hand.commit set), or from the next deal number."""
        if self.committed:
            n = len(self.hands) + 1
            hs = self._hand_seed(n)
            h = Hand(self.rules, self._seats(deck_from_seed(hs)), first, None)
            if self.chained:
                prev = self._c if n == 1 else self._after(n - 2, self._c)
                self.chain_prev = prev
                self._c = chained_commitment(prev, n, hs, chained_nonce(prev, hs))
                h.commit = hex_text(self._c[:COMMIT_HEX // 2])
            else:
                h.commit = commitment(hs, keys_of(self._secret, self._reveals, n)[1])
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
            hs = self._hand_seed(i + 1)
            return hs, chained_nonce(self.chain_prev, hs)
        k = 0
        for hs, nonce, c in self.chain():
            if k == i:
                return hs, nonce
            k += 1

    def _after(self, i, c):
        """What the hand after finished hand i (0-based), whose commitment is
        `c`, is chained to: `c`, or with a cut the chain after hand i, its
        moves and result taken in (engine/cut.py)."""
        if self.cut is None:
            return c
        from .cut import chain_after
        return chain_after(self, i, c)

    def chain_start(self):
        """C0 of a chained match (32 bytes): the header's commitment."""
        return self._c0

    def chain_head(self):
        """The full commitment (32 bytes) of the hand dealt last."""
        return self._c

    def chain(self):
        """(seed, nonce, commitment) of every finished hand of a chained
        match, in order, made again from the secret (or the seeds revealed)
        and C0: three hashes a hand (four with a cut: the transcript),
        nothing kept per hand."""
        prev = self._c0
        for n in range(1, len(self.results) + 1):
            hs = self._hand_seed(n)
            nonce = chained_nonce(prev, hs)
            c = chained_commitment(prev, n, hs, nonce)
            yield hs, nonce, c
            prev = self._after(n - 1, c)

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
