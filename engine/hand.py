"""The state machine of one hand (R2-R11, R14; V1-V3 where the rules say).

State lives in preallocated containers of small ints: eight suit masks (four
per seat), the stock and the discard pile as bytearrays with a count, and a log
of one byte per move. Every action is a small int code and goes through
`check` first: an illegal action returns a reason and changes nothing.

Action codes (the log uses the same, with the upcard named):
  DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD + card, KNOCK + card;
  in the log a taken upcard is TOOK + card.
Deal (R2): deck[0:10] to seat 0, deck[10:20] to seat 1, deck[20] is the
upcard, deck[21:52] the stock with deck[51] on top.
"""
from .compat import const
from .cards import CARD_VALUE, NO_CARD, card, card_text, card_list
from .melds import deadwood4, best_discard4, BIT_RANK
from .showdown import settle, PastOutcome
from .rules import check_rules

DRAW_STOCK = const(0)
DRAW_UPCARD = const(1)
PASS = const(2)
DISCARD = const(64)
KNOCK = const(128)
TOOK = const(192)

OFFER = const(0)      # V1: the first turn's take-or-pass
DRAW = const(1)
DISCARD_PHASE = const(2)
OVER = const(3)
PHASE_NAMES = ("first_upcard", "draw", "discard", "hand_over")


def action_code(text):
    """'discard:Td' -> code. ValueError naming the text if it is no action."""
    if type(text) is not str:
        raise ValueError("not an action: %r (draw_stock, draw_upcard, pass, "
                         "discard:Xx, knock:Xx)" % (text,))
    if text == "draw_stock":
        return DRAW_STOCK
    if text == "draw_upcard" or text.startswith("draw_upcard:"):
        return DRAW_UPCARD
    if text == "pass":
        return PASS
    if text.startswith("discard:"):
        return DISCARD + card(text[8:])
    if text.startswith("knock:"):
        return KNOCK + card(text[6:])
    raise ValueError("not an action: %r (draw_stock, draw_upcard, pass, "
                     "discard:Xx, knock:Xx)" % (text,))


def is_code(code):
    """True for an action or log code: DRAW_STOCK, DRAW_UPCARD, PASS, or
    DISCARD, KNOCK or TOOK plus a card."""
    return type(code) is int and (0 <= code <= PASS or (code & 63) < 52 and 64 <= code < 256)


def action_text(code):
    """Code (or log code) -> 'discard:Td', 'draw_upcard:Qs', ...; ValueError
    naming anything else."""
    if not is_code(code):
        raise ValueError("not an action code: %r" % (code,))
    if code == DRAW_STOCK:
        return "draw_stock"
    if code == DRAW_UPCARD:
        return "draw_upcard"
    if code == PASS:
        return "pass"
    if code >= TOOK:
        return "draw_upcard:" + card_text(code - TOOK)
    if code >= KNOCK:
        return "knock:" + card_text(code - KNOCK)
    return "discard:" + card_text(code - DISCARD)


class HandResult:
    """How a hand ended. kind: 'gin' 'knock' 'undercut' or 'draw'."""

    def __init__(self, kind, knocker, winner, points, outcome, why=""):
        self.kind = kind
        self.knocker = knocker    # seat that knocked, None for a draw
        self.winner = winner      # seat that scores, None for a draw
        self.points = points
        self.outcome = outcome    # showdown.Outcome or None
        self.why = why            # for a draw: 'stock' (R11/V3) or 'pile' (R14)

    def __repr__(self):
        if self.winner is None:
            return "HandResult(draw, %s)" % self.why
        return "HandResult(%s, seat %d +%d)" % (self.kind, self.winner, self.points)


