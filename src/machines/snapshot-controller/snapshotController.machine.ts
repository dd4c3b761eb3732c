/**
 * The snapshot-controller (kubernetes-csi/external-snapshotter pkg/common-controller): one per
 * cluster, a Deployment of its own (not a sidecar). For a dynamic VolumeSnapshot of a class of any
 * driver it creates the VolumeSnapshotContent snapcontent-<snapshot uid> (the source volume's handle,
 * the driver, the class's deletionPolicy, a reference back), puts its finalizers on the snapshot and
 * records CreatingSnapshot; once the csi-snapshotter sidecar has marked the content ready it copies
 * the result into the snapshot's status (SnapshotCreated, SnapshotReady). A deleted snapshot: the
 * content is deleted (deletionPolicy Delete), then the snapshot's finalizer removed.
 * Models: external-snapshotter v4.0.0 / v8.0.1 pkg/common-controller/snapshot_controller.go
 * (createSnapshotContent, updateSnapshotStatus, checkandRemoveSnapshotFinalizersAndCheckandDeleteContent),
 * pkg/utils/util.go (names, finalizers). Its own log lines (-v=5 and lower) are left out: the steps
 * are its API writes and Events.
 * Left out: pre-provisioned snapshots, the being-created annotation, the PVC-as-source finalizer,
 * group snapshots, retries with backoff.
 */
