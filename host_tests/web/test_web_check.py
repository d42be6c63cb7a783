"""The web page's "Check a game record" panel in headless Chromium (web;
see conftest.py): records chosen as a file, pasted and dropped, checked by
engine/verify.py on the MicroPython WebAssembly port. The page shows, hand
by hand, the very lines `tools/records/replay.py --verify` prints on
CPython for the same file, and its verdict: genuine records (a fresh one
of format 4 and one version 1.0.0 wrote) verify; a changed move or a
deleted result line is refused at its line; a record cut short is
incomplete; a file that is no record is unreadable. The game on the page
is not disturbed by typing a record.
"""

import base64
import os
import subprocess
import sys

import pytest

import engine
from engine.deal import secret_from_int

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPLAY = os.path.join(ROOT, "tools", "records", "replay.py")
LEGACY = os.path.join(ROOT, "host_tests", "records_1_0_0")

SHOWN_JS = """(() => ({
  source: document.getElementById('check-source').textContent,
  verdict: document.getElementById('check-verdict').textContent,
  meaning: document.getElementById('check-meaning').textContent,
  hands: Array.from(document.querySelectorAll('#check-hands li'),
                    (li) => [li.className, li.textContent]),
  lines: Array.from(document.querySelectorAll('#check-lines li'), (li) => li.textContent),
}))()"""

DROP_JS = """((text) => {
  const dt = new DataTransfer();
  dt.items.add(new File([text], 'dropped-record.txt', {type: 'text/plain'}));
  const zone = document.getElementById('check');
  zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
  zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
  return true;
})(%s)"""


def committed_match(hands=3):
    """A committed match as the handheld plays it (two easy AIs)."""
    from engine.ai import Player
    from tools.kit.play import play_out, players_choose

    m = engine.Match(None, 23, secret=secret_from_int(41), ai_seed=7)
    play_out(m, players_choose((Player("easy", 1), Player("easy", 2))),
             stop=lambda m: len(m.results) >= hands)
    return m


@pytest.fixture(scope="module")
def fresh():
    """A fresh format-4 record of three finished hands."""
    m = committed_match()
    text = engine.record_text(m)
    assert text.startswith("gin-rummy record 4\n")
    return text


def cli(text, tmp_path, name="record.txt", noted=None):
    """(exit status, lines) of replay.py --verify on CPython for `text`."""
    p = tmp_path / name
    p.write_bytes(text.encode("latin-1") if isinstance(text, str) else text)
    args = ["--verify"] + (["--noted", noted] if noted is not None else []) + [str(p)]
    r = subprocess.run([sys.executable, REPLAY] + args, capture_output=True,
                       text=True, timeout=300, cwd=ROOT)
    lines = r.stdout.splitlines()
    if r.returncode == 2:          # said as "PATH: why"
        lines = [ln.split(": ", 1)[1] for ln in lines]
    return r.returncode, lines


def open_page(b, url):
    b.page(url + "?seed=5&fakeclock=1")
    b.wait("window.gin && (gin.ready || gin.failed)", 60000)
    assert b.eval("gin.failed") is None, b.eval("gin.failed")


def shown_after(b, n):
    b.wait("gin.checks > %d" % n, 60000)
    return b.eval(SHOWN_JS)


def upload(b, text, name="record.txt"):
    n = b.eval("gin.checks")
    data = text.encode("latin-1") if isinstance(text, str) else text
    b.call("upload", selector="#check-file", name=name,
           data=base64.b64encode(data).decode())
    return shown_after(b, n)


def paste(b, text):
    n = b.eval("gin.checks")
    b.call("fill", selector="#check-text", text=text)
    b.call("click", selector="#check-go")
    return shown_after(b, n)


def drop(b, text):
    import json

    n = b.eval("gin.checks")
    b.eval(DROP_JS % json.dumps(text))
    return shown_after(b, n)


def assert_same_as_cli(shown, status, lines):
    """The page's hand lines and other lines are replay.py --verify's, in order."""
    hands = [t for _, t in shown["hands"]]
    rest = [ln for ln in lines if not ln.startswith("hand ")]
    assert hands == [ln for ln in lines if ln.startswith("hand ")]
    assert shown["lines"] == rest
    want = {0: "VERIFIED", 2: "UNREADABLE"}.get(status) or (
        "INCOMPLETE" if lines[-1].startswith("INCOMPLETE") else "NOT VERIFIED")
    assert shown["verdict"] == want


