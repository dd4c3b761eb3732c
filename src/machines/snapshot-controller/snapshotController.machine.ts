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
 * syncContent puts volumesnapshotcontent-bound-protection on a content that lacks it. A deleted
 * snapshot (processSnapshotWithDeletionTimestamp): unless a Pending claim restores from it
 * (SnapshotDeletePending, and nothing requeues it), its content is annotated volumesnapshot-being-deleted,
 * deleted if its deletionPolicy is Delete, and the snapshot loses its as-source finalizer; its bound finalizer
 * goes once the content is gone. v8.0.1 (1.30) patches finalizers and annotations onto objects that have
 * some, v4.0.0 (1.20) Updates its copy (profile snapshotWritesByPatch), so on 1.20 its Update of a content
 * can meet a Conflict with csi-snapshotter's. A failed write is retried with the workqueue's backoff (profile
 * snapshotControllerRetry), and every object is synced again at the informers' resync (--resync-period 15m).
 * Models: external-snapshotter v4.0.0 / v8.0.1 pkg/common-controller/snapshot_controller.go (syncSnapshot,
 * checkandAddSnapshotFinalizers, syncUnreadySnapshot, createSnapshotContent, ensurePVCFinalizer,
 * checkandRemovePVCFinalizer, updateSnapshotStatus, syncContent, addContentFinalizer,
 * processSnapshotWithDeletionTimestamp, checkandRemoveSnapshotFinalizersAndCheckandDeleteContent,
 * isVolumeBeingCreatedFromSnapshot, setAnnVolumeSnapshotBeingDeleted, removeSnapshotFinalizer), pkg/utils/util.go
 * (names, finalizers, annotations: shared/snapshotUtils.ts). Its own log lines are left out: they belong to
 * another binary whose log stream the simulation does not have; what it does shows as API writes and Events.
 * Left out: pre-provisioned snapshots, group snapshots, the Delete calls upstream repeats on each sync of a
 * snapshot whose content is being deleted and the Updates that change nothing (the API server stores neither),
 * the PVC finalizer's removal when a snapshot is deleted before it is ready.
 */
import { setup } from 'xstate';
import { inPlaceReaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { rfc3339 } from '../shared/goFormat.ts';
import { formatBinary } from '../shared/quantity.ts';
import { getProfile } from '../profiles/index.ts';
import { SNAPSHOT_CONTROLLER_RESYNC_PERIOD, sidecarRetryDelay } from '../shared/timing.ts';

export type SnapshotControllerInput = ComponentInput;

import {
  ANN_BEING_DELETED, ANN_DELETION_SECRET_NAME, ANN_DELETION_SECRET_NAMESPACE, CONTENT_FINALIZER, PVC_FINALIZER, SNAPSHOT_AS_SOURCE_FINALIZER, SNAPSHOT_BOUND_FINALIZER,
  metadataWrite, snapshotterSecretRef, storeObjectUpdate,
} from '../shared/snapshotUtils.ts';

export { CONTENT_FINALIZER, PVC_FINALIZER, SNAPSHOT_AS_SOURCE_FINALIZER, SNAPSHOT_BOUND_FINALIZER };

/**
 * a request in flight: what it was for, and for which snapshot (a status GET carries the content it copies);
 * a content's finalizer patch is for its content alone
 */
type Pending =
  | { what: 'createContent' | 'getForStatus' | 'beingDeleted' | 'deleteContent' | 'snapshotFinalizers' | 'other'; snapshot: string; content?: string }
  | { what: 'contentFinalizer'; content: string }
  /** ensurePVCFinalizer's Update of the source claim; the content is created once it has returned */
  | { what: 'pvcFinalizer'; snapshot: string; content: string; object: K8sObject; pvc: string };

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
  /** contents whose finalizer write is in flight */
  contentBusy: Record<string, true>;
  /** failed syncs per queue item ('content/<name>', 'snapshot/<ns>/<name>'): the workqueue's AddRateLimited */
  failures: Record<string, number>;
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
  // (every write of the controller is a snapshot's: the snapshot's status and finalizers, its content, the source claim's
  // snapshot-as-source protection)
  emit({ ...e, requestId, ...(e.type === 'api.request' ? { stage: 'snapshot' } : {}) } as unknown as ClusterEmitted);
}

