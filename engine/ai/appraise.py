"""Every legal action valued by the hard evaluator: the hand review.

appraise(player, view) -> [(action, value), ...] for the player to move in
`view`, best first; value in points x16, higher is better for that player.
The same terms the hard level decides by, so its own choice is the best
(or tied with it):

* a discard: minus the value of the ten cards it leaves (evaluate.py: the
  expected deadwood after one more draw, meld chances weighted by the
  stock left, at risk of the opponent ending the hand first) and minus
  the charge for feeding the opponent (model.py);
* a knock: that discard's value plus what knocking gains over playing on
  (knock.py: EK - EN, points); gin adds the gin bonus and the opponent's
  expected deadwood instead. The hard level weighs a knock with the card
  that leaves the least deadwood and with its chosen discard: a knock with
  any other card is valued at most as the one with the first;
* taking the upcard: the value of the best discard after taking it; the
  stock: the value of the hand now after a stock draw (player.py,
  Player.stock_value).

Not a hot path (a review runs after the hand): it allocates its answer.
Only the view is read, as for a decision. The terms are the functions
below (begin, discard_setup, discard_value, left_deadwood, knock_gain,
stock_value, upcard_value), which allocate nothing: the hand review
(engine/review.py) values single moves with them, a step at a time.
"""
from ..cards import CARD_VALUE, NO_CARD
from ..melds import deadwood4, best_discard4, BIT_RANK
from ..hand import DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD, KNOCK
from .know import PH_OFFER, PH_DRAW, PH_DISCARD, load4
from .player import ACTION_TEXT


def begin(player, view):
    """Read `view` into player.k and ready the hard level's terms (the
    opponent model, its knock habit, the meld weight); returns player.k."""
    k = player.k
    k.fill(view)
    player.habit.learn(view, k.seat)
    player._prepare(k, 2)
    return k


def discard_setup(player, k):
    """The eleven cards into player.m and, when a knock is possible, the
    meld weight of playing on (as the hard level's discard choice);
    returns their best discard (best_discard4's answer: deadwood << 6 |
    card)."""
    x = best_discard4(load4(player.m, k.mine), k.taken)
    if x >> 6 <= k.limit:
        ev = player.ev
        ev.lam = ev.t_lamw if ev.t_lamw >= 0 else ev.lam
    return x


def discard_value(player, k, c):
    """Value (x16, higher better) of throwing c from the eleven cards in
    player.m; the ten it leaves are then in player.h (left_deadwood)."""
    ev = player.ev
    h = load4(player.h, player.m, c)
    dwc = deadwood4(h[0], h[1], h[2], h[3])
    v = ev.at_risk(ev.value10(h), dwc * 16)
    dg = ev.t_danger * player.model.danger(k, c)
    if ev.t_dpat:
        dg += dg * ev.t_dpat * ev.patient >> 16
    v += dg * (dwc + ev.t_dsc) // ((10 + ev.t_dsc) * 16)
    return -v


def left_deadwood(player):
    """The deadwood of the ten cards the last discard_value left."""
    h = player.h
    return deadwood4(h[0], h[1], h[2], h[3])


def knock_gain(player, k, dwc, c):
    """What knocking (gin at dwc == 0) with c from player.m adds (x16) to
    the value of discarding c and playing on: EK - EN less what the hard
    level's rule adds to playing on (KnockRule.should_knock), so a knock
    it makes gains and one it declines loses."""
    if dwc == 0:
        return player.knock.gin_value(k)
    kr = player.knock
    kr.estimate(k, dwc, load4(player.h, player.m, c), c)
    return kr.ek - kr.en - kr.play_on_bias(k)


def stock_value(player, k):
    """Value (x16) of drawing from the stock (or passing the V1 offer):
    the hand now, improved by the next draw's expected gain."""
    mine = k.mine
    return -player.stock_value(k, deadwood4(mine[0], mine[1], mine[2], mine[3]))


def upcard_value(player, k):
    """Value (x16) of taking the upcard: the best discard after it (R4:
    never the upcard itself). Call after stock_value (as the hard level)."""
    up = k.up
    m = load4(player.m, k.mine)
    m[up // 13] |= 1 << (up % 13)
    ev = player.ev
    ev.discard_choice(k, True, k.limit, up)
    return -ev.dc_value - player.t_bias


def can_take(k):
    """Is taking the upcard a legal choice in this draw (V1: not after
    both passed)?"""
    return k.up != NO_CARD and not k.stock_only


def appraise(player, view):
    """[(action, value x16)] for every legal action, best first (ties in
    the order the hard level breaks them)."""
    k = begin(player, view)
    out = []
    if k.phase == PH_DISCARD:
        # the hard level weighs a knock with two cards: the one leaving
        # the least deadwood (low) and its chosen discard (the best one);
        # a knock with any other card is worth no more than the knock with
        # low (its deadwood is no lower), so the level's choice stays the best
        low = discard_setup(player, k) & 63
        cap = None
        m = player.m
        disc = []
        for s in range(4):
            left = m[s]
            while left:
                bit = left & -left
                left ^= bit
                c = s * 13 + BIT_RANK[bit % 37]
                if c == k.taken:
                    continue
                v = discard_value(player, k, c)
                dwc = left_deadwood(player)
                disc.append((v, CARD_VALUE[c], c, dwc))
                if c == low and dwc <= k.limit:
                    cap = v + knock_gain(player, k, dwc, c)
        best = max(disc)[2]
        for v, cv, c, dwc in disc:
            out.append((ACTION_TEXT[DISCARD + c], v, cv))
            if dwc <= k.limit:
                if c == low:
                    kv = cap
                else:
                    kv = v + knock_gain(player, k, dwc, c)
                    if c != best and cap is not None and kv > cap:
                        kv = cap
                out.append((ACTION_TEXT[KNOCK + c], kv, cv + 100))
    elif k.phase == PH_OFFER or k.phase == PH_DRAW:
        out.append((ACTION_TEXT[PASS if k.phase == PH_OFFER else DRAW_STOCK],
                    stock_value(player, k), 0))
        if can_take(k):
            out.append((ACTION_TEXT[DRAW_UPCARD], upcard_value(player, k), 1))
    else:
        raise ValueError("no decision to make in this phase")
    # best first; ties: the higher tie key (a knock before its discard,
    # then the higher card value, as the hard level breaks them)
    out.sort(key=lambda a: (-a[1], -a[2]))
    return [(a[0], a[1]) for a in out]
