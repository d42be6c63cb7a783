"""The wiring pictures are the firmware's pin table: tools/wiring/wiring.py
redraws docs/wiring-*.svg from firmware/board/board.py, the committed pictures
must be what it draws now, and every pin a picture draws is checked here
against firmware/board/board.py and the GPIO-to-pin table firmware/board/chip.py
gives the console's messages."""

import os
import xml.etree.ElementTree as ET

import pytest

from firmware.board import board
from firmware.link.linkport import uart_of
from tools.wiring import wiring

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SVG = "{http://www.w3.org/2000/svg}"


def bringup_phys():
    """firmware/board/chip.py's physical pins (GPIO -> pin on the header, 0
    where none), as the console's messages give them."""
    from firmware.board import chip

    return list(chip._HEADER)


def wires(svg_text, cls="wire"):
    root = ET.fromstring(svg_text)
    out = []
    for g in root.iter(SVG + "g"):
        if g.get("class") == cls and g.get("data-part") != "example":
            out.append({k[5:]: v for k, v in g.attrib.items() if k.startswith("data-")})
    return out


@pytest.mark.parametrize("name,make", wiring.PICTURES)
def test_the_committed_picture_is_what_the_tool_draws_now(name, make):
    with open(os.path.join(ROOT, "docs", name), encoding="utf-8") as f:
        committed = f.read()
    assert committed == make(), (
        "docs/%s is not what tools/wiring/wiring.py draws from firmware/board/board.py now: "
        "run .venv/bin/python -m tools.wiring.wiring and commit the pictures" % name)


def test_the_pinout_is_the_pico_s_and_the_firmware_s():
    phys = bringup_phys()
    for gpio, pin in enumerate(phys):
        if pin > 0:
            assert wiring.PINOUT[pin] == "GP%d" % gpio, (gpio, pin)
    named = {v for v in wiring.PINOUT.values() if v.startswith("GP")}
    assert named == {"GP%d" % g for g, p in enumerate(phys) if p > 0}
    assert sorted(p for p, v in wiring.PINOUT.items() if v == "GND") == [3, 8, 13, 18, 23,
                                                                         28, 33, 38]
    assert wiring.PINOUT[36] == "3V3(OUT)"


def want():
    """Every connection the pictures must draw, from firmware/board/board.py:
    (part, terminal) -> (gpio or None, physical pin, the pin's name)."""
    phys = bringup_phys()
    out = {("OLED", "SDA"): (board.I2C_SDA, phys[board.I2C_SDA]),
           ("OLED", "SCL"): (board.I2C_SCL, phys[board.I2C_SCL]),
           ("OLED", "VCC"): (None, 36), ("OLED", "GND"): (None, wiring.OLED_GND_PIN),
           ("GND rail", "GND"): (None, wiring.BUTTON_GND_PIN)}
    for name, gpio in zip(("LEFT", "RIGHT", "UP", "DOWN", "A", "B"), board.BUTTON_PINS):
        out[("button " + name, "leg 1")] = (gpio, phys[gpio])
        out[("button " + name, "leg 4")] = (None, wiring.BUTTON_GND_PIN)
    out[("link", "TX")] = (board.LINK_TX, phys[board.LINK_TX])
    out[("link", "RX")] = (board.LINK_RX, phys[board.LINK_RX])
    return out


def check_link_gnd(got):
    """The link socket's GND (popped from got): a GND pin of the Pico, on the
    same side of the header as TX and RX and beside one of them, so the
    socket's three pins are side by side."""
    gpio, gnd = got.pop(("link", "GND"))
    assert gpio is None
    assert wiring.PINOUT[gnd] == "GND", gnd
    phys = bringup_phys()
    tx, rx = phys[board.LINK_TX], phys[board.LINK_RX]
    assert (gnd <= 20) == (tx <= 20) == (rx <= 20), (tx, rx, gnd)
    assert min(abs(gnd - tx), abs(gnd - rx)) == 1, (tx, rx, gnd)
    return gnd


