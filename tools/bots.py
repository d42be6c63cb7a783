"""Baseline bots for the arena (tools/arena.py).

`simple`: Neller's SimpleGinRummyPlayer, written from its published
description (the EAAI-2021 Gin Rummy challenge's reference player):

- draw: take the upcard only if it would be part of a meld with cards in the
  hand (a set or a run containing it), or if taking it lets the player knock
  this turn; otherwise draw from the stock (in the first-upcard offer: pass);
- discard: the card leaving the lowest deadwood, i.e. the highest-deadwood
  unmelded card, never the card just taken from the pile (R4);
  ties: the engine's rule (higher value, then lower card);
- knock as soon as the deadwood allows (gin when it is 0).

Every bot here has `choose(view) -> action string` and works with an engine
View or an engine.ai.ObsView; `make(name, seed)` builds one by name.
"""
from engine.cards import NO_CARD
from engine.melds import best_discard4
from engine.ai import ACTION_TEXT, Player
from engine.hand import DRAW_STOCK, DRAW_UPCARD, PASS, DISCARD, KNOCK


def makes_meld(m, c):
    """Would card c be part of a meld with the cards of suit masks m?"""
    s = c // 13
    r = c % 13
    bit = 1 << r
    n = 0
    for t in range(4):
        if t != s and m[t] & bit:
            n += 1
    if n >= 2:
        return True
    x = m[s] | bit
    for lo in (r - 2, r - 1, r):
        if lo >= 0 and lo + 2 <= 12 and (x >> lo) & 7 == 7:
            return True
    return False


class SimpleBot:
    name = "simple"

    def __init__(self, seed=0):
        self.m = [0, 0, 0, 0]

    def choose(self, view):
        m = self.m
        view.load_masks(m)
        ph = view.phase
        if ph == "discard":
            t = view.taken
            x = best_discard4(m, NO_CARD if t is None else t)
            if (x >> 6) <= view.knock_limit:
                return ACTION_TEXT[KNOCK + (x & 63)]
            return ACTION_TEXT[DISCARD + (x & 63)]
        up = view.upcard
        legal = view.legal
        take = False
        if up is not None and "draw_upcard" in legal:
            if makes_meld(m, up):
                take = True
            else:
                m[up // 13] |= 1 << (up % 13)
                take = (best_discard4(m, up) >> 6) <= view.knock_limit
        if take:
            return ACTION_TEXT[DRAW_UPCARD]
        if ph == "first_upcard":
            return ACTION_TEXT[PASS]
        return ACTION_TEXT[DRAW_STOCK]


NAMES = ("easy", "normal", "hard", "simple")


def make(name, seed=0):
    """A bot by name: easy, normal, hard (engine.ai.Player) or simple."""
    if name == "simple":
        return SimpleBot(seed)
    if name in ("easy", "normal", "hard"):
        return Player(name, seed)
    raise ValueError("unknown bot %r (easy, normal, hard, simple, or module:function)" % (name,))
