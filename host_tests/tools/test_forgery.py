"""The forgery campaign (tools/records/forgery.py): genuine game records
of this version (format 5: the four presets with a cut, a hand in play,
a link match's second board, box matches) and thousands of tampered ones,
among them what a forger makes with the project's own code
(tools/records/forger.py: other legal moves written by the project's
writer so that the loser wins, results and the winner rewritten with the
chain and the seal made again, the last hands dropped, the seats swapped,
two records spliced, the version, level, seats or cut line changed, a
note past the end); the verifier (engine/verify.py, `replay.py --verify`)
must accept none as verified with what the player noted (the match
commitment, the cut and the seal), refuse no genuine record and no
cosmetic variant of one, and never fail with an error of its own. The
same campaign runs on the MicroPython unix port and counts the same.

The records the App writes (format 5: played in the simulator through
its buttons, the cut given) get the same campaign with what the screen
showed. Records of version 1.1 (format 4, which this version still
resumes), of version 1.0.0 (format 3, host_tests/records_1_0_0/)
and of matches dealt by deal numbers get campaigns of their own: what
their format cannot show (forgery.GAPS4, forgery.GAPS) is counted, not
failed, and must be real."""

import os
import subprocess
import sys

import pytest

from firmware import entropy
from firmware.saves.records import Records
from tools.records import forgery
from tools.kit.memstorage import MemStorage
from tools.kit.ui_driver import give_cut, presses_for, simple_choice
from tools.sim.simulator import Sim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORGERY = os.path.join(ROOT, "tools", "records", "forgery.py")
MP = os.path.join(ROOT, ".venv", "bin", "micropython")

def app_record(tmp_path, seed, hands):
    """Play `hands` hands (or to the match's end) in the simulator by
    pressing its buttons; the game record the App kept."""
    folder = tmp_path / ("app%d" % seed)
    sim = Sim(seed=seed, storage=MemStorage(), entropy=entropy.seeded(seed),
              settings={"speed": "fast"}, records=Records(str(folder)))
    sim.settle()
    sim.press("A")                      # NEW MATCH: its match commitment
    m = give_cut(sim)
    for _ in range(hands):
        n = 0
        while sim.screen == "play" and n < 400:
            for k in presses_for(sim, simple_choice(m.view(0))):
                sim.press(k)
                n += 1
                if sim.screen != "play":
                    break
        if sim.screen == "showdown":
            sim.press("A")
        assert sim.screen == "result", sim.screen
        if m.winner is not None:
            break
        sim.press("A")
    sim.step()
    names = sorted(os.listdir(folder))
    text = open(os.path.join(folder, names[-1])).read()
    assert text.count("\nresult ") == len(m.results) >= 1
    return text


@pytest.fixture(scope="module")
def records():
    return forgery.genuine_records()


