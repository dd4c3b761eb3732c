// A Stryker "checker" that keeps a seeded, uniform random sample of the mutants (MUTATE_SAMPLE=0.15
// keeps 15%) and marks the rest as not checked. Stryker counts a mutant a checker rejects as invalid
// (CompileError) and leaves it out of the mutation score, so the score is the sample's score: an
// estimate of the whole run's, with the margin the note gives. A full run of the three machines takes
// hours on two cores; the sample is what a session can afford.
// Which mutants are kept depends only on what each mutant is (file, position, mutator, replacement),
// not on the run: the same code gives the same sample.
import path from 'node:path';
import { CheckStatus } from '@stryker-mutator/api/check';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const rate = Number(process.env.MUTATE_SAMPLE ?? 1);
const seed = process.env.MUTATE_SAMPLE_SEED ?? 'csi-flows';

/** FNV-1a, 32 bits, to [0, 1) */
function unit(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h / 2 ** 32;
}

export const inSample = (m) => {
  const key = `${seed}|${path.relative(process.cwd(), m.fileName)}|${m.location.start.line}:${m.location.start.column}|${m.mutatorName}|${m.replacement}`;
  return unit(key) < rate;
};

class SampleChecker {
  async init() {
    if (!(rate > 0 && rate <= 1)) throw new Error(`MUTATE_SAMPLE must be a fraction in (0, 1], got "${process.env.MUTATE_SAMPLE}"`);
  }
  async check(mutants) {
    return Object.fromEntries(mutants.map((m) => [m.id, inSample(m)
      ? { status: CheckStatus.Passed }
      : { status: CheckStatus.CompileError, reason: `not in the ${rate} sample` }]));
  }
  async group(mutants) { return [mutants.map((m) => m.id)]; }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Checker, 'sample', SampleChecker)];
