"""The web handheld's Python port (web/webport.py) and its build,
on CPython: no browser needed.

- The scripted-key mode matches the terminal simulator: same names, same
  timing constants, and the same frames key for key.
- Saves go through firmware.saves.storage into the key/value store and come back
  in a new start (the title offers CONTINUE).
- The wasm filesystem's errno numbering does not make a missing save look
  damaged; a store that refuses writes does not stop the game.
- The build packs every module the page imports, as mpy v6, and nothing
  device-only.
"""

import json
import os

import pytest

from web import webport
from engine.sha256 import hex_text
from tools.sim import simulator
from tools.sim.simulator import MemStorage, Sim
from tools.kit.ui_driver import presses_for, simple_choice, title_entries

SEED = 1


def keys_to_showdown(seed=SEED, limit=300):
    """The presses that play the first hand to its showdown (the simple
    policy as the player, the device AI as the opponent)."""
    sim = Sim(seed=seed, storage=MemStorage())
    sim.settle()
    keys = ["A"]
    sim.press("A")
    while sim.screen == "play" and len(keys) < limit:
        for k in presses_for(sim, simple_choice(sim.app.match.view(0))):
            sim.press(k)
            keys.append(k)
            if sim.screen != "play":
                break
    assert sim.screen == "showdown", "seed %d: the hand ended on %s" % (seed, sim.screen)
    return keys


def test_scripted_keys_are_stepped_by_firmware_keyscript_alone():
    """The page's test mode and the simulator press keys with
    firmware/keyscript.py's KeyScript; neither has a stepping of its own."""
    from firmware.keyscript import KeyScript

    for cls in (webport.Web, simulator.Sim):
        assert issubclass(cls, KeyScript)
        assert not {"run", "settle", "hold", "key"} & set(vars(cls)), cls


def test_fake_clock_frames_equal_the_simulator_key_for_key(tmp_path):
    keys = keys_to_showdown() + ["LB", "B", "w3000", "A"]
    web = webport.Web(webport.DictKv(), seed=SEED, fake=True, root=str(tmp_path))
    sim = Sim(seed=SEED, storage=MemStorage())
    sim.settle()
    assert bytes(web.display.buf) == sim.image()
    for i, k in enumerate(keys):
        web.press(k)
        sim.press(k)
        assert web.clock.t == sim.clock.t, (i, k)
        assert bytes(web.display.buf) == sim.image(), "frame differs after key %d (%s)" % (i, k)
        assert web.screen() == sim.screen
    assert web.keys_done == len(keys)


def test_saved_match_is_offered_after_a_restart(tmp_path):
    kv = webport.DictKv()
    web = webport.Web(kv, seed=SEED, fake=True, root=str(tmp_path / "a"))
    web.keys("A R A")
    assert web.screen() == "play"
    assert any(k.endswith("game.dat") for k in kv.items)
    # A new page: an empty filesystem, the same browser store.
    again = webport.Web(kv, seed=SEED, fake=True, root=str(tmp_path / "b"))
    assert again.screen() == "title"
    assert again.app.screen.keys[0] == "continue"
    assert again.app.match.seed == web.app.match.seed
    # The terminal simulator, restarted over its saves, shows the same.
    st = MemStorage()
    first = Sim(seed=SEED, storage=st)
    first.settle()
    first.keys("A R A")
    sim = Sim(seed=SEED, storage=st)
    sim.settle()
    assert bytes(again.display.buf) == sim.image()
    again.press("A")
    sim.press("A")
    assert again.screen() == "play"
    assert bytes(again.display.buf) == sim.image()


