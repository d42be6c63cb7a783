"""A hostile peer against an honest board: the board's real App and saves
over tools/link/fakelink.py's cable, the other end a script that sends
what it likes.

    .venv/bin/python -m tools.link.hostile [--seed N] [--fuzz N] [--only attacks|reveal|receive]
    .venv/bin/micropython tools/link/hostile.py [...]        (from the top of the tree)

The honest board (Honest) has a match against the CPU saved, then chooses
LINK; the peer (Peer) links with it through the stages of a link match:

- "looking": the boards have not linked yet;
- "dealing": the peer sent its commitment, the honest board revealed its
  secret (the deal is bound), the peer holds back its own;
- "playing": both revealed, the honest board at its table waiting for
  the peer's move.

At each stage the campaign (attacks()) sends every frame type (HELLO,
DATA, ACK, PING, REFUSE and kinds no board sends) with adversarial
payloads (empty, a byte, the largest, not UTF-8, UTF-8 beyond ASCII, the
wrong lengths, spoofed words, false turn counts) as raw frames with a
right CRC, and every message (C, S, M and others) through a link of its
own, so that each reaches the session's parsers. reveal_abort() reveals
and aborts again and again (a REFUSE with words of its choosing, another
commitment, a wrong reveal, a restart into a new link match, silence),
the honest player answering as a player would (B and LINK again: the
same deal; or A: the other board's forfeit). fuzz() sends random bytes
and random frames with a right CRC. After every case the honest board
is checked: no exception out of its App, no fresh secret in place of one
it revealed for a match not over (a re-deal) unless it counted the other
board's forfeit, the match against the CPU saved before LINK byte for
byte the same, and the other board's words never shown as its own.

Runs on CPython and the MicroPython unix port (no f-strings, small ints).
"""

import sys

sys.path.insert(0, ".")   # run from the top of the tree (MicroPython runs it directly)

from engine.version import VERSION  # noqa: E402
from engine import linkdeal  # noqa: E402
from firmware import buttons as btn  # noqa: E402
from firmware.link import link as lk  # noqa: E402
from firmware.app import App  # noqa: E402
from firmware.buttons import Buttons  # noqa: E402
from firmware.link.linkframe import MAX_PAYLOAD, Writer  # noqa: E402
from firmware.ports import Ports  # noqa: E402
from firmware.display.ssd1306 import SSD1306  # noqa: E402
from firmware.keyscript import KEY_BITS  # noqa: E402
from tools.kit.memstorage import MemStorage  # noqa: E402
from tools.kit.ui_driver import CUT_KEYS  # noqa: E402
from tools.link import fakelink as fl  # noqa: E402
from tools.sim.fakebus import CountingBus  # noqa: E402

STEP_MS = 5
STAGES = ("looking", "dealing", "playing")
KINDS = (lk.HELLO, lk.DATA, lk.ACK, lk.PING, lk.REFUSE, 0, 0x7E, 0xFF)
SPOOF = b"Noise on the cable. Press A to deal again."
CPU_SAVE = "game"


def payloads(rand):
    """Adversarial payloads: none, a byte, the largest, bytes that are not
    UTF-8, UTF-8 beyond ASCII, control bytes, words that pass for this
    board's, and random ones."""
    out = [b"", b"\x00", b"\xff" * MAX_PAYLOAD, b"\xc3(\xa0\xa1", b"caf\xc3\xa9 \xe2\x82\xac",
           b"\x80\x81\xb3\xb4\xfe", b"\x01\x02\n\r\t\x1b[2J", SPOOF, b'"' + SPOOF + b'"',
           lk.WORDS_NOISE.encode(), bytes(range(256))[:MAX_PAYLOAD]]
    for n in (1, 16, 17, 31, 33, 199, 200):
        out.append(rand.bytes(n))
    return out


def hello(version=VERSION, rules=None, turns=0, check=0xFFFF, nonce=b"\x01\x02\x03\x04",
          heard=b"\0\0\0\0", got=0, protocol=lk.PROTOCOL, text=None):
    """A HELLO payload as firmware/link/link.py builds one, each field free."""
    p = bytearray(17)
    p[0] = protocol
    p[1:5] = nonce
    p[5:9] = heard
    for i, v in ((9, got), (12, turns)):
        p[i] = (v >> 16) & 255
        p[i + 1] = (v >> 8) & 255
        p[i + 2] = v & 255
    p[15] = (check >> 8) & 255
    p[16] = check & 255
    if text is None:
        text = version.encode() + b"\n" + (rules or b"")
    return bytes(p) + text[:MAX_PAYLOAD - 17]


