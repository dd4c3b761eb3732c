/**
 * external-snapshotter: ONE machine standing for TWO real binaries. The common snapshot-controller
 * (a cluster Deployment, pkg/common-controller) creates a VolumeSnapshotContent for a dynamic
 * VolumeSnapshot and binds the two; the csi-snapshotter sidecar (pkg/sidecar-controller, next to the
 * CSI controller plugin) calls CreateSnapshot / DeleteSnapshot and writes the content's status.
 * Only the sidecar's log lines are printed (source csi-snapshotter); the controller's part shows in
 * API writes and Events.
 *
 * Main path: VolumeSnapshot (class of this driver, source PVC) → content snapcontent-<snapshot uid>
 * (spec.source.volumeHandle, driver, deletionPolicy, volumeSnapshotRef) + CreatingSnapshot event →
 * CreateSnapshot {source_volume_id, name: snapshot-<snapshot uid>} → content status {snapshotHandle,
 * creationTime, restoreSize, readyToUse} → VolumeSnapshot status {boundVolumeSnapshotContentName,
 * readyToUse} + SnapshotCreated/SnapshotReady events. Delete: VolumeSnapshot deleted → content deleted
 * (deletionPolicy Delete) → DeleteSnapshot → content finalizer removed → content gone → snapshot
 * finalizer removed.
 *
 * Models: kubernetes-csi/external-snapshotter v4.0.0 / v8.0.1 pkg/common-controller/snapshot_controller.go
 * (createSnapshotContent, updateSnapshotStatus, checkandRemoveSnapshotFinalizersAndCheckandDeleteContent),
 * pkg/sidecar-controller/snapshot_controller.go (syncContent, createSnapshotWrapper,
 * updateSnapshotContentStatus, deleteCSISnapshotOperation), pkg/utils/util.go (names, finalizers).
 * Left out: pre-provisioned snapshots, the being-created/being-deleted annotations, PVC source
 * finalizer, secrets, group snapshots, ListSnapshots polling while readyToUse is false, retries.
 */
import { goTimeString, rfc3339 } from '../shared/goFormat.ts';
import { formatBinary } from '../shared/quantity.ts';
import { setup, enqueueActions } from 'xstate';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { rpcErrorText } from '../shared/csi.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { SNAPSHOTTER_TIMEOUT } from '../shared/timing.ts';

/** Input of the external-snapshotter (snapshot-controller + csi-snapshotter). */
export interface ExternalSnapshotterInput extends ComponentInput {
  /** the CSI driver name the sidecar serves; only classes naming it are handled */
  driverName: string;
  /** wall-clock epoch (µs) of virtual time 0 */
  epochUs?: number;
}

export const CONTENT_FINALIZER = 'snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection';
export const SNAPSHOT_BOUND_FINALIZER = 'snapshot.storage.kubernetes.io/volumesnapshot-bound-protection';

interface Pending { what: 'createContent' | 'createSnapshot' | 'contentStatus' | 'snapshotStatus' | 'deleteSnapshot' | 'removeContentFinalizer' | 'other'; content: string; snapshot?: string }

