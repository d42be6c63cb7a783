"""tools/records/replay.py --verify on a committed match's record, and
replay.py on files that are no game record (one line, exit status 2),
on CPython and the MicroPython unix port."""

import os
import subprocess
import sys

import pytest

import engine
from engine.deal import secret_from_int
from engine.sha256 import hex_text
from engine.cut import seal
from engine.version import VERSION

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPLAY = os.path.join(ROOT, "tools", "records", "replay.py")
MP = os.path.join(ROOT, ".venv", "bin", "micropython")
RUNTIMES = ["cpython"] + (["micropython"] if os.path.exists(MP) else [])


def run(args, runtime="cpython"):
    exe = sys.executable if runtime == "cpython" else MP
    return subprocess.run([exe, REPLAY] + args, capture_output=True, timeout=300,
                          stdin=subprocess.DEVNULL, cwd=ROOT)


def committed_match(hands=3, secret_n=99, **cut):
    """A committed match played by two easy AIs: `hands` hands (None: to
    its end); `cut` (cut=, level=): a match with a cut, of format 5."""
    from engine.ai import Player
    from tools.kit.play import play_out, players_choose

    m = engine.Match(None, 17, secret=secret_from_int(secret_n), ai_seed=5, **cut)
    play_out(m, players_choose((Player("easy", 1), Player("easy", 2))),
             stop=None if hands is None else lambda m: len(m.results) >= hands)
    return m


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    m = committed_match()
    p = tmp_path_factory.mktemp("rec") / "match.txt"
    p.write_text(engine.record_text(m))
    return m, p


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_verify_says_every_hand_verifies(record, runtime):
    m, p = record
    r = run(["--verify", str(p)], runtime)
    out = r.stdout.decode()
    assert r.returncode == 0, out
    lines = [ln for ln in out.splitlines() if not ln.startswith("note: ")]
    assert len(lines) == len(m.hands) + 1
    for i in range(len(m.hands)):
        assert lines[i].startswith("hand %d: commitment %s... = SHA-256(the commitment before "
                                   "it, hand %d, seed, nonce): verified"
                                   % (i + 1, m.hands[i].commit, i + 1)), lines[i]
    assert lines[-1] == ("verified: %d hands, every commitment, deal, move and result"
                         % len(m.hands))


def _tamper(text, hand, field, tmp_path):
    lines = text.split("\n")
    for i in range(len(lines)):
        w = lines[i].split()
        if w[:2] == ["hand", str(hand)]:
            k = {"seed": 5, "nonce": 7, "commit": 3}[field]
            w[k] = w[k][:-1] + ("0" if w[k][-1] != "0" else "1")
            lines[i] = " ".join(w)
    p = tmp_path / ("%s%d.txt" % (field, hand))
    p.write_text("\n".join(lines))
    return p


@pytest.mark.parametrize("field", ["seed", "nonce", "commit"])
def test_verify_fails_on_a_changed_seed_nonce_or_commitment(record, field, tmp_path):
    m, p = record
    bad = _tamper(p.read_text(), 2, field, tmp_path)
    r = run(["--verify", str(bad)])
    out = r.stdout.decode()
    assert r.returncode == 1, out
    lines = out.splitlines()
    assert lines[0].startswith("hand 1: commitment %s... = SHA-256(the commitment before it, "
                               "hand 1, seed, nonce): verified" % m.hands[0].commit)
    assert lines[1].startswith("hand 2: NOT VERIFIED: " + (
        "the nonce " if field == "seed" or field == "nonce" else "commitment "))
    assert "not checked" in lines[2]
    assert lines[-1].startswith("NOT VERIFIED")


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_verify_fails_on_a_changed_card(record, tmp_path, runtime):
    m, p = record
    lines = p.read_text().split("\n")
    # the second hand's first discard, made another card of that hand
    h = m.hands[1]
    seen = 0
    for i in range(len(lines)):
        if lines[i].startswith("hand 2 "):
            seen = 1
        elif seen and " discard:" in lines[i]:
            seat, act = lines[i].split()
            cards = h.cards_of(int(seat))
            other = [c for c in range(52) if engine.card_text(c) != act[8:]
                     and c not in cards][0]
            lines[i] = "%s discard:%s" % (seat, engine.card_text(other))
            break
    bad = tmp_path / "card.txt"
    bad.write_text("\n".join(lines))
    r = run(["--verify", str(bad)], runtime)
    out = r.stdout.decode()
    assert r.returncode == 1, out
    assert out.splitlines()[0].startswith("hand 1: commitment")
    assert out.splitlines()[1].startswith("hand 2: commitment %s...: NOT VERIFIED: record line"
                                          % m.hands[1].commit), out


