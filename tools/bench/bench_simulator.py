"""The terminal simulator's CPU use while it waits for a key: `make play`
on the title screen, and on the play screen, in a pseudo-terminal of 140 x
50 for a few seconds each (from /proc: Linux only).

    .venv/bin/python -m tools.bench.bench_simulator [--seconds 5]

Target: an idle simulator sleeps until its next timer (a key, a resize or
the AI's move wake it), well under 1% of a core.
"""

import argparse
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import tempfile
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def read_until(fd, marker, timeout=60):
    end = time.time() + timeout
    seen = b""
    while time.time() < end:
        if select.select([fd], [], [], 0.2)[0]:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
            if marker in seen:
                return True
    return False


def idle_share(pid, fd, seconds):
    """CPU seconds per second while nothing is pressed (output drained)."""
    c0 = cpu_seconds(pid)
    t0 = time.time()
    while time.time() - t0 < seconds:
        if select.select([fd], [], [], 0.5)[0]:
            os.read(fd, 65536)
    return (cpu_seconds(pid) - c0) / (time.time() - t0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args(argv)
    if not os.path.isdir("/proc/self"):
        print("bench_simulator: needs /proc (Linux); skipped")
        return 0
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 140, 0, 0))
    with tempfile.TemporaryDirectory() as saves:
        p = subprocess.Popen([sys.executable, "-m", "tools.sim.simulator",
                              "--saves", saves, "--seed", "3"],
                             stdin=slave, stdout=slave, stderr=slave, cwd=ROOT,
                             env=dict(os.environ, LC_ALL="C.UTF-8"))
        os.close(slave)
        try:
            if not read_until(master, b"q: quit"):
                print("bench_simulator: the simulator did not start")
                return 1
            title = idle_share(p.pid, master, args.seconds)
            os.write(master, b"\r")                     # A: NEW MATCH
            read_until(master, b"q: quit", 10)
            play = idle_share(p.pid, master, args.seconds)
            os.write(master, b"q")
            p.wait(timeout=20)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            os.close(master)
    print("terminal simulator, idle %.0f s each (target well under 1%% of a core):"
          % args.seconds)
    print("  title screen   %5.2f%% of a core" % (100 * title))
    print("  play screen    %5.2f%% of a core" % (100 * play))
    return 0


if __name__ == "__main__":
    sys.exit(main())
