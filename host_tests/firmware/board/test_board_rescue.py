"""What brings a board back (firmware/board/boardrescue.py): a button held at
every start counted and explained; the settings file set aside (renamed,
never deleted: firmware/screens/recovery.py); and, through firmware/main.py on the fake Pico
(host_tests/firmware/kit/fakepico.py), the third start in a row with B held
explained on the console and the screen while each start stays a safe
boot; A held at every start explained before the game; the count cleared
by a start with nothing held."""

import json
import os

import pytest

from devutil import ROOT, run_mp
from firmware.board import boardcfg, boardrescue
from firmware.screens.recovery import set_aside

FAKEPICO = os.path.join(ROOT, "host_tests", "firmware", "kit", "fakepico.py")


def count_in(path, masks):
    """count() after each start's mask, the file's path `path`."""
    return [boardrescue.count(str(path), m) for m in masks]


def test_a_button_held_at_starts_in_a_row_is_counted(tmp_path):
    p = tmp_path / "board.json.held"
    B, A = 0x20, 0x10
    assert count_in(p, [B, B, B]) == [(B, 1), (B, 2), (B, 3)]
    assert count_in(p, [B | A]) == [(B, 4)]          # B again, with A: B's run goes on
    assert count_in(p, [A]) == [(A, 1)]              # another button: a new run
    assert count_in(p, [0]) == [(0, 0)] and not p.exists()   # none held: the file goes


@pytest.mark.parametrize("junk", [b"", b"garbage", b"1", b"\xff\xfe 3", b"32 x"])
def test_an_unreadable_count_starts_again_at_one(tmp_path, junk):
    p = tmp_path / "board.json.held"
    p.write_bytes(junk)
    assert boardrescue.count(str(p), 0x20) == (0x20, 1)


def test_a_count_that_cannot_be_written_still_counts_this_start(tmp_path):
    def refuse(path, mode):
        if "w" in mode:
            raise OSError(28, "No space left on device")
        return open(path, mode)

    assert boardrescue.count(str(tmp_path / "x.held"), 0x20, opener=refuse) == (0x20, 1)


def test_the_words_name_the_button_the_pin_the_file_and_the_way_back():
    cfg = boardcfg.config()
    boardcfg.apply(cfg, {"btn_b": 4, "buttons_active_low": False, "i2c_id": 1, "i2c_sda": 2,
                         "i2c_scl": 3}, lambda s: None)
    assert boardrescue.held(cfg, 0x20, 2) is None        # under HELD_STARTS: nothing said
    title, text, lines = boardrescue.held(cfg, 0x20, 3)
    assert title == "B HELD 3 STARTS"
    assert "B (GP4 (pin 6)) has read as held at 3 starts in a row" in text
    assert "each start is a safe boot" in text
    assert '/board.json says "btn_b": 4 and "buttons_active_low": false' in text
    assert "a high level on that pin reads as held" in text
    assert "plug the Pico in, then press and hold BOOTSEL" in text
    assert lines[0] == "B IS GP4 TO 3V3 PER BOARD.JSON."
    assert "HOLD BOOTSEL." in lines[-1]
    assert all(len(s) <= 31 for s in lines) and len(lines) <= 6


def test_a_default_pin_is_said_as_the_default():
    cfg = boardcfg.config()
    title, text, lines = boardrescue.held(cfg, 0x02, 5)
    assert title == "RIGHT HELD 5 STARTS" and "RIGHT is GP11 by default" in text
    assert "a low level" in text and "board.json says" not in text
    assert lines[0].startswith("RIGHT IS GP11 TO GND.")


class Fs:
    """os's stat and rename over a dict of names."""

    def __init__(self, names, refuse=False):
        self.names = dict.fromkeys(names, b"x")
        self.refuse = refuse

    def stat(self, p):
        if p not in self.names:
            raise OSError(2)
        return (0,)

    def rename(self, a, b):
        if self.refuse:
            raise OSError(5, "EIO")
        self.names[b] = self.names.pop(a)


