// The Pico's 2 MB QSPI flash for rp2040js: loading a .uf2, and the boot
// ROM's flash_range_erase / flash_range_program carried out on mcu.flash, so
// the littlefs filesystem is writable and a power cut can fall inside a write.
//
// rp2040js has no model of the flash chip's commands. MicroPython erases and
// programs through the boot ROM's function table (codes 'R','E' and 'R','P'),
// so the two entry points are replaced by a BKPT; when the core stops there
// the operation is done here and the core returns to the caller (PC = LR).
// Each operation takes the chip's typical time (W25Q16JV datasheet: 45 ms a
// 4 KB sector erase, 0.4 ms a 256-byte page program) in emulated time, with
// the core stalled as on the real board (XIP is off during the write). A
// power cut inside that time leaves what the chip would: the pages
// programmed so far, the sectors erased so far, and the sector being erased
// half erased.

export const FLASH_SIZE = 2 * 1024 * 1024;
export const XIP_BASE = 0x10000000;
const SECTOR = 4096;
const PAGE = 256;

export const TIMING = {
  typical: { eraseNs: 45e6, pageNs: 0.4e6 },
  zero: { eraseNs: 0, pageNs: 0 },
};

/** Parse a .uf2 (512-byte blocks: target address at 12, length at 16,
 * payload at 32) into mcu.flash. Returns the highest flash offset written. */
export function loadUf2(flash, data) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let top = 0;
  for (let off = 0; off + 512 <= data.length; off += 512) {
    if (view.getUint32(off, true) !== 0x0a324655 || view.getUint32(off + 4, true) !== 0x9e5d5157) {
      throw new Error(`not a UF2 block at byte ${off}`);
    }
    const addr = view.getUint32(off + 12, true);
    const len = view.getUint32(off + 16, true);
    const at = addr - XIP_BASE;
    if (at < 0 || at + len > FLASH_SIZE) throw new Error(`UF2 block outside flash: 0x${addr.toString(16)}`);
    flash.set(data.subarray(off + 32, off + 32 + len), at);
    top = Math.max(top, at + len);
  }
  return top;
}

/** The 4096 words of the boot ROM from rp2040js's demo/bootrom.ts (or a
 * copy of it as a .mjs): the numbers of its `new Uint32Array([...])`. */
export function parseBootrom(text) {
  const body = text.slice(text.indexOf('['), text.lastIndexOf(']'));
  const words = body.match(/0x[0-9a-fA-F]+|\d+/g).map((w) => Number(w) >>> 0);
  if (words.length !== 4096) throw new Error(`boot ROM: ${words.length} words, expected 4096`);
  return Uint32Array.from(words);
}

function romFunctions(bootrom) {
  const bytes = new Uint8Array(bootrom.buffer, bootrom.byteOffset, bootrom.byteLength);
  const u16 = (a) => bytes[a] | (bytes[a + 1] << 8);
  const table = {};
  for (let p = u16(0x14); u16(p) !== 0; p += 4) {
    table[String.fromCharCode(u16(p) & 0xff, u16(p) >> 8)] = u16(p + 2) & ~1;
  }
  return table;
}

/** Trap the ROM's erase and program on `mcu` (after loadBootrom), with the
 * chip's `timing`; counts go into `stats`, and onOp(kind, offset, bytes,
 * startNs, endNs) hears of each operation. Returns the hook: set its cutAt
 * (emulated ns) for a power cut, and `cut` tells that it happened. */
export function hookFlashWrites(mcu, timing, stats, onOp = null) {
  const funcs = romFunctions(mcu.bootrom);
  const erase = funcs.RE;
  const program = funcs.RP;
  if (erase === undefined || program === undefined) throw new Error('boot ROM without flash functions');
  const rom = mcu.bootrom;
  const patch = (addr) => {
    const w = addr >> 2;
    rom[w] = addr & 2 ? (rom[w] & 0xffff) | (0xbe00 << 16) : (rom[w] & 0xffff0000) | 0xbe00;
  };
  patch(erase);
  patch(program);
  const hook = {
    cutAt: Infinity, // emulated ns of a power cut, set by the board
    cut: false,
  };
  mcu.onBreak = (code) => {
    const core = mcu.core;
    const pc = (core.PC - 2) >>> 0;
    const r = core.registers;
    const start = mcu.clock.nanos;
    let units;
    let unitNs;
    let apply;
    const kind = pc === erase ? 'erase' : 'program';
    if (pc === erase) {
      const off = r[0] >>> 0;
      const count = r[1] >>> 0;
      units = Math.ceil(count / SECTOR);
      unitNs = timing.eraseNs;
      apply = (i, partial) => {
        const a = off + i * SECTOR;
        mcu.flash.fill(0xff, a, a + (partial ? SECTOR / 2 : SECTOR));
      };
      stats.erases += units;
    } else if (pc === program) {
      const off = r[0] >>> 0;
      const src = r[1] >>> 0;
      const count = r[2] >>> 0;
      units = Math.ceil(count / PAGE);
      unitNs = timing.pageNs;
      apply = (i, partial) => {
        if (partial) return; // a page being programmed when the power goes: left as it was
        const end = Math.min(count, (i + 1) * PAGE);
        for (let k = i * PAGE; k < end; k++) mcu.flash[off + k] &= mcu.readUint8(src + k);
      };
      stats.pages += units;
    } else {
      throw new Error(`breakpoint ${code} at 0x${pc.toString(16)}`);
    }
    if (onOp) onOp(kind, r[0] >>> 0, r[pc === erase ? 1 : 2] >>> 0, start, start + units * unitNs);
    for (let i = 0; i < units; i++) {
      const done = start + (i + 1) * unitNs;
      if (done > hook.cutAt) {
        apply(i, true);
        hook.cut = true;
        return;
      }
      apply(i, false);
    }
    if (units * unitNs > 0) mcu.clock.tick(units * unitNs);
    stats.busyNs += units * unitNs;
    core.PC = core.LR & ~1;
  };
  return hook;
}
