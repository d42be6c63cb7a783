"""Browser ports for the handheld: the firmware's App on the MicroPython
WebAssembly port, driven by web/web.js.

The page runs the very same engine/ and firmware/ code as the device; only
the ports differ:

- Display: show(buf) keeps the buffer it was given and counts frames;
  web.js copies it to the canvas when the count moves (frame_addr() is the
  buffer's address in the wasm memory, read without a copy). contrast(v)
  is kept for the page to dim the canvas (idle dimming, brightness).
- Buttons: firmware.buttons.Buttons over a mask the page sets with
  set_buttons(mask) on every press and release (keyboard, mouse, touch);
  each change is sampled at once, and step() asks to come back within
  SAMPLE_MS while a change waits for its debounce.
- Clock: time.ticks_ms (wraps at 2**30 like the board's).
- Storage: firmware.saves.storage.Storage on the wasm filesystem (MEMFS, under
  /data) through KvFs, which mirrors every file it writes, renames or
  removes into a key/value store: the browser's localStorage, handed in by
  the page. restore() puts the files back at start, so saves, settings and
  statistics survive a reload. A store that refuses a write (quota,
  disabled storage) leaves the game running; `kv_error` says why. A
  stored value that is not base64 is restored as its own text, so the
  storage finds the file damaged, sets it aside and tells the player. A
  key that cannot be a file name (a NUL, 300 characters...), a value that
  is not text or a file the filesystem refuses is skipped and said on the
  console (restore()); the page starts anyway.
  The wasm port's filesystem reports errors in Emscripten's (WASI)
  numbering (a missing file is errno 44, not ENOENT = 2); KvFs turns them
  into the numbers firmware.saves.storage and `errno` use, or a missing save
  would look damaged.
- Game records: the last matches' records are kept as on the board
  (firmware/saves/records.py; in /data beside the saves, as the store mirrors
  one folder); record_text()
  gives the page the match in play's record, or the newest kept, for its
  "game record" link (tools/records/replay.py replays it, --review reviews it).
- Sound: WebSound.play(name) hands the page the device's tune for `name`
  (firmware.sound.TUNES where that module exists: the buzzer's notes) as
  "hz,ms,hz,ms..."; web.js plays it with WebAudio square waves, or a beep
  of its own when there is no tune. The page's mute switch silences it.
- Link: LinkPort, the cable of link play (firmware/link/linkmatch.py,
  docs/LINK.md "In the browser"): any()/read(n)/write(buf) over the page's
  BroadcastChannel between tabs (web.js pairs two tabs and carries the
  bytes). Bytes cross between Python and the page through the wasm memory
  (the page copies them in and out at an address), so the port allocates
  nothing per frame. Given to the App as its link port, it puts LINK on the title; the
  page tells the channel when a link match starts and ends (use()), so a
  tab at its title is no one's cable.

Checking a game record: check_record(text, noted) gives the page's "Check a
game record" panel the verdict of engine/verify.py (what
tools/records/replay.py --verify prints), hand by hand, as JSON. It needs
no App: the page can check a record without playing, and the engine's
verify module is imported only when a record is checked.

Test mode (fake=True; the page's ?fakeclock=1): no real time. press(key)
plays one scripted key with firmware/keyscript.py, as tools/sim/simulator.py's
scripted mode does (pressed, held TAP_MS sampled every SAMPLE_MS, released,
then time advances until the app waits for input), so the same seed and
presses give the same frames as the terminal simulator. Key names as there:
L R U D A B, LA LB (long A / B), wN (let N ms pass).

This module also imports on CPython (the host tests drive it there with a
dict as the store); only frame_addr() needs the wasm port (uctypes).
"""

import binascii
import sys

from firmware.app import App
from firmware.ports import Ports
from firmware.buttons import ALL, Buttons
from firmware.keyscript import (FakeClock, KEY_BITS, KeyScript, LONG_HOLD_MS, LONG_KEYS,  # noqa: F401
                                SAMPLE_MS, SETTLE_LIMIT_MS, TAP_MS, bad_key)
from firmware.saves.storage import OsFs, Storage

DATA = "/data"             # where the saves live in the wasm filesystem
PREFIX = "gin-rummy/"      # key prefix in the browser's store
TEST_PREFIX = "gin-rummy-test/"



