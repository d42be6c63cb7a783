"""The link cable's port on the board: a machine.UART (docs/LINK.md).

    port = open_uart(tx, rx)     # firmware.pico gives the App (Ports.link_port) this

The UART (0 or 1) follows from the pins: an RP2040 UART's TX is GP0, 4,
8, ... 28 (UART0 on GP0, 12, 16, 28; UART1 on GP4, 8, 20, 24) and its RX
the next pin. rxbuf=1024 holds what comes between two polls of the link, a
save included (a HELLO is 174 bytes). Imported only when LINK is chosen.
"""

from firmware import board


def uart_of(tx, rx):
    """The RP2040 UART whose TX and RX these pins are; ValueError if none."""
    if type(tx) is not int or tx % 4 != 0 or rx != tx + 1 or not 0 <= tx <= 28:
        raise ValueError("GP%s and GP%s are not one UART's TX and RX (TX on GP0, 4, 8, ..., "
                         "RX the next pin): set link_tx and link_rx in /board.json" % (tx, rx))
    return ((tx + 4) // 8) % 2


def open_uart(tx=board.LINK_TX, rx=board.LINK_RX, baud=board.LINK_BAUD):
    from machine import Pin, UART

    return UART(uart_of(tx, rx), baudrate=baud, tx=Pin(tx), rx=Pin(rx), rxbuf=1024)
