"""What a mental-poker deal would cost: SRA commutative encryption of the
52 cards with the runtime's long integers (docs/LINK.md quotes it).

    .venv/bin/micropython tools/link/sra_bench.py     (the unix port: scale to the Pico)
    .venv/bin/python tools/link/sra_bench.py          (CPython, for comparison)

SRA (Shamir, Rivest, Adleman 1979): both boards share a prime p; each has a
secret exponent e with gcd(e, p-1) = 1 and its inverse d. E(m) = m^e mod p
commutes, so a card encrypted by both can be stripped in either order.
A deal: board A encrypts the 52 cards and shuffles them, board B encrypts
them again and shuffles; a card given to a player is stripped first by the
other board (one pow there), then by its holder (one pow): neither board
ever holds the other's cards in the clear. Each board: 52 pows for the
deck, then one for every card that comes into play (21 at the deal, one a
draw from the stock). This prints the time of one pow with a full-size
exponent, for a 512-bit and a 1024-bit p, and the deal's cost: 73 pows a
board, 146 one after the other at most, times the emulated Pico's measured
175-260x slowdown against the unix port (docs/DEVICE.md), a rough scale for
C code such as pow(), which the slowdown was not measured on.
"""

import sys

try:
    from time import ticks_diff, ticks_us

    def now_us():
        return ticks_us()

    def since(t):
        return ticks_diff(ticks_us(), t)
except ImportError:  # CPython
    from time import perf_counter

    def now_us():
        return perf_counter() * 1e6

    def since(t):
        return perf_counter() * 1e6 - t

# a 512-bit prime (the first after SHA-512(b"gin-rummy sra 512") with its top bit set)
P512 = int("cd18f8ab5e4a8c811ea93b3736b563d77d66c65feb5b9fe2b66e0a88b4ad6ce9"
           "709061105d4cf3877ae1e6eb3c796afb4cafebe3ea75ebcbcea311892508d12f", 16)
# RFC 2409's 1024-bit MODP prime (Oakley group 2)
P1024 = int("FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74"
            "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437"
            "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
            "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF", 16)

POW_A_BOARD = 73        # 52 for the deck, 21 for the cards dealt
POW_IN_A_ROW = 146      # A's 52, then B's 52, then the 2 x 21 strips
SLOWDOWN = (175, 260)   # emulated Pico against the unix port


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def inverse(a, m):
    """a^-1 mod m (extended Euclid; MicroPython's pow takes no -1)."""
    r0, r1 = m, a % m
    s0, s1 = 0, 1
    while r1:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        s0, s1 = s1, s0 - q * s1
    if r0 != 1:
        raise ValueError("not invertible")
    return s0 % m


def keys(p, seed):
    """(e, d): a full-size exponent coprime with p-1, and its inverse."""
    e = ((p >> 3) - seed * 2) | 1      # odd: p - 1 is even
    while gcd(e, p - 1) != 1:
        e -= 2
    return e, inverse(e, p - 1)


def measure(p):
    """(least, median) microseconds of one pow over a deal's encryptions
    and strips, each pow timed alone: the least is the runtime's own speed
    on a machine shared with other work."""
    ea, da = keys(p, 1)
    eb, db = keys(p, 2)
    cards = [c + 2 for c in range(52)]
    times = []

    def timed(m, e):
        t = now_us()
        r = pow(m, e, p)
        times.append(since(t))
        return r

    deck = [timed(m, ea) for m in cards]
    deck = [timed(c, eb) for c in deck]
    back = [timed(timed(c, db), da) for c in deck]   # B strips, then A
    assert back == cards, "SRA did not give the cards back"
    times.sort()
    return times[0], times[len(times) // 2]


def main():
    name = sys.implementation.name
    for bits, p in ((512, P512), (1024, P1024)):
        least, median = measure(p)
        print("%d-bit p on %s: one pow %.2f ms (median %.2f); a deal %.3f s a board, "
              "%.3f s in a row" % (bits, name, least / 1000.0, median / 1000.0,
                                   least * POW_A_BOARD / 1e6, least * POW_IN_A_ROW / 1e6))
        if name == "micropython":
            board = least * POW_A_BOARD / 1e6
            print("  scaled %d-%dx (a Pico): %.0f-%.0f s a board, %.0f-%.0f s in a row"
                  % (SLOWDOWN[0], SLOWDOWN[1], board * SLOWDOWN[0], board * SLOWDOWN[1],
                     2 * board * SLOWDOWN[0], 2 * board * SLOWDOWN[1]))


main()
