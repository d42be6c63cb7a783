"""The release firmware's main.py: start the game from the board's ROMFS
partition, or say how to put it there.

This file is frozen into the firmware as main.py (the board definition
tools/deploy/RPI_PICO_ROMFS/, its manifest.py), so MicroPython runs it at
every start, before and instead of any /main.py on the filesystem; it is
not in the game's ROMFS image nor in the .mpy bundle. The game is the
image in the ROMFS partition (tools/deploy/romfs.py), which MicroPython
mounts at /rom when it is valid: `make flash` rewrites it, the release's
.uf2 carries it. Its .mpy files run where they lie in flash.

- /rom/firmware/main.mpy there: /rom goes first on sys.path (so copies of
  the game left on the filesystem by an older `make flash`, /engine and
  /firmware, do not shadow it) and firmware.main (firmware/main.py: the
  safe boot, the settings, the game) is imported, which runs the game.
- Not there (an empty partition, or a deploy cut short by a power cut,
  which leaves the partition invalid, never half valid): the console and
  the display say so and to run `make flash` again; the REPL is free and
  the LED stays off (no game). The saves in the filesystem are untouched.

Only what the firmware itself has is used here (machine, framebuf), with
the display's default wiring (I2C0, SDA GP4, SCL GP5; 0x3C or 0x3D): the
game's own drawing code may be what is missing.
"""

import sys

ROM = "/rom"
ENTRY = "/rom/firmware/main.mpy"

NO_GAME = (
    "Gin Rummy: the game is not in this board's flash (its ROMFS partition is\n"
    "empty, or a deploy was cut short). Deploy it again: `make flash` from the\n"
    "game's source, or drag the release's gin-rummy-pico-<version>.uf2 onto the\n"
    "board (hold BOOTSEL while plugging it in). Your saves are kept.\n"
    "The REPL is free."
)
SCREEN = ("NO GAME IN FLASH", "", "DEPLOY AGAIN:", "MAKE FLASH", "OR THE .UF2", "", "SAVES ARE KEPT")

# SSD1306: display off, clock, multiplex 64, offset 0, start line 0,
# charge pump on, horizontal addressing, segment remap, COM scan down, COM
# pins, contrast, precharge, VCOMH, resume RAM, normal, display on.
INIT = bytes((0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00,
              0xA1, 0xC8, 0xDA, 0x12, 0x81, 0xCF, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0xAF,
              0x21, 0x00, 0x7F, 0x22, 0x00, 0x07))


def game_in_rom():
    try:
        import os

        os.stat(ENTRY)
        return True
    except OSError:
        return False


def show(lines):
    """`lines` on an SSD1306 at the default wiring, if one answers."""
    try:
        import framebuf
        from machine import I2C, Pin

        bus = I2C(0, sda=Pin(4), scl=Pin(5), freq=400000)
        found = bus.scan()
        addr = 0x3C if 0x3C in found else 0x3D if 0x3D in found else None
        if addr is None:
            return
        buf = bytearray(1025)
        buf[0] = 0x40                                   # display data follows
        fb = framebuf.FrameBuffer(memoryview(buf)[1:], 128, 64, framebuf.MONO_VLSB)
        y = 0
        for s in lines:
            fb.text(s, (128 - 8 * len(s)) // 2, y, 1)
            y += 9
        bus.writeto(addr, INIT)
        bus.writeto(addr, buf)
    except Exception:
        pass


def no_game():
    show(SCREEN)            # first: a console line printed before USB is up is lost
    print(NO_GAME)


def main():
    if not game_in_rom():
        no_game()
        return
    if ROM in sys.path:
        sys.path.remove(ROM)
    sys.path.insert(0, ROM)
    try:
        import firmware.main  # noqa: F401  (the game: it runs as it is imported)
    except (ImportError, ValueError) as e:
        # a module missing from the image, or not one this MicroPython loads
        sys.print_exception(e)
        no_game()


main()
