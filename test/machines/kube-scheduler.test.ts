import { describe, it, expect } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { createActor } from 'xstate';
import fc from 'fast-check';
import { nodeUsable, numFeasibleNodesToFind, pickNode } from '../../src/machines/kube-scheduler/filter.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';
import { kubeSchedulerMachine } from '../../src/machines/kube-scheduler/index.ts';
import { pvc, sc, storageCluster } from './pv-controller.fixtures.ts';

const pod = (name: string, claim: string): K8sObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }] }, status: { phase: 'Pending' } });

describe('kube-scheduler with WaitForFirstConsumer', () => {
  it('selects a node on the claim, waits for provisioning and binding, then binds the pod', () => {
    const c = storageCluster('1.30', [sc('cbs-wffc', 'WaitForFirstConsumer')], [
      { at: 1_000_000, do: 'create', object: pvc('data', 'cbs-wffc') },
      { at: 5_000_000, do: 'create', object: pod('web-0', 'data') },
    ]);
    c.run(60_000_000);
    const idx = (pred: (s: (typeof c.steps)[number]) => boolean): number => c.steps.findIndex(pred);
    const selected = idx((s) => s.component === 'kube-scheduler' && s.api?.kind === 'PersistentVolumeClaim');
    const create = idx((s) => s.rpc?.method === '/csi.v1.Controller/CreateVolume');
    // the write that binds the claim (spec.volumeName + bind-completed): what the volume binding
    // plugin waits for before binding the pod (upstream checkBindings); status.phase may come later
    const claimBound = idx((s) => s.component === 'pv-controller' && s.api?.kind === 'PersistentVolumeClaim' && !!s.objects?.[0]?.after?.metadata.annotations?.['pv.kubernetes.io/bind-completed']);
    const podBound = idx((s) => s.component === 'kube-scheduler' && s.api?.kind === 'Pod');
    expect(selected).toBeGreaterThan(-1);
    expect(selected).toBeLessThan(create);
    expect(create).toBeLessThan(claimBound);
    expect(claimBound).toBeLessThan(podBound);
    expect(c.api.get('PersistentVolumeClaim', 'default', 'data')!.metadata.annotations!['volume.kubernetes.io/selected-node']).toBe('node-1');
    expect(c.api.get('Pod', 'default', 'web-0')!.spec.nodeName).toBe('node-1');
    // the bind is a create of the pod's binding subresource (DefaultBinder), the annotation an Update of the claim (bindAPIUpdate)
    expect(c.steps[podBound]!.api).toMatchObject({ verb: 'create', kind: 'Pod', name: 'web-0', subresource: 'binding', code: 201 });
    expect(c.steps[selected]!.api).toMatchObject({ verb: 'update', kind: 'PersistentVolumeClaim', name: 'data' });
    expect(c.steps.some((s) => s.log?.endsWith('"Successfully bound pod to node" pod="default/web-0" node="node-1" evaluatedNodes=2 feasibleNodes=2'))).toBe(true);
    expect(c.api.list('Event').find((e) => e.reason === 'Scheduled')!.message).toBe('Successfully assigned default/web-0 to node-1');
    // PreBind polls the claims once a second from the end of its selected-node write (BindPodVolumes' wait.Poll /
    // PollUntilContextTimeout, the first check after a second): the bind is sent at the first whole second after
    // that write's answer at which the claim is bound, not as soon as it is
    const written = c.steps[selected]!.t, boundAt = c.steps[claimBound]!.t, bindAt = c.steps[podBound]!.t;
    const ticks = Math.ceil((boundAt - written) / 1000);
    expect(bindAt).toBeGreaterThan(written + ticks * 1000);
    expect(bindAt).toBeLessThan(written + ticks * 1000 + 20);
    expect(bindAt - boundAt).toBeGreaterThan(5);
  });

  it('leaves a pod with an unbound Immediate claim Pending with FailedScheduling', () => {
    const c = storageCluster('1.20', [{ ...sc('other', 'Immediate'), provisioner: 'example.com/none' }], [
      { at: 1_000_000, do: 'create', object: pvc('data', 'other') },
      { at: 2_000_000, do: 'create', object: pod('web-0', 'data') },
    ]);
    c.run(30_000_000);
    expect(c.api.get('Pod', 'default', 'web-0')!.spec.nodeName).toBeUndefined();
    expect(c.api.list('Event').find((e) => e.reason === 'FailedScheduling')!.message).toBe('0/2 nodes are available: 2 pod has unbound immediate PersistentVolumeClaims.');
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(kubeSchedulerMachine, {
      input: { id: 'kube-scheduler', host: 'master', profile: '1.30' },
      events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }],
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as never);
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['stopped', 'running']));
  });
});

