"""A finished hand's showdown as its match keeps it once the next hand is
dealt (engine.showdown.PastOutcome: one bytes instead of an Outcome's lists):
every field reads as the Outcome did, and melded() answers as the Outcome's."""

import engine
from engine.ai import Player
from engine.showdown import Outcome, PastOutcome

FIELDS = ("kind", "winner", "points", "knocker_deadwood", "defender_deadwood",
          "defender_deadwood_before", "knocker_melds", "defender_melds", "layoffs")


def _hands(seed, n=40):
    """(Outcome at the hand's end, the result object) for each knocked hand
    of seeded matches between two AIs."""
    out = []
    m = engine.Match(seed=seed)
    ps = [Player("normal", seed), Player("easy", seed + 1)]
    while len(out) < n:
        while m.hand.result is None:
            s = m.to_move
            m.act(ps[s].choose(m.view(s)))
        r = m.hand.result
        last = m.winner is not None      # no next hand: it stays the match's current one
        if r.outcome is not None:
            o = r.outcome
            assert isinstance(o, Outcome)
            out.append(({f: getattr(o, f) for f in FIELDS}, o, r, last))
        if last:
            m = engine.Match(seed=seed + len(out))
        else:
            m.next_hand()
    return out


def test_a_past_hands_outcome_reads_as_it_did():
    hands = _hands(5)
    layoffs = 0
    for want, o, r, last in hands:
        if last:                   # a match's last hand: no next deal
            assert r.outcome is o
            continue
        p = r.outcome
        assert isinstance(p, PastOutcome)
        for f in FIELDS:
            assert getattr(p, f) == want[f], f
        assert repr(p) == repr(o)
        layoffs += len(want["layoffs"])
        for c in range(52):
            for knocker in (True, False):
                assert p.melded(knocker, c) == o.melded(knocker, c)
    assert layoffs > 0 and len(hands) >= 30


def test_a_past_outcome_takes_fewer_objects_than_the_outcome():
    o = _hands(9, 1)[0][1]
    p = PastOutcome(o)
    assert list(p.__dict__) == ["_b"]
    assert len(p._b) == 6 + 2 + sum(len(x) for x in o.knocker_melds + o.defender_melds) \
        + len(o.knocker_melds) + len(o.defender_melds) + 2 * len(o.layoffs)


def test_an_outcome_with_a_number_past_a_byte_is_kept_as_it_is():
    o = Outcome("gin", "knocker", 300, 0, 275, [[0, 1, 2]], [], [])
    assert not PastOutcome.fits(o)
    assert PastOutcome.fits(Outcome("gin", "knocker", 198, 0, 98, [[0, 1, 2]], [], []))