@pytest.mark.parametrize("name,make", wiring.PICTURES)
def test_every_pin_drawn_is_the_firmware_s(name, make):
    drawn = wires(make())
    got = {}
    for w in drawn:
        key = (w["part"], w["terminal"])
        assert key not in got, "drawn twice: %s" % (key,)
        got[key] = (int(w["gpio"]) if "gpio" in w else None, int(w["pin"]))
    check_link_gnd(got)
    assert got == want()
    for (part, term), (gpio, pin) in got.items():
        if gpio is None:
            assert wiring.PINOUT[pin] in ("GND", "3V3(OUT)"), (part, term, pin)
        else:
            assert wiring.PINOUT[pin] == "GP%d" % gpio
    # the pads name their pins as the Pico does; the picture's text says the
    # same GPIO and pin as the wire
    text = make()
    for name_, _, gpio in wiring.BUTTONS:
        assert "GP%d" % gpio in text
    if name == "wiring-breadboard.svg":
        root = ET.fromstring(text)
        pads = {int(g.get("data-pin")): g.get("data-name") for g in root.iter(SVG + "g")
                if g.get("class") == "pad"}
        assert pads == wiring.PINOUT
        for _, _, gpio in wiring.BUTTONS:
            assert "GP%d, pin %d" % (gpio, bringup_phys()[gpio]) in text
        for term, gpio in (("TX", board.LINK_TX), ("RX", board.LINK_RX)):
            assert "%s GP%d, pin %d" % (term, gpio, bringup_phys()[gpio]) in text
    else:
        for term, gpio in (("TX", board.LINK_TX), ("RX", board.LINK_RX)):
            assert "GP%d (UART%d %s)" % (gpio, uart_of(board.LINK_TX, board.LINK_RX),
                                         term) in text


@pytest.mark.parametrize("name,make", wiring.PICTURES)
def test_the_link_cable_drawn_crosses_tx_and_rx(name, make):
    """Between the two boards' LINK sockets: TX to RX, RX to TX, GND to GND,
    each once."""
    cable = sorted((c["from"], c["to"]) for c in wires(make(), "cable"))
    assert cable == [("GND", "GND"), ("RX", "TX"), ("TX", "RX")]
    assert "TX to RX, RX to TX, GND to GND" in make()


def test_a_pin_changed_in_the_table_moves_in_the_picture(monkeypatch):
    """The pictures follow firmware/board/board.py: B on GP16 is drawn to pin 21."""
    monkeypatch.setattr(wiring, "BUTTONS", wiring.BUTTONS[:5] + (("B", "back", 16),))
    for _, make in wiring.PICTURES:
        got = {(w["part"], w["terminal"]): w for w in wires(make())}
        assert got[("button B", "leg 1")]["gpio"] == "16"
        assert got[("button B", "leg 1")]["pin"] == "21"


@pytest.mark.parametrize("tx", [0, 4, 8, 12, 16, 20])
def test_link_pins_changed_in_the_table_move_in_the_picture(monkeypatch, tx):
    """Every UART pair on the header: the pictures draw the socket's TX and
    RX on its pins and a GND beside them (GP16/GP17: pins 21, 22 and 23)."""
    monkeypatch.setattr(board, "LINK_TX", tx)
    monkeypatch.setattr(board, "LINK_RX", tx + 1)
    phys = bringup_phys()
    for _, make in wiring.PICTURES:
        got = {(w["part"], w["terminal"]): (int(w["gpio"]) if "gpio" in w else None,
                                            int(w["pin"]))
               for w in wires(make()) if w["part"] == "link"}
        gnd = check_link_gnd(got)
        assert got == {("link", "TX"): (tx, phys[tx]), ("link", "RX"): (tx + 1, phys[tx + 1])}
        if tx == 16:
            assert (phys[tx], phys[tx + 1], gnd) == (21, 22, 23)


def test_the_docs_show_both_pictures():
    for doc in ("README.md", os.path.join("docs", "HARDWARE.md")):
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            text = f.read()
        for name, _ in wiring.PICTURES:
            assert name in text, (doc, name)
