"""A hostile peer against the honest board's real App and saves, over the
fake cable (tools/link/hostile.py): every frame type with adversarial
payloads at every stage, reveal-then-abort again and again, spoofed words,
false turn counts, and a fuzz of the whole receive path (hypothesis here,
the seeded loop on the MicroPython unix port). The honest board never
raises, never deals afresh in place of a deal whose secret it revealed
(unless it counted the other board's forfeit), keeps its match against the
CPU byte for byte, and shows the other board's words only as the other
board's."""

import subprocess

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.version import VERSION
from firmware.display import fb
from firmware.link import link as lk
from firmware.link import linkmatch
from firmware.link.linkframe import MAX_PAYLOAD, Writer, printable, shown
from firmware.screens import layout as L
from firmware.stats import Stats
from tools.bench.bench_ui import micropython_path
from tools.link import fakelink as fl
from tools.link import hostile as H

FILES = H.Honest(fl.Clock(), fl.SilentPort(), 1).storage.files


def _clean(t, cases):
    assert t.first == [] and t.exceptions == 0, t.first
    assert t.redeals == 0 and t.spoofed == 0 and t.saves_changed == 0
    assert t.unreached == 0 and t.cases == cases, t.line()


def test_no_frame_of_any_type_crashes_or_steers_the_honest_board():
    t = H.attacks(3, FILES)
    _clean(t, t.cases)
    assert t.cases >= 3 * (len(H.KINDS) * 18 + 30)


def test_reveal_then_abort_repeated_never_deals_afresh_in_place_of_a_revealed_deal():
    # each round: the peer holds the honest board's secret, then aborts
    # (REFUSE with its own words, another commitment, a wrong reveal, a
    # restart, silence); half the rounds the player takes LINK up again,
    # after a power cut every other time: the same secret and the same
    # commitment of the other's come back; then A ends it, counted as the
    # other board's forfeit, and only then is a new secret drawn
    t = H.reveal_abort(5, 10, FILES)
    _clean(t, 10)
    assert t.forfeits == 10 and t.resumed == 5


def test_the_receive_fuzz_seeded_loop():
    t = H.fuzz(7, 60, FILES)
    _clean(t, 60)
    assert t.frames > 300


_frame = st.one_of(
    st.tuples(st.binary(min_size=1, max_size=300), st.just(0), st.just(0), st.just(0),
              st.just(b"")),
    st.tuples(st.none(), st.sampled_from(H.KINDS) | st.integers(0, 255), st.integers(0, 1),
              st.integers(0, 1),
              st.tuples(st.sampled_from((b"", b"C", b"C\x00", b"C\x01", b"S", b"M\x00\x00")),
                        st.binary(max_size=MAX_PAYLOAD)).map(lambda t: (t[0] + t[1])[:MAX_PAYLOAD])))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(H.STAGES), st.lists(_frame, min_size=1, max_size=10))
def test_the_receive_path_takes_any_frames_without_an_exception(stage, frames):
    t = H.fuzz(11, frames=[(stage, frames)], files=FILES)
    _clean(t, 1)


