"""What one player may see (DESIGN: the AI and the screens get the view).

A `View` reads the hand only through the seat's own masks, the discard pile,
the stock's size (never its order), the move log and the public counters.
The opponent's cards are never touched, so a view cannot leak them; a test
swaps in a hand whose hidden parts raise when read. Nor does a view give
anything that determines them: no deal number, no seed, no deal secret,
no hand seed or nonce, no commitment (engine/deal.py: the hand's seed
shuffles the whole deck, so it is revealed only once the hand is over;
host_tests/engine/test_deal.py checks every public name of a view). A new
hand is told by `hand_no`.
"""
from .cards import NO_CARD
from .hand import (OVER, DISCARD_PHASE, PHASE_NAMES, TOOK, DISCARD)
from .melds import best_discard4, deadwood4


class View:
    def __init__(self, match, seat):
        if seat != 0 and seat != 1 or type(seat) is not int:
            raise ValueError("a view is of seat 0 or 1, not %r" % (seat,))
        self._match = match
        self.seat = seat

    # The hand is looked up on each access so a view follows its match.
    @property
    def _hand(self):
        return self._match.hand

    @property
    def phase(self):
        if self._match.winner is not None:
            return "match_over"
        return PHASE_NAMES[self._hand.phase]

    @property
    def to_move(self):
        h = self._hand
        return None if h.phase == OVER else h.turn

    @property
    def my_turn(self):
        return self.to_move == self.seat

    def load_masks(self, out):
        """Own suit masks into the 4-item list `out` (allocation-free)."""
        m = self._hand.masks
        o = self.seat * 4
        out[0] = m[o]
        out[1] = m[o + 1]
        out[2] = m[o + 2]
        out[3] = m[o + 3]

    @property
    def hand(self):
        """Own cards, sorted."""
        m = [0, 0, 0, 0]
        self.load_masks(m)
        return [s * 13 + r for s in range(4) for r in range(13) if m[s] >> r & 1]

    @property
    def upcard(self):
        h = self._hand
        return h.pile[h.pile_n - 1] if h.pile_n else None

    @property
    def discard_pile(self):
        """The cards under the upcard, oldest first."""
        h = self._hand
        return list(h.pile[:max(0, h.pile_n - 1)])

    @property
    def pile(self):
        """The whole discard pile, oldest first, upcard last."""
        h = self._hand
        return list(h.pile[:h.pile_n])

    def pile_card(self, i):
        """The i-th card of the discard pile, oldest first (None past its
        top); allocation-free, unlike `pile`."""
        h = self._hand
        return h.pile[i] if 0 <= i < h.pile_n else None

    @property
    def stock_size(self):
        return self._hand.stock_n

    @property
    def knock_limit(self):
        return self._hand.knock_limit

    @property
    def taken(self):
        """The card taken from the pile this turn (R4: it can't go back), or None."""
        t = self._hand.taken
        return None if t == NO_CARD else t

    @property
    def scores(self):
        s = self._match.scores
        return [s[self.seat], s[1 - self.seat]]

    def load_scores(self, out):
        """The match scores, own first, into the 2-item list `out`
        (allocation-free)."""
        s = self._match.scores
        out[0] = s[self.seat]
        out[1] = s[1 - self.seat]

    @property
    def log(self):
        """Raw move log (codes, see hand.py) and the seat of each move."""
        return self._hand.log

    @property
    def log_seat(self):
        return self._hand.log_seat

    @property
    def moves(self):
        return self._hand.moves()

    @property
    def opponent_known(self):
        """Cards the opponent took from the pile and still holds."""
        h = self._hand
        opp = 1 - self.seat
        known = []
        for i in range(len(h.log)):
            if h.log_seat[i] != opp:
                continue
            code = h.log[i]
            if code >= TOOK:
                known.append(code - TOOK)
            elif code >= DISCARD:
                c = code & 63
                if c in known:
                    known.remove(c)
        return sorted(known)

    @property
    def opponent_count(self):
        """How many cards the opponent holds (10, or 11 mid-turn)."""
        h = self._hand
        return 11 if h.phase == DISCARD_PHASE and h.turn != self.seat else 10

    @property
    def deadwood(self):
        """Own lowest deadwood; with 11 cards, after the best discard."""
        m = [0, 0, 0, 0]
        self.load_masks(m)
        h = self._hand
        if h.phase == DISCARD_PHASE and h.turn == self.seat:
            t = h.taken
            return best_discard4(m, t) >> 6
        return deadwood4(m[0], m[1], m[2], m[3])

    @property
    def legal(self):
        if not self.my_turn or self._match.winner is not None:
            return []
        return self._match.legal()

    # -- finished hands: what their showdowns showed (the AI learns from them)
    @property
    def hands_over(self):
        """How many hands of the match have ended."""
        return len(self._match.results)

    def past_result(self, i):
        """The HandResult of finished hand i (0 = the match's first)."""
        return self._match.results[i]

    def past_log(self, i):
        """Move log (codes) of finished hand i, and the seat of each move."""
        return self._match.hands[i].log

    def past_log_seat(self, i):
        return self._match.hands[i].log_seat

    def past_limit(self, i):
        """The knock limit of finished hand i (V2 may change it per hand)."""
        return self._match.hands[i].knock_limit

    def past_masks(self, i, seat, out):
        """A seat's last ten cards of finished hand i, as the showdown showed
        them, into the 4-item list `out`; False (and nothing read) when the
        hand was drawn, as a drawn hand shows no cards."""
        if self._match.results[i].winner is None:
            return False
        m = self._match.hands[i].masks
        o = seat * 4
        out[0] = m[o]
        out[1] = m[o + 1]
        out[2] = m[o + 2]
        out[3] = m[o + 3]
        return True

    @property
    def hand_no(self):
        return self._match.hand_no

    @property
    def rules(self):
        return self._match.rules
