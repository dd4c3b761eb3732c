import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { externalSnapshotterMachine } from '../../src/machines/external-snapshotter/index.ts';
import { snapshotControllerMachine } from '../../src/machines/snapshot-controller/index.ts';
import { runScenario, SCENARIOS, scenarioFile, scenarioFromManifests } from '../../src/machines/index.ts';

const D = 'com.tencent.cloud.csi.cbs';
const input = { id: 'external-snapshotter', host: 'ctrl', profile: '1.20' as const, driverName: D };
const objs: any[] = [
  { kind: 'VolumeSnapshotClass', metadata: { name: 'cbs-snap' }, driver: D, deletionPolicy: 'Delete' },
  { kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { volumeName: 'pvc-1' } },
  { kind: 'PersistentVolume', metadata: { name: 'pvc-1' }, spec: { csi: { driver: D, volumeHandle: 'disk-1' } } },
];
const snap = { kind: 'VolumeSnapshot', metadata: { name: 's1', namespace: 'default', uid: 'u1' }, spec: { volumeSnapshotClassName: 'cbs-snap', source: { persistentVolumeClaimName: 'data' } } };

describe('snapshot-controller and the csi-snapshotter sidecar (external-snapshotter)', () => {
  const start = (machine: any, inp: any) => {
    const actor: any = createActor(machine, { input: inp });
    const emitted: any[] = [];
    actor.on('*', (e: any) => emitted.push(e));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    return { actor, emitted, send: (e: any) => actor.send(e) };
  };

  it('the controller creates and binds the content, the sidecar cuts the snapshot, the controller marks the snapshot ready; deletion calls DeleteSnapshot', () => {
    const ctl = start(snapshotControllerMachine, { id: 'snapshot-controller', host: 'snapshot-controller-0', profile: '1.20' });
    const car = start(externalSnapshotterMachine, input);
    const both = (e: any) => { ctl.send(e); car.send(e); };
    for (const o of objs) both({ type: 'watch.added', now: 0, object: o });
    both({ type: 'watch.added', now: 1, object: snap });
    // checkandAddSnapshotFinalizers Updates the snapshot and the sync goes on once that has returned (syncSnapshot)
    const logs = () => ctl.emitted.filter((e) => e.type === 'log').map((e) => e.msg.replace('snapshotController.', ''));
    expect(logs()).toEqual([]);
    const asSource = ctl.emitted.find((e) => e.type === 'api.request' && e.kind === 'VolumeSnapshot');
    expect(asSource.object.metadata.finalizers).toEqual(['snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection']);
    ctl.send({ type: 'api.result', now: 1, requestId: asSource.requestId, ok: true, code: 200, object: asSource.object });
    // createSnapshotContent says so (klog.Infof), then ensurePVCFinalizer Updates the source claim and the content is
    // created only once that Update has returned, with "Added protection finalizer …" (common-controller snapshot_controller.go)
    expect(logs()).toEqual(['creatingContent']);
    const claimUpdate = ctl.emitted.find((e) => e.type === 'api.request' && e.kind === 'PersistentVolumeClaim');
    expect(claimUpdate.object.metadata.finalizers).toEqual(['snapshot.storage.kubernetes.io/pvc-as-source-protection']);
    expect(ctl.emitted.some((e) => e.type === 'api.request' && e.kind === 'VolumeSnapshotContent')).toBe(false);
    ctl.send({ type: 'api.result', now: 1, requestId: claimUpdate.requestId, ok: true, code: 200, object: claimUpdate.object });
    expect(logs()).toEqual(['creatingContent', 'addedPvcFinalizer']);
    const create = ctl.emitted.find((e) => e.type === 'api.request' && e.kind === 'VolumeSnapshotContent');
    expect(create.name).toBe('snapcontent-u1');
    expect(create.object.spec).toMatchObject({ driver: D, deletionPolicy: 'Delete', source: { volumeHandle: 'disk-1' }, volumeSnapshotRef: { name: 's1', uid: 'u1' } });
    // created with no finalizer: syncContent adds it once the content is seen (addContentFinalizer)
    expect(create.object.metadata.finalizers).toBeUndefined();
    ctl.send({ type: 'api.result', now: 2, requestId: create.requestId, ok: true, code: 201 });
    expect(ctl.emitted.find((e) => e.type === 'event.recorded')?.reason).toBe('CreatingSnapshot');
    // the sidecar sees snapshots' contents only: nothing yet
    expect(car.emitted).toEqual([]);
    both({ type: 'watch.added', now: 3, object: create.object });
    // createSnapshotWrapper marks the content volumesnapshot-being-created before any CSI call (v4.0.0: an Update of its copy)
    expect(car.emitted.some((e) => e.type === 'csi.call')).toBe(false);
    const mark = car.emitted.find((e) => e.type === 'api.request');
    expect(mark).toMatchObject({ verb: 'update', kind: 'VolumeSnapshotContent', name: 'snapcontent-u1' });
    expect(mark.object.metadata.annotations).toEqual({ 'snapshot.storage.kubernetes.io/volumesnapshot-being-created': 'yes' });
    const marked = { ...mark.object, metadata: { ...mark.object.metadata, resourceVersion: '7' } };
    car.send({ type: 'api.result', now: 3, requestId: mark.requestId, ok: true, code: 200, object: marked });
    // pkg/snapshotter/snapshotter.go CreateSnapshot asks the driver's name first (csirpc.GetDriverName)
    const info = car.emitted.find((e) => e.type === 'csi.call');
    expect(info).toMatchObject({ rpc: 'GetPluginInfo', request: {} });
    car.send({ type: 'csi.result', now: 3, requestId: info.requestId, rpc: 'GetPluginInfo', code: 'OK', response: { name: D, vendor_version: 'v1' } });
    const call = car.emitted.filter((e) => e.type === 'csi.call').at(-1);
    // (a class with no parameters sends none: protobuf leaves an empty map out)
    expect(call).toMatchObject({ rpc: 'CreateSnapshot', request: { name: 'snapshot-u1', source_volume_id: 'disk-1' } });
    expect(call.request.parameters).toBeUndefined();
    // csi-lib-utils' LogGRPC lines around both calls, the request as sorted JSON
    const grpc = car.emitted.filter((e) => e.type === 'log' && /grpc/.test(e.msg)).map((e) => `${e.msg.replace('externalSnapshotter.', '')} ${e.args.method}`);
    expect(grpc).toEqual(['grpcCall /csi.v1.Identity/GetPluginInfo', 'grpcRequest /csi.v1.Identity/GetPluginInfo', 'grpcResponse /csi.v1.Identity/GetPluginInfo', 'grpcError /csi.v1.Identity/GetPluginInfo', 'grpcCall /csi.v1.Controller/CreateSnapshot', 'grpcRequest /csi.v1.Controller/CreateSnapshot']);
    expect(car.emitted.find((e) => e.msg === 'externalSnapshotter.grpcRequest' && /CreateSnapshot/.test(e.args.method)).args.request).toBe('{"name":"snapshot-u1","source_volume_id":"disk-1"}');
    expect(car.emitted.filter((e) => e.type === 'log').map((e) => e.msg)).toContain('externalSnapshotter.createSnapshotStarted');
    car.send({ type: 'csi.result', now: 4, requestId: call.requestId, rpc: 'CreateSnapshot', code: 'OK', response: { snapshot: { snapshot_id: 'snap-1', size_bytes: 10737418240, ready_to_use: true, creation_time: { seconds: 1715679001, nanos: 906281123 } } } });
    // the driver's answer is CreateSnapshotResponse{snapshot: …}: its handle, size and creation time reach the log
    const created = car.emitted.find((e) => e.type === 'log' && e.msg === 'externalSnapshotter.createdSnapshot');
    expect(created.args).toMatchObject({ snapshotId: 'snap-1', size: 10737418240, readyToUse: true, creationTime: '2024-05-14 09:30:01.906281123 +0000 UTC' });
    expect(car.emitted.find((e) => e.type === 'log' && e.msg === 'externalSnapshotter.updateSnapshotContentStatus').args.createdAt).toBe('1715679001906281123');
    // updateSnapshotContentStatus reads the content, then writes its status (v4.0.0: UpdateStatus)
    const read = car.emitted.filter((e) => e.type === 'api.request').at(-1);
    expect(read).toMatchObject({ verb: 'get', kind: 'VolumeSnapshotContent', name: 'snapcontent-u1' });
    car.send({ type: 'api.result', now: 5, requestId: read.requestId, ok: true, code: 200, object: marked });
    const status = car.emitted.filter((e) => e.type === 'api.request').at(-1);
    expect(status).toMatchObject({ verb: 'updateStatus', kind: 'VolumeSnapshotContent' });
    expect(status.object.status).toMatchObject({ snapshotHandle: 'snap-1', readyToUse: true, restoreSize: 10737418240 });
    const written = { ...marked, status: status.object.status, metadata: { ...marked.metadata, resourceVersion: '8' } };
    car.send({ type: 'api.result', now: 5, requestId: status.requestId, ok: true, code: 200, object: written });
    // then the annotation comes off the content just written (removeAnnVolumeSnapshotBeingCreated)
    const unmark = car.emitted.filter((e) => e.type === 'api.request').at(-1);
    expect(unmark).toMatchObject({ verb: 'update', kind: 'VolumeSnapshotContent' });
    expect(unmark.object.metadata).toMatchObject({ annotations: {}, resourceVersion: '8' });
    expect(unmark.object.status.snapshotHandle).toBe('snap-1');
    car.send({ type: 'api.result', now: 5, requestId: unmark.requestId, ok: true, code: 200, object: { ...unmark.object, metadata: { ...unmark.object.metadata, resourceVersion: '9' } } });
    expect(car.emitted.filter((e) => e.type === 'log').map((e) => e.msg)).toContain('externalSnapshotter.removedBeingCreated');
    const ready = { ...create.object, status: status.object.status };
    // (the controller's own writes are done: it is free to sync the snapshot again)
    for (const r of ctl.emitted.filter((e) => e.type === 'api.request' && e.verb !== 'get')) ctl.send({ type: 'api.result', now: 5, requestId: r.requestId, ok: true, code: 200 });
    const bound = { ...snap, metadata: { ...snap.metadata, finalizers: ['snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection'] }, status: { boundVolumeSnapshotContentName: 'snapcontent-u1', readyToUse: false } };
    ctl.send({ type: 'watch.modified', now: 5, object: bound, oldObject: snap });
    both({ type: 'watch.modified', now: 6, object: ready, oldObject: create.object });
    // updateSnapshotStatus reads the snapshot first, then writes it back with UpdateStatus
    const get = ctl.emitted.filter((e) => e.type === 'api.request' && e.verb === 'get').at(-1);
    ctl.send({ type: 'api.result', now: 7, requestId: get.requestId, ok: true, code: 200, object: bound });
    const snapStatus = ctl.emitted.filter((e) => e.type === 'api.request').at(-1);
    expect(snapStatus).toMatchObject({ verb: 'updateStatus', kind: 'VolumeSnapshot' });
    // the snapshot's restoreSize is a quantity, the content's bytes
    expect(snapStatus.object.status).toMatchObject({ boundVolumeSnapshotContentName: 'snapcontent-u1', readyToUse: true, restoreSize: '10Gi' });
    // external-snapshotter v4.0.0 (1.20) records no SnapshotCreated or SnapshotReady
    expect(ctl.emitted.filter((e) => e.type === 'event.recorded').map((e) => e.reason)).toEqual(['CreatingSnapshot']);
    // who does what: the controller never calls the driver, the sidecar never writes a VolumeSnapshot
    expect(ctl.emitted.some((e) => e.type === 'csi.call')).toBe(false);
    expect(car.emitted.some((e) => e.type === 'api.request' && e.kind === 'VolumeSnapshot')).toBe(false);
    ctl.send({ type: 'api.result', now: 8, requestId: snapStatus.requestId, ok: true, code: 200 });
    // a content being deleted that the snapshot-controller has not marked volumesnapshot-being-deleted is left alone (shouldDelete)
    const calls = () => car.emitted.filter((e) => e.type === 'csi.call');
    const n = calls().length;
    const deleting = { ...ready, metadata: { ...ready.metadata, finalizers: ['snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection'], deletionTimestamp: 'x' } };
    car.send({ type: 'watch.modified', now: 8, object: deleting, oldObject: ready });
    expect(calls()).toHaveLength(n);
    const marked2 = { ...deleting, metadata: { ...deleting.metadata, annotations: { 'snapshot.storage.kubernetes.io/volumesnapshot-being-deleted': 'yes' } } };
    car.send({ type: 'watch.modified', now: 9, object: marked2, oldObject: deleting });
    expect(calls().at(-1)).toMatchObject({ rpc: 'DeleteSnapshot', request: { snapshot_id: 'snap-1' } });
    car.send({ type: 'csi.result', now: 10, requestId: calls().at(-1).requestId, rpc: 'DeleteSnapshot', code: 'OK', response: {} });
    // clearVolumeContentStatus: a GET, then UpdateStatus without the snapshot's fields
    const get2 = car.emitted.filter((e) => e.type === 'api.request').at(-1);
    expect(get2).toMatchObject({ verb: 'get', kind: 'VolumeSnapshotContent' });
    car.send({ type: 'api.result', now: 11, requestId: get2.requestId, ok: true, code: 200, object: marked2 });
    const cleared = car.emitted.filter((e) => e.type === 'api.request').at(-1);
    expect(cleared).toMatchObject({ verb: 'updateStatus', kind: 'VolumeSnapshotContent' });
    expect(cleared.object.status).toEqual({});
    car.send({ type: 'api.result', now: 12, requestId: cleared.requestId, ok: true, code: 200, object: cleared.object });
    // the cleared content is synced at once: no handle left, so its finalizer comes off (removeContentFinalizer)
    const unfinalize = car.emitted.filter((e) => e.type === 'api.request').at(-1);
    expect(unfinalize).toMatchObject({ verb: 'update', kind: 'VolumeSnapshotContent' });
    expect(unfinalize.object.metadata.finalizers).toEqual([]);
    expect(calls()).toHaveLength(n + 1);
  });

  it('snapshot-restore, on both profiles: the finalizers, the content and the snapshot\'s status in upstream\'s order (checkandAddSnapshotFinalizers, createSnapshotContent with ensurePVCFinalizer, updateSnapshotStatus, syncContent, checkandRemovePVCFinalizer)', () => {
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario('snapshot-restore', { k8s });
      // (the writes that took: on 1.20 both components Update the content, and one of them may meet a Conflict and retry)
      const writes = t.steps.filter((st) => st.kind === 'api' && st.component === 'snapshot-controller' && st.api && st.api.code < 300).map((st) => `${st.api!.verb} ${st.api!.kind}`);
      expect([k8s, writes]).toEqual([k8s, [
        'update VolumeSnapshot', // volumesnapshot-as-source-protection (an Update: it had no finalizer)
        'update PersistentVolumeClaim', // pvc-as-source-protection on the source claim
        'create VolumeSnapshotContent',
        // v8.0.1 patches finalizers onto objects that have some; v4.0.0 Updates its copy: with seed 1 the controller's
        // finalizer Update lands while csi-snapshotter reads its Secret, and the sidecar's annotation Update of its older
        // copy meets the Conflict (a race either way)
        `${k8s === '1.30' ? 'patch' : 'update'} VolumeSnapshotContent`, // volumesnapshotcontent-bound-protection
        'updateStatus VolumeSnapshot', // bound, readyToUse false
        `${k8s === '1.30' ? 'patch' : 'update'} VolumeSnapshot`, // volumesnapshot-bound-protection, once bound
        // (1.20: no error status to copy: the sidecar's error write, made from the same old copy, met a Conflict too)
        'updateStatus VolumeSnapshot', // creationTime, readyToUse, restoreSize
        'update PersistentVolumeClaim', // the claim's finalizer off: no snapshot of it is being cut
      ]]);
      const conflicts = t.steps.filter((st) => st.api?.code === 409).map((st) => `${st.component} ${st.api!.verb} ${st.api!.kind}`);
      // 1.20: the sidecar's annotation Update, then its error status from the copy its sync began with (v4.0.0
      // updateContentErrorStatusWithEvent(content, …), snapshot_controller.go:104, :159)
      expect([k8s, conflicts]).toEqual([k8s, k8s === '1.30' ? [] : ['external-snapshotter update VolumeSnapshotContent', 'external-snapshotter updateStatus VolumeSnapshotContent']]);
      // csi-snapshotter: the being-created annotation on, the status (after its GET), the annotation off; on 1.20 after a
      // first attempt whose annotation Update met the Conflict, and whose error status, written from the same old copy, did too
      const verb = k8s === '1.30' ? 'patch' : 'update';
      const sidecar = t.steps.filter((st) => st.kind === 'api' && st.component === 'external-snapshotter' && st.api).map((st) => `${st.api!.verb} ${st.api!.kind} ${st.api!.code}`);
      expect([k8s, sidecar]).toEqual([k8s, [
        ...(k8s === '1.30' ? [] : ['update VolumeSnapshotContent 409', 'updateStatus VolumeSnapshotContent 409']),
        `${verb} VolumeSnapshotContent 200`, `${verb}Status VolumeSnapshotContent 200`, `${verb} VolumeSnapshotContent 200`]]);
      const annotated = t.steps.filter((st) => st.component === 'external-snapshotter' && st.api && st.api.code < 300).map((st) => st.objects?.[0]?.after?.metadata.annotations?.['snapshot.storage.kubernetes.io/volumesnapshot-being-created']);
      expect([k8s, annotated]).toEqual([k8s, ['yes', 'yes', undefined]]);
      const events = t.steps.filter((st) => st.kind === 'event' && st.component === 'snapshot-controller').map((st) => st.summary.match(/event (\w+)/)?.[1]);
      expect([k8s, events]).toEqual([k8s, k8s === '1.30' ? ['CreatingSnapshot', 'SnapshotCreated', 'SnapshotReady'] : ['CreatingSnapshot']]);
      const final = (kind: string, name: string) => t.final.objects.find((o) => o.kind === kind && o.metadata.name === name)!;
      expect(final('VolumeSnapshot', 'data-snap').metadata.finalizers).toEqual(['snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection', 'snapshot.storage.kubernetes.io/volumesnapshot-bound-protection']);
      expect(final('PersistentVolumeClaim', 'data').metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
      const content = t.final.objects.find((o) => o.kind === 'VolumeSnapshotContent')!;
      expect(content.metadata.finalizers).toEqual(['snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection']);
      // --prevent-volume-mode-conversion (v8.0.1, on by default) copies the source's volumeMode; v4.0.0 has no such field
      expect([k8s, content.spec.sourceVolumeMode]).toEqual([k8s, k8s === '1.30' ? 'Filesystem' : undefined]);
      // AnyVolumeDataSource (on by default since 1.24): the API server copies dataSource into dataSourceRef
      expect([k8s, final('PersistentVolumeClaim', 'restored').spec.dataSourceRef]).toEqual([k8s, k8s === '1.30' ? { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'data-snap' } : undefined]);
    }
  });

  it('the snapshot-controller\'s own log: its klog.Infof lines and its Events in StartLogging\'s printf form, on both profiles', () => {
    for (const [k8s, eventLine, lines] of [['1.20', 'event.go:282]', [633, 881, 960]], ['1.30', 'event.go:377]', [644, 925, 1004]]] as const) {
      const printed = runScenario('snapshot-restore', { k8s }).steps.filter((st) => st.component === 'snapshot-controller' && st.log).map((st) => st.log!);
      const own = printed.filter((l) => l.includes('snapshot_controller.go:')).map((l) => Number(/snapshot_controller\.go:(\d+)\]/.exec(l)![1]));
      expect([k8s, own]).toEqual([k8s, lines]);
      expect(printed[0]).toContain('createSnapshotContent: Creating content for snapshot default/data-snap through the plugin ...');
      expect(printed[1]).toContain('Added protection finalizer to persistent volume claim default/data');
      expect(printed.at(-1)).toContain('checkandRemovePVCFinalizer[data-snap]: Remove Finalizer for PVC data as it is not used by snapshots in creation');
      const events = printed.filter((l) => l.includes('Event(v1.ObjectReference{Kind:"VolumeSnapshot"'));
      expect([k8s, events.length > 0, events.every((l) => l.includes(eventLine))]).toEqual([k8s, true, true]);
      expect(events[0]).toContain("type: 'Normal' reason: 'CreatingSnapshot' Waiting for a snapshot default/data-snap to be created by the CSI driver.");
    }
  });

  it('a failed Update of the source claim creates no content: the snapshot is synced again after the backoff, and the claim that has the finalizer by then is said to have it', () => {
    const ctl = start(snapshotControllerMachine, { id: 'snapshot-controller', host: 'snapshot-controller-0', profile: '1.30' });
    for (const o of objs) ctl.send({ type: 'watch.added', now: 0, object: o });
    ctl.send({ type: 'watch.added', now: 1, object: snap });
    const asSource = ctl.emitted.find((e) => e.type === 'api.request' && e.kind === 'VolumeSnapshot');
    ctl.send({ type: 'api.result', now: 1, requestId: asSource.requestId, ok: true, code: 200, object: asSource.object });
    const claimUpdate = ctl.emitted.find((e) => e.type === 'api.request' && e.kind === 'PersistentVolumeClaim');
    ctl.send({ type: 'api.result', now: 2, requestId: claimUpdate.requestId, ok: false, code: 409, reason: 'Conflict' });
    expect(ctl.emitted.some((e) => e.type === 'api.request' && e.kind === 'VolumeSnapshotContent')).toBe(false);
    const retry = ctl.emitted.find((e) => e.type === 'timer.requested' && e.key.startsWith('retry/snapshot/'));
    expect(retry).toBeDefined();
    // meanwhile the claim got its finalizer (another snapshot's sync): the retry says so and creates the content
    ctl.send({ type: 'watch.modified', now: 3, object: { ...objs[1], metadata: { ...objs[1].metadata, finalizers: ['snapshot.storage.kubernetes.io/pvc-as-source-protection'] } }, oldObject: objs[1] });
    ctl.send({ type: 'clock.ticked', now: retry.at, key: retry.key });
    const logs = ctl.emitted.filter((e) => e.type === 'log').map((e) => e.msg.replace('snapshotController.', ''));
    expect(logs.slice(-2)).toEqual(['creatingContent', 'pvcFinalizerExists']);
    expect(ctl.emitted.filter((e) => e.type === 'api.request' && e.kind === 'VolumeSnapshotContent').map((e) => e.verb)).toEqual(['create']);
  });

  it('the sidecar leaves alone the contents of another driver: its informer sees every content, so it queues the key and a worker takes it (syncContentByKey), then isDriverMatch stops it', () => {
    const car = start(externalSnapshotterMachine, input);
    car.send({ type: 'watch.added', now: 1, object: { kind: 'VolumeSnapshotContent', metadata: { name: 'snapcontent-x' }, spec: { driver: 'other.csi', source: { volumeHandle: 'v' }, volumeSnapshotRef: { uid: 'x' } } } });
    expect(car.emitted.map((e: any) => [e.type, e.msg, e.stage, e.ownStream])).toEqual([
      ['log', 'externalSnapshotter.enqueued', undefined, true], ['log', 'externalSnapshotter.syncContentByKey', undefined, true],
    ]);
  });

  it('reaches every state', () => {
    for (const [machine, inp] of [[externalSnapshotterMachine, input], [snapshotControllerMachine, { id: 'snapshot-controller', host: 'h', profile: '1.30' }]] as const) {
      const paths = getShortestPaths(machine as any, {
        input: inp, events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }],
        serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
      } as any);
      expect(paths.map((p) => JSON.stringify(p.state.value)).sort()).toEqual(['"running"', '"stopped"']);
    }
  });
});