def test_verify_names_a_hand_in_play_without_checking_it(tmp_path):
    m = committed_match(2)
    m.next_hand()
    m.act(m.legal()[0])
    p = tmp_path / "open.txt"
    p.write_text(engine.record_text(m))
    r = run(["--verify", str(p)])
    out = r.stdout.decode()
    assert r.returncode == 0, out
    assert "hand 3: commitment %s...: in play when the record was written" % m.hand.commit in out
    verdict = [ln for ln in out.splitlines() if ln.startswith("verified: ")]
    assert verdict == ["verified: 2 hands, every commitment, deal, move and result; hand 3 "
                       "unverified: in play when the record was written, its seed not revealed yet"]
    seed, nonce = engine.deal.hand_keys(secret_from_int(99), 3)
    assert hex_text(seed) not in p.read_text() and hex_text(nonce) not in p.read_text()


def test_verify_checks_old_records_by_their_fingerprints(tmp_path):
    m = engine.Match(None, 4)
    while m.to_move is not None:
        m.act(m.legal()[0] if "draw_stock" not in m.legal() else "draw_stock")
    p = tmp_path / "old.txt"
    p.write_text(engine.record_text(m))
    r = run(["--verify", str(p)])
    out = r.stdout.decode()
    assert r.returncode == 0, out
    assert out.startswith("hand 1: fingerprint %s of deal %d: matches"
                          % (engine.fingerprint_text(m.hand.deal), m.hand.deal))


