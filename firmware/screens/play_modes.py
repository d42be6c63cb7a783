"""The play screen's modes, overlays, card markers and layout, shared by the
modules that make up the screen:

    play.py           the screen: state, the mode switch, time, dispatch
    play_table.py     the status row and the table (stock, discard pile)
    play_draw.py      M_DRAW: your draw (or the V1 take-or-pass offer)
    play_discard.py   M_DISCARD: your discard or knock, and its confirmation
    play_ai.py        M_AI: the AI's turn, and the texts of its last turn
    play_overlays.py  the menu, a message, a hint, the discard pile
"""

from firmware.compat import const

M_DRAW = const(0)      # your draw (or the V1 take/pass offer)
M_DISCARD = const(1)   # your discard or knock
M_AI = const(2)        # the AI is moving
M_END = const(3)       # the hand is over; a pause before the showdown

O_NONE = const(0)
O_MSG = const(1)
O_CONFIRM = const(2)
O_MENU = const(3)
O_PILE = const(4)

# What a cursor move or a take changes (Screen.part; Play.redraw draws only that)
P_HAND = const(1)      # the hand row (the card lifted) and the DW figure
P_TABLE = const(2)     # the stock and the pile (the draw's source)
P_MARK = const(4)      # the save mark (shown for MARK_MS after a turn)
P_TURN = const(8)      # the turn line and the key hints (with P_HAND, P_TABLE: a take)

NOCARD = const(255)
STOCK = const(254)
PASSED = const(253)

HAND_Y = const(48)     # the hand's card tops (a meld bracket 2 px above)
HAND_TOP = const(45)   # ... the top of a lifted card: the band below is the hand's
TABLE_Y = const(9)     # the stock and the top discard
TABLE_LIFT = const(2)  # ... the one chosen stands this much higher
STOCK_X = const(3)
PILE_X = const(16)
TEXT_X = const(31)
TEXT_Y1 = const(9)     # what the other player took
TEXT_Y2 = const(18)    # ... and put down
RULE_Y = const(27)     # a rule under those two lines
TURN_Y = const(30)     # whose turn, what to do
HINT_Y = const(39)     # the key hints (their boxes: rows 38..44)
DW_X = const(96)       # DW in the status row: nothing else right of it
MARK_MS = const(700)
MARK_X = const(122)    # the save mark (5x5): nothing else draws there
MARK_Y = const(32)
