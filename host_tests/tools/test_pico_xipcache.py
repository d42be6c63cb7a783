"""The model of the RP2040's XIP flash cache (tools/pico/xipcache.mjs) on a
stand-in core: 16 KB, two ways of 1024 sets of 8-byte lines, the least
recently used way replaced, the four aliases' caching, a miss stalling the
instruction by MISS_CYCLES, a flash write flushing it all."""

import json
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
XIP = os.path.join(ROOT, "tools", "pico", "xipcache.mjs")

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node not found")

# A stand-in core: executeInstruction() makes the reads it is given (one
# instruction each) and takes 1 cycle; the answers are the cycles each took.
RUN = r"""
import { XipCache, MISS_CYCLES } from %(xip)r;
const core = {
  reads: [],
  readUint8(a) { return 0; }, readUint16(a) { return 0; }, readUint32(a) { return 0; },
  executeInstruction() { for (const [k, a] of this.reads) this['readUint' + k](a); return 1; },
};
const mcu = { core, onBreak: () => {} };
const xip = new XipCache(mcu);
const out = { miss: MISS_CYCLES, cycles: [] };
for (const step of %(steps)s) {
  if (step === 'flash') { mcu.onBreak(0); continue; }
  core.reads = step;
  out.cycles.push(core.executeInstruction());
}
out.stats = xip.stats;
console.log(JSON.stringify(out));
"""


def run(steps):
    js = RUN % {"xip": XIP, "steps": json.dumps(steps)}
    r = subprocess.run(["node", "--input-type=module", "-e", js], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def fetch(addr, size=16):
    return [[size, addr]]


F = 0x10000000        # the cacheable, allocating alias
WAY = 1024 * 8        # addresses this far apart fall in the same set


def test_a_miss_stalls_and_fills_the_line_then_it_hits():
    r = run([fetch(F + 0x100), fetch(F + 0x104, 32), fetch(F + 0x107, 8), fetch(F + 0x108)])
    m = r["miss"]
    assert m == 56                      # 28 SCK periods of 2 cycles (the module's derivation)
    assert r["cycles"] == [1 + m, 1, 1, 1 + m]
    assert r["stats"] == {"hits": 2, "misses": 2, "stallCycles": 2 * m}


def test_two_ways_a_set_and_the_least_recently_used_one_goes():
    a, b, c = F + 0x40, F + 0x40 + WAY, F + 0x40 + 2 * WAY
    r = run([fetch(a), fetch(b), fetch(a), fetch(c), fetch(a), fetch(b)])
    m = r["miss"]
    # a, b miss; a hits; c takes b's way (a was used last); a hits; b misses
    assert r["cycles"] == [1 + m, 1 + m, 1, 1 + m, 1, 1 + m]


def test_the_aliases_cache_as_the_datasheet_says():
    m = run([])["miss"]
    # 0x13: neither looks up nor fills; 0x11: looks up, never fills;
    # 0x12: never looks up, fills (the 0x10 alias then hits)
    r = run([fetch(0x13000200), fetch(0x13000200), fetch(0x11000300), fetch(0x11000300),
             fetch(0x12000400), fetch(0x12000400), fetch(F + 0x400), fetch(0x11000400)])
    assert r["cycles"] == [1 + m, 1 + m, 1 + m, 1 + m, 1 + m, 1 + m, 1, 1]


def test_sram_and_peripherals_do_not_touch_the_cache():
    r = run([fetch(0x20000000), [[32, 0x40014000]], fetch(0x00000100)])
    assert r["cycles"] == [1, 1, 1]
    assert r["stats"]["hits"] == 0 and r["stats"]["misses"] == 0


def test_a_flash_write_flushes_the_cache():
    m = run([])["miss"]
    r = run([fetch(F), fetch(F), "flash", fetch(F)])
    assert r["cycles"] == [1 + m, 1, 1 + m]


def test_several_misses_in_one_instruction_all_stall_it():
    m = run([])["miss"]
    r = run([[[16, F + 0x800], [32, F + 0x900]]])     # a fetch and a load, both cold
    assert r["cycles"] == [1 + 2 * m]
