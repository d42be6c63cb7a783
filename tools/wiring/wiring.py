"""The wiring pictures, drawn from the firmware's own pin table.

    .venv/bin/python -m tools.wiring.wiring [--out docs/]

writes docs/wiring-breadboard.svg (the parts as they look: the Pico from
above, USB up, the OLED module, the six 6x6 mm switches on a breadboard,
the optional LINK socket and its crossed cable to a second board) and
docs/wiring-schematic.svg (the same connections as a circuit). Every
GPIO drawn is read from firmware/board/board.py, the file the firmware itself
imports, so a pin changed there is a pin moved here: run this again and
commit the pictures (host_tests/tools/test_wiring.py fails until they match).

Plain SVG text, no dependencies. Every wire carries its part, GPIO and
physical pin as data-* attributes, which the test reads back and checks
against firmware/board/board.py and the GPIO-to-pin table of firmware/pico/bringup.py.
"""

import argparse
import os
import sys

from firmware.board import board

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The Raspberry Pi Pico's 40 pins, as printed on its pinout card: physical
# pin number -> name. Pins 1-20 run down the left side (USB up, top view),
# 21-40 up the right side.
PINOUT = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5",
    8: "GND", 9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND",
    14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13", 18: "GND", 19: "GP14",
    20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19",
    26: "GP20", 27: "GP21", 28: "GND", 29: "GP22", 30: "RUN", 31: "GP26",
    32: "GP27", 33: "GND", 34: "GP28", 35: "ADC_VREF", 36: "3V3(OUT)",
    37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
POWER_PIN = 36          # 3V3(OUT): the OLED's VCC
OLED_GND_PIN = 38       # the GND next to it
BUTTON_GND_PIN = 23     # the buttons' common ground (any GND pin would do)

# (name, what it does, GPIO from the firmware's pin table), in the order of
# firmware.buttons' bit mask.
BUTTONS = (
    ("LEFT", "", board.BTN_LEFT),
    ("RIGHT", "", board.BTN_RIGHT),
    ("UP", "knock", board.BTN_UP),
    ("DOWN", "review", board.BTN_DOWN),
    ("A", "select", board.BTN_A),
    ("B", "back", board.BTN_B),
)
COLOURS = ("#e8731a", "#2a9d3a", "#7b3fb5", "#8a5a2b", "#12908e", "#d0307f")
RED, BLACK, SDA_C, SCL_C = "#d62728", "#222222", "#1f5fd1", "#d9a400"
TX_C, RX_C = "#00a3d9", "#8dbf1a"    # the link cable's TX and RX
# The link socket: a JST-XH 3-pin (2.5 mm pitch, keyed and latched), TX RX
# GND in the order of the Pico's pins (docs/HARDWARE.md says why this one).
LINK_SOCKET = "JST-XH 3-pin"
# The cable between two boards' sockets: this board's terminal -> the
# other board's.
CABLE = (("TX", "RX"), ("RX", "TX"), ("GND", "GND"))


def pin_of(gpio):
    """The physical pin of GPn."""
    name = "GP%d" % gpio
    for n, v in PINOUT.items():
        if v == name:
            return n
    raise ValueError("GP%d is not on the Pico's header" % gpio)


def gnd_beside(*pins):
    """The GND pin nearest these pins on their side of the Pico: the link
    socket's third pin, so its three pins sit side by side on the header."""
    side = [p for p, v in PINOUT.items() if v == "GND" and (p <= 20) == (pins[0] <= 20)]
    return min(side, key=lambda g: (min(abs(g - p) for p in pins), g))


def link_pins():
    """The link socket's pins: (terminal, GPIO or None, physical pin, colour),
    TX and RX from firmware/board/board.py, GND the GND pin beside them."""
    tx, rx = pin_of(board.LINK_TX), pin_of(board.LINK_RX)
    return (("TX", board.LINK_TX, tx, TX_C), ("RX", board.LINK_RX, rx, RX_C),
            ("GND", None, gnd_beside(tx, rx), BLACK))


def link_uart():
    """'UART1': the RP2040 UART of the link pins (firmware/link/linkport.py)."""
    from firmware.link.linkport import uart_of
    return "UART%d" % uart_of(board.LINK_TX, board.LINK_RX)


