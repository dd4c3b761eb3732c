import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assign, emit, enqueueActions, raise, setup } from 'xstate';
import { Cluster, type ComponentSpec } from '../../src/machines/cluster/cluster.ts';
import { ApiServer, mergePatch } from '../../src/machines/cluster/apiServer.ts';
import type { ClusterEmitted, ClusterEvent, ComponentDescriptor } from '../../src/machines/shared/contract.ts';
import { defineMessages } from '../../src/machines/shared/messages.ts';
import { createRng } from '../../src/machines/shared/rng.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';

// Two toy components exercise the cluster's routing: a writer that patches a ConfigMap-like Node and
// calls a plugin, and a plugin that answers after a delay.
const messages = defineMessages({
  'toy.sawNode': {
    source: 'kubelet', stage: 'other', severity: 'I', summary: 'saw node {name}',
    formats: { '1.20': { file: 'toy.go', line: 10, text: 'saw node {name:q}' }, '1.30': { file: 'toy.go', line: 11, msg: 'Saw node', kv: 'node={name:q}' } },
  },
  'toy.result': {
    source: 'kubelet', stage: 'other', severity: 'I', summary: 'result {code}',
    formats: { '1.20': { file: 'toy.go', line: 20, text: 'call ended with {code}' }, '1.30': { file: 'toy.go', line: 21, text: 'call ended with {code}' } },
  },
});

/**
 * The writer; with `side`, it also writes Node n2 first on start, from a goroutine of its own (ownStream) or from the
 * reaction's. (What a watcher does with an event is its own: it says nothing of n2.)
 */
const toyWriter = (side?: { ownStream: boolean }) => setup({
  types: {} as { context: { n: number }; events: ClusterEvent; emitted: ClusterEmitted; input: { id: string } },
}).createMachine({
  id: 'writer', initial: 'idle', context: { n: 0 },
  states: {
    idle: {
      on: {
        'component.started': {
          target: 'calling',
          actions: enqueueActions(({ enqueue }) => {
            if (side) enqueue.emit({ type: 'api.request', requestId: 's1', verb: 'patchStatus', kind: 'Node', name: 'n2', patch: { status: { phase: 'side' } }, ...(side.ownStream ? { ownStream: true as const } : {}) });
            enqueue.emit({ type: 'api.request', requestId: 'p1', verb: 'patch', kind: 'Node', name: 'n1', patch: { metadata: { labels: { touched: 'yes' } } } });
            enqueue.emit({ type: 'csi.call', requestId: 'c1', rpc: 'NodeStageVolume', request: { volume_id: 'v' }, endpoint: 'node', node: 'n1', timeout: 2_000_000 });
          }),
        },
      },
    },
    calling: {
      on: {
        'watch.modified': { guard: ({ event }) => event.object.metadata.name !== 'n2', actions: emit(({ event }) => ({ type: 'log', msg: 'toy.sawNode', args: { name: event.object.metadata.name } }) as ClusterEmitted) },
        'csi.result': {
          target: 'done',
          actions: [assign({ n: ({ context }) => context.n + 1 }), emit(({ event }) => ({ type: 'log', msg: 'toy.result', args: { code: event.code } }) as ClusterEmitted)],
        },
      },
    },
    done: {},
  },
});
const writer = toyWriter();

const plugin = setup({
  types: {} as { context: { pending: string[] }; events: ClusterEvent; emitted: ClusterEmitted; input: { id: string; answer: 'OK' | 'hang' } },
}).createMachine({
  id: 'plugin', initial: 'serving', context: { pending: [] },
  states: {
    serving: {
      on: {
        'csi.request': [{
          guard: ({ event }) => !!event.fault,
          actions: emit(({ event }) => ({ type: 'csi.reply', requestId: event.requestId, code: event.fault!.code, message: event.fault!.message }) as ClusterEmitted),
        }, {
          actions: [
            assign({ pending: ({ context, event }) => [...context.pending, event.requestId] }),
            emit(({ event }) => ({ type: 'timer.requested', key: event.requestId, at: event.now + 500_000 }) as ClusterEmitted),
          ],
        }],
        'clock.ticked': { actions: emit(({ event }) => ({ type: 'csi.reply', requestId: event.key, code: 'OK' }) as ClusterEmitted) },
      },
    },
  },
});

const d = (name: string, machine: ComponentDescriptor['machine'], watches: ComponentDescriptor['watches']): ComponentDescriptor =>
  ({ name, machine, source: 'kubelet', watches, messages });