def messages(rand):
    """Messages of the link match with adversarial contents (DATA's
    payload once delivered): commitments, reveals and moves wrong in every
    field, and kinds no board sends."""
    c = rand.bytes(32)
    out = [b"", b"C", b"C\x00", b"C\x01", b"C\x02" + c, b"C\x00" + c + b"x", b"C\x00" + c[:31],
           b"S", b"S" + rand.bytes(15), b"S" + rand.bytes(17), b"S" + rand.bytes(16),
           b"M", b"M\x00", b"M\x00\x00", b"M\x00\x00draw_stock", b"M\x00\x00draw_stoc\xc3\xa9",
           b"M\x00\x00\xff\xfe", b"M\x00\x00discard:\xc3\xa9", b"M\x00\x00draw_upcard:" + SPOOF,
           b"M\x00\x00draw_upcard:Zz", b"M\x00\x00knock:Td ", b"M\xff\xffpass",
           b"M\x00\x00" + b"discard:Td" * 19, b"X" + SPOOF, b"\x00" * MAX_PAYLOAD]
    for n in (1, 2, 3, 34, 200):
        out.append(rand.bytes(n))
    return out


class Honest:
    """The honest board: its App, its storage (a match against the CPU
    saved before LINK), its buttons pressed on the shared clock."""

    def __init__(self, clock, port, seed, files=None):
        self.clock = clock
        self.port = port
        self.seed = seed
        self.mask = 0
        self.boots = 0
        self.storage = MemStorage(files)
        self.boot()
        if files is None:
            self.press(btn.A)                  # the title: NEW MATCH
            self.run(400)
            for k in CUT_KEYS:                 # its commitment, the cut: dealt
                self.press(KEY_BITS[k])
            self.run(400)
            assert self.app.match is not None, self.app.screen_name
            self.app.saving.save_match()
            self.app.go("title")
            self.run(50)
        self.cpu = self.storage.files.get(CPU_SAVE)

    def boot(self):
        self.boots += 1
        self.app = App(Ports(SSD1306(CountingBus()), Buttons(self.read), self.clock,
                             self.storage, seed=self.seed,
                             entropy=fl.entropy(self.seed * 97 + self.boots),
                             link_port=lambda: self.port))
        self.app.start()

    def read(self):
        return self.mask

    def run(self, ms):
        end = self.clock.t + ms
        while self.clock.t < end:
            self.step()

    def step(self):
        self.app.step()
        self.clock.advance(STEP_MS)

    def press(self, bit):
        self.mask = bit
        self.run(60)
        self.mask = 0
        self.run(40)

    def link(self):
        """LINK from the title."""
        if self.app.screen_name != "title":
            self.app.go("title")
            self.run(20)
        from firmware.link.linkstart import start

        start(self.app)
        self.run(20)

    def session(self):
        s = self.app.session
        return s if s.kind == "link" else None


class Peer:
    """The hostile end: a link of its own (to reach each stage) and a
    writer of raw frames."""

    def __init__(self, clock, port, seed, rules):
        self.clock = clock
        self.port = port
        self.rand = fl.Rand(seed)
        self.rules = rules
        self.writer = Writer()
        self.frames = 0
        self.boots = 0
        self.restart()

    def restart(self):
        """A new link and a new secret: the peer as if switched off and on
        with nothing saved."""
        self.boots += 1
        self.port.rx.flush()           # a board that boots hears nothing on the way
        self.link = lk.Link(self.port, self.clock, self.rand.bytes, VERSION, self.rules)
        self.secret = self.rand.bytes(16)
        self.deal = None
        self.role = None
        self.revealed = None           # the honest board's secret, once sent

    def raw(self, kind, ses, seq, payload):
        n = self.writer.frame(kind, ses, seq, payload)
        self.port.write(memoryview(self.writer.out)[:n])
        self.frames += 1

    def send(self, message):
        self.link.send(message)
        self.frames += 1

    def step(self, reveal=False):
        """Poll; once linked, claim role 0 with a commitment; take the honest
        board's; reveal this secret only when `reveal`."""
        link = self.link
        link.poll()
        if link.linked() and self.role is None:
            self.role = 0
            self.deal = linkdeal.Deal(0, self.secret)
            link.send(b"C\x00" + self.deal.commitment())
        m = link.recv()
        if m is not None and self.deal is not None:
            if m[:1] == b"C":
                self.deal.take_commitment(m[2:])
            elif m[:1] == b"S":
                self.revealed = bytes(m[1:])
                self.deal.take_reveal(m[1:])
        if reveal and self.revealed is not None and self.deal is not None and self.deal.done():
            link.send(b"S" + self.secret)
            self.deal = None


