"""The board's hardware settings: the default pin map (board), the settings
file /board.json read at start (boardcfg), what the HARDWARE page changes
(boardset), what brings a board back whatever the file says (boardrescue),
and the chip's facts, the RP2040's and the RP2350's (chip)."""
