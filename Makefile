# Build and test entry points.  Needs only python3, node and npm; everything
# else is installed from the pinned requirements.txt / package-lock.json.
#
# `make help` lists every target: it prints the `## ` comment on each target's
# line, so a new target documents itself there (host_tests/test_make_output.py
# checks that every target has one).

SHELL := /bin/bash

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
PORT ?=
PYTEST_ARGS ?=

VENV_STAMP := $(VENV)/.requirements.stamp
NODE_STAMP := node_modules/.package-lock.stamp

.PHONY: all help venv node_modules test lint bench play flash clean distclean ai-table check-docs

all: test ## the default: same as make test

help: ## this list
	@echo "make TARGET [VAR=value ...]; the targets:"
	@grep -hE '^[A-Za-z0-9_.-]+:([^=]|$$).*## ' $(MAKEFILE_LIST) \
		| sed -E 's/^([A-Za-z0-9_.-]+):.*## (.*)$$/\1\t\2/' \
		| awk -F'\t' '{ printf "  %-20s %s\n", $$1, $$2 }'

NEED_PY = command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) not found: install Python 3.10 or newer (Debian: apt-get install python3 python3-venv)"; exit 2; }
NEED_NPM = command -v npm >/dev/null && command -v node >/dev/null || { echo "node and npm not found: install Node.js 18 or newer (Debian: apt-get install nodejs npm)"; exit 2; }

venv: $(VENV_STAMP) ## .venv with the pinned requirements.txt (and MicroPython stubs)

# (Re)create the venv if it is missing or broken, then install the pins.
# Re-runs only when the requirements change. The MicroPython stubs (editor
# support, requirements-stubs.txt) go into $(VENV)/mpstubs, apart.
$(VENV_STAMP): requirements.txt requirements-stubs.txt
	@$(NEED_PY)
	@if ! $(PY) -m pip --version >/dev/null 2>&1; then \
		echo "creating $(VENV) with $(PYTHON)"; \
		rm -rf $(VENV); \
		$(PYTHON) -m venv $(VENV); \
	fi
	$(PIP) install -q -r requirements.txt
	rm -rf $(VENV)/mpstubs
	$(PIP) install -q --no-deps --target $(VENV)/mpstubs -r requirements-stubs.txt
	touch $@

node_modules: $(NODE_STAMP) ## the pinned node packages (npm ci: MicroPython wasm, rp2040js, playwright)

$(NODE_STAMP): package.json package-lock.json
	@$(NEED_NPM)
	npm ci --no-audit --no-fund
	touch $@

test: venv node_modules lint ## lint, then the host test suite (pytest host_tests; PYTEST_ARGS=...)
	$(PY) -m pytest -q host_tests $(PYTEST_ARGS)

lint: venv ## ruff over the tree (rules in pyproject.toml)
	$(PY) -m ruff check .

# Bench-only dependencies may be unavailable for this platform/Python; the
# benchmarks must still run, so a failed install is only a warning.
bench: venv node_modules ## every tools/bench/bench_*.py (optional deps: requirements-bench.txt)
	@$(PIP) install -q -r requirements-bench.txt \
		|| echo "warning: could not install requirements-bench.txt (open-spiel: needs a Python and platform it has wheels for, or cmake and a C++ compiler to build it); the benchmarks that need it say so and skip"
	@status=0; found=0; \
	for f in tools/bench/bench_*.py; do \
		[ -e "$$f" ] || continue; \
		found=1; \
		echo "== $$f"; \
		m=$${f%.py}; $(PY) -m "$${m//\//.}" || { echo "FAILED: $$f"; status=1; }; \
	done; \
	[ $$found = 1 ] || echo "no tools/bench/bench_*.py scripts"; \
	echo "== tools/bench/check_docs.py (the figures the docs quote)"; \
	$(PY) -m tools.bench.check_docs || status=1; \
	exit $$status