/** The source claim of a dynamic snapshot, from the informer. */
const sourceClaim = (ctx: Ctx, snap: K8sObject): K8sObject | undefined =>
  ctx.pvcs[`${snap.metadata.namespace}/${snap.spec?.source?.persistentVolumeClaimName}`];

/** isPVCBeingUsed: a snapshot of this claim, in its namespace, that is not ready yet. */
const claimInUse = (ctx: Ctx, pvc: K8sObject): boolean => Object.values(ctx.snapshots).some((o) =>
  o.metadata.namespace === pvc.metadata.namespace && o.spec?.source?.persistentVolumeClaimName === pvc.metadata.name && !isReady(o));

/** An Update of the claim's finalizers (ensurePVCFinalizer, removePVCFinalizer), answered to `p`. */
function updateClaimFinalizers(ctx: Ctx, p: Pending, pvc: K8sObject, finalizers: string[], emit: Emit): void {
  send(ctx, p, metadataWrite(pvc, { finalizers }, false), emit);
}

/** A line of pkg/common-controller at any verbosity (klog.Infof); its microseconds from the controller's own stream (LogEmitted.ownStream). */
const log = (emit: Emit, msg: string, args: Record<string, string>): void => emit({ type: 'log', msg: `snapshotController.${msg}`, args, ownStream: true });

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
    log(emit, 'removePvcFinalizer', { snapshot: snap.metadata.name, pvc: pvc.metadata.name });
    updateClaimFinalizers(ctx, { what: 'other', snapshot: key }, pvc, finalizersOf(pvc).filter((f) => f !== PVC_FINALIZER), emit);
  }
  if (snap.metadata.deletionTimestamp) { processSnapshotWithDeletionTimestamp(ctx, key, snap, contentName, emit); return; }
  // checkandAddSnapshotFinalizers
  const has = finalizersOf(snap);
  const addSource = !has.includes(SNAPSHOT_AS_SOURCE_FINALIZER);
  const addBound = !!content && !!snap.status?.boundVolumeSnapshotContentName && !has.includes(SNAPSHOT_BOUND_FINALIZER) && content.spec?.deletionPolicy === 'Delete';
  if (addSource || addBound) {
    ctx.busy[key] = true;
    const finalizers = [...has, ...(addSource ? [SNAPSHOT_AS_SOURCE_FINALIZER] : []), ...(addBound ? [SNAPSHOT_BOUND_FINALIZER] : [])];
    // (v8.0.1 addSnapshotFinalizer Updates a snapshot that has none, no patch adds to a missing list, and patches
    // one that has some; v4.0.0 always Updates)
    // (the write returns before the sync goes on: syncUnreadySnapshot runs once it has, on the snapshot it returned)
    send(ctx, { what: 'snapshotFinalizers', snapshot: key }, metadataWrite(snap, { finalizers }, has.length > 0 && getProfile(ctx.input.profile).snapshotWritesByPatch), emit);
    return;
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
  log(emit, 'creatingContent', { snapshot: key });
  const sourceVolumeMode = getProfile(ctx.input.profile).snapshotSourceVolumeMode && pv.spec.volumeMode ? { sourceVolumeMode: pv.spec.volumeMode } : {};
  // the class's snapshotter Secret goes on the content for csi-snapshotter (createSnapshotContent, v8.0.1 :702-709,
  // v4.0.0 :672-679; their "set annotation" lines are -v=5)
  const secretRef = snapshotterSecretRef(cls, contentName, { name: snap.metadata.name, namespace: snap.metadata.namespace ?? '' });
  const object: K8sObject = {
    apiVersion: 'snapshot.storage.k8s.io/v1', kind: 'VolumeSnapshotContent',
    metadata: { name: contentName, ...(secretRef ? { annotations: { [ANN_DELETION_SECRET_NAME]: secretRef.name, [ANN_DELETION_SECRET_NAMESPACE]: secretRef.namespace } } : {}) },
    spec: {
      deletionPolicy: cls.deletionPolicy ?? 'Delete', driver: cls.driver, source: { volumeHandle: pv.spec.csi.volumeHandle },
      ...sourceVolumeMode,
      volumeSnapshotClassName: cls.metadata.name,
      volumeSnapshotRef: { apiVersion: 'snapshot.storage.k8s.io/v1', kind: 'VolumeSnapshot', name: snap.metadata.name, namespace: snap.metadata.namespace, resourceVersion: snap.metadata.resourceVersion, uid: snap.metadata.uid },
    },
  };
  // ensurePVCFinalizer: the claim's Update returns before the content is created
  const claim = `${pvc.metadata.namespace}/${pvc.metadata.name}`;
  if (finalizersOf(pvc).includes(PVC_FINALIZER)) log(emit, 'pvcFinalizerExists', { pvc: claim });
  else if (!pvc.metadata.deletionTimestamp) {
    updateClaimFinalizers(ctx, { what: 'pvcFinalizer', snapshot: key, content: contentName, object, pvc: claim }, pvc, [...finalizersOf(pvc), PVC_FINALIZER], emit);
    return;
  }
  createContent(ctx, key, contentName, object, emit);
}

