"""Two Apps in one process over tools/link/fakelink.py's cable play whole
link matches, each board's player pressing its buttons (host_tests/firmware/
kit/linkpair.py); faults at every message, a cable cut, a board restarted from
its save. Both boards must end in the same match, every hand counted once
in each board's link statistics, nothing hung; a peer that breaks the
rules, a deal refused or rules that differ are said with words."""

import pytest

import engine
from firmware.display import fb
from ui.screen_text import shows
from firmware.link import linkmatch
from firmware.screens.play_modes import M_AI
from linkpair import CAMPAIGNS, Pair, judge, link_of
from tools.link import fakelink
from tools.sim.simulator import store_settings


def _whole(seed, **kw):
    p = Pair(seed, **kw).play()
    j = judge(p)
    assert j["same"], p.where()
    assert j["lost"] == 0 and j["twice"] == 0
    assert j["hands"] >= 1 and j["moves"] > 20
    return p


@pytest.mark.parametrize("name,kw", CAMPAIGNS, ids=[c[0] for c in CAMPAIGNS])
def test_whole_link_match_under_faults(name, kw):
    p = _whole(2000 + len(name), **kw)
    if kw.get("restarts"):
        assert p.boots >= 1
    if kw.get("cable_cut"):
        assert p.cuts == 1
    if kw.get("rate"):
        assert sum(p.ab.faults.values()) + sum(p.ba.faults.values()) > 50


VARIANTS = (
    ("V1 classic", {"upcard_offer": 1, "stop_at": 2}),
    ("V2 oklahoma", {"upcard_offer": 1, "stop_at": 2, "oklahoma": 1}),
    ("V4 bonus", {"upcard_offer": 1, "match_bonus": 1}),
    ("V5 alternate", {"first": "alternate", "knock_limit": 7}),
    ("V5 loser", {"first": "loser", "target": 250}),
)


