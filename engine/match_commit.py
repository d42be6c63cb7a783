"""The match commitment (docs/FAIRNESS.md): SHA-256 of a tag and the
match's 16-byte deal secret, whose first MATCH_HEX hex digits the device
shows before the player gives the cut (engine/cut.py deals from both).

A module of its own so that the cut screen shows it without loading
engine/cut.py (on the .mpy bundle every module's code is on the heap).
"""

from .sha256 import sha256

MATCH_HEX = 16         # hex digits of the match commitment shown before the cut (64 bits)
SECRET_LEN = 16        # bytes of a match secret (engine/deal.py's SECRET_LEN)
_SECRET_TAG = b"gin-rummy match secret"


def check_secret(secret):
    """`secret` as bytes when it is a match secret; ValueError otherwise."""
    if not isinstance(secret, (bytes, bytearray)) or len(secret) != SECRET_LEN:
        raise ValueError("a match secret is %d bytes, not %r" % (SECRET_LEN, secret))
    return bytes(secret)


def secret_commitment(secret):
    """The match commitment (32 bytes) to `secret`: what the device shows
    (its first MATCH_HEX hex digits) before the player gives the cut."""
    return sha256(_SECRET_TAG + check_secret(secret))