function createContent(ctx: Ctx, key: string, contentName: string, object: K8sObject, emit: Emit): void {
  send(ctx, { what: 'createContent', snapshot: key, content: contentName }, { type: 'api.request', verb: 'create', kind: 'VolumeSnapshotContent', name: contentName, object }, emit);
}

/** isVolumeBeingCreatedFromSnapshot: a Pending claim of the snapshot's namespace restores from it. */
const restoringFrom = (ctx: Ctx, snap: K8sObject): boolean => Object.values(ctx.pvcs).some((pvc) => {
  const d = pvc.spec?.dataSource;
  return pvc.metadata.namespace === snap.metadata.namespace && d?.name === snap.metadata.name && d.kind === 'VolumeSnapshot'
    && d.apiGroup === 'snapshot.storage.k8s.io' && pvc.status?.phase === 'Pending';
});

/**
 * processSnapshotWithDeletionTimestamp and checkandRemoveSnapshotFinalizersAndCheckandDeleteContent, one write
 * after the other as upstream makes them: the content that points back to the snapshot is marked
 * volumesnapshot-being-deleted (csi-snapshotter deletes only what is so marked), deleted when its
 * deletionPolicy is Delete, and the snapshot loses its as-source finalizer; its bound finalizer stays while
 * its content is being deleted, and goes once the content is gone (deleteContent syncs the snapshot again).
 */
function processSnapshotWithDeletionTimestamp(ctx: Ctx, key: string, snap: K8sObject, contentName: string, emit: Emit): void {
  const has = finalizersOf(snap);
  // IsSnapshotDeletionCandidate
  if (!has.includes(SNAPSHOT_AS_SOURCE_FINALIZER) && !has.includes(SNAPSHOT_BOUND_FINALIZER)) return;
  const found = ctx.contents[contentName];
  const content = found && found.spec?.volumeSnapshotRef?.uid === snap.metadata.uid ? found : undefined;
  const deleteContent = content?.spec?.deletionPolicy === 'Delete';
  if (content && restoringFrom(ctx, snap)) {
    emit({ type: 'event.recorded', involved: { kind: 'VolumeSnapshot', namespace: snap.metadata.namespace!, name: snap.metadata.name }, eventType: 'Warning', reason: 'SnapshotDeletePending', message: 'Snapshot is being used to restore a PVC' });
    return;
  }
  ctx.busy[key] = true;
  if (content && content.metadata.annotations?.[ANN_BEING_DELETED] === undefined) {
    // setAnnVolumeSnapshotBeingDeleted (v8.0.1 a patch, v4.0.0 an Update of its copy), whatever the deletionPolicy
    send(ctx, { what: 'beingDeleted', snapshot: key, content: contentName }, metadataWrite(content, { annotations: { [ANN_BEING_DELETED]: 'yes' } }, getProfile(ctx.input.profile).snapshotWritesByPatch), emit);
    return;
  }
  deleteContentThenFinalizers(ctx, key, snap, content && deleteContent ? contentName : undefined, emit);
}