class Case:
    """One honest board against one peer on a fresh cable."""

    def __init__(self, seed, files):
        self.clock = fl.Clock()
        ab = fl.Wire(self.clock, fl.Rand(seed + 1), 0)
        ba = fl.Wire(self.clock, fl.Rand(seed + 2), 0)
        self.honest = Honest(self.clock, fl.Port(ab, ba), seed, files)
        rules = self.honest.app.settings.match_rules().text()
        self.peer = Peer(self.clock, fl.Port(ba, ab), seed + 3, rules)

    def run(self, ms, reveal=False):
        end = self.clock.t + ms
        while self.clock.t < end:
            self.honest.app.step()
            self.peer.step(reveal)
            self.clock.advance(STEP_MS)

    def reach(self, stage):
        """LINK on the honest board, then the peer takes it to `stage`;
        False when it did not get there."""
        self.honest.link()
        if stage == "looking":
            return self.honest.session() is not None
        for _ in range(400):
            self.run(STEP_MS, reveal=stage == "playing")
            g = self.honest.session()
            if stage == "dealing" and g is not None and g.theirs is not None \
                    and self.peer.revealed is not None:
                return True
            if stage == "playing" and self.honest.app.screen_name == "link_play":
                return g.match.to_move == 1
        return False


class Tally:
    def __init__(self):
        self.cases = 0
        self.frames = 0
        self.exceptions = 0
        self.redeals = 0
        self.spoofed = 0
        self.saves_changed = 0
        self.forfeits = 0
        self.resumed = 0
        self.unreached = 0
        self.first = []

    def line(self):
        return ("%d cases, %d frames tried: %d exceptions, %d re-deals after a reveal, "
                "%d spoofed words shown as the board's own, %d CPU saves changed; "
                "%d deals resumed, %d forfeits counted; %d cases short of their stage" % (
                    self.cases, self.frames, self.exceptions, self.redeals, self.spoofed,
                    self.saves_changed, self.resumed, self.forfeits, self.unreached))

    def failed(self, what, e):
        self.exceptions += 1
        if len(self.first) < 5:
            self.first.append("%s: %r" % (what, e))


def judge(case, tally, bound_before=None):
    """The honest board after a case: its words, its deal, its saves."""
    h = case.honest
    g = h.session()
    if g is not None:
        w = g.words()
        if lk.WORDS_PEER[:20] not in w and ("Press A to deal again" in w or SPOOF.decode() in w):
            tally.spoofed += 1
        if bound_before is not None:
            secret, theirs, forfeits = bound_before
            if g.secret != secret and g.stats.forfeits == forfeits:
                tally.redeals += 1       # a fresh secret in place of a revealed one
    # back to the title: the match against the CPU comes back as it was
    h.app.go("title")
    h.run(20)
    if h.storage.files.get(CPU_SAVE) != h.cpu:
        tally.saves_changed += 1


def start(seed, files, stage, tally):
    """A fresh case taken to `stage`, counted; None when it did not get
    there (counted as short of it, or as an exception)."""
    tally.cases += 1
    try:
        case = Case(seed, files)
        if case.reach(stage):
            return case
        tally.unreached += 1
    except Exception as e:
        tally.failed("reaching %s" % stage, e)
    return None


def bound_state(case):
    g = case.honest.session()
    if g is not None and g.bound():
        return (g.secret, g.theirs, g.stats.forfeits)
    return None