class Hand:
    def __init__(self, rules, deck, first=0, deal=0):
        deck = card_list(deck, "the deck")
        if len(deck) != 52 or len(set(deck)) != 52:
            raise ValueError("a deck is the 52 cards 0..51 in some order")
        if first != 0 and first != 1 or type(first) is not int:
            raise ValueError("first must be seat 0 or 1, not %r" % (first,))
        check_rules(rules)
        self.rules = rules
        self.deal = deal            # the deal number (the seed of `deck`), or
        self.commit = None          # None and the commitment text (engine/deal.py)
        self.first = first
        self.masks = [0, 0, 0, 0, 0, 0, 0, 0]
        for i in range(20):
            c = deck[i]
            self.masks[(i // 10) * 4 + c // 13] |= 1 << (c % 13)
        self.pile = bytearray(52)
        self.pile[0] = deck[20]
        self.pile_n = 1
        self.stock = bytearray(deck[21:52])
        self.stock_n = 31
        self.turn = first
        self.phase = OFFER if rules.upcard_offer else DRAW
        self.passes = 0             # V1: passes made on the offer
        self.stock_only = False     # V1: both passed, first player must draw stock
        self.taken = NO_CARD        # R4: the card taken from the pile this turn
        self.pile_turns = 0         # R14: turns in a row without a stock draw
        self.knock_limit = rules.knock_limit
        if rules.oklahoma:          # V2: the first upcard sets the limit
            up = deck[20] % 13
            self.knock_limit = 0 if up == 0 else CARD_VALUE[deck[20]]
        self.log = bytearray()      # one code per move (TOOK + card for pickups)
        self.log_seat = bytearray()
        self.result = None
        self._m = [0, 0, 0, 0]      # scratch masks for the hot paths

    # -- reading ---------------------------------------------------------
    def cards_of(self, seat):
        out = []
        for s in range(4):
            x = self.masks[seat * 4 + s]
            for r in range(13):
                if x >> r & 1:
                    out.append(s * 13 + r)
        return out

    def holds(self, seat, c):
        return (self.masks[seat * 4 + c // 13] >> (c % 13)) & 1 == 1

    def count(self, seat):
        n = 0
        for s in range(4):
            x = self.masks[seat * 4 + s]
            while x:
                x &= x - 1
                n += 1
        return n

    def stock_cards(self):
        """Stock, bottom first (the top is last)."""
        return list(self.stock[:self.stock_n])

    def discard_cards(self):
        """Discard pile, oldest first (the upcard is last)."""
        return list(self.pile[:self.pile_n])

    def upcard(self):
        return self.pile[self.pile_n - 1] if self.pile_n else NO_CARD

    def deadwood(self, seat):
        """Lowest deadwood (R5) of a seat's 10 cards; with 11, after the best discard."""
        m = self.masks
        o = seat * 4
        if self.phase == DISCARD_PHASE and seat == self.turn:
            self._load(seat)
            return best_discard4(self._m, NO_CARD) >> 6
        return deadwood4(m[o], m[o + 1], m[o + 2], m[o + 3])

    def _load(self, seat):
        o = seat * 4
        m = self._m
        m[0] = self.masks[o]
        m[1] = self.masks[o + 1]
        m[2] = self.masks[o + 2]
        m[3] = self.masks[o + 3]

    def deadwood_without(self, seat, c):
        """Deadwood of the seat's hand less card c (the knock check, R6)."""
        o = seat * 4 + c // 13
        m = self.masks
        bit = 1 << (c % 13)
        m[o] ^= bit
        b = seat * 4
        dw = deadwood4(m[b], m[b + 1], m[b + 2], m[b + 3])
        m[o] ^= bit
        return dw

    # -- legality --------------------------------------------------------
    def legal_codes(self, out):
        """Write the legal action codes into bytearray `out` (>= 25 long),
        return how many. Allocation-free."""
        n = 0
        ph = self.phase
        if ph == OFFER:
            out[0] = DRAW_UPCARD
            out[1] = PASS
            return 2
        if ph == DRAW:
            out[0] = DRAW_STOCK
            n = 1
            if self.pile_n and not self.stock_only:
                out[1] = DRAW_UPCARD
                n = 2
            return n
        if ph != DISCARD_PHASE:
            return 0
        seat = self.turn
        m = self.masks
        lim = self.knock_limit
        for s in range(4):
            o = seat * 4 + s
            x = m[o]
            left = x
            while left:
                bit = left & -left
                left ^= bit
                c = s * 13 + BIT_RANK[bit % 37]
                if c == self.taken:
                    continue
                out[n] = DISCARD + c
                n += 1
                m[o] = x ^ bit
                b = seat * 4
                if deadwood4(m[b], m[b + 1], m[b + 2], m[b + 3]) <= lim:
                    out[n] = KNOCK + c
                    n += 1
                m[o] = x
        return n

    def check(self, code):
        """None if `code` is legal now, else the reason (R3, R4, R6, V1)."""
        ph = self.phase
        if ph == OVER:
            return "the hand is over"
        if code == DRAW_STOCK:
            if ph == OFFER:
                return "first take or pass the upcard"
            if ph != DRAW:
                return "you have drawn already: discard or knock"
            return None
        if code == DRAW_UPCARD:
            if ph == DISCARD_PHASE:
                return "you have drawn already: discard or knock"
            if not self.pile_n:
                return "the discard pile is empty"
            if self.stock_only:
                return "both passed the upcard: draw from the stock"
            return None
        if code == PASS:
            if ph != OFFER:
                return "passing is only for the first upcard"
            return None
        if DISCARD <= code < DISCARD + 52 or KNOCK <= code < KNOCK + 52:
            if ph != DISCARD_PHASE:
                return "draw a card first"
            c = code & 63
            if not self.holds(self.turn, c):
                return "you do not hold the %s" % card_text(c)
            if c == self.taken:
                return "the %s was just taken from the pile: it can't be discarded this turn (R4)" % card_text(c)
            if code >= KNOCK:
                dw = self.deadwood_without(self.turn, c)
                if dw > self.knock_limit:
                    if self.knock_limit == 0:
                        return "only gin may knock this hand: deadwood after discarding the %s is %d" % (card_text(c), dw)
                    return "deadwood after discarding the %s is %d: knocking needs %d or less (R6)" % (
                        card_text(c), dw, self.knock_limit)
            return None
        return "not an action"

    # -- acting ----------------------------------------------------------
    def apply(self, code):
        """Apply a legal action; return None, or the reason it is illegal."""
        why = self.check(code)
        if why is not None:
            return why
        seat = self.turn
        if code == PASS:
            self._log(seat, PASS)
            self.passes += 1
            self.turn = 1 - seat
            if self.passes == 2:    # V1: both passed; first player draws stock
                self.phase = DRAW
                self.stock_only = True
            return None
        if code == DRAW_STOCK:
            self.stock_n -= 1
            c = self.stock[self.stock_n]
            self.masks[seat * 4 + c // 13] |= 1 << (c % 13)
            self.taken = NO_CARD
            self.pile_turns = 0
            self.stock_only = False
            self.phase = DISCARD_PHASE
            self._log(seat, DRAW_STOCK)
            return None
        if code == DRAW_UPCARD:
            self.pile_n -= 1
            c = self.pile[self.pile_n]
            self.masks[seat * 4 + c // 13] |= 1 << (c % 13)
            self.taken = c
            self.pile_turns += 1
            self.phase = DISCARD_PHASE
            self._log(seat, TOOK + c)
            return None
        c = code & 63
        self.masks[seat * 4 + c // 13] &= ~(1 << (c % 13))
        self.pile[self.pile_n] = c
        self.pile_n += 1
        self.taken = NO_CARD
        self._log(seat, code)
        if code >= KNOCK:
            self._knock(seat)
        elif self.stock_n <= self.rules.stop_at:
            self._end_draw("stock")          # R11 (V3: stop_at = 2)
        elif self.pile_turns >= self.rules.max_pile_turns:
            self._end_draw("pile")           # R14
        else:
            self.turn = 1 - seat
            self.phase = DRAW
        return None

    def _log(self, seat, code):
        self.log.append(code)
        self.log_seat.append(seat)

    def _end_draw(self, why):
        self.phase = OVER
        self.result = HandResult("draw", None, None, 0, None, why)

    def _knock(self, seat):
        lim = self.rules.copy(knock_limit=self.knock_limit)
        o = settle(self.cards_of(seat), self.cards_of(1 - seat), lim)
        winner = seat if o.winner == "knocker" else 1 - seat
        self.phase = OVER
        self.result = HandResult(o.kind, seat, winner, o.points, o)

    # -- moves as text ---------------------------------------------------
    def moves(self):
        """[[seat, 'draw_stock' | 'draw_upcard:Qs' | 'discard:Td' | ...], ...]"""
        return [[self.log_seat[i], action_text(self.log[i])] for i in range(len(self.log))]


class PastHand:
    """A finished hand as its match keeps it once the next hand is dealt:
    what the match's save and record, the hand reviews and the views of
    past hands read (the deal, who went first, the moves as bytes of their
    length, the knock limit, each seat's last ten cards as masks, the
    result, its showdown's melds packed: showdown.PastOutcome). The pile,
    the stock and the scratch of a Hand go: a long match on the Pico held
    ~0.8 KB a finished hand, this keeps ~0.4."""

    phase = OVER
    cards_of = Hand.cards_of     # the last ten cards, read from the masks
    holds = Hand.holds

    def __init__(self, h):
        if h.phase != OVER:
            raise ValueError("the hand is still being played")
        self.deal = h.deal
        self.commit = h.commit
        self.first = h.first
        self.knock_limit = h.knock_limit
        self.masks = h.masks
        self.log = bytes(h.log)
        self.log_seat = bytes(h.log_seat)
        r = h.result
        o = None if r is None else r.outcome
        if o is not None and not isinstance(o, PastOutcome) and PastOutcome.fits(o):
            r.outcome = PastOutcome(o)   # the match's results hold it too
        self.result = r