/** The content's deletion (the API server marks it: csi-snapshotter's finalizer holds it), then the snapshot's finalizers. */
function deleteContentThenFinalizers(ctx: Ctx, key: string, snap: K8sObject, deleting: string | undefined, emit: Emit): void {
  // (upstream calls Delete again on each sync of the snapshot while its content is being deleted; the API
  // server answers without a change, and those calls are left out)
  const content = deleting ? ctx.contents[deleting] : undefined;
  if (deleting && content && !content.metadata.deletionTimestamp) {
    send(ctx, { what: 'deleteContent', snapshot: key, content: deleting }, { type: 'api.request', verb: 'delete', kind: 'VolumeSnapshotContent', name: deleting }, emit);
    return;
  }
  removeSnapshotFinalizer(ctx, key, snap, !deleting, emit);
}

/**
 * removeSnapshotFinalizer (an Update on both releases): the as-source finalizer, and the bound one when no
 * content is being deleted for the snapshot. (upstream Updates even when neither is there any more: the API
 * server stores nothing for an Update that changes nothing, and that call is left out)
 */
function removeSnapshotFinalizer(ctx: Ctx, key: string, snap: K8sObject, removeBound: boolean, emit: Emit): void {
  const has = finalizersOf(snap);
  const finalizers = has.filter((f) => f !== SNAPSHOT_AS_SOURCE_FINALIZER && (!removeBound || f !== SNAPSHOT_BOUND_FINALIZER));
  if (finalizers.length === has.length) { done(ctx, key, emit); return; }
  send(ctx, { what: 'other', snapshot: key }, metadataWrite(snap, { finalizers }, false), emit);
}

/** The snapshot's operations are done: it is free, and synced again if it changed meanwhile (the workqueue's requeue). */
function done(ctx: Ctx, key: string, emit: Emit): void {
  delete ctx.busy[key];
  if (!ctx.dirty[key]) return;
  delete ctx.dirty[key];
  const snap = ctx.snapshots[key];
  if (snap) syncSnapshot(ctx, snap, emit);
}

/** needsUpdateSnapshotStatus: the content has a status the snapshot does not show yet. */
function needsStatusUpdate(snap: K8sObject, content: K8sObject): boolean {
  const st = snap.status;
  if (!st?.boundVolumeSnapshotContentName) return true;
  const cs = content.status;
  if (!cs) return false;
  // (upstream's comparison of the two readyToUse pointers is true whenever both are set, so a content that carries an
  // error reaches updateSnapshotStatus, which copies it: here the error's own difference stands for that)
  return (cs.readyToUse === true && st.readyToUse !== true) || (cs.creationTime !== undefined && st.creationTime === undefined)
    || (cs.error?.message ?? null) !== (st.error?.message ?? null);
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
  // the content's error is the snapshot's too (a VolumeSnapshotError), until the snapshot is ready
  if (cs.error && cs.readyToUse !== true) status.error = cs.error; else delete status.error;
  if (getProfile(ctx.input.profile).snapshotReadyEvents) {
    const involved = { kind: 'VolumeSnapshot' as const, namespace: fresh.metadata.namespace!, name: fresh.metadata.name };
    if (old.creationTime === undefined && status.creationTime !== undefined) emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'SnapshotCreated', message: `Snapshot ${key} was successfully created by the CSI driver.` });
    if (old.readyToUse !== true && status.readyToUse === true) emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'SnapshotReady', message: `Snapshot ${key} is ready to use.` });
  }
  send(ctx, { what: 'other', snapshot: key }, { type: 'api.request', verb: 'updateStatus', kind: 'VolumeSnapshot', namespace: fresh.metadata.namespace, name: fresh.metadata.name, object: { ...fresh, status } }, emit);
}

