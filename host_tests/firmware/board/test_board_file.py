"""The board's settings file (/board.json, firmware/board/boardcfg.py): each bad
file gives one console line and the defaults, and the game still starts
(firmware/main.py on the MicroPython unix port with the fake `machine`);
a good file sets every field; SH1106 and flip reach the panel; the boot
finds a display wired to other pins; the version is the first line.
"""

import json

import pytest

from devutil import ROOT, run_mp
from firmware.board import board, boardcfg
from fakeboot import run_case

FULL = {
    "display": "sh1106", "display_addr": "0x3D", "flip": True,
    "i2c_id": 1, "i2c_sda": 2, "i2c_scl": 3, "i2c_freq": 100000,
    "btn_left": 6, "btn_right": 7, "btn_up": 8, "btn_down": 9, "btn_a": 20, "btn_b": 21,
    "buttons_active_low": False, "buzzer": 22, "headless_text": "ascii",
    "link_tx": 12, "link_rx": 13,
}
WANT = {
    "DISPLAY_TYPE": "sh1106", "DISPLAY_ADDR": 0x3D, "DISPLAY_FLIP": True,
    "I2C_ID": 1, "I2C_SDA": 2, "I2C_SCL": 3, "I2C_FREQ": 100000,
    "BTN_LEFT": 6, "BTN_RIGHT": 7, "BTN_UP": 8, "BTN_DOWN": 9, "BTN_A": 20, "BTN_B": 21,
    "BUTTONS_ACTIVE_LOW": False, "BUZZER_PIN": 22, "HEADLESS_TEXT": "ascii",
    "LINK_TX": 12, "LINK_RX": 13,
}

# (name, file bytes, the one line's words, what falls back)
BAD = [
    ("unknown key", b'{"dispaly": "sh1106"}', 'unknown key "dispaly" ignored', None),
    ("wrong type", b'{"flip": "yes"}', 'flip = "yes" must be true or false: using false', "DISPLAY_FLIP"),
    ("pin out of range", b'{"btn_a": 40}', "btn_a = 40 is not a GPIO of the RP2040 (0..29): using 14",
     "BTN_A"),
    ("pin used twice", b'{"btn_a": 15}', "GP15 is given to both btn_a and btn_b: using 14 for btn_a",
     "BTN_A"),
    ("not an I2C pair", b'{"i2c_sda": 6}', "SDA GP6 and SCL GP5 are not a pin pair of I2C0: "
     "using I2C0 on GP4/GP5", "I2C_SDA"),
    ("not JSON", b"display = sh1106\n", "board.json is not valid JSON", None),
    ("huge", b'{"flip": true, "pad": "' + b"x" * 100000 + b'"}',
     "board.json is too large (over 2048 bytes): ignored, using the defaults", "DISPLAY_FLIP"),
    ("not an object", b"[1, 2]", "must hold a JSON object", None),
    ("not UTF-8", b'{"display": "\xff\xfe"}', "board.json is not UTF-8 text: ignored", "DISPLAY_TYPE"),
    ("the Pico's own pin", b'{"btn_a": 25}',
     "btn_a = 25 is wired inside the Pico (GP25 is the on-board LED): using 14", "BTN_A"),
]


def defaults():
    return {a: getattr(board, a) for _, a, _ in boardcfg.KEYS}


def values(cfg):
    return {a: getattr(cfg, a) for _, a, _ in boardcfg.KEYS}


def load(tmp_path, data):
    p = tmp_path / "board.json"
    p.write_bytes(data)
    said = []
    cfg = boardcfg.load(str(p), said.append)
    return cfg, said


