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
import * as asw from '../../src/machines/attach-detach-controller/cache/actualStateOfWorld.ts';
import * as dsw from '../../src/machines/attach-detach-controller/cache/desiredStateOfWorld.ts';

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

describe('the caches\' walks over a few volumes', () => {
  // getVolumesToAttach / getAttachedVolumes with `only` take those volumes from indexes, in the order
  // of the full walk over the caches' keys. After any sequence of changes they must yield exactly what
  // the full walk yields for those volumes, in the same order: node names that are array indexes
  // ("0", "12") included, which JavaScript puts first, and nodes and volumes removed and added again.
  const nodes = ['b-1', '12', 'a-0', '0', 'node-x'];
  const volumes = ['kubernetes.io/csi/d^v1', 'kubernetes.io/csi/d^v2', 'kubernetes.io/csi/d^v3', 'kubernetes.io/csi/d^v4'];
  const change = fc.record({
    op: fc.constantFrom('addNode', 'deleteNode', 'addPod', 'deletePod', 'attach', 'detach'),
    node: fc.constantFrom(...nodes), volume: fc.constantFrom(...volumes), pod: fc.constantFrom('p1', 'p2'),
  });
  const sample = fc.subarray(volumes);

  it('getVolumesToAttach(dsw, only) is the full walk filtered to only', () => {
    fc.assert(fc.property(fc.array(change, { maxLength: 60 }), sample, (changes, picked) => {
      const w = dsw.emptyDsw();
      for (const c of changes) {
        if (c.op === 'addNode') dsw.addNode(w, c.node);
        else if (c.op === 'deleteNode') dsw.deleteNode(w, c.node);
        else if (c.op === 'addPod' || c.op === 'attach') dsw.addPod(w, { namespace: 'default', name: c.pod, uid: c.pod }, { volumeName: c.volume, specName: c.volume, multiAttachAllowed: false }, c.node);
        else dsw.deletePod(w, c.pod, c.volume, c.node);
      }
      const only = new Set(picked);
      const all = [...dsw.getVolumesToAttach(w)].map(([n, v]) => `${n} ${v.volumeName}`);
      expect([...dsw.getVolumesToAttach(w, only)].map(([n, v]) => `${n} ${v.volumeName}`)).toEqual(all.filter((x) => only.has(x.split(' ')[1]!)));
    }), { seed: 5, numRuns: 300 });
  });

  it('getAttachedVolumes(asw, only) is the full walk filtered to only', () => {
    fc.assert(fc.property(fc.array(change, { maxLength: 60 }), sample, (changes, picked) => {
      const w = asw.emptyAsw();
      for (const c of changes) {
        if (c.op === 'attach' || c.op === 'addPod') asw.addVolumeNode(w, { volumeName: c.volume, specName: c.volume, multiAttachAllowed: true }, c.node, c.pod === 'p1');
        else asw.deleteVolumeNode(w, c.volume, c.node);
      }
      const only = new Set(picked);
      const all = [...asw.getAttachedVolumes(w)].map(([v, n]) => `${v.volumeName} ${n.nodeName}`);
      expect([...asw.getAttachedVolumes(w, only)].map(([v, n]) => `${v.volumeName} ${n.nodeName}`)).toEqual(all.filter((x) => only.has(x.split(' ')[0]!)));
    }), { seed: 6, numRuns: 300 });
  });
});

describe('the actual state of world with a volume attached to two nodes', () => {
  it('DeleteVolumeNode for one node keeps the volume attached to the other, in the walk and in its place', () => {
    const w = asw.emptyAsw();
    const spec = { volumeName: 'kubernetes.io/csi/d^rwx', specName: 'pv-rwx', multiAttachAllowed: true };
    asw.addVolumeNode(w, { volumeName: 'kubernetes.io/csi/d^a', specName: 'pv-a', multiAttachAllowed: false }, 'n1', true);
    asw.addVolumeNode(w, spec, 'n1', true);
    asw.addVolumeNode(w, spec, 'n2', true);
    asw.addVolumeNode(w, { volumeName: 'kubernetes.io/csi/d^b', specName: 'pv-b', multiAttachAllowed: false }, 'n2', true);
    asw.deleteVolumeNode(w, spec.volumeName, 'n1');
    const walk = (only?: Set<string>) => [...asw.getAttachedVolumes(w, only)].map(([v, n]) => `${v.specName}@${n.nodeName}`);
    expect(walk()).toEqual(['pv-a@n1', 'pv-rwx@n2', 'pv-b@n2']);
    expect(walk(new Set([spec.volumeName, 'kubernetes.io/csi/d^b']))).toEqual(['pv-rwx@n2', 'pv-b@n2']);
    expect(asw.getAttachState(w, spec.volumeName, 'n2')).toBe('Attached');
  });
});
