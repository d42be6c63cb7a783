"""The hint's words: a few words of why for the 128x64 screen.

Not a hot path: every answer is a new string.
"""
from ..cards import NO_CARD, CARD_VALUE, card_text
from ..melds import deadwood4, best_discard4
from ..hand import DRAW_STOCK, DRAW_UPCARD, PASS, KNOCK
from .know import in_meld
from .action_text import WHY_TAKE_KNOCK, WHY_KNOCK_LATER


def makes_run(m, u):
    """Does card u complete a run with the cards of suit masks m?"""
    x = m[u // 13] | (1 << (u % 13))
    w = x & (x >> 1) & (x >> 2)
    return (w & ((7 << (u % 13)) >> 2)) != 0


def left_words(verb, m, u):
    """Why `verb` ("draw" from the stock, "pass" the offer) leaves the
    pile's card u, from what u would do to the hand of suit masks m: when
    taking it and the best discard after it lower no deadwood, that;
    otherwise what it would do (a set, a run, or the deadwood it saves)
    and that hard judged the stock's card worth more."""
    now = deadwood4(m[0], m[1], m[2], m[3])
    s = u // 13
    bit = 1 << (u % 13)
    m[s] |= bit
    x = best_discard4(m, u)
    after = x >> 6
    t = card_text(u)
    if after >= now:
        m[s] ^= bit
        return "%s: %s lowers no deadwood" % (verb, t)
    d = x & 63
    m[d // 13] ^= 1 << (d % 13)          # the ten cards kept with u
    m[s] ^= bit
    melded = deadwood4(m[0], m[1], m[2], m[3]) != after - CARD_VALUE[u]
    run = makes_run(m, u)
    m[d // 13] |= 1 << (d % 13)
    if not melded:
        what = "saves %d deadwood" % (now - after)
    elif run:
        what = "makes a run"
    elif (m[0] >> (u % 13) & 1) + (m[1] >> (u % 13) & 1) + (m[2] >> (u % 13) & 1) \
            + (m[3] >> (u % 13) & 1) == 3:
        what = "makes a set of four"
    else:
        what = "makes a set"
    return "%s: %s %s, but the stock is worth more" % (verb, t, what)


def why(player, k, code):
    """Words for action `code`, chosen by `player` on Know `k`."""
    mine = k.mine
    m = [mine[0], mine[1], mine[2], mine[3]]
    kind = player.why_kind
    if code == DRAW_UPCARD:
        u = k.up
        t = card_text(u)
        if kind == WHY_TAKE_KNOCK:
            return "take %s: then knock" % t
        if makes_run(m, u):
            return "take %s: makes a run" % t
        if in_meld(m, u):
            return "take %s: makes a set" % t
        return "take %s: lowers deadwood" % t
    if code == DRAW_STOCK:
        if k.up == NO_CARD or k.stock_only:
            return "draw from the stock"
        return left_words("draw", m, k.up)
    if code == PASS:
        return left_words("pass", m, k.up)
    c = code & 63
    t = card_text(c)
    if code >= KNOCK:
        if player.why_val == 0:
            return "gin! discard %s" % t
        return "knock: %d deadwood, stock %d" % (player.why_val, k.stock)
    if kind == WHY_KNOCK_LATER:
        return "discard %s: knock later" % t
    # what kind of card goes
    dw11 = deadwood4(m[0], m[1], m[2], m[3])
    s = c // 13
    m[s] ^= 1 << (c % 13)
    dead_card = deadwood4(m[0], m[1], m[2], m[3]) == dw11 - CARD_VALUE[c]
    m[s] ^= 1 << (c % 13)
    if not dead_card:
        return "discard %s: breaks a meld" % t
    hi = 0
    hic = c
    for s2 in range(4):
        for r in range(13):
            if m[s2] >> r & 1:
                x = s2 * 13 + r
                m[s2] ^= 1 << r
                if deadwood4(m[0], m[1], m[2], m[3]) == dw11 - CARD_VALUE[x]:
                    if CARD_VALUE[x] > hi:
                        hi = CARD_VALUE[x]
                        hic = x
                m[s2] ^= 1 << r
    m[s] ^= 1 << (c % 13)
    if in_meld(m, c):
        return "discard %s: weakest draw" % t
    if CARD_VALUE[c] >= hi:
        return "discard %s: highest dead card" % t
    danger = player.model.danger
    if danger(k, hic) > danger(k, c) + 16:
        return "discard %s: safer than %s" % (t, card_text(hic))
    return "discard %s: keeps draws" % t
