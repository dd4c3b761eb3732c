/**
 * The csi-snapshotter sidecar of kubernetes-csi/external-snapshotter (pkg/sidecar-controller), next to
 * the CSI controller plugin. For a VolumeSnapshotContent of its driver that has no status yet,
 * createSnapshotWrapper annotates it volumesnapshot-being-created, calls CreateSnapshot {name:
 * snapshot-<snapshot uid>, source_volume_id}, GETs the content and writes the answer into its status
 * (snapshotHandle, creationTime, restoreSize, readyToUse: updateSnapshotContentStatus), then removes the
 * annotation. For a content being deleted that the snapshot-controller has annotated
 * volumesnapshot-being-deleted and that no CreateSnapshot is still out for (shouldDelete): DeleteSnapshot
 * (deletionPolicy Delete), clearVolumeContentStatus (GET, UpdateStatus), and the content's finalizer off.
 * v8.0.1 (1.30) writes annotations, finalizers and statuses with patches, v4.0.0 (1.20) with Update and
 * UpdateStatus of its copy (profile snapshotWritesByPatch). The snapshot-controller (snapshot-controller/)
 * creates the contents and binds them.
 * Models: external-snapshotter v4.0.0 / v8.0.1 pkg/sidecar-controller/snapshot_controller.go
 * (syncContent, shouldDelete, createSnapshotWrapper, setAnnVolumeSnapshotBeingCreated,
 * removeAnnVolumeSnapshotBeingCreated, isCSIFinalError, updateSnapshotContentStatus,
 * updateContentErrorStatusWithEvent, deleteCSISnapshotOperation, clearVolumeContentStatus, removeContentFinalizer).
 * A failed CreateSnapshot is written into the content's status (readyToUse false, error:
 * updateContentErrorStatusWithEvent) and the content requeued with the workqueue's backoff (Profile.snapshotterRetry:
 * v8.0.1 --retry-interval-start 1s doubling to --retry-interval-max 5m, cmd/csi-snapshotter/main.go; v4.0.0 client-go's
 * DefaultControllerRateLimiter, 5ms doubling); a final
 * error takes the being-created annotation off first, a timeout leaves it (the storage may still be cutting
 * the snapshot). The retry calls CreateSnapshot again (checkandUpdateContentStatus, the content having no
 * snapshotHandle) and its success clears the error. A failed DeleteSnapshot records SnapshotDeleteError and
 * is retried the same way.
 * Every CSI call goes through csi-lib-utils' LogGRPC (its GRPC call/request/response/error lines), and each
 * CreateSnapshot is preceded by the GetPluginInfo that pkg/snapshotter/snapshotter.go asks for the driver's name.
 * A retry goes through checkandUpdateContentStatus (SnapshotContentCheckandUpdateFailed, its own message, so the
 * status' error is written again once); the same error again is neither written nor recorded.
 * The failure path is v6.3's and later on both profiles, but for v4.0.0's (1.20) error write, made from the copy its
 * sync began with (Profile.snapshotterErrorStatusFromSyncCopy: after a lost Update it meets a Conflict too, #527), and
 * its 5ms backoff. Left out of 1.20: the %!q(<nil>) v4.0.0 printed after a final error (fixed by
 * external-snapshotter#502) and its retry at once on its own successful writes (#533, fixed in v6.0 by #651 and v6.3
 * by #871); the chapter says so.
 * Its work queue is modelled as far as its lines go: every content event is queued ("enqueued", v4.0.0 every update,
 * v8.0.1 those ShouldEnqueueContentChange lets through), a worker takes the key (syncContentByKey), keeps the content in
 * its own cache (storeObjectUpdate, also after each of its writes) and syncs it, printing "synchronizing" and "Check if
 * … should be deleted" even when there is nothing to do; a key queued while a worker holds it (a CreateSnapshot in
 * flight) is synced when the worker lets go of it. One queued while its backoff runs is synced at once on 1.30 (the
 * queue's Add does not wait for the rate limiter), when the backoff is over on 1.20 (see free()).
 * Left out: pre-provisioned contents (ListSnapshots), group snapshots, the sidecar's own 15m resync,
 * some -v=5 lines of a sync that acts (getSnapshotClass), v4.0.0's -v=5 dump of the whole content after it sets
 * the annotation (%+v of a Go struct), and snapshotter.go's second "CSI CreateSnapshot: … driver name …"
 * line (-v=5), whose proto timestamp this catalog does not print.
 */
