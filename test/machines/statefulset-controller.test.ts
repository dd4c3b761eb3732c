import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { statefulSetControllerMachine } from '../../src/machines/statefulset-controller/index.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';

const input = { id: 'kcm', host: 'master', profile: '1.20' as const };

function sts(replicas: number, policy: 'Parallel' | 'OrderedReady'): K8sObject {
  return {
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default', uid: 'sts-uid' },
    spec: {
      replicas, serviceName: 'nginx', podManagementPolicy: policy, selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }], volumes: [] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'cbs', resources: { requests: { storage: '10Gi' } } } }],
    },
  };
}

function start() {
  const actor = createActor(statefulSetControllerMachine, { input });
  const emitted: any[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  actor.send({ type: 'component.started', now: 0 });
  return { actor, emitted };
}

/** answer every api.request ok, returning the created objects */
function ackAll(actor: any, emitted: any[], now = 1): any[] {
  const reqs = emitted.filter((e) => e.type === 'api.request');
  emitted.length = 0;
  for (const r of reqs) actor.send({ type: 'api.result', now, requestId: r.requestId, ok: true, code: 201, object: r.object });
  return reqs;
}

const runningPod = (p: K8sObject): K8sObject => ({ ...p, metadata: { ...p.metadata, uid: 'u-' + p.metadata.name }, spec: { ...p.spec, nodeName: 'node-1' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });

describe('statefulset-controller', () => {
  it('creates the claim before the pod and records both SuccessfulCreate events with upstream wording', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'watch.added', now: 0, object: sts(1, 'OrderedReady') });
    const first = emitted.filter((e) => e.type === 'api.request');
    expect(first.map((r) => `${r.kind}/${r.name}`)).toEqual(['PersistentVolumeClaim/data-web-0']);
    expect(first[0].object.spec).toMatchObject({ storageClassName: 'cbs', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } });
    ackAll(actor, emitted);
    const podReq = emitted.find((e) => e.type === 'api.request');
    expect(emitted.find((e) => e.type === 'event.recorded')?.message).toBe('create Claim data-web-0 Pod web-0 in StatefulSet web success');
    expect(podReq.name).toBe('web-0');
    expect(podReq.object.spec.volumes).toEqual([{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }]);
    expect(podReq.object.spec.hostname).toBe('web-0');
    expect(podReq.object.spec.subdomain).toBe('nginx');
    expect(podReq.object.metadata.ownerReferences[0]).toMatchObject({ kind: 'StatefulSet', name: 'web', uid: 'sts-uid', controller: true });
    ackAll(actor, emitted);
    expect(emitted.find((e) => e.type === 'event.recorded')?.message).toBe('create Pod web-0 in StatefulSet web successful');
  });

  it('OrderedReady creates web-1 only after web-0 is Running and Ready', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'watch.added', now: 0, object: sts(3, 'OrderedReady') });
    ackAll(actor, emitted);
    const [pod0] = ackAll(actor, emitted);
    expect(emitted.filter((e) => e.type === 'api.request')).toHaveLength(0);
    actor.send({ type: 'watch.added', now: 2, object: { ...pod0.object, metadata: { ...pod0.object.metadata, uid: 'u0' } } });
    expect(emitted.filter((e) => e.type === 'api.request')).toHaveLength(0);
    actor.send({ type: 'watch.modified', now: 3, object: runningPod(pod0.object), oldObject: pod0.object });
    expect(emitted.filter((e) => e.type === 'api.request').map((r) => r.name)).toEqual(['data-web-1']);
  });

  it('Parallel creates every claim at once, then every pod', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'watch.added', now: 0, object: sts(3, 'Parallel') });
    expect(ackAll(actor, emitted).map((r) => r.name)).toEqual(['data-web-0', 'data-web-1', 'data-web-2']);
    expect(emitted.filter((e) => e.type === 'api.request').map((r) => r.name)).toEqual(['web-0', 'web-1', 'web-2']);
  });

  it('recreates a deleted pod only once it is gone, reusing its existing claim', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'watch.added', now: 0, object: sts(1, 'OrderedReady') });
    const [claim] = ackAll(actor, emitted);
    actor.send({ type: 'watch.added', now: 1, object: claim.object });
    const [pod] = ackAll(actor, emitted);
    emitted.length = 0;
    const running = runningPod(pod.object);
    actor.send({ type: 'watch.added', now: 2, object: running });
    const terminating = { ...running, metadata: { ...running.metadata, deletionTimestamp: '2024-01-01T00:00:30Z' } };
    actor.send({ type: 'watch.modified', now: 3, object: terminating, oldObject: running });
    expect(emitted.filter((e) => e.type === 'api.request')).toHaveLength(0);
    actor.send({ type: 'watch.deleted', now: 4, object: terminating });
    expect(emitted.filter((e) => e.type === 'api.request').map((r) => `${r.kind}/${r.name}`)).toEqual(['Pod/web-0']);
  });

  // timing is the benchmark's business (npm run bench); this checks the 10 000-replica path works
  it('creates every pod of a 10 000-replica Parallel set', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'watch.added', now: 0, object: sts(10_000, 'Parallel') });
    ackAll(actor, emitted);
    const pods = ackAll(actor, emitted);
    for (const p of pods) actor.send({ type: 'watch.added', now: 5, object: runningPod(p.object) });
    expect(pods).toHaveLength(10_000);
    expect(new Set(pods.map((p) => p.object.metadata.name)).size).toBe(10_000);
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(statefulSetControllerMachine, {
      input, events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }],
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as any);
    expect(paths.map((p) => JSON.stringify(p.state.value)).sort()).toEqual(['"running"', '"stopped"']);
  });
});
