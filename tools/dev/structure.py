"""The project's structure, read from its source: import cycles, private
names taken across modules, imports against the layers, `sys.path` edits
and the largest modules.

    .venv/bin/python -m tools.dev.structure        (or tools/dev/structure.py)

Every .py under engine/ firmware/ circuitpython/ web/ tools/ host_tests/ is
parsed with `ast`, never imported. Every import statement counts, wherever
it stands (in a function, a `try`, an `if`): each one is an edge of the
module graph. A module is named by its path from the top of the tree
(`engine.record_read`, `host_tests.ui.ui_driver`). An imported name is found,
in this order, as a module of the tree (`engine.record`), beside the
importing file (a script's own folder comes first on `sys.path`: `import
cpports` in circuitpython/), in a folder the file names as
`os.path.join(ROOT, "a", "b")`, or as the only module of the tree with that
name (outside the fakes' folders, and not a standard library name); what is
found nowhere (`machine`, `board`, the standard library) is outside.

- cycles: groups of modules that import each other, directly or round a
  loop (strongly connected components of the graph), each printed with
  one loop through it;
- private names: `from x import _y` of a project module, and `x._y` where
  `x` names a project module in the file (dunder names are not private);
  a test taking a private name of the product or the tools it tests is
  counted apart (allowed), a test taking another test's is not;
- upward imports: the layers are engine < firmware < the ports
  (circuitpython/, web/) < tools < host_tests; a module imports its own
  layer or lower ones, the two ports do not import each other, and nothing
  imports host_tests from outside it;
- `sys.path` edits: calls of insert/append/extend/remove/pop/clear on
  `sys.path`, assignments to it or its items and `del` of them, counted
  outside host_tests and inside; edits written in the source of a script
  that a tool or test hands to MicroPython (a string constant) are counted
  apart;
- the largest modules by lines, and firmware/app.py's lines;
- the whiteboard: the arrows between firmware/'s packages (and engine/),
  each a package whose modules import the other's, against ARROWS, the
  one table of the arrows allowed, which docs/DEVELOPING.md draws
  (`picture()`, printed with --picture).

host_tests/test_structure.py holds the rules to these figures.
"""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = ("engine", "firmware", "circuitpython", "web", "tools", "host_tests")
LAYER = {"engine": 0, "firmware": 1, "circuitpython": 2, "web": 2, "tools": 3, "host_tests": 4}
STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | frozenset(sys.builtin_module_names)
PATH_CALLS = ("insert", "append", "extend", "remove", "pop", "clear")

# The whiteboard: firmware/'s packages by job and engine/, and who imports
# whom among them: ARROWS[a] are the boxes a's modules may import (engine/
# imports none of them: the layers). "core" is firmware/'s own modules (the
# App, the sessions, buttons, settings, statistics, compat). The code's
# arrows are exactly these (host_tests/test_structure.py): a new arrow is
# a decision, made here and drawn in docs/DEVELOPING.md by picture().
BOXES = ("pico", "screens", "link", "core", "saves", "board", "display", "engine")
ARROWS = {
    "pico": ("core", "board", "display", "link", "saves", "engine"),
    "screens": ("core", "board", "display", "link", "engine"),
    "link": ("core", "board", "engine"),
    "core": ("pico", "screens", "saves", "display", "engine"),
    "saves": ("core", "engine"),
    "board": ("core", "engine"),
    "display": ("core",),
    "engine": (),
}


def module_name(rel):
    """engine/ai/player.py -> engine.ai.player; engine/__init__.py -> engine."""
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files(root=ROOT):
    """{relative path: source text} of every .py in FOLDERS."""
    out = {}
    for top in FOLDERS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
            for f in sorted(filenames):
                if f.endswith(".py"):
                    path = os.path.join(dirpath, f)
                    rel = os.path.relpath(path, root).replace(os.sep, "/")
                    with open(path, encoding="utf-8") as fh:
                        out[rel] = fh.read()
    return out