class Display:
    """The display port: keeps the frame last shown and counts frames."""

    def __init__(self):
        self.buf = bytearray(1024)
        self.frames = 0
        self.level = 0xCF

    def show(self, buf, full=False):
        self.buf = buf
        self.frames += 1
        return len(buf)

    def contrast(self, v):
        self.level = v


class WebSound:
    """The sound port: `out.play(name, notes)` with notes "hz,ms,..." (or
    "" when the firmware has no tune of that name)."""

    def __init__(self, out):
        self.out = out
        try:
            from firmware.sound import TUNES
        except Exception:  # no buzzer module in this firmware
            TUNES = {}
        self.tunes = {}
        for name in TUNES:
            self.tunes[name] = ",".join([str(x) for x in TUNES[name]])

    def play(self, name):
        self.out.play(name, self.tunes.get(name, ""))


class DictKv:
    """A key/value store with localStorage's methods, in memory (tests, and
    the page's fallback when the browser keeps nothing)."""

    def __init__(self, items=None):
        self.items = dict(items or {})

    @property
    def length(self):
        return len(self.items)

    def key(self, i):
        keys = sorted(self.items)
        return keys[i] if 0 <= i < len(keys) else None

    def getItem(self, k):
        return self.items.get(k)

    def setItem(self, k, v):
        self.items[k] = str(v)

    def removeItem(self, k):
        self.items.pop(k, None)


# Emscripten (WASI) errno -> the usual (Linux, MicroPython errno) number.
WASI_ERRNO = {
    2: 13,    # EACCES
    8: 9,     # EBADF
    20: 17,   # EEXIST
    28: 22,   # EINVAL
    31: 21,   # EISDIR
    44: 2,    # ENOENT
    51: 28,   # ENOSPC
    54: 20,   # ENOTDIR
    55: 39,   # ENOTEMPTY
}
ON_WASM = sys.platform == "webassembly"


