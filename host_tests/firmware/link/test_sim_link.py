"""Two simulators on one computer play a link match over a local socket,
as two `make play` terminals with --link PORT do (tools/sim/simulator.py
link_to, tools/link/sockport.py): a whole match, then one with a
simulator closed and started again from its saves."""

import socket

from linkpair import Pair, judge


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    n = s.getsockname()[1]
    s.close()
    return n


def test_two_simulators_play_a_whole_link_match_over_a_local_socket():
    p = Pair(21, sockets=free_port())
    try:
        p.play()
    finally:
        for s in p.sides:
            s.port.close()
    j = judge(p)
    assert j["same"] and j["lost"] == 0 and j["twice"] == 0


def test_a_simulator_closed_and_started_again_takes_the_match_up():
    p = Pair(22, sockets=free_port(), restarts=2)
    try:
        p.play()
    finally:
        for s in p.sides:
            if s.sim is not None:
                s.port.close()
    j = judge(p)
    assert p.boots >= 1
    assert j["same"] and j["lost"] == 0 and j["twice"] == 0


def test_a_simulator_alone_says_how_to_link_in_socket_words():
    """make play offers LINK: without --link it says how to start two that
    link; with --link and nobody there, the link screen speaks of the other
    simulator, never of a cable's TX and RX, however long it looks."""
    from tools.kit.ui_driver import title_to
    from tools.sim.simulator import Sim, link_to, no_link
    from linkpair import link_of

    assert link_to(None) is no_link
    sim = Sim(seed=3, link_port=link_to(None))
    sim.settle()
    assert "link" in sim.app.screen.keys
    title_to(sim, "link")
    assert sim.screen == "message"
    said = " ".join(ln.decode() for ln in sim.app.screen.lines)
    assert "GIN_LINK=47474 GIN_SAVES=saves-a make play" in said and "saves-b" in said
    assert said.endswith("LINK on both.")                 # all of it shown
    assert "LINK on both" in said
    sim.press("A")
    assert sim.screen == "title"
    n = free_port()
    port = link_to(n)()
    sim = Sim(seed=3, link_port=lambda: port)
    sim.settle()
    try:
        title_to(sim, "link", settle=False)
        for _ in range(3):
            sim.run(4000)
            words = link_of(sim.app).words()
            assert "simulator" in words and "--link %d" % n in words, words
            assert "TX" not in words and "cable" not in words, words
            shown = " ".join(ln.decode() for ln in sim.app.screen.lines)
            assert "TX TO RX" not in shown.upper() and "SIMULATOR" in shown.upper()
    finally:
        port.close()