@pytest.fixture(scope="module")
def app_records(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("app")
    out = []
    for seed, hands in ((3, 1), (5, 3), (8, 40)):
        out.append(forgery.Genuine("App, seed %d" % seed, app_record(tmp, seed, hands)))
    return out


@pytest.fixture(scope="module")
def result(records):
    return forgery.campaign(records, step=2)


@pytest.fixture(scope="module")
def four():
    return forgery.campaign(forgery.format4_records(), step=2)


def _table(result):
    lines = []
    forgery.report(result[0], result[1], result[2], lambda s: lines.append(s))
    return "".join(lines)


def test_the_genuine_records_are_what_the_campaign_says(records, app_records):
    names = [g.name for g in records]
    assert names[:4] == ["cardems match", "classic match", "oklahoma match", "bonus match"]
    by = dict((g.name, g) for g in records)
    for g in records:
        assert g.lines[0] in ("gin-rummy record 5", "gin-rummy box record 5"), g.name
        assert [ln.split()[0] for ln in g.lines[4:8]] == ["seats", "level", "match", "cut"]
    assert forgery._open_start(by["hand in play"].lines) is not None
    assert forgery._open_start(by["box hand in play"].lines) is not None
    assert by["box match"].box and "winner" in by["box match"].text
    assert "\nseal " in by["cardems match"].text and "\nseal " not in by["hand in play"].text
    assert "\nmirror\n" in by["link match (second board)"].text
    # the App makes its matches with the player's cut
    for g in app_records:
        assert g.format == 5 and g.lines[7] == "cut AAAA", g.name
    assert "\nseal " in app_records[-1].text
    assert app_records[-1].text.count("\nhand ") >= 3


def test_no_forgery_is_accepted_with_the_match_commitment_the_cut_and_the_seal_noted(result):
    counts, cosmetic, genuine_bad, accepted = result
    print(_table(result))
    assert genuine_bad == []
    assert sum(cosmetic.values()) == 0
    total = 0
    for kind in forgery.KINDS:
        c = counts[kind]
        total += sum(c.values())
        assert c["crashed"] == 0, kind
        assert c["ACCEPTED"] == 0, (kind, [a for a in accepted if a[0] == kind][:1])
        assert sum(c.values()) > 0, kind           # every kind was tried
    assert total > 4000
    # without the notes a record the forger wrote whole passes: the
    # campaign's forger is real, and the notes are what hold it
    assert counts["re-chained, no notes"]["ACCEPTED"] > 0
    assert counts["no notes"]["ACCEPTED"] > 0


def test_no_forgery_of_the_apps_records_is_accepted_with_what_the_screen_showed(app_records):
    """The record of a whole match the App wrote, forged every way the
    campaign knows: none verified with the MATCH #, the cut and the SEAL #
    the screen showed. (Of a match not over, the last hand's moves are
    held by no note yet: FAIRNESS.md, what you did not note.)"""
    over = [g for g in app_records if "\nseal " in g.text]
    assert over
    counts, cosmetic, genuine_bad, accepted = forgery.campaign(over, step=3)
    assert genuine_bad == [] and sum(cosmetic.values()) == 0
    tried = 0
    for kind in forgery.KINDS:
        c = counts[kind]
        tried += sum(c.values())
        assert c["crashed"] == 0, kind
        assert c["ACCEPTED"] == 0, (kind, [a for a in accepted if a[0] == kind][:1])
    assert tried > 500


def _winner(lines):
    return [ln for ln in lines if ln.startswith("winner ")]


def test_the_loser_wins_with_other_legal_moves_and_the_seal_refuses_it(records):
    """The forger plays the same deals again with other legal moves until
    the loser wins, and writes the record with the project's own writer:
    a record that verifies on its own, refused once the seal is noted."""
    g = records[0]
    won = int(_winner(g.lines)[0].split()[1])
    for j in range(1, len(forgery.blocks(g.lines)[1]) + 1):
        for salt in range(40):
            lines = forgery.other_play(g, j, salt)
            w = _winner(lines or [])
            if w and int(w[0].split()[1]) != won:
                text = "\n".join(lines) + "\n"
                out = []
                assert forgery.verify_record(text, out.append) == 0, out[-3:]
                out = []
                assert forgery.verify_record(text, out.append, forgery.noted_of(g)) == 1
                assert "you noted SEAL #" in "".join(out), out[-2:]
                return
    pytest.fail("no other play found where the loser wins")


def test_records_of_version_1_1_get_what_their_format_can_show(four):
    """Format 4 (version 1.1's, and the matches it saved that this version
    resumes): other legal
    play from the same deals, the last hands dropped, the seats swapped, a
    splice whose chain is made again and another version line pass; every
    other kind is refused, and a forger who makes the chain again is held
    by the DEAL # noted."""
    _only_the_gaps(four, forgery.GAPS4)


def _only_the_gaps(result, gaps):
    """No genuine record or cosmetic variant refused, no crash; forgeries
    accepted of the kinds in `gaps` only, and of each of those some: the
    gaps are real, the campaign sees a forgery when one gets through."""
    counts, cosmetic, genuine_bad, accepted = result
    print(_table(result))
    assert genuine_bad == [] and sum(cosmetic.values()) == 0
    for kind in forgery.KINDS:
        assert counts[kind]["crashed"] == 0, kind
        if kind in gaps:
            assert counts[kind]["ACCEPTED"] > 0, kind
        else:
            assert counts[kind]["ACCEPTED"] == 0, (kind, [a for a in accepted if a[0] == kind][:1])


@pytest.fixture(scope="module")
def legacy():
    return forgery.campaign(forgery.legacy_records(ROOT), step=2)


def test_records_of_version_1_0_0_get_what_their_format_can_show(legacy):
    _only_the_gaps(legacy, forgery.GAPS)


def test_a_record_cut_inside_a_hand_is_incomplete(records):
    g = records[0]
    L = g.lines
    i = max(j for j in range(len(L)) if L[j].startswith("result "))
    out = []
    st = forgery.verify_record("\n".join(L[:i - 1]) + "\n", out.append)
    assert st == 1 and out[-1].startswith("INCOMPLETE: "), out
    assert "INCOMPLETE: record line %d" % (i - 1) in "".join(out)


@pytest.mark.skipif(not os.path.exists(MP), reason="MicroPython unix port not installed")
def test_the_campaign_counts_the_same_on_micropython():
    args = [FORGERY, "--step", "7"]
    mp = subprocess.run([MP, "-X", "heapsize=8M"] + args, capture_output=True, timeout=900,
                        cwd=ROOT)
    cp = subprocess.run([sys.executable] + args, capture_output=True, timeout=900, cwd=ROOT)
    assert mp.returncode == 0 and cp.returncode == 0, mp.stdout[-2000:] + mp.stderr
    assert mp.stdout == cp.stdout
    out = mp.stdout.decode()
    new, rest = out.split("\nrecords of version 1.1")
    four, old = rest.split("\nrecords of version 1.0.0")
    for kind in forgery.KINDS:
        row = [ln for ln in new.split("\n") if ln.startswith(kind + "  ")][0].split()
        assert row[-2:] == ["0", "0"], row              # accepted, crashed
        for section, gaps in ((four, forgery.GAPS4), (old, forgery.GAPS)):
            row = [ln for ln in section.split("\n") if ln.startswith(kind + "  ")][0].split()
            assert row[-1] == "0" and (row[-2] == "0" or kind in gaps), row
    assert out.count("genuine records refused: 0; cosmetic variants (comments, blank lines, "
                     "spaces, CRLF) refused: 0") == 3


def test_records_of_version_1_0_0_still_verify():
    """Records the game's version 1.0.0 wrote (host_tests/records_1_0_0/:
    format 3, kept as they were written) verify, and say what their format
    does not cover."""
    folder = os.path.join(ROOT, "host_tests", "records_1_0_0")
    names = sorted(os.listdir(folder))
    assert len(names) >= 6
    for name in names:
        text = open(os.path.join(folder, name)).read()
        assert text.split("\n")[:2] in (["gin-rummy record 3", "version 1.0.0"],
                                        ["gin-rummy box record 3", "version 1.0.0"])
        out = []
        assert forgery.verify_record(text, out.append) == 0, (name, out)
        assert out[-1].startswith("verified: ") and out[-2].startswith("note: in this record's "
                                                                       "format (3"), out
