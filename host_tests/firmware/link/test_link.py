"""The link protocol (firmware/link/linkframe.py, firmware/link/link.py): frames that
survive a real cable, each message delivered once and in order, words for
every state the screen shows.

Plain functions with asserts: pytest collects them on CPython and
host_tests/runner.py runs the same file on the MicroPython unix port
(test_link_faults.py). The fake cable and clock are tools/link/fakelink.py.
"""

from engine.rules import Rules
from engine.version import VERSION
from firmware.link import link as lk
from firmware.link.linkframe import FLAG, MAX_PAYLOAD, Reader, Writer, crc16
from tools.link import fakelink as fl

RULES = Rules().text()


# ---- frames ------------------------------------------------------------------

def frame_bytes(kind, ses, seq, payload):
    w = Writer()
    n = w.frame(kind, ses, seq, payload)
    return bytes(w.out[:n])


def read_all(data):
    r = Reader()
    out = []
    for b in data:
        if r.feed(b):
            out.append((r.kind, r.ses, r.seq, bytes(r.buf[4:4 + r.size])))
    return out, r


def test_crc16_is_ccitt_false():
    assert crc16(b"123456789", 9) == 0x29B1
    assert crc16(b"", 0) == 0xFFFF
    assert crc16(b"6789", 4, crc16(b"12345", 5)) == 0x29B1   # chained


def test_a_frame_reads_back_with_flag_and_escape_bytes_in_it():
    payload = bytes([FLAG, 0x7D, 0x5E, 0, 255]) * 3
    data = frame_bytes(0x44, 0x7E, 0x7D, payload)
    assert data[0] == FLAG and FLAG not in data[1:]
    got, r = read_all(data)
    assert got == [(0x44, 0x7E, 0x7D, payload)]
    assert r.bad == 0 and r.noise == 0


def test_the_largest_payload_fits_and_a_larger_one_is_refused():
    p = bytes(range(MAX_PAYLOAD))
    assert read_all(frame_bytes(1, 2, 3, p))[0] == [(1, 2, 3, p)]
    try:
        frame_bytes(1, 2, 3, p + b"x")
    except ValueError:
        return
    assert False, "a payload over MAX_PAYLOAD was framed"


def test_garbage_between_frames_is_skipped():
    a = frame_bytes(0x44, 1, 0, b"one")
    b = frame_bytes(0x44, 1, 1, b"two")
    got, r = read_all(b"\x00\x13garbage\xff" + a + b"\x7d\x7d\x01" + b)
    assert [g[3] for g in got] == [b"one", b"two"]
    assert r.noise > 0


def test_a_frame_cut_short_costs_only_itself():
    a = frame_bytes(0x44, 1, 0, b"first message")
    b = frame_bytes(0x44, 1, 1, b"second")
    got, r = read_all(a[:7] + b)
    assert [g[3] for g in got] == [b"second"]
    assert r.bad == 1


def test_a_flipped_bit_anywhere_is_caught_and_the_next_frame_reads():
    a = frame_bytes(0x44, 9, 4, b"turn 17: D7S")
    b = frame_bytes(0x41, 9, 4, b"")
    for i in range(1, len(a)):
        for bit in (0, 3, 7):
            bad = bytearray(a)
            bad[i] ^= 1 << bit
            got, r = read_all(bytes(bad) + b)
            assert got[-1] == (0x41, 9, 4, b""), (i, bit)
            assert b"turn 17: D7S" not in [g[3] for g in got], (i, bit)


def test_an_impossible_length_is_dropped_at_once():
    w = Writer()
    n = w.frame(0x44, 0, 0, b"ok")
    data = bytearray(w.out[:n])
    data[4] = MAX_PAYLOAD + 1        # the LEN byte (not stuffed here)
    got, r = read_all(bytes(data) + frame_bytes(0x44, 0, 1, b"next"))
    assert [g[3] for g in got] == [b"next"] and r.bad == 1


# ---- two boards over a clean cable --------------------------------------------

def pair(rules_b=RULES, version_b=VERSION, seed=1):
    clock = fl.Clock()
    ab = fl.Wire(clock, fl.Rand(seed))
    ba = fl.Wire(clock, fl.Rand(seed + 1))
    a = lk.Link(fl.Port(ab, ba), clock, fl.entropy(seed + 2), VERSION, RULES)
    b = lk.Link(fl.Port(ba, ab), clock, fl.entropy(seed + 3), version_b, rules_b)
    return clock, ab, ba, a, b


