# The Raspberry Pi Pico with a ROMFS partition (mpconfigboard.h): RPI_PICO's
# chip, SDK board and pin names.
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")
set(MICROPY_BOARD_PINS "${MICROPY_PORT_DIR}/boards/RPI_PICO/pins.csv")
