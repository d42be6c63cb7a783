"""Button to the end of its frame over whole hands on the emulated Pico: the
latency bench of tools/pico/latency.py, as `make bench` runs it.

    .venv/bin/python -m tools.bench.bench_latency [--full] [latency.py's options]

By default --quick: two hands against the hard AI with the frozen build
(build/gin-rummy-pico.uf2, `make uf2`) and with the .mpy bundle on the stock
firmware, flash at zero wait states; a few host minutes. --full plays a
whole match to 100 per build, with and without the model of the XIP
cache (what `make release` runs against the previous release). Without
the stock firmware and the boot ROM it says so and stops.
"""

import sys

from tools.pico import latency


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--full" in argv:
        argv.remove("--full")
        argv += ["--cache", "both"]
    elif "--quick" not in argv:
        argv.append("--quick")
    if "--bundle" not in argv:
        argv.append("--bundle")
    return latency.main(argv)


if __name__ == "__main__":
    sys.exit(main())