def connections():
    """What the pictures draw: (part, its terminal, GPIO or None, pin)."""
    out = [("OLED", "VCC", None, POWER_PIN), ("OLED", "GND", None, OLED_GND_PIN),
           ("OLED", "SCL", board.I2C_SCL, pin_of(board.I2C_SCL)),
           ("OLED", "SDA", board.I2C_SDA, pin_of(board.I2C_SDA))]
    for name, _, gpio in BUTTONS:
        out.append(("button " + name, "leg 1", gpio, pin_of(gpio)))
        out.append(("button " + name, "leg 4", None, BUTTON_GND_PIN))
    for term, gpio, pin, _ in link_pins():
        out.append(("link", term, gpio, pin))
    return out


class Svg:
    def __init__(self, w, h, title):
        self.w, self.h = w, h
        self.out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                    'viewBox="0 0 %d %d" font-family="DejaVu Sans, Arial, sans-serif">'
                    % (w, h, w, h),
                    "<title>%s</title>" % esc(title),
                    '<rect width="%d" height="%d" fill="#ffffff"/>' % (w, h)]

    def add(self, s):
        self.out.append(s)

    def rect(self, x, y, w, h, fill, stroke="none", rx=0, extra=""):
        self.add('<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="%s" stroke="%s"%s/>'
                 % (n(x), n(y), n(w), n(h), n(rx), fill, stroke, extra))

    def circle(self, x, y, r, fill, stroke="none", extra=""):
        self.add('<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s"%s/>'
                 % (n(x), n(y), n(r), fill, stroke, extra))

    def line(self, x1, y1, x2, y2, stroke, width=2, extra=""):
        self.add('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"%s/>'
                 % (n(x1), n(y1), n(x2), n(y2), stroke, n(width), extra))

    def text(self, x, y, s, size=12, anchor="start", fill="#222", weight="normal"):
        self.add('<text x="%s" y="%s" font-size="%s" text-anchor="%s" fill="%s"'
                 ' font-weight="%s">%s</text>' % (n(x), n(y), n(size), anchor, fill, weight, esc(s)))

    def wire(self, points, colour, data, width=4):
        """An orthogonal wire through points, with its meaning as data-*."""
        attrs = "".join(' data-%s="%s"' % (k, esc(str(v))) for k, v in data)
        pts = " ".join("%s,%s" % (n(x), n(y)) for x, y in points)
        self.add('<g class="wire"%s><polyline points="%s" fill="none" stroke="%s" '
                 'stroke-width="%s" stroke-linejoin="round" stroke-linecap="round"/>'
                 % (attrs, pts, colour, n(width)))
        for x, y in (points[0], points[-1]):
            self.circle(x, y, width * 0.9, colour)
        self.add("</g>")

    def cable(self, points, colour, frm, to, width=4):
        """A wire of the link cable between two boards' sockets: this board's
        terminal frm to the other board's terminal to (data-from, data-to)."""
        pts = " ".join("%s,%s" % (n(x), n(y)) for x, y in points)
        self.add('<g class="cable" data-from="%s" data-to="%s"><polyline points="%s" '
                 'fill="none" stroke="%s" stroke-width="%s" stroke-linejoin="round" '
                 'stroke-linecap="round"/>' % (esc(frm), esc(to), pts, colour, n(width)))
        for x, y in (points[0], points[-1]):
            self.circle(x, y, width * 0.9, colour)
        self.add("</g>")

    def dashed(self, x, y, w, h, stroke="#888"):
        """The dashed outline of an optional part."""
        self.rect(x, y, w, h, "none", stroke, rx=8,
                  extra=' stroke-width="1.5" stroke-dasharray="7,5"')

    def done(self):
        return "\n".join(self.out + ["</svg>"]) + "\n"


def n(v):
    """A coordinate as short text: 12, 12.5."""
    s = "%.1f" % v
    return s[:-2] if s.endswith(".0") else s


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


# ---- the breadboard view -----------------------------------------------------

PICO_X, PICO_Y, PICO_W, PICO_H = 700, 60, 210, 540


def pad_xy(pin):
    """Where the Pico's pad of a physical pin is drawn."""
    if pin <= 20:
        return PICO_X + 12, PICO_Y + 25 + (pin - 1) * 25.4
    return PICO_X + PICO_W - 12, PICO_Y + 25 + (40 - pin) * 25.4


