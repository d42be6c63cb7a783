#!/usr/bin/env node
// Two emulated Picos joined by the link cable, in one process:
// tools/pico/two_picos.py starts it and talks JSON lines. Each board is a
// tools/pico/board.mjs Board (its own flash, display, buttons and console);
// the cable joins each board's link TX pin to the other's RX pin and GND.
//
// Arguments: --firmware F.uf2 --bootrom bootrom.{ts,mjs} [--fs0 A.bin]
// [--fs1 B.bin] [--fs-offset N] [--link-pins TX,RX (default 8,9)]
// [--flash-timing typical|zero].
//
// The wire. A byte the firmware writes to the UART's data register goes on
// the line when the pin is the UART's (GPIO function 2) and the line is
// free, and takes a character time (start bit, the data bits, parity,
// stop bits at the sending UART's baud: 87 us for 8N1 at 115200); it is
// put into the other board's receive FIFO at its last stop bit, if that
// board's RX pin is the UART's and the UART is enabled, else it is lost
// (`off`), and if the 32-byte FIFO is full it is lost too (`overrun`, as
// a PL011's overrun: the board was not reading, e.g. stalled in a flash
// write with its interrupts off). Not modelled: the two bauds' mismatch
// (the receiver takes each byte whatever its own baud), line noise and
// break conditions, the sender's TX FIFO filling (rp2040js sends a
// written byte at once: a write never waits for the line), flow control,
// and the second core (rp2040js runs core 0 only, as the game does).
//
// Time. Both boards power on at emulated 0 and run in turn, the one behind
// first, never more than one character time (or 1 ms while neither link
// UART is on) ahead of the other: a byte sent reaches the other board at
// its emulated time exactly, except while the receiver's clock jumped
// ahead in a flash write (its core stalled; the bytes then land at once
// when it runs again, counted `late`).
//
// Commands on stdin, one JSON object a line, answered in order:
//   {"op":"run","ms":M,"board":B,"text":"..."}  run both boards M ms, or
//                                until the text appears on board B's console
//   {"op":"pin","board":B,"gpio":G,"high":bool}  drive a button line
//   {"op":"type","board":B,"hex":"..."}          bytes typed on B's console
//   {"op":"quit"}
// Events on stdout as serve.mjs's, each with "b": the board (0 or 1); the
// answer: {"ev":"done","op":..,"t":[ns, ns],"why":..,"host_ms":..,"wire":..}.

import fs from 'node:fs';
import { emit, flush, serve } from './jsonlines.mjs';
import { Board } from './board.mjs';
import { FLASH_SIZE, loadUf2, parseBootrom } from './flash.mjs';

function args(argv) {
  const a = { 'flash-timing': 'typical', 'fs-offset': String(0xa0000), 'link-pins': '8,9' };
  for (let i = 0; i < argv.length; i += 2) a[argv[i].replace(/^--/, '')] = argv[i + 1];
  return a;
}

const UART_FUNC = 2; // GPIO function select of the UARTs
const OFF_STEP_MS = 1; // the step while neither link UART is on

/** One direction of the cable: `from`'s TX pin to `to`'s RX pin. */
class Wire {
  constructor(from, to, uart, txPin, rxPin, stats) {
    this.from = from;
    this.to = to;
    this.tx = from.mcu.uart[uart];
    this.rx = to.mcu.uart[uart];
    this.txPin = from.mcu.gpio[txPin];
    this.rxPin = to.mcu.gpio[rxPin];
    this.stats = stats;
    this.free = 0; // emulated ns the line is free again
    this.queue = []; // [arrival ns, byte]
    this.head = 0;
    this.alarm = to.mcu.clock.createAlarm(() => this._arrive());
    this.tx.onByte = (b) => this._send(b);
  }

  /** ns of one character at the sending UART's settings, or 0 if it is off. */
  charNs() {
    const u = this.tx;
    if (!u.enabled || !u.baudDivider) return 0;
    const lcr = u.lineCtrlRegister;
    const bits = 1 + u.wordLength + (lcr & 2 ? 1 : 0) + (lcr & 8 ? 2 : 1);
    return (bits * 1e9) / u.baudRate;
  }

