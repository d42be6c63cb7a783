// Run a Python script under the MicroPython WebAssembly port (Node).
//
// Usage:
//   node tools/kit/run_wasm.mjs [options] SCRIPT [ARGS...]
//
// Options:
//   --root DIR       repository root (default: two folders up from this file)
//   --dirs A,B,...   extra files or folders (relative to --root, or absolute)
//                    to copy into the wasm filesystem, on top of the defaults:
//                    engine, tools/records/record_match.py,
//                    tools/records/_root.py, tools/kit/play.py (missing
//                    ones are skipped)
//   --heapsize SIZE  MicroPython heap, e.g. 512K, 4M (default 4M)
//   --pystack N      MicroPython Python stack in words (default 2048)
//
// Every file is copied to the same absolute path inside the wasm filesystem
// as on the host, and the wasm process starts in the host's current
// directory, so paths given as ARGS mean the same thing as for CPython or the
// unix port.  SCRIPT itself is always copied.  Like CPython, SCRIPT runs as
// __main__ with sys.argv = [SCRIPT, *ARGS] and its folder first on sys.path.
//
// Output: the script's stdout/stderr are forwarded byte for byte.
// Exit status: 0 on success, the code of sys.exit(code), or 1 after an
// uncaught Python exception (its traceback goes to stderr).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DEFAULT_ITEMS = [
  "engine",
  "tools/records/record_match.py",
  "tools/records/_root.py",
  "tools/kit/play.py",
];
const PKG = "@micropython/micropython-webassembly-pyscript";

function usage(msg) {
  if (msg) process.stderr.write("run_wasm: " + msg + "\n");
  process.stderr.write(
    "usage: node tools/kit/run_wasm.mjs [--root DIR] [--dirs A,B] " +
      "[--heapsize SIZE] [--pystack N] SCRIPT [ARGS...]\n",
  );
  process.exit(2);
}

function parseSize(s) {
  const m = /^(\d+)([kKmM]?)$/.exec(s);
  if (!m) usage("bad size " + s);
  let n = parseInt(m[1], 10);
  const suffix = m[2].toLowerCase();
  if (suffix === "k") n *= 1024;
  if (suffix === "m") n *= 1024 * 1024;
  return n;
}

function parseArgs(argv) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const opts = {
    root: path.resolve(here, "..", ".."),
    items: DEFAULT_ITEMS.slice(),
    heapsize: 4 * 1024 * 1024,
    pystack: 2048,
    script: null,
    args: [],
  };
  let i = 0;
  while (i < argv.length) {
    const a = argv[i];
    const needValue = () => {
      if (i + 1 >= argv.length) usage("option " + a + " needs a value");
      return argv[i + 1];
    };
    if (a === "--root") {
      opts.root = path.resolve(needValue());
      i += 2;
    } else if (a === "--dirs") {
      for (const d of needValue().split(",")) if (d) opts.items.push(d);
      i += 2;
    } else if (a === "--heapsize") {
      opts.heapsize = parseSize(needValue());
      i += 2;
    } else if (a === "--pystack") {
      opts.pystack = parseInt(needValue(), 10);
      i += 2;
    } else if (a === "--") {
      i += 1;
      break;
    } else if (a.startsWith("--")) {
      usage("unknown option " + a);
    } else {
      break;
    }
  }
  if (i >= argv.length) usage("no script given");
  opts.script = path.resolve(argv[i]);
  opts.args = argv.slice(i + 1);
  return opts;
}

// Output sink: collects bytes and writes them synchronously to a host fd.
function makeSink(fd) {
  let chunks = [];
  let size = 0;
  const flush = () => {
    if (size === 0) return;
    fs.writeSync(fd, Buffer.concat(chunks, size));
    chunks = [];
    size = 0;
  };
  const write = (data) => {
    // With linebuffer:false the port hands over one Uint8Array per byte; with
    // linebuffer:true it would hand over one decoded string per line.
    // Accept both.
    let buf;
    if (typeof data === "string") buf = Buffer.from(data + "\n", "utf8");
    else buf = Buffer.from(data);
    chunks.push(buf);
    size += buf.length;
    if (size >= 65536 || buf.includes(10)) flush();
  };
  return { write, flush };
}

function mkdirs(FS, dir) {
  let cur = "";
  for (const part of dir.split("/")) {
    if (!part) continue;
    cur += "/" + part;
    try {
      FS.mkdir(cur);
    } catch (e) {
      // already exists
    }
  }
}

function copyIn(FS, hostPath) {
  const st = fs.statSync(hostPath);
  if (st.isDirectory()) {
    mkdirs(FS, hostPath);
    for (const name of fs.readdirSync(hostPath).sort()) {
      if (name === "__pycache__" || name.startsWith(".")) continue;
      if (name.endsWith(".pyc")) continue;
      copyIn(FS, path.join(hostPath, name));
    }
  } else if (st.isFile()) {
    mkdirs(FS, path.dirname(hostPath));
    FS.writeFile(hostPath, fs.readFileSync(hostPath));
  }
}

// A JS string literal of a list of strings is also a valid Python literal.
const pyLiteral = (v) => JSON.stringify(v);

const BOOT = (script, argv, rcName) => `
import sys
try:
    import os
except ImportError:
    import uos as os
os.chdir(${pyLiteral(process.cwd())})
del sys.argv[:]
sys.argv.extend(${pyLiteral(argv)})
sys.path.insert(0, ${pyLiteral(path.dirname(script))})
${rcName} = 0
try:
    with open(${pyLiteral(script)}) as _f:
        _src = _f.read()
    _g = {"__name__": "__main__", "__file__": ${pyLiteral(script)}}
    exec(compile(_src, ${pyLiteral(script)}, "exec"), _g)
except SystemExit as _e:
    _c = _e.args[0] if _e.args else 0
    if _c is None:
        _c = 0
    elif not isinstance(_c, int):
        print(_c, file=sys.stderr)
        _c = 1
    ${rcName} = _c
`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let mod;
  try {
    mod = await import(PKG);
  } catch (e) {
    process.stderr.write(
      "run_wasm: cannot load " + PKG + " (" + e.message + "); run `make node_modules` or `make test`\n",
    );
    process.exit(3);
  }
  const out = makeSink(1);
  const err = makeSink(2);
  const mp = await mod.loadMicroPython({
    heapsize: opts.heapsize,
    pystack: opts.pystack,
    stdout: out.write,
    stderr: err.write,
    linebuffer: false,
  });
  for (const item of opts.items) {
    const p = path.isAbsolute(item) ? item : path.join(opts.root, item);
    if (fs.existsSync(p)) copyIn(mp.FS, p);
  }
  if (!fs.existsSync(opts.script)) usage("no such script " + opts.script);
  copyIn(mp.FS, opts.script);
  mkdirs(mp.FS, process.cwd());

  const rcName = "_run_wasm_rc";
  let rc = 0;
  try {
    mp.runPython(BOOT(opts.script, [opts.script, ...opts.args], rcName));
    rc = mp.globals.get(rcName);
    if (typeof rc !== "number") rc = 1;
  } catch (e) {
    out.flush();
    if (e && e.name === "PythonError") {
      err.write(Buffer.from(String(e.message)));
    } else {
      err.write(Buffer.from("run_wasm: " + (e && e.stack ? e.stack : String(e)) + "\n"));
    }
    rc = 1;
  }
  out.flush();
  err.flush();
  process.exit(rc & 255);
}

main();