def test_set_aside_renames_never_deletes_and_never_renames_over():
    fs = Fs(["/board.json", "/board.json.aside", "/board.json.aside2"])
    assert set_aside("/board.json", fs) == ("/board.json.aside3", None)
    assert sorted(fs.names) == ["/board.json.aside", "/board.json.aside2", "/board.json.aside3"]


def test_set_aside_says_why_not():
    assert set_aside("/board.json", Fs([])) == (None, "no /board.json")
    full = Fs(["/board.json"] + ["/board.json.aside"] + ["/board.json.aside%d" % k
                                                           for k in range(2, 10)])
    assert set_aside("/board.json", full) == (None, "9 files set aside already")
    assert "/board.json" in full.names
    new, why = set_aside("/board.json", Fs(["/board.json"], refuse=True))
    assert new is None and why.startswith("the flash refused it")


def test_the_recovery_line_names_the_defaults_it_uses():
    text = boardrescue.recovery_text(boardcfg.config(), "as the board started")
    assert text.startswith("Recovery start (BOOTSEL held as the board started)")
    assert "I2C0 (SDA GP4, SCL GP5" in text and "GP10 GP11 GP12 GP13 GP14 GP15 to GND" in text
    assert "renamed to /board.json.aside, not deleted" in text


# -- on the fake Pico: firmware/main.py, three starts in a row ---------------

# B on GP4, read active high, where the display's pull-ups hold it high
HOLDS_B = {"buttons_active_low": False, "btn_b": 4, "i2c_id": 1, "i2c_sda": 2, "i2c_scl": 3}
# A on GP5 the same way
HOLDS_A = {"buttons_active_low": False, "btn_a": 5, "i2c_id": 1, "i2c_sda": 2, "i2c_scl": 3}


def starts(tmp_path, d, n, end=6000, then_file=None):
    """`n` power-ons of one board with /board.json `d` (the display on
    GP4/GP5), each to `end` ms; then, when `then_file` is given, that file
    instead and one more start."""
    cases = []
    for i in range(n):
        cases.append({"name": "start %d" % (i + 1), "file": None if i else json.dumps(d),
                      "keep": i > 0,
                      "display": [0, 4, 5], "high": [4, 5], "end": end, "all_said": True})
    if then_file is not None:
        cases.append({"name": "fixed", "file": json.dumps(then_file), "display": [0, 4, 5],
                      "high": [4, 5], "end": 1000, "all_said": True, "keep": True})
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    r = run_mp(FAKEPICO, cwd=str(tmp_path), timeout=600, heap="2M",
               args=[str(tmp_path / "cases.json"), str(tmp_path)])
    assert r.returncode == 0 and "Traceback" not in r.stdout, r.stdout[-3000:] + r.stderr
    return [json.loads(line[3:]) for line in r.stdout.splitlines() if line.startswith("@@ ")]


def test_b_held_at_every_start_is_explained_at_the_third_and_stays_a_safe_boot(tmp_path):
    got = starts(tmp_path, HOLDS_B, 3)
    for i, r in enumerate(got):
        said = "\n".join(r["said"])
        assert said.count("Safe boot: B was held") == 1 and r["screen"] is None, said
        assert "Hold BOOTSEL (the button on the Pico) in the next 5 s" in said
        explained = "has read as held at 3 starts in a row" in said
        assert explained == (i == 2), said
    assert r["lit"] > 300                # the explanation on the display (GP4/GP5, the defaults')
    assert "board.json.held" in r["files"]


def test_a_held_at_every_start_is_explained_before_the_game(tmp_path):
    got = starts(tmp_path, HOLDS_A, 3, end=1500)
    assert [r["screen"] for r in got] == ["hardware", "hardware", "message"]
    said = "\n".join(got[2]["said"])
    assert "A (GP5 (pin 7)) has read as held at 3 starts in a row: each start opens the " \
           "HARDWARE page" in said


def test_a_start_with_nothing_held_clears_the_count(tmp_path):
    got = starts(tmp_path, HOLDS_B, 2, then_file={"flip": False})
    assert "board.json.held" in got[1]["files"]
    assert "board.json.held" not in got[2]["files"] and got[2]["screen"] == "title"
