/**
 * The tests `npm run mutate` runs against each mutant: every test that drives the checker, the
 * kubelet, the attach/detach controller or the external-attacher in-process (unit, harness, golden,
 * seed 000, own scenarios, checker). Left out: the property tests (minutes per run), the explainer's
 * and the site's tests (they read the catalog and traces the tests here pin already), and the CLI and
 * consumer tests, which run the compiled dist/ that the mutants never touch.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** Files that kill most mutants fastest go first: Stryker stops a mutant's run at its first failing test. */
const ORDER = ['golden', 'seed000', 'machines/', 'testing/', 'detach-fixes', 'scenarios.test', 'own.test', 'checks/', 'core/'];
const rank = (f: TestSpecification): number => {
  const i = ORDER.findIndex((p) => f.moduleId.includes(p));
  return i < 0 ? ORDER.length : i;
};

class FastKillsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: [
      'test/checks/**/*.test.ts', 'test/machines/**/*.test.ts', 'test/testing/**/*.test.ts', 'test/core/cluster.test.ts',
      'test/scenarios/**/*.test.ts',
    ],
    testTimeout: 60_000,
    sequence: { sequencer: FastKillsFirst },
  },
});
