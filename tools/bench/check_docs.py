"""Keep the docs honest: what README.md and docs/*.md name must exist, and
the figures they quote must be what the benchmarks print.

    .venv/bin/python -m tools.bench.check_docs            (make check-docs)
        [--list]          only list the figures and their commands
        [--only SCRIPT]   only the figures of one command

Paths and `make` targets (host_tests/test_docs.py checks them in `make
test`): every repository path in backticks, code blocks or links (files and
folders, from the top-level entries of the tree: `engine/`,
`tools/bench/bench_web.py`, `docs/HARDWARE.md`, ...) must exist, and every
`make TARGET` must be a target of the Makefile.

Figures: a figure a command prints carries a marker right after it, in the
same line of the doc:

    about 740 KB <!-- figure cmd="tools/bench/bench_web.py" find="total ([\\d,]+) bytes" scale=0.001 tol=10% -->

cmd     the script (and its arguments), run with .venv/bin/python from the
        top of the tree (a tool as a module: tools/bench/bench_ai.py as
        -m tools.bench.bench_ai); each command is run once for all its
        figures
find    a regular expression over the command's output; its first group is
        the figure (commas dropped)
scale   the printed number times this is the doc's unit (default 1)
tol     how far the doc's figure may be from the printed one: N% of the
        printed figure, or an absolute amount (tol=0.5)
measured  "where and when", instead of a run: the figure comes from a
        machine this check cannot use (the emulated Pico's hours-long runs,
        a real board) and is shown, not compared

The doc's figure is the last number before the marker on its line.

One figure, one place: the same figure stated on two pages with
different values (a number with a figure's unit, KB, MB, bytes, B, ms, us
or %, whose words say it measures the same thing), or one figure marker's
cmd and find on two pages, is refused (see `figures_disagree`).

Promises: every row of a "protects against" table names, in its "attacked
by" column, tests of host_tests that exist; FAIRNESS.md, LINK.md, SAVES.md
and BOARD.md hold such a table, and no page says it in prose (see
`promise_problems`; the format is docs/DEVELOPING.md's).

The release to install: every page names the newest release in dist/
(tools/deploy/pages.py): a page naming an older one as the release
(`dist/1.0.0`, `gin-rummy-pico-1.0.0.uf2`, `Gin Rummy 1.0.0`) is refused.

These four run first and take no command (host_tests/test_docs.py runs each
in `make test`); when one finds a problem the figures' commands are not run.
Exit status 1 when a page names an older release, a promise names no real
test, a figure is stated twice or is off (or its command failed or printed
no match), 0 otherwise.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import time

from tools.deploy.pages import link_targets, pages as doc_files   # README.md and docs/*.md

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The tree's top-level entries a doc may name (a path must start with one).
TOP = ("engine", "firmware", "host_tests", "tools", "web", "circuitpython", "docs", "dist",
       ".ci", "Makefile", "README.md", "CHANGELOG.md", "LICENSE", "manifest.py",
       "pyproject.toml", "package.json", "package-lock.json", "requirements.txt",
       "requirements-bench.txt", "requirements-stubs.txt")

MARKER = re.compile(r"<!--\s*figure\s+(.*?)-->", re.S)
ATTR = re.compile(r'(\w+)=(?:"((?:[^"\\]|\\.)*)"|(\S+))')
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
MAKE = re.compile(r"(?<![\w-])make\s+((?:[A-Z_a-z0-9]+=\S*\s+)*)([a-z][a-z0-9-]*)")


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def code_text(text):
    """The doc's code: inline spans and fenced blocks, as one string each."""
    out = [m.group(0) for m in FENCE.finditer(text)]
    rest = FENCE.sub("", text)
    out += [m.group(1) for m in CODE_SPAN.finditer(rest)]
    return out