def _is_sys_path(node):
    return (isinstance(node, ast.Attribute) and node.attr == "path"
            and isinstance(node.value, ast.Name) and node.value.id == "sys")


def _path_edits(tree):
    """How many times the tree edits sys.path."""
    n = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in PATH_CALLS and _is_sys_path(node.func.value):
                n += 1
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for t in targets:
                if _is_sys_path(t) or (isinstance(t, ast.Subscript) and _is_sys_path(t.value)):
                    n += 1
    return n


def _script_path_edits(tree):
    """sys.path edits in string constants that parse as Python (scripts
    handed to MicroPython or a subprocess)."""
    n = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "sys.path" in node.value:
            # a %-template: fill its holes so that it parses
            text = node.value.replace("%%", "%").replace("%r", "''").replace("%s", "0").replace("%d", "0")
            text = _fill_named(text)
            try:
                n += _path_edits(ast.parse(text))
            except SyntaxError:
                n += sum(text.count("sys.path." + c + "(") for c in PATH_CALLS)
    return n


def _fill_named(text):
    out, i = [], 0
    while True:
        j = text.find("%(", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        k = text.find(")", j)
        if k < 0 or k + 1 >= len(text):
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        out.append("''" if text[k + 1] == "r" else "0")
        i = k + 2


def _joined_dirs(tree):
    """Folders named as os.path.join(NAME, "a", "b", ...): "a/b"."""
    dirs = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
                and node.args and isinstance(node.args[0], ast.Name) and len(node.args) > 1
                and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[1:])):
            dirs.append("/".join(a.value for a in node.args[1:]).strip("/"))
    return dirs