describe('csi-snapshotter after a failed CreateSnapshot', () => {
  it('writes the error into the content\'s status, requeues it 1s then 2s later (the rate limiter\'s backoff); the retry goes through checkandUpdateContentStatus (its own event and message, written too); the retry that works clears the error and readies the snapshot', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const t = runScenario('snapshot-restore', { k8s: '1.30', faults: ['CreateSnapshot=INTERNALx2'] });
    const calls = t.steps.filter((st) => st.kind === 'rpc' && /CreateSnapshot/.test(st.summary)).map((st) => st.t);
    expect(calls).toHaveLength(3);
    const failedAt = t.steps.filter((st) => st.kind === 'rpc-reply' && /CreateSnapshot: INTERNAL/.test(st.summary)).map((st) => st.t);
    expect(failedAt).toHaveLength(2);
    // each retry comes when its backoff is over: 1s after the first failure, 2s after the second
    expect(Math.round((calls[1]! - failedAt[0]!) / 100)).toBe(10);
    expect(Math.round((calls[2]! - failedAt[1]!) / 100)).toBe(20);
    const errorWrites = t.steps.filter((st) => st.api?.verb === 'patchStatus' && st.api.kind === 'VolumeSnapshotContent' && st.objects?.some((o) => o.after?.status?.error));
    expect(errorWrites.map((st) => st.objects![0]!.after!.status.error.message.replace(/: failed to take.*/, ''))).toEqual(['Failed to create snapshot', 'Failed to check and update snapshot content']);
    const events = t.steps.filter((st) => st.kind === 'event' && st.component === 'external-snapshotter').map((st) => st.summary.match(/event (\w+)/)?.[1]);
    expect(events).toEqual(['SnapshotCreationFailed', 'SnapshotContentCheckandUpdateFailed']);
    // (the error lines: createSnapshot's, then checkandUpdateContentStatus's)
    expect(t.steps.filter((st) => st.severity === 'E' && st.component === 'external-snapshotter').map((st) => st.msg)).toEqual(['externalSnapshotter.createSnapshotError', 'externalSnapshotter.checkandUpdateError']);
    const content = t.final.objects.find((o) => o.kind === 'VolumeSnapshotContent')!;
    expect(content.status).toMatchObject({ readyToUse: true });
    expect(content.status.error).toBeUndefined();
    expect(t.final.objects.find((o) => o.kind === 'VolumeSnapshot')!.status).toMatchObject({ readyToUse: true });
  });
});

