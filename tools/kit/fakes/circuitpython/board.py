"""Fake `board` for a Raspberry Pi Pico: GP0..GP28."""

from microcontroller import Pin

for _n in range(29):
    globals()["GP%d" % _n] = Pin("GP%d" % _n)
del _n

SDA = GP4  # noqa: F821
SCL = GP5  # noqa: F821
LED = GP25  # noqa: F821


def pins():
    return [globals()["GP%d" % n] for n in range(29)]


def release_all():
    """Every pin back to its idle level (1: pulled up, nothing pressed)."""
    for p in pins():
        p.level = 1
