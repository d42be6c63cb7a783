"""Releases (tools/deploy/release.py, docs/RELEASING.md): every file of each
dist/<version>/ against its SHA256SUMS and the RELEASE file's commit; the
release script's archives are byte-for-byte the same when built twice; its
SHA256SUMS is what `sha256sum -c` reads; `verify` with no release and with a
commit the clone lacks."""

import io
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from tools.deploy import pages
from tools.deploy import release as rel

ROOT = rel.ROOT
DIST = os.path.join(ROOT, "dist")
EPOCH = 1764979200   # 2025-12-06 00:00:00 UTC


def _releases():
    if not os.path.isdir(DIST):
        return []
    return sorted(d for d in os.listdir(DIST) if os.path.isdir(os.path.join(DIST, d)))


@pytest.mark.parametrize("version", _releases() or [None])
def test_every_file_of_a_release_matches_its_sha256sums(version):
    if version is None:
        pytest.skip("no dist/ folder: no release is committed yet (make release builds one)")
    folder = os.path.join(DIST, version)
    with open(os.path.join(folder, rel.SUMS_FILE), encoding="utf-8") as f:
        sums = rel.parse_sums(f.read())
    want = set(rel.names(version))
    source = rel.source_name(version)
    files = {rel.SUMS_FILE}
    if rel.version_key(version) <= rel.version_key("1.1.0"):
        # released before the source archive was part of a release: the
        # archive came later, with its sum apart (SHA256SUMS as released)
        want.discard(source)
        if os.path.exists(os.path.join(folder, rel.SOURCE_SUMS_FILE)):
            with open(os.path.join(folder, rel.SOURCE_SUMS_FILE), encoding="utf-8") as f:
                later = rel.parse_sums(f.read())
            assert set(later) == {source}, later
            files |= {rel.SOURCE_SUMS_FILE, source}
            assert rel.sha256_file(os.path.join(folder, source)) == later[source]
    assert set(sums) == want, "SHA256SUMS lists %s" % sorted(sums)
    assert set(os.listdir(folder)) == want | files, sorted(os.listdir(folder))
    for name, digest in sums.items():
        assert rel.sha256_file(os.path.join(folder, name)) == digest, name
    with open(os.path.join(folder, rel.RELEASE_FILE), encoding="utf-8") as f:
        info = rel.parse_release(f.read())
    assert info["version"] == version
    assert re.fullmatch(r"[0-9a-f]{40}", info["commit"]), info.get("commit")
    assert int(info["SOURCE_DATE_EPOCH"]) > 0
    for key in ("micropython", "arm-none-eabi-gcc", "cmake", "picotool", "mpy-cross",
                "python", "node"):
        assert info.get(key), "RELEASE has no %s line" % key
    with open(os.path.join(folder, "gin-rummy-pico-%s.uf2" % version), "rb") as f:
        uf2 = f.read()
    assert len(uf2) % 512 == 0 and uf2[:8] == b"UF2\nWQ]\x9e"
    for name in want:
        if name.endswith(".zip"):
            with zipfile.ZipFile(os.path.join(folder, name)) as z:
                assert z.testzip() is None
                assert any(n.endswith("/INSTALL.txt") or n.endswith("/README.txt")
                           for n in z.namelist()), name


def _entries(z):
    return [(i.filename, i.date_time, i.external_attr, i.create_system) for i in z.infolist()]


def test_the_bundle_zip_is_the_same_bytes_when_built_twice(tmp_path):
    a = rel.build_mpy_zip("9.9.9", EPOCH, "0" * 40, str(tmp_path / "a"))
    b = rel.build_mpy_zip("9.9.9", EPOCH, "0" * 40, str(tmp_path / "b"))
    assert a == b
    with zipfile.ZipFile(io.BytesIO(a)) as z:
        names = z.namelist()
        assert names == sorted(names)
        assert "gin-rummy-mpy-9.9.9/main.py" in names
        assert "gin-rummy-mpy-9.9.9/engine/version.mpy" in names
        assert "gin-rummy-mpy-9.9.9/INSTALL.txt" in names
        for name, stamp, attr, system in _entries(z):
            assert name.startswith("gin-rummy-mpy-9.9.9/") and not name.startswith("/")
            assert stamp == (2025, 12, 6, 0, 0, 0)
            assert attr >> 16 == 0o100644 and system == 3
        text = z.read("gin-rummy-mpy-9.9.9/INSTALL.txt").decode()
        assert "mpremote" in text and "1.28" in text and "9.9.9" in text
    # a later commit time is a different archive (the stamps follow it)
    assert rel.build_mpy_zip("9.9.9", EPOCH + 3600, "0" * 40, str(tmp_path / "c")) != a