class _Mirrored:
    """A file open for writing; closing it mirrors it into the store."""

    def __init__(self, f, fs, path):
        self._f = f
        self._fs = fs
        self._path = path

    def write(self, data):
        return self._f.write(data)

    def flush(self):
        self._f.flush()

    def close(self):
        self._f.close()
        self._fs.sync(self._path)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class KvFs:
    """The storage's filesystem (open/rename/remove/stat/listdir/mkdir, as
    firmware.saves.storage expects) on a real one, mirrored into `kv` (an object
    with localStorage's methods) under `prefix` + the file's name in `root`.
    Files are kept there as base64 text."""

    def __init__(self, kv, root=DATA, prefix=PREFIX, fs=None, errno_map=None):
        self.kv = kv
        self.root = root.rstrip("/") or "/"
        self.prefix = prefix
        self.fs = fs if fs is not None else OsFs()
        if errno_map is None and ON_WASM:
            errno_map = WASI_ERRNO
        self.errno_map = errno_map
        self.kv_error = None
        self.writes = 0
        self.skipped = []          # what restore() could not use, said on the console

    def _oserror(self, e):
        """`e` with its errno in the usual numbering."""
        m = self.errno_map
        if m:
            try:
                n = e.args[0]
            except (AttributeError, IndexError):
                return e
            if n in m:
                return OSError(m[n])
        return e

    # -- the os-like methods Storage uses --
    def open(self, path, mode):
        try:
            f = self.fs.open(path, mode)
        except OSError as e:
            raise self._oserror(e)
        if "w" in mode or "a" in mode or "+" in mode:
            return _Mirrored(f, self, path)
        return f

    def rename(self, src, dst):
        try:
            self.fs.rename(src, dst)
        except OSError as e:
            raise self._oserror(e)
        # The new name first: a tab closed between the two leaves both,
        # never neither (as the filesystem's atomic rename does).
        self.sync(dst)
        self.sync(src)

    def remove(self, path):
        try:
            self.fs.remove(path)
        except OSError as e:
            raise self._oserror(e)
        self.sync(path)

    def stat(self, path):
        try:
            return self.fs.stat(path)
        except OSError as e:
            raise self._oserror(e)

    def listdir(self, path):
        try:
            return self.fs.listdir(path)
        except OSError as e:
            raise self._oserror(e)

    def mkdir(self, path):
        try:
            return self.fs.mkdir(path)
        except OSError as e:
            raise self._oserror(e)

    # -- the mirror --
    def _key(self, path):
        r = self.root + "/"
        if not path.startswith(r):
            return None
        name = path[len(r):]
        if not name or "/" in name:
            return None
        return self.prefix + name

    def sync(self, path):
        """Make the store's copy of `path` what the filesystem holds."""
        key = self._key(path)
        if key is None or self.kv is None:
            return
        try:
            f = self.fs.open(path, "rb")
        except OSError:
            data = None
        else:
            try:
                data = f.read()
            finally:
                f.close()
        try:
            if data is None:
                self.kv.removeItem(key)
            else:
                text = binascii.b2a_base64(data).decode().strip()
                self.kv.setItem(key, text)
                self.writes += 1
        except Exception as e:  # quota exceeded, storage disabled
            self.kv_error = "the browser did not keep %s: %s" % (key, e)

    def keys(self):
        """The store's keys under the prefix, sorted."""
        out = []
        kv = self.kv
        if kv is None:
            return out
        try:
            n = kv.length
            for i in range(n):
                k = kv.key(i)
                if isinstance(k, str) and k.startswith(self.prefix):
                    out.append(k)
        except Exception as e:
            self.kv_error = "the browser's storage cannot be read: %s" % (e,)
        out.sort()
        return out

    def restore(self, out=print):
        """Write the stored files into `root` (made if missing); returns
        their names. A key that cannot be a file name (a NUL, a slash, more
        than NAME_MAX characters, anything but letters, digits and . _ -),
        a value that is not text, or a file the filesystem refuses is
        skipped, and said through out() (the page's console) and in
        `kv_error`: a damaged store never stops the page."""
        try:
            self.fs.mkdir(self.root)
        except OSError:
            pass
        names = []
        self.skipped = []
        for k in self.keys():
            name = k[len(self.prefix):]
            why = bad_name(name)
            if why is not None:
                self._skip(out, k, why)
                continue
            try:
                text = self.kv.getItem(k)
            except Exception as e:
                self._skip(out, k, "it could not be read (%s)" % (e,))
                continue
            if text is None:
                continue
            if not isinstance(text, str):
                self._skip(out, k, "its value is not text")
                continue
            try:
                # (bytes: the wasm port's binascii is micropython-lib's
                # pure-Python one, which takes no str)
                data = binascii.a2b_base64(text.encode())
            except Exception as e:
                # Not base64: damaged. Its text becomes the file, which the
                # storage then finds damaged, sets aside and says so.
                self.kv_error = "%s is not base64 (%s): kept as it is for the storage" % (k, e)
                try:
                    data = text.encode()
                except Exception as e2:
                    self._skip(out, k, "its value is not text (%s)" % (e2,))
                    continue
            try:
                f = self.fs.open(self.root + "/" + name, "wb")
                try:
                    f.write(data)
                finally:
                    f.close()
            except Exception as e:     # OSError, or ValueError for a name the fs refuses
                self._skip(out, k, "the file could not be written (%s)" % (e,))
                continue
            names.append(name)
        return names

    def _skip(self, out, key, why):
        shown = key if len(key) <= 48 else key[:45] + "..."
        msg = "web: skipped the stored key %r: %s" % (shown, why)
        self.skipped.append(msg)
        self.kv_error = msg
        if out is not None:
            try:
                out(msg)
            except Exception:
                pass


NAME_MAX = 64
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"


def bad_name(name):
    """Why a stored key's name cannot be a save file's name, or None."""
    if not name:
        return "no file name after the prefix"
    if len(name) > NAME_MAX:
        return "a file name of %d characters (at most %d)" % (len(name), NAME_MAX)
    if name.startswith("."):
        return "a hidden file name"
    for ch in name:
        if ch not in _NAME_CHARS:
            if ch == "\x00":
                return "its name holds a NUL"
            if ch == "/":
                return "its name holds a slash"
            return "its name holds %r" % ch
    return None


RX_SIZE = 512   # bytes read at most per read(): firmware/link/link.py's RX_BUDGET