describe('csi-snapshotter failing again with the same error (updateContentErrorStatusWithEvent)', () => {
  it('neither writes the status nor records the event again: only its error line says so', () => {
    const t = runScenario('snapshot-restore', { k8s: '1.30', faults: ['CreateSnapshot=INTERNALx3'] });
    const events = t.steps.filter((st) => st.kind === 'event' && st.component === 'external-snapshotter').map((st) => st.summary.match(/event (\w+)/)?.[1]);
    expect(events).toEqual(['SnapshotCreationFailed', 'SnapshotContentCheckandUpdateFailed']);
    const errorWrites = t.steps.filter((st) => st.api?.verb === 'patchStatus' && st.objects?.some((o) => o.after?.status?.error));
    expect(errorWrites).toHaveLength(2);
    expect(t.steps.filter((st) => st.msg === 'externalSnapshotter.checkandUpdateError')).toHaveLength(2);
    expect(t.final.objects.find((o) => o.kind === 'VolumeSnapshot')!.status).toMatchObject({ readyToUse: true });
  });
});

describe('the snapshot-controller copies the content\'s error into the VolumeSnapshot (updateSnapshotStatus)', () => {
  it('a snapshot that cannot be cut shows why in its own status; one that is cut at last shows no error', () => {
    const failing = runScenario('snapshot-restore', { k8s: '1.30', faults: ['CreateSnapshot=INVALID_ARGUMENT'] });
    const snap = failing.final.objects.find((o) => o.kind === 'VolumeSnapshot')!;
    expect(snap.status.readyToUse).toBe(false);
    expect(snap.status.error.message).toMatch(/^Failed to (create snapshot|check and update snapshot content): failed to take snapshot of the volume /);
    const recovered = runScenario('snapshot-restore', { k8s: '1.30', faults: ['CreateSnapshot=INTERNALx1'] });
    const ok = recovered.final.objects.find((o) => o.kind === 'VolumeSnapshot')!;
    expect(ok.status.readyToUse).toBe(true);
    expect(ok.status.error).toBeUndefined();
    // (and it had shown the error while the retry was due)
    expect(recovered.steps.some((st) => st.component === 'snapshot-controller' && st.objects?.some((o) => o.kind === 'VolumeSnapshot' && o.after?.status?.error))).toBe(true);
  });
});