def pad_end(pin):
    """Where a wire to a pad ends: at its outer edge, the number left clear."""
    x, y = pad_xy(pin)
    return (x - 10 if pin <= 20 else x + 10), y


def draw_pico(s, used):
    s.rect(PICO_X + 80, PICO_Y - 14, 50, 22, "#c0c0c0", "#777", rx=3)
    s.text(PICO_X + 105, PICO_Y - 2, "USB", 10, "middle", "#444")
    s.rect(PICO_X, PICO_Y, PICO_W, PICO_H, "#1e7a46", "#0f4d2a", rx=8)
    s.rect(PICO_X + 75, PICO_Y + 230, 60, 60, "#222", rx=3)
    s.text(PICO_X + 105, PICO_Y + 264, "RP2040", 10, "middle", "#ddd")
    s.text(PICO_X + 105, PICO_Y + 330, "Raspberry Pi", 12, "middle", "#fff", "bold")
    s.text(PICO_X + 105, PICO_Y + 346, "Pico", 12, "middle", "#fff", "bold")
    s.text(PICO_X + 105, PICO_Y + 366, "top view, USB up", 10, "middle", "#cfe")
    for pin in range(1, 41):
        x, y = pad_xy(pin)
        name = PINOUT[pin]
        colour = used.get(pin)
        s.add('<g class="pad" data-pin="%d" data-name="%s">' % (pin, esc(name)))
        s.circle(x, y, 9, colour or "#e8d8a0", "#8a7a40", ' stroke-width="1.5"')
        s.text(x, y + 3.5, str(pin), 9, "middle", "#fff" if colour else "#333", "bold")
        if pin <= 20:
            s.text(x + 14, y + 4, name, 11, "start", "#fff", "bold" if colour else "normal")
        else:
            s.text(x - 14, y + 4, name, 11, "end", "#fff", "bold" if colour else "normal")
        s.add("</g>")


BB_X, BB_Y, BB_W, BB_H = 30, 650, 575, 272
HOLE = 22                       # the breadboard's hole pitch in the picture
GAP_Y = BB_Y + 120              # the middle of the centre channel
RAIL_Y = BB_Y + 250             # the GND rail


def col_x(j):
    return BB_X + 26 + HOLE * j


