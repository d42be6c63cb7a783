"""V6: the three-player box game (seed 003) on top of the two-player hand.

Three players (0 is the human on the device, 1 and 2 are AIs). Each hand is
an ordinary two-player `Hand` between the box and the captain, with hand seat
0 = the captain (the non-dealer acts first, with V1's offer) and hand seat
1 = the box (the box deals every hand). The sitter sits out; it may advise the
captain, who decides (`advise` records the advice; the engine acts only on
the captain's own action).

Roles: drawn for the first hand from the match generator (highest card: box,
middle: captain; redrawn while two ranks tie). After a hand won by the box it
stays and the other two swap; after a hand the box loses, the box sits out,
the captain goes into the box and the sitter becomes captain; after a drawn
hand nobody moves and the same box deals again. Undercut bonus 10, gin 25;
the sitter never scores; V1 and V3 apply; first to the target (100) wins.

Deals as in a two-player match (engine/match.py): with a `secret` (play on
the handheld) every hand is a committed deal (engine/deal.py: `hand.commit`
shown at its start, `proof(i)` once it is over); without one, deal numbers
from the match seed's generator. The role draws come from that generator
either way (they are shown). `ai_seed` is the AIs' seed, kept and saved
with the match.
"""
from .cards import card_text
from .hand import OVER, PHASE_NAMES, action_code, action_text
from .rng import deck_for, fingerprint_text
from .rules import CARDEMS
from .deal import Dealer
from .sha256 import hex_text

BOX_RULES = CARDEMS.copy(name="box", upcard_offer=True, stop_at=2, undercut_bonus=10)
ROLE_NAMES = ("box", "captain", "sitter")


class BoxMatch(Dealer):
    CHAIN_HEADER = "gin-rummy box record 4"     # BOX_HEADER_V4
    HEADER5 = "gin-rummy box record 5"          # BOX_HEADER
    PLAYERS = 3

    def __init__(self, rules=None, seed=0, secret=None, ai_seed=None, reveals=None,
                 chained=None, **five):
        Dealer.__init__(self, BOX_RULES if rules is None else rules, seed, secret, ai_seed, reveals,
                        chained, False, five)
        self.scores = [0, 0, 0]
        self.hands_won = [0, 0, 0]
        self.results = []       # (HandResult, roles of that hand)
        self.hands = []         # [(Hand, (box, captain, sitter))]
        self.draws = []         # role drawing: [(card per player), ...] until no tie
        self.winner = None
        self.advice = None      # (player, action) offered by the sitter this decision
        self.roles = self._draw_roles()
        self._deal()

    # -- roles ---------------------------------------------------------------
    def _draw_roles(self):
        """(box, captain, sitter): highest card box, middle captain (V6)."""
        while True:
            deck = deck_for(self._rng.seed30())
            drawn = (deck[0], deck[1], deck[2])
            self.draws.append(drawn)
            ranks = [c % 13 for c in drawn]
            if ranks[0] != ranks[1] and ranks[1] != ranks[2] and ranks[0] != ranks[2]:
                break
        order = sorted(range(3), key=lambda p: -ranks[p])
        return (order[0], order[1], order[2])

    def role_of(self, player):
        return ROLE_NAMES[self.roles.index(player)]

    def rotate(self, res):
        """The roles (box, captain, sitter) after a hand ending in `res` (V6)."""
        box, cap, sit = self.roles
        if res.winner is None:
            return self.roles                   # drawn: nobody moves
        if res.winner == 1:                     # hand seat 1 is the box: box won
            return (box, sit, cap)
        return (cap, sit, box)                  # box lost: captain in, sitter captain

    # -- state -----------------------------------------------------------------
    def _deal(self):
        self.hands.append((self._new_hand(0), self.roles))
        self.advice = None

    def dealt(self, i):
        return self.hands[i][0]

    @property
    def hand(self):
        return self.hands[-1][0]

    @property
    def hand_roles(self):
        return self.hands[-1][1]

    @property
    def hand_no(self):
        return len(self.hands)

    @property
    def phase(self):
        if self.winner is not None:
            return "match_over"
        return PHASE_NAMES[self.hand.phase]

    def seat_of(self, player):
        """Hand seat of a player this hand: 0 captain, 1 box, None sitter."""
        box, cap, sit = self.hand_roles
        if player == cap:
            return 0
        if player == box:
            return 1
        return None

    def player_at(self, seat):
        box, cap, sit = self.hand_roles
        return cap if seat == 0 else box

    @property
    def to_move(self):
        h = self.hand
        if self.winner is not None or h.phase == OVER:
            return None
        return self.player_at(h.turn)

    # -- actions -------------------------------------------------------------
    def legal(self):
        if self.winner is not None or self.hand.phase == OVER:
            return []
        buf = bytearray(32)
        n = self.hand.legal_codes(buf)
        return [action_text(buf[i]) for i in range(n)]

    def advise(self, player, action):
        """The sitter suggests an action to the captain (V6). None or a reason."""
        if self.winner is not None or self.hand.phase == OVER:
            return "no hand is being played"
        if player != self.hand_roles[2]:
            return "only the sitter gives advice"
        if self.to_move != self.hand_roles[1]:
            return "advice is for the captain's turn"
        if action not in self.legal():
            return "advice must be a legal action: %s" % action
        self.advice = (player, action)
        return None

    def act(self, action):
        """The player to move acts (strings as in Match). None or a reason."""
        if self.winner is not None:
            return "the match is over"
        if not isinstance(action, str):
            return "an action is a string such as 'draw_stock' or 'discard:Td'"
        try:
            code = action_code(action)
        except ValueError as e:
            return str(e)
        if action.startswith("draw_upcard:"):
            up = self.hand.upcard()
            if up > 51 or action[12:] != card_text(up):
                return "the upcard is not the %s" % action[12:]
        why = self.hand.apply(code)
        if why is None:
            self.advice = None
            if self.hand.phase == OVER:
                self._score(self.hand.result)
        return why

    def next_hand(self):
        if self.winner is not None:
            return "the match is over"
        if self.hand.phase != OVER:
            return "the hand is still being played"
        self.roles = self.rotate(self.results[-1][0])
        self._deal()
        return None

    def _score(self, res):
        self.results.append((res, self.hand_roles))
        if res.winner is None:
            return
        p = self.player_at(res.winner)          # box or captain; never the sitter
        self.scores[p] += res.points
        self.hands_won[p] += 1
        if self.scores[p] >= self.rules.target:
            self.winner = p

    def view(self, player):
        """A player's view: the box and captain see their own seat; the sitter
        sees the captain's cards (it advises the captain)."""
        from .view import View
        seat = self.seat_of(player)
        return View(_SeatMatch(self), 0 if seat is None else seat)


