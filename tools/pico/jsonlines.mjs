// The emulator processes' JSON lines (tools/pico/serve.mjs, two_picos.mjs):
// events go out to stdout in batches, commands come in from stdin one JSON
// object a line, each answered by `handle` in order; stdin closed, the
// process ends.
import fs from 'node:fs';
import readline from 'node:readline';

const lines = [];

export function emit(obj) {
  lines.push(JSON.stringify(obj));
  if (lines.length >= 256) flush();
}

export function flush() {
  if (lines.length) {
    fs.writeSync(1, lines.join('\n') + '\n');
    lines.length = 0;
  }
}

export function serve(handle) {
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    if (line.trim()) handle(JSON.parse(line));
  });
  rl.on('close', () => {
    flush();
    process.exit(0);
  });
}