# The AI's strength table (tools/ailab/ai_table.py): 1000 seat-balanced matches a
# pairing; a benchmark that takes a while. AI_TABLE_ARGS="--matches 200" etc.
AI_TABLE_ARGS ?=
ai-table: venv ## the AI's win rates against every sparring partner (AI_TABLE_ARGS=...)
	@$(PIP) install -q -r requirements-bench.txt \
		|| echo "warning: could not install requirements-bench.txt (open-spiel==2.0.2: needs a Python and platform it has wheels for); the table has no OpenSpiel row"
	$(PY) -m tools.ailab.ai_table $(AI_TABLE_ARGS)

play: venv ## the terminal simulator (tools/sim/simulator.py)
	$(PY) -m tools.sim.simulator

# The figures README.md and docs/*.md quote, against what the benches print
# now (tools/bench/check_docs.py: each figure's marker names its command and
# tolerance). A minute or two; the emulated Pico's are shown, not run.
check-docs: venv ## compare the figures the docs quote with what the quick benches print now
	$(PY) -m tools.bench.check_docs

# make flash [PORT=...]: tools/deploy/flash.py. Onto the release firmware (its
# .uf2 or make uf2) the game's ROMFS image, only the blocks that changed, and
# the board restarts into it; onto stock MicroPython it says how to get the
# partition and copies the .mpy bundle instead. FLASH_ARGS=--bundle copies
# the bundle anyway, --no-reset leaves the board at the REPL.
FLASH_ARGS ?=
flash: venv ## the game onto a Pico with mpremote: into its ROMFS partition, or the .mpy bundle on stock MicroPython (PORT=...)
	$(PY) -m tools.deploy.flash $(PORT) $(FLASH_ARGS)

clean: ## remove caches and build products (build/; not dist/)
	rm -rf build .pytest_cache .hypothesis
	find . \( -path ./$(VENV) -o -path ./node_modules -o -path ./.git \) -prune -o \
		\( -name __pycache__ -type d \) -prune -exec rm -rf {} +

distclean: clean ## clean, and remove .venv and node_modules
	rm -rf $(VENV) node_modules

# ---- web: the handheld in a browser (web) ---------------------------
#   make web-build   build the static page into build/web (tools/web/build.py)
#   make web         build, then serve build/web on localhost for trying
#                    (port 8000 or the next free one; WEB_PORT=N: that one)
WEB_PORT ?=
WEB_OUT ?= build/web

.PHONY: web web-build

web-build: venv node_modules ## build the web handheld into build/web (WEB_OUT=...)
	$(PY) -m tools.web.build --out $(WEB_OUT)

web: web-build ## build the web handheld and serve it on localhost (WEB_PORT=...)
	@$(PY) web/serve.py $(WEB_OUT) $(if $(WEB_PORT),--port $(WEB_PORT))
# ---- end web ---------------------------------------------------------------

# ---- records: copy the game records off the board --------------------------
#   make records [PORT=/dev/ttyACM0]
# The board keeps the records of its last matches in /data/records (one file
# per match, rewritten at every hand end). mpremote stops the game, copies
# the folder into ./records/ and resets the board, which restarts the game
# (the match resumes from its save). `tools/records/replay.py records/FILE` replays
# one. PORT is what `mpremote connect` takes, or a shortcut such as a0.
RECORDS_PORT = $(if $(PORT),$(if $(filter a0 a1 a2 a3 c0 c1 c2 c3 u0 u1 u2 u3,$(PORT)),$(PORT),connect $(PORT)))

.PHONY: records
records: venv ## copy the game records off the board into ./records/ (PORT=...)
	@$(PY) -m mpremote $(RECORDS_PORT) fs cp -r :/data/records . + reset || { \
		echo "mpremote could not copy /data/records. No records yet? One is written when a hand ends."; \
		echo "Not connected? Check the USB cable, close other programs using the port, give PORT=..."; \
		exit 1; }
	@echo "records copied into ./records/; replay one with: $(PY) tools/records/replay.py records/FILE"
# ---- end of records -----------------------------------------------------------

