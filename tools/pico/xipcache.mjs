// A model of the RP2040's XIP flash cache for rp2040js, which runs the
// flash at zero wait states: every read of the flash (an instruction
// fetch, a load of frozen bytecode or of a constant table) is looked up
// in a 16 KB, two-way set-associative cache of 8-byte lines, and a miss
// stalls the core for the serial read that fills the line.
//
// The chip's figures, from the RP2040 datasheet (section 2.6.3, "Flash"):
// - 2.6.3.1 XIP Cache: "The cache is 16 kB, two way set-associative,
//   1 cycle hit" (rp2040js already counts that one cycle for a flash read);
//   the 0x10... alias is cacheable and allocating, 0x11... cacheable and
//   not allocating, 0x12... not cacheable but allocating, 0x13... neither.
// - 2.6.3.2 Cache Flushing and Maintenance: the flush takes "just over 1024
//   clock cycles (16 kB total size / 8 bytes per line / 2 ways per set)":
//   1024 sets of two 8-byte lines.
// - 2.6.3 (the note on the SSI): "The serial flash interface is
//   configured by the flash second stage ... to run at an integer divider
//   of the system clock" (PICO_FLASH_SPI_CLKDIV).
// A miss is one serial read of the line in the mode the second stage sets
// up. The Pico's (pico-sdk boards/pico.h: boot2_w25q080, CLKDIV 2, so SCK
// at 62.5 MHz of 125) is the W25Q080 Fast Read Quad I/O in continuous read
// mode (boot2_w25q080.S: no command, ADDR_L 8 = 24 address bits and 8 mode
// bits over the four lines, WAIT_CYCLES 4): 8 + 4 clocks, then the 64 bits
// of the line over four lines, 16 clocks; 28 SCK periods of 2 system
// cycles: 56 cycles (MISS_CYCLES). The SSI's own few cycles around a
// transfer (chip select, the 1-cycle RX sample delay) are left out, so the
// model errs on the fast side.
//
// Replacement within a set: least recently used (the datasheet does not
// say; with two ways it is the usual choice). The boot ROM's flash erase
// and program (tools/pico/flash.mjs) are followed on the chip by
// flash_flush_cache(): the whole cache is invalidated here after each.
// Reads of the boot ROM, the SRAM and the peripherals are not affected.
//
//   import { XipCache } from './xipcache.mjs';
//   const xip = new XipCache(board.mcu);   // installed: the core stalls on misses
//   xip.stats                              // { hits, misses, stallCycles }

export const SETS = 1024;
export const LINE_BYTES = 8;
export const MISS_CYCLES = 56;

const XIP_BASE = 0x10000000;
const XIP_END = 0x14000000; // the four aliases above; 0x14... is XIP_CTRL

export class XipCache {
  constructor(mcu, { missCycles = MISS_CYCLES } = {}) {
    this.missCycles = missCycles;
    // per set: way 0 and way 1 tags (-1 empty), and the way used last
    this.tags = new Int32Array(SETS * 2).fill(-1);
    this.last = new Uint8Array(SETS);
    this.stall = 0; // cycles of misses in the instruction being executed
    this.stats = { hits: 0, misses: 0, stallCycles: 0 };
    this._install(mcu);
  }

  /** Look up the line of flash address `address`; a miss stalls. */
  access(address) {
    const alias = (address >>> 24) & 3;
    const line = (address & 0xffffff) >>> 3;
    const set = line & (SETS - 1);
    const tag = line >>> 10;
    const tags = this.tags;
    const i = set << 1;
    if (alias < 2) {
      if (tags[i] === tag) {
        this.last[set] = 0;
        this.stats.hits++;
        return;
      }
      if (tags[i + 1] === tag) {
        this.last[set] = 1;
        this.stats.hits++;
        return;
      }
    }
    this.stats.misses++;
    this.stall += this.missCycles;
    if (alias === 0 || alias === 2) {
      const way = this.last[set] ^ 1; // the least recently used one
      tags[i + way] = tag;
      this.last[set] = way;
    }
  }

  /** Invalidate every line (flash_flush_cache after a flash write). */
  flush() {
    this.tags.fill(-1);
  }

  _install(mcu) {
    const core = mcu.core;
    const xip = this;
    const inFlash = (a) => a >= XIP_BASE && a < XIP_END;
    for (const name of ['readUint8', 'readUint16', 'readUint32']) {
      const read = core[name];
      core[name] = function readThroughCache(address) {
        const a = address >>> 0;
        if (inFlash(a)) {
          xip.access(a);
          // a halfword or word never straddles a line (they are aligned)
        }
        return read.call(this, address);
      };
    }
    const execute = core.executeInstruction;
    core.executeInstruction = function executeWithStalls() {
      const cycles = execute.call(this);
      const stall = xip.stall;
      if (stall) {
        xip.stall = 0;
        xip.stats.stallCycles += stall;
        return cycles + stall;
      }
      return cycles;
    };
    const onBreak = mcu.onBreak;
    if (onBreak) {
      mcu.onBreak = (code) => {
        onBreak(code);
        xip.flush(); // the ROM's erase and program end with a cache flush
      };
    }
  }
}
