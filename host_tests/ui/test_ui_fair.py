"""Committed deals in the App (engine/deal.py, firmware/entropy.py): what
the screens show of a deal while it is played and once it is over, the
AI's own seed, a resumed match, and the record the hand leaves.

An entropy source (the board's, or a seeded one here so that the pictures
are the same every run) makes every new match a committed one; the
golden pictures are the hand's start (DEAL #<commitment>), the showdown's
header and the hand result's proof page.
"""

import os
import subprocess
import sys

from firmware import entropy
from firmware.matchlife import ai_seed, default_player
from firmware.saves.records import Records
from engine.deal import chained_commitment, chained_nonce
from engine.sha256 import hex_text
from tools.sim.simulator import MemStorage, Sim
from tools.kit.ui_driver import presses_for, simple_choice, give_cut, CUT
from engine.cut import cut_seed
from ui_golden import CheckedSim, Golden

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def play_hand(sim, limit=300):
    n = 0
    while sim.screen == "play" and n < limit:
        for k in presses_for(sim, simple_choice(sim.app.match.view(0))):
            sim.press(k)
            n += 1
            if sim.screen != "play":
                break


def _strings(obj, depth=0, seen=None):
    """Every str/bytes value held by a screen (its attributes, one level
    into lists, tuples and dicts)."""
    if seen is None:
        seen = set()
    out = []
    if id(obj) in seen or depth > 2:
        return out
    seen.add(id(obj))
    if isinstance(obj, (str, bytes, bytearray)):
        return [bytes(obj) if not isinstance(obj, str) else obj.encode()]
    if isinstance(obj, (list, tuple)):
        for x in obj:
            out.extend(_strings(x, depth + 1, seen))
        return out
    if isinstance(obj, dict):
        for x in obj.values():
            out.extend(_strings(x, depth + 1, seen))
        return out
    d = getattr(obj, "__dict__", None)
    if d and depth == 0:
        for k, v in d.items():
            if k != "app":
                out.extend(_strings(v, depth + 1, seen))
    return out


def test_a_committed_hand_shows_its_commitment_then_its_proof(tmp_path):
    g = Golden(tmp_path)
    seeds = []

    def factory(level, seed):
        seeds.append((level, seed))
        return default_player(level, seed)

    sim = CheckedSim(seed=5, storage=MemStorage(), entropy=entropy.seeded(9),
                     settings={"speed": "fast"}, player_factory=factory,
                     records=Records(str(tmp_path / "records")))
    sim.settle()
    sim.press("A")
    m = give_cut(sim)
    assert m.committed and m.hand.deal is None
    # the AI's seed is drawn apart: not the old function of the match seed
    assert m.ai_seed is not None and m.ai_seed != ai_seed(m.seed)
    assert (sim.app.settings.level, m.ai_seed) in seeds
    secret = m._secret
    # the chain (engine/deal.py): hand 1's nonce and commitment from C0
    seed = cut_seed(secret, CUT, 1)
    nonce = chained_nonce(m.chain_start(), seed)
    full = hex_text(chained_commitment(m.chain_start(), 1, seed, nonce))
    assert m.hand.commit == full[:10]
    assert sim.app.screen.fp == b"DEAL #" + m.hand.commit.encode()
    assert sim.app.screen.cut_tag == b" CUT " + CUT.encode()
    g.check(sim, "81_play_commitment")
    # nothing any screen holds while the hand is played gives the deal away
    held = b" ".join(s for name in sim.app._screens
                     for s in _strings(sim.app._screens[name]))
    for v in (secret, seed, nonce):
        assert hex_text(v).encode() not in held.upper() and bytes(v) not in held
    play_hand(sim)
    assert sim.screen in ("showdown", "result")
    if sim.screen == "showdown":
        assert sim.app.screen.commit == b"DEAL #" + m.hands[0].commit.encode()
        g.check(sim, "82_showdown_commitment")
        sim.press("A")
    assert sim.screen == "result"
    sim.press("U")
    r = sim.app.screen
    assert r.page and r.proof == (m.hands[0].commit.encode(), hex_text(seed).encode(),
                                  hex_text(nonce).encode(),
                                  b"SEED FROM SECRET AND CUT " + CUT.encode())
    g.check(sim, "83_result_proof")
    sim.press("U")
    assert not sim.app.screen.page and sim.screen == "result"
    g.finish()
    # the record the hand left reveals seed and nonce and verifies
    sim.step()
    names = sorted(os.listdir(tmp_path / "records"))
    path = str(tmp_path / "records" / names[-1])
    text = open(path).read()
    assert "hand 1 commit %s seed %s nonce %s" % (full, hex_text(seed), hex_text(nonce)) in text
    assert hex_text(secret) not in text
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "records", "replay.py"),
                          "--verify", path], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout
    assert out.stdout.splitlines()[-1] == ("verified: 1 hand, every commitment, deal, move "
                                           "and result")


def test_a_resumed_committed_match_deals_and_plays_on_the_same():
    st = MemStorage()
    sim = Sim(seed=5, storage=st, entropy=entropy.seeded(11), settings={"speed": "fast"})
    sim.settle()
    sim.press("A")
    m = give_cut(sim)
    play_hand(sim)
    if sim.screen == "showdown":
        sim.press("A")
    sim.press("A")                  # the next hand, dealt and saved
    assert sim.screen == "play" and len(m.hands) == 2
    # another entropy source after the restart: the saved match keeps its own
    again = Sim(seed=77, storage=st, entropy=entropy.seeded(12), settings={"speed": "fast"})
    again.settle()
    r = again.app.match
    assert r is not None and r.committed
    assert r.hand.commit == m.hand.commit and r._secret == m._secret
    assert r.ai_seed == m.ai_seed
    assert r.hand.cards_of(1) == m.hand.cards_of(1)


def test_without_entropy_a_match_deals_by_deal_numbers_as_before():
    sim = Sim(seed=5, storage=MemStorage())
    sim.settle()
    sim.press("A")
    m = sim.app.match
    assert not m.committed and m.ai_seed is None and m.hand.deal is not None
    import engine
    assert sim.app.screen.fp == b"DEAL #" + engine.fingerprint_text(m.hand.deal).encode()


def test_a_seeded_run_plays_the_same_committed_deals_again():
    """The simulator's --seed N: the entropy made from N, the same deals."""
    hands = []
    for _ in range(2):
        sim = Sim(seed=4, storage=MemStorage(), entropy=entropy.seeded(4))
        sim.settle()
        sim.press("A")
        m = give_cut(sim)
        hands.append((m.hand.commit, m.hand.cards_of(0), m.hand.cards_of(1), m.ai_seed))
    assert hands[0] == hands[1]
    other = Sim(seed=4, storage=MemStorage(), entropy=entropy.seeded(5))
    other.settle()
    other.press("A")
    assert give_cut(other).hand.commit != hands[0][0]


def test_a_failing_entropy_source_still_gives_a_committed_match():
    def broken(n):
        raise OSError(5, "EIO")

    sim = Sim(seed=5, storage=MemStorage(), entropy=broken)
    sim.settle()
    sim.press("A")
    m = give_cut(sim)
    assert sim.screen == "play" and m.committed and m.ai_seed is not None
    short = Sim(seed=5, storage=MemStorage(), entropy=lambda n: b"\x01")
    short.settle()
    short.press("A")
    assert give_cut(short).committed and short.app.match._secret != b"\x01" * 16