function cluster(seed: number, opts: { pluginUp?: boolean; fault?: boolean } = {}) {
  const components: ComponentSpec[] = [
    { descriptor: d('writer', writer, ['Node']), input: { id: 'writer', host: 'n1', profile: '1.20' }, stream: { pid: 7, tzOffsetMin: 0 } },
  ];
  if (opts.pluginUp !== false) {
    components.push({ descriptor: d('plugin', plugin, []), input: { id: 'plugin', host: 'n1', profile: '1.20' }, stream: { pid: 1, tzOffsetMin: 0 }, serves: { endpoint: 'node', node: 'n1' } });
  }
  const node: K8sObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: {} };
  return new Cluster({
    profile: '1.20', seed, epochUs: Date.parse('2024-01-01T00:00:00Z') * 1000, apiServerUrl: 'https://api:443',
    catalog: messages, objects: [node], components,
    csiFaults: opts.fault ? [{ rpc: 'NodeStageVolume', code: 'ABORTED', count: 1, message: 'busy' }] : [],
  });
}

/** A component that, each time its process starts, asks for one timer 5s later and logs when it fires. */
const ticker = setup({
  types: {} as { context: Record<string, never>; events: ClusterEvent; emitted: ClusterEmitted; input: { id: string } },
}).createMachine({
  id: 'ticker', initial: 'idle', context: {},
  states: {
    idle: { on: { 'component.started': { target: 'waiting', actions: emit(({ event }) => ({ type: 'timer.requested', key: 'tick', at: event.now + 5_000_000 }) as ClusterEmitted) } } },
    waiting: { on: { 'clock.ticked': { target: 'idle', actions: emit({ type: 'log', msg: 'toy.result', args: { code: 'tick' } } as ClusterEmitted) } } },
  },
});

describe('Cluster', () => {
  it('routes an API write to the API server and its watch event back to the watcher, with a rendered log line', () => {
    const c = cluster(1);
    c.run(10_000_000);
    expect(c.api.get('Node', undefined, 'n1')?.metadata.labels).toEqual({ touched: 'yes' });
    const logs = c.steps.filter((s) => s.log).map((s) => s.log);
    expect(logs[0]).toMatch(/^I0101 00:00:00\.\d{6}       7 toy\.go:10\] saw node "n1"$/);
    expect(logs).toContainEqual(expect.stringMatching(/call ended with OK$/));
  });

  it('a restarted process\'s timer is its own: the timer its old process set under the same key does not wake it', () => {
    const c = new Cluster({
      profile: '1.20', seed: 3, epochUs: Date.parse('2024-01-01T00:00:00Z') * 1000, apiServerUrl: 'https://api:443', catalog: messages, objects: [],
      components: [{ descriptor: d('ticker', ticker, []), input: { id: 'ticker', host: 'n1', profile: '1.20' }, stream: { pid: 3, tzOffsetMin: 0 } }],
      actions: [{ at: 1_000_000, do: 'restart', component: 'ticker' }],
    });
    c.run(20_000_000);
    const started = c.steps.filter((s) => s.component === 'ticker' && s.kind === 'state' && /to "waiting"/.test(s.summary)).map((s) => s.t);
    const ticks = c.steps.filter((s) => s.log?.endsWith('call ended with tick')).map((s) => s.t);
    // the old process's timer (due at 5s) died with it; the new process's fires 5s after its start
    expect(started).toHaveLength(2);
    expect(ticks).toHaveLength(1);
    expect(ticks[0]! - started[1]!).toBeGreaterThanOrEqual(5000);
  });

  it('delivers a CSI reply to the caller after the plugin answers', () => {
    const c = cluster(1);
    c.run(10_000_000);
    const reply = c.steps.find((s) => s.kind === 'rpc-reply');
    expect(reply?.rpc?.code).toBe('OK');
    expect(reply!.t).toBeGreaterThanOrEqual(500);
    expect(c.component('writer')!.snapshot.value).toBe('done');
  });

  it('fails a call with DEADLINE_EXCEEDED when nobody answers before the caller\'s timeout', () => {
    const c = cluster(1, { pluginUp: false });
    c.run(10_000_000);
    expect(c.steps.filter((s) => s.log).at(-1)!.log).toMatch(/call ended with DEADLINE_EXCEEDED$/);
    expect(c.steps.filter((s) => s.log).at(-1)!.t).toBeGreaterThanOrEqual(2000);
  });

  it('gives the same steps for the same seed, and other latencies for another seed', () => {
    const a = cluster(5); a.run(10_000_000);
    const b = cluster(5); b.run(10_000_000);
    const c = cluster(6); c.run(10_000_000);
    expect(JSON.stringify(b.steps)).toBe(JSON.stringify(a.steps));
    expect(JSON.stringify(c.steps.map((s) => s.t))).not.toBe(JSON.stringify(a.steps.map((s) => s.t)));
  });

  it('passes a scenario fault to the plugin with the request', () => {
    const c = cluster(1, { fault: true });
    c.run(10_000_000);
    expect(c.steps.find((s) => s.kind === 'rpc')?.rpc?.method).toBe('/csi.v1.Node/NodeStageVolume');
    expect(c.steps.find((s) => s.kind === 'rpc-reply')?.rpc).toMatchObject({ code: 'ABORTED', message: 'busy' });
    expect(c.steps.filter((s) => s.log).at(-1)!.log).toMatch(/call ended with ABORTED$/);
  });
});

