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
Exit status 1 when a figure is off (or its command failed or printed no
match), 0 otherwise.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import time

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
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
MAKE = re.compile(r"(?<![\w-])make\s+((?:[A-Z_a-z0-9]+=\S*\s+)*)([a-z][a-z0-9-]*)")


def doc_files(root=ROOT):
    """README.md and docs/*.md (those that exist), as paths from the top."""
    out = ["README.md"] if os.path.isfile(os.path.join(root, "README.md")) else []
    d = os.path.join(root, "docs")
    if os.path.isdir(d):
        out += sorted("docs/" + f for f in os.listdir(d) if f.endswith(".md"))
    return out


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
    w = w.strip().strip("\"'").rstrip(".,;:)")
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
    base = os.path.dirname(rel)
    for m in LINK.finditer(text):
        target = m.group(1).split("#")[0]
        if not target or re.match(r"^[a-z]+:", target):
            continue
        p = os.path.normpath(os.path.join(base, target))
        out.add(p)
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args(argv)
    figs = all_figures()
    bad = 0
    for f in figs:
        for p in f.problems():
            print("%s: marker: %s" % (f.where(), p))
            bad += 1
    if bad:
        return 1
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