# ---- CircuitPython port (circuitpython/, tools/deploy/deploy_circuitpython.py) ----
# make flash-circuitpython DRIVE=/media/$USER/CIRCUITPY   (E:/ on Windows,
# /Volumes/CIRCUITPY on macOS): copies code.py, cpports.py and the game to
# the drive, then installs the display driver into its lib/ with circup.
.PHONY: flash-circuitpython
flash-circuitpython: venv ## copy the game to a CircuitPython board (DRIVE=/path/to/CIRCUITPY)
	@if [ -z "$(DRIVE)" ]; then \
		echo "usage: make flash-circuitpython DRIVE=/path/to/CIRCUITPY"; exit 2; \
	fi
	$(PY) -m tools.deploy.deploy_circuitpython "$(DRIVE)"
# ---- end of the CircuitPython port block ----

# ---- the Pico: the firmware and the emulated board (tools/pico) ---------
#   make uf2 MICROPY_DIR=path/to/micropython-<MICROPY_VERSION> [picotool_DIR=...]
#       build/gin-rummy-pico.uf2, what a release ships: MicroPython for the
#       Pico with a ROMFS partition (tools/deploy/RPI_PICO_ROMFS) and the
#       game's ROMFS image in it (tools/deploy/romfs.py); drag it onto the
#       RPI-RP2 drive. After that, make flash rewrites the game alone.
#   make uf2-frozen MICROPY_DIR=...
#       build/gin-rummy-pico-frozen.uf2: stock RPI_PICO with engine/ and
#       firmware/ frozen in (manifest.py), no ROMFS partition (bench_pico's
#       comparison, and boards that never get make flash).
#   make test|bench also run the emulated-Pico tests and figures (rp2040js)
#       when they find the stock RPI_PICO .uf2 and the RP2040 boot ROM:
#       PICO_FIRMWARE=... PICO_BOOTROM=..., or in ../shared/pico/,
#       ~/.cache/gin-rummy-pico/ or build/pico-kit/ (tools/pico/harness.py).
MICROPY_DIR ?=
# the MicroPython version, written once in tools/kit/mpversion.py
MICROPY_VERSION := $(shell sed -n 's/^MICROPYTHON = "\(.*\)"$$/\1/p' tools/kit/mpversion.py)
UF2 := build/gin-rummy-pico.uf2
UF2_BUILD := $(abspath build/rp2-RPI_PICO_ROMFS)
ROMFS_BOARD := $(abspath tools/deploy/RPI_PICO_ROMFS)
UF2_FROZEN := build/gin-rummy-pico-frozen.uf2
UF2_FROZEN_BUILD := $(abspath build/rp2-RPI_PICO-frozen)
FS_OFFSET := 655360
export PICO_FIRMWARE PICO_BOOTROM PICO_UF2 picotool_DIR

# what both .uf2 builds need, checked first
NEED_MPY_SRC = \
	if [ -z "$(MICROPY_DIR)" ] || [ ! -f "$(MICROPY_DIR)/ports/rp2/Makefile" ]; then \
		echo "make $@ needs MICROPY_DIR=<MicroPython v$(MICROPY_VERSION) source tree with its submodules>:"; \
		echo "  git clone -b v$(MICROPY_VERSION) https://github.com/micropython/micropython"; \
		echo "  make -C micropython/ports/rp2 BOARD=RPI_PICO submodules"; \
		echo "and the Arm toolchain (Debian: apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential)."; \
		echo "Offline, the Pico kit's micropython-$(MICROPY_VERSION)-rp2-src.tar.xz holds both trees; make release finds it (PICO_KIT=...)."; \
		exit 2; fi; \
	command -v arm-none-eabi-gcc >/dev/null && command -v cmake >/dev/null || { \
		echo "make $@ needs the Arm toolchain and cmake: apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential"; exit 2; }

