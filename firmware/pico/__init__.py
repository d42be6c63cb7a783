"""The Raspberry Pi Pico's program around the game: the run loop (pico), the
ports it and the bring-up share (picoports), the start before the game
(start), the display's bring-up and pin scan (bringup, pinscan), keys typed
on the serial console (consolekeys), and the release firmware's frozen
main.py (romboot)."""