describe('kube-scheduler node counts', () => {
  // The bind line's evaluatedNodes / feasibleNodes come from counts kept as nodes come, change and go;
  // after any sequence of node events they must equal a count over the node cache.
  const node = (name: string, shape: { unschedulable: boolean; ready: boolean; taint: boolean }): K8sObject => Object.freeze({
    apiVersion: 'v1', kind: 'Node', metadata: { name },
    spec: { ...(shape.unschedulable ? { unschedulable: true } : {}), ...(shape.taint ? { taints: [{ key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' }] } : {}) },
    status: { conditions: [{ type: 'Ready', status: shape.ready ? 'True' : 'Unknown' }] },
  });
  it('the node cache holds every node not deleted, as the informer last showed it, after every node added, changed or deleted', () => {
    const shape = fc.record({ unschedulable: fc.boolean(), ready: fc.boolean(), taint: fc.boolean() });
    const ev = fc.record({ type: fc.constantFrom('watch.added', 'watch.modified', 'watch.deleted'), name: fc.constantFrom('n-0', 'n-1', 'n-2', 'n-3'), shape });
    fc.assert(fc.property(fc.array(ev, { maxLength: 40 }), (events) => {
      const actor = createActor(kubeSchedulerMachine, { input: { id: 'kube-scheduler', host: 'master', profile: '1.30' } }).start();
      actor.send({ type: 'component.started', now: 0 });
      const live = new Set<string>();
      for (const e of events) {
        actor.send({ type: e.type, now: 1, object: node(e.name, e.shape) } as never);
        if (e.type === 'watch.deleted') live.delete(e.name); else live.add(e.name);
        const c = actor.getSnapshot().context;
        expect(Object.keys(c.nodes).sort()).toEqual([...live].sort());
        if (e.type !== 'watch.deleted') expect(c.nodes[e.name]).toEqual(node(e.name, e.shape));
      }
    }), { seed: 9, numRuns: 200 });
  });
});

describe('nodeUsable', () => {
  it('answers again for a node object that is not frozen (a test may change it in place); a frozen one cannot change', () => {
    const n: K8sObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec: {}, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    expect(nodeUsable(n)).toBe(true);
    n.spec.unschedulable = true;
    expect(nodeUsable(n)).toBe(false);
  });
});

describe('a large cluster: numFeasibleNodesToFind and nextStartNodeIndex (schedule_one.go, generic_scheduler.go)', () => {
  it('looks for every node below 100, then 50% less a point per 125 nodes, at least 5% and never fewer than 100', () => {
    // worked by hand from the formula: 99 -> 99; 100 -> 100*50/100 = 50 -> 100; 800 -> 50-6 = 44% -> 352;
    // 5000 -> 50-40 = 10% -> 500; 10000 -> 50-80 < 5 -> 5% -> 500; 1500 -> 50-12 = 38% -> 570
    expect([99, 100, 800, 1500, 5000, 10000].map(numFeasibleNodesToFind)).toEqual([99, 100, 352, 570, 500, 500]);
  });

  it('stops filtering once it has found them and starts the next cycle where this one stopped', () => {
    const node = (name: string, unschedulable = false): K8sObject => Object.freeze({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: unschedulable ? { unschedulable: true } : {}, status: { conditions: [{ type: 'Ready', status: 'True' }] } }) as K8sObject;
    // 50 cordoned nodes, then 250 schedulable ones: 300 nodes, 50-2 = 48% -> 144 to find
    const nodes = [...Array.from({ length: 50 }, (_, i) => node(`a-${String(i).padStart(3, '0')}`, true)), ...Array.from({ length: 250 }, (_, i) => node(`b-${String(i).padStart(3, '0')}`))];
    const p = pod('web-0', 'data');
    const first = pickNode(p, nodes, {}, {}, {}, 0);
    expect(first).toEqual({ node: 'b-000', feasible: 144, processed: 194 });
    // the next cycle starts at node 194 (b-144): 106 schedulable to the end, then the 50 cordoned, then 38 more
    const second = pickNode(p, nodes, { 'b-000': 1 }, {}, {}, 194);
    expect(second).toEqual({ node: 'b-001', feasible: 144, processed: 194 });
    const third = pickNode(p, nodes, {}, {}, {}, 194);
    expect(third.node).toBe('b-000');
    // a pick that must not see b-000: start past it, with a window that ends before the list wraps to it
    expect(pickNode(p, nodes, {}, {}, {}, 60).node).toBe('b-010');
  });
});