describe('Cluster: a write of another goroutine (ApiRequestEmitted.ownStream)', () => {
  const run = (machine: ComponentDescriptor['machine']) => {
    const nodes: K8sObject[] = ['n1', 'n2'].map((name) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: {} }));
    const c = new Cluster({
      profile: '1.20', seed: 9, epochUs: Date.parse('2024-01-01T00:00:00Z') * 1000, apiServerUrl: 'https://api:443', catalog: messages, objects: nodes,
      components: [
        { descriptor: d('writer', machine, ['Node']), input: { id: 'writer', host: 'n1', profile: '1.20' }, stream: { pid: 7, tzOffsetMin: 0 } },
        { descriptor: d('plugin', plugin, []), input: { id: 'plugin', host: 'n1', profile: '1.20' }, stream: { pid: 1, tzOffsetMin: 0 }, serves: { endpoint: 'node', node: 'n1' } },
      ],
    });
    c.run(10_000_000);
    // the steps that are not the side write's own (its API step and the watch event it caused)
    return c.steps.filter((s) => !/\bn2\b/.test(`${s.summary} ${s.log ?? ''}`)).map((s) => `${s.t} ${s.kind} ${s.log ?? s.summary}`);
  };

  it('moves no other step: its latency, its answer and its watch events draw from the component\'s own stream, and the reaction does not wait for it', () => {
    const without = run(writer);
    expect(without.length).toBeGreaterThan(3);
    expect(run(toyWriter({ ownStream: true }))).toEqual(without);
    // (the same write from the reaction itself moves what follows it)
    expect(run(toyWriter({ ownStream: false }))).not.toEqual(without);
  });
});

describe('Cluster: component machines are stepped, not run as actors', () => {
  const one = (machine: ComponentDescriptor['machine']) => new Cluster({
    profile: '1.20', seed: 1, epochUs: Date.parse('2024-01-01T00:00:00Z') * 1000, apiServerUrl: 'https://api:443', catalog: messages, objects: [],
    components: [{ descriptor: d('toy', machine, []), input: { id: 'toy', host: 'n1', profile: '1.20' }, stream: { pid: 7, tzOffsetMin: 0 } }],
  });

  it('an action that throws stops the run with the component and the event named', () => {
    const broken = setup({}).createMachine({ id: 'broken', on: { 'component.started': { actions: () => { throw new Error('no disk here'); } } } });
    expect(() => one(broken).run(1_000_000)).toThrow(/^component toy failed while handling component\.started: Error: no disk here$/);
  });

  it('a machine that asks for a delayed event is told to ask the cluster for a timer', () => {
    const delayed = setup({}).createMachine({ id: 'delayed', on: { 'component.started': { actions: raise({ type: 'later' }, { delay: 1000 }) } } });
    expect(() => one(delayed).run(1_000_000)).toThrow(/machine "delayed" raises a delayed event: ask the cluster for a timer \(emit timer\.requested\) instead/);
  });

  it('takes raised events within the step, runs custom actions in place, and ignores events after a final state', () => {
    const seen: string[] = [];
    const m = setup({ types: {} as { emitted: ClusterEmitted }, actions: { note: ({ event }) => { seen.push(event.type); } } }).createMachine({
      id: 'steps', initial: 'a',
      states: {
        a: { on: { 'component.started': { target: 'b', actions: ['note', raise({ type: 'next' })] } } },
        b: { on: { next: { target: 'c', actions: ['note', emit({ type: 'timer.requested', key: 't', at: 5 })] } } },
        c: { on: { 'clock.ticked': { target: 'done', actions: 'note' } } },
        done: { type: 'final' },
      },
    });
    const c = one(m);
    c.run(1_000_000);
    expect(seen).toEqual(['component.started', 'next', 'clock.ticked']);
    expect(c.component('toy')!.snapshot.value).toBe('done');
    expect(c.component('toy')!.snapshot.status).toBe('done');
  });
});