class _SeatMatch:
    """Adapts a BoxMatch to what View reads (hand, winner, scores by seat)."""

    # The box game's opponents change seats every hand: no finished hands
    # are offered for an AI to learn a habit from (View.hands_over is 0).
    results = ()

    def __init__(self, bm):
        self._bm = bm

    @property
    def hand(self):
        return self._bm.hand

    @property
    def winner(self):
        return self._bm.winner

    @property
    def scores(self):
        bm = self._bm
        return [bm.scores[bm.player_at(0)], bm.scores[bm.player_at(1)]]

    @property
    def hand_no(self):
        return self._bm.hand_no

    @property
    def rules(self):
        return self._bm.rules

    def legal(self):
        return self._bm.legal()


# -- records ------------------------------------------------------------------
BOX_HEADER = "gin-rummy box record 5"         # a cut, transcripts and a seal (engine/deal.py)
BOX_HEADER_V4 = "gin-rummy box record 4"      # chained commitments (1.1)
BOX_HEADER_V3 = "gin-rummy box record 3"      # with the game's version (1.0.0)
BOX_HEADER_V2 = "gin-rummy box record 2"
BOX_HEADER_V1 = "gin-rummy box record 1"     # before fingerprints


def box_result_line(res, roles):
    """A box hand's result line: the player who scores (the sitter never
    does), from the hand's roles (box, captain, sitter)."""
    if res.winner is None:
        return "result draw %s" % res.why
    p = roles[1] if res.winner == 0 else roles[0]
    return "result %s player %d points %d" % (res.kind, p, res.points)


def box_record_text(bm, v1=False, form=None):
    """The box match as a record: the game's version, role draws, each
    hand's fingerprint, deal number, roles and moves (form 5: a match with
    a cut, its header's lines engine/deal.py's; form 4: chained
    commitments; form 2: no version line; v1 or form 1: the older form,
    without fingerprints either)."""
    if v1:
        form = 1
    own = 5 if bm.cut is not None else 4 if bm.chained else 3
    if form is None:
        form = own
    if (form >= 4 or own >= 4) and form != own:
        raise ValueError("a match of chained commitments is written in its own form (%d), "
                         "and only it" % own)
    if form == 5:
        from .cut import header_lines
        out = header_lines(bm)
    else:
        out = [(BOX_HEADER_V4, BOX_HEADER_V3, BOX_HEADER_V2, BOX_HEADER_V1)[4 - form]]
        if form >= 3:
            from .version import VERSION
            out.append("version " + VERSION)
        out.append("rules " + bm.rules.text())
        out.append("seed %d" % bm.seed)
    walk = None
    if form >= 4:
        if form == 4:
            out.append("match " + hex_text(bm.chain_start()))
        walk = bm.chain()
    v1 = form == 1
    for d in bm.draws:
        out.append("draw %s %s %s" % (card_text(d[0]), card_text(d[1]), card_text(d[2])))
    for i in range(len(bm.hands)):
        h, roles = bm.hands[i]
        if h.deal is None:          # a committed deal: revealed once over
            if walk is not None:        # the full commitments of the chain
                if i < len(bm.results):
                    hs, nonce, c = next(walk)
                    what = "commit %s seed %s nonce %s" % (hex_text(c), hex_text(hs),
                                                           hex_text(nonce))
                else:
                    what = "commit %s" % hex_text(bm.chain_head())
            elif i < len(bm.results):
                hs, nonce = bm.proof(i)
                what = "commit %s seed %s nonce %s" % (h.commit, hex_text(hs), hex_text(nonce))
            else:
                what = "commit %s" % h.commit
        else:
            fp = "" if v1 else "fingerprint %s " % fingerprint_text(h.deal)
            what = "%sdeal %d" % (fp, h.deal)
        out.append("hand %d %s box %d captain %d sitter %d" % (
            i + 1, what, roles[0], roles[1], roles[2]))
        for j in range(len(h.log)):
            out.append("%d %s" % (roles[1] if h.log_seat[j] == 0 else roles[0],
                                  action_text(h.log[j])))
        if i < len(bm.results):
            out.append(box_result_line(bm.results[i][0], bm.results[i][1]))
    out.append("scores %d %d %d" % tuple(bm.scores))
    if bm.winner is not None:
        out.append("winner %d" % bm.winner)
        if form == 5:
            from .cut import sealed_lines
            out.extend(sealed_lines(bm))
    return "\n".join(out) + "\n"