@pytest.mark.parametrize("name,data,words,attr", BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_gives_one_line_and_the_defaults(tmp_path, name, data, words, attr):
    cfg, said = load(tmp_path, data)
    assert len(said) == 1, said
    assert words in said[0]
    assert values(cfg) == defaults()
    assert cfg.BUTTON_PINS == board.BUTTON_PINS


def test_a_bad_value_falls_back_alone_and_the_good_ones_stay(tmp_path):
    cfg, said = load(tmp_path, b'{"flip": true, "btn_a": "GP14", "display": "sh1107"}')
    assert len(said) == 2
    assert cfg.DISPLAY_FLIP is True
    assert cfg.BTN_A == board.BTN_A and cfg.DISPLAY_TYPE == board.DISPLAY_TYPE


def test_no_file_is_the_defaults_quietly(tmp_path):
    said = []
    cfg = boardcfg.load(str(tmp_path / "none.json"), said.append)
    assert said == [] and values(cfg) == defaults() and cfg.source is None


def test_memory_error_while_parsing_gives_the_defaults(tmp_path, monkeypatch):
    def no_memory(text):
        raise MemoryError("memory allocation failed, allocating 512 bytes")

    monkeypatch.setattr(json, "loads", no_memory)
    cfg, said = load(tmp_path, json.dumps({"flip": True}).encode())
    assert said == ["Not enough memory to read board.json: using the defaults."]
    assert values(cfg) == defaults()


def test_a_huge_file_is_read_in_one_bounded_read(tmp_path):
    reads = []

    class F:
        def read(self, n=-1):
            reads.append(n)
            return b"{" + b" " * (n - 1)

        def close(self):
            pass

    said = []
    boardcfg.load("x", said.append, opener=lambda p, m: F())
    assert reads == [boardcfg.MAX_BYTES + 1] and "too large" in said[0]


def test_a_good_file_sets_every_field(tmp_path):
    cfg, said = load(tmp_path, json.dumps(FULL).encode())
    assert said == []
    assert values(cfg) == WANT
    assert cfg.BUTTON_PINS == (6, 7, 8, 9, 20, 21)
    assert sorted(cfg.from_file) == sorted(FULL)
    # every key of the file format is covered here
    assert sorted(FULL) == sorted(k for k, _, _ in boardcfg.KEYS)


def test_buzzer_null_and_addresses_as_numbers(tmp_path):
    cfg, said = load(tmp_path, b'{"buzzer": null, "display_addr": 61}')
    assert said == [] and cfg.BUZZER_PIN is None and cfg.DISPLAY_ADDR == 0x3D


def test_swapped_pins_are_not_a_clash(tmp_path):
    cfg, said = load(tmp_path, b'{"btn_a": 15, "btn_b": 14}')
    assert said == [] and (cfg.BTN_A, cfg.BTN_B) == (15, 14)


def test_i2c_pins_on_a_button_take_the_i2c_defaults(tmp_path):
    cfg, said = load(tmp_path, b'{"i2c_id": 1, "i2c_sda": 10, "i2c_scl": 11}')
    assert len(said) == 1, said        # GP10 and GP11 both clash: the I2C keys go back once
    assert "GP10 is given to both i2c_sda and btn_left: using I2C0 on GP4/GP5" in said[0]
    assert (cfg.I2C_ID, cfg.I2C_SDA, cfg.I2C_SCL) == (0, 4, 5)
    assert cfg.BTN_LEFT == 10


def test_save_keeps_other_keys_and_is_atomic(tmp_path):
    p = tmp_path / "board.json"
    p.write_text('{"btn_a": 20, "flip": false}')
    assert boardcfg.save({"flip": True, "display": "sh1106"}, str(p)) is None
    assert json.loads(p.read_text()) == {"btn_a": 20, "flip": True, "display": "sh1106"}
    assert not (tmp_path / "board.json.tmp").exists()
    said = []
    cfg = boardcfg.load(str(p), said.append)
    assert said == [] and cfg.DISPLAY_FLIP and cfg.DISPLAY_TYPE == "sh1106" and cfg.BTN_A == 20


def test_a_full_flash_keeps_the_old_file_and_says_so(tmp_path):
    p = tmp_path / "board.json"
    p.write_text('{"flip": false}')

    class Full:
        def __init__(self, path, mode):
            self.f = open(path, mode)

        def read(self, n=-1):
            return self.f.read(n)

        def write(self, data):
            raise OSError(28, "No space left on device")

        def close(self):
            self.f.close()

    why = boardcfg.save({"flip": True}, str(p), opener=Full)
    assert why == "the flash is full"
    assert p.read_text() == '{"flip": false}'
    assert not (tmp_path / "board.json.tmp").exists()


def test_a_cut_at_any_step_of_save_leaves_the_old_file_or_the_new_one(tmp_path):
    """The HARDWARE page's SAVE cut by a power loss at each step (the .tmp
    opened, half written, closed, renamed over the file): the next start
    reads the old file whole, or the new one after the rename, never a
    part of one."""
    import os

    class Cut(Exception):
        pass

    p = tmp_path / "board.json"
    old = '{"btn_a": 20, "flip": false}'

    def cut_at(step):
        class Opener:
            def __init__(self, path, mode):
                if step == "open" and "w" in mode:
                    raise Cut()
                self.f = open(path, mode)
                self.writing = "w" in mode

            def read(self, n=-1):
                return self.f.read(n)

            def write(self, data):
                if step == "write":
                    self.f.write(data[:len(data) // 2])
                    self.f.flush()
                    raise Cut()
                return self.f.write(data)

            def close(self):
                self.f.close()
                if step == "close" and self.writing:
                    raise Cut()

        class Fs:
            remove = staticmethod(os.remove)

            @staticmethod
            def rename(a, b):
                if step == "rename":
                    raise Cut()
                os.rename(a, b)
        return Opener, Fs

    for step in ("open", "write", "close", "rename", None):
        p.write_text(old)
        opener, fs = cut_at(step)
        try:
            boardcfg.save({"flip": True}, str(p), fs=fs, opener=opener)
        except Cut:
            pass
        said = []
        cfg = boardcfg.load(str(p), said.append)
        assert said == [], (step, said)
        assert cfg.BTN_A == 20 and cfg.DISPLAY_FLIP == (step is None), step


# -- on the MicroPython unix port: firmware/main.py with the fake machine -----

MP_LOAD = r"""
import sys
sys.path.insert(0, %(repo)r)
from firmware.board import boardcfg
said = []
cfg = boardcfg.load(%(path)r, said.append)
print("@@", len(said), said[0] if said else "", cfg.DISPLAY_FLIP, cfg.BTN_A, cfg.DISPLAY_TYPE)
"""


@pytest.mark.parametrize("name,data,words,attr", BAD, ids=[b[0] for b in BAD])
def test_bad_files_on_micropython(tmp_path, name, data, words, attr):
    (tmp_path / "board.json").write_bytes(data)
    path = tmp_path / "load.py"
    path.write_text(MP_LOAD % {"repo": ROOT, "path": str(tmp_path / "board.json")})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    line = r.stdout.split("@@ ")[1]
    assert line.startswith("1 ") and words.split(":")[0].split(" (")[0] in line, line
    assert line.rstrip().endswith("False 14 ssd1306"), line


def boot(tmp_path, data, setup):
    if data is not None:
        (tmp_path / "board.json").write_bytes(data)
    return run_case(tmp_path, setup)


@pytest.mark.parametrize("name,data,words,attr", BAD, ids=[b[0] for b in BAD])
def test_the_game_starts_with_each_bad_file(tmp_path, name, data, words, attr):
    said, f, err = boot(tmp_path, data, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=bus)""")
    lines = [s for s in said.splitlines() if s.startswith("board.json")]
    assert len(lines) == 1 and words.split(" (")[0] in lines[0], said
    assert f["STEPS"] == "4" and f["PICTURE"] == "True" and "Traceback" not in said + err
    assert "Display: SSD1306 at 0x3C on I2C0" in said


def test_the_version_is_the_first_console_line(tmp_path):
    from engine.version import VERSION

    said, f, _ = boot(tmp_path, None, "machine.setup(bus=FakeBus.with_display(0x3C)[0])")
    assert said.splitlines()[0] == "Gin Rummy " + VERSION


def flipped(buf):
    """The 128x64 MONO_VLSB picture turned 180 degrees."""
    out = bytearray(len(buf))
    for y in range(64):
        for x in range(128):
            if buf[(y >> 3) * 128 + x] >> (y & 7) & 1:
                yy, xx = 63 - y, 127 - x
                out[(yy >> 3) * 128 + xx] |= 1 << (yy & 7)
    return bytes(out)


FLIP_FACTS = """
print("@@ SH1106", EMU.sh1106, EMU.col_offset)
print("@@ FLIPPED", bytes(EMU.image()) == %r)
"""


def test_sh1106_and_flip_from_the_file_reach_the_panel(tmp_path):
    # the stub app's frame (firmware.display.fb text and a box), turned 180 degrees
    from firmware.display import fb
    c = fb.Canvas()
    c.text(b"HELLO PICO", 0, 0, 1, fb.BIG)
    c.fill_rect(100, 40, 20, 20, 1)
    (tmp_path / "board.json").write_bytes(b'{"display": "sh1106", "flip": true}')
    said, f, _ = run_flip(tmp_path, flipped(c.buf))
    assert "Display: SH1106 at 0x3C on I2C0" in said
    assert f["PICTURE"] == "False"          # not the frame as drawn: turned round
    # the emulator's picture (SH1106 RAM, columns 2..129) is the turned frame
    assert f["SH1106"] == "True 2" and f["FLIPPED"] == "True", said


def run_flip(tmp_path, want):
    """The boot with an SH1106 on the bus, then the emulator's facts."""
    return run_case(tmp_path, """
bus, EMU = FakeBus.with_display(0x3C, sh1106=True)
machine.setup(bus=bus)""", after=FLIP_FACTS % (want,))


def test_a_display_on_other_pins_is_found_and_the_setting_named(tmp_path):
    said, f, _ = boot(tmp_path, None, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=FakeBus.empty(), buses={(1, 6, 7): bus})""")
    assert "No display found: nothing answered on I2C0 (SDA GP4 (pin 6), SCL GP5 (pin 7))." in said
    assert ("Display found at 0x3C on I2C1 (SDA GP6 (pin 9), SCL GP7 (pin 10)), not on I2C0 "
            "(SDA GP4 (pin 6), SCL GP5 (pin 7)): using it.") in said
    assert '"i2c_id": 1, "i2c_sda": 6, "i2c_scl": 7 in /board.json' in said
    assert "SAVE on the HARDWARE page" in said
    assert f["HEADLESS"] == "False" and f["PICTURE"] == "True"


def test_the_scan_passes_over_a_pair_where_every_address_answers(tmp_path):
    # SDA held low on GP0/GP1 acknowledges every probe: not a display
    said, f, _ = boot(tmp_path, None, """
bus, EMU = FakeBus.with_display(0x3C)
stuck = FakeBus(dict((a, SSD1306Emu()) for a in range(0x08, 0x78)))
machine.setup(bus=FakeBus.empty(), buses={(0, 0, 1): stuck, (1, 26, 27): bus})""")
    assert "Display found at 0x3C on I2C1 (SDA GP26 (pin 31), SCL GP27 (pin 32))" in said
    assert f["HEADLESS"] == "False" and f["PICTURE"] == "True"


def test_the_scan_skips_a_pair_whose_line_reads_low(tmp_path):
    # GP20 held low: no I2C bus idles that way; the pair is not probed
    said, f, _ = boot(tmp_path, None, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=FakeBus.empty(), buses={(0, 20, 21): bus}, low=[20])""")
    assert "No display at 0x3C or 0x3D on the other usual I2C pin pairs either." in said
    tried = [e[1:4] for e in eval(f["LOG"]) if e[0] == "i2c"]
    assert (0, 20, 21) not in tried and (1, 18, 19) in tried


def test_the_scan_skips_pairs_on_button_pins(tmp_path):
    # a display on GP14/GP15 (I2C1) where A and B are: never probed there
    said, f, _ = boot(tmp_path, None, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=FakeBus.empty(), buses={(1, 14, 15): bus})""")
    assert "No display at 0x3C or 0x3D on the other usual I2C pin pairs either." in said
    assert f["HEADLESS"] == "True"
    log = eval(f["LOG"])
    tried = [e[1:4] for e in log if e[0] == "i2c"]
    assert (1, 14, 15) not in tried and (1, 10, 11) not in tried and (0, 12, 13) not in tried
    assert (0, 0, 1) in tried and (1, 26, 27) in tried


def test_a_held_at_power_on_wired_the_other_way_is_found(tmp_path):
    # buttons wired to 3V3 while the settings say GND: A reads held only
    # with the pull-down; the game starts on the HARDWARE page that way
    said, f, _ = boot(tmp_path, None, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=bus, high=[14])""")
    assert "A is held at power-on as a button to 3V3, but the settings say to GND" in said
    assert "the game starts on the HARDWARE page" in said
    assert f["WENT"] == "hardware" and f["STEPS"] == "4"
    log = eval(f["LOG"])
    assert ("pin", 14, 0, 2) in log            # the buttons read with pull-downs


def test_a_held_at_power_on_opens_the_hardware_page(tmp_path):
    said, f, _ = boot(tmp_path, None, """
bus, EMU = FakeBus.with_display(0x3C)
machine.setup(bus=bus, low=[14])""")
    assert "A was held at power-on: the game starts on the HARDWARE page." in said
    assert "A is held at power-on as a button to" not in said
    assert f["WENT"] == "hardware"


def test_nothing_held_starts_the_game_as_before(tmp_path):
    said, f, _ = boot(tmp_path, None, "machine.setup(bus=FakeBus.with_display(0x3C)[0])")
    assert "starts on the HARDWARE page" not in said and f["WENT"] == "None"


MP_LET_GO = r"""
import gc, sys
sys.path.insert(0, %(bundle)r)
import firmware.board.board
gc.collect()
before = gc.mem_free()
from firmware.board.boardcfg import load_config
cfg = load_config(%(path)r, print)
del load_config
gc.collect()
print("@@", "firmware.board.boardcfg" in sys.modules or "firmware.board.chip" in sys.modules, cfg.DISPLAY_FLIP,
      before - gc.mem_free())
"""


def test_the_loader_is_let_go_after_the_boot_on_micropython(tmp_path):
    # from the .mpy bundle the loader's code is on the heap: the running
    # game keeps only the Config, and the names the loader and the chip's
    # table (firmware/board/chip.py) brought (MicroPython keeps a name once seen)
    from tools.deploy import deploy

    bundle = tmp_path / "bundle"
    deploy.build(str(bundle), quiet=True)
    (tmp_path / "board.json").write_text('{"flip": true}')
    path = tmp_path / "let_go.py"
    path.write_text(MP_LET_GO % {"bundle": str(bundle), "path": str(tmp_path / "board.json")})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60, heap="256k")
    assert r.returncode == 0, r.stdout + r.stderr
    gone, flip, kept = r.stdout.split("@@ ")[1].split()
    assert gone == "False" and flip == "True"
    assert int(kept) < 5120, kept      # a Config (2,208 bytes here) and names, not 16 KB of code


