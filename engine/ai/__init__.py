"""The device AI: three levels (easy, normal, hard) and the hint.

The AI reads only a player's view: an engine View (engine/view.py) or an
ObsView over the plain-data `obs` dict of the arena and the OpenSpiel
adapter. Both fill one record, `Know`: own suit masks, the discard pile as
masks (rebuilt from the move log), the cards the opponent took and still
holds, the cards it discarded, the upcards it left lying, the stock's size,
the knock limit and the card just taken (R4). Every decision is made from
`Know` alone.

Strategy (hard)
---------------
* Opponent model. Unseen cards are in no known place: not ours, not in the
  pile, not known to be held by the opponent (it took them from the pile and
  has not thrown them back). Each gets a weight for "the opponent holds it":
  the same-rank cards and the one- and two-away suit neighbours of a card it
  discarded or left lying as the upcard are less likely (it had no use for
  that card), those around a card it picked up more likely (it made a meld
  with it). The weights are normalised to the number of unknown cards in its
  hand; the rest of each unseen card's chance is "next stock card".
* Hand value. A 10-card hand is valued by its deadwood less the expected
  gain of one more stock draw and the best discard. An unseen card that can
  join no meld with the hand can only replace the highest-value deadwood
  card (one formula); a card that can join a meld gets an exact best-discard
  search. The meld part of the gain is weighted up (x3 with a full stock,
  falling to x1 as it runs out, and x1 while playing on with a knockable
  hand), standing for the draws still to come: so pairs, two-card runs and
  gaps count by how many of their completing cards are still live, and
  count less late in the hand. It also counts less when the opponent's
  last discard was a low card (x(v + 4)/14 for a card of value v): a player
  shedding low cards is close to knocking, so the deadwood held now
  matters more than the draws to come.
* Discard: among the cards whose removal leaves deadwood within 6 of the
  lowest, the one giving the best hand value, less a charge for feeding the
  opponent: for each pair of cards that would meld with the discard, the
  chance the opponent holds both (from the model; a card it is known to
  hold counts fully) times the deadwood that pair would stop costing it.
  The charge grows with the deadwood the discard leaves us (x(d + 10)/20):
  feeding an opponent hurts most when it knocks and catches us high.
* Draw: take the upcard (never to discard it at once, R4) when the best
  hand after taking it is worth more than the current hand after a stock
  draw (its value improved by one more draw's expected gain), or when it
  lets the player knock and it would.
* Knock: gin (0 deadwood) always. Otherwise hard knocks early only when the
  opponent's deadwood, estimated from the value of its last discard (a
  player shedding its highest deadwood card keeps none above that value),
  the stock draws so far and its pickups, promises a win of 32 points or
  more (in practice rarely, early in a hand). Otherwise it keeps its
  low deadwood and plays on: it may reach gin (+25), and an opponent that
  knocks into a lower or equal deadwood is undercut (+25, R10). Measured
  against `simple` (every knockable position, the knock played out on a
  copy of the game beside the real continuation): playing on scored 21
  points a hand on average where knocking would have scored 12; only in
  the first two or three turns did knocking score more. When the stock is
  two cards from its end (R11 / V3) it knocks rather than let the hand die.

Levels: normal uses the same lookahead (meld gains at x1) over fewer
discard candidates (deadwood within 3 of the lowest), without the opponent
model and the danger charge, and knocks as soon as it can. Easy
plays like a beginner: it discards the highest unmelded card, one time in
four any unmelded card, takes the upcard only for a finished meld, and
knocks at once. The hint is always hard's move, with a few words of why.

Modules: know (reading the view into what is known), model (the opponent's
cards as chances, the danger of a discard), evaluate (hand value, discard
choice), knock (knock now or play on), player (each level's policy), why
(the hint's words), obs (the plain-data observation).

Hot paths allocate nothing: every buffer is made in Player(), the inner
evaluators are engine.melds.deadwood4 / best_discard4 (masks in, ints out),
arithmetic is on small ints, action strings come from a prebuilt table, and
nothing depends on dict or set order (the moves are the same on every
runtime for a given seed). A decision reads the view through its
allocation-free accessors (load_masks, pile_card, the log bytearrays).
"""
from .player import Player, ACTION_TEXT, LEVELS


def __getattr__(name):
    # The plain-data observation (arena, OpenSpiel adapter, your own bots)
    # is not needed on the device: loaded on first use.
    if name in ("ObsView", "obs_from_view"):
        from .obs import ObsView, obs_from_view
        return ObsView if name == "ObsView" else obs_from_view
    raise AttributeError(name)