def tamper_move(text):
    """The record with hand 1's first discard by seat 0 changed to a card seat 0
    does not hold then (the card seat 1 discards next); (text, its line number)."""
    lines = text.split("\n")
    first = None
    for i, ln in enumerate(lines):
        w = ln.split()
        if w[:2] == ["hand", "2"]:
            break
        if first is None and w[:1] == ["0"] and w[1].startswith("discard:"):
            first = i
        elif first is not None and w[:1] == ["1"] and w[1].startswith("discard:"):
            assert w[1] != lines[first].split()[1]
            lines[first] = "0 " + w[1]
            return "\n".join(lines), first + 1
    raise AssertionError("no discard to change in hand 1")


def delete_result(text, hand):
    """The record without hand `hand`'s result line; (text, the deleted line's number)."""
    lines = text.split("\n")
    k = 0
    for i, ln in enumerate(lines):
        if ln.startswith("hand "):
            k += 1
        if k == hand and ln.startswith("result "):
            del lines[i]
            return "\n".join(lines), i + 1
    raise AssertionError("no result line for hand %d" % hand)


def test_the_page_verifies_a_genuine_record(browser, site, fresh, tmp_path):
    """A fresh format-4 record, chosen as a file, then pasted, then dropped:
    VERIFIED, each hand's chained commitment verified, dealt again, replayed
    and its result recomputed; the lines are replay.py --verify's."""
    status, lines = cli(fresh, tmp_path)
    assert status == 0
    open_page(browser, site)
    loaded = len(browser.call("network"))
    for how in (upload, paste, drop):
        shown = how(browser, fresh)
        assert shown["verdict"] == "VERIFIED", (how.__name__, shown)
        assert shown["meaning"].startswith("Every finished hand was dealt from the deck its "
                                          "commitment bound before play")
        assert len(shown["hands"]) == 3
        for k, (state, line) in enumerate(shown["hands"]):
            assert state == "ok"
            assert line.startswith("hand %d: commitment " % (k + 1))
            assert ("= SHA-256(the commitment before it, hand %d, seed, nonce): verified; dealt "
                    "again from the seed and replayed; result recomputed: " % (k + 1)) in line
        assert shown["lines"][-1] == "verified: 3 hands, every commitment, deal, move and result"
        assert_same_as_cli(shown, status, lines)
    assert browser.eval("gin.screen()") == "title"      # the game did not move
    assert len(browser.call("network")) == loaded       # checked in the page: no request


def test_the_page_verifies_the_record_it_keeps(browser, site, tmp_path):
    """A match played on the page (test mode, a hand in play): the record its
    "download the game record" link gives, pasted in the panel, verifies."""
    open_page(browser, site)
    for n, k in enumerate("A R A D A".split()):
        browser.call("eval", js="gin.press(%r)" % k)
    assert browser.eval("gin.screen()") == "play"
    text = browser.eval("gin.py('web.record_text()')")
    assert text.startswith("gin-rummy record ")
    status, lines = cli(text, tmp_path)
    assert status == 0
    shown = paste(browser, text)
    assert shown["verdict"] == "VERIFIED"
    if "commit" in text:            # the first hand, in play: its deal unverified
        assert [s for s, _ in shown["hands"]] == ["open"]
        assert "its deal is unverified" in shown["meaning"]
    else:                           # test mode deals by deal numbers
        assert [s for s, _ in shown["hands"]] == ["ok"]
        assert shown["meaning"].startswith("Every hand is the deal its number gives")
    assert_same_as_cli(shown, status, lines)


@pytest.mark.parametrize("name", sorted(os.listdir(LEGACY)))
def test_the_page_verifies_the_records_of_version_1_0_0(browser, site, name, tmp_path):
    """The records version 1.0.0 wrote (two-player, box, a hand in play):
    verified, with what their format cannot show said, as on the command line."""
    with open(os.path.join(LEGACY, name), "rb") as f:
        data = f.read()
    status, lines = cli(data, tmp_path)
    assert status == 0
    open_page(browser, site)
    shown = upload(browser, data, name)
    assert shown["source"] == "file " + name
    assert shown["verdict"] == "VERIFIED"
    assert_same_as_cli(shown, status, lines)
    states = [s for s, _ in shown["hands"]]
    if "in_play" in name:
        assert states[-1] == "open" and set(states[:-1]) == {"ok"}
        assert "its deal is unverified" in shown["meaning"]
    else:
        assert set(states) == {"ok"}
    assert any(ln.startswith("note: in this record's format (3, version 1.0.0)")
               for ln in shown["lines"])