  _send(b) {
    const ns = this.charNs();
    if (!ns || this.txPin.functionSelect !== UART_FUNC) {
      this.stats.unsent++;
      return;
    }
    const start = Math.max(this.from.nanos, this.free);
    this.free = start + ns;
    this.stats.sent++;
    this.queue.push([this.free, b]);
    if (this.queue.length - this.head === 1) this._schedule();
  }

  _schedule() {
    const at = this.queue[this.head][0];
    const now = this.to.nanos;
    if (at < now) this.stats.late++;
    this.alarm.schedule(Math.max(0, at - now));
  }

  _arrive() {
    const [, b] = this.queue[this.head++];
    if (this.head > 4096) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    const rx = this.rx;
    if (!rx.enabled || !rx.rxEnabled || this.rxPin.functionSelect !== UART_FUNC) {
      this.stats.off++;
    } else if (rx.rxFIFO.full) {
      this.stats.overrun++;
    } else {
      rx.feedByte(b);
      this.stats.received++;
    }
    if (this.head < this.queue.length) this._schedule();
  }
}

const opts = args(process.argv.slice(2));
const bootrom = parseBootrom(fs.readFileSync(opts.bootrom, 'utf8'));
const uf2 = fs.readFileSync(opts.firmware);
const [txPin, rxPin] = opts['link-pins'].split(',').map((x) => parseInt(x, 10));
const uartIndex = ((txPin + 4) >> 3) % 2; // as firmware/link/linkport.py's uart_of


const out = ['', ''];
const boards = [0, 1].map((i) => {
  const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
  const top = loadUf2(flash, uf2);
  const img = opts[`fs${i}`];
  if (img) {
    const at = Number(opts['fs-offset']);
    if (at < top) throw new Error(`the firmware (${top} bytes) runs into the filesystem at ${at}`);
    flash.set(fs.readFileSync(img), at);
  }
  return new Board({
    bootrom, flash, timing: opts['flash-timing'],
    events: (ev) => {
      if (ev.ev === 'out') {
        out[i] += ev.data;
        if (out[i].length > 65536) out[i] = out[i].slice(-8192);
      }
      ev.b = i;
      emit(ev);
    },
  });
});
const stats = [0, 1].map(() => ({ sent: 0, unsent: 0, received: 0, off: 0, overrun: 0, late: 0 }));
const wires = [
  new Wire(boards[0], boards[1], uartIndex, txPin, rxPin, stats[0]),
  new Wire(boards[1], boards[0], uartIndex, txPin, rxPin, stats[1]),
];

/** The longest a board may run ahead of the other: one character time. */
function step() {
  const ns = wires.map((w) => w.charNs()).filter((x) => x > 0);
  return ns.length ? Math.min(...ns) : OFF_STEP_MS * 1e6;
}

function run(untilNs, board, text) {
  const [a, b] = boards;
  if (text !== null) out[board] = '';
  while (Math.min(a.nanos, b.nanos) < untilNs) {
    const [x, y] = a.nanos <= b.nanos ? [a, b] : [b, a];
    x.run(Math.min(untilNs, y.nanos + step()));
    if (text !== null && out[board].includes(text)) return 'text';
  }
  return 'time';
}

function wireInfo() {
  return wires.map((w, i) => ({ ...stats[i], baud: w.tx.enabled ? w.tx.baudRate : 0 }));
}

function handle(cmd) {
  const host0 = process.hrtime.bigint();
  let why = 'ok';
  const board = boards[cmd.board ?? 0];
  switch (cmd.op) {
    case 'run':
      why = run(Math.max(...boards.map((x) => x.nanos)) + cmd.ms * 1e6, cmd.board ?? 0,
                cmd.text ?? null);
      break;
    case 'pin':
      board.setPin(cmd.gpio, cmd.high);
      break;
    case 'type':
      board.type(Buffer.from(cmd.hex, 'hex'));
      break;
    case 'quit':
      flush();
      process.exit(0);
      break;
    default:
      why = 'unknown op';
  }
  const hostMs = Number(process.hrtime.bigint() - host0) / 1e6;
  emit({ ev: 'done', op: cmd.op, t: boards.map((x) => x.nanos), why, host_ms: hostMs,
         wire: wireInfo() });
  flush();
}

serve(handle);