def _bad_files(tmp_path, good):
    text = good.read_text()
    cases = {
        "not_utf8": b"gin-rummy record 3\nversion 1.0.0\n\xff\xfe\xfd\n",
        "latin1": text.replace("rules", "r\xe8gles").encode("latin-1"),
        "truncated": text[:len(text) // 2].rstrip("\n")[:-3].encode(),
        "empty": b"",
        "binary": bytes(range(256)) * 4,
        "nul": text.replace("seed", "se\x00ed").encode(),
        "huge": b"gin-rummy record 3\n" + b"0 draw_stock\n" * 30000,
        "not_a_record": b"hello world\n",
        "newer_format": text.replace(text.split("\n")[0], "gin-rummy record 9").encode(),
        "newer_version": text.replace("version " + VERSION, "version 2.0.0").encode(),
        "no_hand": b"gin-rummy record 3\nversion 1.0.0\nrules cardems\nseed 1\n",
    }
    out = {}
    for name, data in cases.items():
        p = tmp_path / (name + ".txt")
        p.write_bytes(data)
        out[name] = p
    return out


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_bad_records_get_one_line_and_exit_status_2(record, tmp_path, runtime):
    _, good = record
    files = _bad_files(tmp_path, good)
    assert os.path.getsize(files["huge"]) > (1 << 18)
    for name, p in files.items():
        for args in ([str(p)], ["--verify", str(p)]):
            if name == "no_hand" and args[0] != "--verify":
                continue       # replays as a match with nothing played yet
            r = run(args, runtime)
            out = r.stdout.decode()
            err = r.stderr.decode()
            assert r.returncode == 2, (name, args, out, err)
            assert len(out.splitlines()) == 1 and out.startswith(str(p) + ": "), (name, out)
            assert "Traceback" not in out + err and err == "", (name, err)
    say = run([str(files["newer_version"])], runtime).stdout.decode()
    assert "written by version 2.0.0 of the game, newer than this one" in say
    say = run([str(files["not_utf8"])], runtime).stdout.decode()
    assert "is not text" in say
    say = run([str(files["huge"])], runtime).stdout.decode()
    assert "more than 262144 bytes" in say


def test_a_missing_file_and_a_good_one_give_2(record):
    _, good = record
    r = run(["--verify", "/nonexistent/x.txt", str(good)])
    out = r.stdout.decode()
    assert r.returncode == 2
    assert "/nonexistent/x.txt: cannot read it" in out and "verified: 3 hands" in out


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_verify_checks_a_box_game_record(tmp_path, runtime):
    from engine.box import BoxMatch, box_record_text

    bm = BoxMatch(seed=8, secret=secret_from_int(3))
    n = 0
    while bm.winner is None and n < 5000:
        if bm.phase == "hand_over":
            if len(bm.results) == 3:
                break
            bm.next_hand()
            continue
        legal = bm.legal()
        bm.act("draw_stock" if "draw_stock" in legal else legal[0])
        n += 1
    p = tmp_path / "box.txt"
    text = box_record_text(bm)
    p.write_text(text)
    r = run(["--verify", str(p)], runtime)
    out = r.stdout.decode()
    assert r.returncode == 0, out
    lines = [ln for ln in out.splitlines() if not ln.startswith("note: ")]
    assert len(lines) == len(bm.hands) + 1
    assert lines[0].startswith("hand 1: commitment %s... = SHA-256(the commitment before it, "
                               "hand 1, seed, nonce): verified" % bm.hands[0][0].commit)
    # a changed nonce: not verified
    w = [ln for ln in text.split("\n") if ln.startswith("hand 2 ")][0].split()
    bad = tmp_path / "box_bad.txt"
    bad.write_text(text.replace(w[7], ("0" if w[7][0] != "0" else "1") + w[7][1:]))
    r = run(["--verify", str(bad)], runtime)
    out = r.stdout.decode()
    assert r.returncode == 1 and out.startswith("hand 1: commitment"), out
    assert out.splitlines()[1].startswith("hand 2: NOT VERIFIED: the nonce ")
    assert out.splitlines()[-1].startswith("NOT VERIFIED")


def test_a_record_s_version_line_may_be_a_development_build(monkeypatch):
    """The replay (engine/record_grammar.py's Head, not strict) reads
    X.Y.Z-dev: a dev build of 1.1 writes 1.1's records, newer than 1.0's
    and read by 1.1.0; a newer patch version writes the same format."""
    from engine import record_grammar as g

    def head(version):
        items = g.items_of("gin-rummy record 3\nversion %s\nrules cardems\nseed 1\n" % version)
        return g.Head(items, False, strict=False)

    monkeypatch.setattr(g, "VERSION", "1.0.0")
    with pytest.raises(g.NewerRecord):
        head("1.1.0-dev")
    head("1.0.1-dev")
    monkeypatch.setattr(g, "VERSION", "1.1.0")
    assert head("1.1.0-dev").version[:3] == (1, 1, 0)
    monkeypatch.setattr(g, "VERSION", "1.1.0-dev")
    head("1.1.0")
    with pytest.raises(ValueError):
        head("1.1.0-beta")


def _verify_text(text, tmp_path, name="r.txt", args=()):
    p = tmp_path / name
    p.write_text(text)
    r = run(["--verify"] + list(args) + [str(p)])
    return r.returncode, r.stdout.decode()


def test_the_deal_notes_a_player_took_hold_the_record(record, tmp_path):
    m, p = record
    text = p.read_text()
    notes = ",".join([h.commit for h in m.hands])
    st, out = _verify_text(text, tmp_path, args=["--noted", notes])
    assert st == 0 and "noted: the commitments of 3 hands start with the DEAL # you noted" in out
    st, out = _verify_text(text, tmp_path, args=["--noted", "-,DEAL #0000000000"])
    assert st == 1 and "you noted DEAL #0000000000 for hand 2" in out, out
    r = run(["--verify", "--noted", "xyz", str(p)])
    assert r.returncode == 2 and "not 4 to 64 hex digits" in r.stdout.decode()


def test_every_refusal_names_its_line(record, tmp_path):
    _, p = record
    lines = p.read_text().split("\n")
    i = [k for k in range(len(lines)) if lines[k].startswith("hand 2 ")][0]
    for cut in ("hand", "hand 2", "hand two", "hand 2 commit"):
        bad = lines[:i] + [cut] + lines[i + 1:]
        st, out = _verify_text("\n".join(bad), tmp_path)
        assert st == 1, (cut, out)
        assert "hand 2: NOT VERIFIED: record line %d (%s): " % (i + 1, cut) in out, out
        assert "not a game record" not in out and "Error" not in out
    # a comment line before it: the number is the file's own
    st, out = _verify_text("\n".join(["# kept by hand"] + lines[:i] + ["hand 2"] + lines[i + 1:]),
                           tmp_path)
    assert st == 1 and "record line %d (hand 2)" % (i + 2) in out
    # a finished hand without its result line, an older version line
    j = [k for k in range(len(lines)) if lines[k].startswith("result ")][0]
    st, out = _verify_text("\n".join(lines[:j] + lines[j + 1:]), tmp_path)
    assert st == 1 and "its result line is missing" in out, out
    st, out = _verify_text("\n".join(lines).replace("version " + VERSION, "version 0.9.0"), tmp_path)
    assert st == 1 and "record line 2 (version 0.9.0): version 0.9.0 contradicts" in out, out


def test_a_record_cut_inside_a_hand_is_incomplete(record, tmp_path):
    _, p = record
    lines = p.read_text().split("\n")
    j = [k for k in range(len(lines)) if lines[k].startswith("result ")][1]
    st, out = _verify_text("\n".join(lines[:j - 2]) + "\n", tmp_path)
    assert st == 1 and out.splitlines()[-1].startswith("INCOMPLETE: "), out
    assert "verified: " not in out


def test_box_and_two_player_records_read_comments_and_spaces_alike(record, tmp_path):
    from engine.box import BoxMatch, box_record_text

    bm = BoxMatch(seed=8, secret=secret_from_int(3))
    for _ in range(60):
        legal = bm.legal()
        bm.act("draw_stock" if "draw_stock" in legal else legal[0])
    _, p = record
    for text in (box_record_text(bm), p.read_text()):
        lines = text.split("\n")
        for variant in (["# a note"] + lines, [ln.replace(" ", "  ") for ln in lines],
                        lines[:3] + ["", "  "] + lines[3:]):
            st, out = _verify_text("\n".join(variant), tmp_path)
            assert st == 0, out
        st, out = _verify_text("\n".join(lines[:5]) + "\n", tmp_path)
        assert st == 2 and "the record holds no hand" in out, out


def test_a_record_of_version_1_0_0_verifies_and_says_what_it_cannot_show(tmp_path):
    path = os.path.join(ROOT, "host_tests", "records_1_0_0", "cardems.txt")
    for runtime in RUNTIMES:
        r = run(["--verify", path], runtime)
        out = r.stdout.decode()
        assert r.returncode == 0, out
        assert "note: in this record's format (3, version 1.0.0) a commitment is 40 bits" in out
        assert out.splitlines()[-1] == "verified: 4 hands, every commitment, deal, move and result"


# -- records of format 5: a cut, transcripts and a seal ---------------------------------

@pytest.fixture(scope="module")
def sealed(tmp_path_factory):
    m = committed_match(None, cut="HELLO", level="easy")
    assert m.winner is not None
    p = tmp_path_factory.mktemp("sealed") / "match.txt"
    p.write_text(engine.record_text(m))
    notes = "MATCH #%s, CUT HELLO, SEAL #%s" % (hex_text(m.match_commit)[:16],
                                               hex_text(seal(m))[:10])
    return m, p, notes


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_verify_holds_a_record_to_the_match_commitment_the_cut_and_the_seal_noted(
        sealed, runtime):
    m, p, notes = sealed
    r = run(["--verify", "--noted", notes, str(p)], runtime)
    out = r.stdout.decode()
    assert r.returncode == 0, out
    lines = out.splitlines()
    assert lines[len(m.hands) - 1].startswith("hand %d: commitment %s... = SHA-256(the chain "
                                              "before it: every hand before, its moves and "
                                              "result; hand %d" % (len(m.hands), m.hand.commit,
                                                                    len(m.hands)))
    assert lines[len(m.hands)] == ("secret: SHA-256 of it is the match commitment %s... (MATCH "
                                   "#%s); every hand's seed follows from it and the cut HELLO"
                                   % (hex_text(m.match_commit)[:16],
                                      hex_text(m.match_commit)[:16]))
    assert lines[len(m.hands) + 1].startswith("seal %s... (SEAL #%s): the last hand, the final "
                                              "scores and the winner: verified"
                                              % (hex_text(seal(m))[:16], hex_text(seal(m))[:10]))
    assert "noted: the match commitment starts with the MATCH # you noted; the cut is yours; the "\
           "seal starts with the SEAL # you noted" in out
    assert lines[-1] == ("verified: %d hands, every commitment, deal, move and result; the secret "
                         "and the seal" % len(m.hands))
    if runtime == "micropython":
        assert r.stdout == run(["--verify", "--noted", notes, str(p)]).stdout


@pytest.mark.parametrize("what", ["match", "cut", "seal"])
def test_a_noted_match_commitment_cut_or_seal_the_record_does_not_have_is_refused(sealed, what,
                                                                                  tmp_path):
    m, p, notes = sealed
    parts = notes.split(", ")
    k = {"match": 0, "cut": 1, "seal": 2}[what]
    w = parts[k]
    parts[k] = w[:-1] + ("0" if w[-1] != "0" else "1") if what != "cut" else "CUT HELLP"
    st, out = _verify_text(p.read_text(), tmp_path, args=["--noted", ", ".join(parts)])
    assert st == 1, out
    assert {"match": "you noted MATCH #", "cut": "you noted the cut HELLP; this record's is HELLO",
            "seal": "you noted SEAL #"}[what] in out
    assert out.splitlines()[-1].startswith("NOT VERIFIED")


def test_a_note_for_a_hand_the_record_lacks_is_refused(record, sealed, tmp_path):
    """`--noted -,-,-,X` on a record of three hands: "you noted 4 hands;
    this record has 3", never skipped; on a format 5 record as on one of 4."""
    m, p = record
    st, out = _verify_text(p.read_text(), tmp_path, args=["--noted", "-,-,-,3FA09C21B7"])
    assert st == 1 and "you noted 4 hands; this record has 3" in out, out
    st, out = _verify_text(p.read_text(), tmp_path, args=["--noted", "-,-,-,-"])
    assert st == 0, out            # a hand not noted is no note
    m5, p5, notes = sealed
    n = len(m5.hands)
    st, out = _verify_text(p5.read_text(), tmp_path,
                           args=["--noted", notes + "," + ",".join(["-"] * n) + ",ABCDEF"])
    assert st == 1 and "you noted %d hands; this record has %d" % (n + 1, n) in out, out


def test_a_seal_noted_for_a_match_not_over_or_an_older_format_is_refused(record, sealed,
                                                                         tmp_path):
    m, p = record
    st, out = _verify_text(p.read_text(), tmp_path, args=["--noted", "SEAL #0123456789"])
    assert st == 1 and "this record has no seal: a record of format 4 has none" in out, out
    st, out = _verify_text(p.read_text(), tmp_path, args=["--noted", "CUT HELLO"])
    assert st == 1 and "a record of format 4 has none" in out, out
    m5, p5, notes = sealed
    lines = p5.read_text().split("\n")
    cut = [i for i in range(len(lines)) if lines[i].startswith("result ")][-2]
    st, out = _verify_text("\n".join(lines[:cut + 1]) + "\n", tmp_path, args=["--noted", notes])
    assert st == 1 and "this record has no seal: its match is not over" in out, out


def test_an_older_format_says_which_promises_it_does_not_give(record, tmp_path):
    m, p = record
    st, out = _verify_text(p.read_text(), tmp_path)
    assert st == 0
    assert "note: in this record's format (4, version 1.1) a commitment holds the deal" in out
    assert "there is no seal, and the handheld drew the deals' secret alone, with no cut of " \
           "yours" in out


def test_a_deal_the_committed_secret_and_the_cut_do_not_give_is_refused(sealed, tmp_path):
    """A device that shows the commitment to one secret and deals from
    another, its record's chain and seal made whole again by the project's
    own code: every hand verifies against the chain, and the secret line
    refuses it (the seeds do not follow from it and the cut)."""
    from tools.records import forgery

    m, p, notes = sealed
    other = committed_match(None, 100, cut="HELLO", level="easy")
    lines = engine.record_text(other).split("\n")[:-1]
    for i in range(len(lines)):
        if lines[i].startswith("match "):
            lines[i] = "match " + hex_text(m.match_commit)
        elif lines[i].startswith("secret "):
            lines[i] = "secret " + hex_text(secret_from_int(99))
    forged = forgery.remake(lines)
    st, out = _verify_text("\n".join(forged) + "\n", tmp_path)
    assert st == 1, out
    assert "hand 1's seed is not the one this secret and the cut HELLO give" in out, out
    n = len(other.hands)
    assert out.count("): verified; dealt again") == n - 1      # the last: at its closing lines
    last = out.splitlines()[n - 1]
    assert last.startswith("hand %d: commitment " % n) and "...: NOT VERIFIED: record line " \
        "%d (secret " % (lines.index([x for x in lines if x.startswith("secret ")][0]) + 1) in last
