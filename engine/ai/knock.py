"""Knock now or play on (R6, R7, R10, R11).

Gin (0 deadwood) always. Easy and normal knock as soon as they can. Hard
knocks early only when the opponent's deadwood, estimated from the value of
its last discard (a player shedding its highest deadwood card keeps none
above that value), the stock draws so far and its pickups, promises a win
of KNOCK_MARGIN points or more. Otherwise it keeps its low deadwood and
plays on: it may reach gin (+25), and an opponent that knocks into a lower
or equal deadwood is undercut (+25, R10). When the stock is two cards from
its end (R11 / V3) it knocks rather than let the hand die.
"""
from ..compat import const
from ..cards import NO_CARD, CARD_VALUE

KNOCK_MARGIN = const(32)  # knock early only for an estimated win this large
KNOCK_END = const(2)      # knock whenever the stock is this close to its end


class KnockRule:
    def __init__(self):
        self.t_kt = KNOCK_MARGIN
        self.t_kend = KNOCK_END
        # the defender's deadwood x16 ~ c0 + c1 * (value of its last discard)
        #   - c2 * (stock draws so far) - c3 * (its pickups)
        self.t_kc = (172, 40, 11, 55)

    def should_knock(self, k, lv, dw):
        """Knock now with deadwood dw (<= the limit)?"""
        if dw == 0 or lv < 2:
            return True
        if k.stock - k.stop_at <= self.t_kend:
            return True
        vl = CARD_VALUE[k.olast] if k.olast != NO_CARD else 10
        c = self.t_kc
        est = c[0] + c[1] * vl - c[2] * k.turns - c[3] * k.opp_took
        return est - dw * 16 >= self.t_kt * 16
