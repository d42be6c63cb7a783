"""What the player sees: the 128x64 1-bit framebuffer and its text (fb), the
fonts (font), the card glyphs (glyphs), the SSD1306 / SH1106 driver that
sends only what changed (ssd1306), and the screen as text on the serial
console when no display answers (textview)."""
