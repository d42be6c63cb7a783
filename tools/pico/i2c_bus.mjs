// I2C0 of the emulated Pico with a display on it, as the harness sees it.
//
// Hardware transfers (machine.I2C.writeto) come through rp2040js's RPI2C
// hooks. Each byte takes its 9 bit times on the bus (from the SCL periods the
// firmware programmed and clk_peri), so a frame costs what it costs on the
// wire. The bytes of every write transaction are reported raw, with the
// emulated time of its stop, to `onTransaction(addr, bytes, tStartNs,
// tEndNs)`; the harness's Python side decodes them with tools/sim/ssd1306_emu.py
// (the one SSD1306 decoder of the project).
//
// machine.I2C.scan() sends zero-length probes that the rp2 port bit-bangs on
// the pins, so SDA and SCL are also modelled as open-drain lines with
// pull-ups: a line reads high unless the Pico or the display pulls it low,
// and the display pulls SDA low to acknowledge its own address.

import { I2CMode } from 'rp2040js';

const PIN_LOW = 0; // GPIOPinState.Low: the pin drives the line low

export class I2CDisplayBus {
  constructor(mcu, { index = 0, sda = 4, scl = 5, addresses = [0x3c] } = {}) {
    this.mcu = mcu;
    this.i2c = mcu.i2c[index];
    this.addresses = new Set(addresses);
    this.onTransaction = null;
    this.transactions = 0;
    this.bytes = 0;
    this._addr = -1;
    this._data = [];
    this._t0 = 0;
    this._alarm = mcu.clock.createAlarm(() => this._fire());
    this._pending = null;
    this._hardware();
    this._pins(sda, scl);
  }

  _bitNs() {
    // SCL low + high counts are in clk_peri cycles. The Pico's firmware
    // runs clk_peri from clk_sys (125 MHz: 400 kHz is 187 + 126 counts);
    // rp2040js 1.4.1 works out 48 MHz from the clock registers, so clk_sys
    // is used here.
    const i2c = this.i2c;
    const cycles = i2c.sclLowPeriod + i2c.sclHighPeriod;
    return cycles > 0 ? (cycles * 1e9) / this.mcu.clkSys : 2500;
  }

  _later(bits, fn) {
    this._pending = fn;
    this._alarm.schedule(bits * this._bitNs());
  }

  _fire() {
    const fn = this._pending;
    this._pending = null;
    if (fn) fn();
  }

  _hardware() {
    const i2c = this.i2c;
    i2c.onStart = () => {
      if (this._addr < 0) this._t0 = this.mcu.clock.nanos;
      this._later(1, () => i2c.completeStart());
    };
    i2c.onConnect = (address, mode) => {
      const ack = this.addresses.has(address);
      this._addr = ack && mode === I2CMode.Write ? address : -1;
      this._data = [];
      this._later(9, () => i2c.completeConnect(ack));
    };
    i2c.onWriteByte = (value) => {
      this._data.push(value);
      this._later(9, () => i2c.completeWrite(true));
    };
    i2c.onReadByte = () => this._later(9, () => i2c.completeRead(0));
    i2c.onStop = () => {
      this._later(1, () => {
        if (this._addr >= 0) {
          this.transactions++;
          this.bytes += 1 + this._data.length;
          if (this.onTransaction) {
            this.onTransaction(this._addr, this._data, this._t0, this.mcu.clock.nanos);
          }
        }
        this._addr = -1;
        this._data = [];
        i2c.completeStop();
      });
    };
  }

  // -- the bit-banged probes of scan() -----------------------------------
  _pins(sdaIndex, sclIndex) {
    const sda = this.mcu.gpio[sdaIndex];
    const scl = this.mcu.gpio[sclIndex];
    this._sdaPin = sda;
    this._sclPin = scl;
    this._ackLow = false; // the display pulls SDA low (ACK)
    this._sda = true;
    this._scl = true;
    this._bits = -1; // bits of the address byte so far; -1 outside a probe
    this._byte = 0;
    sda.setInputValue(true);
    scl.setInputValue(true);
    sda.addListener(() => this._lines());
    scl.addListener(() => this._lines());
  }

  _lines() {
    const sdaNow = this._sdaPin.value !== PIN_LOW && !this._ackLow;
    const sclNow = this._sclPin.value !== PIN_LOW;
    const sdaWas = this._sda;
    const sclWas = this._scl;
    this._sda = sdaNow;
    this._scl = sclNow;
    this._sdaPin.setInputValue(sdaNow);
    this._sclPin.setInputValue(sclNow);
    if (sclNow && sclWas && sdaWas !== sdaNow) {
      // SDA changing while SCL is high: START (falling) or STOP (rising)
      this._bits = sdaNow ? -1 : 0;
      this._byte = 0;
      this._release();
      return;
    }
    if (this._bits < 0) return;
    if (sclNow && !sclWas && this._bits < 8) {
      this._byte = (this._byte << 1) | (sdaNow ? 1 : 0);
      this._bits++;
    } else if (!sclNow && sclWas) {
      if (this._bits === 8) {
        if (this.addresses.has(this._byte >> 1)) {
          this._ackLow = true;
          this._lines();
        }
        this._bits = 9;
      } else if (this._bits === 9) {
        this._release();
        this._bits = -1; // a probe sends nothing more than its address
      }
    }
  }

  _release() {
    if (this._ackLow) {
      this._ackLow = false;
      this._lines();
    }
  }
}