def test_the_page_refuses_a_tampered_record(browser, site, fresh, tmp_path):
    """A changed move and a deleted result line: NOT VERIFIED at the hand and
    record line changed, the hands after it not checked; as replay.py --verify."""
    open_page(browser, site)

    moved, at = tamper_move(fresh)
    status, lines = cli(moved, tmp_path, "moved.txt")
    assert status == 1
    shown = upload(browser, moved, "moved.txt")
    assert shown["verdict"] == "NOT VERIFIED"
    assert shown["meaning"].startswith("This record does not come from the deals it committed to")
    assert [s for s, _ in shown["hands"]] == ["refused", "unchecked", "unchecked"]
    assert "NOT VERIFIED: record line %d (%s)" % (at, moved.split("\n")[at - 1]) \
        in shown["hands"][0][1]
    assert_same_as_cli(shown, status, lines)

    cut, at = delete_result(fresh, 2)
    status, lines = cli(cut, tmp_path, "cut.txt")
    assert status == 1
    shown = paste(browser, cut)
    assert shown["verdict"] == "NOT VERIFIED"
    assert [s for s, _ in shown["hands"]] == ["ok", "refused", "unchecked"]
    assert "hand 2 was over" in shown["hands"][1][1]
    assert "but its result line is missing" in shown["hands"][1][1]
    assert_same_as_cli(shown, status, lines)

    # the last hand's result deleted and the record ending there: cut short
    text = fresh.rstrip("\n").split("\n")
    while not text[-1].startswith("result "):
        text.pop()
    short = "\n".join(text[:-1]) + "\n"
    status, lines = cli(short, tmp_path, "short.txt")
    assert status == 1
    shown = drop(browser, short)
    assert shown["verdict"] == "INCOMPLETE"
    assert [s for s, _ in shown["hands"]] == ["ok", "ok", "refused"]
    assert "INCOMPLETE: record line" in shown["hands"][2][1]
    assert_same_as_cli(shown, status, lines)
    assert browser.eval("gin.screen()") == "title"


def test_the_page_holds_a_record_to_the_deal_numbers_noted(browser, site, fresh, tmp_path):
    """The DEAL # a player noted (hands 1 and 3): the record verifies with
    them; a wrong note for hand 3 refuses it there; a note that is no DEAL #
    is said and nothing checked. As replay.py --verify --noted."""
    import re

    commits = re.findall(r"^hand \d+ commit ([0-9A-F]{64}) ", fresh, re.M)
    assert len(commits) == 3
    open_page(browser, site)
    good = "%s, -, DEAL #%s" % (commits[0][:10], commits[2][:10])
    browser.call("fill", selector="#check-noted", text=good)
    status, lines = cli(fresh, tmp_path, noted=good)
    assert status == 0
    shown = paste(browser, fresh)
    assert shown["verdict"] == "VERIFIED"
    assert shown["lines"][0] == "noted: the commitments of 2 hands start with the DEAL # you noted"
    assert_same_as_cli(shown, status, lines)

    wrong = "%s,-,%s" % (commits[0][:10], "0" * 10 if commits[2][0] != "0" else "1" * 10)
    browser.call("fill", selector="#check-noted", text=wrong)
    status, lines = cli(fresh, tmp_path, noted=wrong)
    assert status == 1
    shown = paste(browser, fresh)
    assert shown["verdict"] == "NOT VERIFIED"
    assert [s for s, _ in shown["hands"]] == ["ok", "ok", "refused"]
    assert "you noted DEAL #%s for hand 3" % wrong[-10:] in shown["hands"][2][1]
    assert_same_as_cli(shown, status, lines)

    browser.call("fill", selector="#check-noted", text="my notes")
    shown = paste(browser, fresh)
    assert shown["verdict"] == "NOT CHECKED" and shown["hands"] == []
    assert shown["meaning"].startswith("The DEAL # you noted: 'my notes' is not 4 to 64 hex digits")


