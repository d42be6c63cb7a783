"""The link between two handhelds: messages over a serial cable, each
delivered once and in order, whatever the cable does to the bytes.

    link = Link(uart, time.ticks_ms, entropy.board(), VERSION, rules.text())
    every frame:   link.poll()
                   m = link.recv()         # a message from the other board, or None
                   link.send(b"...")       # queue a message (<= 200 bytes)
                   link.status, link.words()

`port` is anything with any() (bytes waiting), read(n) and write(buf): the
board's machine.UART, a socket adapter in the simulator, a fake in tests.
A port that is not a cable says so: its `looking` and `lost` attributes,
when it has them, are the screen's words while looking for the other end
and when it falls silent (a socket's, a browser tab's), instead of the
cable's WORDS_LOOKING and WORDS_LOST.
`clock()` returns milliseconds that wrap at 2**30 (time.ticks_ms); every
interval is measured with firmware.buttons.ticks_diff. Frames and their
checksum are firmware/link/linkframe.py's; docs/LINK.md describes the wire.

How it holds up (docs/LINK.md: the timings):
- Handshake: each board sends HELLO (protocol, a random 4-byte nonce drawn
  at start, the nonce it has heard from the other, how many messages it
  has taken, the turns it holds and their check, the game version and the
  rules line) until it has heard the other and the other has heard it. A
  different version, rules or protocol is REFUSED with words for the screen.
- Messages are numbered per direction from the match's start; one is in
  flight at a time (stop and wait). DATA is resent every RESEND_MS until
  its ACK comes; a copy of a message already taken is acknowledged again
  and never delivered twice. The ACK of a message goes out at the poll()
  after recv() took it, so the App saves (state()) between the two and a
  message acknowledged is always in its save.
- Nothing heard for LOST_MS while linked: LOST ("cable pulled or other
  board off"). A frame of the same session heard again: linked again,
  and the message in flight goes on.
- A board restarted draws a new nonce: the other sees a new session and
  both start numbering again from what each holds (the `got` of HELLO), so
  the saved messages not yet acknowledged are sent again and none twice.
  The turns each board holds travel in HELLO too (`hold()`, `peer_turns`,
  `resume()`), for the App to resume the match from the last turn both hold.

poll() reads at most RX_BUDGET bytes a call, so it always returns soon.
"""

from firmware.buttons import ticks_diff
from firmware.compat import const
from firmware.link.linkframe import MAX_PAYLOAD, Reader, Writer, crc16, printable, shown

PROTOCOL = const(1)

# frame kinds
HELLO = const(0x48)     # 'H'
DATA = const(0x44)      # 'D'
ACK = const(0x41)       # 'A'
PING = const(0x50)      # 'P'
REFUSE = const(0x52)    # 'R'

# link states
CONNECTING = const(0)
LINKED = const(1)
LOST = const(2)
REFUSED = const(3)

RESEND_MS = const(250)      # a DATA frame not acknowledged is sent again
HELLO_MS = const(500)       # HELLO while looking for the other board
KEEPALIVE_MS = const(1000)  # PING when nothing else was sent for this long
LOST_MS = const(3000)       # nothing heard for this long: LOST
STALL_MS = const(6000)      # a message unacknowledged this long, the other alive
RX_BUDGET = const(512)      # bytes read in one poll() at most

_HELLO_FIXED = const(17)    # HELLO payload before the version and rules text
_RETIRED = const(4)         # nonces of the other's earlier sessions kept

WORDS_LOOKING = "Looking for the other board: TX to RX, RX to TX, GND."
WORDS_LOST = "No answer from the other board: cable pulled or other board off."
WORDS_NOISE = "Only noise on the cable: check the wires and the baud rate."
WORDS_STALLED = "The other board has not taken the last move yet."
WORDS_LINKED = "Linked."
WORDS_ECHO = "This board hears itself: its TX joined to its own RX?"
WORDS_GARBLED = "The other board's HELLO holds bytes no version of this game sends: refused."
WORDS_PEER = "The other board stopped the link. THE OTHER BOARD SAYS: "
PEER_WORDS = const(60)      # of the other board's REFUSE words, at most this many shown
FIELD_SHOWN = const(24)     # of a version or a rules field that differs, at most this many


