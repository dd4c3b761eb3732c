import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { taintEvictionControllerMachine, minTolerationTime, tolerationsOf } from '../../src/machines/taint-eviction-controller/index.ts';
import { podGcControllerMachine } from '../../src/machines/pod-gc-controller/index.ts';
import { parseTaint, taintString, toleratesTaint } from '../../src/machines/shared/taints.ts';

const S = 1_000_000;
const OOS = { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' };
const UNREACHABLE = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const node = (taints: object[], ready = 'Unknown') =>
  ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: { taints }, status: { conditions: [{ type: 'Ready', status: ready }] } }) as any;
const pod = (extra: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db-0', namespace: 'default', ...extra }, spec: { nodeName: 'n1', ...spec }, status: { phase: 'Running' } }) as any;

function run(machine: any, profile: '1.20' | '1.30', startedAt = 0) {
  const actor: any = createActor(machine, { input: { id: 'c', host: 'm', profile, epochUs: 0 } });
  const emitted: any[] = [];
  actor.on('*', (e: any) => emitted.push(e));
  actor.start();
  actor.send({ type: 'component.started', now: startedAt });
  return { actor, emitted, send: (e: any) => actor.send(e), of: (type: string) => emitted.filter((e) => e.type === type) };
}

describe('taints (kubectl taint syntax, v1 Toleration.ToleratesTaint)', () => {
  it('parses key=value:effect and key:effect, and says what is wrong with the rest', () => {
    expect(parseTaint('node.kubernetes.io/out-of-service=nodeshutdown:NoExecute')).toEqual(OOS);
    expect(parseTaint('dedicated:NoSchedule')).toEqual({ key: 'dedicated', effect: 'NoSchedule' });
    expect(taintString(OOS as any)).toBe('node.kubernetes.io/out-of-service=nodeshutdown:NoExecute');
    expect(parseTaint('node.kubernetes.io/out-of-service=nodeshutdown')).toMatch(/has no effect/);
    expect(parseTaint('a=b:NoRun')).toMatch(/unknown taint effect "NoRun"/);
    expect(parseTaint('bad key:NoSchedule')).toMatch(/invalid taint key/);
  });

  it('a toleration matches by key and effect (Exists), also by value (Equal); an empty key with Exists matches all', () => {
    expect(toleratesTaint({ key: OOS.key, operator: 'Exists' }, OOS as any)).toBe(true);
    expect(toleratesTaint({ key: OOS.key, operator: 'Equal', value: 'other' }, OOS as any)).toBe(false);
    expect(toleratesTaint({ key: OOS.key, operator: 'Exists', effect: 'NoSchedule' }, OOS as any)).toBe(false);
    expect(toleratesTaint({ operator: 'Exists' }, OOS as any)).toBe(true);
    // an empty key tolerates everything only with Exists
    expect(toleratesTaint({ operator: 'Equal', value: 'nodeshutdown' }, OOS as any)).toBe(false);
    expect(parseTaint('dedicated=a b:NoSchedule')).toMatch(/invalid taint value "a b"/);
    expect(parseTaint('dedicated=:NoSchedule')).toEqual({ key: 'dedicated', effect: 'NoSchedule' });
  });
});

describe('taint eviction controller (taint_eviction.go)', () => {
  it('a pod without tolerations gets the 300 s defaults of not-ready and unreachable, and none of out-of-service (DefaultTolerationSeconds)', () => {
    expect(tolerationsOf(pod()).map((t) => [t.key, t.tolerationSeconds])).toEqual([['node.kubernetes.io/not-ready', 300], ['node.kubernetes.io/unreachable', 300]]);
    expect(minTolerationTime([UNREACHABLE as any], tolerationsOf(pod()))).toBe(300 * S);
    expect(minTolerationTime([UNREACHABLE as any, OOS as any], tolerationsOf(pod()))).toBeUndefined();
    // a tolerate-everything toleration: no defaults added, and every taint tolerated for ever
    expect(minTolerationTime([OOS as any], tolerationsOf(pod({}, { tolerations: [{ operator: 'Exists' }] })))).toBe(Infinity);
  });

  it('processPodOnNode: plans the unreachable eviction 300 s out, then deletes at once when out-of-service comes, cancelling the plan with an Event', () => {
    const c = run(taintEvictionControllerMachine, '1.30');
    c.send({ type: 'watch.added', now: 0, object: pod() });
    c.send({ type: 'watch.added', now: 1 * S, object: node([]) });
    expect(c.of('timer.requested')).toEqual([]);
    c.send({ type: 'watch.modified', now: 40 * S, object: node([UNREACHABLE]), oldObject: node([]) });
    expect(c.of('timer.requested')).toEqual([{ type: 'timer.requested', key: 'evict:default/db-0', at: 340 * S }]);
    // a heartbeat (same taints) is not looked at
    c.send({ type: 'watch.modified', now: 45 * S, object: node([UNREACHABLE]), oldObject: node([UNREACHABLE]) });
    expect(c.emitted.filter((e) => e.type === 'api.request')).toEqual([]);
    c.send({ type: 'watch.modified', now: 70 * S, object: node([UNREACHABLE, OOS]), oldObject: node([UNREACHABLE]) });
    expect(c.of('log').map((e) => e.msg)).toEqual(['taintEvictionController.notAllTaintsTolerated', 'taintEvictionController.deletingPod']);
    expect(c.of('timer.cancelled')).toEqual([{ type: 'timer.cancelled', key: 'evict:default/db-0' }]);
    expect(c.of('event.recorded').map((e) => e.message)).toEqual(['Cancelling deletion of Pod default/db-0', 'Marking for deletion Pod default/db-0']);
    const writes = c.of('api.request');
    expect(writes.map((w) => w.verb)).toEqual(['patchStatus', 'delete']);
    expect(writes[0].patch.status.conditions.at(-1)).toMatchObject({ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' });
    // graceful: no grace period of its own, the pod's applies
    expect(writes[1].gracePeriodSeconds).toBeUndefined();
    // the pod's update (deletionTimestamp) does not delete it again; its deletion cancels nothing (the work has fired)
    c.send({ type: 'watch.modified', now: 71 * S, object: pod({ deletionTimestamp: 'x' }), oldObject: pod() });
    c.send({ type: 'watch.deleted', now: 90 * S, object: pod({ deletionTimestamp: 'x' }) });
    expect(c.of('api.request')).toHaveLength(2);
    expect(c.of('event.recorded')).toHaveLength(2);
  });

  it('a planned eviction fires when its toleration runs out, and a removed taint cancels it (with the Event)', () => {
    const c = run(taintEvictionControllerMachine, '1.20');
    c.send({ type: 'watch.added', now: 0, object: pod() });
    c.send({ type: 'watch.added', now: 10 * S, object: node([UNREACHABLE]) });
    c.send({ type: 'clock.ticked', now: 310 * S, key: 'evict:default/db-0' });
    expect(c.of('log').map((e) => e.msg)).toEqual(['taintEvictionController.deletingPod']);
    // 1.20 has no DisruptionTarget condition
    expect(c.of('api.request').map((w) => w.verb)).toEqual(['delete']);

    const d = run(taintEvictionControllerMachine, '1.30');
    d.send({ type: 'watch.added', now: 0, object: pod() });
    d.send({ type: 'watch.added', now: 10 * S, object: node([UNREACHABLE]) });
    d.send({ type: 'watch.modified', now: 20 * S, object: node([]), oldObject: node([UNREACHABLE]) });
    expect(d.of('event.recorded').map((e) => e.message)).toEqual(['Cancelling deletion of Pod default/db-0']);
    expect(d.of('timer.cancelled')).toHaveLength(1);
    expect(d.of('api.request')).toEqual([]);
  });

  it('a pod that arrives on a tainted node is evicted then; a pod already marked DisruptionTarget is only deleted', () => {
    const c = run(taintEvictionControllerMachine, '1.30');
    c.send({ type: 'watch.added', now: 1 * S, object: node([OOS]) });
    c.send({ type: 'watch.added', now: 2 * S, object: pod({}, {}) });
    expect(c.of('api.request').map((w) => w.verb)).toEqual(['patchStatus', 'delete']);
    const d = run(taintEvictionControllerMachine, '1.30');
    d.send({ type: 'watch.added', now: 1 * S, object: node([OOS]) });
    d.send({ type: 'watch.added', now: 2 * S, object: { ...pod(), status: { phase: 'Running', conditions: [{ type: 'DisruptionTarget', status: 'True' }] } } });
    expect(d.of('api.request').map((w) => w.verb)).toEqual(['delete']);
  });

  it('a pod\'s own toleration of unreachable replaces the 300 s default (a NoSchedule one does not)', () => {
    const own = pod({}, { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }] });
    expect(tolerationsOf(own).map((t) => [t.key, t.tolerationSeconds])).toEqual([['node.kubernetes.io/unreachable', 60], ['node.kubernetes.io/not-ready', 300]]);
    const noSchedule = pod({}, { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }] });
    expect(tolerationsOf(noSchedule).map((t) => t.key)).toEqual(['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
    const c = run(taintEvictionControllerMachine, '1.30');
    c.send({ type: 'watch.added', now: 0, object: own });
    c.send({ type: 'watch.added', now: 10 * S, object: node([UNREACHABLE]) });
    expect(c.of('timer.requested')).toEqual([{ type: 'timer.requested', key: 'evict:default/db-0', at: 70 * S }]);
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(taintEvictionControllerMachine, {
      input: { id: 'c', host: 'm', profile: '1.30' },
      events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }],
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as any);
    expect(new Set(paths.map((p) => JSON.stringify(p.state.value)))).toEqual(new Set(['"NotStarted"', '"Running"']));
  });
});

