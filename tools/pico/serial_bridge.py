"""The emulated Pico's USB serial console as a TCP port on localhost, so
that the tools a developer points at a real board's serial port (mpremote,
`make flash PORT=...`) talk to the emulated one unchanged:

    from tools.pico import harness as h
    from tools.pico.serial_bridge import SerialBridge
    with h.Pico(uf2, bootrom) as p, SerialBridge(p) as port:
        subprocess.run([".venv/bin/python", "-m", "mpremote", "connect", port.url, "ls"])

`port.url` is `socket://127.0.0.1:N` (pyserial's socket transport, which
mpremote's `connect` takes like a device path). While the bridge is open a
thread of its own drives the board: it runs the emulator in slices of
`slice_ms` of emulated time, types what the client sent and sends back
what the board printed. One client at a time; between clients the board
runs on, as a real board does while nothing has its port open (what it
prints then is lost, as USB CDC drops it with no host reading). Emulated
time runs as fast as the emulator can: faster than a wall clock while the
board idles, slower while it computes.

Anything else done to the board while the bridge runs goes through
call(fn), which runs fn(pico) in the bridge's thread between two slices
(the harness is not made for two threads). A power cut (Pico.cut_after,
or a cut on a flash operation) stops the board: the client's connection
is closed, as pulling the USB cable ends the serial device, and the bridge
waits, the board off, for call() to power it on again.
"""

import queue
import select
import socket
import threading


class SerialBridge:
    """The board `pico`'s console on `url` (see the module docstring)."""

    def __init__(self, pico, slice_ms=2):
        self.pico = pico
        self.slice_ms = slice_ms
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.url = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        self.off = False            # a power cut stopped the board
        self.clients = 0            # connections accepted so far
        self.error = None           # what stopped the bridge's thread, if anything did
        self._client = None
        self._calls = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="serial-bridge", daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)
        self._drop_client()
        self.server.close()

    def call(self, fn, timeout=600):
        """fn(pico) run in the bridge's thread; returns what it returns
        (raises what it raises). A call that powers the board on again
        (pico.power_on()) clears `off`."""
        if self.error is not None or not self._thread.is_alive():
            raise RuntimeError("the serial bridge is not running (%r)" % (self.error,))
        box = queue.Queue()
        self._calls.put((fn, box))
        ok, value = box.get(timeout=timeout)
        if not ok:
            raise value
        return value

    # -- the thread ------------------------------------------------------------
    def _drop_client(self):
        c, self._client = self._client, None
        if c is not None:
            try:
                c.close()
            except OSError:
                pass

    def _accept(self):
        ready, _, _ = select.select([self.server], [], [], 0)
        if ready:
            c, _addr = self.server.accept()
            c.setblocking(False)
            self._drop_client()       # one client at a time: the newest
            self._client = c
            self.clients += 1

    def _receive(self):
        c = self._client
        if c is None:
            return
        try:
            data = c.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._drop_client()       # the client closed the port
        elif not self.off:
            self.pico.type(data)

    def _send(self, text):
        c = self._client
        if c is None or not text:
            return
        try:
            c.setblocking(True)
            c.sendall(text.encode("latin-1"))
            c.setblocking(False)
        except OSError:
            self._drop_client()

    def _run_calls(self):
        while True:
            try:
                fn, box = self._calls.get_nowait()
            except queue.Empty:
                return
            boot = self.pico.boot_no
            try:
                box.put((True, fn(self.pico)))
            except BaseException as e:   # handed to the caller
                box.put((False, e))
            if self.pico.boot_no != boot:
                self.off = False      # powered on again

    def _loop(self):
        p = self.pico
        seen = len(p.chunks)
        try:
            while not self._stop.is_set():
                self._accept()
                self._receive()
                self._run_calls()
                if self.off:
                    seen = len(p.chunks)
                    self._stop.wait(0.005)
                    continue
                why = p.run(self.slice_ms)
                new = p.chunks[seen:]
                seen = len(p.chunks)
                self._send("".join(text for _boot, _t, text in new))
                if why == "cut":
                    self.off = True
                    self._drop_client()   # the USB cable's end: no board, no port
        except BaseException as e:       # the emulator stopped: say so to call()
            self.error = e
            self._drop_client()
            while True:
                try:
                    _fn, box = self._calls.get_nowait()
                except queue.Empty:
                    break
                box.put((False, RuntimeError("the serial bridge stopped: %r" % (e,))))
