"""The newest committed release's .uf2 (dist/<version>/gin-rummy-pico-*.uf2)
on the emulated Pico: it boots to the title with an empty filesystem, as on
a new board, and says its version on the console."""

import glob
import os

import pytest
from pico_util import boot_game

from engine.version import VERSION
from tools.deploy import release
from tools.pico import harness as h


def _newest_uf2():
    rel = release.newest_release(os.path.join(h.ROOT, "dist"))
    if rel is None:
        return None
    found = sorted(glob.glob(os.path.join(rel, "gin-rummy-pico-*.uf2")))
    return found[0] if found else None


def test_the_release_uf2_boots_to_the_title_and_says_its_version(kit):
    uf2 = _newest_uf2()
    if uf2 is None:
        pytest.skip("no release in dist/ (make release builds one)")
    version = os.path.basename(os.path.dirname(uf2))
    with boot_game(uf2, kit.bootrom, None) as p:
        out = p.output()
        assert "Traceback" not in out, out
        assert p.frames, "nothing was sent to the display"
        assert version in out, "the console does not say %s:\n%s" % (version, out)
        if version == VERSION:
            assert VERSION in out