describe('ApiServer', () => {
  const api = () => new ApiServer(createRng(1), 0);

  it('a create of pods/<name>/binding sets the pod\'s node (201, a modification its watchers see) and refuses a pod that has one (BindingREST)', () => {
    const s = api();
    const pod: K8sObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'default' }, spec: { containers: [] } };
    s.apply({ type: 'api.request', requestId: 'c', verb: 'create', kind: 'Pod', namespace: 'default', name: 'web-0', object: pod }, 0);
    const binding = (node: string) => ({ type: 'api.request' as const, requestId: 'b', verb: 'create' as const, subresource: 'binding' as const, kind: 'Pod' as const, namespace: 'default', name: 'web-0',
      object: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web-0', namespace: 'default' }, target: { kind: 'Node', name: node } } as unknown as K8sObject });
    const first = s.apply(binding('node-1'), 1);
    expect(first).toMatchObject({ ok: true, code: 201, change: { type: 'MODIFIED' } });
    expect(s.get('Pod', 'default', 'web-0')!.spec.nodeName).toBe('node-1');
    const again = s.apply(binding('node-2'), 2);
    expect(again).toMatchObject({ ok: false, code: 409, reason: 'Conflict' });
    expect(again.message).toContain('is already assigned to node "node-1"');
    expect(s.get('Pod', 'default', 'web-0')!.spec.nodeName).toBe('node-1');
    expect(s.apply({ ...binding('node-1'), name: 'nope' }, 3)).toMatchObject({ ok: false, code: 404 });
  });

  it('the binding sets PodScheduled True in the same write, stamped when it is new; an Unschedulable condition before it is replaced in place (UpdatePodCondition)', () => {
    const s = api();
    const mk = (name: string, conditions?: unknown[]): K8sObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [] }, status: { phase: 'Pending', ...(conditions ? { conditions } : {}) } });
    const bind = (name: string, at: number) => s.apply({ type: 'api.request', requestId: 'b', verb: 'create', subresource: 'binding', kind: 'Pod', namespace: 'default', name,
      object: { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: 'default' }, target: { kind: 'Node', name: 'node-1' } } as unknown as K8sObject }, at);
    s.apply({ type: 'api.request', requestId: 'c', verb: 'create', kind: 'Pod', namespace: 'default', name: 'a', object: mk('a') }, 0);
    bind('a', 5_000_000);
    expect(s.get('Pod', 'default', 'a')!.status!.conditions).toEqual([{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '1970-01-01T00:00:05Z' }]);
    const waited = [{ type: 'Other', status: 'True' }, { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', lastTransitionTime: '1970-01-01T00:00:01Z' }, { type: 'Last', status: 'True' }];
    s.apply({ type: 'api.request', requestId: 'c', verb: 'create', kind: 'Pod', namespace: 'default', name: 'b', object: mk('b', waited) }, 0);
    bind('b', 7_000_000);
    expect((s.get('Pod', 'default', 'b')!.status!.conditions as Array<{ type: string; status: string; lastTransitionTime: string }>).map((c) => `${c.type}=${c.status}@${c.lastTransitionTime ?? ''}`))
      .toEqual(['Other=True@', 'PodScheduled=True@1970-01-01T00:00:07Z', 'Last=True@']);
    // first in the list it stays first; a True one keeps its time (UpdatePodCondition: the status did not change)
    const conds = (name: string) => (s.get('Pod', 'default', name)!.status!.conditions as Array<{ type: string; status: string; lastTransitionTime?: string }>).map((c) => `${c.type}=${c.status}@${c.lastTransitionTime ?? ''}`);
    s.apply({ type: 'api.request', requestId: 'c', verb: 'create', kind: 'Pod', namespace: 'default', name: 'c', object: mk('c', [{ type: 'PodScheduled', status: 'True', lastTransitionTime: '1970-01-01T00:00:02Z' }, { type: 'Last', status: 'True' }]) }, 0);
    bind('c', 9_000_000);
    expect(conds('c')).toEqual(['PodScheduled=True@1970-01-01T00:00:02Z', 'Last=True@']);
  });
  const va = (fin?: string[]): K8sObject => ({ apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va', ...(fin ? { finalizers: fin } : {}) }, spec: {} });
  const req = (verb: 'create' | 'delete' | 'patch', extra: object = {}) => ({ type: 'api.request' as const, requestId: 'r', verb, kind: 'VolumeAttachment' as const, name: 'va', ...extra });

  it('list(kind) is every stored object of that kind in the order list() gives them, after any creates, writes and deletes', () => {
    const kinds = ['VolumeAttachment', 'PersistentVolume', 'Node'] as const;
    const op = fc.record({ verb: fc.constantFrom('create', 'patch', 'delete'), kind: fc.constantFrom(...kinds), name: fc.constantFrom('a', 'b', 'c'), fin: fc.boolean() });
    fc.assert(fc.property(fc.array(op, { maxLength: 50 }), (ops) => {
      const s = api();
      ops.forEach((o, i) => {
        const object = { apiVersion: o.kind === 'VolumeAttachment' ? 'storage.k8s.io/v1' : 'v1', kind: o.kind, metadata: { name: o.name, ...(o.fin ? { finalizers: ['x/y'] } : {}) }, spec: {} };
        s.apply({ type: 'api.request', requestId: `r${i}`, verb: o.verb, kind: o.kind, name: o.name, ...(o.verb === 'create' ? { object } : o.verb === 'patch' ? { patch: { metadata: { finalizers: o.fin ? ['x/y'] : null } } } : {}) }, i);
      });
      for (const k of kinds) expect(s.list(k)).toEqual(s.list().filter((o) => o.kind === k));
    }), { seed: 3, numRuns: 300 });
  });

  it('marks an object with finalizers for deletion and removes it when the last finalizer goes', () => {
    const s = api();
    s.apply(req('create', { object: va(['external-attacher/x']) }), 0);
    const del = s.apply(req('delete'), 10);
    expect(del.change?.type).toBe('MODIFIED');
    expect(del.object?.metadata.deletionTimestamp).toBeDefined();
    const fin = s.apply(req('patch', { patch: { metadata: { finalizers: null } } }), 20);
    expect(fin.change?.type).toBe('DELETED');
    expect(s.get('VolumeAttachment', undefined, 'va')).toBeUndefined();
  });

  it('refuses a write that adds a finalizer to an object being deleted (ValidateNoNewFinalizers), with the Invalid status upstream sends', () => {
    const s = api();
    s.apply(req('create', { object: va(['a/x', 'b/y']) }), 0);
    s.apply(req('delete'), 10);
    // b/y is taken off; then a write computed from the older copy (a JSON merge patch of the whole list) would put it back
    expect(s.apply(req('patch', { patch: { metadata: { finalizers: ['a/x'] } } }), 20).ok).toBe(true);
    const stale = s.apply(req('patch', { patch: { metadata: { finalizers: ['b/y'] } } }), 30);
    expect(stale).toMatchObject({ ok: false, code: 422, reason: 'Invalid' });
    expect(stale.message).toBe('VolumeAttachment.storage.k8s.io "va" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b/y"}');
    expect(s.get('VolumeAttachment', undefined, 'va')!.metadata.finalizers).toEqual(['a/x']);
    // removing, keeping or reordering is allowed; before the deletion, adding is too
    expect(s.apply(req('patch', { patch: { metadata: { finalizers: null } } }), 40).change?.type).toBe('DELETED');
  });

  it('deletes a bound pod gracefully: marked first, removed by a delete with grace period 0', () => {
    const s = api();
    const p: K8sObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n1' } };
    s.apply({ type: 'api.request', requestId: 'r', verb: 'create', kind: 'Pod', namespace: 'ns', name: 'p', object: p }, 0);
    const first = s.apply({ type: 'api.request', requestId: 'r', verb: 'delete', kind: 'Pod', namespace: 'ns', name: 'p' }, 1);
    expect(first.after?.metadata.deletionGracePeriodSeconds).toBe(30);
    const last = s.apply({ type: 'api.request', requestId: 'r', verb: 'delete', kind: 'Pod', namespace: 'ns', name: 'p', gracePeriodSeconds: 0 }, 2);
    expect(last.change?.type).toBe('DELETED');
  });

  it('answers NotFound and AlreadyExists with the upstream wording', () => {
    const s = api();
    expect(s.apply(req('delete'), 0).message).toBe('volumeattachments.storage.k8s.io "va" not found');
    s.apply(req('create', { object: va() }), 0);
    expect(s.apply(req('create', { object: va() }), 0).reason).toBe('AlreadyExists');
  });

  it('applies JSON merge patches (null removes a field)', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 } }, { b: { c: null, e: 4 }, f: [1] })).toEqual({ a: 1, b: { d: 3, e: 4 }, f: [1] });
  });

  it('reads the strategic merge directives for a list merged by value (finalizers): a removal or an addition leaves the other entries alone', () => {
    const pv = { metadata: { name: 'pv', finalizers: ['kubernetes.io/pv-protection', 'p/f'] } };
    // what csi-provisioner sends to take its finalizer off, computed from a cache that may lag
    expect(mergePatch(pv, { metadata: { '$deleteFromPrimitiveList/finalizers': ['p/f'], '$setElementOrder/finalizers': ['kubernetes.io/pv-protection'] } }))
      .toEqual({ metadata: { name: 'pv', finalizers: ['kubernetes.io/pv-protection'] } });
    // the last one off: the field goes
    expect(mergePatch({ metadata: { finalizers: ['p/f'] } }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['p/f'] } })).toEqual({ metadata: {} });
    // an addition is a union in the order given; entries the sender did not know of stay
    expect(mergePatch({ metadata: { finalizers: ['a', 'x'] } }, { metadata: { '$setElementOrder/finalizers': ['a', 'p/f'], finalizers: ['p/f'] } }))
      .toEqual({ metadata: { finalizers: ['a', 'p/f', 'x'] } });
  });
});

