"""Serve the built web handheld on localhost for trying it (`make web`).

    python web/serve.py DIR              port 8000, or the next free one
    python web/serve.py DIR --port N     port N or nothing (WEB_PORT=N)

The URL is printed once the server listens, so it always answers. Without
--port a busy 8000 is no error: the next free port (8001, 8002 ...) is
used and said. A port asked for by --port that is busy is not replaced:
the message names a free one to ask for instead. Ctrl-C stops it.
"""

import argparse
import errno
import functools
import http.server
import os
import socket
import sys

FIRST = 8000
TRIES = 50


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass                        # the URL is all `make web` prints


def bind(directory, port):
    """A server on 127.0.0.1:port, or None when the port is taken."""
    handler = functools.partial(_Handler, directory=os.path.abspath(directory))
    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as e:
        if e.errno in (errno.EADDRINUSE, errno.EACCES):
            return None
        raise


def free_port(start):
    """A port from `start` up that nothing listens on (else one the system
    picks)."""
    for p in range(start, start + TRIES):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", p))
                return p
            except OSError:
                continue
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv=None):
    ap = argparse.ArgumentParser(description="serve the web handheld on localhost")
    ap.add_argument("dir", help="the built page (make web-build: build/web)")
    ap.add_argument("--port", type=int, help="this port or none (make web WEB_PORT=N)")
    ap.add_argument("--first", type=int, default=FIRST,
                    help="without --port: the first port tried (default %d)" % FIRST)
    args = ap.parse_args(argv)
    if not os.path.isfile(os.path.join(args.dir, "index.html")):
        print("No page in %s: build it first (make web-build)." % args.dir, file=sys.stderr)
        return 1
    if args.port is not None:
        httpd = bind(args.dir, args.port)
        if httpd is None:
            print("Port %d is busy (another server?). Use a free one, e.g.: "
                  "make web WEB_PORT=%d" % (args.port, free_port(args.port + 1)),
                  file=sys.stderr)
            return 1
    else:
        httpd = None
        for p in range(args.first, args.first + TRIES):
            httpd = bind(args.dir, p)
            if httpd is not None:
                break
        if httpd is None:
            httpd = bind(args.dir, 0)
        port = httpd.server_address[1]
        if port != args.first:
            print("Port %d is busy: using %d." % (args.first, port))
    url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    print("The handheld in a browser: %s  (Ctrl-C stops the server)" % url, flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
