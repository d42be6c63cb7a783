"""Put the repository root on sys.path for a script in tools/.

    import _root
    _root.add_repo_root()

CPython, the MicroPython unix port and the MicroPython WebAssembly port
(host_tests/run_wasm.mjs) all put a script's own folder (tools/) first on
sys.path, so a script there imports this module by its bare name; the repo
root is that folder's parent.  Plain string work only: MicroPython has no
os.path.
"""

import sys


def add_repo_root():
    here = sys.path[0] if sys.path and sys.path[0] else ""
    if not here.rstrip("/").endswith("tools"):
        f = __file__
        here = f.rsplit("/", 1)[0] if "/" in f else "."
    here = here.rstrip("/")
    if here.endswith("/tools"):
        root = here[: -len("/tools")] or "/"
    elif here == "tools":
        root = "."
    else:
        root = here + "/.."
    if root not in sys.path:
        sys.path.insert(0, root)
