"""Play a match to its end: the loop the tools and the tests share.
MicroPython runs it too (tools/records' scripts on the unix port and in
WebAssembly), so it is plain code: no f-strings, no keyword-only tricks.

    from tools.kit.play import play_out, players_choose

    m = engine.Match(rules, seed)
    play_out(m, players_choose((Player("hard", 1), Player("easy", 2))))
"""

MAX_ACTIONS = 20000     # a match that has not ended by then never will


def play_out(m, choose, each=None, stop=None, limit=MAX_ACTIONS, dealt=None):
    """Play the match `m` (a Match or a BoxMatch) from where it stands to
    its end. At a hand's end the next hand is dealt; otherwise the seat to
    move plays what `choose(m, seat)` returns: an action, or a list of
    actions tried in turn until one is accepted.

    each(m, seat)  after every action played (seat: who played it)
    stop(m)        looked at before every step; True stops the match
                   where it stands
    dealt(m)       after every next hand dealt
    limit          RuntimeError after that many actions (None: no limit)

    A refused deal or action raises RuntimeError (the seat, the action and
    why). Returns True when the match is over, False when `stop` stopped it.
    """
    n = 0
    while m.phase != "match_over":
        if stop is not None and stop(m):
            return False
        if m.phase == "hand_over":
            why = m.next_hand()
            if why is not None:
                raise RuntimeError("next_hand refused: " + why)
            if dealt is not None:
                dealt(m)
            continue
        seat = m.to_move
        tried = choose(m, seat)
        if not isinstance(tried, list):
            tried = [tried]
        why = "no action"
        for action in tried:
            why = m.act(action)
            if why is None:
                break
        if why is not None:
            raise RuntimeError("seat %d, hand %d: %r refused: %s"
                               % (seat, len(m.hands), tried[0] if len(tried) == 1 else tried, why))
        if each is not None:
            each(m, seat)
        n += 1
        if limit is not None and n > limit:
            raise RuntimeError("match did not end after %d actions" % limit)
    return True


def players_choose(players):
    """A `choose` for play_out: each seat's player (anything with
    choose(view)) picks from its own view."""

    def choose(m, seat):
        return players[seat].choose(m.view(seat))

    return choose