class Project:
    """The parsed tree: modules, import edges, private names, path edits."""

    def __init__(self, root=ROOT):
        self.root = root
        self.sources = source_files(root)
        self.modules = {module_name(rel): rel for rel in self.sources}
        self.packages = {module_name(rel) for rel in self.sources if rel.endswith("/__init__.py")}
        by_base = {}
        for name, rel in self.modules.items():
            if "/fakes/" not in rel:
                by_base.setdefault(name.rsplit(".", 1)[-1], []).append(name)
        self.by_base = {b: v[0] for b, v in by_base.items() if len(v) == 1 and b not in STDLIB}
        self.edges = {}        # module -> {imported module: first line}
        self.private = []      # (module, imported module, name, line)
        self.path_edits = {}   # module -> count
        self.script_path_edits = {}
        self.function_imports = 0
        for rel, text in sorted(self.sources.items()):
            self._scan(rel, text)

    # -- resolution -------------------------------------------------------

    def _find(self, dotted, rel, joined):
        """The project module that `import dotted` loads in file rel, or None."""
        if dotted in self.modules:
            return dotted
        folder = rel.rsplit("/", 1)[0]
        for base in [folder] + joined:
            cand = (base.replace("/", ".") + "." + dotted) if base else dotted
            if cand in self.modules:
                return cand
        head = dotted.split(".")[0]
        if head in self.by_base and "." not in dotted:
            return self.by_base[head]
        return None

    def _relative(self, rel, level, module):
        name = module_name(rel)
        pkg = name if rel.endswith("/__init__.py") else name.rsplit(".", 1)[0]
        for _ in range(level - 1):
            pkg = pkg.rsplit(".", 1)[0]
        return pkg + ("." + module if module else "")

    def _scan(self, rel, text):
        me = module_name(rel)
        tree = ast.parse(text, filename=rel)
        self.path_edits[me] = _path_edits(tree)
        self.script_path_edits[me] = _script_path_edits(tree)
        joined = _joined_dirs(tree)
        out = self.edges.setdefault(me, {})
        bound = {}             # local name -> project module it names

        def edge(target, line):
            if target and target != me:
                out.setdefault(target, line)

        in_function = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for sub in ast.walk(node):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        in_function.add(id(sub))
        self.function_imports += len(in_function)

        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    target = self._find(a.name, rel, joined)
                    edge(target, node.lineno)
                    if target:
                        if a.asname:
                            bound[a.asname] = target
                        elif "." not in a.name:
                            bound[a.name] = target
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = self._relative(rel, node.level, node.module)
                    found = base if base in self.modules else None
                else:
                    base = node.module
                    found = self._find(base, rel, joined)
                for a in node.names:
                    sub = None
                    if found is not None:
                        sub = found + "." + a.name
                        if sub not in self.modules:
                            sub = None
                    elif node.level:
                        sub = base + "." + a.name if base + "." + a.name in self.modules else None
                    if sub:
                        edge(sub, node.lineno)
                        bound[a.asname or a.name] = sub
                    elif found:
                        edge(found, node.lineno)
                        if _private(a.name):
                            self.private.append((me, found, a.name, node.lineno))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                    and node.value.id in bound and bound[node.value.id] != me):
                self.private.append((me, bound[node.value.id], node.attr, node.lineno))

    # -- findings ---------------------------------------------------------

    def cycles(self):
        """[(members sorted, one loop through them)] of every group of
        modules importing each other."""
        index, low, stack, on, groups = {}, {}, [], set(), []
        counter = [0]
        graph = self.edges

        def strong(v):  # Tarjan, iterative
            work = [(v, iter(sorted(graph.get(v, ()))))]
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            while work:
                node, it = work[-1]
                for w in it:
                    if w not in index:
                        index[w] = low[w] = counter[0]
                        counter[0] += 1
                        stack.append(w)
                        on.add(w)
                        work.append((w, iter(sorted(graph.get(w, ())))))
                        break
                    if w in on:
                        low[node] = min(low[node], index[w])
                else:
                    work.pop()
                    if work:
                        low[work[-1][0]] = min(low[work[-1][0]], low[node])
                    if low[node] == index[node]:
                        group = []
                        while True:
                            w = stack.pop()
                            on.discard(w)
                            group.append(w)
                            if w == node:
                                break
                        if len(group) > 1:
                            groups.append(tuple(sorted(group)))

        for v in sorted(graph):
            if v not in index:
                strong(v)
        return [(g, self._loop(g)) for g in sorted(groups)]

    def _loop(self, group):
        """A shortest loop from the group's first member back to it."""
        start, members = group[0], set(group)
        prev, todo = {start: None}, [start]
        while todo:
            nxt = []
            for v in todo:
                for w in sorted(self.edges.get(v, ())):
                    if w == start:
                        path = [v]
                        while prev[path[-1]] is not None:
                            path.append(prev[path[-1]])
                        return tuple(reversed(path)) + (start,)
                    if w in members and w not in prev:
                        prev[w] = v
                        nxt.append(w)
            todo = nxt
        return group

    def private_names(self):
        """Sorted, without repeats: (module, imported module, name), but
        for a test's look inside the product or tool it tests."""
        return sorted({(m, t, n) for m, t, n, _ in self.private if not _white_box(m, t)})

    def white_box(self):
        """Sorted (test, module, name): a test taking a private name of a
        module of the product or the tools, to test it from inside."""
        return sorted({(m, t, n) for m, t, n, _ in self.private if _white_box(m, t)})

    def upward(self):
        """Sorted (module, imported module) against the layers."""
        bad = []
        for m, targets in self.edges.items():
            top = m.split(".")[0]
            for t in targets:
                ttop = t.split(".")[0]
                if ttop == top:
                    continue
                if LAYER[ttop] > LAYER[top] or LAYER[ttop] == LAYER[top] or ttop == "host_tests":
                    bad.append((m, t))
        return sorted(bad)

    def arrows(self):
        """{(box, box): [(module, imported module), ...]}: the imports of
        engine/ and firmware/ from one whiteboard box into another."""
        out = {}
        for m, targets in self.edges.items():
            a = box_of(m, self.packages)
            if a is None:
                continue
            for t in targets:
                b = box_of(t, self.packages)
                if b is not None and b != a:
                    out.setdefault((a, b), []).append((m, t))
        return {k: sorted(v) for k, v in out.items()}

    def against_arrows(self, allowed=None):
        """(imports the table does not allow: sorted (module, imported
        module), arrows of the table the code no longer has: sorted (box,
        box))."""
        allowed = ARROWS if allowed is None else allowed
        table = {(a, b) for a, bs in allowed.items() for b in bs}
        found = self.arrows()
        bad = sorted(e for k, v in found.items() if k not in table for e in v)
        return bad, sorted(table - set(found))

    def path_edit_counts(self):
        """(outside host_tests, inside, in embedded scripts)."""
        outside = sum(n for m, n in self.path_edits.items() if not m.startswith("host_tests"))
        inside = sum(n for m, n in self.path_edits.items() if m.startswith("host_tests"))
        return outside, inside, sum(self.script_path_edits.values())

    def lines(self):
        """[(lines, path)] largest first."""
        return sorted(((t.count("\n"), rel) for rel, t in self.sources.items()), key=lambda x: (-x[0], x[1]))