describe('csi-snapshotter\'s volumesnapshot-being-created annotation (createSnapshotWrapper, isCSIFinalError)', () => {
  const timeline = (fault: string) => {
    // (a timed-out call answers after csi-snapshotter's --timeout, 1m: the run goes on long enough for the retry)
    const t = runScenario('snapshot-restore', { k8s: '1.30', faults: [fault], extendBy: 120_000 });
    return t.steps.filter((st) => st.component === 'external-snapshotter' && st.api && st.api.code < 300)
      .map((st) => `${st.api!.verb} ${st.objects?.[0]?.after?.metadata.annotations?.['snapshot.storage.kubernetes.io/volumesnapshot-being-created'] ?? '-'}`);
  };
  it('a final error (INTERNAL): the annotation comes off before the error is written, and goes on again for the retry', () => {
    expect(timeline('CreateSnapshot=INTERNALx1')).toEqual(['patch yes', 'patch -', 'patchStatus -', 'patch yes', 'patchStatus yes', 'patch -']);
  });
  it('the other codes after which the storage may still be working keep it too (Unavailable, ResourceExhausted, Aborted, Canceled); any other code is final', () => {
    for (const code of ['UNAVAILABLE', 'RESOURCE_EXHAUSTED', 'ABORTED', 'CANCELLED']) {
      expect([code, timeline(`CreateSnapshot=${code}x1`)]).toEqual([code, ['patch yes', 'patchStatus yes', 'patchStatus yes', 'patch -']]);
    }
    for (const code of ['NOT_FOUND', 'INVALID_ARGUMENT', 'FAILED_PRECONDITION']) {
      expect([code, timeline(`CreateSnapshot=${code}x1`)]).toEqual([code, ['patch yes', 'patch -', 'patchStatus -', 'patch yes', 'patchStatus yes', 'patch -']]);
    }
  });
  it('the error it writes and records is createSnapshotWrapper\'s, as each release words it ("of the volume, %s" in v4.0.0, "of the volume %s" in v8.0.1)', () => {
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario('snapshot-restore', { k8s, faults: ['CreateSnapshot=INTERNALx1'] });
      // (on 1.20 an attempt may first fail on a Conflict of its annotation Update: the CreateSnapshot error is the one looked at)
      // (then the CreateSnapshot comes from checkandUpdateContentStatus: SnapshotContentCheckandUpdateFailed, "Failed to check and update snapshot content")
      const ev = t.steps.find((st) => st.kind === 'event' && /(SnapshotCreationFailed|SnapshotContentCheckandUpdateFailed).*failed to take snapshot/.test(st.summary))!;
      expect([k8s, ev.summary]).toEqual([k8s, expect.stringMatching(k8s === '1.20'
        ? /(Failed to create snapshot|Failed to check and update snapshot content): failed to take snapshot of the volume, 0001-\S+: "rpc error: code = Internal desc = /
        : /Failed to create snapshot: failed to take snapshot of the volume 0001-\S+: "rpc error: code = Internal desc = /)]);
    }
  });
  it('a write of its own that fails (the annotation\'s) fails the attempt like a CSI error: SnapshotCreationFailed, the error in the status, the retry 1s later', () => {
    const t = runScenario('snapshot-restore', { k8s: '1.30', apiFaults: [{ verb: 'patch', kind: 'VolumeSnapshotContent', component: 'external-snapshotter', code: 500, count: 1, message: 'etcdserver: request timed out' }] });
    const ev = t.steps.find((st) => st.kind === 'event' && /SnapshotCreationFailed/.test(st.summary))!;
    // newControllerUpdateError wraps the API server's answer
    expect(ev.summary).toMatch(/Failed to create snapshot: failed to add VolumeSnapshotBeingCreated annotation on the content snapcontent-\S+: "snapshot controller failed to update snapcontent-\S+ on API server: etcdserver: request timed out"/);
    const calls = t.steps.filter((st) => st.kind === 'rpc' && /CreateSnapshot/.test(st.summary));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.t - ev.t).toBeGreaterThan(900);
    expect(t.final.objects.find((o) => o.kind === 'VolumeSnapshot')!.status).toMatchObject({ readyToUse: true });
  });
  it('a timeout (DEADLINE_EXCEEDED): the annotation stays, the storage may still be cutting the snapshot; the retry that works takes it off', () => {
    expect(timeline('CreateSnapshot=DEADLINE_EXCEEDEDx1')).toEqual(['patch yes', 'patchStatus yes', 'patchStatus yes', 'patch -']);
  });
});

describe('a VolumeSnapshot deleted (processSnapshotWithDeletionTimestamp, the sidecar\'s shouldDelete and deleteCSISnapshot)', () => {
  const story = (deleteAfterRestoreS: number) => {
    const base = SCENARIOS.find((x) => x.id === 'snapshot-restore')!;
    return {
      ...base, id: 'snapshot-delete-test',
      build: (o: any) => {
        const d = base.build(o);
        const restoreAt = d.actions.find((a: any) => a.do === 'create' && a.object?.metadata?.name === 'restored')!.at;
        return {
          ...d, runFor: d.runFor + 60_000_000,
          actions: [...d.actions, { at: restoreAt + deleteAfterRestoreS * 1_000_000, do: 'delete', kind: 'VolumeSnapshot', namespace: 'default', name: 'data-snap', summary: 'You delete VolumeSnapshot data-snap.' }],
        } as any;
      },
    } as any;
  };

  it('marks the content being-deleted, deletes it, drops the as-source finalizer; the sidecar calls DeleteSnapshot, clears the status and the content finalizer; then the bound finalizer goes and both objects are gone (both profiles)', () => {
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario(story(30), { k8s });
      const from = t.steps.findIndex((st) => st.summary === 'You delete VolumeSnapshot data-snap.');
      expect(from).toBeGreaterThan(0);
      const after = t.steps.slice(from + 1);
      const writes = after.filter((st) => st.kind === 'api' && st.api && st.api.code < 300 && /snapshot/.test(st.component))
        .map((st) => `${st.component} ${st.api!.verb} ${st.api!.kind} ${(st.objects?.[0]?.after === null ? 'gone' : '')}`.trim());
      const meta = k8s === '1.30' ? 'patch' : 'update';
      expect([k8s, writes]).toEqual([k8s, [
        `snapshot-controller ${meta} VolumeSnapshotContent`, // setAnnVolumeSnapshotBeingDeleted
        'snapshot-controller delete VolumeSnapshotContent', // deletionPolicy Delete: marked, held by its finalizer
        'snapshot-controller update VolumeSnapshot', // the as-source finalizer off; the bound one stays
        'external-snapshotter updateStatus VolumeSnapshotContent', // clearVolumeContentStatus, after DeleteSnapshot
        `external-snapshotter ${meta} VolumeSnapshotContent gone`, // removeContentFinalizer: the API server deletes it
        'snapshot-controller update VolumeSnapshot gone', // the content is gone: the bound finalizer off, the snapshot deleted
      ]]);
      const rpcs = after.filter((st) => st.kind === 'rpc' && st.component === 'external-snapshotter').map((st) => st.rpc?.method ?? st.summary);
      expect(rpcs.some((r) => /DeleteSnapshot/.test(String(r)))).toBe(true);
      expect(t.final.objects.filter((o) => o.kind === 'VolumeSnapshot' || o.kind === 'VolumeSnapshotContent')).toEqual([]);
      // the restored claim keeps its own volume; the source claim has no snapshot finalizer left
      expect(t.final.objects.find((o) => o.kind === 'PersistentVolumeClaim' && o.metadata.name === 'data')!.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
      expect(t.final.objects.find((o) => o.kind === 'PersistentVolumeClaim' && o.metadata.name === 'restored')!.status.phase).toBe('Bound');
    }
  });

  it('deleted while a claim is being restored from it: SnapshotDeletePending (isVolumeBeingCreatedFromSnapshot), and csi-provisioner will not restore from a snapshot being deleted: both wait for good, the resync (15m) only repeats the event', () => {
    const t = runScenario(story(0.001), { k8s: '1.30', extendBy: 16 * 60_000 });
    const pending = t.steps.filter((st) => st.kind === 'event' && /SnapshotDeletePending/.test(st.summary));
    expect(pending[0]!.summary).toContain('Snapshot is being used to restore a PVC');
    // nothing requeues it (upstream's "TODO: should requeue this?"): the next look is the informers' resync
    expect(pending.length).toBe(2);
    // (the resync runs every 15 minutes from the controller's start, here 14-odd minutes after the deletion)
    const gap = pending[1]!.t - pending[0]!.t;
    expect(gap).toBeGreaterThan(14 * 60_000);
    expect(gap).toBeLessThanOrEqual(15 * 60_000);
    const failed = t.steps.filter((st) => st.kind === 'event' && /ProvisioningFailed/.test(st.summary));
    expect(failed.at(-1)!.summary).toContain('snapshot data-snap is currently being deleted');
    const final = (kind: string, name: string) => t.final.objects.find((o) => o.kind === kind && o.metadata.name === name);
    expect(final('PersistentVolumeClaim', 'restored')!.status.phase).toBe('Pending');
    expect(final('VolumeSnapshot', 'data-snap')!.metadata.deletionTimestamp).toBeDefined();
    expect(final('VolumeSnapshotContent', final('VolumeSnapshot', 'data-snap')!.status.boundVolumeSnapshotContentName)!.metadata.deletionTimestamp).toBeUndefined();
  });
});

describe('csi-snapshotter\'s work queue and cache (enqueueContentWork, syncContentByKey, StoreObjectUpdate)', () => {
  const sidecar = (profile: '1.20' | '1.30') => {
    const actor: any = createActor(externalSnapshotterMachine, { input: { ...input, profile } });
    const emitted: any[] = [];
    actor.on('*', (e: any) => emitted.push(e));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    const msgs = () => emitted.filter((e) => e.type === 'log').map((e) => e.msg.replace('externalSnapshotter.', ''));
    return { send: (e: any) => actor.send(e), emitted, msgs };
  };
  const ready = (rv: string, extra: any = {}) => ({
    kind: 'VolumeSnapshotContent', metadata: { name: 'snapcontent-r', resourceVersion: rv, ...extra.metadata },
    spec: { driver: D, source: { volumeHandle: 'v' }, volumeSnapshotRef: { uid: 'r' }, deletionPolicy: 'Delete' },
    status: { snapshotHandle: 'snap-1', readyToUse: true, ...extra.status },
  });

  it('a ready content is queued, taken, cached and synced, and the sync stops at shouldDelete: every line of its own random stream, no request', () => {
    const car = sidecar('1.20');
    car.send({ type: 'watch.added', now: 1, object: ready('10') });
    expect(car.msgs()).toEqual(['enqueued', 'syncContentByKey', 'storeAdding', 'synchronizingContent', 'checkShouldDelete']);
    expect(car.emitted.every((e) => e.type === 'log' && e.ownStream === true)).toBe(true);
    expect(car.emitted[2].args).toEqual({ content: 'snapcontent-r', version: '10' });
    // the next version replaces the cached one; an older one is ignored and not synced
    car.send({ type: 'watch.modified', now: 2, object: ready('12'), oldObject: ready('10') });
    expect(car.msgs().slice(5)).toEqual(['enqueued', 'syncContentByKey', 'storeUpdating', 'synchronizingContent', 'checkShouldDelete']);
    car.send({ type: 'watch.modified', now: 3, object: ready('11'), oldObject: ready('12') });
    expect(car.msgs().slice(10)).toEqual(['enqueued', 'syncContentByKey', 'storeIgnoring']);
    // gone from the informer: dropped from the cache
    car.send({ type: 'watch.deleted', now: 4, object: ready('12') });
    expect(car.msgs().slice(13)).toEqual(['enqueued', 'syncContentByKey', 'contentDeleted']);
  });

  it('a restarted sidecar starts with an empty cache: the informer\'s initial list adds every content again ("adding", not "updating")', () => {
    const car = sidecar('1.30');
    car.send({ type: 'watch.added', now: 1, object: ready('10') });
    car.send({ type: 'host.shutdown', now: 2 });
    car.send({ type: 'component.started', now: 3 });
    car.send({ type: 'watch.added', now: 4, object: ready('10') });
    expect(car.msgs().slice(5)).toEqual(['enqueued', 'syncContentByKey', 'storeAdding', 'synchronizingContent', 'checkShouldDelete']);
  });

  it('v4.0.0 (1.20) queues every update; v8.0.1 (1.30) only one ShouldEnqueueContentChange lets through: not its status, finalizers or its own being-created annotation', () => {
    const onlyStatus = { status: { restoreSize: 5 } };
    const ownAnnotation = { metadata: { annotations: { 'snapshot.storage.kubernetes.io/volumesnapshot-being-created': 'yes' }, finalizers: ['f'] } };
    const otherAnnotation = { metadata: { annotations: { 'snapshot.storage.kubernetes.io/volumesnapshot-being-deleted': 'yes' } } };
    for (const [profile, queued] of [['1.20', [true, true, true]], ['1.30', [false, false, true]]] as const) {
      const car = sidecar(profile);
      car.send({ type: 'watch.added', now: 1, object: ready('10') });
      const seen = [onlyStatus, ownAnnotation, otherAnnotation].map((extra, i) => {
        const before = car.msgs().length;
        car.send({ type: 'watch.modified', now: 2 + i, object: ready(String(11 + i), extra), oldObject: ready(String(10 + i)) });
        return car.msgs().slice(before).includes('enqueued');
      });
      expect([profile, seen]).toEqual([profile, queued]);
    }
  });

  it('a dynamic snapshot\'s lines in upstream\'s order (v8.0.1): the sync that creates it, the cache line after each write that stores (setAnnVolumeSnapshotBeingCreated, removeAnnVolumeSnapshotBeingCreated, then createSnapshot\'s own); its own annotation and status updates are not queued', () => {
    const t = runScenario('snapshot-restore', { k8s: '1.30' });
    const msgs = t.steps.filter((st) => st.component === 'external-snapshotter' && st.msg && !/grpc/.test(st.msg)).map((st) => st.msg!.replace('externalSnapshotter.', ''));
    expect(msgs).toEqual([
      'enqueued', 'syncContentByKey', 'storeAdding', 'synchronizingContent', 'checkShouldDelete', 'callCreateSnapshot', 'createSnapshotStarted',
      'createSnapshotWrapper', 'getCSISnapshotInput', 'setBeingCreated', 'storeUpdating', 'csiCreateSnapshot', 'createdSnapshot', 'updateSnapshotContentStatus',
      'removedBeingCreated', 'storeUpdating', 'storeUpdating',
    ]);
  });

  it('a deleted content of another driver was never in the cache: nothing to drop (only the queue\'s two lines)', () => {
    const car = sidecar('1.30');
    const other = { kind: 'VolumeSnapshotContent', metadata: { name: 'snapcontent-o', resourceVersion: '5' }, spec: { driver: 'other.csi', source: { volumeHandle: 'v' } } };
    car.send({ type: 'watch.added', now: 1, object: other });
    car.send({ type: 'watch.deleted', now: 2, object: other });
    expect(car.msgs()).toEqual(['enqueued', 'syncContentByKey', 'enqueued', 'syncContentByKey']);
  });

  it('a key queued while a worker holds it (a CreateSnapshot in flight) is synced when the worker lets go of it', () => {
    const t = runScenario('snapshot-restore', { k8s: '1.20' });
    const snap = t.steps.filter((st) => st.component === 'external-snapshotter' && (st.msg || st.rpc));
    const at = (pred: (st: any) => boolean) => snap.findIndex(pred);
    const call = at((st) => st.kind === 'rpc' && /CreateSnapshot/.test(st.summary));
    const removed = at((st) => st.msg === 'externalSnapshotter.removedBeingCreated');
    // queued meanwhile (the annotation and status writes are updates v4.0.0 queues), not taken
    const queuedMeanwhile = snap.slice(call, removed).filter((st) => st.msg === 'externalSnapshotter.enqueued');
    expect(queuedMeanwhile.length).toBeGreaterThan(0);
    expect(snap.slice(call, removed).some((st) => st.msg === 'externalSnapshotter.syncContentByKey')).toBe(false);
    // after the operation: removeAnnVolumeSnapshotBeingCreated's and createSnapshot's cache lines, then the queued key's sync, which does nothing
    expect(snap.slice(removed + 1).map((st) => st.msg?.replace('externalSnapshotter.', '') ?? st.kind)).toEqual([
      'storeUpdating', 'storeUpdating', 'syncContentByKey', 'storeUpdating', 'synchronizingContent', 'checkShouldDelete',
    ]);
  });
});

describe('the snapshotter Secret of a VolumeSnapshotClass (createSnapshotContent\'s annotations, GetCredentialsFromAnnotation)', () => {
  const CEPH_USER = { userID: 'kubernetes', userKey: 'AQBr8dRmXxk0JBAAz3kq9yQwM1s0vV5h0r6FkA==' };

  it('ceph-rbd: the controller records the class\'s Secret on the content, and CreateSnapshot carries its keys and the class\'s other parameters (the log: ***stripped***)', () => {
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario('snapshot-restore', { k8s });
      const content = t.final.objects.find((o) => o.kind === 'VolumeSnapshotContent')!;
      expect([k8s, content.metadata.annotations?.['snapshot.storage.kubernetes.io/deletion-secret-name'], content.metadata.annotations?.['snapshot.storage.kubernetes.io/deletion-secret-namespace']])
        .toEqual([k8s, 'csi-rbd-secret', 'default']);
      const call = t.steps.find((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/CreateSnapshot')!;
      const request = call.rpc!.request as Record<string, unknown>;
      // RemovePrefixedParameters: the secret references stay out of the parameters; --extra-create-metadata (ceph-csi's
      // deployment sets it) adds the snapshot's and the content's names
      expect([k8s, request.parameters, request.secrets]).toEqual([k8s, {
        clusterID: '4a9e463a-4853-4237-a5c5-9ae9d25bacda', 'csi.storage.k8s.io/volumesnapshot/name': 'data-snap',
        'csi.storage.k8s.io/volumesnapshot/namespace': 'default', 'csi.storage.k8s.io/volumesnapshotcontent/name': content.metadata.name,
      }, CEPH_USER]);
      expect(t.steps.some((s) => (s.log ?? '').includes('AQBr8dRm'))).toBe(false);
      expect(t.steps.some((s) => s.component === 'external-snapshotter' && (s.log ?? '').includes('\\"secrets\\":\\"***stripped***\\"') || (s.log ?? '').includes('"secrets":"***stripped***","source_volume_id"'))).toBe(true);
    }
  });

  it('a Secret it cannot read fails the attempt before any annotation or call: its error line, SnapshotCreationFailed with createSnapshotWrapper\'s words, the retry', () => {
    const car = (() => {
      const actor: any = createActor(externalSnapshotterMachine, { input: { ...input, profile: '1.30' } });
      const emitted: any[] = [];
      actor.on('*', (e: any) => emitted.push(e));
      actor.start();
      actor.send({ type: 'component.started', now: 0 });
      return { send: (e: any) => actor.send(e), emitted };
    })();
    car.send({ type: 'watch.added', now: 0, object: { kind: 'VolumeSnapshotClass', metadata: { name: 'c' }, driver: D, deletionPolicy: 'Delete', parameters: { 'csi.storage.k8s.io/snapshotter-secret-name': 's', 'csi.storage.k8s.io/snapshotter-secret-namespace': 'default' } } });
    const content = { kind: 'VolumeSnapshotContent', metadata: { name: 'snapcontent-x', resourceVersion: '5', annotations: { 'snapshot.storage.kubernetes.io/deletion-secret-name': 's', 'snapshot.storage.kubernetes.io/deletion-secret-namespace': 'default' } },
      spec: { driver: D, deletionPolicy: 'Delete', source: { volumeHandle: 'vol-1' }, volumeSnapshotClassName: 'c', volumeSnapshotRef: { name: 'snap', namespace: 'default', uid: 'u1' } } };
    car.send({ type: 'watch.added', now: 1, object: content });
    const get = car.emitted.find((e) => e.type === 'api.request' && e.kind === 'Secret');
    expect(get).toMatchObject({ verb: 'get', namespace: 'default', name: 's' });
    expect(car.emitted.some((e) => e.type === 'csi.call' || (e.type === 'api.request' && e.kind === 'VolumeSnapshotContent'))).toBe(false);
    car.send({ type: 'api.result', now: 2, requestId: get.requestId, ok: false, code: 404, message: 'secrets "s" not found' });
    const logs = car.emitted.filter((e) => e.type === 'log').map((e) => e.msg.replace('externalSnapshotter.', ''));
    expect(logs).toContain('credentialsFailed');
    expect(car.emitted.find((e) => e.msg === 'externalSnapshotter.credentialsFailed').args.err).toBe('error getting secret s in namespace default: secrets "s" not found');
    const status = car.emitted.find((e) => e.type === 'api.request' && e.kind === 'VolumeSnapshotContent');
    expect(status.patch.status.error.message).toBe('Failed to create snapshot: failed to get input parameters to create snapshot for content snapcontent-x: "cannot get credentials for snapshot content \\"snapcontent-x\\""');
    expect(car.emitted.some((e) => e.type === 'timer.requested' && e.key === 'retry/snapcontent-x')).toBe(true);
  });

  it('a Secret it cannot read before DeleteSnapshot: its error line, SnapshotDeleteError "Failed to get snapshot credentials", no call, the retry', () => {
    const actor: any = createActor(externalSnapshotterMachine, { input: { ...input, profile: '1.30' } });
    const emitted: any[] = [];
    actor.on('*', (e: any) => emitted.push(e));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    const content = { kind: 'VolumeSnapshotContent', metadata: { name: 'snapcontent-y', resourceVersion: '9', deletionTimestamp: '2026-01-01T00:00:00Z',
      finalizers: ['snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection'],
      annotations: { 'snapshot.storage.kubernetes.io/volumesnapshot-being-deleted': 'yes', 'snapshot.storage.kubernetes.io/deletion-secret-name': 's', 'snapshot.storage.kubernetes.io/deletion-secret-namespace': 'default' } },
      spec: { driver: D, deletionPolicy: 'Delete', source: { volumeHandle: 'vol-1' }, volumeSnapshotRef: { name: 'snap', namespace: 'default', uid: 'u2' } },
      status: { snapshotHandle: 'snap-1', readyToUse: true } };
    actor.send({ type: 'watch.added', now: 1, object: content });
    const get = emitted.find((e) => e.type === 'api.request' && e.kind === 'Secret');
    expect(get).toMatchObject({ verb: 'get', namespace: 'default', name: 's' });
    actor.send({ type: 'api.result', now: 2, requestId: get.requestId, ok: false, code: 404, message: 'secrets "s" not found' });
    expect(emitted.some((e) => e.type === 'csi.call')).toBe(false);
    expect(emitted.find((e) => e.msg === 'externalSnapshotter.credentialsFailed')?.args.err).toBe('error getting secret s in namespace default: secrets "s" not found');
    expect(emitted.find((e) => e.type === 'event.recorded')).toMatchObject({ eventType: 'Warning', reason: 'SnapshotDeleteError', message: 'Failed to get snapshot credentials' });
    expect(emitted.some((e) => e.type === 'timer.requested' && e.key === 'retry/snapcontent-y')).toBe(true);
  });

  it('DeleteSnapshot carries the Secret\'s keys too, read before the call (deleteCSISnapshotOperation)', () => {
    const t = runScenario('snapshot-restore', { k8s: '1.30', actions: [{ at: '20s', do: 'delete', kind: 'VolumeSnapshot', namespace: 'default', name: 'data-snap' }] as never, runFor: '40s' } as never);
    const call = t.steps.find((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/DeleteSnapshot');
    expect(call, 'DeleteSnapshot').toBeDefined();
    expect((call!.rpc!.request as Record<string, unknown>).secrets).toEqual(CEPH_USER);
  });
});

describe('csi-snapshotter and a content update during its backoff (workqueue Add vs AddRateLimited)', () => {
  // the user labels the content half a second after the second CreateSnapshot failed, while its 2s backoff runs
  const withLabel = (k8s: '1.20' | '1.30') => {
    const faults = ['CreateSnapshot=INTERNALx2'];
    const base = runScenario('snapshot-restore', { k8s, faults });
    const failedAt = base.steps.filter((st) => st.kind === 'rpc-reply' && /CreateSnapshot: INTERNAL/.test(st.summary)).map((st) => st.t);
    expect(failedAt).toHaveLength(2);
    const content = base.final.objects.find((o) => o.kind === 'VolumeSnapshotContent')!.metadata.name;
    const file = scenarioFile('snapshot-restore', { k8s }).yaml.replace(/^  actions:\n/m,
      `  actions:\n    - { at: ${failedAt[1]! + 500}, patch: VolumeSnapshotContent/${content}, with: { metadata: { labels: { team: storage } } } }\n`);
    const t = runScenario(scenarioFromManifests(file), { k8s, faults });
    const calls = t.steps.filter((st) => st.kind === 'rpc' && /CreateSnapshot/.test(st.summary)).map((st) => st.t);
    const patched = t.steps.find((st) => st.kind === 'user' && st.api?.kind === 'VolumeSnapshotContent')!;
    const baseCalls = base.steps.filter((st) => st.kind === 'rpc' && /CreateSnapshot/.test(st.summary)).map((st) => st.t);
    return { t, calls, baseCalls, failed: failedAt[1]!, patched, content };
  };
  it('1.30: the update ShouldEnqueueContentChange lets through is synced at once (CreateSnapshot again before the backoff is over); the rate-limited add still comes when it is due', () => {
    const { t, calls, failed, patched, content } = withLabel('1.30');
    expect(patched).toBeDefined();
    expect(calls).toHaveLength(3);
    // the third call follows the label, not the 2s backoff
    expect(calls[2]! - failed).toBeGreaterThan(500);
    expect(calls[2]! - failed).toBeLessThan(1000);
    // when the backoff is over, the key comes back and is synced: the content is ready by then, nothing to do
    const laterSyncs = t.steps.filter((st) => st.component === 'external-snapshotter' && st.t >= failed + 2000 && st.msg === 'externalSnapshotter.synchronizingContent' && st.args?.content === content);
    expect(laterSyncs.length).toBeGreaterThan(0);
    expect(t.final.objects.find((o) => o.kind === 'VolumeSnapshot')!.status).toMatchObject({ readyToUse: true });
  });
  it('1.20: v4.0.0\'s queue backs off 5 ms doubling (client-go\'s DefaultControllerRateLimiter, the retry flags came in v4.2): the retry comes long before the label, which changes nothing', () => {
    const { calls, baseCalls, failed, patched } = withLabel('1.20');
    expect(patched).toBeDefined();
    expect(calls).toHaveLength(3);
    expect(calls[2]! - failed).toBeLessThan(200);
    expect(Math.abs(calls[2]! - baseCalls[2]!)).toBeLessThan(100);
  });
});
