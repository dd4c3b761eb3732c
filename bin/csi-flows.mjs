#!/usr/bin/env node
// The CLI runs from the compiled library (npm ci builds it through the "prepare" script).
import { readFileSync } from 'node:fs';
import { main, readStdin } from '../dist/lib/cli/main.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// A write that fails (a full disk, /dev/full) is an error; a reader that went away (| head) is not.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  process.stderr.write(`csi-flows: cannot write the output: ${e.message}\n`);
  process.exit(1);
});

let code;
try {
  code = main(process.argv.slice(2), {
    out: (s) => { process.stdout.write(s); },
    err: (s) => { process.stderr.write(s); },
    stdin: readStdin,
    stdinIsTTY: !!process.stdin.isTTY,
    version,
  });
} catch (e) {
  process.stderr.write(`csi-flows: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  code = 1;
}
// Let stdout drain (large traces piped to another program) before exiting.
process.stdout.write('', (e) => {
  if (e && e.code === 'EPIPE') process.exit(code);
  if (e) process.stderr.write(`csi-flows: cannot write the output: ${e.message}\n`);
  process.exit(e ? 1 : code);
});