def row_y(r):
    """Rows -5..-1 above the channel, 1..5 below it."""
    return GAP_Y + (r * HOLE - (HOLE // 2 if r > 0 else -HOLE // 2))


def switch_x(i):
    return col_x(2 + 4 * i)


def draw_breadboard(s):
    s.rect(BB_X, BB_Y, BB_W, BB_H, "#f4f1e8", "#c9c2ad", rx=6)
    s.rect(BB_X, GAP_Y - 5, BB_W, 10, "#ddd6c0")
    s.line(BB_X + 10, RAIL_Y - 13, BB_X + BB_W - 10, RAIL_Y - 13, "#3465c4", 1.5)
    s.text(BB_X + 6, RAIL_Y - 17, "-  GND rail", 10, "start", "#3465c4")
    for j in range(25):
        for r in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5):
            s.rect(col_x(j) - 2.5, row_y(r) - 2.5, 5, 5, "#8d8676", rx=1)
        s.rect(col_x(j) - 2.5, RAIL_Y - 2.5, 5, 5, "#8d8676", rx=1)


def draw_switch(s, cx, cy, body, label, legs_at, strip_colour="#9a9a9a"):
    """A 6x6 mm switch from above: the legs stick out of the top and bottom
    edges; each is joined inside to the leg straight across the body from
    it (drawn as the grey strips)."""
    dx, dy = legs_at
    for sx in (-dx, dx):
        s.line(cx + sx, cy - dy, cx + sx, cy + dy, strip_colour, 3, ' stroke-dasharray="5,3"')
    s.rect(cx - body / 2, cy - body / 2, body, body, "#3b3b3b", "#111", rx=3,
           extra=' fill-opacity="0.82"')
    for sx in (-dx, dx):
        s.line(cx + sx, cy - dy, cx + sx, cy + dy, strip_colour, 2, ' stroke-dasharray="5,3"')
    s.circle(cx, cy, body * 0.3, "#585858", "#1a1a1a")
    for sx in (-dx, dx):
        for sy in (-dy, dy):
            s.rect(cx + sx - 3, cy + sy - 4, 6, 8, "#c8c8c8", "#666")
    if label:
        s.text(cx, cy + 4, label, 12, "middle", "#fff", "bold")


def draw_socket(s, x, ys, terms, labels="left"):
    """The link's JST-XH socket from above at x (its left edge): one pin at
    each y of ys, named by terms beside it; the two ribs on the side away
    from the labels are its key, so a plug goes in one way only."""
    top, bot = min(ys) - 16, max(ys) + 16
    s.rect(x, top, 30, bot - top, "#f3eedc", "#9a8d62", rx=2, extra=' stroke-width="1.5"')
    s.rect(x + 5, top + 4, 20, bot - top - 8, "#e2d9bc", rx=1)
    kx = x + 30 if labels == "left" else x - 4
    for ky in (top + 8, bot - 16):
        s.rect(kx, ky, 4, 8, "#d8cfae", "#9a8d62")
    for y, term in zip(ys, terms):
        s.rect(x + 12, y - 3, 6, 6, "#c9a43a", "#7a5f10")
        if labels == "left":
            s.text(x - 6, y + 4, term, 11, "end", "#222", "bold")
        else:
            s.text(x + 36, y + 4, term, 11, "start", "#222", "bold")


def draw_link(s):
    """The LINK socket on the header's link pins, its wires, and an inset of
    two boards' sockets and the crossed cable between them."""
    pins = link_pins()
    if pins[0][2] <= 20:
        # the left side: straight across to the socket, beside the pads
        x = PICO_X - 162
        ys = [pad_end(pin)[1] for _, _, pin, _ in pins]
        routes = [[pad_end(pin), (x + 15, pad_end(pin)[1])] for _, _, pin, _ in pins]
    else:
        # the right side: out to a lane each, down past the Pico's bottom
        # edge and left to the socket under it; the lowest pad takes the
        # innermost lane and the top pin of the socket, so no wires cross
        x = PICO_X + 90
        order = sorted(range(len(pins)), key=lambda i: -pad_end(pins[i][2])[1])
        ys = [0.0] * len(pins)
        routes = [None] * len(pins)
        for k, i in enumerate(order):
            px, py = pad_end(pins[i][2])
            lane, ys[i] = PICO_X + PICO_W + 10 + 8 * k, PICO_Y + PICO_H + 80 + 25.4 * k
            routes[i] = [(px, py), (lane, py), (lane, ys[i]), (x + 15, ys[i])]
    for (term, gpio, pin, colour), pts in zip(pins, routes):
        data = [("part", "link"), ("terminal", term), ("pin", pin)]
        if gpio is not None:
            data.append(("gpio", gpio))
        s.wire(pts, colour, data)
    draw_socket(s, x, ys, [t for t, _, _, _ in pins], "left")
    bx0 = x - 84                            # the dashed outline's left edge
    cx = bx0 + 65
    s.dashed(bx0, min(ys) - 62, 130, max(ys) - min(ys) + 174)
    s.text(cx, min(ys) - 44, "optional: link play", 10, "middle", "#666")
    s.text(cx, min(ys) - 24, "LINK", 14, "middle", "#222", "bold")
    s.text(cx, max(ys) + 34, LINK_SOCKET, 10, "middle", "#666")
    for k, (term, gpio, pin, _) in enumerate(pins):
        where = ("GP%d, pin %d" % (gpio, pin)) if gpio is not None else "pin %d" % pin
        s.text(cx, max(ys) + 54 + 14 * k, "%s %s" % (term, where), 10, "middle", "#333")

    # the inset: two boards' sockets and the cable, TX to RX, RX to TX
    ix, iy, iw, ih = 36, 268, 400, 318
    s.dashed(ix, iy, iw, ih)
    s.text(ix + 14, iy + 24, "The link cable (optional): two boards", 13, "start", "#222",
           "bold")
    terms = [t for t, _, _ in link_pins_order()]
    cy = [iy + 96 + 34 * k for k in range(3)]
    ax, bx = ix + 64, ix + iw - 94
    s.text(ax + 15, iy + 56, "this board", 11, "middle", "#333", "bold")
    s.text(bx + 15, iy + 56, "the other board", 11, "middle", "#333", "bold")
    colour = dict((t, c) for t, _, _, c in pins)
    for a, b in CABLE:
        ya, yb = cy[terms.index(a)], cy[terms.index(b)]
        s.cable([(ax + 15, ya), (ax + 80, ya), (bx - 50, yb), (bx + 15, yb)], colour[a], a, b)
    draw_socket(s, ax, cy, terms, "left")
    draw_socket(s, bx, cy, terms, "right")
    notes = (("to the other board: TX to RX, RX to TX, GND to GND", "bold"),
             ("(the cable crosses TX and RX)", "bold"),
             ("Three wires, a metre or two at %d baud:" % board.LINK_BAUD, ""),
             ("both boards are 3.3 V, no level shifter.", ""),
             ("Never join the two boards' 3V3 or VBUS:", ""),
             ("each board has its own power.", ""),
             ("A keyed %s socket: the plug" % LINK_SOCKET, ""),
             ("goes in one way only (docs/HARDWARE.md).", ""))
    for k, (t, w) in enumerate(notes):
        s.text(ix + 14, iy + 196 + 15 * k, t, 11, "start", "#333", w or "normal")


def link_pins_order():
    """The socket's terminals top to bottom, as the main picture draws it on
    either side of the Pico: (terminal, GPIO, pin) by physical pin."""
    return sorted(((t, g, p) for t, g, p, _ in link_pins()), key=lambda r: r[2])


def breadboard_svg():
    s = Svg(1340, 990, "Pocket Gin Rummy: the wiring, breadboard view")
    used = {POWER_PIN: RED, OLED_GND_PIN: BLACK, BUTTON_GND_PIN: BLACK,
            pin_of(board.I2C_SDA): SDA_C, pin_of(board.I2C_SCL): SCL_C}
    for (name, _, gpio), c in zip(BUTTONS, COLOURS):
        used[pin_of(gpio)] = c
    for _, _, pin, c in link_pins():
        used[pin] = c
    draw_breadboard(s)
    draw_link(s)

    # the OLED module, its four header pins along its lower edge
    ox, oy, ow, oh = 250, 50, 290, 120
    s.rect(ox, oy, ow, oh, "#1d3f8f", "#10275c", rx=6)
    s.rect(ox + 30, oy + 14, ow - 60, oh - 50, "#05070d", "#333")
    s.text(ox + ow / 2, oy + 50, "OLED 128x64", 13, "middle", "#7fb8ff", "bold")
    s.text(ox + ow / 2, oy + 68, "SSD1306 or SH1106, I2C", 11, "middle", "#7fb8ff")
    oled_pins = (("GND", OLED_GND_PIN, BLACK, None), ("VCC", POWER_PIN, RED, None),
                 ("SCL", pin_of(board.I2C_SCL), SCL_C, board.I2C_SCL),
                 ("SDA", pin_of(board.I2C_SDA), SDA_C, board.I2C_SDA))
    hx = [ox + 80 + 26 * k for k in range(4)]
    hy = oy + oh
    for k, (label, _, _, _) in enumerate(oled_pins):
        s.text(hx[k], hy - 8, label, 10, "middle", "#fff", "bold")
        s.rect(hx[k] - 5, hy - 5, 10, 10, "#d9b44a", "#7a5f10")
    s.text(ox, oy - 8, "the order of these four pins differs between modules:"
           " go by the labels on yours", 10, "start", "#555")
    # wires to left-side pins drop straight down, then across; wires to
    # right-side pins go over the top of the Pico
    loop = 0
    for k, (label, pin, colour, gpio) in enumerate(oled_pins):
        px, py = pad_end(pin)
        data = [("part", "OLED"), ("terminal", label), ("pin", pin)]
        if gpio is not None:
            data.append(("gpio", gpio))
        if pin <= 20:
            pts = [(hx[k], hy), (hx[k], py), (px, py)]
        else:
            drop, side = 10 + 12 * loop, 20 + 14 * loop
            top, right = 22 - 11 * loop, PICO_X + PICO_W + 50 + 14 * loop
            pts = [(hx[k], hy), (hx[k], hy + drop), (ox - side, hy + drop), (ox - side, top),
                   (right, top), (right, py), (px, py)]
            loop += 1
        s.wire(pts, colour, data)

    draw_pico(s, used)

    # the switches straddle the centre channel; leg 1 (top left) takes the
    # GPIO, leg 4 (bottom right, diagonal to it) the GND rail
    left = sorted((pin_of(g), i) for i, (_, _, g) in enumerate(BUTTONS) if pin_of(g) <= 20)
    rank = {i: r for r, (_, i) in enumerate(left)}
    for i, ((name, role, gpio), c) in enumerate(zip(BUTTONS, COLOURS)):
        cx = switch_x(i)
        pin = pin_of(gpio)
        px, py = pad_end(pin)
        leg1 = (cx - HOLE, row_y(-5))       # the top hole of leg 1's strip
        s.rect(cx - HOLE - 5, row_y(-5) - 5, 10, 4 * HOLE + 10, c, extra=' fill-opacity="0.22"')
        s.rect(cx + HOLE - 5, row_y(1) - 5, 10, 4 * HOLE + 10, "#444", extra=' fill-opacity="0.18"')
        r = rank.get(i, len(left) + i)
        h = BB_Y - 36 + 6 * r
        if pin <= 20:
            lane = PICO_X - 100 + 14 * r
            pts = [(px, py), (lane, py), (lane, h), (leg1[0], h), leg1]
        else:
            lane = PICO_X + PICO_W + 30 + 8 * i
            pts = [(px, py), (lane, py), (lane, h), (leg1[0], h), leg1]
        s.wire(pts, c, [("part", "button " + name), ("terminal", "leg 1"),
                        ("gpio", gpio), ("pin", pin)], 3.5)
        draw_switch(s, cx, GAP_Y, 56, name, (HOLE, row_y(2) - GAP_Y + 0.5))
        s.wire([(cx + HOLE, row_y(5)), (cx + HOLE, RAIL_Y)], BLACK,
               [("part", "button " + name), ("terminal", "leg 4"), ("pin", BUTTON_GND_PIN)], 3)
        s.text(cx, BB_Y + BB_H + 18, name, 13, "middle", c, "bold")
        s.text(cx, BB_Y + BB_H + 33, "GP%d, pin %d" % (gpio, pin), 11, "middle", "#333")
        if role:
            s.text(cx, BB_Y + BB_H + 47, role, 10, "middle", "#777")
    # the GND rail to the Pico's GND
    gx, gy = pad_end(BUTTON_GND_PIN)
    rail_end = col_x(24)
    s.wire([(gx, gy), (PICO_X + PICO_W + 40, gy), (PICO_X + PICO_W + 40, RAIL_Y),
            (rail_end, RAIL_Y)], BLACK, [("part", "GND rail"), ("terminal", "GND"),
                                          ("pin", BUTTON_GND_PIN)], 4)

    # the switch's legs, close up
    zx, zy, tx = 1170, 240, 1020
    s.text(tx, 70, "A 4-leg 6x6 mm switch, from above", 14, "start", "#222", "bold")
    draw_switch(s, zx, zy, 130, "", (48, 75))
    for num, sx, sy in ((1, -48, -75), (2, 48, -75), (3, -48, 75), (4, 48, 75)):
        s.circle(zx + sx + (-24 if sx < 0 else 24), zy + sy, 10, "#fff", "#333")
        s.text(zx + sx + (-24 if sx < 0 else 24), zy + sy + 4, str(num), 12, "middle", "#222",
               "bold")
    s.wire([(zx - 48, zy - 75), (zx - 48, zy - 130), (zx - 110, zy - 130)], COLOURS[0],
           [("part", "example"), ("terminal", "leg 1")], 3.5)
    s.text(zx - 114, zy - 126, "to its GPIO", 11, "end", "#333")
    s.wire([(zx + 48, zy + 75), (zx + 48, zy + 130), (zx + 110, zy + 130)], BLACK,
           [("part", "example"), ("terminal", "leg 4")], 3.5)
    s.text(zx + 114, zy + 134, "to GND", 11, "start", "#333")
    notes = ("Its legs come out of two opposite edges. Each",
             "leg is joined inside to the leg straight across",
             "the body from it (the grey strips): 1 with 3,",
             "2 with 4. Pressing the button joins the strips.",
             "",
             "Use two diagonal legs, 1 and 4 (or 2 and 3):",
             "diagonal legs are never joined, whichever way",
             "round the switch is. Legs 1 and 3 are one wire:",
             "a button wired to them reads as held for good",
             "(B held at power-on: the game never starts).",
             "",
             "On the breadboard each switch straddles the",
             "centre channel, so its four legs sit in four",
             "different strips of five holes (shaded); a wire",
             "goes into a free hole of its leg's strip.",
             "",
             "No resistors: the buttons use the RP2040's",
             "pull-ups, the OLED module has its own.",
             "Any GND pin will do (3 8 13 18 23 28 33 38).",
             "",
             "Not sure which legs are joined? A meter that",
             "beeps across two legs with the button released",
             "has found one pair.")
    for k, t in enumerate(notes):
        s.text(tx, 410 + 17 * k, t, 12)
    s.text(tx, 810, "The pins are firmware/board/board.py's,", 11, "start", "#666")
    s.text(tx, 825, "drawn by tools/wiring/wiring.py.", 11, "start", "#666")
    return s.done()


# ---- the schematic view ------------------------------------------------------

def gnd_symbol(s, x, y):
    s.line(x, y, x, y + 10, BLACK, 2)
    for k, w in enumerate((16, 10, 4)):
        s.line(x - w / 2, y + 10 + 4 * k, x + w / 2, y + 10 + 4 * k, BLACK, 2)


def schematic_svg():
    s = Svg(1000, 660, "Pocket Gin Rummy: the wiring, schematic view")
    bx, by, bw = 430, 60, 200
    bh = 360                        # the buttons and GND on the left; OLED, LINK right
    s.rect(bx, by, bw, bh, "#f7f7f2", "#333", extra=' stroke-width="2"')
    s.text(bx + bw / 2, by - 10, "Raspberry Pi Pico", 14, "middle", "#222", "bold")

    # buttons on the left: GPIO pin -> switch -> GND
    for k, ((name, role, gpio), c) in enumerate(zip(BUTTONS, COLOURS)):
        y = by + 40 + 40 * k
        pin = pin_of(gpio)
        s.text(bx + 8, y + 4, "GP%d" % gpio, 12, "start", "#222", "bold")
        s.text(bx - 6, y - 5, str(pin), 10, "end", "#555")
        sw_l, sw_r = 170, 230
        s.wire([(bx, y), (sw_r, y)], c, [("part", "button " + name), ("terminal", "leg 1"),
                                          ("gpio", gpio), ("pin", pin)], 2.5)
        # the push switch: two contacts and a bar over them
        s.circle(sw_r, y, 3.5, "#fff", c, ' stroke-width="2"')
        s.circle(sw_l, y, 3.5, "#fff", c, ' stroke-width="2"')
        s.line(sw_l - 2, y - 10, sw_r + 2, y - 10, c, 2.5)
        s.line((sw_l + sw_r) / 2, y - 10, (sw_l + sw_r) / 2, y - 19, c, 2.5)
        s.line((sw_l + sw_r) / 2 - 7, y - 19, (sw_l + sw_r) / 2 + 7, y - 19, c, 2.5)
        s.text((sw_l + sw_r) / 2, y + 16, "leg 4   leg 1", 9, "middle", "#666")
        s.text(sw_r + 16, y - 5, name + (" (%s)" % role if role else ""), 12, "start", c, "bold")
        s.wire([(sw_l, y), (80, y)], BLACK,
               [("part", "button " + name), ("terminal", "leg 4"), ("pin", BUTTON_GND_PIN)], 2.5)
        s.circle(80, y, 4, BLACK)
    # every button's leg 4 on one ground, the Pico's GND pin
    gy = by + 40 + 40 * len(BUTTONS)
    s.text(bx + 8, gy + 4, "GND", 12, "start", "#222", "bold")
    s.text(bx - 6, gy - 5, str(BUTTON_GND_PIN), 10, "end", "#555")
    s.wire([(80, by + 40), (80, gy), (bx, gy)], BLACK,
           [("part", "GND rail"), ("terminal", "GND"), ("pin", BUTTON_GND_PIN)], 2.5)
    gnd_symbol(s, 80, gy)

    # the OLED on the right
    ox, oy = 800, by + 20
    terms = (("VCC", POWER_PIN, RED, None), ("GND", OLED_GND_PIN, BLACK, None),
             ("SCL", pin_of(board.I2C_SCL), SCL_C, board.I2C_SCL),
             ("SDA", pin_of(board.I2C_SDA), SDA_C, board.I2C_SDA))
    s.rect(ox, oy, 150, 40 * len(terms) + 20, "#e8eefb", "#1d3f8f", extra=' stroke-width="2"')
    s.text(ox + 75, oy - 10, "OLED 128x64 (I2C)", 14, "middle", "#1d3f8f", "bold")
    for k, (label, pin, colour, gpio) in enumerate(terms):
        y = oy + 30 + 40 * k
        name = PINOUT[pin]
        s.text(bx + bw - 8, y + 4, name + (" (I2C%d %s)" % (board.I2C_ID, label) if gpio is not None
                                           else ""), 12, "end", "#222", "bold")
        s.text(bx + bw + 6, y - 5, str(pin), 10, "start", "#555")
        s.text(ox + 8, y + 4, label, 12, "start", "#1d3f8f", "bold")
        data = [("part", "OLED"), ("terminal", label), ("pin", pin)]
        if gpio is not None:
            data.append(("gpio", gpio))
        s.wire([(bx + bw, y), (ox, y)], colour, data, 2.5)

    # the LINK socket on the right, under the OLED, and the cable crossed to
    # the other board's socket
    pins = link_pins()
    ys = [by + 260 + 32 * k for k in range(len(pins))]
    jx, kx = 720, 850                   # this board's socket, the other board's
    s.dashed(jx - 26, ys[0] - 54, 260, ys[-1] - ys[0] + 112)
    s.text(jx - 14, ys[-1] + 52, "optional: link play (docs/LINK.md)", 10, "start", "#666")
    s.text(jx + 25, ys[0] - 22, "LINK", 14, "middle", "#222", "bold")
    s.text(kx + 25, ys[0] - 22, "the other board", 11, "middle", "#222", "bold")
    for sx in (jx, kx):
        s.rect(sx, ys[0] - 17, 50, ys[-1] - ys[0] + 34, "#f7f7f2", "#333",
               extra=' stroke-width="2"')
    uart = link_uart()
    for k, (term, gpio, pin, colour) in enumerate(pins):
        y = ys[k]
        name = PINOUT[pin] + (" (%s %s)" % (uart, term) if gpio is not None else "")
        s.text(bx + bw - 8, y + 4, name, 12, "end", "#222", "bold")
        s.text(bx + bw + 6, y - 5, str(pin), 10, "start", "#555")
        data = [("part", "link"), ("terminal", term), ("pin", pin)]
        if gpio is not None:
            data.append(("gpio", gpio))
        s.wire([(bx + bw, y), (jx, y)], colour, data, 2.5)
        s.text(jx + 6, y + 4, "%d %s" % (k + 1, term), 11, "start", "#222", "bold")
        s.text(kx + 6, y + 4, "%d %s" % (k + 1, term), 11, "start", "#222", "bold")
    terms = [t for t, _, _, _ in pins]
    for a, b in CABLE:
        ya, yb = ys[terms.index(a)], ys[terms.index(b)]
        colour = [c for t, _, _, c in pins if t == a][0]
        s.cable([(jx + 50, ya), (jx + 62, ya), (kx - 12, yb), (kx, yb)], colour, a, b, 2.5)
    s.text((jx + kx + 50) / 2, ys[-1] + 34, "TX to RX, RX to TX, GND to GND", 10, "middle",
           "#333")

    notes = ("Small numbers: the Pico's physical pins; GPn: the GPIO (firmware/board/board.py).",
             "Each button is a 4-leg 6x6 mm switch: legs 1 and 4 are diagonal to each other,",
             "never joined inside (1 is joined to 3, 2 to 4, straight across the body).",
             "A pressed button pulls its GPIO to GND; the RP2040's own pull-ups hold it high",
             "otherwise, so there are no resistors. Any GND pin will do (3 8 13 18 23 28 33 38).",
             "No buzzer by default; one is a board setting (docs/BOARD.md).",
             "LINK (optional): a %s socket and a three-wire cable to a second board," % LINK_SOCKET,
             "crossed; a metre or two at %d baud. Never join the two boards' 3V3 or VBUS."
             % board.LINK_BAUD)
    for k, t in enumerate(notes):
        s.text(40, 470 + 20 * k, t, 12, "start", "#333")
    return s.done()


PICTURES = (("wiring-breadboard.svg", breadboard_svg), ("wiring-schematic.svg", schematic_svg))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"))
    a = ap.parse_args(argv)
    for name, make in PICTURES:
        path = os.path.join(a.out, name)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(make())
        print("wrote", os.path.relpath(path, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
