#!/usr/bin/env node
// The CLI runs from the compiled library (npm ci builds it through the "prepare" script).
import { main } from '../dist/lib/cli/main.js';

let code;
try {
  code = main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`csi-flows: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  code = 1;
}
// Let stdout drain (large traces piped to another program) before exiting.
process.stdout.write('', () => process.exit(code));