def attacks(seed=1, files=None, tally=None, stages=STAGES, out=None):
    """Every frame type and every message with adversarial payloads, at
    every stage (the module's docstring)."""
    tally = tally or Tally()
    rand = fl.Rand(seed)
    if files is None:
        files = Honest(fl.Clock(), fl.SilentPort(), seed).storage.files
    for stage in stages:
        plan = []
        for kind in KINDS:
            for p in payloads(rand):
                plan.append(("raw", kind, p))
        for m in messages(rand):
            plan.append(("msg", None, m))
        for t in ((0, 0xFFFF), (5, 0xFFFF), (0, 0), (1 << 23, 1234)):
            plan.append(("turns", t, None))
        for which, kind, p in plan:
            case = start(seed, files, stage, tally)
            seed += 1
            if case is None:
                continue
            try:
                before = bound_state(case)
                g = case.honest.session()
                link = g.link
                if which == "raw":
                    use_ses = kind in (lk.DATA, lk.ACK, lk.PING)
                    case.peer.raw(kind, link.ses if use_ses else 0,
                                  link.got & 255 if kind == lk.DATA else 0, p)
                elif which == "msg":
                    case.peer.send(p)
                else:
                    turns, check = kind
                    case.peer.raw(lk.HELLO, 0, 0, hello(
                        rules=case.peer.rules.encode(), turns=turns, check=check,
                        nonce=case.peer.rand.bytes(4), heard=link.nonce, got=link.got))
                case.run(600)
                judge(case, tally, before)
            except Exception as e:   # counted, never raised: the campaign goes on
                tally.failed("%s %s %r" % (stage, which, p if p is None else p[:12]), e)
            tally.frames += case.peer.frames
    if out:
        out("attacks: " + tally.line())
    return tally


def reveal_abort(seed=1, rounds=12, files=None, tally=None, out=None):
    """The peer sees the honest board's secret, then aborts, again and
    again; the honest player takes LINK up again (the same deal) or ends
    the link match with A (the other board's forfeit)."""
    tally = tally or Tally()
    if files is None:
        files = Honest(fl.Clock(), fl.SilentPort(), seed).storage.files
    case = Case(seed, files)
    h = case.honest
    peer = case.peer
    try:
        for k in range(rounds):
            tally.cases += 1
            if h.session() is None:
                h.link()
            for _ in range(400):
                case.run(STEP_MS)
                if peer.revealed is not None:
                    break
            g = h.session()
            if peer.revealed is None or g is None or not g.bound():
                tally.unreached += 1
                peer.restart()
                continue
            bound = bound_state(case)
            how = k % 5
            if how == 0:                  # REFUSE, with words that pass for the board's
                peer.raw(lk.REFUSE, 0, 0, SPOOF)
            elif how == 1:                # another commitment: a new deal wanted
                peer.send(b"C\x00" + linkdeal.Deal(0, peer.rand.bytes(16)).commitment())
            elif how == 2:                # a reveal that does not match
                peer.send(b"S" + peer.rand.bytes(16))
            elif how == 3:                # a restart into a new link match
                peer.restart()
            case.run(1500)                # (4: silence)
            g = h.session()
            if g is not None and g.secret != bound[0] and g.stats.forfeits == bound[2]:
                tally.redeals += 1
            judge_words(case, tally)
            if k % 2 == 0:
                # B, the title, LINK again (every other time after a power
                # cut: a new App from the saves): the same deal comes back
                if k % 4 == 2:
                    h.boot()
                else:
                    h.app.go("title")
                    h.run(20)
                if h.storage.files.get(CPU_SAVE) != h.cpu:
                    tally.saves_changed += 1
                h.link()
                g = h.session()
                if g.secret == bound[0] and g.theirs == bound[1]:
                    tally.resumed += 1
                else:
                    tally.redeals += 1
                # the peer tries again with another secret: it must reveal
                # the one it committed to, which it no longer has
                peer.restart()
                case.run(1500)
                g = h.session()
                if g.secret != bound[0] and g.stats.forfeits == bound[2]:
                    tally.redeals += 1
            if h.app.screen_name != "link":
                h.app.go("link")
                h.run(20)
            g = h.session()
            f = g.stats.forfeits
            h.press(btn.A)                # A on the link screen: END
            g = h.session()
            if g.stats.forfeits == f + 1 and g.theirs is None and not g.bound():
                tally.forfeits += 1
            elif g.secret != bound[0]:
                tally.redeals += 1        # a fresh secret, no forfeit counted
            peer.restart()
    except Exception as e:
        tally.failed("reveal_abort round %d" % tally.cases, e)
    tally.frames += peer.frames
    h.app.go("title")
    h.run(20)
    if h.storage.files.get(CPU_SAVE) != h.cpu:
        tally.saves_changed += 1
    if out:
        out("reveal then abort: " + tally.line())
    return tally


