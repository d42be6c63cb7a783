"""The forgery campaign (tools/records/forgery.py): genuine game records
(the four presets, a hand in play, box matches, and records the App wrote
in the simulator, played through its buttons) and thousands of tampered
ones; the verifier (engine/verify.py, `replay.py --verify`) must
accept none as verified, refuse no genuine record and no cosmetic variant
of one, and never fail with an error of its own. A forger who makes every
commitment of the chain again ("re-chained") is checked against the DEAL #
a player noted. The same campaign runs on the MicroPython unix port and
counts the same.

Records of version 1.0.0 (format 3: 40-bit commitments of the seed and
nonce only, host_tests/records_1_0_0/) and of matches dealt by deal
numbers get a campaign of their own: what their format cannot show
(forgery.GAPS) is counted, not failed."""

import os
import subprocess
import sys

import pytest

from firmware import entropy
from firmware.records import Records
from tools.records import forgery
from tools.kit.memstorage import MemStorage
from tools.kit.ui_driver import presses_for, simple_choice
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
    sim.press("A")
    m = sim.app.match
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
def records(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("app")
    out = forgery.genuine_records()
    for seed, hands in ((3, 1), (5, 3), (8, 40)):
        out.append(forgery.Genuine("App, seed %d" % seed, app_record(tmp, seed, hands)))
    return out


@pytest.fixture(scope="module")
def result(records):
    return forgery.campaign(records, step=2)


def _table(result):
    lines = []
    forgery.report(result[0], result[1], result[2], lambda s: lines.append(s))
    return "".join(lines)


def test_the_genuine_records_are_what_the_campaign_says(records):
    names = [g.name for g in records]
    assert names[:4] == ["cardems match", "classic match", "oklahoma match", "bonus match"]
    by = dict((g.name, g) for g in records)
    for g in records:
        assert g.lines[0] in ("gin-rummy record 4", "gin-rummy box record 4"), g.name
        assert g.lines[4].startswith("match "), g.name
    assert forgery._open_start(by["hand in play"].lines) is not None
    assert forgery._open_start(by["box hand in play"].lines) is not None
    assert by["box match"].box and "winner" in by["box match"].text
    assert by["App, seed 8"].text.count("\nhand ") >= 3


def test_no_forgery_is_accepted_as_verified(result):
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
    # without the DEAL # a player noted, a record rewritten whole passes:
    # the campaign's forger is real, and the notes are what hold it
    assert counts["re-chained, no notes"]["ACCEPTED"] > 0


@pytest.fixture(scope="module")
def legacy():
    return forgery.campaign(forgery.legacy_records(ROOT), step=2)


def test_records_of_version_1_0_0_get_what_their_format_can_show(legacy):
    counts, cosmetic, genuine_bad, accepted = legacy
    print(_table(legacy))
    assert genuine_bad == [] and sum(cosmetic.values()) == 0
    for kind in forgery.KINDS:
        assert counts[kind]["crashed"] == 0, kind
        if kind in forgery.GAPS:
            # the gaps are real: the campaign sees a forgery when one gets through
            assert counts[kind]["ACCEPTED"] > 0, kind
        else:
            assert counts[kind]["ACCEPTED"] == 0, (kind, [a for a in accepted if a[0] == kind][:1])


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
    new, old = out.split("\nrecords of version 1.0.0")
    for kind in forgery.KINDS:
        row = [ln for ln in new.split("\n") if ln.startswith(kind + "  ")][0].split()
        assert row[-2:] == ["0", "0"], row              # accepted, crashed
        row = [ln for ln in old.split("\n") if ln.startswith(kind + "  ")][0].split()
        assert row[-1] == "0" and (row[-2] == "0" or kind in forgery.GAPS), row
    assert out.count("genuine records refused: 0; cosmetic variants (comments, blank lines, "
                     "spaces, CRLF) refused: 0") == 2


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
