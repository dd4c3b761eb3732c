/**
 * Safety and convergence over random custom scenarios, part 4 of 4 (the parts run in parallel).
 * CUSTOM_PROPERTY_RUNS (default 10000) is shared by the four parts; PROPERTY_SEED reproduces a run.
 * A failure prints the csi-flows command that replays it.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { check, drawn } from './custom.ts';

const RUNS = Math.ceil(Number(process.env.CUSTOM_PROPERTY_RUNS ?? 10_000) / 4);
const SEED = (process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : 20261201) + 4;

describe('random custom scenarios', () => {
  it(`keep every safety rule and settle once faults are spent: ${RUNS} runs (seed ${SEED})`, () => {
    fc.assert(fc.property(drawn, (d) => check(d, 'part4')), { numRuns: RUNS, seed: SEED });
  }, 900_000);
});
