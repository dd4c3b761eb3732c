import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { pvcProtectionControllerMachine } from '../../src/machines/pvc-protection-controller/index.ts';
import { pvProtectionControllerMachine } from '../../src/machines/pv-protection-controller/index.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';

const input = { id: 'p', host: 'master', profile: '1.30' as const };
const claim = (deleting: boolean): K8sObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'ns', resourceVersion: '5', finalizers: ['kubernetes.io/pvc-protection'], ...(deleting ? { deletionTimestamp: 'x' } : {}) },
  spec: {},
});
const pod = (phase = 'Running'): K8sObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
  spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] }, status: { phase },
});

function run(machine: typeof pvcProtectionControllerMachine | typeof pvProtectionControllerMachine) {
  const actor = createActor(machine as typeof pvcProtectionControllerMachine, { input }).start();
  const emitted: Array<{ type: string; verb?: string; object?: K8sObject }> = [];
  actor.on('*', (e) => emitted.push(e as never));
  actor.send({ type: 'component.started', now: 0 });
  return { actor, emitted };
}

describe('PVC protection controller', () => {
  it('keeps the finalizer of a deleted claim while a running pod uses it, and removes it when the pod is gone', () => {
    const { actor, emitted } = run(pvcProtectionControllerMachine);
    actor.send({ type: 'watch.added', now: 1, object: pod() });
    actor.send({ type: 'watch.modified', now: 2, object: claim(true), oldObject: claim(false) });
    expect(emitted.filter((e) => e.type === 'api.request')).toEqual([]);
    actor.send({ type: 'watch.deleted', now: 3, object: pod() });
    const req = emitted.find((e) => e.type === 'api.request')!;
    expect(req).toMatchObject({ verb: 'update', object: { metadata: { name: 'data' } } });
    expect(req.object!.metadata.finalizers).toEqual([]);
  });

  it('leaves a claim that is not being deleted alone', () => {
    const { actor, emitted } = run(pvcProtectionControllerMachine);
    actor.send({ type: 'watch.added', now: 1, object: claim(false) });
    expect(emitted.filter((e) => e.type === 'api.request')).toEqual([]);
  });
});

describe('PV protection controller', () => {
  const pv = (phase: string): K8sObject => ({
    apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1', deletionTimestamp: 'x', finalizers: ['kubernetes.io/pv-protection', 'external-attacher/x'] }, status: { phase },
  });
  it('removes only its own finalizer, and only once the volume is no longer Bound', () => {
    const { actor, emitted } = run(pvProtectionControllerMachine as never);
    actor.send({ type: 'watch.added', now: 1, object: pv('Bound') });
    expect(emitted.filter((e) => e.type === 'api.request')).toEqual([]);
    actor.send({ type: 'watch.modified', now: 2, object: pv('Released'), oldObject: pv('Bound') });
    const req = emitted.find((e) => e.type === 'api.request')!;
    expect(req.object!.metadata.finalizers).toEqual(['external-attacher/x']);
  });
});

describe('both protection controllers', () => {
  it.each([[pvcProtectionControllerMachine], [pvProtectionControllerMachine]])('reach every state', (m) => {
    const paths = getShortestPaths(m as typeof pvcProtectionControllerMachine, {
      input, events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }],
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as never);
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['stopped', 'running']));
  });
});
