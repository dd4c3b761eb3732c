import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { nodeLifecycleControllerMachine } from '../../src/machines/node-lifecycle-controller/index.ts';

const EPOCH = Date.UTC(2023, 0, 11, 6, 58, 0) * 1000;
const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2023-01-11T06:58:00Z' }] } } as any;

describe('node lifecycle controller', () => {
  it('marks a node Ready=Unknown and taints it unreachable once its heartbeat is older than 40s, checking every 5s', () => {
    const actor = createActor(nodeLifecycleControllerMachine, { input: { id: 'nlc', host: 'm', profile: '1.20', epochUs: EPOCH } });
    const emitted: any[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    actor.send({ type: 'watch.added', now: 0, object: node });
    expect(emitted.filter((e) => e.type === 'timer.requested')).toEqual([{ type: 'timer.requested', key: 'monitorNodeHealth', at: 5_000_000 }]);
    actor.send({ type: 'clock.ticked', now: 40_000_000, key: 'monitorNodeHealth' });
    expect(emitted.some((e) => e.type === 'api.request')).toBe(false);
    actor.send({ type: 'clock.ticked', now: 45_000_000, key: 'monitorNodeHealth' });
    const patches = emitted.filter((e) => e.type === 'api.request');
    expect(patches[0].patch.status.conditions[0]).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    expect(patches[1].patch.spec.taints[0]).toMatchObject({ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' });
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(nodeLifecycleControllerMachine, {
      input: { id: 'nlc', host: 'm', profile: '1.20' },
      events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }],
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as any);
    expect(new Set(paths.map((p) => JSON.stringify(p.state.value)))).toEqual(new Set(['"NotStarted"', '"Running"']));
  });
});
