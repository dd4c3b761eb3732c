import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { nodeLifecycleControllerMachine } from '../../src/machines/node-lifecycle-controller/index.ts';

const EPOCH = Date.UTC(2023, 0, 11, 6, 58, 0) * 1000;
const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2023-01-11T06:58:00Z' }] } } as any;

/** The controller, started, on a profile: the actor and every event it emits. */
function started(profile: '1.20' | '1.30') {
  const actor = createActor(nodeLifecycleControllerMachine, { input: { id: 'nlc', host: 'm', profile, epochUs: EPOCH } });
  const emitted: any[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  actor.send({ type: 'component.started', now: 0 });
  return { actor, emitted };
}

describe('node lifecycle controller', () => {
  it('marks a node Ready=Unknown and taints it unreachable once its heartbeat is older than 40s, checking every 5s', () => {
    const { actor, emitted } = started('1.20');
    actor.send({ type: 'watch.added', now: 0, object: node });
    expect(emitted.filter((e) => e.type === 'timer.requested')).toEqual([{ type: 'timer.requested', key: 'monitorNodeHealth', at: 5_000_000 }]);
    actor.send({ type: 'clock.ticked', now: 40_000_000, key: 'monitorNodeHealth' });
    expect(emitted.some((e) => e.type === 'api.request')).toBe(false);
    actor.send({ type: 'clock.ticked', now: 45_000_000, key: 'monitorNodeHealth' });
    const patches = emitted.filter((e) => e.type === 'api.request');
    expect(patches[0].patch.status.conditions[0]).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    expect(patches[1].patch.spec.taints[0]).toMatchObject({ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' });
  });

  it('says each of the kubelet\'s conditions it turns Unknown, queues the taint, records NodeNotReady, then turns the Ready condition of the node\'s pods False (tryUpdateNodeHealth, processTaintBaseEviction, RecordNodeStatusChange, MarkPodsNotReady)', () => {
    const { actor, emitted } = started('1.30');
    const beat = '2023-01-11T06:58:00Z';
    const cond = (type: string, status: string) => ({ type, status, lastHeartbeatTime: beat, lastTransitionTime: '2023-01-11T06:00:00Z' });
    actor.send({ type: 'watch.added', now: 0, object: { ...node, status: { conditions: [cond('MemoryPressure', 'False'), cond('DiskPressure', 'False'), cond('PIDPressure', 'False'), cond('Ready', 'True')] } } });
    const pod = (name: string, nodeName: string, ready: string): any => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', resourceVersion: '7' }, spec: { nodeName },
      status: { phase: 'Running', conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: ready, lastTransitionTime: '2023-01-11T06:10:00Z' }, { type: 'ContainersReady', status: ready }] } });
    actor.send({ type: 'watch.added', now: 0, object: pod('web-0', 'n1', 'True') });
    actor.send({ type: 'watch.added', now: 0, object: pod('web-1', 'n2', 'True') });
    actor.send({ type: 'watch.added', now: 0, object: pod('web-2', 'n1', 'False') });
    emitted.length = 0;
    actor.send({ type: 'clock.ticked', now: 45_000_000, key: 'monitorNodeHealth' });
    const seen = emitted.filter((e) => e.type !== 'timer.requested').map((e) => e.type === 'log' ? `${e.msg}${e.args.type ? ' ' + e.args.type : ''}${e.args.pod ? ' ' + e.args.pod : ''}`
      : e.type === 'api.request' ? `${e.verb} ${e.kind} ${e.name}` : `event ${e.involved.kind} ${e.reason}`);
    expect(seen).toEqual([
      'nodeLifecycleController.nodeNotUpdated Ready', 'nodeLifecycleController.nodeNotUpdated MemoryPressure', 'nodeLifecycleController.nodeNotUpdated DiskPressure', 'nodeLifecycleController.nodeNotUpdated PIDPressure',
      'patchStatus Node n1', 'nodeLifecycleController.addingTaint', 'nodeLifecycleController.recordingStatusChange', 'event Node NodeNotReady',
      'nodeLifecycleController.markingPodsNotReady', 'nodeLifecycleController.podNotReady default/web-0', 'updateStatus Pod web-0', 'event Pod NodeNotReady', 'patch Node n1',
    ]);
    const written = emitted.find((e) => e.verb === 'updateStatus');
    // only the Ready condition changes, and its transition time (UpdatePodCondition); the informer's resourceVersion goes with it
    expect(written.object.status.conditions).toEqual([{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'False', lastTransitionTime: '2023-01-11T06:58:45Z' }, { type: 'ContainersReady', status: 'True' }]);
    expect(written.object.metadata.resourceVersion).toBe('7');
    expect(emitted.find((e) => e.type === 'event.recorded' && e.involved.kind === 'Pod')).toMatchObject({ eventType: 'Warning', reason: 'NodeNotReady', message: 'Node is not ready' });
    const status = emitted.find((e) => e.verb === 'patchStatus').patch.status.conditions;
    expect(status.map((c: any) => `${c.type}=${c.status}/${c.reason}`)).toEqual(['MemoryPressure=Unknown/NodeStatusUnknown', 'DiskPressure=Unknown/NodeStatusUnknown', 'PIDPressure=Unknown/NodeStatusUnknown', 'Ready=Unknown/NodeStatusUnknown']);
    expect(emitted.find((e) => e.msg === 'nodeLifecycleController.nodeNotUpdated' && e.args.type === 'MemoryPressure').args.condition).toContain('Type:MemoryPressure,Status:False,');
  });

  it('adds a condition the kubelet never posted as Unknown, "Kubelet never posted node status.", and says so', () => {
    const { actor, emitted } = started('1.20');
    actor.send({ type: 'watch.added', now: 0, object: { ...node, metadata: { name: 'n1', creationTimestamp: '2023-01-01T00:00:00Z' } } });
    actor.send({ type: 'clock.ticked', now: 45_000_000, key: 'monitorNodeHealth' });
    expect(emitted.filter((e) => e.type === 'log' && e.msg === 'nodeLifecycleController.conditionNeverUpdated').map((e) => e.args.type)).toEqual(['MemoryPressure', 'DiskPressure', 'PIDPressure']);
    // (a condition with no transition time prints Go's zero time)
    expect(emitted.find((e) => e.msg === 'nodeLifecycleController.nodeNotUpdated').args.condition).toContain('LastTransitionTime:0001-01-01 00:00:00 +0000 UTC,');
    const added = emitted.find((e) => e.verb === 'patchStatus').patch.status.conditions.find((c: any) => c.type === 'PIDPressure');
    expect(added).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: '2023-01-01T00:00:00Z' });
  });

  it('handles a node once until it is Ready again; a condition already Unknown keeps its transition time; pods in name order', () => {
    const { actor, emitted } = started('1.30');
    const beat = '2023-01-11T06:58:00Z';
    actor.send({ type: 'watch.added', now: 0, object: { ...node, status: { conditions: [
      { type: 'MemoryPressure', status: 'Unknown', lastHeartbeatTime: beat, lastTransitionTime: '2023-01-11T05:00:00Z' }, { type: 'Ready', status: 'True', lastHeartbeatTime: beat, lastTransitionTime: '2023-01-11T06:00:00Z' }] } } });
    const pod = (name: string): any => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: 'n1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    actor.send({ type: 'watch.added', now: 0, object: pod('web-b') });
    actor.send({ type: 'watch.added', now: 0, object: pod('web-a') });
    actor.send({ type: 'clock.ticked', now: 45_000_000, key: 'monitorNodeHealth' });
    expect(emitted.filter((e) => e.msg === 'nodeLifecycleController.podNotReady').map((e) => e.args.pod)).toEqual(['default/web-a', 'default/web-b']);
    const memory = emitted.find((e) => e.verb === 'patchStatus').patch.status.conditions.find((c: any) => c.type === 'MemoryPressure');
    expect(memory).toMatchObject({ status: 'Unknown', lastTransitionTime: '2023-01-11T05:00:00Z' });
    const writes = emitted.filter((e) => e.type === 'api.request').length;
    // (the informer has not brought the Unknown status back yet: the node is remembered as handled)
    actor.send({ type: 'clock.ticked', now: 50_000_000, key: 'monitorNodeHealth' });
    expect(emitted.filter((e) => e.type === 'api.request').length).toBe(writes);
  });

  it('handles a node again only after it was Ready again; forgets a deleted node', () => {
    const { actor, emitted } = started('1.30');
    const at = (status: string, beat: string): any => ({ ...node, status: { conditions: [{ type: 'Ready', status, lastHeartbeatTime: beat }] } });
    actor.send({ type: 'watch.added', now: 0, object: at('True', '2023-01-11T06:58:00Z') });
    const handled = () => emitted.filter((e) => e.verb === 'patchStatus').length;
    actor.send({ type: 'clock.ticked', now: 45_000_000, key: 'monitorNodeHealth' });
    expect(handled()).toBe(1);
    // the informer brings the Unknown status back: still handled, nothing new
    actor.send({ type: 'watch.modified', now: 46_000_000, object: at('Unknown', '2023-01-11T06:58:00Z'), oldObject: at('True', '2023-01-11T06:58:00Z') });
    // a Ready update whose heartbeat is already stale again is a new silence (in a running controller the timer goes on)
    actor.send({ type: 'watch.modified', now: 47_000_000, object: at('True', '2023-01-11T06:58:01Z'), oldObject: at('Unknown', '2023-01-11T06:58:00Z') });
    actor.send({ type: 'clock.ticked', now: 95_000_000, key: 'monitorNodeHealth' });
    expect(handled()).toBe(2);
    actor.send({ type: 'watch.modified', now: 96_000_000, object: at('True', '2023-01-11T06:59:36Z'), oldObject: at('Unknown', '2023-01-11T06:58:01Z') });
    actor.send({ type: 'watch.deleted', now: 97_000_000, object: at('True', '2023-01-11T06:59:36Z') });
    actor.send({ type: 'clock.ticked', now: 200_000_000, key: 'monitorNodeHealth' });
    expect(handled()).toBe(2);
    // (only its own timer's tick runs a pass)
    actor.send({ type: 'watch.added', now: 201_000_000, object: at('True', '2023-01-11T06:58:00Z') });
    actor.send({ type: 'clock.ticked', now: 202_000_000, key: 'somethingElse' });
    expect(handled()).toBe(2);
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
