"""Device program: drawing, glyphs, display driver, input logic and ports."""
