"""Golden pictures of a link match's screens (firmware/screens/link.py,
link_play.py): the title with LINK, the link screen looking and refusing,
the table waiting for the other board, with the cable pulled, and the
other player's moves and the result named P1 / P2."""

from linkpair import Pair
from link.test_link_match import _linked_pair, _run
from tools.sim.simulator import store_settings
from ui_golden import Golden


def test_link_screens_golden(tmp_path):
    g = Golden(tmp_path)
    # one board alone: the title offers LINK, the link screen looks
    p = Pair(11)
    s0 = p.sides[0]
    s0.sim.step()
    g.check(s0.sim, "86_title_link")
    for _ in range(400):
        s0.step()
        p.clock.advance(5)
    assert s0.sim.app.screen_name == "link"
    g.check(s0.sim, "87_link_looking")
    # two boards at the table: the one waiting, then with the cable pulled
    p, (a, b) = _linked_pair(5)
    waiter = a if a.match.to_move == 1 else b
    side = p.sides[[a, b].index(waiter)]
    g.check(side.sim, "88_link_play_waiting")
    p.ab.cut_cable(True)
    p.ba.cut_cable(True)
    _run(p, 4000)
    g.check(side.sim, "89_link_play_lost")
    p.ab.cut_cable(False)
    p.ba.cut_cable(False)
    # the other board's move, named: P1 DREW STOCK / P2 TOOK ...
    for _ in range(3000):
        for s in p.sides:
            s.step()
        p.clock.advance(5)
        if waiter.match.to_move == 0 and len(waiter.match.hand.log) >= 1:
            break
    _run(p, 300)
    g.check(side.sim, "90_link_play_their_move")
    # rules that differ: refused, with words and the way out
    p = Pair(3)
    store_settings(p.sides[1].storage, settings={"target": 250})
    p.sides[1].boot()
    for _ in range(3000):
        for s in p.sides:
            s.step()
        p.clock.advance(5)
    g.check(p.sides[0].sim, "91_link_refused")
    g.finish()
