"""A link match on the MicroPython unix port from the .mpy bundle
(tools/link/heap_link.py): the App makes the deal with a scripted board
and reaches its table; the link's modules are imported only for it and
unloaded at the title, and its heap stays far below a match against the
CPU's."""

import pytest

from tools.bench.bench_ui import micropython_path
from tools.link import heap_link


def test_link_match_is_cold_and_unloaded_on_micropython(tmp_path):
    if micropython_path() is None:
        pytest.skip("MicroPython unix port not installed (.venv/bin/micropython)")
    from tools.deploy import deploy

    out = str(tmp_path / "bundle")
    deploy.build(out, quiet=True)
    got = heap_link.run(out, "link")
    assert got["screen"] == "link_play"
    assert got["unloaded"] == "1"
    assert int(got["code"]) < 20000
    # 30.5 KB before the deals came from both secrets with transcripts
    # and a seal (engine/cut.py, about 6 KB of code on this 64-bit port;
    # on the board it is frozen in flash with the rest of the link)
    assert int(got["link_table"]) < 40000
    assert int(got["title_after"]) < 6000