def test_the_circuitpython_zip_is_the_same_bytes_when_built_twice():
    a = rel.build_cp_zip("9.9.9", EPOCH, "1" * 40)
    assert a == rel.build_cp_zip("9.9.9", EPOCH, "1" * 40)
    with zipfile.ZipFile(io.BytesIO(a)) as z:
        names = z.namelist()
        top = "gin-rummy-circuitpython-9.9.9/"
        assert top + "code.py" in names and top + "boot.py" in names
        assert top + "engine/__init__.py" in names and top + "firmware/app.py" in names
        assert not any(n.endswith("firmware/pico/pico.py") for n in names)
        assert "adafruit_displayio_ssd1306" in z.read(top + "INSTALL.txt").decode()
        assert "MIT" in z.read(top + "LICENSE").decode()     # the licences travel with it


def test_zip_bytes_does_not_depend_on_the_order_given_and_refuses_bad_paths():
    entries = [("x/b.txt", b"b"), ("x/a.txt", b"a" * 1000), ("x/c/d.txt", b"")]
    z1 = rel.zip_bytes(entries, EPOCH)
    assert z1 == rel.zip_bytes(list(reversed(entries)), EPOCH)
    with zipfile.ZipFile(io.BytesIO(z1)) as z:
        assert z.namelist() == ["x/a.txt", "x/b.txt", "x/c/d.txt"]
        assert z.read("x/a.txt") == b"a" * 1000
    for bad in ("/abs/path", "x/../y", "x\\y"):
        with pytest.raises(ValueError):
            rel.zip_bytes([(bad, b"")], EPOCH)
    with pytest.raises(ValueError):
        rel.zip_bytes([("x", b"1"), ("x", b"2")], EPOCH)


def test_sha256sums_is_what_sha256sum_checks(tmp_path):
    (tmp_path / "one.zip").write_bytes(b"one")
    (tmp_path / "two.uf2").write_bytes(b"\x00" * 513)
    text = rel.sums_text(str(tmp_path), ["two.uf2", "one.zip"])
    lines = text.splitlines()
    assert len(lines) == 2 and lines[0].endswith("  one.zip") and lines[1].endswith("  two.uf2")
    assert rel.parse_sums(text)["one.zip"] == \
        "7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed"
    (tmp_path / "SHA256SUMS").write_text(text)
    if shutil.which("sha256sum"):
        r = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=str(tmp_path),
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
        (tmp_path / "one.zip").write_bytes(b"One")
        r = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=str(tmp_path),
                           capture_output=True, text=True)
        assert r.returncode != 0 and "FAILED" in r.stdout
    for bad in ("abc  one.zip", "%s one.zip" % ("0" * 64), "%s  dir/one.zip" % ("0" * 64)):
        with pytest.raises(ValueError):
            rel.parse_sums(bad)


def test_newest_release_orders_versions_as_numbers(tmp_path):
    assert rel.newest_release(str(tmp_path / "none")) is None
    for v in ("1.9.2", "1.10.0", "1.2.0"):
        (tmp_path / v).mkdir()
        (tmp_path / v / "RELEASE").write_text("version: %s\n" % v)
    (tmp_path / "2.0.0").mkdir()                     # no RELEASE: not a release
    # the release being built, its RELEASE file written before the latency
    # bench compares it with the newest release: not that release
    (tmp_path / "1.11.0.partial").mkdir()
    (tmp_path / "1.11.0.partial" / "RELEASE").write_text("version: 1.11.0\n")
    assert os.path.basename(rel.newest_release(str(tmp_path))) == "1.10.0"