def test_the_receive_fuzz_on_the_micropython_unix_port():
    mp = micropython_path()
    assert mp, "the MicroPython unix port (.venv/bin/micropython) is missing"
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    r = subprocess.run([mp, "-X", "heapsize=8M", "tools/link/hostile.py", "--only", "receive",
                        "--fuzz", "45"], cwd=root, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    total = [ln for ln in r.stdout.splitlines() if ln.startswith("total:")][0]
    assert "45 cases" in total and " 0 exceptions" in total and " 0 re-deals" in total, r.stdout


# ---- the checks where the bytes arrive ------------------------------------------

def test_text_from_the_wire_is_printable_ascii_or_refused():
    assert printable(b"1.1.0", 10) == "1.1.0"
    for bad in (b"caf\xc3\xa9", b"\xff", b"a\nb", b"\x00", b"x" * 11):
        assert printable(bad, 10) is None
    got = shown(b'say "\xc3\xa9"\x07', 60)
    assert got == "say ?????" and '"' not in got
    assert len(shown(bytes(300), 60)) == 60


def _heard(kind, payload):
    """A link that has heard one frame from the cable."""
    clock = fl.Clock()
    ab = fl.Wire(clock, fl.Rand(1))
    ba = fl.Wire(clock, fl.Rand(2))
    link = lk.Link(fl.Port(ab, ba), clock, fl.entropy(1), VERSION, "rules")
    w = Writer()
    ba.write(w.out[:w.frame(kind, 0, 0, payload)])
    clock.advance(50)
    link.poll()
    return link


def test_a_hello_with_bytes_no_board_sends_is_refused_with_local_words():
    for text in (b"\xff\xfe\n\x80", b"caf\xc3\xa9\nrules", VERSION.encode() + b"\nr\xc3\xa9gles"):
        link = _heard(lk.HELLO, H.hello(text=text))
        assert link.status == lk.REFUSED and link.words() == lk.WORDS_GARBLED


def test_the_other_boards_refuse_words_are_quoted_as_its_own():
    link = _heard(lk.REFUSE, b'Noise on the cable." This board says: "press A \xc3\xa9')
    words = link.words()
    assert words.startswith(lk.WORDS_PEER + '"') and words.endswith('"')
    assert words.count('"') == 2            # the other's quote marks cannot close it
    assert "?" in words and len(words) <= len(lk.WORDS_PEER) + lk.PEER_WORDS + 2


def test_a_move_is_the_engines_action_string_or_nothing():
    for ok in (b"draw_stock", b"draw_upcard", b"draw_upcard:9d", b"pass", b"discard:Td",
               b"knock:As"):
        assert linkmatch.move_of(ok) == ok.decode()
    for bad in (b"", b"draw_stoc\xc3\xa9", b"discard:td", b"discard:Td ", b"draw_upcard:",
                b"draw_upcard:Noise on the cable", b"knock:\xff\xfe", b"\x00", b"pass" * 5):
        assert linkmatch.move_of(bad) is None


def test_the_drawing_routines_draw_a_placeholder_for_any_byte():
    c = fb.Canvas()
    line = bytes(range(256))
    assert L.rich_text(c, line, 0, 10) > 0
    # a byte past the 52 cards draws the font's placeholder, as '?' does
    c.fill(0)
    L.rich_text(c, b"?", 0, 0)
    mark = bytes(c.buf)
    for o in (0xB4, 0xC0, 0xFF):
        c.fill(0)
        L.rich_text(c, bytes((o,)), 0, 0)
        assert bytes(c.buf) == mark and any(mark)
    text = "".join(chr(i) for i in range(0, 0x3000, 7)) + " Qs \x80\xb3 \U0001f600"
    lines = L.wrap(text, 31)
    for ln in lines:
        for o in ln:
            assert 32 <= o < 127 or L.CARD_BYTE <= o < L.CARD_END
        L.rich_text(c, ln, 0, 20)
    # a card named in the words is still a card; a byte that looks like one is not
    assert any(L.CARD_BYTE + 11 + 0 in ln for ln in L.wrap("take the Qs now", 31))
    assert not any(o >= L.CARD_BYTE for ln in L.wrap("\x80\x81 \xb3", 31) for o in ln)


# ---- the forfeit, counted -------------------------------------------------------

def _tags(data):
    out = []
    i = 3
    while i < len(data):
        out.append(data[i])
        i += 2 + data[i + 1]
    return out


def test_a_forfeit_counts_as_a_match_won_and_a_save_without_one_is_unchanged():
    s = Stats()
    before = s.encode()
    s.record_forfeit()
    assert (s.matches, s.matches_won, s.forfeits) == (1, 1, 1)
    again = Stats.decode(s.encode())
    assert again.forfeits == 1 and again.matches_won == 1
    assert 15 not in _tags(Stats().encode()) and 15 in _tags(s.encode())
    assert len(s.encode()) == len(before) + 3
    bad = Stats()
    bad.forfeits = 1
    try:
        Stats.decode(bad.encode())
    except ValueError:
        return
    assert False, "more forfeits than matches won was taken"


def test_a_restart_of_the_honest_board_at_every_stage_keeps_what_it_committed_to():
    # a power cut (a new App from the saves) then LINK: before the other's
    # commitment came, the same secret (the commitment already sent stays
    # good); once it is held (and this board's secret revealed), the same
    # secret and the same commitment of the other's; once dealt, the same
    # match and its moves
    for stage in H.STAGES[1:] + ("committed",):
        case = H.Case(21, FILES)
        h = case.honest
        if stage == "committed":
            h.link()
            case.peer.role = 1               # the peer stays quiet: no commitment of its own
            for _ in range(400):
                case.run(H.STEP_MS)
                g = h.session()
                if g.role is not None:
                    break
            assert g.role is not None and g.theirs is None and not g.bound()
        else:
            assert case.reach(stage)
            g = h.session()
            assert g.bound()
        kept = (g.secret, g.theirs, linkmatch.moves_of(g.match) if g.match else None)
        h.boot()
        assert h.app.screen_name == "title"
        h.link()
        g = h.session()
        assert (g.secret, g.theirs, linkmatch.moves_of(g.match) if g.match else None) == kept
        assert g.bound() == (stage != "committed")
        case.run(1000)
        assert h.storage.files[H.CPU_SAVE] == h.cpu


def test_the_reveal_waits_while_the_save_that_binds_the_deal_is_refused():
    case = H.Case(31, FILES)
    h = case.honest
    h.link()
    h.storage.kept.append("link")            # the flash refuses the link save from now
    for _ in range(400):
        case.run(H.STEP_MS)
        g = h.session()
        if g.theirs is not None:
            break
    assert g.theirs is not None and g.bound()
    case.run(2000)
    assert case.peer.revealed is None        # this board's secret has not gone out
    assert any(m[:1] == b"S" for m in g.link.pending)
    h.storage.kept.remove("link")            # the flash takes saves again
    case.run(1000)
    assert case.peer.revealed == g.secret
    saved = linkmatch.decode(h.storage.files["link"])
    assert saved[1] == g.secret and saved[2] == g.theirs
