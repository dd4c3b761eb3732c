#!/usr/bin/env node
// The CLI runs from the compiled library (npm ci builds it through the "prepare" script).
import { readFileSync, writeSync } from 'node:fs';
import { main, readStdin } from '../dist/lib/cli/main.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** A reader that went away (| head) ends the run quietly; any other failed write is an error. */
function writeFailed(e) {
  if (e.code === 'EPIPE') process.exit(0);
  process.stderr.write(`csi-flows: cannot write the output: ${e.message}\n`);
  process.exit(1);
}

// Standard output is written synchronously, as the output is made: process.stdout queues what a pipe
// cannot take yet in memory, and a 1000-replica JSON trace (300 MB) piped to a slower reader was held
// there whole (the run ran out of heap at a 400 MB limit). A full pipe on a non-blocking descriptor
// (EAGAIN) is waited for, a millisecond at a time.
const pause = new Int32Array(new SharedArrayBuffer(4));
function writeOut(s) {
  let buf = Buffer.from(s, 'utf8');
  while (buf.length > 0) {
    try {
      buf = buf.subarray(writeSync(1, buf));
    } catch (e) {
      if (e.code === 'EAGAIN') { Atomics.wait(pause, 0, 0, 1); continue; }
      writeFailed(e);
    }
  }
}

let code;
try {
  code = main(process.argv.slice(2), {
    out: writeOut,
    err: (s) => { process.stderr.write(s); },
    stdin: readStdin,
    stdinIsTTY: !!process.stdin.isTTY,
    version,
  });
} catch (e) {
  process.stderr.write(`csi-flows: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  code = 1;
}
process.exitCode = code;
