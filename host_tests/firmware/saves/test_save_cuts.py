"""The cut campaign (tools/saves/savecuts.py) on a short session: every save the
App makes in a match to 50, cut before every step on each storage, and the
restart judged against what the App had committed. tools/bench/bench_saves.py
prints the same on longer sessions, the CircuitPython nvm's rewrites
included (host_tests/circuitpython/test_cp_nvm.py cuts into those)."""

import pytest

from tools.saves import savecuts


@pytest.fixture(scope="module")
def session():
    ops, truth = savecuts.record_session(seed=3, matches=1, target=50)
    kinds = set(op[1] for op in ops)
    assert kinds == {"settings", "game"} and len(ops) > 40
    return ops, truth


def _clean(t):
    assert t.points > 0
    assert (t.silent, t.double, t.older) == (0, 0, 0), (t.line(), t.examples)


@pytest.mark.parametrize("model", ["prefix", "littlefs", "emptied"])
def test_littlefs_style_files_lose_nothing_at_any_cut(session, model):
    t = savecuts.files_campaign(*session, model=model, every=3)
    _clean(t)
    assert t.ok == t.points


def test_the_browser_store_loses_nothing_at_any_cut(session):
    t = savecuts.kv_campaign(*session)
    _clean(t)
    assert t.ok == t.points


@pytest.mark.parametrize("backup", [True, False], ids=["backup-file", "no-backup-file"])
def test_the_nvm_loses_nothing_at_any_cut_of_a_match(session, backup):
    t = savecuts.nvm_campaign(*session, backup=backup)
    _clean(t)
    assert t.ok == t.points


@pytest.mark.parametrize("medium", ["prefix", "littlefs", "emptied", "nvm"])
@pytest.mark.parametrize("mode", ["full", "fills"])
def test_a_full_flash_refuses_saves_without_losing_or_going_back(session, medium, mode):
    """ENOSPC from before a save (and the next two: every write refused),
    or from each step of a save on (renames refused too; the next save
    tried again): every refused save raises (the App says it), and a
    restart gives exactly the last save that went through."""
    t = savecuts.full_campaign(*session, medium=medium, mode=mode)
    _clean(t)
    assert t.ok == t.points
    if medium != "nvm":
        assert t.refused > 0
