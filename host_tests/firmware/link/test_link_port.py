"""The link cable's UART on the board (firmware/link/linkport.py): which UART a
pin pair is, and the defaults free on the standard wiring."""

import pytest

from firmware.board import board
from firmware.link.linkport import uart_of


def test_uart_of_the_rp2040_pin_pairs():
    # RP2040 datasheet, GPIO functions: UART0 TX GP0/12/16/28, UART1 TX GP4/8/20/24
    assert [uart_of(tx, tx + 1) for tx in (0, 12, 16, 28)] == [0, 0, 0, 0]
    assert [uart_of(tx, tx + 1) for tx in (4, 8, 20, 24)] == [1, 1, 1, 1]
    for tx, rx in ((8, 10), (9, 10), (1, 2), (32, 33)):
        with pytest.raises(ValueError):
            uart_of(tx, rx)


def test_default_link_pins_are_uart1_and_free_on_the_standard_wiring():
    assert uart_of(board.LINK_TX, board.LINK_RX) == 1
    used = set(board.BUTTON_PINS) | {board.I2C_SDA, board.I2C_SCL, board.BUZZER_PIN, 16}
    assert board.LINK_TX not in used and board.LINK_RX not in used