def _verify(dist):
    return subprocess.run([sys.executable, "-m", "tools.deploy.release",
                           "verify", "--dist", str(dist)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_verify_with_no_release_says_so_and_succeeds(tmp_path):
    r = _verify(tmp_path / "dist")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no release" in r.stdout and "make release" in r.stdout


def test_verify_of_a_commit_the_clone_lacks_says_so_and_fails(tmp_path):
    d = tmp_path / "dist" / "1.0.0"
    d.mkdir(parents=True)
    (d / "RELEASE").write_text("version: 1.0.0\ncommit: %s\nSOURCE_DATE_EPOCH: 1\n" % ("ab" * 20))
    (d / "gin-rummy-pico-1.0.0.uf2").write_bytes(b"")
    r = _verify(tmp_path / "dist")
    assert r.returncode == 1
    assert "not in this clone" in r.stdout and "ab" * 20 in r.stdout
    (d / "RELEASE").write_text("version: 1.0.0\n")
    r = _verify(tmp_path / "dist")
    assert r.returncode == 1 and "names no commit" in r.stdout


def test_a_dirty_work_tree_is_seen(tmp_path):
    repo = str(tmp_path)
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    for cmd in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "x"]):
        subprocess.run(["git"] + cmd, cwd=repo, check=True, env=env)
    assert rel.dirty(repo) == []
    (tmp_path / "new.py").write_text("x = 1\n")
    assert rel.dirty(repo) == ["?? new.py"]


def test_every_zip_s_note_stands_alone(tmp_path):
    """Each zip carries its docs and a note with the pin table and the
    buttons, read from firmware/board/board.py, and sends nobody to an address;
    its README installs the release the zip is in."""
    from firmware.board import board
    from tools.deploy.pages import name_release
    zips = {"mpy": rel.build_mpy_zip("9.9.9", EPOCH, "0" * 40, str(tmp_path / "m")),
            "circuitpython": rel.build_cp_zip("9.9.9", EPOCH, "1" * 40)}
    for kind, data in zips.items():
        top = "gin-rummy-%s-9.9.9/" % kind
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = z.namelist()
            for doc in rel.docs():
                assert top + doc in names, (kind, doc)
                with open(os.path.join(rel.ROOT, doc), "rb") as f:
                    want = f.read()
                if doc.endswith(".md"):      # the pages name the zip's own release
                    want = name_release(want.decode(), "9.9.9").encode()
                assert z.read(top + doc) == want, (kind, doc)
            readme = z.read(top + "README.md").decode()
            assert "gin-rummy-pico-9.9.9.uf2" in readme
            assert [v for _, v, _ in pages.names(readme)] == ["9.9.9"] * len(pages.names(readme))
            text = z.read(top + "INSTALL.txt").decode()
        for n, pin in ((board.I2C_SDA, 6), (board.I2C_SCL, 7), (board.BTN_LEFT, 14),
                       (board.BTN_A, 19), (board.BTN_B, 20)):
            assert "GP%d, pin %d" % (n, pin) in text, (kind, n)
        for name in ("LEFT", "RIGHT", "UP", "DOWN", "A ", "B "):
            assert "\n  %s" % name in text, (kind, name)
        assert "3V3(OUT), pin 36" in text and "README.md" in text
        assert "repository's README" not in text and "OWNER" not in text
        assert "KB" not in text and " ms" not in text      # no lab figures
    web = rel.note_text("web", "9.9.9", "0" * 40)
    assert "http://localhost:8000/" in web and "README.md" in web and "Backspace" in web


def test_a_development_version_is_released_as_the_plain_one(tmp_path):
    (tmp_path / "engine").mkdir()
    vf = tmp_path / "engine" / "version.py"
    vf.write_text('"""doc"""\n\nVERSION = "1.1.0-dev"\n\nDEV = "-dev"\n')
    assert rel.set_plain_version(str(tmp_path)) == "1.1.0"
    assert vf.read_text() == '"""doc"""\n\nVERSION = "1.1.0"\n\nDEV = "-dev"\n'
    assert rel.set_plain_version(str(tmp_path)) == "1.1.0"        # a release stays as it is
    assert sorted(["1.1.0", "1.0.0", "1.1.0-dev", "1.10.0", "1.9.2"], key=rel.version_key) == [
        "1.0.0", "1.1.0-dev", "1.1.0", "1.9.2", "1.10.0"]