def test_the_game_record_is_kept_and_given_to_the_page(tmp_path):
    import subprocess
    import sys
    import engine

    kv = webport.DictKv()
    web = webport.Web(kv, seed=SEED, fake=True, root=str(tmp_path))
    assert web.record_text() == ""                 # no match, nothing kept
    web.keys(" ".join(keys_to_showdown()))
    assert web.screen() == "showdown"
    text = web.record_text()
    assert text == engine.record_text(web.app.match)
    assert any(k.endswith("-%d.txt" % web.app.match.seed) for k in kv.items)  # kept
    rec = tmp_path / "record.txt"
    rec.write_text(text)
    replay = os.path.join(os.path.dirname(webport.__file__), "..", "tools", "records", "replay.py")
    p = subprocess.run([sys.executable, replay, "--review", str(rec)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "  review of YOU: " in p.stdout, p.stdout + p.stderr
    web.app.session.end()                          # the match let go
    assert web.record_text() == text               # the newest kept


def test_real_and_test_saves_are_kept_apart(tmp_path):
    kv = webport.DictKv()
    webport.Web(kv, seed=SEED, fake=True, root=str(tmp_path / "a")).press("A")
    assert kv.items and all(k.startswith(webport.TEST_PREFIX) for k in kv.items)
    clock = webport.FakeClock()
    real = webport.Web(kv, seed=SEED, root=str(tmp_path / "b"), clock=clock)
    assert real.app.match is None


def test_store_keeps_what_the_filesystem_holds(tmp_path):
    kv = webport.DictKv()
    fs = webport.KvFs(kv, str(tmp_path), "p/")
    path = str(tmp_path / "x.dat")
    with fs.open(path, "wb") as f:
        f.write(b"\x00\xffhello")
    assert kv.items["p/x.dat"]
    fs.rename(path, str(tmp_path / "y.dat"))
    assert "p/x.dat" not in kv.items and "p/y.dat" in kv.items
    fs.remove(str(tmp_path / "y.dat"))
    assert kv.items == {}
    kv.setItem("p/z.dat", "AP9oZWxsbw==")
    kv.setItem("other/z.dat", "AAAA")
    assert webport.KvFs(kv, str(tmp_path / "new"), "p/").restore() == ["z.dat"]
    with open(str(tmp_path / "new" / "z.dat"), "rb") as f:
        assert f.read() == b"\x00\xffhello"


class WasiFs:
    """The wasm port's filesystem as it reports errors: a missing file is
    errno 44 (Emscripten/WASI numbering), not ENOENT (2)."""

    def __init__(self):
        from firmware.saves.storage import OsFs
        self.fs = OsFs()

    def _call(self, f, *a):
        try:
            return f(*a)
        except FileNotFoundError:
            raise OSError(44)

    def open(self, p, m):
        return self._call(self.fs.open, p, m)

    def rename(self, a, b):
        return self._call(self.fs.rename, a, b)

    def remove(self, p):
        return self._call(self.fs.remove, p)

    def stat(self, p):
        return self._call(self.fs.stat, p)

    def listdir(self, p):
        return self._call(self.fs.listdir, p)

    def mkdir(self, p):
        return self._call(self.fs.mkdir, p)


def test_missing_save_on_the_wasm_filesystem_is_not_damage(tmp_path):
    from firmware.saves.storage import Storage

    fs = webport.KvFs(webport.DictKv(), str(tmp_path), fs=WasiFs(),
                      errno_map=webport.WASI_ERRNO)
    st = Storage(str(tmp_path), fs=fs)
    assert st.load("match") == (None, None)
    assert st.damage == []
    assert st.save("match", b"abc")
    assert st.load("match") == (b"abc", None)


def test_a_stored_save_that_is_not_base64_is_set_aside_and_said(tmp_path):
    """Finding 6: such a value was skipped quietly (the game then started
    fresh, or resumed an older save, and said nothing)."""
    kv = webport.DictKv()
    web = webport.Web(kv, seed=SEED, fake=True, prefix="p/", root=str(tmp_path / "a"))
    web.keys("A R A")
    assert "p/game.dat" in kv.items
    kv.setItem("p/game.dat", "%% not base64 %%")
    again = webport.Web(kv, seed=SEED, fake=True, prefix="p/", root=str(tmp_path / "b"))
    assert again.screen() == "message"
    assert b"SAVE" in again.app.screen.title
    assert "not base64" in again.kv_error()
    assert "p/game.bad" in kv.items and "p/game.dat" in kv.items   # set aside; a new save


def test_a_tab_closed_inside_a_rename_leaves_the_save(tmp_path):
    """The store gets the new name before the old one goes: closing the
    tab between the two leaves both, never neither."""
    from tools.saves.cutsim import CutKv, FaultFS, Power, PowerCut

    kv = CutKv()
    fs = webport.KvFs(kv, "/d", "p/", fs=FaultFS(dirs=["/d"]))
    with fs.open("/d/a.dat", "wb") as f:
        f.write(b"save")
    kv.power = Power(1)
    with pytest.raises(PowerCut):
        fs.rename("/d/a.dat", "/d/b.dat")
    assert "p/b.dat" in kv.items


class FullKv(webport.DictKv):
    def setItem(self, k, v):
        raise RuntimeError("QuotaExceededError")


def test_a_store_that_refuses_writes_does_not_stop_the_game(tmp_path):
    web = webport.Web(FullKv(), seed=SEED, fake=True, root=str(tmp_path))
    web.keys("A R A")
    assert web.screen() == "play"
    assert "QuotaExceededError" in web.kv_error()


def test_button_changes_are_stepped_until_debounced():
    clock = webport.FakeClock()
    web = webport.Web(webport.DictKv(), seed=SEED, root="/nonexistent-web-test", clock=clock)
    assert web.step() > 1000          # the title waits for input
    web.set_buttons(webport.KEY_BITS["D"])
    assert web.step() <= webport.SAMPLE_MS
    clock.advance(webport.SAMPLE_MS)
    web.step()
    assert web.app.screen.menu.sel == 1


class Out:
    def __init__(self):
        self.calls = []

    def play(self, name, notes):
        self.calls.append((name, notes))


def test_sound_port_hands_the_page_the_devices_tune():
    out = Out()
    snd = webport.WebSound(out)
    snd.play("draw")
    name, notes = out.calls[0]
    assert name == "draw"
    try:
        from firmware.sound import TUNES
    except ImportError:
        assert notes == ""
    else:
        assert [int(x) for x in notes.split(",")] == list(TUNES["draw"])


# -- the build --

def test_build_packs_every_module_the_page_needs(web_dir):
    from tools.web import build

    with open(os.path.join(web_dir, "app.pack"), "rb") as f:
        data = f.read()
    head, _, body = data.partition(b"\n")
    index = json.loads(head)
    names = [p for p, _ in index["files"]]
    assert sum(n for _, n in index["files"]) == len(body) == index["bytes"]
    assert "webport.mpy" in names
    for rel in build.sources():
        assert build.mount_path(rel)[:-3] + ".mpy" in names
    for dev in build.DEVICE_ONLY:
        assert dev[:-3] + ".mpy" not in names
    for p in ("engine/__init__.mpy", "firmware/app.mpy", "firmware/screens/play.mpy"):
        assert p in names
    off = 0
    for _, n in index["files"]:
        assert body[off:off + 2] == b"M\x06"      # mpy v6: what the wasm port loads
        off += n
    for f in ("index.html", "web.js", "style.css", "micropython.mjs", "micropython.wasm"):
        assert os.path.getsize(os.path.join(web_dir, f)) > 0


def test_build_refuses_to_replace_a_foreign_folder(tmp_path):
    from tools.web import build

    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(SystemExit):
        build.build(str(tmp_path), quiet=True)
    assert (tmp_path / "keep.txt").read_text() == "mine"


class OddKv(webport.DictKv):
    """A store as a damaged browser profile may hold: values that are not
    text (a proxy the page could not turn into a string)."""

    def getItem(self, k):
        v = self.items.get(k)
        if v == "<not text>":
            return 12345
        if v == "<refuses>":
            raise RuntimeError("SecurityError")
        return v


def test_a_damaged_local_storage_is_skipped_and_said_and_the_page_starts(tmp_path, capsys):
    """A key holding a NUL, a 300-character key, a slash, values that are
    not text or not base64: the page used to stop at the first (the
    filesystem refused the name); now it restores what it can, skips the
    rest and says each on the console."""
    kv = OddKv()
    web = webport.Web(kv, seed=SEED, fake=True, root=str(tmp_path / "a"))
    web.keys("A R A")
    good = dict(kv.items)
    assert any(k.endswith("game.dat") for k in good)
    p = webport.TEST_PREFIX        # fake=True: the test mode's keys
    kv.items[p + "bad\x00name.dat"] = "AAAA"
    kv.items[p + "x" * 300] = "AAAA"
    kv.items[p + "sub/dir.dat"] = "AAAA"
    kv.items[p + "value.dat"] = "<not text>"
    kv.items[p + "locked.dat"] = "<refuses>"
    kv.items[p + ""] = "AAAA"
    kv.items[p + "junk.dat"] = "\u2603 not base64 \u2603"
    kv.items["other-site-key"] = "\x00" * 10
    capsys.readouterr()
    again = webport.Web(kv, seed=SEED, fake=True, root=str(tmp_path / "b"))
    said = capsys.readouterr().out
    # the page started and offers the saved match
    assert again.screen() == "title"
    assert again.app.screen.keys[0] == "continue"
    assert again.app.match.seed == web.app.match.seed
    # each key it could not use is skipped and said, one line each
    skipped = again.fs.skipped
    assert len(skipped) == 6, skipped
    for why in ("its name holds a NUL", "a file name of 300 characters (at most 64)",
                "its name holds a slash", "its value is not text",
                "it could not be read (SecurityError)", "no file name after the prefix"):
        assert sum(why in s for s in skipped) == 1, (why, skipped)
        assert why in said
    assert said.count("web: skipped the stored key") == 6
    # the restored files are the good ones and the junk one (not base64:
    # the storage's own check sets it aside)
    assert sorted(again.restored) == sorted([k[len(p):] for k in good] + ["junk.dat"])
    assert "other-site-key" in kv.items          # another page's keys untouched


def test_the_page_in_play_deals_committed_hands_and_test_mode_does_not(tmp_path):
    web = webport.Web(webport.DictKv(), seed=SEED, fake=False, root=str(tmp_path / "a"),
                      clock=webport.FakeClock())
    assert web.app.life.entropy is not None
    web.app.life.new_match()
    # the match commitment is shown first; the player's cut deals
    assert web.app.match is None and web.app.session.kind == "cut"
    from firmware.cutwait import deal
    deal(web.app, "AAAA")
    web.app.step()                  # the title's tick deals (firmware/matchlife.py, Life.deal)
    m = web.app.match
    assert m.committed and m.cut == "AAAA" and m.hand.deal is None and len(m.hand.commit) == 10
    # the page's record link, in the middle of the hand: its commitment only
    line = [ln for ln in web.record_text().split("\n") if ln.startswith("hand 1 ")]
    assert line == ["hand 1 commit %s first 0" % hex_text(m.chain_head())]
    assert hex_text(m.chain_head()).startswith(m.hand.commit)
    test = webport.Web(webport.DictKv(), seed=SEED, fake=True, root=str(tmp_path / "b"))
    assert test.app.life.entropy is None


class PipeHost:
    """web.js's end of the link channel, in memory: what one host posts
    the other's port reads (the channel's pairing is the page's; here the
    two are always paired)."""

    def __init__(self):
        self.q = bytearray()
        self.peer = None
        self.uses = []

    def any(self):
        return len(self.q)

    def take(self, at, n):
        k = min(n, len(self.q))
        at[:k] = self.q[:k]
        del self.q[:k]
        return k

    def post(self, at, n):
        self.peer.q.extend(bytes(at[:n]))

    def use(self, on):
        self.uses.append(on)


def pipe():
    a, b = PipeHost(), PipeHost()
    a.peer, b.peer = b, a
    return a, b


def test_the_link_port_reads_and_writes_through_the_page_without_a_buffer_per_read():
    a, b = pipe()
    pa, pb = webport.LinkPort(a), webport.LinkPort(b)
    assert pa.any() == 0 and bytes(pa.read(10)) == b""
    assert pb.write(memoryview(b"\x7eHELLO")[:6]) == 6
    assert pa.any() == 6
    first = pa.read(4)
    assert bytes(first) == b"\x7eHEL"
    assert first.obj is pa.rx                    # a view of the port's one buffer
    assert bytes(pa.read(100)) == b"LO" and pa.any() == 0
    pb.write(bytes(2000))                        # a read takes at most RX_SIZE
    assert len(pa.read(5000)) == webport.RX_SIZE and pa.any() == 2000 - webport.RX_SIZE


def test_the_link_screen_speaks_of_the_other_tab_not_of_a_cable():
    """Alone in LINK, the page says to open a second tab, and when the
    other tab goes quiet, that it was closed: never a cable's TX and RX."""
    from firmware.link.link import LOST, Link
    a, _ = pipe()
    t = [1000]
    link = Link(webport.LinkPort(a), lambda: t[0], lambda n: bytes(range(1, n + 1)), "1.0",
                "cardems")
    for _ in range(10):
        link.poll()
        t[0] += 500
    words = link.words()
    assert "other tab" in words and "LINK" in words and "TX" not in words, words
    link.status = LOST
    assert "other tab" in link.words() and "cable" not in link.words()


def _press(webs, clock, web, bit):
    for mask in (bit, 0):
        web.set_buttons(mask)
        for _ in range(8):
            for w in webs:
                w.step()
            clock.advance(10)


def test_the_page_opens_one_title_at_power_on_with_link(tmp_path, monkeypatch):
    # the App gets the link port with the others: the page's first title
    # offers LINK, and no second title is made for it
    from tools.link import fakelink

    entered = title_entries(monkeypatch)
    web = webport.Web(webport.DictKv(), seed=SEED, root=str(tmp_path),
                      clock=webport.FakeClock(), entropy=fakelink.entropy(7), link=PipeHost())
    for _ in range(5):
        web.step()
    assert entered == [0] and web.app.screen_name == "title"
    assert web.app.screen.keys[-1] == "link" and web.app.full_frames == 1


def test_link_on_the_title_in_play_not_in_test_mode_and_two_pages_link(tmp_path):
    from firmware import buttons as btn
    from tools.link import fakelink

    clock = webport.FakeClock()
    hosts = pipe()
    webs = [webport.Web(webport.DictKv(), seed=SEED + i, root=str(tmp_path / str(i)),
                        clock=clock, entropy=fakelink.entropy(7 + i), link=hosts[i])
            for i in range(2)]
    test = webport.Web(webport.DictKv(), seed=SEED, fake=True, root=str(tmp_path / "t"),
                       link=PipeHost())
    assert test.link is None and "link" not in test.app.screen.keys
    for w in webs:
        keys = w.app.screen.keys
        assert keys[-1] == "link"
        for _ in range(len(keys) - 1):
            _press(webs, clock, w, btn.DOWN)
        _press(webs, clock, w, btn.A)
    for _ in range(3000):
        if all(w.app.screen_name == "link_play" for w in webs):
            break
        for w in webs:
            w.step()
        clock.advance(10)
    assert [w.app.screen_name for w in webs] == ["link_play", "link_play"]
    assert [h.uses for h in hosts] == [[True], [True]]      # the channel told: a match on
    assert sorted(w.app.session.role for w in webs) == [0, 1]
    assert webs[0].app.match.hand.commit == webs[1].app.match.hand.commit
    # back to the title: the channel is told the match is over
    w = webs[0]
    w.app.go("title")
    w.step()
    assert hosts[0].uses == [True, False]
