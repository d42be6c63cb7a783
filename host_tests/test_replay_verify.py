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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPLAY = os.path.join(ROOT, "tools", "records", "replay.py")
MP = os.path.join(ROOT, ".venv", "bin", "micropython")
RUNTIMES = ["cpython"] + (["micropython"] if os.path.exists(MP) else [])


def run(args, runtime="cpython"):
    exe = sys.executable if runtime == "cpython" else MP
    return subprocess.run([exe, REPLAY] + args, capture_output=True, timeout=300,
                          stdin=subprocess.DEVNULL, cwd=ROOT)


def committed_match(hands=3):
    from engine.ai import Player

    m = engine.Match(None, 17, secret=secret_from_int(99), ai_seed=5)
    ps = [Player("easy", 1), Player("easy", 2)]
    while m.winner is None and len(m.results) < hands:
        if m.to_move is None:
            assert m.next_hand() is None
            continue
        assert m.act(ps[m.to_move].choose(m.view(m.to_move))) is None
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
        assert lines[i].startswith("hand %d: commitment %s = SHA-256(seed, nonce): verified"
                                   % (i + 1, m.hands[i].commit)), lines[i]
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
    assert lines[0].startswith("hand 1: commitment %s = SHA-256(seed, nonce): verified"
                               % m.hands[0].commit)
    assert lines[1].startswith("hand 2: NOT VERIFIED: commitment ")
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
    assert out.splitlines()[1].startswith("hand 2: commitment %s: NOT VERIFIED: record line"
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
    assert "hand 3: commitment %s: in play when the record was written" % m.hand.commit in out
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
        "newer_format": text.replace("gin-rummy record 3", "gin-rummy record 9").encode(),
        "newer_version": text.replace("version 1.0.0", "version 2.0.0").encode(),
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
    assert lines[0].startswith("hand 1: commitment %s = SHA-256(seed, nonce): verified"
                               % bm.hands[0][0].commit)
    # a changed nonce: not verified
    w = [ln for ln in text.split("\n") if ln.startswith("hand 2 ")][0].split()
    bad = tmp_path / "box_bad.txt"
    bad.write_text(text.replace(w[7], ("0" if w[7][0] != "0" else "1") + w[7][1:]))
    r = run(["--verify", str(bad)], runtime)
    out = r.stdout.decode()
    assert r.returncode == 1 and out.startswith("hand 1: commitment"), out
    assert out.splitlines()[1].startswith("hand 2: NOT VERIFIED: commitment %s, but SHA-256" % w[3])
    assert out.splitlines()[-1].startswith("NOT VERIFIED")
