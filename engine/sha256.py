"""SHA-256 for committed deals: the runtime's hashlib, or the engine's own code.

`sha256(data)` is the 32-byte digest of `data` (bytes or bytearray). It is
the runtime's own hashlib where there is one: hashlib.sha256 on CPython and
the MicroPython rp2, unix and WebAssembly (the web page's) ports;
hashlib.new("sha256") on a CircuitPython build with a hashlib module (the
CircuitPython port uses that, and nothing needs installing:
adafruit_hashlib is not used). A build
without one (CircuitPython has hashlib on some ports only) uses this
module's own code, checked against hashlib in host_tests/engine/test_deal.py.

That code (engine/sha256_code.py, imported only when it is needed) keeps
every 32-bit word as two 16-bit halves, so every value stays a small int
(< 2**30) on a 32-bit MicroPython.
"""


def _hashlib_sha256(hashlib=None):
    """The runtime's SHA-256 as a function bytes -> object with digest():
    hashlib.sha256 (CPython, MicroPython), or hashlib.new("sha256", data)
    (CircuitPython's hashlib, on the ports built with it); None when there
    is none, or when it does not give the known answer for b"abc"."""
    if hashlib is None:
        try:
            import hashlib
        except ImportError:
            return None
    f = getattr(hashlib, "sha256", None)
    if f is None:
        new = getattr(hashlib, "new", None)
        if new is None:
            return None

        def f(data):
            return new("sha256", data)
    try:
        if f(b"abc").digest()[:4] != b"\xbax\x16\xbf":
            return None
    except Exception:
        return None
    return f


# the runtime's hashlib SHA-256, or None; tools/bench/bench_deal.py sets it
# to None for a while to time the engine's own code
lib = _hashlib_sha256()
# which one this runtime uses: "hashlib" or "engine.sha256"
SOURCE = "engine.sha256" if lib is None else "hashlib"


def sha256_py(data):
    """The SHA-256 digest of `data` by the engine's own code (32 bytes)."""
    from .sha256_code import digest

    return digest(data)


def sha256(data):
    """The SHA-256 digest of `data` (bytes or bytearray), 32 bytes."""
    if lib is not None:
        return lib(bytes(data)).digest()
    return sha256_py(data)


def hex_text(data):
    """Upper-case hex of bytes (MicroPython's hashlib has no hexdigest)."""
    digits = "0123456789ABCDEF"
    out = []
    for b in data:
        out.append(digits[b >> 4])
        out.append(digits[b & 15])
    return "".join(out)


def from_hex(text):
    """Bytes of hex text; ValueError if it is not an even run of hex digits."""
    if type(text) is not str or len(text) % 2:
        raise ValueError("not hex: %r" % (text,))
    out = bytearray(len(text) // 2)
    for i in range(len(out)):
        try:
            out[i] = int(text[2 * i:2 * i + 2], 16)
        except ValueError:
            raise ValueError("not hex: %r" % (text,))
        if text[2 * i] in "+- " or text[2 * i + 1] in "+- ":
            raise ValueError("not hex: %r" % (text,))
    return bytes(out)
