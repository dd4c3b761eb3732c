import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests run against the built site through test/e2e/run.mjs, not vitest.
    exclude: ['test/e2e/**', 'node_modules/**', 'dist/**'],
    testTimeout: 60_000,
  },
});
