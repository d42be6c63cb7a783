// An emulated Raspberry Pi Pico (rp2040js) wired as the handheld: the
// firmware .uf2 and the littlefs image in flash, the display on I2C0 (or
// another block and pins: `bus`), six buttons on GP10-GP15 (switches to
// GND: pressed = low, released = the pin's pull), the BOOTSEL button, the
// on-board LED on GP25, and the USB CDC serial console. Time is emulated: 8 ns a CPU cycle at 125 MHz, and while
// the core sleeps (WFI/WFE) the clock jumps to the next timer alarm.
//
// rp2040js treats flash as zero-wait memory (no XIP cache or QSPI model), so
// code runs faster than on a real Pico (10-40% in our measurement).

import { GPIOPinState, RP2040, USBCDC } from 'rp2040js';
import { FLASH_SIZE, TIMING, hookFlashWrites, loadUf2 } from './flash.mjs';
import { I2CDisplayBus } from './i2c_bus.mjs';

const CYCLE_NS = 8;
const UARTDR = 0x0;
const UARTTXINTR = 1 << 5;

/** A PL011's transmit interrupt as the chip raises it: when the TX FIFO
 * drains to its trigger level (in rp2040js a written byte leaves at once,
 * so: after each write) and until UARTICR clears it. rp2040js 1.4.1 raises
 * it again at every interrupt check, so the rp2 port's UART driver, which
 * enables it (machine_uart.c), is interrupted forever once a UART is open:
 * the board hangs. */
function fixTxInterrupt(uart) {
  uart.checkInterrupts = function checkInterrupts() {
    this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
  };
  const write = uart.writeUint32;
  uart.writeUint32 = function writeUint32(offset, value) {
    write.call(this, offset, value);
    if (offset === UARTDR) {
      this.interruptStatus |= UARTTXINTR;
      this.checkInterrupts();
    }
  };
}

