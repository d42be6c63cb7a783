"""The README's picture of the web handheld, made again from the page itself:
built, served on localhost and shown in headless Chromium (web/
browser.py), played as a player plays it (real time, not the test mode's
numbered deals), so the deal shows its commitment as in a real game; its
secret is the browser's, so each picture deals another hand. A new match,
a card drawn, the discard to choose.

    .venv/bin/python -m tools.web.screenshot [--out web/screenshot.png]
"""

import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WEB = os.path.join(ROOT, "web")

from web import browser as wb  # noqa: E402
from tools.web import build  # noqa: E402
from tools.kit.ui_driver import CUT_KEYS  # noqa: E402

# NEW MATCH; on from its match commitment to the cut, the cut AAAA given
# and the hand dealt (tools/kit/ui_driver.py's CUT_KEYS); draw from the stock
_WEB_KEY = {"A": "Enter", "U": "ArrowUp", "R": "ArrowRight"}
KEYS = ("Enter",) + tuple(_WEB_KEY[k] for k in CUT_KEYS) + ("Enter",)
WIDTH = 1000
HEIGHT = 490
SETTLE = 2.5                       # seconds for a key's screen (the deal's note)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(WEB, "screenshot.png"))
    args = ap.parse_args(argv)
    why = wb.missing()
    if why:
        print("no browser: %s" % why, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "web")
        build.build(site, quiet=True)
        shot = os.path.join(tmp, "shot.png")
        with wb.serve(site) as url, wb.Browser() as b:
            b.page(url, width=WIDTH, height=HEIGHT)
            b.wait("window.gin && (gin.ready || gin.failed)", 60000)
            time.sleep(SETTLE)
            for k in KEYS:
                b.key(k)
                time.sleep(SETTLE)
            if b.eval("gin.failed") or b.eval("gin.screen()") != "play":
                print("the page did not reach a hand: %s" % b.eval("gin.failed"), file=sys.stderr)
                return 1
            b.eval("document.getElementById('status').textContent = ''")
            b.call("screenshot", path=shot)
        from PIL import Image

        # a palette keeps the file small (the page has few colours)
        Image.open(shot).convert("RGB").quantize(64).save(args.out, optimize=True)
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