def judge_words(case, tally):
    g = case.honest.session()
    if g is None:
        return
    w = g.words()
    if SPOOF.decode() in w and not w.startswith(lk.WORDS_PEER):
        tally.spoofed += 1


def fuzz(seed=1, n=200, files=None, tally=None, out=None, frames=None):
    """Random bytes and random frames with a right CRC into the honest
    board, at every stage: n cases of up to 12 frames each (`frames`: a
    list of (stage, [(raw bytes or None, kind, ses?, seq?, payload)...]),
    hypothesis's, instead of the seeded draw)."""
    tally = tally or Tally()
    rand = fl.Rand(seed)
    if files is None:
        files = Honest(fl.Clock(), fl.SilentPort(), seed).storage.files
    cases = frames
    if cases is None:
        cases = []
        for i in range(n):
            fs = []
            for _ in range(1 + rand.below(12)):
                if rand.below(4) == 0:
                    fs.append((rand.bytes(1 + rand.below(300)), 0, 0, 0, b""))
                else:
                    kind = KINDS[rand.below(len(KINDS))] if rand.below(4) else rand.below(256)
                    size = (0, 1, 2, 16, 17, 33, 199, 200)[rand.below(8)] if rand.below(2) \
                        else rand.below(MAX_PAYLOAD + 1)
                    head = (b"", b"C", b"C\x00", b"C\x01", b"S", b"M\x00\x00", b"M")[rand.below(7)]
                    fs.append((None, kind, rand.below(2), rand.below(2),
                               (head + rand.bytes(size))[:MAX_PAYLOAD]))
            cases.append((STAGES[i % 3], fs))
    for stage, fs in cases:
        case = start(seed, files, stage, tally)
        seed += 1
        if case is None:
            continue
        try:
            before = bound_state(case)
            for raw, kind, ses, seq, p in fs:
                link = case.honest.session().link if case.honest.session() else None
                if raw is not None:
                    case.peer.port.write(raw)
                    tally.frames += 1
                elif link is not None:
                    case.peer.raw(kind, link.ses if ses else rand.below(256),
                                  link.got & 255 if seq else rand.below(256), p)
                case.run(40)
            case.run(400)
            judge(case, tally, before)
        except Exception as e:
            tally.failed("fuzz %s" % stage, e)
        tally.frames += case.peer.frames
    if out:
        out("receive fuzz: " + tally.line())
    return tally


def main(argv):
    seed = 1
    n = 300
    only = None
    i = 0
    while i < len(argv):
        if argv[i] == "--only":
            only = argv[i + 1]
            i += 1
        elif argv[i] == "--seed":
            seed = int(argv[i + 1])
            i += 1
        elif argv[i] == "--fuzz":
            n = int(argv[i + 1])
            i += 1
        i += 1
    files = Honest(fl.Clock(), fl.SilentPort(), seed).storage.files
    total = Tally()
    for name, fn in (("attacks", lambda t: attacks(seed, files, t)),
                     ("reveal then abort", lambda t: reveal_abort(seed, 12, files, t)),
                     ("receive fuzz", lambda t: fuzz(seed, n, files, t))):
        if only is not None and not name.startswith(only):
            continue
        t = Tally()
        fn(t)
        print("%-18s %s" % (name + ":", t.line()))
        for f in t.first:
            print("  first exceptions: %s" % f)
        for k in ("cases", "frames", "exceptions", "redeals", "spoofed", "saves_changed",
                  "forfeits", "resumed", "unreached"):
            setattr(total, k, getattr(total, k) + getattr(t, k))
    print("total: " + total.line())
    return total


if __name__ == "__main__":
    main(sys.argv[1:])