import { setup } from 'xstate';
import { inPlaceReaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { rfc3339 } from '../shared/goFormat.ts';
import { formatBinary } from '../shared/quantity.ts';

export type SnapshotControllerInput = ComponentInput;

export const CONTENT_FINALIZER = 'snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection';
export const SNAPSHOT_BOUND_FINALIZER = 'snapshot.storage.kubernetes.io/volumesnapshot-bound-protection';

interface Pending { what: 'createContent' | 'other'; snapshot: string }

export interface SnapshotControllerContext {
  classes: Record<string, K8sObject>;
  pvcs: Record<string, K8sObject>;
  pvs: Record<string, K8sObject>;
  /** VolumeSnapshots by "ns/name", contents by name */
  snapshots: Record<string, K8sObject>;
  contents: Record<string, K8sObject>;
  /** requests in flight by id, and the snapshots with an operation in flight */
  pending: Record<string, Pending>;
  busy: Record<string, true>;
  seq: number;
}
type Ctx = SnapshotControllerContext;
type Emit = (e: ClusterEmitted) => void;
const snapKey = (o: K8sObject): string => `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;

function send(ctx: Ctx, p: Pending, e: Record<string, unknown>, emit: Emit): void {
  const requestId = `snapctl-${++ctx.seq}`;
  ctx.pending[requestId] = p;
  emit({ ...e, requestId } as unknown as ClusterEmitted);
}

/** syncSnapshot for a dynamic, unbound, ready or deleted VolumeSnapshot. */
function syncSnapshot(ctx: Ctx, snap: K8sObject, emit: Emit): void {
  const key = snapKey(snap);
  const cls = ctx.classes[snap.spec?.volumeSnapshotClassName ?? ''];
  if (!cls || ctx.busy[key]) return;
  const contentName = `snapcontent-${snap.metadata.uid}`;
  const content = ctx.contents[contentName];
  if (snap.metadata.deletionTimestamp) {
    ctx.busy[key] = true;
    if (content && !content.metadata.deletionTimestamp && content.spec?.deletionPolicy === 'Delete') {
      send(ctx, { what: 'other', snapshot: key }, { type: 'api.request', verb: 'delete', kind: 'VolumeSnapshotContent', name: contentName }, emit);
    }
    send(ctx, { what: 'other', snapshot: key }, { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshot', namespace: snap.metadata.namespace, name: snap.metadata.name, patch: { metadata: { finalizers: null } } }, emit);
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
        deletionPolicy: cls.deletionPolicy ?? 'Delete', driver: cls.driver, source: { volumeHandle: pv.spec.csi.volumeHandle },
        volumeSnapshotClassName: cls.metadata.name,
        volumeSnapshotRef: { apiVersion: 'snapshot.storage.k8s.io/v1', kind: 'VolumeSnapshot', name: snap.metadata.name, namespace: snap.metadata.namespace, resourceVersion: snap.metadata.resourceVersion, uid: snap.metadata.uid },
      },
    };
    send(ctx, { what: 'createContent', snapshot: key }, { type: 'api.request', verb: 'create', kind: 'VolumeSnapshotContent', name: contentName, object }, emit);
    send(ctx, { what: 'other', snapshot: key }, { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshot', namespace: snap.metadata.namespace, name: snap.metadata.name, patch: { metadata: { finalizers: [SNAPSHOT_BOUND_FINALIZER] } } }, emit);
    return;
  }
  if (content?.status?.readyToUse && !snap.status?.readyToUse) {
    ctx.busy[key] = true;
    const involved = { kind: 'VolumeSnapshot' as const, namespace: snap.metadata.namespace!, name: snap.metadata.name };
    emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'SnapshotCreated', message: `Snapshot ${key} was successfully created by the CSI driver.` });
    emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'SnapshotReady', message: `Snapshot ${key} is ready to use.` });
    const creationTime = rfc3339(Number(content.status.creationTime) / 1000); // creationTime is in ns
    // the content's restoreSize is bytes (int64), the snapshot's a resource.Quantity
    send(ctx, { what: 'other', snapshot: key }, {
      type: 'api.request', verb: 'patchStatus', kind: 'VolumeSnapshot', namespace: snap.metadata.namespace, name: snap.metadata.name,
      patch: { status: { boundVolumeSnapshotContentName: content.metadata.name, creationTime, readyToUse: true, ...(content.status.restoreSize !== undefined ? { restoreSize: formatBinary(Number(content.status.restoreSize)) } : {}) } },
    }, emit);
  }
}

export const snapshotControllerMachine = setup({
  types: { context: {} as SnapshotControllerContext, events: {} as ClusterEvent, emitted: {} as ClusterEmitted, input: {} as SnapshotControllerInput },
  actions: {
    handleWatchEvent: inPlaceReaction<SnapshotControllerContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'watch.added' && event.type !== 'watch.modified' && event.type !== 'watch.deleted') return;
      const o = event.object;
      const gone = event.type === 'watch.deleted';
      const emit: Emit = emitOut;
      const put = (m: Record<string, K8sObject>, k: string) => { if (gone) delete m[k]; else m[k] = o; };
      switch (o.kind) {
        case 'VolumeSnapshotClass': put(ctx.classes, o.metadata.name); return;
        case 'PersistentVolumeClaim': put(ctx.pvcs, snapKey(o)); return;
        case 'PersistentVolume': put(ctx.pvs, o.metadata.name); return;
        case 'VolumeSnapshot': put(ctx.snapshots, snapKey(o)); if (!gone) syncSnapshot(ctx, o, emit); return;
        case 'VolumeSnapshotContent': {
          put(ctx.contents, o.metadata.name);
          const ref = o.spec?.volumeSnapshotRef;
          const snap = ref ? ctx.snapshots[`${ref.namespace}/${ref.name}`] : undefined;
          if (snap) syncSnapshot(ctx, snap, emit);
          return;
        }
        default: return;
      }
    }),
    handleResult: inPlaceReaction<SnapshotControllerContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'api.result') return;
      const p = ctx.pending[event.requestId];
      if (!p) return;
      delete ctx.pending[event.requestId];
      if (p.what === 'createContent' && event.ok) {
        const [namespace, name] = p.snapshot.split('/');
        emitOut({ type: 'event.recorded', involved: { kind: 'VolumeSnapshot', namespace: namespace!, name: name! }, eventType: 'Normal', reason: 'CreatingSnapshot', message: `Waiting for a snapshot ${p.snapshot} to be created by the CSI driver.` });
      }
      if (!Object.values(ctx.pending).some((q) => q.snapshot === p.snapshot)) delete ctx.busy[p.snapshot];
    }),
    resetCaches: ({ context: ctx }) => { ctx.pending = {}; ctx.busy = {}; },
  },
}).createMachine({
  id: 'snapshot-controller',
  initial: 'stopped',
  context: () => ({ classes: {}, pvcs: {}, pvs: {}, snapshots: {}, contents: {}, pending: {}, busy: {}, seq: 0 }),
  states: {
    stopped: { description: 'The snapshot-controller Deployment is not running.', on: { 'component.started': { target: 'running', actions: 'resetCaches' } } },
    running: {
      description: 'Syncs VolumeSnapshots from its informers: creates their contents, and copies a ready content into the snapshot.',
      on: {
        'watch.added': { actions: 'handleWatchEvent' },
        'watch.modified': { actions: 'handleWatchEvent' },
        'watch.deleted': { actions: 'handleWatchEvent' },
        'api.result': { actions: 'handleResult' },
        'host.shutdown': { target: 'stopped' },
      },
    },
  },
});
