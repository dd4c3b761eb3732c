import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { externalSnapshotterMachine } from '../../src/machines/external-snapshotter/index.ts';

const D = 'com.tencent.cloud.csi.cbs';
const input = { id: 'external-snapshotter', host: 'ctrl', profile: '1.20' as const, driverName: D };
const objs: any[] = [
  { kind: 'VolumeSnapshotClass', metadata: { name: 'cbs-snap' }, driver: D, deletionPolicy: 'Delete' },
  { kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { volumeName: 'pvc-1' } },
  { kind: 'PersistentVolume', metadata: { name: 'pvc-1' }, spec: { csi: { driver: D, volumeHandle: 'disk-1' } } },
];
const snap = { kind: 'VolumeSnapshot', metadata: { name: 's1', namespace: 'default', uid: 'u1' }, spec: { volumeSnapshotClassName: 'cbs-snap', source: { persistentVolumeClaimName: 'data' } } };

describe('external-snapshotter', () => {
  it('creates the content, cuts the snapshot, and marks both ready; deletion calls DeleteSnapshot', () => {
    const actor = createActor(externalSnapshotterMachine, { input });
    const emitted: any[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    for (const o of objs) actor.send({ type: 'watch.added', now: 0, object: o });
    actor.send({ type: 'watch.added', now: 1, object: snap as any });
    const create = emitted.find((e) => e.type === 'api.request' && e.kind === 'VolumeSnapshotContent');
    expect(create.name).toBe('snapcontent-u1');
    expect(create.object.spec).toMatchObject({ driver: D, deletionPolicy: 'Delete', source: { volumeHandle: 'disk-1' }, volumeSnapshotRef: { name: 's1', uid: 'u1' } });
    for (const r of emitted.filter((e) => e.type === 'api.request')) actor.send({ type: 'api.result', now: 2, requestId: r.requestId, ok: true, code: 201 });
    expect(emitted.find((e) => e.type === 'event.recorded')?.reason).toBe('CreatingSnapshot');
    actor.send({ type: 'watch.added', now: 3, object: create.object });
    const call = emitted.find((e) => e.type === 'csi.call');
    expect(call).toMatchObject({ rpc: 'CreateSnapshot', request: { name: 'snapshot-u1', source_volume_id: 'disk-1' } });
    expect(emitted.filter((e) => e.type === 'log').map((e) => e.msg)).toContain('externalSnapshotter.createSnapshotStarted');
    actor.send({ type: 'csi.result', now: 4, requestId: call.requestId, rpc: 'CreateSnapshot', code: 'OK', response: { snapshot: { snapshot_id: 'snap-1', size_bytes: 10737418240, ready_to_use: true, creation_time: { seconds: 1715679001, nanos: 906281123 } } } });
    // the driver's answer is CreateSnapshotResponse{snapshot: …}: its handle, size and creation time reach the log
    const created = emitted.find((e) => e.type === 'log' && e.msg === 'externalSnapshotter.createdSnapshot');
    expect(created.args).toMatchObject({ snapshotId: 'snap-1', size: 10737418240, readyToUse: true, creationTime: '2024-05-14 09:30:01.906281123 +0000 UTC' });
    expect(emitted.find((e) => e.type === 'log' && e.msg === 'externalSnapshotter.updateSnapshotContentStatus').args.createdAt).toBe('1715679001906281123');
    const status = emitted.filter((e) => e.type === 'api.request').at(-1);
    expect(status.patch.status).toMatchObject({ snapshotHandle: 'snap-1', readyToUse: true, restoreSize: 10737418240 });
    actor.send({ type: 'api.result', now: 5, requestId: status.requestId, ok: true, code: 200 });
    const ready = { ...create.object, status: status.patch.status };
    actor.send({ type: 'watch.modified', now: 6, object: ready, oldObject: create.object });
    const snapStatus = emitted.filter((e) => e.type === 'api.request').at(-1);
    expect(snapStatus.patch.status).toMatchObject({ boundVolumeSnapshotContentName: 'snapcontent-u1', readyToUse: true });
    expect(emitted.filter((e) => e.type === 'event.recorded').map((e) => e.reason)).toEqual(['CreatingSnapshot', 'SnapshotCreated', 'SnapshotReady']);
    actor.send({ type: 'api.result', now: 7, requestId: snapStatus.requestId, ok: true, code: 200 });
    actor.send({ type: 'watch.modified', now: 8, object: { ...ready, metadata: { ...ready.metadata, deletionTimestamp: 'x' } }, oldObject: ready });
    expect(emitted.filter((e) => e.type === 'csi.call').at(-1)).toMatchObject({ rpc: 'DeleteSnapshot', request: { snapshot_id: 'snap-1' } });
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(externalSnapshotterMachine, {
      input, events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }],
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as any);
    expect(paths.map((p) => JSON.stringify(p.state.value)).sort()).toEqual(['"running"', '"stopped"']);
  });
});
