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
  },
});