export interface ExternalSnapshotterContext {
  input: ExternalSnapshotterInput;
  classes: Record<string, K8sObject>;
  pvcs: Record<string, K8sObject>;
  pvs: Record<string, K8sObject>;
  /** VolumeSnapshots by "ns/name", contents by name */
  snapshots: Record<string, K8sObject>;
  contents: Record<string, K8sObject>;
  /** requests in flight by id, and the contents/snapshots with an operation in flight */
  pending: Record<string, Pending>;
  busy: Record<string, true>;
  seq: number;
}
type Ctx = ExternalSnapshotterContext;
type Emit = (e: ClusterEmitted) => void;
const snapKey = (o: K8sObject): string => `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;

function send(ctx: Ctx, p: Pending, e: Record<string, unknown>, emit: Emit): void {
  const requestId = `snap-${++ctx.seq}`;
  ctx.pending[requestId] = p;
  emit({ ...e, requestId } as unknown as ClusterEmitted);
}

/** common controller syncSnapshot for a dynamic, unbound, or deleted VolumeSnapshot. */
function syncSnapshot(ctx: Ctx, snap: K8sObject, emit: Emit): void {
  const key = snapKey(snap);
  const cls = ctx.classes[snap.spec?.volumeSnapshotClassName ?? ''];
  if (!cls || cls.driver !== ctx.input.driverName || ctx.busy[key]) return;
  const contentName = `snapcontent-${snap.metadata.uid}`;
  const content = ctx.contents[contentName];
  if (snap.metadata.deletionTimestamp) {
    ctx.busy[key] = true;
    if (content && !content.metadata.deletionTimestamp && content.spec?.deletionPolicy === 'Delete') {
      send(ctx, { what: 'other', content: contentName, snapshot: key }, { type: 'api.request', verb: 'delete', kind: 'VolumeSnapshotContent', name: contentName }, emit);
    }
    send(ctx, { what: 'other', content: contentName, snapshot: key }, { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshot', namespace: snap.metadata.namespace, name: snap.metadata.name, patch: { metadata: { finalizers: null } } }, emit);
    return;
  }
  if (!content && !snap.status?.boundVolumeSnapshotContentName) {
    const pvc = ctx.pvcs[`${snap.metadata.namespace}/${snap.spec?.source?.persistentVolumeClaimName}`];
    const pv = pvc ? ctx.pvs[pvc.spec?.volumeName ?? ''] : undefined;
    if (!pv?.spec?.csi?.volumeHandle) return;
    ctx.busy[key] = true;
    const object: K8sObject = {
      apiVersion: 'snapshot.storage.k8s.io/v1', kind: 'VolumeSnapshotContent',
      metadata: { name: contentName, finalizers: [CONTENT_FINALIZER] },
      spec: {
        deletionPolicy: cls.deletionPolicy ?? 'Delete', driver: ctx.input.driverName, source: { volumeHandle: pv.spec.csi.volumeHandle },
        volumeSnapshotClassName: cls.metadata.name,
        volumeSnapshotRef: { apiVersion: 'snapshot.storage.k8s.io/v1', kind: 'VolumeSnapshot', name: snap.metadata.name, namespace: snap.metadata.namespace, resourceVersion: snap.metadata.resourceVersion, uid: snap.metadata.uid },
      },
    };
    send(ctx, { what: 'createContent', content: contentName, snapshot: key }, { type: 'api.request', verb: 'create', kind: 'VolumeSnapshotContent', name: contentName, object }, emit);
    send(ctx, { what: 'other', content: contentName, snapshot: key }, { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshot', namespace: snap.metadata.namespace, name: snap.metadata.name, patch: { metadata: { finalizers: [SNAPSHOT_BOUND_FINALIZER] } } }, emit);
    return;
  }
  if (content?.status?.readyToUse && !snap.status?.readyToUse) {
    ctx.busy[key] = true;
    const involved = { kind: 'VolumeSnapshot' as const, namespace: snap.metadata.namespace!, name: snap.metadata.name };
    emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'SnapshotCreated', message: `Snapshot ${key} was successfully created by the CSI driver.` });
    emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'SnapshotReady', message: `Snapshot ${key} is ready to use.` });
    const creationTime = rfc3339(Number(content.status.creationTime) / 1000); // creationTime is in ns
    // the content's restoreSize is bytes (int64), the snapshot's a resource.Quantity
    send(ctx, { what: 'snapshotStatus', content: content.metadata.name, snapshot: key }, {
      type: 'api.request', verb: 'patchStatus', kind: 'VolumeSnapshot', namespace: snap.metadata.namespace, name: snap.metadata.name,
      patch: { status: { boundVolumeSnapshotContentName: content.metadata.name, creationTime, readyToUse: true, ...(content.status.restoreSize !== undefined ? { restoreSize: formatBinary(Number(content.status.restoreSize)) } : {}) } },
    }, emit);
  }
}

/** sidecar syncContent. */
function syncContent(ctx: Ctx, c: K8sObject, emit: Emit, now: number): void {
  if (c.spec?.driver !== ctx.input.driverName || ctx.busy[c.metadata.name]) return;
  const content = c.metadata.name;
  const log = (msg: string, args: Record<string, string | number | boolean> = {}) => emit({ type: 'log', msg: `externalSnapshotter.${msg}`, args: { content, ...args } });
  if (c.metadata.deletionTimestamp) {
    log('synchronizingContent');
    ctx.busy[content] = true;
    if (c.spec.deletionPolicy === 'Delete' && c.status?.snapshotHandle) {
      log('deleteSnapshotStarted');
      send(ctx, { what: 'deleteSnapshot', content }, { type: 'csi.call', rpc: 'DeleteSnapshot', request: { snapshot_id: c.status.snapshotHandle }, endpoint: 'controller', timeout: SNAPSHOTTER_TIMEOUT }, emit);
    } else {
      send(ctx, { what: 'removeContentFinalizer', content }, { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshotContent', name: content, patch: { metadata: { finalizers: null } } }, emit);
    }
    return;
  }
  if (c.spec?.source?.volumeHandle && !c.status) {
    log('synchronizingContent');
    log('createSnapshotStarted');
    log('createSnapshotWrapper');
    ctx.busy[content] = true;
    const cls = ctx.classes[c.spec.volumeSnapshotClassName ?? ''];
    const request = { name: `snapshot-${c.spec.volumeSnapshotRef?.uid}`, parameters: cls?.parameters ?? {}, source_volume_id: c.spec.source.volumeHandle };
    void now;
    send(ctx, { what: 'createSnapshot', content }, { type: 'csi.call', rpc: 'CreateSnapshot', request, endpoint: 'controller', timeout: SNAPSHOTTER_TIMEOUT }, emit);
  }
}

export const externalSnapshotterMachine = setup({
  types: { context: {} as ExternalSnapshotterContext, events: {} as ClusterEvent, emitted: {} as ClusterEmitted, input: {} as ExternalSnapshotterInput },
  actions: {
    handleWatchEvent: enqueueActions(({ context: ctx, event, enqueue }) => {
      if (event.type !== 'watch.added' && event.type !== 'watch.modified' && event.type !== 'watch.deleted') return;
      const o = event.object;
      const gone = event.type === 'watch.deleted';
      const emit: Emit = (e) => enqueue.emit(e as never);
      const put = (m: Record<string, K8sObject>, k: string) => { if (gone) delete m[k]; else m[k] = o; };
      switch (o.kind) {
        case 'VolumeSnapshotClass': put(ctx.classes, o.metadata.name); return;
        case 'PersistentVolumeClaim': put(ctx.pvcs, snapKey(o)); return;
        case 'PersistentVolume': put(ctx.pvs, o.metadata.name); return;
        case 'VolumeSnapshot': put(ctx.snapshots, snapKey(o)); if (!gone) syncSnapshot(ctx, o, emit); return;
        case 'VolumeSnapshotContent': {
          put(ctx.contents, o.metadata.name);
          if (!gone) syncContent(ctx, o, emit, event.now);
          const ref = o.spec?.volumeSnapshotRef;
          const snap = ref ? ctx.snapshots[`${ref.namespace}/${ref.name}`] : undefined;
          if (snap) syncSnapshot(ctx, snap, emit);
          return;
        }
        default: return;
      }
    }),
    handleResult: enqueueActions(({ context: ctx, event, enqueue }) => {
      if (event.type !== 'api.result' && event.type !== 'csi.result') return;
      const p = ctx.pending[event.requestId];
      if (!p) return;
      delete ctx.pending[event.requestId];
      const emit: Emit = (e) => enqueue.emit(e as never);
      const content = p.content;
      const log = (msg: string, args: Record<string, string | number | boolean> = {}) => emit({ type: 'log', msg: `externalSnapshotter.${msg}`, args: { content, ...args } });
      if (event.type === 'csi.result') {
        if (event.code !== 'OK') {
          const err = rpcErrorText(event.code, event.message ?? '');
          if (p.what === 'createSnapshot') {
            log('createSnapshotReturnedError', { err });
            log('createSnapshotError', { err: `failed to take snapshot of the volume ${ctx.contents[content]?.spec?.source?.volumeHandle}: ${JSON.stringify(err)}` });
            emit({ type: 'event.recorded', involved: { kind: 'VolumeSnapshotContent', name: content }, eventType: 'Warning', reason: 'SnapshotCreationFailed', message: `Failed to create snapshot: failed to take snapshot of the volume ${ctx.contents[content]?.spec?.source?.volumeHandle}: ${JSON.stringify(err)}` });
          } else {
            emit({ type: 'event.recorded', involved: { kind: 'VolumeSnapshotContent', name: content }, eventType: 'Warning', reason: 'SnapshotDeleteError', message: 'Failed to delete snapshot' });
          }
          delete ctx.busy[content];
          return;
        }
        if (p.what === 'createSnapshot') {
          // CreateSnapshotResponse{snapshot: Snapshot{snapshot_id, size_bytes, creation_time, ready_to_use}}
          const r = ((event.response ?? {}).snapshot ?? {}) as Record<string, unknown>;
          const snapshotId = String(r.snapshot_id ?? '');
          const size = Number(r.size_bytes ?? 0);
          const readyToUse = r.ready_to_use !== false;
          const ts = r.creation_time as { seconds?: number; nanos?: number } | undefined;
          const wallUs = ts ? (ts.seconds ?? 0) * 1e6 + Math.floor((ts.nanos ?? 0) / 1000) : (ctx.input.epochUs ?? 0) + event.now;
          const nsExtra = ts ? (ts.nanos ?? 0) % 1000 : 0;
          // creationTime is a time.Time (%v); createdAt its UnixNano, an int64 (BigInt: a double would round it)
          const creationTime = goTimeString(wallUs, 0, 'UTC', nsExtra);
          const createdAtNs = (BigInt(wallUs) * 1000n + BigInt(nsExtra)).toString();
          log('createdSnapshot', { driver: ctx.input.driverName, snapshotId, creationTime, size, readyToUse });
          log('updateSnapshotContentStatus', { snapshotId, readyToUse, createdAt: createdAtNs, size });
          send(ctx, { what: 'contentStatus', content }, { type: 'api.request', verb: 'patchStatus', kind: 'VolumeSnapshotContent', name: content, patch: { status: { creationTime: Number(createdAtNs), readyToUse, restoreSize: size, snapshotHandle: snapshotId } } }, emit);
        } else {
          send(ctx, { what: 'removeContentFinalizer', content }, { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshotContent', name: content, patch: { metadata: { finalizers: null }, status: { snapshotHandle: null } } }, emit);
        }
        return;
      }
      if (p.what === 'removeContentFinalizer' && event.ok) log('removedContentFinalizer');
      if (p.what === 'createContent' && event.ok && p.snapshot) {
        const [namespace, name] = p.snapshot.split('/');
        emit({ type: 'event.recorded', involved: { kind: 'VolumeSnapshot', namespace: namespace!, name: name! }, eventType: 'Normal', reason: 'CreatingSnapshot', message: `Waiting for a snapshot ${p.snapshot} to be created by the CSI driver.` });
      }
      if (p.what === 'contentStatus' || p.what === 'removeContentFinalizer' || p.what === 'deleteSnapshot') delete ctx.busy[content];
      if (p.snapshot && !Object.values(ctx.pending).some((q) => q.snapshot === p.snapshot)) delete ctx.busy[p.snapshot];
    }),
    resetCaches: ({ context: ctx }) => { ctx.pending = {}; ctx.busy = {}; },
  },
}).createMachine({
  id: 'external-snapshotter',
  initial: 'stopped',
  context: ({ input }) => ({ input, classes: {}, pvcs: {}, pvs: {}, snapshots: {}, contents: {}, pending: {}, busy: {}, seq: 0 }),
  states: {
    stopped: { description: 'Neither snapshot-controller nor csi-snapshotter is running.', on: { 'component.started': { target: 'running', actions: 'resetCaches' } } },
    running: {
      description: 'Both controllers sync VolumeSnapshots and VolumeSnapshotContents from their informers.',
      on: {
        'watch.added': { actions: 'handleWatchEvent' },
        'watch.modified': { actions: 'handleWatchEvent' },
        'watch.deleted': { actions: 'handleWatchEvent' },
        'api.result': { actions: 'handleResult' },
        'csi.result': { actions: 'handleResult' },
        'host.shutdown': { target: 'stopped' },
      },
    },
  },
});
