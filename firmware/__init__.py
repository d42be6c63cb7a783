"""The device program: the App, the sessions, buttons, settings and
statistics here, and its packages by job: pico/, screens/, link/, saves/,
board/, display/ (docs/DEVELOPING.md draws them and their imports)."""
