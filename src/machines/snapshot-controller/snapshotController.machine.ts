/**
 * The snapshot-controller (kubernetes-csi/external-snapshotter pkg/common-controller): one per
 * cluster, a Deployment of its own (not a sidecar). For a dynamic VolumeSnapshot of a class of any
 * driver, syncSnapshot:
 * - checkandRemovePVCFinalizer: takes its pvc-as-source-protection finalizer off the source claim once no
 *   snapshot of it is still being cut (not readyToUse);
 * - checkandAddSnapshotFinalizers: volumesnapshot-as-source-protection at once, and
 *   volumesnapshot-bound-protection once the snapshot is bound to a content whose deletionPolicy is Delete
 *   (an Update when the snapshot has no finalizer yet, a patch otherwise);
 * - syncUnreadySnapshot: with no content yet, createSnapshotContent puts pvc-as-source-protection on the
 *   source claim (an Update), creates VolumeSnapshotContent snapcontent-<snapshot uid> (no finalizer: the
 *   source volume's handle, the driver, the class's deletionPolicy, a reference back, and on 1.30 the
 *   source's volumeMode), records CreatingSnapshot, then updateSnapshotStatus GETs the snapshot and writes
 *   boundVolumeSnapshotContentName with readyToUse false (UpdateStatus); with a content, it copies the
 *   content's creationTime, readyToUse and restoreSize the same way (SnapshotCreated, SnapshotReady on 1.30).
 * syncContent puts volumesnapshotcontent-bound-protection on a content that lacks it (a patch). A deleted
 * snapshot: the content is deleted (deletionPolicy Delete), then the snapshot's finalizers removed.
 * Models: external-snapshotter v4.0.0 / v8.0.1 pkg/common-controller/snapshot_controller.go (syncSnapshot,
 * checkandAddSnapshotFinalizers, syncUnreadySnapshot, createSnapshotContent, ensurePVCFinalizer,
 * checkandRemovePVCFinalizer, updateSnapshotStatus, syncContent, addContentFinalizer), pkg/utils/util.go
 * (names, finalizers). Its own log lines are left out: they belong to another binary whose log stream the
 * simulation does not have; what it does shows as API writes and Events.
 * Left out: pre-provisioned snapshots, group snapshots, retries with backoff, the PVC finalizer's removal
 * when a snapshot is deleted before it is ready.
 */
