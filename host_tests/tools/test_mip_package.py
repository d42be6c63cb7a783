"""mip/package.json (tools/deploy/mip_package.py): up to date with the tree,
the same modules as the .mpy bundle (tools/deploy/deploy.py), every source
there, the version engine.version.VERSION; and installed with mpremote's own
mip code from a checkout, it lays the game out as `make flash` does."""

import json
import os

import pytest

from engine.version import VERSION
from tools.deploy import deploy, mip_package

ROOT = mip_package.ROOT
MIP = os.path.join(ROOT, "mip", "package.json")


def load():
    with open(MIP) as f:
        return json.load(f)


def test_committed_file_is_up_to_date():
    with open(MIP) as f:
        assert f.read() == mip_package.text(), "run tools/deploy/mip_package.py"


def test_format_is_mips():
    pkg = load()
    assert sorted(pkg) == ["deps", "urls", "version"]
    assert pkg["version"] == VERSION
    assert pkg["deps"] == []
    for u in pkg["urls"]:
        assert isinstance(u, list) and len(u) == 2 and all(isinstance(x, str) for x in u)


def test_every_source_exists_and_lands_where_the_bundle_puts_it():
    for dest, src in load()["urls"]:
        path = os.path.normpath(os.path.join(ROOT, "mip", src))
        assert os.path.isfile(path), src
        if dest == "main.py":
            assert src == "../firmware/main.py"
        else:
            assert src == "../" + dest


def test_same_modules_as_the_bundle(tmp_path):
    files = deploy.build(str(tmp_path / "bundle"), quiet=True)
    bundle = sorted(f[:-4] if f.endswith(".mpy") else f[:-3] for f in files)
    mip = sorted(d[:-3] for d, _ in load()["urls"])
    assert mip == bundle
    # and both cover every module of the packages the bundle ships, but the
    # scripted presses of the web page and the emulated Pico's scripts
    assert "firmware/keyscript" not in mip
    for pkg in deploy.PACKAGES:
        for d, _, fs in os.walk(os.path.join(ROOT, pkg)):
            for f in fs:
                if f.endswith(".py") and "__pycache__" not in d:
                    rel = os.path.relpath(os.path.join(d, f), ROOT).replace(os.sep, "/")
                    if rel not in ("firmware/main.py", "firmware/keyscript.py"):
                        assert rel[:-3] in mip, rel


def test_npm_file_says_it_is_not_the_game_package():
    with open(os.path.join(ROOT, "package.json")) as f:
        npm = json.load(f)
    assert npm["name"] == "gin-rummy-pico-host-tests"
    assert "mip/package.json" in npm["description"]


class FakeBoard:
    """mpremote's transport, as far as mip uses it: a folder for the board."""

    def __init__(self, root):
        self.root = root

    def _p(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def fs_exists(self, path):
        return os.path.exists(self._p(path))

    def fs_mkdir(self, path):
        os.mkdir(self._p(path))

    def fs_writefile(self, path, data, progress_callback=None):
        with open(self._p(path), "wb") as f:
            f.write(data)

    def fs_hashfile(self, path, algo):
        raise FileNotFoundError(path)


def test_mpremote_installs_it_from_a_checkout(tmp_path, capsys):
    mip = pytest.importorskip("mpremote.mip")
    board = tmp_path / "board"
    board.mkdir()
    # mpremote mip install --target= mip/package.json, run in the checkout
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        mip._install_package(FakeBoard(str(board)), "mip/package.json", None, "", None, False)
    finally:
        os.chdir(cwd)
    got = sorted(os.path.relpath(os.path.join(d, f), board).replace(os.sep, "/")
                 for d, _, fs in os.walk(board) for f in fs)
    assert got == sorted(d for d, _ in load()["urls"])
    assert (board / "main.py").read_bytes() == open(os.path.join(ROOT, "firmware", "main.py"),
                                                    "rb").read()
    assert (board / "engine" / "version.py").read_bytes() == open(
        os.path.join(ROOT, "engine", "version.py"), "rb").read()
