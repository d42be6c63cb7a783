"""Host side of the web handheld's tests and benchmark: a static server on
localhost and headless Chromium driven through web/driver.mjs
(playwright-core, pinned in package.json).

    with serve("build/web") as url, Browser() as b:
        b.page(url + "?seed=1&fakeclock=1")
        b.wait("window.gin && gin.ready")
        b.key("Enter")
        t = b.tab(url)              # a second tab in the same context
        b.key("Enter", tab=t)       # every request takes tab= (default 0)

Chromium is Debian's package (`apt-get install chromium`; .ci/run installs
it); find_chromium() says where it is, or None.
"""

import functools
import http.server
import json
import os
import queue
import shutil
import subprocess
import threading
from contextlib import contextmanager

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DRIVER = os.path.join(HERE, "driver.mjs")
PLAYWRIGHT = os.path.join(ROOT, "node_modules", "playwright-core", "package.json")


def find_chromium():
    """The Chromium to drive: $CHROMIUM, else chromium on PATH, else None."""
    env = os.environ.get("CHROMIUM")
    if env:
        return env if os.path.isfile(env) else None
    for name in ("chromium", "chromium-browser"):
        p = shutil.which(name)
        if p:
            return p
    return None


def missing():
    """Why the browser tests cannot run here (None when they can)."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not os.path.isfile(PLAYWRIGHT):
        return "playwright-core is not installed (run `make node_modules`)"
    if find_chromium() is None:
        return ("Chromium is not installed (Debian: apt-get install chromium; "
                ".ci/run does it)")
    return None


class _Handler(http.server.SimpleHTTPRequestHandler):
    isolate = False

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        if self.isolate:
            # Cross-origin isolation: performance.now() at 5 us, not 100 us.
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, *args):
        pass


class _IsolatedHandler(_Handler):
    isolate = True


@contextmanager
def serve(directory, isolate=False):
    """Serve `directory` on 127.0.0.1 (an ephemeral port); yields the URL."""
    handler = functools.partial(_IsolatedHandler if isolate else _Handler,
                                directory=os.path.abspath(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield "http://127.0.0.1:%d/" % httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


class BrowserError(RuntimeError):
    pass


class Browser:
    """One headless Chromium; each method is a driver.mjs request. A request
    that gets no answer within `timeout` seconds ends the browser (a page
    stuck in a loop must not hang a test run)."""

    def __init__(self, chromium=None, timeout=180):
        chromium = chromium or find_chromium()
        if chromium is None:
            raise BrowserError(missing() or "no Chromium")
        self.timeout = timeout
        self.proc = subprocess.Popen(
            ["node", DRIVER, "--chromium", chromium], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self._lines = queue.Queue()
        t = threading.Thread(target=self._read, daemon=True)
        t.start()
        self.version = self._reply()

    def _read(self):
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put("")

    def _reply(self):
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self.proc.kill()
            self.proc.wait()
            raise BrowserError("the browser gave no answer in %d s; stopped it" % self.timeout)
        if not line:
            raise BrowserError("the browser driver stopped (exit %s)" % self.proc.poll())
        r = json.loads(line)
        if "error" in r:
            raise BrowserError(r["error"])
        return r["ok"]

    def call(self, cmd, **kw):
        if self.proc.poll() is not None:
            raise BrowserError("the browser driver has stopped (exit %s)" % self.proc.poll())
        kw["cmd"] = cmd
        self.proc.stdin.write(json.dumps(kw) + "\n")
        self.proc.stdin.flush()
        return self._reply()

    def page(self, url, **kw):
        return self.call("page", url=url, **kw)

    def tab(self, url):
        """One more tab at url in the page's context (its storage, its
        BroadcastChannel); returns the tab's number for tab=."""
        return self.call("page", url=url, same=True)

    def close_tab(self, tab):
        return self.call("close", tab=tab)

    def wait(self, js, timeout=30000, tab=0):
        return self.call("wait", js=js, timeout=timeout, tab=tab)

    def eval(self, js, tab=0):
        return self.call("eval", js=js, tab=tab)

    def key(self, key, delay=0, tab=0):
        return self.call("key", key=key, delay=delay, tab=tab)

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# The canvas, read back pixel by pixel into the framebuffer layout (MONO_VLSB:
# byte (y >> 3) * 128 + x, bit y & 7), as hex. A pixel is lit when opaque.
CANVAS_FB_JS = """(() => {
  const c = document.getElementById("oled");
  const d = c.getContext("2d").getImageData(0, 0, 128, 64).data;
  const fb = new Uint8Array(1024);
  for (let y = 0; y < 64; y++)
    for (let x = 0; x < 128; x++)
      if (d[(y * 128 + x) * 4 + 3] > 127) fb[(y >> 3) * 128 + x] |= 1 << (y & 7);
  return Array.from(fb, (b) => b.toString(16).padStart(2, "0")).join("");
})()"""


def canvas_fb(b):
    """The canvas's pixels as the 1024-byte framebuffer they show."""
    return bytes.fromhex(b.eval(CANVAS_FB_JS))
