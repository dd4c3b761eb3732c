/**
 * The attach/detach controller's reconciler visits only the volumes something changed, or whose
 * backoff or unmount wait ran out (reconciler.ts takeTouchedVolumes), where upstream walks every
 * volume every 100ms. That is only a shortcut if every trace is the same as with a walk over every
 * volume: every scenario on both profiles runs both ways here, with the controller's tables captured,
 * and so do runs with faults, a node that dies, and random seeds and faults.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { runScenario, SCENARIOS } from '../../src/machines/index.ts';
import { reconcilerOptions } from '../../src/machines/attach-detach-controller/reconciler.ts';
import type { RunOptions } from '../../src/machines/scenarios/run.ts';

const BY_DEFAULT = reconcilerOptions.onlyTouchedVolumes;
afterEach(() => { reconcilerOptions.onlyTouchedVolumes = true; });

const run = (id: string, opts: RunOptions, onlyTouched: boolean): string => {
  reconcilerOptions.onlyTouchedVolumes = onlyTouched;
  return JSON.stringify(runScenario(id, { captureWorld: true, ...opts }));
};

const sameBothWays = (id: string, opts: RunOptions): void => {
  const everyVolume = run(id, opts, false);
  expect(run(id, opts, true)).toBe(everyVolume);
};

describe('a reconciler pass over the touched volumes is a pass over every volume', () => {
  it('is on unless a test switches it off', () => {
    expect(BY_DEFAULT).toBe(true);
  });

  for (const s of SCENARIOS) {
    it(`${s.id}: the same trace and tables both ways on 1.20 and 1.30`, () => {
      for (const k8s of ['1.20', '1.30'] as const) sameBothWays(s.id, { k8s });
    });
  }

  // the controller's waits and retries: a detach in backoff (1.20 takes it out of the report list at
  // every pass), an attach in backoff, the 6-minute wait and the forced detach from a dead node
  const cases: Array<[string, RunOptions]> = [
    ['pod-migration', { faults: ['ControllerUnpublishVolume=DEADLINE_EXCEEDEDx4'], extendBy: 10 * 60_000 }],
    ['attach', { faults: ['ControllerPublishVolume=INTERNALx3'], extendBy: 5 * 60_000 }],
    ['pod-migration', { actions: [{ at: 1_000, do: 'shutdownNode', node: '11.142.61.164' }], extendBy: 10 * 60_000 }],
    ['statefulset-rollout', { replicas: 60, faults: ['ControllerUnpublishVolume=ABORTEDx5', 'ControllerPublishVolume=UNAVAILABLEx5'] }],
    ['multi-attach', { seed: 7, extendBy: 8 * 60_000 }],
  ];
  for (const [id, opts] of cases) {
    it(`${id} ${JSON.stringify(opts)}: the same both ways on 1.20 and 1.30`, () => {
      for (const k8s of ['1.20', '1.30'] as const) sameBothWays(id, { ...opts, k8s });
    });
  }

  it('holds for random seeds and faults', () => {
    const fault = fc.record({
      rpc: fc.constantFrom('ControllerPublishVolume', 'ControllerUnpublishVolume', 'NodeStageVolume', 'NodeUnpublishVolume', 'NodeUnstageVolume'),
      code: fc.constantFrom('DEADLINE_EXCEEDED', 'ABORTED', 'INTERNAL'),
      count: fc.integer({ min: 1, max: 4 }),
    }).map((f) => `${f.rpc}=${f.code}x${f.count}`);
    fc.assert(
      fc.property(
        fc.constantFrom('attach', 'teardown', 'pod-migration', 'multi-attach', 'force-detach', 'ad-detach-backoff'), fc.constantFrom('1.20', '1.30'),
        fc.integer({ min: 0, max: 1_000_000 }), fc.array(fault, { maxLength: 3 }),
        (id, k8s, seed, faults) => {
          const opts: RunOptions = { k8s, seed, faults, extendBy: 8 * 60_000 };
          expect(run(id, opts, true), `${id} --k8s ${k8s} --seed ${seed} ${faults.join(' ')}`).toBe(run(id, opts, false));
        },
      ),
      { numRuns: 24, seed: 20261204 },
    );
  }, 300_000);
});