REAL_HW = r"""
import sys
sys.path[:0] = [%(fakes)r, %(repo)r]
import machine
from tools.sim.fakebus import FakeBus
bus, emu = FakeBus.with_display(0x3C)
machine.setup(bus=bus)
from firmware.pico import pico
from firmware.board.boardcfg import config
app = pico.run(root=%(root)r, max_steps=1, seed=7, cfg=config(%(path)r), hardware=True)
print("@@", app.screen_name, type(app.board).__name__, app.board.path,
      bytes(emu.image()) == bytes(app.canvas.buf))
"""


def test_the_real_app_starts_on_the_hardware_page_with_its_board_port(tmp_path):
    from fakeboot import FAKES

    path = tmp_path / "hw.py"
    path.write_text(REAL_HW % {"fakes": FAKES, "repo": ROOT, "root": str(tmp_path / "data"),
                               "path": str(tmp_path / "board.json")})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split("@@ ")[1].split() == ["hardware", "Hardware",
                                                str(tmp_path / "board.json"), "True"]


# -- what MicroPython's json takes without a word, and the Pico's own pins ----

# (name, file bytes, the line's words, BTN_A on MicroPython)
LENIENT = [
    ("key twice", b'{"btn_a": 16, "btn_a": 17}', '"btn_a" is given more than once: the last one', 17),
    ("trailing comma", b'{"btn_a": 16,}', 'a comma before "}"', 16),
    ("leading zero", b'{"btn_a": 016}', "the number 016 has a leading zero: read as 16", 16),
    ("trailing NUL", b'{"btn_a": 16}\x00', "a NUL character at byte 13", 16),
]