def test_a_development_build_names_its_commit(tmp_path):
    from tools.deploy import buildinfo
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "version.py").write_text('VERSION = "2.0.0-dev"\n')
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert buildinfo.dev_commit(str(tmp_path)) == ""               # no commit yet
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    subprocess.run(["git", "-C", str(tmp_path), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "commit", "-qm", "x"], check=True, env=env)
    short = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True).stdout.strip()
    assert buildinfo.dev_commit(str(tmp_path)) == short
    out = buildinfo.write_module(str(tmp_path / "gen"), str(tmp_path))
    assert (tmp_path / "gen" / "engine" / "build_commit.py").read_text().endswith(
        "COMMIT = %r\n" % short)
    assert out == str(tmp_path / "gen")
    (tmp_path / "engine" / "version.py").write_text('VERSION = "2.0.0"\n')
    assert buildinfo.dev_commit(str(tmp_path)) == ""               # a release names none
    assert buildinfo.write_module(str(tmp_path / "gen2"), str(tmp_path)) is None


def test_the_web_page_and_the_circuitpython_copy_name_the_commit_of_a_development_build(
        tmp_path, monkeypatch):
    from tools.deploy import buildinfo
    from tools.deploy import deploy_circuitpython as dc
    from tools.web import build as wb
    monkeypatch.setattr(buildinfo, "dev_commit", lambda root=None: "abc1234")
    files = wb.commit_files(str(tmp_path), source=True)
    assert files == [("engine/build_commit.py",
                      (tmp_path / "commit" / "engine" / "build_commit.py").read_bytes())]
    assert b"COMMIT = 'abc1234'" in files[0][1]
    mpy = wb.commit_files(str(tmp_path / "m"), source=False)
    assert mpy[0][0] == "engine/build_commit.mpy" and mpy[0][1][:1] == b"M"
    plan = dict((dst, src) for src, dst in dc.plan())
    with open(plan["engine/build_commit.py"], encoding="utf-8") as f:
        assert "COMMIT = 'abc1234'" in f.read()
    # a release names none
    monkeypatch.setattr(buildinfo, "dev_commit", lambda root=None: "")
    assert wb.commit_files(str(tmp_path / "r")) == []
    assert "engine/build_commit.py" not in [dst for _, dst in dc.plan()]


def _newest():
    return max(_releases(), key=rel.version_key) if _releases() else None


def test_the_newest_release_holds_its_source_as_git_archive_gives_it(tmp_path):
    """The source archive is `git archive` of the commit the release's
    RELEASE file names (dist/ left out), gzipped the same way every time:
    unpacked, it is what git gives for that commit, byte for byte."""
    import gzip
    v = _newest()
    if v is None:
        pytest.skip("no dist/ folder: no release is committed yet")
    folder = os.path.join(DIST, v)
    version, commit, epoch = rel.release_info(folder)
    if subprocess.run(["git", "cat-file", "-e", commit + "^{commit}"], cwd=ROOT,
                      capture_output=True).returncode:
        pytest.skip("commit %s of release %s is not in this clone" % (commit[:12], v))
    with open(os.path.join(folder, rel.source_name(v)), "rb") as f:
        shipped = f.read()
    assert rel.source_archive(commit, version, epoch) == shipped
    top = "gin-rummy-source-%s/" % v
    tar = subprocess.run(["git", "archive", "--format=tar", "--prefix=" + top, commit, "--", ".",
                          ":(exclude)dist"], cwd=ROOT, capture_output=True, check=True).stdout
    assert gzip.decompress(shipped) == tar
    import tarfile
    with tarfile.open(fileobj=io.BytesIO(shipped)) as t:
        got = t.getnames()
    assert top + "README.md" in got and top + "engine/version.py" in got
    assert not any(n.startswith(top + "dist") for n in got)
    r = subprocess.run(["git", "get-tar-commit-id"], input=tar, capture_output=True, cwd=ROOT)
    assert r.stdout.decode().strip() == commit