describe('pod garbage collector (gc_controller.go gcTerminating)', () => {
  it('1.30: on its 20 s loop, marks Failed and force-deletes a terminating pod of a not-Ready node tainted out of service', () => {
    const c = run(podGcControllerMachine, '1.30');
    c.send({ type: 'watch.added', now: 1 * S, object: node([UNREACHABLE]) });
    c.send({ type: 'watch.added', now: 1 * S, object: pod({ deletionTimestamp: 'x' }) });
    // no out-of-service node: no pass asked for
    expect(c.of('timer.requested')).toEqual([]);
    c.send({ type: 'watch.modified', now: 70 * S, object: node([UNREACHABLE, OOS]), oldObject: node([UNREACHABLE]) });
    // the loop keeps its phase from the start: 80 s, not 90 s
    expect(c.of('timer.requested')).toEqual([{ type: 'timer.requested', key: 'gc', at: 80 * S }]);
    c.send({ type: 'clock.ticked', now: 80 * S, key: 'gc' });
    expect(c.of('log').map((e) => [e.msg, e.args.pod])).toEqual([['podGcController.forceDeletingPod', 'default/db-0']]);
    const writes = c.of('api.request');
    expect(writes.map((w) => [w.verb, w.gracePeriodSeconds])).toEqual([['patchStatus', undefined], ['delete', 0]]);
    expect(writes[0].patch).toEqual({ status: { phase: 'Failed' } });
    // the next pass does not delete it again while that delete is in flight
    c.send({ type: 'clock.ticked', now: 100 * S, key: 'gc' });
    expect(c.of('api.request')).toHaveLength(2);
  });

  it('keeps the phase of its loop from its own start, and forgets a pod that is gone', () => {
    const c = run(podGcControllerMachine, '1.30', 5 * S);
    c.send({ type: 'watch.added', now: 6 * S, object: pod({ deletionTimestamp: 'x' }) });
    c.send({ type: 'watch.deleted', now: 7 * S, object: pod({ deletionTimestamp: 'x' }) });
    c.send({ type: 'watch.added', now: 70 * S, object: node([OOS]) });
    expect(c.of('timer.requested').at(-1)).toEqual({ type: 'timer.requested', key: 'gc', at: 85 * S });
    c.send({ type: 'clock.ticked', now: 85 * S, key: 'gc' });
    expect(c.of('api.request')).toEqual([]);
  });

  it('leaves alone a pod that is not terminating, a Ready node, and a node without the taint; 1.20 has no gcTerminating', () => {
    const check = (profile: '1.20' | '1.30', n: any, p: any) => {
      const c = run(podGcControllerMachine, profile);
      c.send({ type: 'watch.added', now: 1 * S, object: n });
      c.send({ type: 'watch.added', now: 1 * S, object: p });
      c.send({ type: 'clock.ticked', now: 20 * S, key: 'gc' });
      return c.of('api.request').length + c.of('log').length;
    };
    expect(check('1.30', node([OOS]), pod())).toBe(0);
    expect(check('1.30', node([OOS], 'True'), pod({ deletionTimestamp: 'x' }))).toBe(0);
    expect(check('1.30', node([UNREACHABLE]), pod({ deletionTimestamp: 'x' }))).toBe(0);
    expect(check('1.20', node([OOS]), pod({ deletionTimestamp: 'x' }))).toBe(0);
    // the taint's key is what counts, not its effect
    expect(check('1.30', node([{ ...OOS, effect: 'NoSchedule' }]), pod({ deletionTimestamp: 'x' }))).toBe(3);
  });
});

describe('the references of the node controllers\' Events, built by hand', () => {
  it('TaintManagerEviction names the pod by kind, namespace and name only (plus apiVersion v1 on 1.30); NodeNotReady by apiVersion, kind, name and uid, with no resourceVersion (RecordNodeStatusChange)', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario('force-detach', { k8s });
      const events = t.final.objects.filter((o) => o.kind === 'Event');
      const eviction = events.find((e) => e.reason === 'TaintManagerEviction')!;
      expect([k8s, eviction.involvedObject]).toEqual([k8s, { kind: 'Pod', namespace: 'default', name: 'db-0', ...(k8s === '1.30' ? { apiVersion: 'v1' } : {}) }]);
      const notReady = events.find((e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Node')!;
      expect(Object.keys(notReady.involvedObject).sort()).toEqual(['apiVersion', 'kind', 'name', 'uid']);
    }
  });
});
