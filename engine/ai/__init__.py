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
* Opponent's cards (model.py). Unseen cards are in no known place: not
  ours, not in the pile, not known to be held by the opponent (it took them
  from the pile and has not thrown them back). Each gets a chance that the
  opponent holds it: the same-rank cards and the one- and two-away suit
  neighbours of a card it discarded or left lying as the upcard are less
  likely (it had no use for that card), those around a card it picked up
  more likely (it made a meld with it); the rest of each unseen card's
  chance is "next stock card".
* The opponent's knock habit (habit.py), learned from what a player sees:
  a distribution over knock thresholds T = 0 (gin only) .. 10 (knocks as
  soon as the rules allow), from a neutral prior, updated at every
  showdown (the knock's deadwood and turn; a defender that held a
  knockable hand at its last discard and played on; the hand it held
  before its last draw), pulled 8% of the way back to the prior after
  each hand: a player who switches style is followed within a hand or two
  and cannot bank a style. Kept for the device's player
  between matches (the statistics; YOUR STYLE in the settings forgets it).
  Also learned: whether it keeps its deadwood lowest or keeps cards for
  its draws (the shape of its deadwood at the showdown).
* The opponent's deadwood (opp_shape.py, opp_tables.py): its shape given
  the opponent's turn number, the rank of its last discard, the rank of
  the one before and how many of the cards it took from the pile it still
  holds, fitted from self-play at the moments a knock is weighed, and how
  it changes in a turn; cut by the habit (a player with threshold T that
  has not knocked holds more than T).
* Hand value (evaluate.py). A 10-card hand is valued by its deadwood less
  the expected gain of one more stock draw and the best discard, the meld
  part weighted up early in the hand (x4 with a full stock, falling to x1)
  standing for the draws still to come, and less when the opponent sheds
  low cards (near its knock: the deadwood held now is what it will be
  caught with). A gin on the next draw is worth more than the deadwood it
  sheds (its bonus, no undercut, the opponent's race stopped): a bonus
  times its chance, large against a player who waits for gin (the hand
  is a race to gin there), small against a quick knocker.
* Caught before the next draw (knock_terms.end_chance): the chance that
  the opponent ends the hand on its next turn (its deadwood now, cut by
  the habit, one step along STEP into what it would knock or gin with).
  By that chance a hand is worth the deadwood it holds now rather than
  its value after one more draw (Evaluator.at_risk): late against a quick
  knocker the lower deadwood counts, early the draws do. The deadwood
  caught is less what it would lay off (R9): each deadwood card by the
  chance that the opponent holds the rest of its rank or three of its suit
  neighbours on one side (Evaluator.lay_prep, lay16).
* Discard: among the cards whose removal leaves deadwood within 6 of the
  lowest, the best hand value, less a charge for feeding the opponent (the
  chance it holds a pair that melds the card, times the deadwood that saves
  it), larger the more deadwood we would be caught with.
* Draw: take the upcard (never to discard it at once, R4) when the best
  hand after taking it is worth more than the current hand after a stock
  draw, or when it lets the player knock and it would. The discard decided
  with the take is the one played next.
* Knock (knock.py): gin always. Otherwise the expected points of knocking
  now (EK) against the best plan of playing on for 1-3 rounds and knocking
  then, or not knocking within them (EN): the opponent's deadwood over the
  habit's two likeliest groups of thresholds, its chance to take our
  discard, to knock (into our undercut, R10) or to go gin on each coming
  turn, our chance to go gin or lower our deadwood, layoffs (R9), the
  stock left (R11, V3). Knock when EK >= EN + a margin (more against a
  quick knocker: it may knock into our undercut on any later turn). On the
  last turn playing on is a drawn hand: knock when EK > 0. Against an
  eager knocker this plays on for the undercut; against a patient one it
  knocks early when ahead.
* The match score (equity.py, equity_table.py): the estimate weighs each
  outcome by the chance to win the match it leaves (R12: a race to the
  target), from a table fitted on the spread of hand results. Points past
  the target are worth nothing: needing 4, a knock that wins at all wins
  the match, and the undercut's bonus that playing on hopes for is worth
  no more; far behind against an opponent near the target, the big
  outcomes count for more.

Levels: normal uses the same lookahead (meld gains at x1) over fewer
discard candidates (deadwood within 3 of the lowest), without the opponent
model and the danger charge, and knocks as soon as it can. Easy
plays like a beginner: it discards the highest unmelded card, one time in
four any unmelded card, takes the upcard only for a finished meld, and
knocks at once. The hint is always hard's move, with a few words of why.

Modules: know (reading the view into what is known), model (the
opponent's cards as chances, the danger of a discard), habit (the
opponent's knock habit), opp_shape and opp_tables (the opponent's
deadwood), evaluate and evaluate_sets (hand value, discard choice), knock
and knock_terms (knock now or play on), equity and equity_table (the match
score's weight), player (each level's policy), locked (a decision made
with MicroPython's heap locked), why (the hint's words), appraise (every
move's value, for the review), obs (the plain-data observation), box_ai
(V6: the sitter's advice and the AI captain weighing it).

Hot paths allocate nothing: every buffer is made in Player(), the inner
evaluators are engine.melds.deadwood4 / best_discard4 (masks in, ints out),
arithmetic is on small ints, action strings come from a prebuilt table, and
nothing depends on dict or set order (the moves are the same on every
runtime for a given seed). On MicroPython a decision runs with the heap
locked (locked.py), so even its calls' frames stay off the heap. A
decision reads the view through its allocation-free accessors
(load_masks, pile_card, the log bytearrays).
"""
from .player import Player, ACTION_TEXT, LEVELS


def __getattr__(name):
    # The plain-data observation (arena, OpenSpiel adapter, your own bots)
    # is not needed on the device: loaded on first use.
    if name in ("ObsView", "obs_from_view"):
        from .obs import ObsView, obs_from_view
        return ObsView if name == "ObsView" else obs_from_view
    raise AttributeError(name)