.PHONY: uf2 uf2-frozen
uf2: venv ## build/gin-rummy-pico.uf2: MicroPython with a ROMFS partition and the game in it (MICROPY_DIR=...)
	@$(NEED_MPY_SRC)
	@if [ -z "$(picotool_DIR)" ] && [ ! -d "$(UF2_BUILD)" ]; then \
		echo "note: without picotool_DIR=<picotool install>/picotool the pico-sdk clones picotool from GitHub (fails offline); see docs/RELEASING.md"; fi
	$(MAKE) -C "$(MICROPY_DIR)/mpy-cross" -j2
	$(MAKE) -C "$(MICROPY_DIR)/ports/rp2" BOARD_DIR="$(ROMFS_BOARD)" BUILD="$(UF2_BUILD)" \
		FROZEN_MANIFEST="$(ROMFS_BOARD)/manifest.py" -j2
	mkdir -p build
	$(PY) -m tools.deploy.romfs uf2 --firmware "$(UF2_BUILD)/firmware.uf2" --out $(UF2)
	@echo "wrote $(UF2): hold BOOTSEL while plugging the Pico in, then copy it onto RPI-RP2"

uf2-frozen: ## build/gin-rummy-pico-frozen.uf2: stock RPI_PICO with the game frozen in, no ROMFS (MICROPY_DIR=...)
	@$(NEED_MPY_SRC)
	@if [ -z "$(picotool_DIR)" ] && [ ! -d "$(UF2_FROZEN_BUILD)" ]; then \
		echo "note: without picotool_DIR=<picotool install>/picotool the pico-sdk clones picotool from GitHub (fails offline); see docs/RELEASING.md"; fi
	$(MAKE) -C "$(MICROPY_DIR)/mpy-cross" -j2
	$(MAKE) -C "$(MICROPY_DIR)/ports/rp2" BOARD=RPI_PICO BUILD="$(UF2_FROZEN_BUILD)" \
		FROZEN_MANIFEST="$(abspath manifest.py)" -j2
	@size=$$(stat -c %s "$(UF2_FROZEN_BUILD)/firmware.bin"); \
	if [ $$size -ge $(FS_OFFSET) ]; then \
		echo "firmware.bin is $$size bytes: it would overwrite the filesystem at $(FS_OFFSET)"; exit 1; fi; \
	echo "firmware $$size bytes, $$(( $(FS_OFFSET) - size )) bytes of flash left below the filesystem"
	mkdir -p build && cp "$(UF2_FROZEN_BUILD)/firmware.uf2" $(UF2_FROZEN)
	@echo "wrote $(UF2_FROZEN): hold BOOTSEL while plugging the Pico in, then copy it onto RPI-RP2"
# ---- end of the Pico block ----

# ---- releases (tools/deploy/release.py, docs/RELEASING.md) ----------------------
#   make release [DIST=dist] [ALLOW_DIRTY=1] [PICO_KIT=../shared/pico] [ACCEPT_LATENCY="why"]
#       dist/<version>/ from a clean checkout of HEAD: the .uf2, the .mpy bundle,
#       the CircuitPython and web zips, RELEASE and SHA256SUMS; the latency
#       bench against the previous release first (refused when slower,
#       unless ACCEPT_LATENCY gives the reason, which goes into CHANGELOG.md)
#   make verify-release
#       rebuilds the newest dist/*/ release's .uf2 from its commit: identical?
# PICO_KIT: the folder holding micropython-<MICROPY_VERSION>-rp2-src.tar.xz (unpacked once
# into build/pico-kit or ~/.cache/gin-rummy-pico; picotool is built there).
PICO_KIT ?= ../shared/pico
DIST ?= dist
ALLOW_DIRTY ?=
ACCEPT_LATENCY ?=

.PHONY: release verify-release
release: venv node_modules ## dist/<version>/ from a clean checkout of HEAD (docs/RELEASING.md)
	$(PY) -m tools.deploy.release release --dist "$(DIST)" --kit "$(PICO_KIT)" $(if $(ALLOW_DIRTY),--allow-dirty) $(if $(ACCEPT_LATENCY),--accept-latency "$(ACCEPT_LATENCY)")

verify-release: venv ## rebuild the newest dist/*/ release's .uf2 from its commit: identical or DIFFERENT
	$(PY) -m tools.deploy.release verify --dist "$(DIST)" --kit "$(PICO_KIT)"
# ---- end of releases ----
