"""The default pin map and display settings: the wiring of docs/HARDWARE.md.

The release .uf2 has this module frozen in, so other wiring is not set by
editing it: /board.json on the board or the HARDWARE page change any of
these at start (firmware/board/boardcfg.py, docs/BOARD.md). The wiring pictures
and the release zips' pin tables are drawn from it (tools/wiring/).

Only the ports and the entry point read this; nothing here touches hardware.
"""

from firmware.compat import const

# I2C bus to the OLED (RP2040 I2C0 on GP4/GP5).
I2C_ID = const(0)
I2C_SDA = const(4)
I2C_SCL = const(5)
I2C_FREQ = const(400000)

# The display's controller: 'ssd1306', or 'sh1106' for the 1.3" modules
# sold as SSD1306 (132-column RAM, picture shifted by 2 columns without this
# setting). DISPLAY_TYPES: the controllers firmware/display/ssd1306.py has a driver
# class for (firmware.display.ssd1306.driver), in the HARDWARE page's order.
DISPLAY_TYPES = ("ssd1306", "sh1106")
DISPLAY_TYPE = "ssd1306"
DISPLAY_ADDR = const(0x3C)  # some modules are strapped to 0x3D
DISPLAY_WIDTH = const(128)
DISPLAY_HEIGHT = const(64)
DISPLAY_FLIP = False  # True: panel mounted upside down (rotate 180 degrees)

# Buttons: GPIO numbers, active low with the internal pull-ups.
BTN_LEFT = const(10)
BTN_RIGHT = const(11)
BTN_UP = const(12)
BTN_DOWN = const(13)
BTN_A = const(14)  # select / confirm
BTN_B = const(15)  # back / cancel; held at power-on: skip the game, keep the REPL
BUTTONS_ACTIVE_LOW = True

# In the bit order of firmware.buttons (LEFT RIGHT UP DOWN A B): bit i of the
# button mask is the pin BUTTON_PINS[i].
BUTTON_PINS = (BTN_LEFT, BTN_RIGHT, BTN_UP, BTN_DOWN, BTN_A, BTN_B)

# The link cable to a second board (LINK on the title, docs/LINK.md): three
# wires, this board's TX to the other's RX, RX to its TX, GND to GND. GP8
# (pin 11) and GP9 (pin 12) are UART1's TX and RX and free on this wiring,
# with a GND beside them (pin 13): one 3-pin connector. Another pair works
# if it is a UART's: TX on GP0, 4, 8, 12, 16, 20, 24 or 28, RX the next pin
# (UART0 or UART1 follows from the pins).
LINK_TX = const(8)
LINK_RX = const(9)
LINK_BAUD = const(115200)

# Optional passive piezo buzzer: its GPIO (PWM), e.g. 16 for GP16 (pin 21),
# wired pin -> piezo -> GND (a 100 ohm resistor in series is kind to the
# pin). None: no buzzer. Mute it in the game's SETTINGS > SOUND.
BUZZER_PIN = None

# Without a display the screens go to the serial console as text:
# "blocks" (UTF-8 half blocks, as the simulator), "ascii" (for a console
# that shows the blocks as garbage) or "off".
HEADLESS_TEXT = "blocks"