def _path_word(w):
    w = w.strip().strip("\"'").split("::")[0].rstrip(".,;:)")   # a test: path::test_name
    if w.startswith("./"):
        w = w[2:]
    if not w or any(c in w for c in "*<>{}$|[]=") or "..." in w or w.startswith(("/", "-")):
        return None
    head = w.split("/")[0]
    if head not in TOP:
        return None
    if "/" not in w and head in ("engine", "firmware", "host_tests", "tools", "web",
                                 "circuitpython", "docs", "dist", ".ci"):
        return None     # a bare word: "engine" in prose, not a path
    return w


def paths_named(text, rel):
    """The repository paths a doc names: in code spans and blocks (each
    word that starts with a top-level entry), and in links (relative to the
    doc's folder). Returns paths from the top of the tree."""
    out = set()
    for code in code_text(text):
        for w in re.split(r"[\s(]+", code):
            p = _path_word(w)
            if p:
                out.add(p.rstrip("/") or p)
    out.update(link_targets(text, rel))
    return out


def make_targets_named(text):
    out = set()
    for code in code_text(text):
        for m in MAKE.finditer(code):
            out.add(m.group(2))
    return out


def makefile_targets(root=ROOT):
    """Every target the Makefile defines (rules and .PHONY lists)."""
    out = set()
    for line in read(root, "Makefile").splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-/ $()]+?)\s*:(?![=])", line)
        if m and not line.startswith("\t"):
            for t in m.group(1).split():
                if t == ".PHONY":
                    continue
                out.add(t)
        if line.startswith(".PHONY:"):
            out.update(line.split(":", 1)[1].split())
    return out


def names_something(root, p):
    """True when path `p` exists, and for `file.py::name` (a test a doc
    names, as pytest writes it) when the file defines that function or
    class."""
    path, _, name = p.partition("::")
    full = os.path.join(root, path)
    if not os.path.exists(full):
        return False
    if not name:
        return True
    with open(full, encoding="utf-8") as f:
        return re.search(r"^\s*(def|class) %s\b" % re.escape(name), f.read(), re.M) is not None


def missing(root=ROOT):
    """(paths, targets): what the docs name that the tree lacks, as sorted
    lists of 'path (doc)' / 'make target (doc)'."""
    targets = makefile_targets(root)
    paths = []
    makes = []
    for rel in doc_files(root):
        text = read(root, rel)
        for p in sorted(paths_named(text, rel)):
            if not names_something(root, p):
                paths.append("%s (%s)" % (p, rel))
        for t in sorted(make_targets_named(text)):
            if t not in targets:
                makes.append("make %s (%s)" % (t, rel))
    return paths, makes


# ---- figures --------------------------------------------------------------

class Figure:
    def __init__(self, doc, line_no, value, attrs, line):
        self.doc = doc
        self.line_no = line_no
        self.value = value            # the doc's number (float), or None
        self.cmd = attrs.get("cmd", "")
        self.find = attrs.get("find", "")
        self.scale = float(attrs.get("scale", "1"))
        self.tol = attrs.get("tol", "")
        self.measured = attrs.get("measured")
        self.line = line.strip()

    def where(self):
        return "%s:%d" % (self.doc, self.line_no)

    def allowed(self, got):
        """The largest difference the tolerance allows from `got`."""
        if self.tol.endswith("%"):
            return abs(got) * float(self.tol[:-1]) / 100.0
        return float(self.tol)

    def problems(self):
        """What is wrong with the marker itself (empty when it is fine)."""
        out = []
        if self.value is None:
            out.append("no number before the marker")
        if not self.cmd:
            out.append("no cmd")
        else:
            script = shlex.split(self.cmd)[0]
            if not os.path.isfile(os.path.join(ROOT, script)):
                out.append("cmd %s: no such script" % script)
        if self.measured is None:
            try:
                rx = re.compile(self.find)
                if not self.find or rx.groups < 1:
                    out.append("find needs a group")
            except re.error as e:
                out.append("find: %s" % e)
            try:
                self.allowed(1.0)
            except ValueError:
                out.append("tol %r: give N%% or a number" % self.tol)
        return out

    def compare(self, output):
        """(ok, printed figure or None, message)."""
        m = re.search(self.find, output)
        if not m:
            return False, None, "the output has no match for %r" % self.find
        got = float(m.group(1).replace(",", "")) * self.scale
        diff = abs(self.value - got)
        ok = diff <= self.allowed(got) + 1e-9
        return ok, got, "doc %g, printed %g (tolerance %s)" % (self.value, got, self.tol)


