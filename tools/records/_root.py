"""Put the repository root on sys.path for a script two folders down
(tools/records/, tools/bench/).

    import _root
    _root.add_repo_root()

CPython, the MicroPython unix port and the MicroPython WebAssembly port
(tools/kit/run_wasm.mjs) all put a script's own folder first on sys.path,
so a script in tools/records/ imports this module by its bare name (one
elsewhere puts tools/records/ on sys.path first); the repository root is
two folders above the script's.  Plain string work only: MicroPython has
no os.path.
"""

import sys


def add_repo_root():
    here = sys.path[0] if sys.path and sys.path[0] else ""
    if "tools/" not in here:
        f = __file__
        here = f.rsplit("/", 1)[0] if "/" in f else "."
    here = here.rstrip("/")
    parts = here.split("/")
    if len(parts) >= 2 and parts[-2] == "tools":
        root = "/".join(parts[:-2]) or ("/" if here.startswith("/") else ".")
    else:
        root = here + "/../.."
    if root not in sys.path:
        sys.path.insert(0, root)
