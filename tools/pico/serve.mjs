#!/usr/bin/env node
// The emulated Pico as a process: tools/pico/harness.py starts it and talks
// JSON lines. Arguments: --firmware F.uf2 --bootrom bootrom.{ts,mjs}
// [--fs image.bin --fs-offset N] [--display 3c,3d|none] [--flash-timing
// typical|zero] [--display-bus ID,SDA,SCL] [--floating G,G,...].
//
// Commands on stdin, one JSON object a line, answered in order:
//   {"op":"run","ms":M,"text":"..."}   run M ms of emulated time, or until the
//                                       text appears on the console
//   {"op":"pin","gpio":G,"high":bool}   drive a button line
//   {"op":"bootsel","down":bool}        press or release BOOTSEL
//   {"op":"type","hex":"..."}          bytes typed on the serial console
//   {"op":"cut","ms":M}                 a power cut M ms from now (the next
//                                       run stops there, even inside a write)
//   {"op":"boot"}                       power on again from the flash as it is
//   {"op":"flash","path":P}             write the 2 MB flash to P
//   {"op":"peek","at":A,"n":N}          read N bytes of SRAM from address A
//                                       (the answer's "data", hex)
//   {"op":"quit"}
// Events on stdout, one JSON object a line, times in emulated ns since the
// current power-on ({"boot":n} counts power-ons):
//   {"ev":"out","t":..,"data":".."}      console output (latin-1 text)
//   {"ev":"i2c","t0":..,"t":..,"addr":..,"data":"hex"}   a write transaction
//   {"ev":"usb","t":..}                  the console is connected
//   {"ev":"led","t":..,"on":bool}        the on-board LED (GP25) changed
//   {"ev":"flash","op":"erase"|"program","at":..,"n":..,"t0":..,"t":..}
//   {"ev":"done","op":..,"t":..,"why":..,...}          a command finished
//                                       (with --xip-cache: "xip", the cache's
//                                       hits, misses, stallCycles this power-on)

import fs from 'node:fs';
import { emit, flush, serve } from './jsonlines.mjs';
import { Board } from './board.mjs';
import { FLASH_SIZE, loadUf2, parseBootrom } from './flash.mjs';
import { MISS_CYCLES, XipCache } from './xipcache.mjs';

function args(argv) {
  const a = { display: '3c', 'flash-timing': 'typical', 'fs-offset': String(0xa0000) };
  for (let i = 0; i < argv.length; i += 2) a[argv[i].replace(/^--/, '')] = argv[i + 1];
  return a;
}

const opts = args(process.argv.slice(2));
const bootrom = parseBootrom(fs.readFileSync(opts.bootrom, 'utf8'));
let flash = new Uint8Array(FLASH_SIZE).fill(0xff);
const top = loadUf2(flash, fs.readFileSync(opts.firmware));
if (opts.fs) {
  const img = fs.readFileSync(opts.fs);
  const at = Number(opts['fs-offset']);
  if (at < top) throw new Error(`the firmware (${top} bytes) runs into the filesystem at ${at}`);
  flash.set(img, at);
}
const display = opts.display === 'none' ? [] : opts.display.split(',').map((x) => parseInt(x, 16));
// --display-bus ID,SDA,SCL: the display on another I2C block and pins (default 0,4,5)
const [busIndex, sda, scl] = (opts['display-bus'] ?? '0,4,5').split(',').map((x) => parseInt(x, 10));
// --floating G,G,...: GPIOs with nothing wired, read as their pull (default none)
const floating = (opts.floating ?? '').split(',').filter((x) => x).map((x) => parseInt(x, 10));
// --xip-cache on: flash reads through the XIP cache model, a miss stalling the core
const xipCache = opts['xip-cache'] === 'on';
const missCycles = Number(opts['xip-miss-cycles'] ?? MISS_CYCLES);


let boots = 0;
let board = null;
function powerOn() {
  boots++;
  board = new Board({ bootrom, flash, display, timing: opts['flash-timing'], events: emit,
                      bus: { index: busIndex, sda, scl }, floating });
  board.xip = xipCache ? new XipCache(board.mcu, { missCycles }) : null;
}
powerOn();

function handle(cmd) {
  const host0 = process.hrtime.bigint();
  let why = 'ok';
  const extra = {};
  switch (cmd.op) {
    case 'run':
      why = board.run(board.nanos + cmd.ms * 1e6, cmd.text ?? null);
      if (why === 'cut') flash = board.flash();
      break;
    case 'pin':
      board.setPin(cmd.gpio, cmd.high);
      break;
    case 'bootsel':
      board.bootsel(cmd.down);
      break;
    case 'type':
      board.type(Buffer.from(cmd.hex, 'hex'));
      break;
    case 'cut':
      board.flashHook.cutAt = board.nanos + cmd.ms * 1e6;
      break;
    case 'boot':
      flash = board.flash();
      powerOn();
      break;
    case 'flash':
      fs.writeFileSync(cmd.path, board.flash());
      break;
    case 'peek': {
      const off = cmd.at - 0x20000000;
      extra.data = Buffer.from(board.mcu.sram.subarray(off, off + cmd.n)).toString('hex');
      break;
    }
    case 'quit':
      flush();
      process.exit(0);
      break;
    default:
      why = 'unknown op';
  }
  const hostMs = Number(process.hrtime.bigint() - host0) / 1e6;
  const done = { ev: 'done', op: cmd.op, t: board.nanos, boot: boots, why, host_ms: hostMs,
                 flash: board.stats };
  if (board.xip) done.xip = board.xip.stats;
  Object.assign(done, extra);
  emit(done);
  flush();
}

serve(handle);