def figures(text, doc):
    """The figure markers of a doc (not those shown as examples in code:
    fenced or indented blocks)."""
    out = []
    fenced = False
    for i, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        if fenced or line.startswith(("    ", "\t")):
            continue
        for m in MARKER.finditer(line):
            attrs = {}
            for a in ATTR.finditer(m.group(1)):
                v = a.group(2) if a.group(2) is not None else a.group(3)
                attrs[a.group(1)] = v.replace('\\"', '"')
            before = MARKER.sub("", line[:m.start()])
            before = re.sub(r"`[^`]*`", "", before)
            nums = NUMBER.findall(before)
            value = float(nums[-1].replace(",", "")) if nums else None
            out.append(Figure(doc, i, value, attrs, line))
    return out


def all_figures(root=ROOT):
    out = []
    for rel in doc_files(root):
        out += figures(read(root, rel), rel)
    return out


def python_args(cmd):
    """The Python arguments that run a marker's `cmd`: a tool runs as a
    module (`-m tools.bench.bench_ai`), except the scripts of
    tools/records/, which run as files on every runtime."""
    words = shlex.split(cmd)
    script = words[0]
    if script.startswith("tools/") and not script.startswith("tools/records/") \
            and script.endswith(".py"):
        return ["-m", script[:-3].replace("/", ".")] + words[1:]
    return words


def run(cmd, timeout):
    argv = [os.path.join(ROOT, ".venv", "bin", "python")] + python_args(cmd)
    if not os.path.isfile(argv[0]):
        argv[0] = sys.executable
    t = time.time()
    try:
        r = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout + r.stderr, time.time() - t
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "timeout", out, time.time() - t


def release_names(root=ROOT):
    """The pages' release names that are not the newest release, as lines."""
    from tools.deploy import pages
    return pages.stale(root, pages.newest(root))


def marker_problems(root=ROOT):
    """What is wrong with the figure markers themselves, as lines."""
    return ["%s: marker: %s" % (f.where(), p) for f in all_figures(root) for p in f.problems()]


# ---- one figure, one place ---------------------------------------------------
#
# A figure lives on one page (DEVICE.md for the device's, the page that owns
# it otherwise) with the build and date it was measured on; another page
# links to it. What this finds: the same figure stated on two pages with
# different values.
#
# Every number with a figure's unit (KB, MB, bytes, B, ms, us, %) outside
# code is a statement. What it measures is read from its words: in a table,
# the row's first cell and the column's heading (and the cell's words before
# the number); in prose, up to 7 words of its sentence before the number and
# 3 after (stop words left out, plurals folded: "its", "the", "matches" ->
# "match"). Two statements on different pages are of the same figure when
# their units measure the same thing (a size, a time, a share) and they share
# at least SAME_WORDS words, being at least SAME_SHARE of the shorter one's
# words. Their values differ when they are further apart than the two
# statements' precision together (half the last digit each: 24 KB is 24 +-
# 0.5 KB, 16,848 bytes is exact to a byte). Two figure markers with the same
# cmd and find on two pages are one figure stated twice, whatever their
# words. Pages of history (CHANGELOG.md, the RELEASE files) are not read.

QTY = re.compile(r"(?<![\w.#/-])(\d[\d,]*(?:\.\d+)?)\s?(%|KB\b|kB\b|MB\b|bytes\b|B\b|ms\b|us\b)")
UNIT = {"KB": ("size", 1024.0), "kB": ("size", 1024.0), "MB": ("size", 1048576.0),
        "bytes": ("size", 1.0), "B": ("size", 1.0), "ms": ("time", 1.0), "us": ("time", 0.001),
        "%": ("share", 1.0)}
