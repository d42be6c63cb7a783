"""`make web` serves the page on localhost: with port 8000 (here: any
port) busy it takes the next free one and says so, prints the URL only
once the server answers, and a port asked for that is busy gets a message
naming a free one, not a traceback."""

import os
import socket
import subprocess
import sys
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVE = os.path.join(ROOT, "web", "serve.py")


def busy_port():
    """A listening socket on a free port (the caller closes it)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    return s, s.getsockname()[1]


def test_a_busy_first_port_is_skipped_and_the_url_answers_when_printed(web_dir):
    s, port = busy_port()
    p = subprocess.Popen([sys.executable, SERVE, web_dir, "--first", str(port)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = p.stdout.readline()
        assert first.startswith("Port %d is busy: using " % port), first
        line = p.stdout.readline()
        assert line.startswith("The handheld in a browser: http://127.0.0.1:"), line
        url = line.split()[5]
        assert ":%d/" % port not in url
        with urllib.request.urlopen(url, timeout=10) as r:      # at once
            assert r.status == 200 and b"Pocket Gin Rummy" in r.read()
    finally:
        p.terminate()
        p.wait(timeout=10)
        s.close()
    assert "Traceback" not in p.stderr.read()


def test_make_web_on_a_busy_port_names_a_free_one(tmp_path):
    s, port = busy_port()
    try:
        run = subprocess.run(["make", "-s", "web", "WEB_PORT=%d" % port,
                              "WEB_OUT=%s" % (tmp_path / "web")],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
    finally:
        s.close()
    out = run.stdout + run.stderr
    assert run.returncode != 0
    assert "Traceback" not in out
    assert "Port %d is busy" % port in out and "make web WEB_PORT=" in out
    assert "http://127.0.0.1" not in out                        # no URL that does not answer
