"""Safe boot for CircuitPython: is B held at power-on?

Used by boot.py (which then leaves the CIRCUITPY drive writable for the
computer) and code.py (which then does not start the game). Only board and
digitalio, so it works even if the game's files are broken.
"""

import time

import board
import digitalio


def b_held():
    """True when B is down for most of ~25 ms."""
    try:
        from firmware.board.board import BTN_B, BUTTONS_ACTIVE_LOW
    except Exception:
        BTN_B, BUTTONS_ACTIVE_LOW = 15, True
    pin = digitalio.DigitalInOut(getattr(board, "GP%d" % BTN_B))
    try:
        pin.switch_to_input(pull=digitalio.Pull.UP if BUTTONS_ACTIVE_LOW
                            else digitalio.Pull.DOWN)
        down = not BUTTONS_ACTIVE_LOW
        time.sleep(0.005)  # let the pull-up charge the line
        n = 0
        for _ in range(10):
            if pin.value == down:
                n += 1
            time.sleep(0.002)
    finally:
        pin.deinit()  # keypad takes the pin over
    return n >= 8