@pytest.mark.parametrize("name,data,words,a", LENIENT, ids=[x[0] for x in LENIENT])
def test_what_micropython_json_allows_gets_a_line_there(tmp_path, name, data, words, a):
    (tmp_path / "board.json").write_bytes(data)
    path = tmp_path / "load.py"
    path.write_text(MP_LOAD % {"repo": ROOT, "path": str(tmp_path / "board.json")})
    r = run_mp(str(path), cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    line = r.stdout.split("@@ ")[1]
    assert line.startswith("1 ") and words in line, line      # one line, and the value used
    assert line.rstrip().endswith("False %d ssd1306" % a), line


@pytest.mark.parametrize("name,data,words,a", LENIENT, ids=[x[0] for x in LENIENT])
def test_what_micropython_json_allows_gets_the_same_line_on_cpython(tmp_path, name, data, words,
                                                                    a):
    cfg, said = load(tmp_path, data)
    assert words in said[0], said
    # CPython's json refuses all but the key given twice
    assert (len(said) == 1) == (name == "key twice"), said


@pytest.mark.parametrize("pin", [23, 24, 25, 29])
def test_the_picos_own_pins_are_refused_for_buttons_and_buzzer(tmp_path, pin):
    cfg, said = load(tmp_path, json.dumps({"btn_b": pin, "buzzer": pin}).encode())
    assert cfg.BTN_B == 15 and cfg.BUZZER_PIN is None
    assert len(said) == 2 and all("is wired inside the Pico (GP%d " % pin in s for s in said), said


def test_a_key_name_inside_a_value_is_not_a_key(tmp_path):
    cfg, said = load(tmp_path, b'{"headless_text": "ascii", "x": {"btn_a": 1, "btn_a": 2},'
                               b' "y": "\\"btn_a\\": 3, \\"btn_a\\""}')
    assert [s for s in said if "more than once" in s] == []


# -- the recovery start: /board.json unread -----------------------------------

# every file that takes A and B away from the physical buttons on GP14/GP15
TAKES_A_AND_B = [b'{"btn_a": 22, "btn_b": 21}', b'{"btn_b": 22}', b'{"buttons_active_low": false}']


@pytest.mark.parametrize("data", TAKES_A_AND_B)
def test_the_recovery_start_ignores_the_file(tmp_path, data):
    said, f, _ = boot(tmp_path, data, """
from firmware.board import chip
from firmware.pico import picoports
machine.mem32[chip.RP2040.scratch] = picoports.RECOVERY   # as firmware.pico.pico.recover leaves it
machine.setup(bus=FakeBus.with_display(0x3C)[0])""")
    assert "Recovery start (BOOTSEL held while the game ran)" in said
    assert "buttons LEFT RIGHT UP DOWN A B on GP10 GP11 GP12 GP13 GP14 GP15 to GND, no buzzer." in said
    assert not [s for s in said.splitlines() if s.startswith("board.json")]
    assert f["WENT"] == "recovery" and f["STEPS"] == "4"
    log = eval(f["LOG"])
    # the buttons are the defaults' pins, with pull-ups: A and B work
    pulled = sorted(set(e[1] for e in log if e[0] == "pin" and e[3] == 1))
    assert pulled == [10, 11, 12, 13, 14, 15]
    assert not any(e[0] == "pin" and e[1] in (21, 22) for e in log)


@pytest.mark.parametrize("data", TAKES_A_AND_B)
def test_bootsel_held_as_the_board_starts_is_the_recovery_start(tmp_path, data):
    # pressed after power-on (past the boot ROM's look at it): main.py's
    # first look, before /board.json is read
    said, f, _ = boot(tmp_path, data, """
import rp2
rp2.BOOTSEL[0] = 1
machine.setup(bus=FakeBus.with_display(0x3C)[0])""")
    assert "Recovery start (BOOTSEL held as the board started)" in said
    assert not [s for s in said.splitlines() if s.startswith("board.json")]
    assert f["WENT"] == "recovery" and f["STEPS"] == "4"
    log = eval(f["LOG"])
    assert not any(e[0] == "pin" and e[1] in (21, 22) for e in log)


def test_without_the_flag_the_same_file_is_read(tmp_path):
    said, f, _ = boot(tmp_path, TAKES_A_AND_B[0], "machine.setup(bus=FakeBus.with_display(0x3C)[0])")
    assert "Recovery start" not in said and f["WENT"] == "None"
    log = eval(f["LOG"])
    assert ("pin", 22, 0, 1) in log           # A read on GP22 as the file says
