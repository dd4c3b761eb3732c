/**
 * The csi-snapshotter sidecar of kubernetes-csi/external-snapshotter (pkg/sidecar-controller), next to
 * the CSI controller plugin: for a VolumeSnapshotContent of its driver that has no status yet it calls
 * CreateSnapshot {name: snapshot-<snapshot uid>, source_volume_id} and writes the answer into the
 * content's status (snapshotHandle, creationTime, restoreSize, readyToUse); for a deleted content with
 * deletionPolicy Delete it calls DeleteSnapshot and removes the content's finalizer. The
 * snapshot-controller (its own component, snapshot-controller/) creates the contents and binds them.
 * Models: external-snapshotter v4.0.0 / v8.0.1 pkg/sidecar-controller/snapshot_controller.go
 * (syncContent, createSnapshotWrapper, updateSnapshotContentStatus, deleteCSISnapshotOperation).
 * A failed CreateSnapshot is written into the content's status (readyToUse false, error: updateContentErrorStatusWithEvent)
 * and the content requeued with the workqueue's backoff (--retry-interval-start 1s doubling to
 * --retry-interval-max 5m, cmd/csi-snapshotter/main.go); the retry calls CreateSnapshot again
 * (checkandUpdateContentStatus, the content having no snapshotHandle) and its success clears the error.
 * Every CSI call goes through csi-lib-utils' LogGRPC (its GRPC call/request/response/error lines), and each
 * CreateSnapshot is preceded by the GetPluginInfo that pkg/snapshotter/snapshotter.go asks for the driver's name.
 * Left out: pre-provisioned contents, the being-created/being-deleted annotations, secrets, group
 * snapshots, ListSnapshots polling while readyToUse is false, retries of a failed DeleteSnapshot, and
 * snapshotter.go's second "CSI CreateSnapshot: … driver name …" line (-v=5), whose proto timestamp this
 * catalog does not print.
 */
