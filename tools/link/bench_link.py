"""What the link costs a board's CPU: reading and building its frames.

    .venv/bin/micropython tools/link/bench_link.py    (the unix port: scale to the Pico)
    .venv/bin/python tools/link/bench_link.py

Prints, for a move (a DATA frame with 8 bytes), an ACK and a HELLO (the
version and the rules line), the microseconds to build it
(linkframe.Writer.frame) and to read it byte by byte (Reader.feed), each
the least of several runs (the machine may be shared), and on MicroPython
the same scaled by the emulated Pico's 175-260x slowdown against the unix
port (docs/DEVICE.md).
"""

import sys

sys.path.insert(0, ".")   # run from the top of the tree (MicroPython runs it directly)

from engine.rules import Rules  # noqa: E402
from engine.version import VERSION  # noqa: E402
from firmware.link.linkframe import Reader, Writer  # noqa: E402

try:
    from time import ticks_diff, ticks_us

    def now_us():
        return ticks_us()

    def since(t):
        return ticks_diff(ticks_us(), t)
except ImportError:  # CPython
    from time import perf_counter

    def now_us():
        return perf_counter() * 1e6

    def since(t):
        return perf_counter() * 1e6 - t

SLOWDOWN = (175, 260)
RUNS = 30


def least(f, *args):
    best = None
    for _ in range(RUNS):
        t = now_us()
        f(*args)
        d = since(t)
        if best is None or d < best:
            best = d
    return best


def feed(r, data):
    for i in range(len(data)):
        r.feed(data[i])


def main():
    w = Writer()
    r = Reader()
    hello = bytes(17) + (VERSION + "\n" + Rules().text()).encode()
    name = sys.implementation.name
    for what, kind, payload in (("move", 0x44, b"D7S KH  "), ("ack", 0x41, b""),
                                ("hello", 0x48, hello)):
        n = w.frame(kind, 1, 2, payload)
        data = bytes(w.out[:n])
        build = least(w.frame, kind, 1, 2, payload)
        read = least(feed, r, data)
        line = "%-5s %3d bytes on the wire: build %.0f us, read %.0f us on %s" % (
            what, n, build, read, name)
        if name == "micropython":
            line += "; a Pico: %.1f-%.1f ms" % ((build + read) * SLOWDOWN[0] / 1000.0,
                                                (build + read) * SLOWDOWN[1] / 1000.0)
        print(line)


main()