def test_the_page_accepts_no_forgery_with_the_seal_noted(browser, site):
    """The forgery campaign (tools/records/forgery.py: every kind, about
    every 8th variant, of a match with a cut to its end, one with a hand in
    play, a link match's second board and a box match), each forgery checked
    in the page with what the player noted (MATCH #, the cut, SEAL #; of a
    match not over, each DEAL #): the page says of each what check() says
    on CPython, line for line, and verifies none."""
    import json

    from engine.verify import check, noted_list
    from tools.records import forgery

    names = ("cardems match", "hand in play", "link match (second board)", "box match")
    records = [g for g in forgery.genuine_records() if g.name in names]
    cases = []
    for g in records:
        g.partners = [x for x in records if x is not g and x.box == g.box and
                      x.lines[2] == g.lines[2]]
        noted = forgery.noted_of(g)
        for kind, lines in forgery.variants(g, 8):
            if forgery.classify(g, lines, noted, kind) in ("earlier", "other game"):
                continue
            cases.append((g, kind, lines, noted))
            again = forgery.remake(lines) if kind in forgery.RECHAIN else None
            if again is not None and again != lines:
                cases.append((g, "re-chained", again, noted))
        cases.append((g, "notes past the end", g.lines, forgery.noted_of(g, True)))
    open_page(browser, site)
    tried = {}
    for i in range(0, len(cases), 20):
        chunk = cases[i:i + 20]
        texts = [["\n".join(c[2]) + "\n", forgery.notes_text(c[3])] for c in chunk]
        got = browser.eval("(%s).map(([t, n]) => JSON.parse(gin.check(t, n)))" % json.dumps(texts))
        for (g, kind, lines, noted), (text, nt), shown in zip(chunk, texts, got):
            outcome = forgery.classify(g, lines, noted, kind)
            assert outcome not in ("ACCEPTED", "crashed"), (kind, g.name, text)
            status, want = check(text, noted_list(nt))
            assert shown["status"] == status, (kind, g.name, want[-2:])
            assert [t for _, t in shown["hands"]] + shown["lines"] == \
                [ln for ln in want if ln.startswith("hand ")] + \
                [ln for ln in want if not ln.startswith("hand ")], (kind, g.name)
            tried[kind] = tried.get(kind, 0) + 1
    print("checked in the page: %d forgeries, 0 verified: %s" % (len(cases), tried))
    for kind in forgery.KINDS:
        assert tried.get(kind), kind


def test_the_page_says_a_file_is_no_game_record(browser, site, tmp_path):
    """Bytes that are not text, and text that is not a record: UNREADABLE,
    with replay.py's one line."""
    open_page(browser, site)
    for name, data in (("photo.jpg", b"\xff\xd8\xff\xe0 not a record\n"),
                       ("notes.txt", b"my scores: 12, 40\n")):
        status, lines = cli(data, tmp_path, name)
        assert status == 2
        shown = upload(browser, data, name)
        assert shown["verdict"] == "UNREADABLE"
        assert shown["hands"] == [] and shown["lines"] == lines


def test_typing_a_record_does_not_press_the_handhelds_buttons(browser, site):
    """Keys typed in the panel (z, x, Enter, space, m: the game's A, B and
    mute) go to the text field, not to the game."""
    open_page(browser, site)
    browser.eval("document.getElementById('check-text').focus()")
    for k in ("z", "x", "Enter", " ", "m", "ArrowDown"):
        browser.key(k)
    assert browser.eval("document.getElementById('check-text').value") == "zx\n m"
    assert browser.eval("gin.keysDone") == 0
    assert browser.eval("gin.screen()") == "title"
    assert browser.eval("document.getElementById('mute').getAttribute('aria-checked')") == "true"


def test_the_verdicts_meaning_says_what_was_not_verified():
    """webport.check_record on CPython: a record whose only hand is in play
    is verified, but its meaning says that hand's deal is not; a record with
    its seed line changed is refused at the match's commitment, before any
    hand, and says it must not be trusted."""
    import json

    from engine.ai import Player
    from web.webport import check_record

    m = engine.Match(None, 29, secret=secret_from_int(3), ai_seed=1)
    ps = [Player("easy", 1), Player("easy", 2)]
    for _ in range(6):
        assert m.act(ps[m.to_move].choose(m.view(m.to_move))) is None
    text = engine.record_text(m)
    r = json.loads(check_record(text))
    assert (r["status"], r["verdict"]) == (0, "VERIFIED")
    assert [s for s, _ in r["hands"]] == ["open"]
    assert r["meaning"].startswith("The record's only hand was still in play")
    assert "its deal is unverified" in r["meaning"]
    assert "\nseed 29\n" in text
    r = json.loads(check_record(text.replace("\nseed 29\n", "\nseed 30\n")))
    assert r["verdict"] == "NOT VERIFIED" and r["hands"] == []
    assert r["lines"][0].startswith("NOT VERIFIED: record line 5 (match ")
    assert "Do not trust it." in r["meaning"]