def turn_check(check, data):
    """The check of a turn log one turn longer: CRC-16 of the turns' bytes,
    chained (start with 0xFFFF for no turns)."""
    return crc16(data, len(data), check)


def resume(mine, check_at, theirs, their_check):
    """What to do after a (re)connection, from the turns each board holds.

    mine: turns this board holds; check_at(n): this board's check of its
    first n turns (turn_check chained); theirs, their_check: the other's
    (Link.peer_turns, Link.peer_check). Returns (what, n):
      ("even", n)   both hold the same n turns
      ("send", n)   the other holds n turns: send it this board's turns n..
      ("wait", n)   this board holds n turns: the other sends the rest
      ("differ", words)  the common turns differ: no resume.
    Each board checks the other's log where it holds as many turns; the
    board with the longer log is the one that can tell."""
    if theirs <= mine and check_at(theirs) != their_check:
        return ("differ", "The boards' matches differ: this match cannot go on.")
    if theirs == mine:
        return ("even", mine)
    if theirs < mine:
        return ("send", theirs)
    return ("wait", mine)


def _u24(p, i):
    return (p[i] << 16) | (p[i + 1] << 8) | p[i + 2]


def _put24(out, i, v):
    out[i] = (v >> 16) & 255
    out[i + 1] = (v >> 8) & 255
    out[i + 2] = v & 255


def rules_words(mine, theirs):
    """Words for rules that differ: the first field that does."""
    a = mine.split(" ")
    b = theirs.split(" ")
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return "Rules differ: %s here, %s there. Pick the same on both." % (
                a[i][:FIELD_SHOWN], b[i][:FIELD_SHOWN])
    return "Rules differ: pick the same variant on both boards."


