"""The link cable's port on the board: a machine.UART (docs/LINK.md).

    port = open_uart(tx, rx)     # firmware.pico.pico gives the App (Ports.link_port) this

The UART (0 or 1) follows from the pins (firmware/board/chip.py's uart_of): an
RP2040 UART's TX is GP0, 4, 8, ... 28 (UART0 on GP0, 12, 16, 28; UART1 on
GP4, 8, 20, 24), an RP2350's any even GPIO, and its RX the next pin. rxbuf=1024 holds what comes between two polls of the link, a
save included (a HELLO is 174 bytes). Imported only when LINK is chosen.
"""

from firmware.board import board


def uart_of(tx, rx):
    """The UART whose TX and RX these pins are; ValueError if none."""
    from firmware.board import chip

    u = chip.uart_of(tx, rx)
    if u is None:
        c = chip.current()
        if not c.uart_step:
            raise ValueError(chip.why_not("The link's UART"))
        raise ValueError("GP%s and GP%s are not one UART's TX and RX (TX on GP0, %d, %d, ..., "
                         "RX the next pin): set link_tx and link_rx in /board.json"
                         % (tx, rx, c.uart_step, 2 * c.uart_step))
    return u


def open_uart(tx=board.LINK_TX, rx=board.LINK_RX, baud=board.LINK_BAUD):
    from machine import Pin, UART

    return UART(uart_of(tx, rx), baudrate=baud, tx=Pin(tx), rx=Pin(rx), rxbuf=1024)
