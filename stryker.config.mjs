// npm run mutate: StrykerJS over the safety checker and the three machines that carry every flow.
// A script, not part of CI (it takes a while). The log catalogs (*.messages.ts) are data the golden
// traces pin line by line; mutating their strings would only measure that again.
// MUTATE_SAMPLE=0.15 npm run mutate: a seeded 15% sample of the mutants (scripts/stryker-sample-checker.mjs).
const sample = process.env.MUTATE_SAMPLE;
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...(sample ? {
    checkers: ['sample'],
    plugins: ['@stryker-mutator/*', './scripts/stryker-sample-checker.mjs'],
    incrementalFile: `reports/stryker-incremental-sample-${sample}.json`,
  } : {}),
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  mutate: [
    'src/machines/checks/**/*.ts',
    'src/machines/kubelet/**/*.ts',
    'src/machines/attach-detach-controller/**/*.ts',
    'src/machines/external-attacher/**/*.ts',
    '!src/machines/**/*.messages.ts',
    '!src/machines/**/*.messages.zh.ts',
    '!src/machines/**/index.ts',
    '!src/machines/**/*.types.ts',
    '!src/machines/attach-detach-controller/types.ts',
  ],
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  thresholds: { high: 80, low: 70, break: null },
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 2),
  timeoutMS: 30_000,
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['dist', 'reports', 'test-results', '.astro', 'public'],
};
