"""The board always comes back: every valid /board.json against the
wirings it could meet, and BOOTSEL held just after power-on always
reaches the recovery start, where BOOTSEL alone sets the file aside and
goes on to the game's title.

The files: for each key of firmware.board.boardcfg.KEYS, the values the loader
accepts (its own check over candidates of each kind: every GPIO, every
I2C address, the choices...), combined at random (a seeded sample: the
whole space is about 10**21 files), pins drawn often from the ones the
wirings hold high or low; and the files of the cases that once held a
board in the safe boot. The wirings: the display on the default pins,
on other usual pins, on the default buttons' pins, or none; the link
cable in with the other board on (its TX holds our RX high) or off (its
pins clamp ours low); a pull-up on another pin. Each run is
firmware/main.py with the fakes (host_tests/firmware/kit/fakepico.py, emulated
time): power on, BOOTSEL held from 0.5 s to 2 s, then tapped twice (A on
the recovery screen: set the file aside, then on to the title).

RECOVERY_CAMPAIGN=full runs the large sample (every single-key file on
the default wiring, and 300 combinations on every wiring: a few minutes)
and prints the counts; the default is a smaller seeded one.
"""

import json
import os
import random

from devutil import ROOT, run_mp
from firmware.board import boardcfg

FAKEPICO = os.path.join(ROOT, "host_tests", "firmware", "kit", "fakepico.py")
FULL = os.environ.get("RECOVERY_CAMPAIGN") == "full"

# (name, display (id, sda, scl) or None, high GPIOs, low GPIOs)
WIRINGS = [
    ("display on GP4/GP5", (0, 4, 5), [4, 5], []),
    ("display on I2C1 GP6/GP7", (1, 6, 7), [6, 7], []),
    ("display on I2C1 GP26/GP27", (1, 26, 27), [26, 27], []),
    ("display on GP14/GP15, buttons elsewhere", (1, 14, 15), [14, 15], []),
    ("no display", None, [], []),
    ("link cable in, other board on", (0, 4, 5), [4, 5, 8, 9], []),
    ("link cable in, other board off", (0, 4, 5), [4, 5], [8, 9]),
    ("a pull-up on GP22, GP0 held low", (0, 4, 5), [4, 5, 22], [0]),
]
# the pins those wirings hold: drawn often for the buttons
HELD_PINS = (4, 5, 6, 7, 8, 9, 14, 15, 22, 26, 27, 0)

BOOTSEL = [[500, 2000], [2300, 2400], [2700, 2800]]   # held after power-on, then two taps
END = 3200

# The files that made every start a safe boot, or took the buttons away
NAMED = [
    ("B on GP4 where the display's pull-ups hold it high",
     {"buttons_active_low": False, "btn_b": 4, "i2c_id": 1, "i2c_sda": 2, "i2c_scl": 3}),
    ("B on GP5, A on GP4, the display moved to GP6/GP7",
     {"btn_b": 5, "btn_a": 4, "i2c_id": 1, "i2c_sda": 6, "i2c_scl": 7}),
    ("the same, active high",
     {"btn_b": 5, "btn_a": 4, "i2c_id": 1, "i2c_sda": 6, "i2c_scl": 7,
      "buttons_active_low": False}),
    ("B on GP9 under the link cable, the link moved to GP0/GP1",
     {"btn_b": 9, "link_tx": 0, "link_rx": 1}),
    ("the same, active high", {"btn_b": 9, "link_tx": 0, "link_rx": 1,
                               "buttons_active_low": False}),
    ("A and B on unwired pins", {"btn_a": 22, "btn_b": 21}),
    ("buttons read the other way", {"buttons_active_low": False}),
]


def accepted(key, kind):
    """The values the loader takes for `key` (its own check), from
    candidates of the key's kind."""
    if isinstance(kind, tuple):
        cands = list(kind) + ["other"]
    elif kind == "bool":
        cands = [True, False, 0, 1, "true"]
    elif kind in ("pin", "pin?"):
        cands = list(range(-1, 31)) + [None, "4", 4.0]
    elif kind == "addr":
        cands = list(range(0, 0x80)) + ["0x3C", "0x3D", "60", "0x3c", "x"]
    elif kind == "freq":
        cands = [9999, 10000, 100000, 400000, 1000000, 1000001]
    else:
        cands = [-1, 0, 1, 2, True]
    return [v for v in cands if boardcfg._check(key, kind, v)[1] is None]


VALUES = {k: accepted(k, kind) for k, _, kind in boardcfg.KEYS}


def space():
    n = 1
    for vs in VALUES.values():
        n *= len(vs) + 1            # each key also left out
    return n


