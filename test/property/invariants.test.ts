/**
 * Property tests: random seeds (interleavings of latencies) and injected CSI faults over the flows.
 * The safety properties of checks/invariants.ts must always hold, and once the (finite) faults stop
 * the cluster must converge. Reproduce a failure with the printed seed: PROPERTY_SEED=<seed>.
 * PROPERTY_RUNS sets the number of runs (default below).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvariants, runScenario } from '../../src/machines/index.ts';
import type { Trace } from '../../src/machines/cluster/trace.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 600);
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : 20261130;

const phase = (t: Trace, name: string) => t.final.objects.find((o) => o.kind === 'Pod' && o.metadata.name === name);

/** what "converged" means for each base flow once faults stop */
const converged: Record<string, (t: Trace) => boolean> = {
  attach: (t) => phase(t, 'web-0')?.status?.phase === 'Running',
  teardown: (t) => !t.final.objects.some((o) => o.kind === 'PersistentVolume' || o.kind === 'VolumeAttachment'),
  'pod-migration': (t) => {
    const p = phase(t, 'weixin-zixun-l3-vob-rbu-online-6');
    return p?.spec?.nodeName === '11.142.60.212' && p.status?.phase === 'Running';
  },
  'multi-attach': (t) => phase(t, 'writer-a')?.status?.phase === 'Running',
  'statefulset-rollout': (t) => t.final.objects.filter((o) => o.kind === 'Pod').every((p) => p.spec.nodeName.startsWith('b-') && p.status?.phase === 'Running'),
};

const fault = fc.record({
  rpc: fc.constantFrom('ControllerPublishVolume', 'ControllerUnpublishVolume', 'NodeStageVolume', 'NodePublishVolume', 'NodeUnpublishVolume', 'NodeUnstageVolume', 'DeleteVolume'),
  code: fc.constantFrom('DEADLINE_EXCEEDED', 'ABORTED', 'INTERNAL', 'UNAVAILABLE', 'RESOURCE_EXHAUSTED'),
  count: fc.integer({ min: 1, max: 3 }),
}).map((f) => `${f.rpc}=${f.code}x${f.count}`);

describe('safety and convergence under random interleavings and faults', () => {
  it(`holds for ${RUNS} random runs (seed ${SEED})`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(converged)), fc.constantFrom('1.20', '1.30'), fc.integer({ min: 0, max: 1_000_000 }), fc.array(fault, { maxLength: 3 }),
        (id, k8s, seed, faults) => {
          const t = runScenario(id, { k8s, seed, faults, extendBy: 10 * 60_000 });
          // documented upstream races (known) are returned too, and allowed
          const v = checkInvariants(t).filter((x) => !x.known);
          if (v.length) throw new Error(`invariant broken in ${id} --k8s ${k8s} --seed ${seed} ${faults.map((f) => `--fault ${f}`).join(' ')}: ${v.map((x) => `#${x.step} ${x.message}`).join('; ')}`);
          if (!converged[id]!(t)) throw new Error(`did not converge: ${id} --k8s ${k8s} --seed ${seed} ${faults.map((f) => `--fault ${f}`).join(' ')}`);
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 900_000);

  it('catches a broken invariant (the checker can fail)', () => {
    const t = runScenario('attach', { k8s: '1.30' });
    const publish = t.steps.find((s) => s.rpc?.method.endsWith('/NodeStageVolume'))!;
    // forge a trace where staging happens before anything was attached
    const forged: Trace = { ...t, steps: [publish, ...t.steps.filter((s) => s !== publish)].map((s, i) => ({ ...s, i: i + 1 })) };
    const withObjectsFirst = { ...forged, steps: [...t.steps.filter((s) => s.objects && s.objects.some((o) => o.kind === 'PersistentVolume' || o.kind === 'CSIDriver')), ...forged.steps] };
    expect(checkInvariants(withObjectsFirst).some((v) => v.rule === 1)).toBe(true);
  });
});