import { setup } from 'xstate';
import { inPlaceReaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { rfc3339 } from '../shared/goFormat.ts';
import { formatBinary } from '../shared/quantity.ts';
import { getProfile } from '../profiles/index.ts';

export type SnapshotControllerInput = ComponentInput;

/** upstream: pkg/utils/util.go (v4.0.0 :71-75, v8.0.1 :77-85) */
export const CONTENT_FINALIZER = 'snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection';
export const SNAPSHOT_BOUND_FINALIZER = 'snapshot.storage.kubernetes.io/volumesnapshot-bound-protection';
export const SNAPSHOT_AS_SOURCE_FINALIZER = 'snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection';
export const PVC_FINALIZER = 'snapshot.storage.kubernetes.io/pvc-as-source-protection';

/**
 * a request in flight: what it was for, and for which snapshot (a status GET carries the content it copies);
 * a content's finalizer patch is for its content alone
 */
type Pending = { what: 'createContent' | 'getForStatus' | 'other'; snapshot: string; content?: string } | { what: 'contentFinalizer'; content: string };

export interface SnapshotControllerContext {
  input: SnapshotControllerInput;
  classes: Record<string, K8sObject>;
  pvcs: Record<string, K8sObject>;
  pvs: Record<string, K8sObject>;
  /** VolumeSnapshots by "ns/name", contents by name */
  snapshots: Record<string, K8sObject>;
  contents: Record<string, K8sObject>;
  /** requests in flight by id, and the snapshots with an operation in flight */
  pending: Record<string, Pending>;
  busy: Record<string, true>;
  /** snapshots whose objects changed while they were busy: synced again when their requests are done (the workqueue's requeue) */
  dirty: Record<string, true>;
  /** contents whose finalizer patch is in flight */
  contentBusy: Record<string, true>;
  seq: number;
}
type Ctx = SnapshotControllerContext;
type Emit = (e: ClusterEmitted) => void;
const snapKey = (o: K8sObject): string => `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;
const finalizersOf = (o: K8sObject): string[] => (o.metadata.finalizers ?? []) as string[];
const isReady = (o: K8sObject): boolean => o.status?.readyToUse === true;

function send(ctx: Ctx, p: Pending, e: Record<string, unknown>, emit: Emit): void {
  const requestId = `snapctl-${++ctx.seq}`;
  ctx.pending[requestId] = p;
  emit({ ...e, requestId } as unknown as ClusterEmitted);
}

/** The source claim of a dynamic snapshot, from the informer. */
const sourceClaim = (ctx: Ctx, snap: K8sObject): K8sObject | undefined =>
  ctx.pvcs[`${snap.metadata.namespace}/${snap.spec?.source?.persistentVolumeClaimName}`];

/** isPVCBeingUsed: a snapshot of this claim, in its namespace, that is not ready yet. */
const claimInUse = (ctx: Ctx, pvc: K8sObject): boolean => Object.values(ctx.snapshots).some((o) =>
  o.metadata.namespace === pvc.metadata.namespace && o.spec?.source?.persistentVolumeClaimName === pvc.metadata.name && !isReady(o));

/** An Update of the claim's finalizers (ensurePVCFinalizer, removePVCFinalizer). */
function updateClaimFinalizers(ctx: Ctx, key: string, pvc: K8sObject, finalizers: string[], emit: Emit): void {
  const object: K8sObject = { ...pvc, metadata: { ...pvc.metadata, finalizers } };
  send(ctx, { what: 'other', snapshot: key }, { type: 'api.request', verb: 'update', kind: 'PersistentVolumeClaim', namespace: pvc.metadata.namespace, name: pvc.metadata.name, object }, emit);
}

/** syncSnapshot for a dynamic VolumeSnapshot: unbound, bound but not ready, ready, or deleted. */
function syncSnapshot(ctx: Ctx, snap: K8sObject, emit: Emit): void {
  const key = snapKey(snap);
  const cls = ctx.classes[snap.spec?.volumeSnapshotClassName ?? ''];
  if (!cls) return;
  if (ctx.busy[key]) { ctx.dirty[key] = true; return; }
  const contentName = `snapcontent-${snap.metadata.uid}`;
  const content = ctx.contents[contentName];
  // checkandRemovePVCFinalizer: the claim keeps its finalizer while a snapshot of it is being cut
  const pvc = sourceClaim(ctx, snap);
  if (pvc && finalizersOf(pvc).includes(PVC_FINALIZER) && !claimInUse(ctx, pvc)) {
    ctx.busy[key] = true;
    updateClaimFinalizers(ctx, key, pvc, finalizersOf(pvc).filter((f) => f !== PVC_FINALIZER), emit);
  }
  if (snap.metadata.deletionTimestamp) {
    ctx.busy[key] = true;
    if (content && !content.metadata.deletionTimestamp && content.spec?.deletionPolicy === 'Delete') {
      send(ctx, { what: 'other', snapshot: key }, { type: 'api.request', verb: 'delete', kind: 'VolumeSnapshotContent', name: contentName }, emit);
    }
    send(ctx, { what: 'other', snapshot: key }, { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshot', namespace: snap.metadata.namespace, name: snap.metadata.name, patch: { metadata: { finalizers: null } } }, emit);
    return;
  }
  // checkandAddSnapshotFinalizers
  const has = finalizersOf(snap);
  const addSource = !has.includes(SNAPSHOT_AS_SOURCE_FINALIZER);
  const addBound = !!content && !!snap.status?.boundVolumeSnapshotContentName && !has.includes(SNAPSHOT_BOUND_FINALIZER) && content.spec?.deletionPolicy === 'Delete';
  if (addSource || addBound) {
    ctx.busy[key] = true;
    const finalizers = [...has, ...(addSource ? [SNAPSHOT_AS_SOURCE_FINALIZER] : []), ...(addBound ? [SNAPSHOT_BOUND_FINALIZER] : [])];
    // (an Update when it has none: no patch adds to a missing list, addSnapshotFinalizer)
    send(ctx, { what: 'other', snapshot: key }, has.length === 0
      ? { type: 'api.request', verb: 'update', kind: 'VolumeSnapshot', namespace: snap.metadata.namespace, name: snap.metadata.name, object: { ...snap, metadata: { ...snap.metadata, finalizers } } }
      : { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshot', namespace: snap.metadata.namespace, name: snap.metadata.name, patch: { metadata: { finalizers } } }, emit);
  }
  if (isReady(snap) && snap.status?.boundVolumeSnapshotContentName) return; // syncReadySnapshot: nothing to do here
  if (content) {
    // bindandUpdateVolumeSnapshot: copy what the content says, if it says more than the snapshot
    if (!needsStatusUpdate(snap, content)) return;
    ctx.busy[key] = true;
    send(ctx, { what: 'getForStatus', snapshot: key, content: contentName }, { type: 'api.request', verb: 'get', kind: 'VolumeSnapshot', namespace: snap.metadata.namespace, name: snap.metadata.name }, emit);
    return;
  }
  if (snap.status?.boundVolumeSnapshotContentName) return;
  // createSnapshotContent: the source claim's finalizer (ensurePVCFinalizer), then the content
  const pv = pvc ? ctx.pvs[pvc.spec?.volumeName ?? ''] : undefined;
  if (!pvc || !pv?.spec?.csi?.volumeHandle) return;
  ctx.busy[key] = true;
  if (!finalizersOf(pvc).includes(PVC_FINALIZER) && !pvc.metadata.deletionTimestamp) updateClaimFinalizers(ctx, key, pvc, [...finalizersOf(pvc), PVC_FINALIZER], emit);
  const sourceVolumeMode = getProfile(ctx.input.profile).snapshotSourceVolumeMode && pv.spec.volumeMode ? { sourceVolumeMode: pv.spec.volumeMode } : {};
  const object: K8sObject = {
    apiVersion: 'snapshot.storage.k8s.io/v1', kind: 'VolumeSnapshotContent',
    metadata: { name: contentName },
    spec: {
      deletionPolicy: cls.deletionPolicy ?? 'Delete', driver: cls.driver, source: { volumeHandle: pv.spec.csi.volumeHandle },
      ...sourceVolumeMode,
      volumeSnapshotClassName: cls.metadata.name,
      volumeSnapshotRef: { apiVersion: 'snapshot.storage.k8s.io/v1', kind: 'VolumeSnapshot', name: snap.metadata.name, namespace: snap.metadata.namespace, resourceVersion: snap.metadata.resourceVersion, uid: snap.metadata.uid },
    },
  };
  send(ctx, { what: 'createContent', snapshot: key, content: contentName }, { type: 'api.request', verb: 'create', kind: 'VolumeSnapshotContent', name: contentName, object }, emit);
}

/** needsUpdateSnapshotStatus: the content has a status the snapshot does not show yet. */
function needsStatusUpdate(snap: K8sObject, content: K8sObject): boolean {
  const st = snap.status;
  if (!st?.boundVolumeSnapshotContentName) return true;
  const cs = content.status;
  if (!cs) return false;
  return (cs.readyToUse === true && st.readyToUse !== true) || (cs.creationTime !== undefined && st.creationTime === undefined);
}

/**
 * updateSnapshotStatus, once its GET of the snapshot is back: the status the content says (bound name,
 * readyToUse, creationTime, restoreSize), written with UpdateStatus; SnapshotCreated and SnapshotReady on
 * the first write that sets them (1.30).
 */
function writeSnapshotStatus(ctx: Ctx, key: string, fresh: K8sObject, contentName: string, emit: Emit): void {
  const content = ctx.contents[contentName];
  const cs = content?.status ?? {};
  const old = fresh.status ?? {};
  const status: Record<string, unknown> = { ...old, boundVolumeSnapshotContentName: old.boundVolumeSnapshotContentName ?? contentName, readyToUse: cs.readyToUse === true };
  // creationTime is in ns; the content's restoreSize is bytes (int64), the snapshot's a resource.Quantity
  if (old.creationTime === undefined && cs.creationTime !== undefined) status.creationTime = rfc3339(Number(cs.creationTime) / 1000);
  if (old.restoreSize === undefined && cs.restoreSize !== undefined) status.restoreSize = formatBinary(Number(cs.restoreSize));
  if (getProfile(ctx.input.profile).snapshotReadyEvents) {
    const involved = { kind: 'VolumeSnapshot' as const, namespace: fresh.metadata.namespace!, name: fresh.metadata.name };
    if (old.creationTime === undefined && status.creationTime !== undefined) emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'SnapshotCreated', message: `Snapshot ${key} was successfully created by the CSI driver.` });
    if (old.readyToUse !== true && status.readyToUse === true) emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'SnapshotReady', message: `Snapshot ${key} is ready to use.` });
  }
  send(ctx, { what: 'other', snapshot: key }, { type: 'api.request', verb: 'updateStatus', kind: 'VolumeSnapshot', namespace: fresh.metadata.namespace, name: fresh.metadata.name, object: { ...fresh, status } }, emit);
}

/** syncContent: a content of a snapshot without its finalizer gets it (addContentFinalizer, a patch). */
function syncContent(ctx: Ctx, content: K8sObject, emit: Emit): void {
  const name = content.metadata.name;
  if (content.metadata.deletionTimestamp || ctx.contentBusy[name] || finalizersOf(content).includes(CONTENT_FINALIZER)) return;
  if (!content.spec?.volumeSnapshotRef?.uid) return;
  ctx.contentBusy[name] = true;
  send(ctx, { what: 'contentFinalizer', content: name }, { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshotContent', name, patch: { metadata: { finalizers: [...finalizersOf(content), CONTENT_FINALIZER] } } }, emit);
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
          if (gone) return;
          syncContent(ctx, o, emit);
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
      if (p.what === 'contentFinalizer') { delete ctx.contentBusy[p.content]; return; }
      const [namespace, name] = p.snapshot.split('/');
      if (p.what === 'createContent' && event.ok) {
        emitOut({ type: 'event.recorded', involved: { kind: 'VolumeSnapshot', namespace: namespace!, name: name! }, eventType: 'Normal', reason: 'CreatingSnapshot', message: `Waiting for a snapshot ${p.snapshot} to be created by the CSI driver.` });
        // then updateSnapshotStatus: bound to the new content, not ready yet
        send(ctx, { what: 'getForStatus', snapshot: p.snapshot, content: p.content! }, { type: 'api.request', verb: 'get', kind: 'VolumeSnapshot', namespace, name }, emitOut);
        return;
      }
      if (p.what === 'getForStatus' && event.ok && event.object) { writeSnapshotStatus(ctx, p.snapshot, event.object, p.content!, emitOut); return; }
      if (Object.values(ctx.pending).some((q) => q.what !== 'contentFinalizer' && q.snapshot === p.snapshot)) return;
      delete ctx.busy[p.snapshot];
      // the workqueue's requeue: what changed meanwhile is synced now
      if (ctx.dirty[p.snapshot]) {
        delete ctx.dirty[p.snapshot];
        const snap = ctx.snapshots[p.snapshot];
        if (snap) syncSnapshot(ctx, snap, emitOut);
      }
    }),
    resetCaches: ({ context: ctx }) => { ctx.pending = {}; ctx.busy = {}; ctx.dirty = {}; ctx.contentBusy = {}; },
  },
}).createMachine({
  id: 'snapshot-controller',
  initial: 'stopped',
  context: ({ input }) => ({ input, classes: {}, pvcs: {}, pvs: {}, snapshots: {}, contents: {}, pending: {}, busy: {}, dirty: {}, contentBusy: {}, seq: 0 }),
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
