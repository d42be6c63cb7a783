"""Write engine/tables.py: the meld search's lookup tables as constants.

    .venv/bin/python -m tools.ailab.gen_tables          (rewrites engine/tables.py)
    .venv/bin/python -m tools.ailab.gen_tables --check  (exit 1 if it is stale)

Constants rather than tables built at import: frozen into the firmware a
bytes constant stays in flash (no heap, no time at boot); from a .mpy it
is one object loaded as it is. host_tests/tools/test_gen_tables.py runs
--check, so a table changed here without the file rewritten fails.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "engine", "tables.py")
VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)   # R1, by rank A..K


def run_table():
    """RUN_DW[m]: runs-only deadwood of the 13-bit suit mask m (R5: the
    cards in no stretch of three or more consecutive ranks)."""
    t = []
    for m in range(8192):
        w = m & (m >> 1) & (m >> 2)
        melded = w | (w << 1) | (w << 2)
        t.append(sum(VALUES[r] for r in range(13) if (m & ~melded) >> r & 1))
    return bytes(t)


def drop_table(rd):
    """DROP[m]: 128 + the most that removing one card of mask m lowers its
    runs-only deadwood (0 for the empty mask: nothing to remove)."""
    t = [0]
    for m in range(1, 8192):
        t.append(128 + max(rd[m] - rd[m & ~(1 << r)] for r in range(13) if m >> r & 1))
    return bytes(t)


def literal(name, data, width=72):
    lines = []
    cur = ""
    for b in data:
        ch = chr(b)
        if ch in '"\\' or not (32 <= b < 127):
            piece = "\\x%02x" % b
        else:
            piece = ch
        if len(cur) + len(piece) > width:
            lines.append(cur)
            cur = ""
        cur += piece
    lines.append(cur)
    body = "\n".join('    b"%s"' % ln for ln in lines)
    return "%s = (\n%s\n)\n" % (name, body)


def text():
    rd = run_table()
    return ('"""Lookup tables of the meld search (R5), as constants.\n\n'
            "Written by tools/ailab/gen_tables.py; do not edit by hand.\n\n"
            "RUN_DW[m]: the runs-only deadwood of the 13-bit suit mask m.\n"
            "DROP[m]: 128 + the most that removing one card of m lowers it\n"
            "(0 for the empty mask).\n"
            '"""\n\n' + literal("RUN_DW", rd) + "\n" + literal("DROP", drop_table(rd)))


def main(argv=None, out=OUT):
    """Rewrite `out`, or with --check say whether it is what text() writes
    (exit status 1 when it is stale)."""
    argv = sys.argv[1:] if argv is None else argv
    want = text()
    if "--check" in argv:
        with open(out) as f:
            ok = f.read() == want
        print("%s is %s" % (os.path.relpath(out, ROOT),
                            "up to date" if ok else "STALE: run tools/ailab/gen_tables.py"))
        sys.exit(0 if ok else 1)
    with open(out, "w") as f:
        f.write(want)
    print("wrote %s (%d bytes)" % (out, len(want)))


if __name__ == "__main__":
    main()