import { goQuote, goTimeString, rfc3339, sortedJson } from '../shared/goFormat.ts';
import { setup } from 'xstate';
import { inPlaceReaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { csiMethod, isFinalError, removePrefixedParameters, rpcErrorText, stripSecrets, type CsiRpc } from '../shared/csi.ts';
import { secretCredentials, type K8sObject } from '../shared/k8s.ts';
import { SNAPSHOTTER_TIMEOUT, sidecarRetryDelay } from '../shared/timing.ts';
import { getProfile } from '../profiles/index.ts';
import {
  ANN_BEING_CREATED, ANN_BEING_DELETED, ANN_DELETION_SECRET_NAME, ANN_DELETION_SECRET_NAMESPACE, CONTENT_FINALIZER, metadataWrite,
  storeObjectUpdate, type MetadataChange,
} from '../shared/snapshotUtils.ts';

const finalizersOf = (o: K8sObject): string[] => (o.metadata.finalizers ?? []) as string[];

/** Input of the external-snapshotter (snapshot-controller + csi-snapshotter). */
export interface ExternalSnapshotterInput extends ComponentInput {
  /** the CSI driver name the sidecar serves; only classes naming it are handled */
  driverName: string;
  /** wall-clock epoch (µs) of virtual time 0 */
  epochUs?: number;
  /** --extra-create-metadata (default false): CreateSnapshot's parameters also name the snapshot and the content */
  extraCreateMetadata?: boolean;
}


/** what a request in flight is for (the CSI answer it carries on to, for a status write and an error) */
type Pending =
  | { what: 'setBeingCreated' | 'getDriverName' | 'createSnapshot'; content: string; request: Record<string, unknown> }
  /** the Secret the content's annotations name, read for CreateSnapshot (`request`) or DeleteSnapshot (`snapshotId`) */
  | { what: 'getCredentials'; content: string; secret: SecretRef; request: Record<string, unknown> }
  | { what: 'getDeleteCredentials'; content: string; secret: SecretRef; snapshotId: string }
  | { what: 'getForStatus'; content: string; status: Record<string, unknown> }
  | { what: 'removeBeingCreated'; content: string; err?: string }
  | { what: 'contentError'; content: string; reason: string; message: string; wrapped: string }
  | { what: 'contentStatus' | 'deleteSnapshot' | 'getForClear' | 'clearStatus' | 'removeContentFinalizer'; content: string };

export interface ExternalSnapshotterContext {
  input: ExternalSnapshotterInput;
  classes: Record<string, K8sObject>;
  /** contents by name */
  contents: Record<string, K8sObject>;
  /** requests in flight by id, and the contents/snapshots with an operation in flight */
  pending: Record<string, Pending>;
  busy: Record<string, true>;
  /** failures per content (CreateSnapshot, DeleteSnapshot), and when its requeue is due (the rate limiter's backoff) */
  failures: Record<string, number>;
  retryAt: Record<string, number>;
  /** contents whose attempt is a retry: syncContent took checkandUpdateContentStatus, their status being set */
  checking: Record<string, true>;
  /** the informer's copy of each content (its lister); `contents` is the sidecar's own cache (contentStore) */
  latest: Record<string, K8sObject>;
  /** contents queued again while a worker held them (or while their backoff runs): synced when it lets go */
  dirty: Record<string, true>;
  /** the copy each content's current sync began with (v4.0.0 writes a failed attempt's error from it) */
  syncCopy: Record<string, K8sObject>;
  seq: number;
}
type Ctx = ExternalSnapshotterContext;
type Emit = (e: ClusterEmitted) => void;
type Log = (msg: string, args?: Record<string, string | number | boolean>) => void;

function send(ctx: Ctx, p: Pending, e: Record<string, unknown>, emit: Emit): void {
  const requestId = `snap-${++ctx.seq}`;
  ctx.pending[requestId] = p;
  // (every write of the sidecar is a snapshot's: its contents' status, annotations and finalizers)
  emit({ ...e, requestId, ...(e.type === 'api.request' ? { stage: 'snapshot' } : {}) } as unknown as ClusterEmitted);
}

/** A CSI call through the sidecar's connection: csi-lib-utils' LogGRPC prints the method and the request first. */
function call(ctx: Ctx, p: Pending, rpc: CsiRpc, request: Record<string, unknown>, emit: Emit): void {
  const method = csiMethod(rpc);
  const json = sortedJson(stripSecrets(request));
  emit({ type: 'log', msg: 'externalSnapshotter.grpcCall', args: { method, request: json } });
  emit({ type: 'log', msg: 'externalSnapshotter.grpcRequest', args: { method, request: json } });
  send(ctx, p, { type: 'csi.call', rpc, request, endpoint: 'controller', timeout: SNAPSHOTTER_TIMEOUT }, emit);
}

const hasAnnotation = (c: K8sObject, a: string): boolean => c.metadata.annotations?.[a] !== undefined;

/**
 * A line of the work queue or the cache: its microseconds from the sidecar's own stream (LogEmitted.ownStream), so that
 * these lines move no other component's timing. (They keep the stage snapshot whether or not the sync they belong to
 * acts, as the labelled corpus reads them: the line alone cannot tell.)
 */
function queueLog(emit: Emit, msg: string, content: string, args: Record<string, string> = {}): void {
  emit({ type: 'log', msg: `externalSnapshotter.${msg}`, args: { content, ...args }, ownStream: true });
}

/**
 * utils.StoreObjectUpdate into the sidecar's cache, with its line: a content it did not hold is added, one older than
 * the copy held is ignored, any other replaces it. Whether it was stored.
 */
function store(ctx: Ctx, c: K8sObject, emit: Emit): boolean {
  const name = c.metadata.name;
  const held = ctx.contents[name];
  const version = String(c.metadata.resourceVersion ?? '');
  const stored = storeObjectUpdate(ctx.contents, name, c);
  queueLog(emit, !held ? 'storeAdding' : stored ? 'storeUpdating' : 'storeIgnoring', name, { version });
  return stored;
}

/**
 * The newest copy the sidecar has of a content, its cache's or its informer's (a worker that holds a content writes
 * from the newest it has seen: the informer's copy is not stored while a worker holds the key)
 */
function current(ctx: Ctx, name: string): K8sObject | undefined {
  const a = ctx.contents[name];
  const b = ctx.latest[name];
  if (!a || !b) return a ?? b;
  return Number(b.metadata.resourceVersion) > Number(a.metadata.resourceVersion) ? b : a;
}

/** isDriverMatch: a content of this sidecar's driver with a source (a volume or, pre-provisioned, a snapshot handle) */
const isDriverMatch = (ctx: Ctx, c: K8sObject): boolean =>
  c.spec?.driver === ctx.input.driverName && !!(c.spec?.source?.volumeHandle || c.spec?.source?.snapshotHandle);

/** What syncContent does with the content: delete its snapshot, create (or retry) it, or nothing. */
function syncAction(c: K8sObject): 'delete' | 'create' | null {
  if (c.metadata.deletionTimestamp && !hasAnnotation(c, ANN_BEING_CREATED) && hasAnnotation(c, ANN_BEING_DELETED)) return 'delete';
  if (c.spec?.source?.volumeHandle && (!c.status || (c.status.snapshotHandle === undefined && c.status.error))) return 'create';
  return null;
}

/**
 * A content may be synced now: no worker holds it, and (1.20) it is not waiting out its backoff unless it is being deleted.
 * The work queue's Add queues a key at once even while the rate limiter's AddRateLimited of it is still due (client-go
 * workqueue: the delayed add comes later as well), so 1.30's sidecar, which queues only the updates ShouldEnqueueContentChange
 * lets through (never its own status and annotation writes), syncs such an update during the backoff. v4.0.0 (1.20) queued
 * every update, its own error write too, and so retried CreateSnapshot at once after a failure; the model keeps 1.20 to the
 * backoff instead, as later versions do (see the header).
 */
const free = (ctx: Ctx, c: K8sObject | undefined, now: number): boolean =>
  !!c && !ctx.busy[c.metadata.name] && !(waitsOutBackoff(ctx, c.metadata.name, now) && !c.metadata.deletionTimestamp);
const waitsOutBackoff = (ctx: Ctx, name: string, now: number): boolean =>
  (ctx.retryAt[name] ?? 0) > now && !getProfile(ctx.input.profile).snapshotterFiltersContentUpdates;

/**
 * ShouldEnqueueContentChange (v8.0.1 pkg/utils/util.go :682-715): an update is queued unless all it changed is the
 * resourceVersion, the status, managedFields, the finalizers or the sidecar's own being-created annotation.
 */
function shouldEnqueueContentChange(old: K8sObject, next: K8sObject): boolean {
  const sanitized = (o: K8sObject) => {
    const { resourceVersion: _rv, managedFields: _mf, finalizers: _f, annotations, ...meta } = o.metadata as K8sObject['metadata'] & { managedFields?: unknown };
    const rest = { ...(annotations ?? {}) } as Record<string, string>;
    delete rest[ANN_BEING_CREATED];
    return sortedJson({ ...o, status: null, metadata: { ...meta, annotations: rest } });
  };
  return sanitized(old) !== sanitized(next);
}

/** enqueueContentWork: the key is queued; a worker takes it now unless one holds it already. */
function enqueue(ctx: Ctx, name: string, emit: Emit, now: number): void {
  const c = ctx.latest[name];
  const syncsNow = free(ctx, c, now) || (!c && !ctx.busy[name]);
  queueLog(emit, 'enqueued', name);
  if (!syncsNow) { ctx.dirty[name] = true; return; }
  syncContentByKey(ctx, name, emit, now);
}

/** syncContentByKey: the informer's copy, stored in the sidecar's cache and synced; a content gone is dropped from the cache. */
function syncContentByKey(ctx: Ctx, name: string, emit: Emit, now: number): void {
  const c = ctx.latest[name];
  queueLog(emit, 'syncContentByKey', name);
  if (!c) {
    // (the cache holds only contents of this driver: another's deletion was "already processed", at -v=2)
    delete ctx.syncCopy[name];
    if (ctx.contents[name]) { delete ctx.contents[name]; queueLog(emit, 'contentDeleted', name); }
    return;
  }
  if (!isDriverMatch(ctx, c)) return;
  if (store(ctx, c, emit)) syncContent(ctx, c, emit, now);
}

/** The worker lets go of the content (processNextItem's Done): a key queued meanwhile is synced now. */
function done(ctx: Ctx, content: string, emit: Emit, now: number): void {
  delete ctx.busy[content];
  if (!ctx.dirty[content]) return;
  delete ctx.dirty[content];
  const c = ctx.latest[content];
  if (!c || free(ctx, c, now)) syncContentByKey(ctx, content, emit, now);
  else ctx.dirty[content] = true;
}

/**
 * A write of the content's annotations or finalizers (setAnnVolumeSnapshotBeingCreated,
 * removeAnnVolumeSnapshotBeingCreated, removeContentFinalizer): v8.0.1 patches them, v4.0.0 Updates the copy it holds.
 */
function writeContentMeta(ctx: Ctx, p: Pending, c: K8sObject, change: MetadataChange, emit: Emit): void {
  send(ctx, p, metadataWrite(c, change, getProfile(ctx.input.profile).snapshotWritesByPatch), emit);
}

/**
 * A write of the content's status (null clears a field): v8.0.1 patches it, v4.0.0 UpdateStatus-es `base`
 * with it; clearVolumeContentStatus UpdateStatus-es on both (`update`).
 */
function writeContentStatus(ctx: Ctx, p: Pending, base: K8sObject, status: Record<string, unknown>, emit: Emit, update = false): void {
  const name = base.metadata.name;
  if (!update && getProfile(ctx.input.profile).snapshotWritesByPatch) {
    send(ctx, p, { type: 'api.request', verb: 'patchStatus', kind: 'VolumeSnapshotContent', name, patch: { status } }, emit);
    return;
  }
  const merged: Record<string, unknown> = { ...(base.status ?? {}) };
  for (const [k, v] of Object.entries(status)) { if (v === null) delete merged[k]; else merged[k] = v; }
  send(ctx, p, { type: 'api.request', verb: 'updateStatus', kind: 'VolumeSnapshotContent', name, object: { ...base, status: merged } }, emit);
}

/** The snapshotter Secret the content's annotations name (both set), if any. */
type SecretRef = { name: string; namespace: string };
function deletionSecretOf(c: K8sObject): SecretRef | undefined {
  const a = c.metadata.annotations ?? {};
  const name = a[ANN_DELETION_SECRET_NAME];
  const namespace = a[ANN_DELETION_SECRET_NAMESPACE];
  return name && namespace ? { name, namespace } : undefined;
}

/** GetCredentials: a GET of the Secret (the client's, not a lister). */
function getSecret(ctx: Ctx, p: Extract<Pending, { secret: SecretRef }>, emit: Emit): void {
  send(ctx, p, { type: 'api.request', verb: 'get', kind: 'Secret', namespace: p.secret.namespace, name: p.secret.name }, emit);
}

/** createSnapshotWrapper once it has its input: the being-created annotation (unless set already), then the call. */
function withCredentials(ctx: Ctx, c: K8sObject, request: Record<string, unknown>, log: Log, emit: Emit): void {
  const content = c.metadata.name;
  // the annotation says a CreateSnapshot went out: until it is answered for good, the content is not deleted
  if (hasAnnotation(c, ANN_BEING_CREATED)) { callCreateSnapshot(ctx, content, request, log, emit); return; }
  log('setBeingCreated');
  writeContentMeta(ctx, { what: 'setBeingCreated', content, request }, c, { annotations: { [ANN_BEING_CREATED]: 'yes' } }, emit);
}

/** createSnapshotWrapper: GetPluginInfo (csirpc.GetDriverName), then CreateSnapshot. */
function callCreateSnapshot(ctx: Ctx, content: string, request: Record<string, unknown>, log: Log, emit: Emit): void {
  // pkg/snapshotter/snapshotter.go CreateSnapshot asks the driver's name (GetPluginInfo) before every CreateSnapshot
  log('csiCreateSnapshot', { name: String(request.name) });
  call(ctx, { what: 'getDriverName', content, request }, 'GetPluginInfo', {}, emit);
}

/**
 * The error path of the attempt, with the error createSnapshotWrapper returned (`wrapped`): createSnapshot's
 * (SnapshotCreationFailed, "Failed to create snapshot: …") for a content with no status yet, and
 * checkandUpdateContentStatus's (SnapshotContentCheckandUpdateFailed, "Failed to check and update snapshot
 * content: …") for a retry. updateContentErrorStatusWithEvent writes the error into the status unless the same
 * message is there already, and records the event after the write (v4.0.0 even when the write failed); the
 * caller's error line comes last; then the requeue with backoff.
 */
function createSnapshotFailed(ctx: Ctx, content: string, wrapped: string, now: number, log: Log, emit: Emit): void {
  const retry = !!ctx.checking[content];
  const reason = retry ? 'SnapshotContentCheckandUpdateFailed' : 'SnapshotCreationFailed';
  const message = `${retry ? 'Failed to check and update snapshot content' : 'Failed to create snapshot'}: ${wrapped}`;
  requeue(ctx, content, now, emit);
  log('updateContentErrorStatus');
  const c = getProfile(ctx.input.profile).snapshotterErrorStatusFromSyncCopy ? (ctx.syncCopy[content] ?? current(ctx, content)) : current(ctx, content);
  if (c && c.status?.error?.message !== message) {
    writeContentStatus(ctx, { what: 'contentError', content, reason, message, wrapped }, c, { readyToUse: false, error: { message, time: rfc3339((ctx.input.epochUs ?? 0) + now) } }, emit);
    return;
  }
  attemptFailed(ctx, content, wrapped, log, emit, now);
}

/** The attempt's last line (createSnapshot's or checkandUpdateContentStatus's error), and the content is free. */
function attemptFailed(ctx: Ctx, content: string, wrapped: string, log: Log, emit: Emit, now: number): void {
  log(ctx.checking[content] ? 'checkandUpdateError' : 'createSnapshotError', { err: wrapped });
  delete ctx.checking[content];
  done(ctx, content, emit, now);
}

/** newControllerUpdateError: a write the API server refused (v4.0.0 :465-469, v8.0.1 :525-529, controllerUpdateFailMsg :54) */
const updateError = (name: string, err: string): string => `snapshot controller failed to update ${name} on API server: ${err}`;

/** createSnapshotWrapper's errors (v4.0.0 / v8.0.1 pkg/sidecar-controller/snapshot_controller.go, the Errorf of each step). */
const wrapperError = {
  takeSnapshot: (ctx: Ctx, content: string, err: string) => `${getProfile(ctx.input.profile).snapshotTakeErrorPrefix}${current(ctx, content)?.spec?.source?.volumeHandle}: ${goQuote(err)}`,
  addAnnotation: (content: string, err: string) => `failed to add VolumeSnapshotBeingCreated annotation on the content ${content}: ${goQuote(updateError(content, err))}`,
  updateStatus: (content: string, err: string) => `error updating status for volume snapshot content ${content}: ${updateError(content, err)}`,
  getForStatus: (content: string, err: string) => `error updating status for volume snapshot content ${content}: error get snapshot content ${content} from api server: ${err}`,
  removeAnnotation: (content: string, err: string) => `failed to remove VolumeSnapshotBeingCreated annotation on the content ${content}: ${goQuote(updateError(content, err))}`,
  removeAnnotationAfterError: (ctx: Ctx, content: string, err: string) => `failed to remove VolumeSnapshotBeingCreated annotation from the content ${content}: ${getProfile(ctx.input.profile).snapshotRemoveAnnotationErrorQuoted ? goQuote(updateError(content, err)) : updateError(content, err)}`,
};

/** The workqueue's AddRateLimited: the content is synced again when its backoff is over. */
function requeue(ctx: Ctx, content: string, now: number, emit: Emit): void {
  const n = ctx.failures[content] ?? 0;
  ctx.failures[content] = n + 1;
  const { start, max } = getProfile(ctx.input.profile).snapshotterRetry;
  ctx.retryAt[content] = now + sidecarRetryDelay(n, start, max);
  emit({ type: 'timer.requested', key: `retry/${content}`, at: ctx.retryAt[content]! });
}

/** sidecar syncContent. */
function syncContent(ctx: Ctx, c: K8sObject, emit: Emit, now: number): void {
  if (c.spec?.driver !== ctx.input.driverName || !free(ctx, c, now)) return;
  const content = c.metadata.name;
  ctx.syncCopy[content] = c;
  const log: Log = (msg, args = {}) => emit({ type: 'log', msg: `externalSnapshotter.${msg}`, args: { content, ...args } });
  const action = syncAction(c);
  // every sync says so, and asks shouldDelete first; one with nothing to do stops there (a ready content: its
  // removeAnnVolumeSnapshotBeingCreated finds no annotation)
  if (action === null) {
    queueLog(emit, 'synchronizingContent', content);
    queueLog(emit, 'checkShouldDelete', content);
    return;
  }
  // shouldDelete: the snapshot-controller has marked it (being-deleted) and no CreateSnapshot is unanswered
  // (being-created); otherwise syncContent goes on as for any content: one still being created is retried
  if (action === 'delete') {
    log('synchronizingContent');
    log('checkShouldDelete');
    log('deletionPolicy', { policy: String(c.spec.deletionPolicy) });
    ctx.busy[content] = true;
    if (c.spec.deletionPolicy === 'Delete' && c.status?.snapshotHandle) {
      log('deleteSnapshotStarted');
      // GetCredentialsFromAnnotation before DeleteSnapshot (deleteCSISnapshotOperation v8.0.1 :381, v4.0.0 :340)
      const ref = deletionSecretOf(c);
      if (ref) getSecret(ctx, { what: 'getDeleteCredentials', content, secret: ref, snapshotId: c.status.snapshotHandle }, emit);
      else call(ctx, { what: 'deleteSnapshot', content }, 'DeleteSnapshot', { snapshot_id: c.status.snapshotHandle }, emit);
    } else if (finalizersOf(c).includes(CONTENT_FINALIZER)) {
      writeContentMeta(ctx, { what: 'removeContentFinalizer', content }, c, { finalizers: finalizersOf(c).filter((f) => f !== CONTENT_FINALIZER) }, emit);
    } else {
      done(ctx, content, emit, now);
    }
    return;
  }
  // a new content, or one whose CreateSnapshot failed (its status holds the error, no snapshotHandle)
  {
    log('synchronizingContent');
    log('checkShouldDelete');
    // a content with no status yet goes to createSnapshot; one whose attempt failed (its status holds the error)
    // to checkandUpdateContentStatus, which for a dynamic snapshot calls createSnapshotWrapper again
    if (c.status) { ctx.checking[content] = true; log('checkandUpdateStarted'); } else { log('callCreateSnapshot'); log('createSnapshotStarted'); }
    log('createSnapshotWrapper');
    ctx.busy[content] = true;
    const cls = ctx.classes[c.spec.volumeSnapshotClassName ?? ''];
    // (a class with no parameters sends none: protobuf leaves an empty map out, as external-provisioner's requests do;
    // the secret references are RemovePrefixedParameters' to drop)
    const parameters = removePrefixedParameters(cls?.parameters as Record<string, string> | undefined);
    // --extra-create-metadata (createSnapshotWrapper v8.0.1 :331-335, v4.0.0 :290-294)
    if (ctx.input.extraCreateMetadata) {
      parameters['csi.storage.k8s.io/volumesnapshot/name'] = c.spec.volumeSnapshotRef?.name ?? '';
      parameters['csi.storage.k8s.io/volumesnapshot/namespace'] = c.spec.volumeSnapshotRef?.namespace ?? '';
      parameters['csi.storage.k8s.io/volumesnapshotcontent/name'] = content;
    }
    const request = { name: `snapshot-${c.spec.volumeSnapshotRef?.uid}`, ...(Object.keys(parameters).length ? { parameters } : {}), source_volume_id: c.spec.source.volumeHandle };
    // getCSISnapshotInput: the class, and the Secret the snapshot-controller recorded on the content (GetCredentialsFromAnnotation: a GET)
    log('getCSISnapshotInput');
    const ref = deletionSecretOf(c);
    if (ref) { getSecret(ctx, { what: 'getCredentials', content, secret: ref, request }, emit); return; }
    withCredentials(ctx, c, request, log, emit);
  }
}

export const externalSnapshotterMachine = setup({
  types: { context: {} as ExternalSnapshotterContext, events: {} as ClusterEvent, emitted: {} as ClusterEmitted, input: {} as ExternalSnapshotterInput },
  actions: {
    handleWatchEvent: inPlaceReaction<ExternalSnapshotterContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'watch.added' && event.type !== 'watch.modified' && event.type !== 'watch.deleted') return;
      const o = event.object;
      const gone = event.type === 'watch.deleted';
      const emit: Emit = emitOut;
      switch (o.kind) {
        case 'VolumeSnapshotClass': if (gone) delete ctx.classes[o.metadata.name]; else ctx.classes[o.metadata.name] = o; return;
        case 'VolumeSnapshotContent': {
          const name = o.metadata.name;
          // the informer's copy; every event queues the key (v8.0.1: an update only when it may need a sync)
          if (gone) delete ctx.latest[name]; else ctx.latest[name] = o;
          if (event.type === 'watch.modified' && getProfile(ctx.input.profile).snapshotterFiltersContentUpdates && !shouldEnqueueContentChange(event.oldObject, o)) return;
          enqueue(ctx, name, emit, event.now);
          return;
        }
        default: return;
      }
    }),
    handleResult: inPlaceReaction<ExternalSnapshotterContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'api.result' && event.type !== 'csi.result') return;
      const p = ctx.pending[event.requestId];
      if (!p) return;
      delete ctx.pending[event.requestId];
      const emit: Emit = emitOut;
      const content = p.content;
      const log: Log = (msg, args = {}) => emit({ type: 'log', msg: `externalSnapshotter.${msg}`, args: { content, ...args } });
      if (event.type === 'csi.result') {
        // LogGRPC's answer lines (protosanitizer prints the message as sorted JSON; an empty map is left out)
        const errText = event.code === 'OK' ? '' : rpcErrorText(event.code, event.message ?? '');
        emit({ type: 'log', msg: 'externalSnapshotter.grpcResponse', args: { method: csiMethod(event.rpc), response: event.code === 'OK' ? sortedJson(event.response ?? {}) : '{}', errStructured: event.code === 'OK' ? 'null' : goQuote(errText) } });
        emit({ type: 'log', msg: 'externalSnapshotter.grpcError', args: { method: csiMethod(event.rpc), err: event.code === 'OK' ? '<nil>' : errText } });
        if (p.what === 'getDriverName' && event.code === 'OK') {
          call(ctx, { what: 'createSnapshot', content, request: p.request }, 'CreateSnapshot', p.request, emit);
          return;
        }
        if (p.what === 'deleteSnapshot') {
          if (event.code !== 'OK') {
            emit({ type: 'event.recorded', involved: { kind: 'VolumeSnapshotContent', name: content }, eventType: 'Warning', reason: 'SnapshotDeleteError', message: 'Failed to delete snapshot' });
            requeue(ctx, content, event.now, emit);
            done(ctx, content, emit, event.now);
            return;
          }
          // clearVolumeContentStatus reads the content from the API server, then clears the snapshot's fields
          delete ctx.failures[content]; delete ctx.retryAt[content];
          log('clearContentStatus');
          send(ctx, { what: 'getForClear', content }, { type: 'api.request', verb: 'get', kind: 'VolumeSnapshotContent', name: content }, emit);
          return;
        }
        if (event.code !== 'OK') {
          // GetPluginInfo's error and CreateSnapshot's both come back from the handler's CreateSnapshot
          log('createSnapshotReturnedError', { err: errText });
          // a final error: the storage side has given up, and the content may be deleted (the annotation goes first)
          // (csi-snapshotter's isCSIFinalError: the same codes as shared/csi.ts isFinalError)
          const held = current(ctx, content);
          if (isFinalError(event.code) && held && hasAnnotation(held, ANN_BEING_CREATED)) {
            writeContentMeta(ctx, { what: 'removeBeingCreated', content, err: errText }, held, { annotations: { [ANN_BEING_CREATED]: null } }, emit);
            return;
          }
          createSnapshotFailed(ctx, content, wrapperError.takeSnapshot(ctx, content, errText), event.now, log, emit);
          return;
        }
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
        // (a ready snapshot clears the error an earlier attempt left, updateSnapshotContentStatus)
        const hadError = current(ctx, content)?.status?.error !== undefined;
        delete ctx.failures[content]; delete ctx.retryAt[content]; delete ctx.checking[content];
        const status = { creationTime: Number(createdAtNs), readyToUse, restoreSize: size, snapshotHandle: snapshotId, ...(hadError && readyToUse ? { error: null } : {}) };
        // updateSnapshotContentStatus GETs the content first, then writes its status
        send(ctx, { what: 'getForStatus', content, status }, { type: 'api.request', verb: 'get', kind: 'VolumeSnapshotContent', name: content }, emit);
        return;
      }
      const fresh = event.object;
      // storeContentUpdate: what the sidecar wrote is its copy from now on, with the cache's line after each of the
      // writes that store it (setAnnVolumeSnapshotBeingCreated v8.0.1 :666, removeAnnVolumeSnapshotBeingCreated :697,
      // updateContentErrorStatusWithEvent :211, removeContentFinalizer :596; v4.0.0 :588, :615, :169, :530); what it
      // read, or wrote in the middle of createSnapshotWrapper, silently
      // (the two removals log theirs first: their cases store)
      const stores = p.what === 'setBeingCreated' || p.what === 'contentError';
      const removes = p.what === 'removeBeingCreated' || p.what === 'removeContentFinalizer';
      if (event.ok && fresh?.kind === 'VolumeSnapshotContent' && !removes) {
        if (stores) store(ctx, fresh, emit); else ctx.contents[content] = fresh;
      }
      // (also createSnapshot's, checkandUpdateContentStatus's, of the content createSnapshotWrapper returned once it
      // succeeded: v8.0.1 :126 / :145, v4.0.0 :109 / :125)
      const stored = (): void => { if (event.ok && fresh?.kind === 'VolumeSnapshotContent') store(ctx, fresh, emit); };
      // a write of createSnapshotWrapper that fails fails the attempt: createSnapshot's error path, and the requeue
      const apiErr = event.ok ? '' : (event.message ?? `${event.code}`);
      switch (p.what) {
        case 'getCredentials':
        case 'getDeleteCredentials': {
          if (!event.ok || !fresh) {
            // GetCredentialsFromAnnotation's error (its line: v8.0.1 :566, v4.0.0 :506)
            log('credentialsFailed', { err: `error getting secret ${p.secret.name} in namespace ${p.secret.namespace}: ${apiErr}` });
            const inner = goQuote(`cannot get credentials for snapshot content ${goQuote(content)}`);
            if (p.what === 'getCredentials') { createSnapshotFailed(ctx, content, `failed to get input parameters to create snapshot for content ${content}: ${inner}`, event.now, log, emit); return; }
            emit({ type: 'event.recorded', involved: { kind: 'VolumeSnapshotContent', name: content }, eventType: 'Warning', reason: 'SnapshotDeleteError', message: 'Failed to get snapshot credentials' });
            requeue(ctx, content, event.now, emit);
            done(ctx, content, emit, event.now);
            return;
          }
          const secrets = secretCredentials(fresh);
          if (p.what === 'getDeleteCredentials') { call(ctx, { what: 'deleteSnapshot', content }, 'DeleteSnapshot', { snapshot_id: p.snapshotId, secrets }, emit); return; }
          const c = current(ctx, content);
          if (!c) { done(ctx, content, emit, event.now); return; }
          withCredentials(ctx, c, { ...p.request, secrets }, log, emit);
          return;
        }
        case 'setBeingCreated':
          if (event.ok) callCreateSnapshot(ctx, content, p.request, log, emit);
          else createSnapshotFailed(ctx, content, wrapperError.addAnnotation(content, apiErr), event.now, log, emit);
          return;
        case 'getForStatus':
          if (event.ok && fresh) writeContentStatus(ctx, { what: 'contentStatus', content }, fresh, p.status, emit);
          else createSnapshotFailed(ctx, content, wrapperError.getForStatus(content, apiErr), event.now, log, emit);
          return;
        case 'contentStatus':
          if (!event.ok) { createSnapshotFailed(ctx, content, wrapperError.updateStatus(content, apiErr), event.now, log, emit); return; }
          // the snapshot is cut: the annotation goes (removeAnnVolumeSnapshotBeingCreated), from the content just written
          if (fresh && hasAnnotation(fresh, ANN_BEING_CREATED)) {
            writeContentMeta(ctx, { what: 'removeBeingCreated', content }, fresh, { annotations: { [ANN_BEING_CREATED]: null } }, emit);
            return;
          }
          stored(); // createSnapshot's
          break;
        case 'removeBeingCreated':
          if (event.ok) { log('removedBeingCreated'); stored(); }
          // (after a final error the attempt has failed either way: with the CSI error, or with the failed removal's)
          if (p.err !== undefined) { createSnapshotFailed(ctx, content, event.ok ? wrapperError.takeSnapshot(ctx, content, p.err) : wrapperError.removeAnnotationAfterError(ctx, content, apiErr), event.now, log, emit); return; }
          if (!event.ok) { createSnapshotFailed(ctx, content, wrapperError.removeAnnotation(content, apiErr), event.now, log, emit); return; }
          stored(); // createSnapshot's
          break;
        case 'getForClear':
          if (event.ok && fresh) {
            writeContentStatus(ctx, { what: 'clearStatus', content }, fresh, { snapshotHandle: null, readyToUse: null, creationTime: null, restoreSize: null }, emit, true);
            return;
          }
          break;
        case 'clearStatus':
          // updateContentInInformerCache syncs the cleared content at once: its finalizer comes off next
          delete ctx.busy[content];
          if (event.ok && fresh) syncContent(ctx, fresh, emit, event.now);
          return;
        case 'removeContentFinalizer':
          if (event.ok) { log('removedContentFinalizer'); stored(); }
          break;
        case 'contentError':
          // (recorded on the content the write returned: v4.0.0 records it even when the write failed)
          if (event.ok || getProfile(ctx.input.profile).snapshotErrorEventOnFailedWrite) {
            emit({ type: 'event.recorded', involved: { kind: 'VolumeSnapshotContent', name: content }, eventType: 'Warning', reason: p.reason, message: p.message });
          }
          attemptFailed(ctx, content, p.wrapped, log, emit, event.now);
          return;
        default: break;
      }
      done(ctx, content, emit, event.now);
    }),
    /** the requeue of a content whose CreateSnapshot failed */
    retryContent: inPlaceReaction<ExternalSnapshotterContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'clock.ticked' || !event.key.startsWith('retry/')) return;
      const name = event.key.slice('retry/'.length);
      // AddRateLimited's key comes back to a worker (no "enqueued" line): one that holds it syncs it when it lets go
      if (ctx.busy[name]) { ctx.dirty[name] = true; return; }
      delete ctx.dirty[name];
      syncContentByKey(ctx, name, emitOut, event.now);
    }),
    // a new process: empty informers (their initial list adds every object again), an empty content cache (contentStore:
    // "adding" again), an empty work queue and rate limiter
    resetCaches: ({ context: ctx }) => {
      ctx.classes = {}; ctx.contents = {}; ctx.latest = {}; ctx.pending = {}; ctx.busy = {}; ctx.failures = {}; ctx.retryAt = {}; ctx.checking = {}; ctx.dirty = {}; ctx.syncCopy = {};
    },
  },
}).createMachine({
  id: 'external-snapshotter',
  initial: 'stopped',
  context: ({ input }) => ({ input, classes: {}, contents: {}, pending: {}, busy: {}, failures: {}, retryAt: {}, checking: {}, latest: {}, dirty: {}, syncCopy: {}, seq: 0 }),
  states: {
    stopped: { description: 'The csi-snapshotter container is not running.', on: { 'component.started': { target: 'running', actions: 'resetCaches' } } },
    running: {
      description: 'Syncs the VolumeSnapshotContents of its driver from its informer: CreateSnapshot for a new one, DeleteSnapshot for a deleted one.',
      on: {
        'watch.added': { actions: 'handleWatchEvent' },
        'watch.modified': { actions: 'handleWatchEvent' },
        'watch.deleted': { actions: 'handleWatchEvent' },
        'api.result': { actions: 'handleResult' },
        'csi.result': { actions: 'handleResult' },
        'clock.ticked': { actions: 'retryContent' },
        'host.shutdown': { target: 'stopped' },
      },
    },
  },
});
