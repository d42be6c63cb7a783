"""Where a match's deal secret and the AI's seed come from (engine/deal.py).

An entropy source is a function n -> n random bytes. The App draws a new
match's 16-byte deal secret and the AI's seed from it, apart from each
other and from the match seed.

- `board()`: the board's entropy. os.urandom on the MicroPython rp2 port
  (the RP2040's ring oscillator), on CircuitPython (the same source) and on
  CPython; where os.urandom is missing, the `random` module, which those
  ports seed from the hardware at start (random.getrandbits), and on the
  web page the browser's crypto.getRandomValues through the `js` module.
- `seeded(n)`: the same bytes for the same n on every runtime (SHA-256 of
  the number and a counter): reproducible simulator runs and tests. Its
  deals are as secret as n is.
"""

_RANDOM = None


def _urandom():
    try:
        import os

        f = os.urandom
        if len(f(1)) == 1:
            return f
    except Exception:
        pass
    return None


def _browser():
    try:
        import js  # the web page's MicroPython (WebAssembly)

        crypto = js.crypto

        def f(n):
            a = js.Uint8Array.new(n)
            crypto.getRandomValues(a)
            return bytes([a[i] for i in range(n)])

        if len(f(1)) == 1:
            return f
    except Exception:
        pass
    return None


def _random_module():
    import random

    def f(n):
        return bytes([random.getrandbits(8) for _ in range(n)])

    return f


def fallback():
    """The random module as a source: what is left when the board's fails."""
    return _random_module()


def board():
    """The board's entropy source (see the module's docstring)."""
    global _RANDOM
    if _RANDOM is None:
        _RANDOM = _urandom() or _browser() or _random_module()
    return _RANDOM


def seeded(n):
    """A reproducible source: bytes of SHA-256(b"gin-rummy entropy" n k), k = 0, 1..."""
    from engine.sha256 import sha256

    state = [0, b""]
    tag = ("gin-rummy entropy %d " % n).encode()

    def f(k):
        out = bytearray()
        while len(out) < k:
            if not state[1]:
                state[1] = sha256(tag + str(state[0]).encode())
                state[0] += 1
            take = min(k - len(out), len(state[1]))
            out.extend(state[1][:take])
            state[1] = state[1][take:]
        return bytes(out)

    return f