def run(clock, links, ms, step=5):
    for _ in range(ms // step):
        for x in links:
            x.poll()
        clock.advance(step)


def test_the_boards_link_and_exactly_one_leads():
    clock, ab, ba, a, b = pair()
    assert a.status == lk.CONNECTING and a.words() == lk.WORDS_LOOKING
    run(clock, (a, b), 100)
    assert a.linked() and b.linked()
    assert a.leader() != b.leader()
    assert a.words() == lk.WORDS_LINKED


def test_messages_arrive_in_order_both_ways():
    clock, ab, ba, a, b = pair()
    for i in range(5):
        a.send(("a%d" % i).encode())
        b.send(("b%d" % i).encode())
    got_a, got_b = [], []
    for _ in range(400):
        a.poll()
        b.poll()
        for x, got in ((a, got_a), (b, got_b)):
            m = x.recv()
            if m is not None:
                got.append(m)
        clock.advance(5)
    assert got_b == [("a%d" % i).encode() for i in range(5)]
    assert got_a == [("b%d" % i).encode() for i in range(5)]
    assert a.idle() and b.idle() and a.resent == 0


def test_a_different_version_is_refused_on_both_boards_with_words():
    clock, ab, ba, a, b = pair(version_b="9.9.9")
    run(clock, (a, b), 1000)
    assert a.status == lk.REFUSED and b.status == lk.REFUSED
    assert "version 9.9.9" in a.words() and "this one " + VERSION in a.words()
    assert "version " + VERSION in b.words() and "this one 9.9.9" in b.words()
    assert a.send(b"x") == 0 and not a.recv()


def test_different_rules_are_refused_naming_the_first_field_that_differs():
    other = Rules(target=250).text()
    clock, ab, ba, a, b = pair(rules_b=other)
    run(clock, (a, b), 1000)
    assert a.status == lk.REFUSED and b.status == lk.REFUSED
    assert a.words() == "Rules differ: target=100 here, target=250 there. Pick the same on both."


def test_a_board_that_hears_itself_says_so():
    clock = fl.Clock()
    w = fl.Wire(clock, fl.Rand(1))
    a = lk.Link(fl.Port(w, w), clock, fl.entropy(5), VERSION, RULES)
    run(clock, (a,), 100)
    assert a.status == lk.REFUSED and a.words() == lk.WORDS_ECHO


def test_a_pulled_cable_is_lost_within_lost_ms_and_links_again_when_back():
    clock, ab, ba, a, b = pair()
    run(clock, (a, b), 100)
    a.send(b"in flight")
    ab.cut_cable(True)
    ba.cut_cable(True)
    run(clock, (a, b), lk.LOST_MS + 100)
    assert a.status == lk.LOST and b.status == lk.LOST
    assert a.words() == lk.WORDS_LOST and b.words() == lk.WORDS_LOST
    ab.cut_cable(False)
    ba.cut_cable(False)
    run(clock, (a, b), lk.KEEPALIVE_MS + 300)
    assert a.linked() and b.linked()
    assert b.recv() == b"in flight"


def test_only_noise_is_said_as_noise():
    clock, ab, ba, a, b = pair()
    run(clock, (a, b), 100)
    ab.cut_cable(True)
    ba.cut_cable(True)
    run(clock, (a, b), lk.LOST_MS + 100)
    for _ in range(20):
        a.port.rx.queue.append([0, b"\x00\x55\xaa\x7e\x01\x02" * 4])
        run(clock, (a,), 10)
    assert a.status == lk.LOST and a.words() == lk.WORDS_NOISE


def test_a_peer_that_does_not_take_the_move_is_said_stalled_not_lost():
    clock, ab, ba, a, b = pair()
    run(clock, (a, b), 100)
    a.send(b"your turn")
    run(clock, (a, b), lk.STALL_MS + 500)   # b polls, never calls recv()
    assert a.status == lk.LINKED and a.stalled()
    assert a.words() == lk.WORDS_STALLED
    assert b.recv() == b"your turn"
    run(clock, (a, b), 100)
    assert a.idle() and a.words() == lk.WORDS_LINKED


def test_a_copy_of_a_taken_message_is_acknowledged_never_delivered_again():
    clock, ab, ba, a, b = pair()
    run(clock, (a, b), 100)
    a.send(b"once")
    copies = []
    orig = ab.write

    def keep(buf):
        copies.append(bytes(buf))
        return orig(buf)
    ab.write = keep
    run(clock, (a, b), 20)
    assert b.recv() == b"once"
    run(clock, (a, b), 50)
    assert a.idle()
    for c in copies:                  # every frame a sent, again, late
        ab.queue.append([clock.t, c])
    run(clock, (a, b), 50)
    assert b.recv() is None and b.dups >= 1 and b.got == 1


def test_the_ack_waits_for_recv_so_a_save_holds_every_acknowledged_message():
    clock, ab, ba, a, b = pair()
    run(clock, (a, b), 100)
    a.send(b"m")
    run(clock, (a, b), 200)
    assert not a.idle()               # arrived, not taken: not acknowledged
    assert b.recv() == b"m"
    assert b.state() == (1, 0, ())    # saved here, before the next poll
    run(clock, (a, b), 20)
    assert a.idle()


def restart(clock, port, saved, seed, lookup=None):
    return lk.Link(port, clock, fl.entropy(seed), VERSION, RULES, saved=saved, lookup=lookup)


def test_a_restarted_board_resends_what_was_not_acknowledged_and_nothing_twice():
    clock, ab, ba, a, b = pair()
    run(clock, (a, b), 100)
    a.send(b"m0")
    run(clock, (a, b), 20)
    assert b.recv() == b"m0"
    run(clock, (a, b), 20)
    a.send(b"m1")
    saved = a.state()                 # a saves, then its power is cut
    assert saved == (0, 2, (b"m1",))
    a = restart(clock, a.port, saved, 77)
    got = []
    for _ in range(300):
        a.poll()
        b.poll()
        m = b.recv()
        if m is not None:
            got.append(m)
        clock.advance(5)
    assert got == [b"m1"] and a.linked() and b.linked() and a.idle()


def test_a_board_restarted_from_an_older_save_gets_the_acknowledged_messages_again():
    clock, ab, ba, a, b = pair()
    run(clock, (a, b), 100)
    sent = [b"m0", b"m1", b"m2"]
    old = b.state()
    for m in sent:
        a.send(m)
        run(clock, (a, b), 30)
        assert b.recv() == m
    run(clock, (a, b), 30)
    assert a.idle()
    a.lookup = lambda n: sent[n] if n < len(sent) else None
    b = restart(clock, b.port, old, 78)   # b's newest save was lost
    got = []
    for _ in range(300):
        a.poll()
        b.poll()
        m = b.recv()
        if m is not None:
            got.append(m)
        clock.advance(5)
    assert got == sent


def test_without_the_older_messages_the_restart_is_refused_with_words():
    clock, ab, ba, a, b = pair()
    run(clock, (a, b), 100)
    old = b.state()
    a.send(b"m0")
    run(clock, (a, b), 30)
    assert b.recv() == b"m0"
    run(clock, (a, b), 30)
    b = restart(clock, b.port, old, 79)
    run(clock, (a, b), 1500)
    assert a.status == lk.REFUSED and "lost moves" in a.words()
    assert b.status == lk.REFUSED and b.words().startswith("The other board stopped the link")


def test_messages_the_other_holds_but_this_save_lost_are_skipped_not_resent():
    clock, ab, ba, a, b = pair()
    run(clock, (a, b), 100)
    old = a.state()
    a.send(b"m0")
    run(clock, (a, b), 30)
    assert b.recv() == b"m0"
    run(clock, (a, b), 30)
    a = restart(clock, a.port, old, 80)   # a's save before it sent m0
    run(clock, (a, b), 200)
    assert a.linked() and a.skipped == 1
    assert a.send(b"m1") == 1             # numbered after what b holds
    run(clock, (a, b), 100)
    assert b.recv() == b"m1"


def test_the_turns_each_board_holds_travel_in_hello_and_resume_says_what_to_do():
    clock, ab, ba, a, b = pair()
    turns = [b"D7S", b"DISC KH", b"P", b"KNOCK"]
    checks = [0xFFFF]
    for t in turns:
        checks.append(lk.turn_check(checks[-1], t))
    def at(n):
        return checks[n]

    a.hold(4, checks[4])
    b.hold(3, checks[3])
    run(clock, (a, b), 100)
    assert (b.peer_turns, b.peer_check) == (4, checks[4])
    assert lk.resume(4, at, a.peer_turns, a.peer_check) == ("send", 3)
    assert lk.resume(3, at, b.peer_turns, b.peer_check) == ("wait", 3)
    assert lk.resume(3, at, 3, checks[3]) == ("even", 3)
    what, words = lk.resume(4, at, 3, checks[3] ^ 1)
    assert what == "differ" and "differ" in words


def test_poll_reads_a_bounded_amount_whatever_floods_in():
    clock, ab, ba, a, b = pair()
    ba.queue.append([0, b"\x55" * 100000])
    a.poll()
    assert ba.ready() == 100000 - lk.RX_BUDGET


def test_timeouts_hold_across_the_clock_wrap():
    clock, ab, ba, a, b = pair()
    assert clock() > fl.MASK - 5000       # the fake clock starts just before 2**30
    run(clock, (a, b), 100)
    ab.cut_cable(True)
    ba.cut_cable(True)
    run(clock, (a, b), 6000)              # wraps meanwhile
    assert clock() < 5000 and a.status == lk.LOST


# ---- whole exchanges under every fault kind (fewer on MicroPython) -------------

def campaign(kinds, seeds, rate=350, **kw):
    for seed in seeds:
        r = fl.match(seed, n=12, rate=rate, kinds=kinds, **kw)
        once, lost, dup, order = fl.tally(r)
        assert not r["hung"], (kinds, seed, kw)
        assert (once, lost, dup, order) == (24, 0, 0, 0), (kinds, seed, kw)


def test_every_message_once_and_in_order_under_each_fault_kind():
    for kind in fl.KINDS:
        campaign((kind,), range(4))


def test_every_message_once_through_a_cable_cut():
    campaign(fl.KINDS, range(4), rate=100, cable_cut=True)


def test_every_message_once_when_boards_restart_from_their_saves():
    campaign(fl.KINDS, range(4), rate=100, restarts=3)


# ---- the deal, over the link ---------------------------------------------------

def deal_over_link(seed, rate, cheat=False):
    """Both boards make the match secret over a faulty cable: commitment
    first ("C"), the secret ("R") once the other's commitment is held.
    cheat: board b reveals another secret than the one it committed to.
    Returns (a's Deal, b's Deal)."""
    from engine.linkdeal import Deal

    clock = fl.Clock()
    ab = fl.Wire(clock, fl.Rand(seed), rate)
    ba = fl.Wire(clock, fl.Rand(seed + 1), rate)
    a = lk.Link(fl.Port(ab, ba), clock, fl.entropy(seed + 2), VERSION, RULES)
    b = lk.Link(fl.Port(ba, ab), clock, fl.entropy(seed + 3), VERSION, RULES)
    boards = [[a, None, fl.entropy(seed + 4)(16)], [b, None, fl.entropy(seed + 5)(16)]]
    for _ in range(20000):
        for i in range(2):
            x = boards[i]
            lnk = x[0]
            lnk.poll()
            if x[1] is None and lnk.linked():
                x[1] = Deal(0 if lnk.leader() else 1, x[2])
                lnk.send(b"C" + x[1].commitment())
            m = lnk.recv()
            if m is None or x[1] is None:
                continue
            d = x[1]
            if m[:1] == b"C" and d.take_commitment(m[1:]) is None:
                secret = d.reveal()
                if cheat and i == 1:
                    secret = fl.entropy(seed + 99)(16)
                lnk.send(b"R" + secret)
            elif m[:1] == b"R":
                d.take_reveal(m[1:])
        if boards[0][1] and boards[1][1] and (
                boards[0][1].done() or boards[0][1].refused) and (
                boards[1][1].done() or boards[1][1].refused) and a.idle() and b.idle():
            break
        clock.advance(5)
    return boards[0][1], boards[1][1]


def test_the_deal_made_over_a_faulty_link_gives_both_boards_the_same_secret():
    for seed in range(6):
        da, db = deal_over_link(seed, 300)
        assert da.done() and db.done(), seed
        assert da.role != db.role
        assert da.secret() == db.secret(), seed


def test_a_board_that_reveals_another_secret_over_the_link_is_refused():
    from engine import linkdeal

    da, db = deal_over_link(3, 200, cheat=True)
    assert da.refused == linkdeal.WORDS_MISMATCH and not da.done()