class LinkPort:
    """The link cable in the page: a UART's any()/read(n)/write(buf) over
    `host`, the page's end of the channel (web.js):

        host.any()          bytes waiting from the other tab
        host.take(at, n)    copies up to n of them to `at`; returns how many
        host.post(at, n)    sends the n bytes at `at` to the other tab
        host.use(on)        a link match starts (True) or ends (False)

    `at` is an address in the wasm memory (uctypes.addressof); elsewhere
    (CPython tests) the buffer itself. read() returns a view of one buffer
    kept for the port's life, valid until the next read (firmware/link/link.py
    feeds every byte to its reader before it reads again)."""

    def __init__(self, host, size=RX_SIZE):
        self.rx = bytearray(size)
        self.view = memoryview(self.rx)
        self._any = host.any
        self._take = host.take
        self._post = host.post
        self._use = host.use
        # the link screen's words (firmware/link/link.py): a browser tab, not a cable
        self.looking = ("Looking for the other tab: open this page in a second tab or "
                        "window and choose LINK there.")
        self.lost = "No answer from the other tab: it was closed or left LINK."
        if ON_WASM:
            import uctypes

            self._addr = uctypes.addressof
            self._rx_at = uctypes.addressof(self.rx)
        else:
            self._addr = None
            self._rx_at = self.rx
        self.on = False

    def any(self):
        return self._any()

    def read(self, n):
        if n > len(self.rx):
            n = len(self.rx)
        k = self._take(self._rx_at, n)
        return self.view[:k]

    def write(self, buf):
        n = len(buf)
        self._post(buf if self._addr is None else self._addr(buf), n)
        return n

    def use(self, on):
        if on != self.on:
            self.on = on
            self._use(on)


class Web(KeyScript):
    """The App with browser ports. The page calls step() when the last
    returned wait has passed (or at once after set_buttons), and repaints
    when `frames` moves. fake=True: press(key) / settle() instead."""

    def __init__(self, kv=None, seed=None, fake=False, sound=None,
                 root=DATA, prefix=None, clock=None, player_factory=None, entropy=None,
                 link=None):
        if prefix is None:
            prefix = TEST_PREFIX if fake else PREFIX
        self.fs = KvFs(kv, root, prefix)
        self.restored = self.fs.restore()
        self.display = Display()
        self.mask = 0
        self.buttons = Buttons(self._read)
        self.fake = fake
        if clock is None:
            if fake:
                clock = FakeClock()
            else:
                import time
                clock = time.ticks_ms
        self.clock = clock
        self.storage = Storage(root, fs=self.fs)
        self.storage.restart = "reload the page"      # the messages' way to start again
        if entropy is None and not fake:
            # real play deals committed hands (engine/deal.py): the secret
            # from the browser's crypto.getRandomValues (firmware/entropy.py)
            from firmware import entropy as _entropy

            entropy = _entropy.board()
        from firmware.saves.records import Records
        # beside the saves: the store mirrors the files of one folder
        self.records = Records(root, fs=self.fs)
        # link play (not in test mode: its title must stay the simulator's)
        self.link = None
        if link is not None and not fake:
            self.link = LinkPort(link)
        self.app = App(Ports(self.display, self.buttons, self.clock, self.storage,
                             sound=sound, seed=seed, player_factory=player_factory,
                             entropy=entropy, records=self.records,
                             link_port=None if self.link is None else self._link_port))
        self.app.start()
        self.wait = self.app.step()
        self.keys_done = 0
        if fake:
            self.settle()

    def _read(self):
        return self.mask

    def _link_port(self):
        return self.link

    # -- what the page reads --
    @property
    def frames(self):
        return self.display.frames

    def frame_addr(self):
        """Address of the frame last shown, in the wasm memory."""
        import uctypes
        return uctypes.addressof(self.display.buf)

    def level(self):
        return self.display.level

    def screen(self):
        return self.app.screen_name or ""

    def kv_error(self):
        return self.fs.kv_error or ""

    def record_text(self):
        """The game record of the match in play, else the newest kept
        (the text tools/records/replay.py reads), or "" when there is none."""
        m = self.app.match
        if m is not None:
            if hasattr(m, "hand_roles"):      # a V6 box match
                from engine.box import box_record_text
                return box_record_text(m)
            import engine
            return engine.record_text(m)
        names = self.records.names()
        if not names:
            return ""
        with self.fs.open(self.records.path(names[-1]), "rb") as f:
            return f.read().decode()

    # -- real time --
    def set_buttons(self, mask):
        """The buttons down now (firmware.buttons bits); sampled at once."""
        self.mask = mask & ALL
        self.buttons.sample(self.clock())

    def step(self):
        """One step of the app; ms until the next one is due."""
        w = self.app.step()
        lp = self.link
        if lp is not None:
            lp.use(self.app.session.kind == "link")   # the link match on or over
        if self.mask != self.buttons.held() and w > SAMPLE_MS:
            w = SAMPLE_MS  # a change waits for its debounce
        self.wait = w
        return w

    # -- fake clock: firmware/keyscript.py's KeyScript (run, settle, hold),
    # as the simulator's scripted mode, step for step --
    def tick(self):
        self.wait = self.app.step()
        return self.wait

    def press(self, key, settle=True):
        """One scripted key (L R U D A B LA LB wN), then settle."""
        if bad_key(key):
            raise ValueError("unknown key %r (L R U D A B LA LB wN)" % key)
        self.key(key)
        if settle:
            self.settle()
        self.keys_done += 1
        return self.keys_done

    def keys(self, seq):
        for k in seq.split():
            self.press(k)
        return self.keys_done

    def eval(self, expr):
        """A Python expression's value (tests look at the app with it)."""
        return eval(expr, {"web": self, "app": self.app})