describe('the states a trace step carries', () => {
  it('are plain objects, as a team\'s test reads them (toStrictEqual against a literal, hasOwnProperty), though built as dictionaries', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const steps = runScenario('pod-migration', { k8s: '1.30' }).steps;
    const keyed = steps.filter((s) => Object.keys(s.states).length > 1);
    expect(keyed.length).toBeGreaterThan(10);
    for (const s of keyed) {
      expect(Object.getPrototypeOf(s.states)).toBe(Object.prototype);
      expect(s.states).toStrictEqual({ ...s.states });
      expect(s.states.hasOwnProperty(s.instance)).toBe(true);
    }
  });
});

describe('the event recorder\'s correlator (client-go tools/record/events_cache.go getEventKey)', () => {
  it('counts an Event up for the same object, source and message; a pod recreated under its name, or another source, gets an Event of its own', async () => {
    const { EventRecorder } = await import('../../src/machines/cluster/eventRecorder.ts');
    const api = new ApiServer(createRng(3), 0);
    const pod = (uid: string): K8sObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'default', uid }, spec: { containers: [] } });
    api.apply({ type: 'api.request', requestId: 'a', verb: 'create', kind: 'Pod', namespace: 'default', name: 'web-0', object: pod('uid-old') }, 0);
    const rec = new EventRecorder(api, createRng(4), 0);
    const adc = { name: 'attach-detach-controller', host: 'master', isKubelet: false };
    const ev = { type: 'event.recorded', involved: { kind: 'Pod', namespace: 'default', name: 'web-0' }, eventType: 'Normal', reason: 'SuccessfulAttachVolume', message: 'AttachVolume.Attach succeeded for volume "pvc-1"' } as const;
    const first = rec.write(adc, ev, 1_000).change;
    expect(rec.write(adc, ev, 2_000).change.after).toMatchObject({ count: 2, involvedObject: { uid: 'uid-old' } });
    // the same reason and message from another process: another correlator, another Event
    const kubelet = rec.write({ name: 'kubelet', host: 'node-1', isKubelet: true }, ev, 3_000).change;
    expect(kubelet.before).toBeNull();
    expect(kubelet.name).not.toBe(first.name);
    // the pod deleted and recreated with a new UID (a StatefulSet's pod moving): its Event starts at count 1
    api.apply({ type: 'api.request', requestId: 'b', verb: 'delete', kind: 'Pod', namespace: 'default', name: 'web-0' }, 4_000);
    api.apply({ type: 'api.request', requestId: 'c', verb: 'create', kind: 'Pod', namespace: 'default', name: 'web-0', object: pod('uid-new') }, 5_000);
    const again = rec.write(adc, ev, 6_000).change;
    expect(again.before).toBeNull();
    expect(again.after).toMatchObject({ count: 1, involvedObject: { uid: 'uid-new' } });
    expect(again.name).not.toBe(first.name);
  });
});