def box_of(module, packages):
    """The whiteboard's box of a module: "engine" for engine/, the
    package's name for a module of a package of firmware/ ("link" for
    firmware.link.linkmatch), "core" for firmware/'s own modules; None
    outside the two."""
    parts = module.split(".")
    if parts[0] == "engine":
        return "engine"
    if parts[0] != "firmware":
        return None
    if len(parts) >= 3 or (len(parts) == 2 and module in packages):
        return parts[1]
    return "core"


def picture(arrows=None):
    """The whiteboard as text: a line a box, from the Pico's program down
    to the engine, with the boxes its modules import."""
    arrows = ARROWS if arrows is None else arrows
    w = max(len(b) for b in BOXES)
    lines = []
    for a in BOXES:
        to = [b for b in BOXES if b in arrows.get(a, ())]
        lines.append("%-*s --> %s" % (w, a, "  ".join(to) if to else "(none of them)"))
    return "\n".join(lines) + "\n"


def _white_box(module, target):
    return module.startswith("host_tests.") and not target.startswith("host_tests.")


def _private(name):
    return name.startswith("_") and not name.startswith("__")


def report(p, out=print):
    cycles = p.cycles()
    out("import cycles: %d" % len(cycles))
    for group, loop in cycles:
        out("  %s   (%s)" % (" -> ".join(loop), ", ".join(group)))
    priv = p.private_names()
    out("private names imported across modules: %d" % len(priv))
    for m, t, n in priv:
        out("  %s: %s.%s" % (m, t, n))
    box = p.white_box()
    out("  (and %d taken by tests, from the module they test: allowed)" % len(box))
    up = p.upward()
    out("upward imports: %d" % len(up))
    for m, t in up:
        out("  %s -> %s" % (m, t))
    outside, inside, scripts = p.path_edit_counts()
    out("sys.path edits: %d outside host_tests, %d inside (and %d in scripts written for MicroPython)"
        % (outside, inside, scripts))
    for m in sorted(p.path_edits):
        if p.path_edits[m]:
            out("  %s: %d" % (m, p.path_edits[m]))
    out("modules: %d, import edges: %d (%d import statements inside functions)"
        % (len(p.modules), sum(len(v) for v in p.edges.values()), p.function_imports))
    out("largest modules (lines):")
    for n, rel in p.lines()[:10]:
        out("  %5d  %s" % (n, rel))
    bad, unused = p.against_arrows()
    out("imports against the whiteboard (ARROWS): %d" % len(bad))
    for m, t in bad:
        out("  %s -> %s" % (m, t))
    for a, b in unused:
        out("  the arrow %s -> %s is in ARROWS but not in the code" % (a, b))
    app = p.sources.get("firmware/app.py")
    out("firmware/app.py: %s lines" % (app.count("\n") if app is not None else "no"))


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=ROOT, help="the top of the tree (default: this checkout)")
    ap.add_argument("--picture", action="store_true",
                    help="print the whiteboard (ARROWS) as docs/DEVELOPING.md draws it")
    args = ap.parse_args(argv)
    if args.picture:
        print(picture(), end="")
        return
    report(Project(args.root))


if __name__ == "__main__":
    main()