/** syncContent: a content of a snapshot without its finalizer gets it (addContentFinalizer). */
function syncContent(ctx: Ctx, content: K8sObject, emit: Emit): void {
  const name = content.metadata.name;
  if (content.metadata.deletionTimestamp || ctx.contentBusy[name] || finalizersOf(content).includes(CONTENT_FINALIZER)) return;
  if (!content.spec?.volumeSnapshotRef?.uid) return;
  ctx.contentBusy[name] = true;
  const finalizers = [...finalizersOf(content), CONTENT_FINALIZER];
  // (v8.0.1 patches, v4.0.0 Updates its copy)
  send(ctx, { what: 'contentFinalizer', content: name }, metadataWrite(content, { finalizers }, getProfile(ctx.input.profile).snapshotWritesByPatch), emit);
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
        // (a version older than the one held is ignored: storeSnapshotUpdate)
        case 'VolumeSnapshot': if (gone) delete ctx.snapshots[snapKey(o)]; else if (storeObjectUpdate(ctx.snapshots, snapKey(o), o)) syncSnapshot(ctx, o, emit); return;
        case 'VolumeSnapshotContent': {
          const ref = o.spec?.volumeSnapshotRef;
          const snap = ref ? ctx.snapshots[`${ref.namespace}/${ref.name}`] : undefined;
          // deleteContent: the snapshot of a content that is gone is synced again
          if (gone) { delete ctx.contents[o.metadata.name]; if (snap) syncSnapshot(ctx, snap, emit); return; }
          if (!storeObjectUpdate(ctx.contents, o.metadata.name, o)) return;
          syncContent(ctx, o, emit);
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
      // storeSnapshotUpdate, storeContentUpdate: what the controller wrote is its copy from now on
      const o = event.ok ? event.object : undefined;
      if (o?.kind === 'VolumeSnapshot') storeObjectUpdate(ctx.snapshots, snapKey(o), o);
      if (o?.kind === 'VolumeSnapshotContent') storeObjectUpdate(ctx.contents, o.metadata.name, o);
      // a failed write fails the sync: the item is synced again after the workqueue's backoff (AddRateLimited)
      const item = p.what === 'contentFinalizer' ? `content/${p.content}` : `snapshot/${p.snapshot}`;
      if (!event.ok) {
        const n = ctx.failures[item] ?? 0;
        ctx.failures[item] = n + 1;
        const { start, max } = getProfile(ctx.input.profile).snapshotControllerRetry;
        emitOut({ type: 'timer.requested', key: `retry/${item}`, at: event.now + sidecarRetryDelay(n, start, max) });
      } else {
        delete ctx.failures[item];
      }
      if (p.what === 'contentFinalizer') { delete ctx.contentBusy[p.content]; return; }
      // (checkandAddSnapshotFinalizers has returned: the sync goes on, once nothing else of it is in flight)
      if (p.what === 'snapshotFinalizers' && event.ok) ctx.dirty[p.snapshot] = true;
      if (p.what === 'pvcFinalizer' && event.ok) {
        log(emitOut, 'addedPvcFinalizer', { pvc: p.pvc });
        createContent(ctx, p.snapshot, p.content, p.object, emitOut);
        return;
      }
      const [namespace, name] = p.snapshot.split('/');
      if (p.what === 'createContent' && event.ok) {
        emitOut({ type: 'event.recorded', involved: { kind: 'VolumeSnapshot', namespace: namespace!, name: name! }, eventType: 'Normal', reason: 'CreatingSnapshot', message: `Waiting for a snapshot ${p.snapshot} to be created by the CSI driver.` });
        // then updateSnapshotStatus: bound to the new content, not ready yet
        send(ctx, { what: 'getForStatus', snapshot: p.snapshot, content: p.content! }, { type: 'api.request', verb: 'get', kind: 'VolumeSnapshot', namespace, name }, emitOut);
        return;
      }
      if (p.what === 'getForStatus' && event.ok && event.object) { writeSnapshotStatus(ctx, p.snapshot, event.object, p.content!, emitOut); return; }
      const snap = ctx.snapshots[p.snapshot];
      if (p.what === 'beingDeleted' && event.ok && snap) {
        deleteContentThenFinalizers(ctx, p.snapshot, snap, ctx.contents[p.content!]?.spec?.deletionPolicy === 'Delete' ? p.content : undefined, emitOut);
        return;
      }
      if (p.what === 'deleteContent' && event.ok && snap) { removeSnapshotFinalizer(ctx, p.snapshot, snap, false, emitOut); return; }
      if (Object.values(ctx.pending).some((q) => q.what !== 'contentFinalizer' && q.snapshot === p.snapshot)) return;
      done(ctx, p.snapshot, emitOut);
    }),
    /** the informers' resync (--resync-period): every snapshot and content is synced again */
    scheduleResync: inPlaceReaction<SnapshotControllerContext, ClusterEvent, ClusterEmitted>((_ctx, event, emitOut) => {
      emitOut({ type: 'timer.requested', key: 'resync', at: event.now + SNAPSHOT_CONTROLLER_RESYNC_PERIOD });
    }),
    /** a failed item's requeue, or the resync */
    retryItem: inPlaceReaction<SnapshotControllerContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'clock.ticked') return;
      if (event.key === 'resync') {
        for (const c of Object.values(ctx.contents)) syncContent(ctx, c, emitOut);
        for (const snap of Object.values(ctx.snapshots)) syncSnapshot(ctx, snap, emitOut);
        emitOut({ type: 'timer.requested', key: 'resync', at: event.now + SNAPSHOT_CONTROLLER_RESYNC_PERIOD });
        return;
      }
      const [, queue, ...rest] = event.key.split('/');
      const name = rest.join('/');
      if (queue === 'content' && ctx.contents[name]) syncContent(ctx, ctx.contents[name]!, emitOut);
      if (queue === 'snapshot' && ctx.snapshots[name]) syncSnapshot(ctx, ctx.snapshots[name]!, emitOut);
    }),
    resetCaches: ({ context: ctx }) => { ctx.pending = {}; ctx.busy = {}; ctx.dirty = {}; ctx.contentBusy = {}; ctx.failures = {}; },
  },
}).createMachine({
  id: 'snapshot-controller',
  initial: 'stopped',
  context: ({ input }) => ({ input, classes: {}, pvcs: {}, pvs: {}, snapshots: {}, contents: {}, pending: {}, busy: {}, dirty: {}, contentBusy: {}, failures: {}, seq: 0 }),
  states: {
    stopped: { description: 'The snapshot-controller Deployment is not running.', on: { 'component.started': { target: 'running', actions: ['resetCaches', 'scheduleResync'] } } },
    running: {
      description: 'Syncs VolumeSnapshots from its informers: creates their contents, and copies a ready content into the snapshot.',
      on: {
        'watch.added': { actions: 'handleWatchEvent' },
        'watch.modified': { actions: 'handleWatchEvent' },
        'watch.deleted': { actions: 'handleWatchEvent' },
        'api.result': { actions: 'handleResult' },
        'clock.ticked': { actions: 'retryItem' },
        'host.shutdown': { target: 'stopped' },
      },
    },
  },
});
