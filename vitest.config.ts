import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests run against the built site through test/e2e/run.mjs, not vitest.
    exclude: ['test/e2e/**', 'node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    // the property tests are CPU-bound: use every core (the default leaves one idle)
    maxWorkers: Math.max(2, availableParallelism()),
    // Test files share a worker's modules instead of importing the machines again per file: the
    // simulation's code then runs warm in every file after the first (the whole run: 275 s -> 208 s
    // here). No test file relies on fresh module state: the suite passes with the files shuffled.
    isolate: false,
  },
});