# -- checking a game record (the page's "Check a game record" panel) --

MEANING = {
    "VERIFIED": "Every finished hand was dealt from the deck its commitment bound before play, "
                "every move is legal, and every result and score is the one the rules give. Compare "
                "the commitments with the DEAL # you noted on the handheld: they are what it "
                "showed before the cards were dealt (and give the MATCH #, your cut and the SEAL # "
                "you noted above, where the record has them, to hold the whole record to them).",
    "NOT VERIFIED": "This record does not come from the deals it committed to and legal play: "
                    "a line was changed, moved, added or removed, and the check stopped at the "
                    "record line named above. Do not trust it.",
    "INCOMPLETE": "The record is cut short (a hand or the match ends before its last line), so "
                  "it is not verified. Check the whole file.",
    "UNREADABLE": "This is not a game record the page can read; nothing was checked.",
}
NUMBERED = ("Every hand is the deal its number gives, every move is legal, and every result and "
            "score is the one the rules give. This match was dealt by deal numbers (a test or "
            "tools run), not committed deals: a deal number is a check of the deal, not a "
            "promise made before play.")


def check_record(text, noted=""):
    """The verdict on a game record's text (one character per byte of the
    file, or pasted text) as JSON: {"status": 0|1|2 (replay.py --verify's
    exit status), "verdict": VERIFIED, NOT VERIFIED, INCOMPLETE or
    UNREADABLE, "meaning": what it means, "hands": [[state, line]] with
    state "ok", "open" (in play, its deal unverified), "refused" or
    "unchecked", "lines": the verdict's other lines]. noted: what the player
    noted (the DEAL # hand by hand, MATCH #, CUT and SEAL #), as replay.py's
    --noted takes them ("" for none): a commitment, match commitment or seal
    that does not start with its note, another cut, or a note for a hand
    the record lacks is refused."""
    import json

    from engine.verify import UNREADABLE, VERIFIED, check, noted_list

    try:
        notes = noted_list(noted) if noted.strip() else None
    except ValueError as e:
        return json.dumps({"status": UNREADABLE, "verdict": "NOT CHECKED", "hands": [],
                           "meaning": "The DEAL # you noted" + str(e)[len("--noted"):] + ": write "
                           "each as the handheld showed it, in hand order, separated by commas "
                           "(- for a hand you did not note), with MATCH #..., CUT ... and "
                           "SEAL #... among them if you noted those.", "lines": []})
    status, lines = check(text, notes)
    hands = []
    rest = []
    for ln in lines:
        if ln.startswith("hand ") and ": " in ln:
            if "NOT VERIFIED: " in ln or "INCOMPLETE: " in ln:
                state = "refused"
            elif ln.endswith("not checked (the check stopped before it)"):
                state = "unchecked"
            elif "unverified" in ln:
                state = "open"
            else:
                state = "ok"
            hands.append([state, ln])
        else:
            rest.append(ln)
    if status == VERIFIED:
        verdict = "VERIFIED"
    elif status == UNREADABLE:
        verdict = "UNREADABLE"
    elif lines and lines[-1].startswith("INCOMPLETE"):
        verdict = "INCOMPLETE"
    else:
        verdict = "NOT VERIFIED"
    meaning = MEANING[verdict]
    if verdict == "VERIFIED" and " commitment " not in hands[0][1]:
        meaning = NUMBERED
    if verdict == "VERIFIED" and hands[-1][0] == "open":
        open_ = ("hand was still in play when the record was written: its moves are legal, but "
                 "its deal is unverified until its seed and nonce are revealed at its end.")
        if len(hands) == 1:
            meaning = "The record's only " + open_
        else:
            meaning += " The last " + open_
    return json.dumps({"status": status, "verdict": verdict, "meaning": meaning,
                       "hands": hands, "lines": rest})
