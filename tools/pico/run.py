"""Run a Python snippet on an emulated Pico with the project's modules, and
print what it prints with the emulated time of each line.

    .venv/bin/python -m tools.pico.run FILE.py [--root DIR | --frozen [UF2]]
    .venv/bin/python -m tools.pico.run -c "import engine; print(engine.card('Td'))"
        [--firmware F.uf2 --bootrom FILE] [--timeout-s N] [--raw]

The board boots stock MicroPython with the .mpy bundle `make flash` builds
from --root (without /main.py, so the game does not start), or the frozen
build with --frozen; the snippet runs through the raw REPL. Each output line
is prefixed with the emulated milliseconds since the snippet started (--raw:
no prefix). Time the device itself with time.ticks_us() inside the snippet.
Emulated time: rp2040js runs flash at zero wait states, a real Pico (XIP
cache misses) is 10-40% slower.
"""

import argparse
import sys

from tools.pico import session


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    session.add_arguments(ap)
    ap.add_argument("file", nargs="?", help="the snippet (a .py file)")
    ap.add_argument("-c", dest="code", help="the snippet as a string")
    ap.add_argument("--timeout-s", type=float, default=600, help="emulated seconds (default 600)")
    ap.add_argument("--raw", action="store_true", help="print the output without time stamps")
    a = ap.parse_args(argv)
    if (a.code is None) == (a.file is None):
        ap.error("give a FILE or -c CODE")
    session.check(a)
    code = a.code
    if code is None:
        with open(a.file) as f:
            code = f.read()
    with session.repl_board(a) as p:
        start = p.t
        mark = len(p.chunks)
        st = {"seen": 0, "buf": "", "started": False, "ended": False}

        def show(line, t):
            print(line if a.raw else "[%10.3f ms] %s" % ((t - start) / 1e6, line))

        def progress(_text):
            # the snippet's lines so far (between the raw REPL's OK and its
            # first \x04), each with the emulated time it was printed at
            chunks = p.chunks[mark + st["seen"]:]
            st["seen"] += len(chunks)
            for _boot, t, text in chunks:
                if not st["started"]:
                    i = text.find("OK")
                    if i < 0:
                        continue
                    text = text[i + 2:]
                    st["started"] = True
                if st["ended"]:
                    continue
                if "\x04" in text:
                    text = text[:text.index("\x04")]
                    st["ended"] = True
                st["buf"] += text.replace("\r\n", "\n")
                while "\n" in st["buf"]:
                    line, st["buf"] = st["buf"].split("\n", 1)
                    show(line, t)
                if st["ended"] and st["buf"]:
                    show(st["buf"], t)
                    st["buf"] = ""
            sys.stdout.flush()

        out, err = p.exec(code, timeout_ms=a.timeout_s * 1000, progress=progress)
        progress("")
        if err:
            sys.stderr.write(err)
            return 1
        sys.stdout.flush()
        print("(%.1f ms emulated for the snippet, %.1f s host)" % (
            (p.t - start) / 1e6, p.host_ms / 1000.0), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