@pytest.mark.parametrize("name,settings", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_whole_link_match_in_each_variant_both_boards_agree(name, settings):
    p = _whole(40 + len(name), settings=settings, rate=100)
    ma, mb = p.final[0][0], p.final[1][0]
    assert ma.rules.text() == mb.rules.text()
    for k, v in settings.items():
        got = getattr(ma.rules, k)
        assert got == v or got == (v == 1), (k, got, v)
    if settings.get("first") == "alternate":
        p1 = mb if ma.mirror else ma          # P1's board: not mirrored
        assert [h.first for h in p1.hands[:4]] == [0, 1, 0, 1]


def test_link_match_keeps_its_own_statistics_and_the_cpu_match():
    p = _whole(7)
    # MATCH OVER: DOWN shows the review of this board's player's decisions
    for s in p.sides:
        s.keys = ["D"]
    _run(p, 500, play=True)
    for s in p.sides:
        assert s.sim.app.screen_name == "match_review", s.sim.app.screen_name
        s.keys = ["B"]
    _run(p, 500, play=True)
    for s in p.sides:
        assert s.sim.app.screen_name == "match_end"
        s.keys = ["A"]                  # A, to the title
    _run(p, 1000, play=True)
    for s in p.sides:
        app = s.sim.app
        # the title showed again: the game against the CPU is back, its
        # statistics untouched; the link statistics are in the link save
        assert link_of(app) is None and app.screen_name == "title"
        assert app.stats.hands == 0 and app.stats.matches == 0
        role, secret, theirs, state, stats, match = linkmatch.decode(s.storage.files["link"])
        assert stats.matches == 1 and stats.hands == len(p.final[0][0].results)
        assert match is None            # over: a new link match comes next
        assert role in (0, 1)


def _linked_pair(seed=5):
    """Two boards linked and dealt, at the table: the pair, with its
    scripted players stopped (the test plays)."""
    p = Pair(seed)
    for _ in range(4000):
        for s in p.sides:
            s.step()
        p.clock.advance(5)
        apps = [s.sim.app for s in p.sides]
        if all(a.screen_name == "link_play" for a in apps):
            return p, apps
    raise AssertionError(p.where())


def _run(p, ms, play=False):
    for _ in range(ms // 5):
        for s in p.sides:
            if play:
                s.step()
            else:
                s.sim.step()
        p.clock.advance(5)


def test_an_illegal_move_from_the_other_board_is_refused_with_words():
    p, (a, b) = _linked_pair()
    # the board to move sends a move the rules refuse instead of its own
    mover, waiter = (a, b) if a.match.to_move == 0 else (b, a)
    assert waiter.screen.mode == M_AI
    n = link_of(mover).turns
    link_of(mover).link.send(b"M" + bytes((n >> 8, n & 255)) + b"discard:Ac")
    _run(p, 2000)
    g = link_of(waiter)
    assert g.stopped is not None and "rules refuse" in g.stopped
    assert waiter.screen_name == "link"
    img = p.sides[[a, b].index(waiter)].sim.image()
    assert shows(img, b"LINK", fb.BIG, lit_on_dark=False)
    # the deal was bound (both secrets revealed): A ends the match as the
    # other board's forfeit, never a new deal in its place
    assert shows(img, b"END") and not shows(img, b"NEW")
    assert shows(img, b"FORFEITS")
    assert any(b"refuse" in ln for ln in waiter.screen.lines)
    assert waiter.match.to_move == 1          # nothing played


def test_waiting_line_and_the_menu_while_the_other_thinks():
    p, (a, b) = _linked_pair()
    waiter = a if a.match.to_move == 1 else b
    side = p.sides[[a, b].index(waiter)]
    other = b"P2" if link_of(waiter).role == 0 else b"P1"
    assert shows(side.sim.image(), b"WAITING FOR " + other, fb.BIG)
    # the menu opens and closes while waiting; the link goes on
    from firmware import buttons as btn
    side.sim.mask = btn.B
    _run(p, 60)
    side.sim.mask = 0
    _run(p, 60)
    assert shows(side.sim.image(), b"PAUSED", fb.BIG, lit_on_dark=False)
    assert link_of(waiter).linked()


def test_cable_pulled_says_so_on_the_waiting_line_and_play_goes_on():
    p, (a, b) = _linked_pair()
    waiter = a if a.match.to_move == 1 else b
    side = p.sides[[a, b].index(waiter)]
    p.ab.cut_cable(True)
    p.ba.cut_cable(True)
    _run(p, 4000)
    assert shows(side.sim.image(), b"LINK LOST", fb.BIG)
    p.ab.cut_cable(False)
    p.ba.cut_cable(False)
    _run(p, 2000)
    assert not shows(side.sim.image(), b"LINK LOST", fb.BIG)
    assert shows(side.sim.image(), b"WAITING FOR", fb.BIG)


def test_rules_that_differ_are_refused_with_words():
    p = Pair(3)
    # board 1 plays to 250: its new link match's rules differ
    st = p.sides[1].storage
    store_settings(st, settings={"target": 250})
    p.sides[1].boot()
    for _ in range(3000):
        for s in p.sides:
            s.step()
        p.clock.advance(5)
    for s in p.sides:
        g = link_of(s.sim.app)
        assert g is not None and g.stopped is not None
        assert g.stopped.startswith("Rules differ:")
        assert s.sim.app.screen_name == "link"


def test_a_secret_that_does_not_match_its_commitment_is_refused():
    p = Pair(4)
    real = linkmatch.LinkSession._deal_message

    def lying(self, m):
        # board 0 reveals another secret than the one it committed to
        if m[:1] == b"C" and self.role == 0:
            real(self, m)
            self.link.pending[-1] = b"S" + bytes(16)
            return
        real(self, m)

    linkmatch.LinkSession._deal_message = lying
    try:
        for _ in range(3000):
            for s in p.sides:
                s.step()
            p.clock.advance(5)
    finally:
        linkmatch.LinkSession._deal_message = real
    words = [link_of(s.sim.app).stopped for s in p.sides]
    assert any(w and "does not match its commitment" in w for w in words), words
    honest = [s.sim.app for s in p.sides if link_of(s.sim.app).role == 1][0]
    assert "does not match its commitment" in link_of(honest).stopped
    assert honest.match is None and honest.screen_name == "link"


def test_save_round_trip():
    m = engine.Match(None, 0, secret=bytes(range(16)), mirror=True)
    m.act(m.legal()[0])
    from firmware.stats import Stats

    st = Stats()
    st.hands = 3
    b = linkmatch.encode(1, bytes(16), bytes(32), (5, 7, (b"M\x00\x01draw_stock",)), st, m)
    role, secret, theirs, state, stats, m2 = linkmatch.decode(b)
    assert (role, secret, theirs, state, stats.hands) == (1, bytes(16), bytes(32),
                                                           (5, 7, (b"M\x00\x01draw_stock",)), 3)
    assert m2.mirror and linkmatch.moves_of(m2) == linkmatch.moves_of(m)
    with pytest.raises(Exception):
        linkmatch.decode(b[:20])
    assert fakelink.KINDS


def test_link_statistics_from_the_link_screen_and_back():
    p = Pair(6)
    s0 = p.sides[0]
    for _ in range(400):
        s0.step()
        p.clock.advance(5)
    app = s0.sim.app
    assert app.screen_name == "link"
    s0.keys = ["D"]
    for _ in range(60):
        s0.step()
        p.clock.advance(5)
    assert app.screen_name == "stats"
    assert shows(s0.sim.image(), b"LINK STATISTICS", fb.BIG, lit_on_dark=False)
    s0.keys = ["B"]
    for _ in range(60):
        s0.step()
        p.clock.advance(5)
    assert app.screen_name == "link" and link_of(app) is not None


def test_the_last_move_goes_out_even_when_its_board_leaves_at_once():
    # the board that ends the match goes to the title at once, the cable
    # out: the other board has not got the last move; LINK on the first
    # board later sends it, and the other board's match ends the same
    p = Pair(8)
    cut = None
    for _ in range(400000):
        for s in p.sides:
            s.step()
        p.clock.advance(5)
        for s in p.sides:
            app = s.sim.app
            if cut is None and app.match is not None and app.match.winner is not None \
                    and link_of(app) is not None and not link_of(app).link.idle():
                cut = s
                p.ab.cut_cable(True)
                p.ba.cut_cable(True)
        if cut is not None:
            break
    assert cut is not None
    other = p.sides[1 - cut.i]
    # the ending board presses on to the title (showdown, result, match end)
    cut.pair.finished[cut.i] = True       # its player leaves LINK alone for now
    for _ in range(3000):
        app = cut.sim.app
        if app.screen_name == "title" and link_of(app) is None and not cut.keys and not cut.down:
            break
        if not cut.keys and not cut.down and app.screen_name not in ("title", "showdown", "result") \
                and p.clock.t - cut.key_t >= 150:
            cut.keys = ["A"]          # (the scripted player presses A on the others)
        cut.step()
        other.step()
        p.clock.advance(5)
    assert cut.sim.app.screen_name == "title" and link_of(cut.sim.app) is None
    assert other.sim.app.match.winner is None      # the last move never came
    final = cut.final = linkmatch.decode(cut.storage.files["link"])[5]
    assert final is not None and final.winner is not None
    # LINK again, the cable back: the last move goes; a new match after it
    p.ab.cut_cable(False)
    p.ba.cut_cable(False)
    p.finished[cut.i] = False
    for _ in range(4000):
        cut.step()
        other.step()
        p.clock.advance(5)
        if p.finished[other.i]:
            break
    assert p.finished[other.i], (p.where(), link_of(cut.sim.app) and link_of(cut.sim.app).finishing,
                                 link_of(cut.sim.app) and link_of(cut.sim.app).link.state())
    m = p.final[other.i][0]
    assert linkmatch.moves_of(m) == linkmatch.moves_of(final)
    assert m.scores == final.scores[::-1]
    for _ in range(400):
        cut.step()
        other.step()
        p.clock.advance(5)
    g = link_of(cut.sim.app)
    assert g is not None and not g.finishing and cut.sim.app.match is None


def test_a_board_restarted_before_it_took_a_role_takes_the_one_left():
    # board 1 hears board 0 and is heard (board 0 links and takes its role),
    # but the line to board 1 goes dead before board 1 links; board 1 is
    # switched off and on again: a new nonce, no role saved. Whatever the
    # new nonces say, it takes the role board 0 left.
    clashes = 0
    for seed in range(8):
        p = Pair(900 + seed)
        a, b = p.sides
        found = False
        for _ in range(2000):
            for s in p.sides:
                s.step()
                ga = link_of(a.sim.app)
                gb = link_of(b.sim.app)
                if ga is not None and gb is not None and ga.linked() and not gb.linked():
                    p.ab.cut_cable(True)
                    found = True
                    break
            if found:
                break
            p.clock.advance(5)
        if not found:
            continue
        for _ in range(200):
            for s in p.sides:
                s.step()
            p.clock.advance(5)
        assert link_of(a.sim.app).role is not None and link_of(b.sim.app).role is None
        b.power_cut()
        p.ab.cut_cable(False)
        for _ in range(3000):
            for s in p.sides:
                s.step()
            p.clock.advance(5)
            if all(s.sim is not None and s.sim.app.screen_name == "link_play" for s in p.sides):
                break
        ga, gb = link_of(a.sim.app), link_of(b.sim.app)
        assert ga.stopped is None and gb.stopped is None, (ga.stopped, gb.stopped)
        assert {ga.role, gb.role} == {0, 1}
        clashes += 1
    assert clashes >= 3          # the case came up
