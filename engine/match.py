"""A match: hands until a player reaches the target (R12; V4, V5).

`Match` is what the firmware, the AI arena and the tests drive: string
actions in, a reason string back when an action is illegal (nothing changes).
Seat 0 is the human, seat 1 the device AI (R2: the human plays first unless
V5 says otherwise).

Two ways to deal (engine/deal.py says why):
- a match made with a `secret` (16 bytes of the board's entropy: play on
  the handheld, the web page and the simulator) deals every hand from a
  hand seed derived one-way from the secret, shows only a commitment to it
  while the hand is played (`hand.commit`), and reveals the hand's seed and
  nonce once it is over (`proof(i)`), for the game record;
- a match made without one (tests, tools, old saves and records) deals
  hand after hand from the match seed's own generator (engine/rng.py), so
  (rules, seed, moves) replays it anywhere; `hand.deal` is the deal number.
`reveals` (a list of (seed, nonce)) deals a committed match again from a
game record. `mirror` makes the match the second board's of a link match:
both boards play the same deals, and each board's own player is its seat
0, so the mirrored match deals seat 0 the other board's seat-1 cards (and
the other way round) and its seat 1 moves first where the other board's
seat 0 does; an action string means the same move on both. Its
commitments are the other board's (engine/deal.py: they are of the deal,
not of the seats). `chained=False` keeps the commitments of a match saved
or recorded by version 1.0.0 (engine/deal.py). `ai_seed` is the AI's own
seed, kept with the match (saved with it), drawn apart from the deal: the
engine does not use it.

A deal the device cannot choose (engine/cut.py, record format 5): the
App draws the secret, shows the match commitment
(engine.cut.secret_commitment(secret), before the player's input), takes
the player's cut, then makes the match with both:

    m = Match(rules, seed, secret=secret, ai_seed=a, cut="HELLO", level="hard")
    m.hand.commit             # DEAL # of hand 1: the chain takes in the cut
    engine.cut.seal(m)        # once the match is over: its seal (32 bytes)

A link match's boards pass the secret of the board of role 0 and, as the
cut, the other's secret in hex (seats="link link"). Without a cut the
match is one of format 4, as version 1.1 made them.
"""
from .hand import PastHand, OVER, PHASE_NAMES, action_code, action_text
from .deal import Dealer
from .rules import CARDEMS
from .cards import NO_CARD, card_text


class MatchEnd:
    """How a match ended (R12; V4's bonuses when the rules ask for them)."""

    def __init__(self, winner, hand_points, hands_won, game_bonus, hand_bonus,
                 shutout_bonus):
        self.winner = winner
        self.hand_points = hand_points     # [seat0, seat1] before bonuses
        self.hands_won = hands_won
        self.game_bonus = game_bonus       # V4: 100
        self.hand_bonus = hand_bonus       # V4: 25 per hand won
        self.shutout_bonus = shutout_bonus  # V4: the hand points again
        self.total = hand_points[winner] + game_bonus + hand_bonus + shutout_bonus


class Match(Dealer):
    CHAIN_HEADER = "gin-rummy record 4"     # engine/record_format.py's HEADER_V4
    HEADER5 = "gin-rummy record 5"          # a match with a cut

    def __init__(self, rules=None, seed=0, secret=None, ai_seed=None, reveals=None,
                 chained=None, mirror=False, **five):
        Dealer.__init__(self, CARDEMS if rules is None else rules, seed, secret, ai_seed, reveals,
                        chained, mirror, five)
        self.scores = [0, 0]
        self.hands_won = [0, 0]
        self.results = []       # HandResult of every finished hand
        self.hands = []         # every dealt Hand, the current one last
        self.winner = None
        self.end = None         # MatchEnd once over
        self._deal()

    # -- state -------------------------------------------------------------
    @property
    def hand(self):
        return self.hands[-1]

    @property
    def phase(self):
        """'first_upcard' 'draw' 'discard' 'hand_over' or 'match_over'."""
        if self.winner is not None:
            return "match_over"
        return PHASE_NAMES[self.hand.phase]

    @property
    def to_move(self):
        h = self.hand
        return None if h.phase == OVER else h.turn

    @property
    def hand_no(self):
        return len(self.hands)

    def _first_player(self):
        how = self.rules.first
        if how == "human" or not self.results:
            return 1 if self.mirror else 0
        prev = self.hands[-1].first
        if how == "alternate":
            return 1 - prev
        last = self.results[-1]          # "loser": the loser of the last hand
        if last.winner is None:
            return prev                   # after a draw: the same as before
        return 1 - last.winner

    def _deal(self):
        h = self._new_hand(self._first_player())
        if self.hands:
            self.hands[-1] = PastHand(self.hands[-1])   # what a finished hand keeps
        self.hands.append(h)

    def dealt(self, i):
        return self.hands[i]

    # -- actions -------------------------------------------------------------
    def legal(self):
        """Legal action strings for the player to move (none between hands)."""
        if self.winner is not None:
            return []
        buf = bytearray(32)
        n = self.hand.legal_codes(buf)
        return [action_text(buf[i]) for i in range(n)]

    def act(self, action):
        """Apply an action string; None, or the reason it is illegal."""
        if self.winner is not None:
            return "the match is over"
        if isinstance(action, str):
            try:
                code = action_code(action)
            except ValueError as e:
                return str(e)
        elif isinstance(action, int) and not isinstance(action, bool) and 0 <= action < 256:
            code = action          # an engine action code (hand.py)
        else:
            return "an action is a string such as 'draw_stock' or 'discard:Td'"
        if isinstance(action, str) and action.startswith("draw_upcard:"):
            up = self.hand.upcard()
            if up == NO_CARD or action[12:] != card_text(up):
                return "the upcard is not the %s" % action[12:]
        why = self.hand.apply(code)
        if why is None and self.hand.phase == OVER:
            self._score(self.hand.result)
        return why

    def next_hand(self):
        """Deal the next hand after one has ended; None or a reason."""
        if self.winner is not None:
            return "the match is over"
        if self.hand.phase != OVER:
            return "the hand is still being played"
        self._deal()
        return None

    def _score(self, res):
        self.results.append(res)
        if res.winner is None:
            return
        self.scores[res.winner] += res.points
        self.hands_won[res.winner] += 1
        w = res.winner
        if self.scores[w] >= self.rules.target:      # R12: at once
            self.winner = w
            game = hand = shut = 0
            if self.rules.match_bonus:                # V4
                game = 100
                hand = 25 * self.hands_won[w]
                if self.hands_won[w] == len(self.results):
                    shut = self.scores[w]
            self.end = MatchEnd(w, list(self.scores), list(self.hands_won),
                                game, hand, shut)

    def view(self, seat):
        from .view import View
        return View(self, seat)