def test_the_source_archive_of_a_commit_is_the_same_bytes_when_made_twice(tmp_path):
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    a = rel.source_archive(head, "9.9.9", EPOCH)
    assert a == rel.source_archive(head, "9.9.9", EPOCH)
    assert a[:2] == b"\x1f\x8b" and a != rel.source_archive(head, "9.9.9", EPOCH + 1)
    # an earlier release gets its archive beside its files, SHA256SUMS untouched
    d = tmp_path / "1.0.0"
    d.mkdir()
    (d / "RELEASE").write_text("version: 1.0.0\ncommit: %s\nSOURCE_DATE_EPOCH: %d\n"
                               % (head, EPOCH))
    (d / "SHA256SUMS").write_text("%s  RELEASE\n" % rel.sha256_file(str(d / "RELEASE")))
    assert rel.main(["source", str(d)]) == 0
    assert (d / "SHA256SUMS").read_text().count("\n") == 1
    assert (d / "gin-rummy-source-1.0.0.tar.gz").read_bytes() == \
        rel.source_archive(head, "1.0.0", EPOCH)
    assert rel.parse_sums((d / "SHA256SUMS-source").read_text()) == {
        "gin-rummy-source-1.0.0.tar.gz": rel.sha256_file(str(d / "gin-rummy-source-1.0.0.tar.gz"))}


NOTE_PATH = re.compile(r"(?<![\w/:$.-])((?:[\w-]+/)*[\w.-]+\.(?:md|svg|png|txt|uf2|zip|gz|py)|docs/)"
                       r"(?![\w/])")


def test_nothing_in_a_zip_leads_out_of_the_release(tmp_path):
    """Every link of every page a zip carries leads to a file in the zip
    (or to one of the release's own files, beside the zip), and every file
    the zip's note names is in the zip or the release: the zips stand
    alone. Tried on the zips' contents."""
    v = "9.9.9"
    release_files = set(rel.names(v))
    zips = {"mpy": rel.build_mpy_zip(v, EPOCH, "0" * 40, str(tmp_path / "m")),
            "circuitpython": rel.build_cp_zip(v, EPOCH, "1" * 40)}
    for kind, data in zips.items():
        top = "gin-rummy-%s-%s/" % (kind, v)
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = {n[len(top):] for n in z.namelist()}
            pages_in = [n for n in names if n.endswith(".md")]
            assert len(pages_in) >= 10 and "docs/AI.md" in names and "web/screenshot.png" in names
            for page in pages_in:
                for target in pages.link_targets(z.read(top + page).decode(), page):
                    if target.startswith("dist/%s/" % v):
                        assert target.split("/")[-1] in release_files, (kind, page, target)
                    else:
                        assert target in names, (kind, page, target)
            note = z.read(top + "INSTALL.txt").decode()
        said = set(NOTE_PATH.findall(note))
        assert {"README.md", "docs/BOARD.md", "gin-rummy-source-%s.tar.gz" % v} <= said, said
        for path in said - release_files:
            assert path in names or path.rstrip("/") in {n.split("/")[0] for n in names}, (
                kind, path)
    web = rel.note_text("web", v, "0" * 40)
    assert set(NOTE_PATH.findall(web)) <= set(rel.docs()) | release_files | {"docs/"}, web


def test_the_notes_template_fills_every_field(tmp_path):
    """tools/deploy/release_notes.txt: every zip's note and the docs note
    are there, each filled in whole (no brace left), the MicroPython it
    names being tools/kit/mpversion.py's; a section's last newline is its
    own (the INSTALL files end with one, the docs note, set inside them,
    does not)."""
    from tools.kit.mpversion import MINOR
    t = rel.notes()
    assert set(t) == set(rel.NOTE_OF.values()) | {"docs"}
    for kind in rel.NOTE_OF:
        text = rel.note_text(kind, "9.9.9", "f" * 40)
        assert "{" not in text and "}" not in text, kind
        assert text.startswith("Gin Rummy 9.9.9") and text.endswith("Source commit: " + "f" * 40 + "\n")
    assert "stock MicroPython %s for the board" % MINOR in rel.note_text("mpy", "1", "c")
    assert not t["docs"].endswith("\n")
    odd = tmp_path / "notes.txt"
    odd.write_text("# comment\n@@ a\none\n\n@@ b\ntwo\n")
    assert rel.notes(str(odd)) == {"a": "one\n", "b": "two"}
