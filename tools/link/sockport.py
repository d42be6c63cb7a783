"""A link port over a local socket: two simulators on one computer join as
two boards joined by a cable (CPython only).

    port = LocalPort(47474)         # the first to start listens, the other connects
    link = Link(port, clock, ...)   # firmware/link/link.py: any(), read(n), write(buf)

Nothing blocks: any() accepts or connects when it can, and a peer that goes
away (its terminal closed) is only silence, which the link reports as LOST;
the port then waits for the next peer, as a board waits for a cable
plugged back. `SocketPort` wraps a socket already connected
(socket.socketpair() in tests).
"""

import errno
import socket


class SocketPort:
    """any()/read(n)/write(buf) over a connected stream socket."""

    def __init__(self, sock=None):
        self.sock = None
        self.buf = bytearray()
        if sock is not None:
            self.attach(sock)

    def attach(self, sock):
        sock.setblocking(False)
        self.sock = sock

    def drop(self):
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock = None

    def _fill(self):
        while self.sock is not None:
            try:
                d = self.sock.recv(4096)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self.drop()
                return
            if not d:
                self.drop()
                return
            self.buf += d

    def any(self):
        self._fill()
        return len(self.buf)

    def read(self, n):
        d = bytes(self.buf[:n])
        del self.buf[:n]
        return d

    def write(self, data):
        if self.sock is None:
            self.connect()
        if self.sock is not None:
            try:
                self.sock.sendall(bytes(data))
            except (BlockingIOError, InterruptedError):
                pass              # a full socket drops the frame, as noise would
            except OSError:
                self.drop()
        return len(data)

    def connect(self):
        """Nothing here: a SocketPort's socket comes connected."""


class LocalPort(SocketPort):
    """A port on 127.0.0.1:`number`: listens if it is the first, else connects."""

    def __init__(self, number, host="127.0.0.1"):
        SocketPort.__init__(self)
        self.address = (host, number)
        self.server = None
        # the link screen's words (firmware/link/link.py): a socket, not a cable
        self.looking = ("Looking for the other simulator: start a second one with "
                        "--link %d and its own --saves, then LINK there." % number)
        self.lost = ("No answer from the other simulator: it was closed or left "
                     "LINK. Start it again with --link %d." % number)

    def connect(self):
        if self.server is None:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                s.connect(self.address)
                self.attach(s)
                return
            except OSError:
                s.close()
            self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                self.server.bind(self.address)
            except OSError as e:
                self.server.close()
                self.server = None
                if e.errno == errno.EADDRINUSE:
                    return        # someone else listens: connect next time
                raise
            self.server.listen(1)
            self.server.setblocking(False)
        try:
            s, _ = self.server.accept()
        except (BlockingIOError, InterruptedError):
            return
        self.attach(s)

    def any(self):
        if self.sock is None:
            self.connect()
        return SocketPort.any(self)

    def close(self):
        self.drop()
        if self.server is not None:
            self.server.close()
            self.server = None