STOP = frozenset(
    "a an the of to in on at by for from with and or as is are be it its this that these those "
    "each every one two than then when while which what who how not no only more less most "
    "least about over under up down into per after before between same their there here both "
    "all any some so was were has have had can may must also just very".split())
SAME_WORDS = 4
SAME_SHARE = 0.75


def subject_words(text):
    """The words of `text` that say what a number measures: lower case,
    stop words left out, a plural folded to its singular."""
    out = []
    for w in re.findall(r"[a-zA-Z][a-zA-Z.'-]*", text.lower()):
        w = w.strip(".-'")
        if len(w) < 2 or w in STOP:
            continue
        if w.endswith("s") and len(w) > 3 and not w.endswith("ss"):
            w = w[:-1]
        out.append(w)
    return out


class Stated:
    """A number with a figure's unit where a page states it."""

    def __init__(self, doc, line, number, unit, words, said):
        self.doc, self.line, self.unit, self.said = doc, line, unit, said
        self.kind, factor = UNIT[unit]
        self.value = float(number.replace(",", "")) * factor
        decimals = len(number.split(".")[1]) if "." in number else 0
        self.precision = 0.5 * 10 ** -decimals * factor
        self.words = set(words)

    def where(self):
        return "%s:%d" % (self.doc, self.line)

    def same_figure(self, other):
        if self.doc == other.doc or self.kind != other.kind:
            return False
        shared = self.words & other.words
        least = min(len(self.words), len(other.words))
        return len(shared) >= SAME_WORDS and len(shared) >= SAME_SHARE * least

    def agrees(self, other):
        return abs(self.value - other.value) <= self.precision + other.precision + 1e-9


def _blocks(text):
    """[(kind, [(line number, line)])]: the page's paragraphs ('para') and
    tables ('table'), without headings, code blocks and indented code."""
    out = []
    cur = []
    kind = None
    fenced = False
    for i, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        if fenced or line.startswith(("```", "    ", "\t", "#")) or not line.strip():
            if cur:
                out.append((kind, cur))
            cur = []
            continue
        k = "table" if line.lstrip().startswith("|") else "para"
        if cur and k != kind:
            out.append((kind, cur))
            cur = []
        kind = k
        cur.append((i, line))
    if cur:
        out.append((kind, cur))
    return out


def _cells(line):
    """A table row's cells (a pipe written \\| stays in its cell)."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def _prose(line):
    """A line without its HTML comments and code spans."""
    return CODE_SPAN.sub(" ", re.sub(r"<!--.*?-->", "", line))


def statements(text, doc):
    """Every Stated of a page (see above)."""
    out = []
    for kind, lines in _blocks(text):
        if kind == "table":
            head = None
            for i, line in lines:
                cells = _cells(_prose(line))
                if all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                    continue
                if head is None:
                    head = cells
                    continue
                for j, cell in enumerate(cells):
                    for m in QTY.finditer(cell):
                        words = subject_words(cells[0])
                        if j:
                            words += subject_words(head[j] if j < len(head) else "")
                            words += subject_words(cell[:m.start()])[-4:]
                        out.append(Stated(doc, i, m.group(1), m.group(2), words,
                                          cell[:m.end()].strip()))
            continue
        joined = ""
        starts = []
        for i, line in lines:
            starts.append((len(joined), i))
            joined += _prose(line) + " "
        for m in QTY.finditer(joined):
            line = [i for at, i in starts if at <= m.start()][-1]
            a = joined.rfind(". ", 0, m.start())
            a = 0 if a < 0 else a + 2
            b = joined.find(". ", m.end())
            b = len(joined) if b < 0 else b
            words = subject_words(joined[a:m.start()])[-7:] + \
                subject_words(joined[m.end():b])[:3]
            said = joined[a:m.end()].strip()
            if len(said) > 60:
                said = "... " + said[-60:].split(" ", 1)[-1]
            out.append(Stated(doc, line, m.group(1), m.group(2), words, said))
    return out


def figures_disagree(root=ROOT):
    """The same figure on two pages with different values, and a figure
    marker's cmd and find on two pages, as lines."""
    said = []
    for rel in doc_files(root):
        said += statements(read(root, rel), rel)
    out = []
    for i, a in enumerate(said):
        for b in said[i + 1:]:
            if a.same_figure(b) and not a.agrees(b):
                out.append("%s says %r and %s says %r of one figure (%s): state it in one "
                           "place, with its build and date, and link to it there"
                           % (a.where(), a.said, b.where(), b.said,
                              " ".join(sorted(a.words & b.words))))
    pages = {}
    for f in all_figures(root):
        if f.find:
            pages.setdefault((f.cmd, f.find), []).append(f)
    for (cmd, find), fs in sorted(pages.items()):
        if len({f.doc for f in fs}) > 1:
            out.append("%s state the figure %s prints (find %r) on more than one page: keep "
                       "it on one and link to it" % (", ".join(f.where() for f in fs), cmd, find))
    return out