export class Board {
  /** flash: a FLASH_SIZE Uint8Array to boot from (kept: it is the chip). */
  constructor({ bootrom, flash, display = [0x3c], timing = 'typical', events,
                bus = { index: 0, sda: 4, scl: 5 }, floating = [] }) {
    this.events = events; // (object) => void: what the harness reports
    const mcu = new RP2040();
    mcu.loadBootrom(bootrom); // also fills mcu.flash with 0xFF
    mcu.flash.set(flash.subarray(0, FLASH_SIZE));
    mcu.logger = { debug() {}, info() {}, warn() {}, error: (_c, m) => this.events({ ev: 'log', msg: m }) };
    this.mcu = mcu;
    for (const uart of mcu.uart) fixTxInterrupt(uart);
    this.stats = { erases: 0, pages: 0, busyNs: 0 };
    this.flashHook = hookFlashWrites(mcu, TIMING[timing], this.stats, (op, at, n, t0, t1) =>
      this.events({ ev: 'flash', op, at, n, t0, t: t1 }));
    this.bus = new I2CDisplayBus(mcu, { addresses: display, ...bus });
    this.bus.onTransaction = (addr, bytes, t0, t1) =>
      this.events({ ev: 'i2c', t0, t: t1, addr, data: Buffer.from(bytes).toString('hex') });
    for (let g = 0; g < 30; g++) {
      if (g !== bus.sda && g !== bus.scl) mcu.gpio[g].setInputValue(g >= 10 && g <= 15);
    }
    // The buttons (GP10-GP15) are switches to GND: a pressed one pulls its
    // pin low; a released one leaves it floating, so the pin reads its own
    // pull: low with a pull-down (firmware/main.py reads A both ways at
    // power-on), high otherwise. rp2040js gives an input the level it is
    // set to whatever its pulls, so _buttons() follows the pulls.
    // The on-board LED (GP25 on a Pico): each change of the driven level
    // is reported ({ev:'led'}); an undriven pin counts as off.
    this.led = false;
    mcu.gpio[25].addListener((state) => {
      const on = state === GPIOPinState.High;
      if (on !== this.led) {
        this.led = on;
        this.events({ ev: 'led', t: mcu.clock.nanos, on });
      }
    });
    // BOOTSEL: the button pulls the flash's chip select (QSPI SS) low,
    // which rp2.bootsel_button() reads; released, its pull-up holds it high.
    // The pad as the chip leaves reset (input enabled, pull-up: 0x5a); the
    // boot ROM, which would set it so, is skipped here.
    mcu.qspi[1].padValue = 0x5a;
    mcu.qspi[1].setInputValue(true);
    this.pressed = new Set();
    this.buttonLevel = new Map();
    for (let g = 10; g <= 15; g++) this.buttonLevel.set(g, true);
    // `floating`: other GPIOs with nothing wired, read as their pull too
    // (the others read low: no I2C pair is probed there)
    for (const g of floating) {
      this.buttonLevel.set(g, false);
      mcu.gpio[g].setInputValue(false);
    }
    this.cdc = new USBCDC(mcu.usbCtrl);
    this.connected = false;
    this.cdc.onDeviceConnected = () => {
      this.connected = true;
      this.events({ ev: 'usb', t: mcu.clock.nanos });
    };
    this.cdc.onSerialData = (buf) => this._serial(buf);
    // A real host NAKs the OUT endpoint while it has nothing to send;
    // rp2040js answers at once with an empty packet, which keeps the USB
    // stack (and the core) busy forever. Hold the read until a byte is typed.
    const usb = this.cdc.usb;
    const read = usb.onEndpointRead;
    this._heldRead = null;
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint === this.cdc.outEndpoint && this.cdc.txFIFO.empty && !this.typed.length) {
        this._heldRead = () => read(endpoint, size);
        return;
      }
      read(endpoint, size);
    };
    this.typed = []; // console bytes not yet in the CDC FIFO
    this.out = ''; // console text since the last wait matched
    this.waitFor = null;
    mcu.core.PC = 0x10000000;
  }

  get nanos() {
    return this.mcu.clock.nanos;
  }

  _serial(buf) {
    const text = Buffer.from(buf).toString('latin1');
    this.events({ ev: 'out', t: this.nanos, data: text });
    if (this.waitFor !== null) {
      this.out += text;
      this.fresh = true;
    }
  }

  type(bytes) {
    for (const b of bytes) this.typed.push(b);
  }

  setPin(gpio, high) {
    if (this.buttonLevel.has(gpio)) {
      if (high) this.pressed.delete(gpio);
      else this.pressed.add(gpio);
      this._buttons();
      return;
    }
    this.mcu.gpio[gpio].setInputValue(high);
  }

  /** BOOTSEL pressed (true) or released. */
  bootsel(down) {
    this.mcu.qspi[1].setInputValue(!down);
  }

  _buttons() {
    for (const [g, was] of this.buttonLevel) {
      const pin = this.mcu.gpio[g];
      const level = this.pressed.has(g) ? false : !(pin.pulldownEnabled && !pin.pullupEnabled);
      if (level !== was) {
        this.buttonLevel.set(g, level);
        pin.setInputValue(level);
      }
    }
  }

  _feed() {
    const fifo = this.cdc.txFIFO;
    while (this.typed.length && !fifo.full) fifo.push(this.typed.shift());
    const held = this._heldRead;
    if (held && !fifo.empty) {
      this._heldRead = null;
      held();
    }
  }

  /** Run until emulated `untilNs`, or until `text` has appeared on the
   * console (then 'text'), or a power cut. Returns why it stopped. */
  run(untilNs, text = null) {
    const mcu = this.mcu;
    const core = mcu.core;
    const clock = mcu.clock;
    const hook = this.flashHook;
    this.waitFor = text;
    this.out = '';
    if (hook.cutAt < untilNs) untilNs = hook.cutAt;
    let why = 'time';
    let found = false;
    const seen = () => {
      // the console text asked for has appeared (checked when new text came)
      if (this.fresh) {
        this.fresh = false;
        if (this.out.length > 65536) this.out = this.out.slice(-8192);
        found = this.out.includes(text);
      }
      return found;
    };
    while (clock.nanos < untilNs) {
      if (this.typed.length && this.connected) this._feed();
      if (core.waiting) {
        if (text !== null && seen()) break;
        const dt = clock.nanosToNextAlarm;
        const left = untilNs - clock.nanos;
        clock.tick(dt > 0 && dt < left ? dt : left);
      }
      for (let i = 0; i < 4096 && !core.waiting; i++) {
        // clock.tick() inlined: only called when an alarm is due
        const t = clock.nanosCounter + core.executeInstruction() * CYCLE_NS;
        const alarm = clock.nextAlarm;
        if (alarm !== null && alarm.nanos <= t) clock.tick(t - clock.nanosCounter);
        else clock.nanosCounter = t;
        if (t >= untilNs || hook.cut) break;
      }
      this._buttons();
      if (hook.cut) {
        why = 'cut';
        break;
      }
      if (text !== null && seen()) {
        why = 'text';
        break;
      }
    }
    if (clock.nanos >= hook.cutAt) why = 'cut';
    this.waitFor = null;
    return why;
  }

  /** The flash as it is now (a power cut keeps exactly this). */
  flash() {
    return this.mcu.flash.slice(0, FLASH_SIZE);
  }
}
