"""Small hardware helpers of the CircuitPython port: board pins and a seed."""

import time


def pin(n):
    """The `board` pin of GPIO n (board.GP10...)."""
    import board

    return getattr(board, "GP%d" % n)


def hw_seed():
    """A seed below 2**30 from the RP2040's random source."""
    try:
        import os

        b = os.urandom(4)
        return (b[0] << 22) | (b[1] << 14) | (b[2] << 6) | (b[3] >> 2)
    except Exception:
        return time.monotonic_ns() & 0x3FFFFFFF