# ---- every promise tied to its attack -------------------------------------------
#
# What a page promises to protect against is a table (docs/DEVELOPING.md,
# "Promises and the tests that attack them"): its first heading cell starts
# with "protects against", its last column is "attacked by", and each row
# names there, in backticks, the tests that try to break that promise:
# `host_tests/PATH.py::test_name` or a test function's name that only one
# file of host_tests defines. A table headed "does not protect against"
# lists what remains, with no tests. The pages that promise protection hold
# at least one such table, and no page says "protects against" in prose.

PROMISE_PAGES = ("docs/FAIRNESS.md", "docs/LINK.md", "docs/SAVES.md", "docs/BOARD.md")
PROMISE_HEAD = "protects against"
ATTACK_HEAD = "attacked by"
TEST_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(test_\w+)\s*\(", re.M)


def test_functions(root=ROOT):
    """{test function name: [the host_tests files defining it]}."""
    out = {}
    top = os.path.join(root, "host_tests")
    for d, _, files in os.walk(top):
        for f in sorted(files):
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                for name in TEST_DEF.findall(read(root, rel)):
                    out.setdefault(name, []).append(rel)
    return out


def resolve_test(ref, tests):
    """None when `ref` (path::name, path::Class::name or a bare name)
    names exactly one test function of host_tests, else why not."""
    if "::" in ref:
        path, name = ref.split("::", 1)
        name = name.split("::")[-1]
        if not path.startswith("host_tests/"):
            return "%s is not a file of host_tests" % path
        if path not in tests.get(name, ()):
            return "%s defines no %s" % (path, name)
        return None
    where = tests.get(ref, ())
    if not where:
        return "no test of host_tests is named %s" % ref
    if len(where) > 1:
        return "%s is defined in %s: give it as path::%s" % (ref, ", ".join(where), ref)
    return None


def tables(text):
    """[(line number of the heading row, heading cells, [(line number,
    cells)])] of a page's Markdown tables (outside code)."""
    out = []
    for kind, lines in _blocks(text):
        if kind != "table":
            continue
        rows = []
        for i, line in lines:
            cells = _cells(line)
            if not all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                rows.append((i, cells))
        if rows:
            out.append((rows[0][0], rows[0][1], rows[1:]))
    return out


def promise_problems(root=ROOT):
    """Promise tables whose rows name no test or a test that does not
    exist, pages that should hold one and do not, and promises in prose."""
    tests = test_functions(root)
    out = []
    for rel in doc_files(root):
        text = read(root, rel)
        found = 0
        for at, head, rows in tables(text):
            if not head[0].lower().startswith(PROMISE_HEAD):
                continue
            found += 1
            heads = [h.lower() for h in head]
            if ATTACK_HEAD not in heads:
                out.append("%s:%d: a %r table with no %r column" % (rel, at, PROMISE_HEAD, ATTACK_HEAD))
                continue
            col = heads.index(ATTACK_HEAD)
            for i, cells in rows:
                cell = cells[col] if col < len(cells) else ""
                refs = CODE_SPAN.findall(cell)
                if not refs:
                    out.append("%s:%d: %r names no test that attacks it"
                               % (rel, i, cells[0][:60]))
                for ref in refs:
                    why = resolve_test(ref, tests)
                    if why:
                        out.append("%s:%d: %s" % (rel, i, why))
        if rel in PROMISE_PAGES and not found:
            out.append("%s: no %r table" % (rel, PROMISE_HEAD))
        for kind, lines in _blocks(text):
            for i, line in lines if kind == "para" else ():
                low = _prose(line).lower()
                if re.search(r"\bprotects? against\b", low) and not re.search(
                        r"\b(?:not|never) protects? against\b", low):
                    out.append("%s:%d: a promise in prose (%r): make it a row of a %r table"
                               % (rel, i, line.strip()[:60], PROMISE_HEAD))
    return out


# the checks that run no command: (what is checked, function of the root
# returning the problems as lines, what to do about them);
# host_tests/test_docs.py runs each
QUICK = (
    ("the pages name the newest release", release_names,
     "make release names each new release on every page; a line about an older release on "
     "purpose carries <!-- an older release -->"),
    ("every figure marker is well formed", marker_problems, "see the marker's attributes above"),
    ("every promise names the test that attacks it", promise_problems,
     "each row of a 'protects against' table names its tests in the 'attacked by' column "
     "(docs/DEVELOPING.md)"),
    ("one figure, one place", figures_disagree,
     "DEVICE.md (or the page that owns the figure) states it with the build and date it was "
     "measured on; other pages link to it"),
)


def quick_checks(root=ROOT, out=print):
    """Run QUICK, printing each check and its problems; returns how many
    problems."""
    bad = 0
    for what, fn, todo in QUICK:
        lines = fn(root)
        out("== %s: %s" % (what, "%d problem(s)" % len(lines) if lines else "ok"))
        for line in lines:
            out("   " + line)
        if lines:
            out("   (%s)" % todo)
        bad += len(lines)
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args(argv)
    if quick_checks():
        print("the pages are not right: the figures' commands were not run")
        return 1
    figs = all_figures()
    bad = 0
    by_cmd = {}
    for f in figs:
        if a.only and not f.cmd.startswith(a.only):
            continue
        by_cmd.setdefault(f.cmd, []).append(f)
    for cmd, fs in by_cmd.items():
        todo = [f for f in fs if f.measured is None]
        print("== %s (%d figures%s)" % (cmd, len(fs), ", %d measured elsewhere" % (
            len(fs) - len(todo)) if len(todo) < len(fs) else ""))
        for f in fs:
            if f.measured is not None:
                print("   %-22s %g  measured: %s" % (f.where(), f.value, f.measured))
        if a.list or not todo:
            for f in todo:
                print("   %-22s %g  find %r tol %s" % (f.where(), f.value, f.find, f.tol))
            continue
        rc, out, secs = run(cmd, a.timeout)
        if rc != 0:
            print("   FAILED (%s) after %.0f s:\n%s" % (rc, secs, out[-2000:]))
            bad += len(todo)
            continue
        for f in todo:
            ok, got, msg = f.compare(out)
            print("   %-22s %s %s" % (f.where(), "ok  " if ok else "OFF ", msg))
            bad += not ok
        print("   (%.0f s)" % secs)
    if bad:
        print("%d figure(s) off: run the command, then correct the doc or its tolerance" % bad)
        return 1
    print("every figure within its tolerance")
    return 0


if __name__ == "__main__":
    sys.exit(main())