class Link:
    """One board's end of the link (see the module's docstring)."""

    def __init__(self, port, clock, entropy, version, rules, saved=None, lookup=None):
        self.port = port
        self.w_looking = getattr(port, "looking", WORDS_LOOKING)
        self.w_lost = getattr(port, "lost", WORDS_LOST)
        self.clock = clock
        self.entropy = entropy
        self.version = version
        self.rules = rules
        self._text = (version + "\n" + rules).encode()
        if _HELLO_FIXED + len(self._text) > MAX_PAYLOAD:
            raise ValueError("version and rules too long for a HELLO")
        self.lookup = lookup       # n -> message n this board sent (older saves)
        self.reader = Reader()
        self.writer = Writer()
        self.nonce = self._draw_nonce()
        self.peer = None           # the other's nonce (this session)
        self.retired = []          # the other's earlier nonces
        self.ses = 0
        self.heard_me = False      # the other has heard this session's nonce
        self.told = False          # this board has sent a HELLO naming the other's
        self.status = CONNECTING
        self.refusal = ""
        got, nxt, pending = saved if saved else (0, 0, ())
        self.got = got             # messages taken by recv()
        self.pending = list(pending)
        self.base = nxt - len(self.pending)   # the number of pending[0]
        self.inbox = None          # a message arrived, not yet taken
        self.ack_due = False
        self.ack_seq = 0
        self.relay = True          # send REFUSE frames: the refusal is this board's
        self.skipped = 0           # numbers the other held that this save had lost
        self.turns = 0
        self.check = 0xFFFF
        self.peer_turns = None
        self.peer_check = None
        now = clock()
        self.last_rx = now
        self.last_tx = now
        self.hello_at = now
        self.hello_due = True
        self.sent_at = now         # the last DATA frame
        self.head_at = now         # when pending[0] was first sent
        self.fresh = True          # pending[0] not sent yet in this session
        self.good_noise = 0        # reader.bad + reader.noise at the last good frame
        self.frames_out = 0
        self.resent = 0
        self.dups = 0
        self.stale = 0

    # ---- what the App calls -------------------------------------------------

    def send(self, payload):
        """Queue a message; return its number (0, 1, ... from the match's start)."""
        if len(payload) > MAX_PAYLOAD:
            raise ValueError("a link message is at most %d bytes" % MAX_PAYLOAD)
        if not self.pending:
            self.fresh = True
        self.pending.append(bytes(payload))
        return self.base + len(self.pending) - 1

    def recv(self):
        """The next message from the other board (bytes), or None. Save
        (state()) before the next poll(): that poll acknowledges it."""
        m = self.inbox
        if m is not None:
            self.inbox = None
            self.ack_seq = self.got & 255
            self.got += 1
            self.ack_due = True
        return m

    def state(self):
        """What to save with the match: (got, next number, pending messages)."""
        return (self.got, self.base + len(self.pending), tuple(self.pending))

    def hold(self, turns, check):
        """The turns this board holds and their check (turn_check), for HELLO."""
        self.turns = turns
        self.check = check

    def idle(self):
        """True when every message sent has been acknowledged."""
        return not self.pending

    def linked(self):
        return self.status == LINKED

    def leader(self):
        """True on one board of the two, False on the other (the larger
        nonce), once linked. It holds for this session only: a match saves
        the roles it started with."""
        return self.peer is not None and self.nonce > self.peer

    def stalled(self):
        """Linked, the other alive, but the message in flight not taken for STALL_MS."""
        return (self.status == LINKED and bool(self.pending) and not self.fresh
                and ticks_diff(self.clock(), self.head_at) >= STALL_MS)

    def words(self):
        """A line for the screen about the link."""
        s = self.status
        if s == REFUSED:
            return self.refusal
        if s == LOST or s == CONNECTING:
            r = self.reader
            if r.bad + r.noise > self.good_noise + 8:
                return WORDS_NOISE
            return self.w_lost if s == LOST else self.w_looking
        if self.stalled():
            return WORDS_STALLED
        return WORDS_LINKED

    def poll(self):
        """Read what came, answer it, send what is due. Returns the status."""
        now = self.clock()
        self._read(now)
        s = self.status
        if s == REFUSED:
            if ticks_diff(now, self.hello_at) >= HELLO_MS:
                self._send_hello(now)
                if self.relay:
                    self._write(REFUSE, 0, 0, self.refusal.encode()[:MAX_PAYLOAD], now)
            return s
        if s == CONNECTING:
            if self.hello_due or ticks_diff(now, self.hello_at) >= HELLO_MS:
                self._send_hello(now)
            return s
        if self.ack_due:
            self.ack_due = False
            self._write(ACK, self.ses, self.ack_seq, b"", now)
        if self.pending and (self.fresh or ticks_diff(now, self.sent_at) >= RESEND_MS):
            if self.fresh:
                self.fresh = False
                self.head_at = now
            else:
                self.resent += 1
            self.sent_at = now
            self._write(DATA, self.ses, self.base & 255, self.pending[0], now)
        elif ticks_diff(now, self.last_tx) >= KEEPALIVE_MS:
            self._write(PING, self.ses, 0, b"", now)
        if s == LINKED and ticks_diff(now, self.last_rx) >= LOST_MS:
            self.status = LOST
        return self.status

    # ---- inside -------------------------------------------------------------

    def _draw_nonce(self):
        while True:
            n = bytes(self.entropy(4))
            if n != b"\0\0\0\0":
                return n

    def _refuse(self, words):
        self.status = REFUSED
        self.refusal = words
        self.hello_at = self.clock() - HELLO_MS

    def _write(self, kind, ses, seq, payload, now):
        n = self.writer.frame(kind, ses, seq, payload)
        self.port.write(memoryview(self.writer.out)[:n])
        self.last_tx = now
        self.frames_out += 1

    def _send_hello(self, now):
        p = bytearray(_HELLO_FIXED)
        p[0] = PROTOCOL
        p[1:5] = self.nonce
        if self.peer is not None:
            p[5:9] = self.peer
            self.told = True
        _put24(p, 9, self.got)
        _put24(p, 12, self.turns)
        p[15] = (self.check >> 8) & 255
        p[16] = self.check & 255
        self._write(HELLO, 0, 0, p + self._text, now)
        self.hello_at = now
        self.hello_due = False

    def _read(self, now):
        port = self.port
        reader = self.reader
        budget = RX_BUDGET
        while budget > 0:
            k = port.any()
            if not k:
                return
            data = port.read(min(k, budget))
            if not data:
                return
            budget -= len(data)
            for b in data:
                if reader.feed(b):
                    self._frame(now)

    def _frame(self, now):
        r = self.reader
        kind = r.kind
        if kind == HELLO:
            self._hello(bytes(r.buf[4:4 + r.size]), now)
            return
        if kind == REFUSE:
            if self.status != REFUSED:
                # the other board's words, quoted as its own and made
                # printable: never taken for this board's
                self._refuse(WORDS_PEER + '"' + shown(r.buf[4:4 + r.size], PEER_WORDS) + '"')
                self.relay = False
            return
        if self.peer is None or r.ses != self.ses or self.status == REFUSED:
            self.stale += 1
            return
        self._heard(now)
        if not self.heard_me:
            self.heard_me = True      # only a board that heard this nonce knows ses
            self.status = LINKED
        if kind == DATA:
            seq = r.seq
            got = self.got
            if seq == got & 255:
                if self.inbox is None:
                    self.inbox = bytes(r.buf[4:4 + r.size])
                else:
                    self.dups += 1    # a copy of the one held: ACK when taken
            elif 0 < (got - seq) & 255 <= 128:
                self.dups += 1        # taken already: acknowledge again,
                if not self.ack_due or (got - seq) & 255 < (got - self.ack_seq) & 255:
                    self.ack_seq = seq    # the newest of those due
                self.ack_due = True
            else:
                self.stale += 1
        elif kind == ACK:
            if self.pending and r.seq == self.base & 255:
                self.pending.pop(0)
                self.base += 1
                self.fresh = True
            else:
                self.stale += 1

    def _heard(self, now):
        self.last_rx = now
        r = self.reader
        self.good_noise = r.bad + r.noise
        if self.status == LOST:
            self.status = LINKED

    def _hello(self, p, now):
        if len(p) < _HELLO_FIXED or self.status == REFUSED:
            return
        if p[0] != PROTOCOL:
            self._refuse("The other board speaks link protocol %d, this one %d: "
                         "put the same version on both." % (p[0], PROTOCOL))
            return
        t = p[_HELLO_FIXED:]
        i = t.find(b"\n")
        version = printable(t[:i] if i >= 0 else t, MAX_PAYLOAD)
        rules = printable(t[i + 1:] if i >= 0 else b"", MAX_PAYLOAD)
        if version is None or rules is None:
            self._refuse(WORDS_GARBLED)
            return
        if version != self.version:
            self._refuse("The other board runs version %s, this one %s: "
                         "put the same on both." % (version[:FIELD_SHOWN], self.version))
            return
        if rules != self.rules:
            self._refuse(rules_words(self.rules, rules))
            return
        nonce = bytes(p[1:5])
        if nonce in self.retired:
            self.stale += 1           # a late HELLO of the other's earlier session
            return
        self._heard(now)
        if nonce == self.nonce:       # 1 in 2**32 for two boards; always for a loop
            self._refuse(WORDS_ECHO)
            return
        if nonce != self.peer:
            if not self._new_session(nonce, _u24(p, 9)):
                return
        self.peer_turns = _u24(p, 12)
        self.peer_check = (p[15] << 8) | p[16]
        heard = bytes(p[5:9]) == self.nonce
        if heard and not self.heard_me:
            self.heard_me = True
            self.status = LINKED
        if not heard or not self.told:
            self._send_hello(now)

    def _new_session(self, nonce, their_got):
        """The other board is new (first HELLO, or it restarted): number
        this board's messages from what it holds."""
        if self.peer is not None:
            self.retired.append(self.peer)
            if len(self.retired) > _RETIRED:
                self.retired.pop(0)
        self.peer = nonce
        s = 0
        for i in range(4):
            s ^= nonce[i] ^ self.nonce[i]
        self.ses = s
        self.heard_me = False
        self.told = False
        self.status = CONNECTING
        self.inbox = None             # not acknowledged: it comes again
        self.ack_due = False
        self.fresh = True
        nxt = self.base + len(self.pending)
        if their_got > nxt:           # it holds messages this board's save lost
            self.skipped += their_got - nxt
            self.pending = []
            self.base = their_got
        elif their_got >= self.base:
            self.pending = self.pending[their_got - self.base:]
            self.base = their_got
        else:                         # it lost messages it had acknowledged
            older = []
            for n in range(their_got, self.base):
                m = self.lookup(n) if self.lookup is not None else None
                if m is None:
                    self._refuse("The other board lost moves this one sent: "
                                 "start a new link match.")
                    return False
                older.append(bytes(m))
            self.pending = older + self.pending
            self.base = their_got
        return True
