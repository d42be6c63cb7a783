"""The link over local sockets (tools/link/sockport.py): what two simulators
on one computer use to play each other."""

import socket
import time

from engine.rules import Rules
from engine.version import VERSION
from firmware.link import link as lk
from tools.link import fakelink as fl
from tools.link.sockport import LocalPort, SocketPort

RULES = Rules().text()


def make(port, clock, seed, saved=None):
    return lk.Link(port, clock, fl.entropy(seed), VERSION, RULES, saved=saved)


def exchange(a, b, clock, n, sleep=0.0, steps=4000):
    """a and b send n messages each; returns what each took."""
    got = {id(a): [], id(b): []}
    sent = {id(a): 0, id(b): 0}
    for _ in range(steps):
        for x in (a, b):
            x.poll()
            m = x.recv()
            if m is not None:
                got[id(x)].append(m)
            if x.linked() and sent[id(x)] < n and x.idle():
                x.send(("%d %d" % (id(x) == id(a), sent[id(x)])).encode())
                sent[id(x)] += 1
        if len(got[id(a)]) == n and len(got[id(b)]) == n and a.idle() and b.idle():
            break
        clock.advance(5)
        if sleep:
            time.sleep(sleep)
    return got[id(a)], got[id(b)]


def test_two_links_over_a_socket_pair_exchange_messages_in_order():
    s1, s2 = socket.socketpair()
    clock = fl.Clock()
    a = make(SocketPort(s1), clock, 1)
    b = make(SocketPort(s2), clock, 2)
    got_a, got_b = exchange(a, b, clock, 10)
    assert got_b == [("1 %d" % i).encode() for i in range(10)]
    assert got_a == [("0 %d" % i).encode() for i in range(10)]
    s1.close()
    s2.close()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    n = s.getsockname()[1]
    s.close()
    return n


def test_two_simulators_find_each_other_and_one_comes_back_after_closing():
    number = free_port()
    clock = fl.Clock()
    pa, pb = LocalPort(number), LocalPort(number)
    a = make(pa, clock, 3)
    b = make(pb, clock, 4)
    try:
        got_a, got_b = exchange(a, b, clock, 3, sleep=0.001)
        assert len(got_a) == 3 and len(got_b) == 3
        # b's terminal is closed, then started again from its save
        saved = b.state()
        pb.close()
        for _ in range(int(lk.LOST_MS / 5) + 20):
            a.poll()
            clock.advance(5)
        assert a.status == lk.LOST and a.words() == pa.lost      # the socket's words
        pb = LocalPort(number)
        b = make(pb, clock, 5, saved)
        a.send(b"after")
        got = []
        for _ in range(4000):
            a.poll()
            b.poll()
            m = b.recv()
            if m is not None:
                got.append(m)
            if got and a.idle() and a.linked() and b.linked():
                break
            clock.advance(5)
            time.sleep(0.001)
        assert got == [b"after"] and a.linked() and b.linked()
    finally:
        pa.close()
        pb.close()