def combos(n, seed):
    """`n` files: each key in or out at random, its value from the ones
    it accepts; a pin from the held ones half the time."""
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        d = {}
        for key, vs in VALUES.items():
            if rnd.random() < 0.5:
                continue
            pins = [p for p in HELD_PINS if p in vs]
            d[key] = rnd.choice(pins) if pins and rnd.random() < 0.5 else rnd.choice(vs)
        out.append(d)
    return out


def singles():
    return [{k: v} for k, vs in VALUES.items() for v in vs]


def case(name, d, wiring):
    wname, display, high, low = wiring
    return {"name": "%s | %s" % (name, wname), "file": json.dumps(d),
            "display": list(display) if display else None, "high": high, "low": low,
            "bootsel": BOOTSEL, "end": END}


def run_cases(tmp_path, cases, batch=150):
    """fakepico.py's results for `cases`, a process for each `batch` of
    them (the unix port's heap holds the game and one batch's cases)."""
    got = []
    for i in range(0, len(cases), batch):
        part = cases[i:i + batch]
        (tmp_path / "cases.json").write_text(json.dumps(part))
        r = run_mp(FAKEPICO, cwd=str(tmp_path), timeout=3600, heap="4M",
                   args=[str(tmp_path / "cases.json"), str(tmp_path)])
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr
        assert "Traceback" not in r.stdout, r.stdout[-3000:]
        got += [json.loads(line[3:]) for line in r.stdout.splitlines() if line.startswith("@@ ")]
    assert len(got) == len(cases)
    return got


def display_found_in_recovery(wiring):
    """The defaults' display pins, or a usual pair the pin scan tries
    (not on the default buttons' pins)."""
    d = wiring[1]
    return d is not None and not set(d[1:]) & {10, 11, 12, 13, 14, 15}


def came_back(r, wiring):
    """What is wrong with run `r` (None: it reached the title through the
    recovery start, the file set aside)."""
    if r["errors"]:
        return "errors: %r" % r["errors"]
    if not any(s.startswith("Recovery start") for s in r["said"]):
        return "no recovery start: %r" % r["said"]
    if r["screen"] != "title":
        return "ended on %r" % r["screen"]
    if "board.json" in r["files"] or "board.json.aside" not in r["files"]:
        return "the file was not set aside: %r" % r["files"]
    if display_found_in_recovery(wiring) and not r["picture"]:
        return "the display does not show the title"
    return None


def campaign(tmp_path, files, wirings):
    """(runs, what went wrong in each that did not come back)."""
    runs = [(case(name, d, w), w) for name, d in files for w in wirings]
    got = run_cases(tmp_path, [c for c, _ in runs])
    bad = []
    for (c, w), r in zip(runs, got):
        why = came_back(r, w)
        if why is not None:
            bad.append("%s: %s" % (c["name"], why))
    return len(runs), bad


def test_the_named_files_always_come_back_on_every_wiring(tmp_path):
    n, bad = campaign(tmp_path, NAMED, WIRINGS)
    assert n == len(NAMED) * len(WIRINGS)
    assert bad == [], "\n".join(bad)


def test_every_valid_board_json_comes_back_on_every_wiring(tmp_path):
    """The seeded sample (RECOVERY_CAMPAIGN=full: the large one)."""
    files = [("combo %d %s" % (i, json.dumps(d, sort_keys=True)), d)
             for i, d in enumerate(combos(300 if FULL else 8, seed=57))]
    n, bad = campaign(tmp_path, files, WIRINGS)
    if FULL:
        singles_n, singles_bad = campaign(tmp_path, [(json.dumps(d), d) for d in singles()],
                                          WIRINGS[:1])
        print("recovery campaign: %d keys, about %.1e valid files; %d single-key files on "
              "the default wiring and %d combinations on %d wirings: %d runs, %d came back "
              "to the title" % (len(VALUES), space(), singles_n, len(files), len(WIRINGS),
                                n + singles_n, n + singles_n - len(bad) - len(singles_bad)))
        bad += singles_bad
    assert bad == [], "\n".join(bad[:20])


def test_the_space_is_every_key_and_its_accepted_values():
    # the table drives the campaign: a key added to KEYS is tried at once
    assert sorted(VALUES) == sorted(k for k, _, _ in boardcfg.KEYS)
    assert all(VALUES[k] for k in VALUES)
    assert VALUES["btn_b"] == [p for p in range(30) if p not in (23, 24, 25, 29)]
    assert VALUES["display_addr"][:2] == [0x08, 0x09] and "0x3C" in VALUES["display_addr"]
    assert space() > 10 ** 20
