"""Two simulators on one computer play a link match over a local socket,
as two `make play` terminals with --link PORT do (tools/sim/simulator.py
link_to, tools/link/sockport.py): a whole match, then one with a
simulator closed and started again from its saves."""

import socket

from link.linkpair import Pair, judge


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