import { goQuote, goTimeString, rfc3339, sortedJson } from '../shared/goFormat.ts';
import { setup } from 'xstate';
import { inPlaceReaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { csiMethod, rpcErrorText, type CsiRpc } from '../shared/csi.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { SNAPSHOTTER_TIMEOUT, sidecarRetryDelay } from '../shared/timing.ts';

/** Input of the external-snapshotter (snapshot-controller + csi-snapshotter). */
export interface ExternalSnapshotterInput extends ComponentInput {
  /** the CSI driver name the sidecar serves; only classes naming it are handled */
  driverName: string;
  /** wall-clock epoch (µs) of virtual time 0 */
  epochUs?: number;
}


interface Pending { what: 'getDriverName' | 'createSnapshot' | 'contentStatus' | 'contentError' | 'deleteSnapshot' | 'removeContentFinalizer'; content: string; request?: Record<string, unknown> }

export interface ExternalSnapshotterContext {
  input: ExternalSnapshotterInput;
  classes: Record<string, K8sObject>;
  /** contents by name */
  contents: Record<string, K8sObject>;
  /** requests in flight by id, and the contents/snapshots with an operation in flight */
  pending: Record<string, Pending>;
  busy: Record<string, true>;
  /** CreateSnapshot failures per content, and when its requeue is due (the rate limiter's backoff) */
  failures: Record<string, number>;
  retryAt: Record<string, number>;
  seq: number;
}
type Ctx = ExternalSnapshotterContext;
type Emit = (e: ClusterEmitted) => void;

function send(ctx: Ctx, p: Pending, e: Record<string, unknown>, emit: Emit): void {
  const requestId = `snap-${++ctx.seq}`;
  ctx.pending[requestId] = p;
  emit({ ...e, requestId } as unknown as ClusterEmitted);
}

/** A CSI call through the sidecar's connection: csi-lib-utils' LogGRPC prints the method and the request first. */
function call(ctx: Ctx, p: Pending, rpc: CsiRpc, request: Record<string, unknown>, emit: Emit): void {
  const method = csiMethod(rpc);
  emit({ type: 'log', msg: 'externalSnapshotter.grpcCall', args: { method, request: sortedJson(request) } });
  emit({ type: 'log', msg: 'externalSnapshotter.grpcRequest', args: { method, request: sortedJson(request) } });
  send(ctx, p, { type: 'csi.call', rpc, request, endpoint: 'controller', timeout: SNAPSHOTTER_TIMEOUT }, emit);
}

/** sidecar syncContent. */
function syncContent(ctx: Ctx, c: K8sObject, emit: Emit, now: number): void {
  if (c.spec?.driver !== ctx.input.driverName || ctx.busy[c.metadata.name]) return;
  // (a content waiting out its backoff is not synced before its requeue)
  if ((ctx.retryAt[c.metadata.name] ?? 0) > now && !c.metadata.deletionTimestamp) return;
  const content = c.metadata.name;
  const log = (msg: string, args: Record<string, string | number | boolean> = {}) => emit({ type: 'log', msg: `externalSnapshotter.${msg}`, args: { content, ...args } });
  if (c.metadata.deletionTimestamp) {
    log('synchronizingContent');
    ctx.busy[content] = true;
    if (c.spec.deletionPolicy === 'Delete' && c.status?.snapshotHandle) {
      log('deleteSnapshotStarted');
      call(ctx, { what: 'deleteSnapshot', content }, 'DeleteSnapshot', { snapshot_id: c.status.snapshotHandle }, emit);
    } else {
      send(ctx, { what: 'removeContentFinalizer', content }, { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshotContent', name: content, patch: { metadata: { finalizers: null } } }, emit);
    }
    return;
  }
  // a new content, or one whose CreateSnapshot failed (its status holds the error, no snapshotHandle)
  if (c.spec?.source?.volumeHandle && (!c.status || (c.status.snapshotHandle === undefined && c.status.error))) {
    log('synchronizingContent');
    log('createSnapshotStarted');
    log('createSnapshotWrapper');
    ctx.busy[content] = true;
    const cls = ctx.classes[c.spec.volumeSnapshotClassName ?? ''];
    // (a class with no parameters sends none: protobuf leaves an empty map out, as external-provisioner's requests do)
    const parameters = (cls?.parameters ?? {}) as Record<string, string>;
    const request = { name: `snapshot-${c.spec.volumeSnapshotRef?.uid}`, ...(Object.keys(parameters).length ? { parameters } : {}), source_volume_id: c.spec.source.volumeHandle };
    // pkg/snapshotter/snapshotter.go CreateSnapshot asks the driver's name (GetPluginInfo) before every CreateSnapshot
    log('csiCreateSnapshot', { name: request.name });
    call(ctx, { what: 'getDriverName', content, request }, 'GetPluginInfo', {}, emit);
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
      const put = (m: Record<string, K8sObject>, k: string) => { if (gone) delete m[k]; else m[k] = o; };
      switch (o.kind) {
        case 'VolumeSnapshotClass': put(ctx.classes, o.metadata.name); return;
        case 'VolumeSnapshotContent': {
          put(ctx.contents, o.metadata.name);
          if (!gone) syncContent(ctx, o, emit, event.now);
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
      const log = (msg: string, args: Record<string, string | number | boolean> = {}) => emit({ type: 'log', msg: `externalSnapshotter.${msg}`, args: { content, ...args } });
      if (event.type === 'csi.result') {
        // LogGRPC's answer lines (protosanitizer prints the message as sorted JSON; an empty map is left out)
        const errText = event.code === 'OK' ? '' : rpcErrorText(event.code, event.message ?? '');
        emit({ type: 'log', msg: 'externalSnapshotter.grpcResponse', args: { method: csiMethod(event.rpc), response: event.code === 'OK' ? sortedJson(event.response ?? {}) : '{}', errStructured: event.code === 'OK' ? 'null' : goQuote(errText) } });
        emit({ type: 'log', msg: 'externalSnapshotter.grpcError', args: { method: csiMethod(event.rpc), err: event.code === 'OK' ? '<nil>' : errText } });
        if (p.what === 'getDriverName' && event.code === 'OK') {
          call(ctx, { what: 'createSnapshot', content }, 'CreateSnapshot', p.request!, emit);
          return;
        }
        if (event.code !== 'OK') {
          const err = rpcErrorText(event.code, event.message ?? '');
          if (p.what === 'createSnapshot' || p.what === 'getDriverName') {
            log('createSnapshotReturnedError', { err });
            log('createSnapshotError', { err: `failed to take snapshot of the volume ${ctx.contents[content]?.spec?.source?.volumeHandle}: ${JSON.stringify(err)}` });
            const message = `Failed to create snapshot: failed to take snapshot of the volume ${ctx.contents[content]?.spec?.source?.volumeHandle}: ${JSON.stringify(err)}`;
            emit({ type: 'event.recorded', involved: { kind: 'VolumeSnapshotContent', name: content }, eventType: 'Warning', reason: 'SnapshotCreationFailed', message });
            // updateContentErrorStatusWithEvent, then the requeue with backoff
            const n = ctx.failures[content] ?? 0;
            ctx.failures[content] = n + 1;
            ctx.retryAt[content] = event.now + sidecarRetryDelay(n);
            // (the same error already set is not written again)
            if (ctx.contents[content]?.status?.error?.message !== message) {
              send(ctx, { what: 'contentError', content }, { type: 'api.request', verb: 'patchStatus', kind: 'VolumeSnapshotContent', name: content, patch: { status: { readyToUse: false, error: { message, time: rfc3339((ctx.input.epochUs ?? 0) + event.now) } } } }, emit);
            }
            emit({ type: 'timer.requested', key: `retry/${content}`, at: ctx.retryAt[content]! });
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
          // (a ready snapshot clears the error an earlier attempt left, updateSnapshotContentStatus)
          const hadError = ctx.contents[content]?.status?.error !== undefined;
          delete ctx.failures[content]; delete ctx.retryAt[content];
          send(ctx, { what: 'contentStatus', content }, { type: 'api.request', verb: 'patchStatus', kind: 'VolumeSnapshotContent', name: content, patch: { status: { creationTime: Number(createdAtNs), readyToUse, restoreSize: size, snapshotHandle: snapshotId, ...(hadError && readyToUse ? { error: null } : {}) } } }, emit);
        } else {
          send(ctx, { what: 'removeContentFinalizer', content }, { type: 'api.request', verb: 'patch', kind: 'VolumeSnapshotContent', name: content, patch: { metadata: { finalizers: null }, status: { snapshotHandle: null } } }, emit);
        }
        return;
      }
      if (p.what === 'removeContentFinalizer' && event.ok) log('removedContentFinalizer');
      if (p.what === 'contentStatus' || p.what === 'removeContentFinalizer' || p.what === 'deleteSnapshot') delete ctx.busy[content];
    }),
    /** the requeue of a content whose CreateSnapshot failed */
    retryContent: inPlaceReaction<ExternalSnapshotterContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'clock.ticked' || !event.key.startsWith('retry/')) return;
      const name = event.key.slice('retry/'.length);
      const c = ctx.contents[name];
      if (c) syncContent(ctx, c, emitOut, event.now);
    }),
    resetCaches: ({ context: ctx }) => { ctx.pending = {}; ctx.busy = {}; ctx.failures = {}; ctx.retryAt = {}; },
  },
}).createMachine({
  id: 'external-snapshotter',
  initial: 'stopped',
  context: ({ input }) => ({ input, classes: {}, contents: {}, pending: {}, busy: {}, failures: {}, retryAt: {}, seq: 0 }),
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
