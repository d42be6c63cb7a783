"""V6 on the device: what the three-player screens share.

The human is player 0 ("YOU"), the two device AIs players 1 and 2 ("P2",
"P3"). A box match (engine.box.BoxMatch) is app.match like a two-player
one: it is saved after every completed turn (engine.dumps, magic GRSB),
resumed at boot, and kept as a game record at every hand end. The rules
are engine.box.BOX_RULES (V1 offer, V3 stop, undercut 10) with the match
target of the settings (V5; 100 unless changed).

The match, its statistics and its two AIs are the box game's session
(firmware/boxgame.py: app.session while a box match is in play, made by
firmware.boxgame.new_match() or at start).
"""

NAMES = (b"YOU", b"P2", b"P3")
ROLE_TAGS = (b"BOX", b"CAP", b"SIT")          # box, captain, sitter


def rotation_lines(roles, winner_seat):
    """Who moves where after a hand (V6), as two lines of bytes.

    roles: (box, captain, sitter) of the hand; winner_seat: the hand seat
    that won (1 the box, 0 the captain) or None for a drawn hand."""
    box, cap, sit = roles
    if winner_seat is None:
        return (b"NOBODY MOVES:", _says(box, b"DEAL", b"DEALS") + b" AGAIN")
    if winner_seat == 1:
        return (_says(box, b"STAY", b"STAYS") + b" IN THE BOX",
                _pair(cap, sit) + b" SWAP")
    return (_says(box, b"SIT", b"SITS") + b" OUT, " + _says(cap, b"TAKE", b"TAKES")
            + b" THE BOX",
            _says(sit, b"BECOME", b"BECOMES") + b" CAPTAIN")


def _says(p, you, other):
    return NAMES[p] + b" " + (you if p == 0 else other)


def _pair(a, b):
    if b == 0:
        a, b = b, a
    return NAMES[a] + b" AND " + NAMES[b]
