/**
 * external-resizer (the csi-resizer sidecar next to a CSI controller plugin).
 *
 * What the real component does: it watches PersistentVolumeClaims; when a Bound claim of its driver
 * asks for more storage than its status capacity, it marks the claim Resizing, records the Resizing
 * event, calls ControllerExpandVolume, writes the new size into the PV's spec.capacity, and then
 * either marks the claim FileSystemResizePending (the driver said node_expansion_required: the
 * kubelet finishes with NodeExpandVolume) or writes the new size into the claim's status
 * (VolumeResizeSuccessful). Failures record VolumeResizeFailed and the claim is retried through the
 * workqueue's exponential rate limiter (--retry-interval-start 1s, --retry-interval-max 5m).
 *
 * Models: kubernetes-csi/external-resizer pkg/controller/controller.go (v1.1.0 for profile 1.20,
 * v1.11.1 for 1.30: updatePVC, syncPVC, resizePVC, resizeVolume, markPVCAsFSResizeRequired,
 * markPVCResizeFinished), pkg/resizer/csi_resizer.go.
 *
 * Left out: the in-use store for offline-only drivers, CSI migration annotations, the
 * RecoverVolumeExpansionFailure / AnnotateFsResize feature gates (off by default), secrets, and the
 * conditions' lastTransitionTime (the machine has no wall clock).
 */
import { setup } from 'xstate';
import { inPlaceReaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import type { Stage } from '../shared/messages.ts';
import { csiMethod, rpcErrorText, stripSecrets } from '../shared/csi.ts';
import { goQuote, rfc3339, sortedJson } from '../shared/goFormat.ts';
import { secretCredentials, type K8sObject } from '../shared/k8s.ts';
import { RESIZER_TIMEOUT, sidecarRetryDelay } from '../shared/timing.ts';
import { formatBinary, parseQuantity } from '../shared/quantity.ts';
import { expandRequest, pvNeedResize, pvcNeedResize, requestedBytes, statusBytes } from './externalResizer.sync.ts';
import { getProfile } from '../profiles/index.ts';

/** Input of csi-resizer. */
export interface ExternalResizerInput extends ComponentInput {
  /** wall-clock epoch (µs) of virtual time 0: the conditions' lastTransitionTime (0 when absent) */
  epochUs?: number;
  /** the CSI driver name this sidecar serves (GetPluginInfo), e.g. "com.tencent.cloud.csi.cbs" */
  driverName: string;
}

type Step = 'markResizing' | 'getSecret' | 'capabilities' | 'expanding' | 'updatingPv' | 'markingFs' | 'finishing';
/** `secrets`: the controller-expand Secret's data, once read */
interface Work { step: Step; requestId: string; pv: string; bytes: number; fsRequired: boolean; secrets?: Record<string, string> }

export interface ExternalResizerContext {
  input: ExternalResizerInput;
  /** informer caches: claims by "ns/name", volumes by name */
  pvcs: Record<string, K8sObject>;
  pvs: Record<string, K8sObject>;
  /** the claim being worked on and the step it waits in (one worker per key, as the workqueue) */
  work: Record<string, Work>;
  /** per claim: failures so far, for the rate limiter */
  failures: Record<string, number>;
  seq: number;
}

type Ctx = ExternalResizerContext;
type Emit = (e: ClusterEmitted) => void;
const pvcKey = (o: K8sObject): string => `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;
const log = (emit: Emit, msg: string, args: Record<string, string | number | boolean>, stage?: Stage) =>
  emit({ type: 'log', msg: `externalResizer.${msg}`, args, ...(stage ? { stage } : {}) });
/** a line of a sync that resizes nothing: its timing from the sidecar's own stream (LogEmitted.ownStream) */
const idle = (emit: Emit, msg: string, args: Record<string, string | number | boolean>) => emit({ type: 'log', msg: `externalResizer.${msg}`, args, ownStream: true });

function patchClaimStatus(ctx: Ctx, key: string, status: Record<string, unknown>, emit: Emit): string {
  const [namespace, name] = key.split('/');
  const requestId = `resizer-${++ctx.seq}`;
  emit({ type: 'api.request', requestId, stage: 'resize', verb: 'patchStatus', kind: 'PersistentVolumeClaim', namespace: namespace!, name: name!, patch: { status } });
  return requestId;
}

type Idle = [msg: string, args: Record<string, string | number | boolean>];

/**
 * syncPVC's checks, in the release's order: the claim and volume to resize, or the lines it logs (at -v=3/4) on the
 * way to doing nothing. (v1.11.1 finds the claim's volume first, v1.1.0 asks whether the claim needs resizing first.)
 */
function decideSync(ctx: Ctx, key: string): { pvc: K8sObject; pv: K8sObject } | { idle: Idle[] } {
  const pvc = ctx.pvcs[key];
  if (!pvc) return { idle: [['pvcDeleted', { pvc: key }]] };
  const pvFirst = getProfile(ctx.input.profile).resizerLooksUpPvFirst;
  if (pvFirst && !pvc.spec?.volumeName) return { idle: [['pvNotCreatedYet', { pvc: key }]] };
  const notFound: Idle = ['pvOfPvcNotFound', { pv: pvc.spec?.volumeName ?? '', pvc: key }];
  if (pvFirst && !ctx.pvs[pvc.spec.volumeName]) return { idle: [notFound] };
  if (!pvcNeedResize(pvc)) return { idle: [['noNeedToResizePvc', { pvc: key }]] };
  const pv = ctx.pvs[pvc.spec.volumeName];
  if (!pv) return { idle: [notFound] };
  const why = pvNeedResize(pvc, pv, ctx.input.driverName);
  if (why === null) return { pvc, pv };
  const noNeed: Idle = ['noNeedToResizePv', { pv: pv.metadata.name, pvc: key }];
  if (why === 'unsupported') return { idle: [['resizerDoesNotSupportPv', { driver: ctx.input.driverName, pv: pv.metadata.name }], noNeed] };
  return { idle: why === 'notBound' ? [['pvNotBoundToPvc', { pvc: key }], noNeed] : [noNeed] };
}

/** syncPVC: decide, then markPVCResizeInProgress (the first write of resizePVC). */
function syncPVC(ctx: Ctx, key: string, now: number, emit: Emit): void {
  if (ctx.work[key]) { log(emit, 'startedPvcProcessing', { key }); return; }
  const d = decideSync(ctx, key);
  if ('idle' in d) {
    // a sync that resizes nothing: its first line is no step of a resize either
    log(emit, 'startedPvcProcessing', { key }, 'other');
    for (const [msg, args] of d.idle) idle(emit, msg, args);
    return;
  }
  log(emit, 'startedPvcProcessing', { key });
  const { pvc, pv } = d;
  // (each condition with the time it was set: metav1.Now(), controller.go markPVCResizeInProgress)
  const requestId = patchClaimStatus(ctx, key, { conditions: [{ type: 'Resizing', status: 'True', lastTransitionTime: rfc3339((ctx.input.epochUs ?? 0) + now) }] }, emit);
  ctx.work[key] = { step: 'markResizing', requestId, pv: pv.metadata.name, bytes: requestedBytes(pvc), fsRequired: false };
}

/** resizePVC's error path: VolumeResizeFailed (except for the in-progress mark), Error syncing PVC, AddRateLimited. */
function fail(ctx: Ctx, key: string, err: string, recordEvent: boolean, now: number, emit: Emit): void {
  const [namespace, name] = key.split('/');
  delete ctx.work[key];
  if (recordEvent) emit({ type: 'event.recorded', involved: { kind: 'PersistentVolumeClaim', namespace: namespace!, name: name! }, eventType: 'Warning', reason: 'VolumeResizeFailed', message: err });
  log(emit, 'errorSyncingPvc', { err });
  const n = ctx.failures[key] ?? 0;
  ctx.failures[key] = n + 1;
  emit({ type: 'timer.requested', key: `retry/${key}`, at: now + sidecarRetryDelay(n) });
}

/** resizer.Resize's call: ControllerExpandVolume with the PV's capability (client.go Expand, through csi-lib-utils' LogGRPC). */
function expand(ctx: Ctx, key: string, w: Work, pv: K8sObject, singleNodeMultiWriter: boolean, emit: Emit): void {
  const request = expandRequest(pv, w.bytes, singleNodeMultiWriter, w.secrets);
  const requestId = `resizer-${++ctx.seq}`;
  const json = sortedJson(stripSecrets(request));
  log(emit, 'grpcCall', { method: '/csi.v1.Controller/ControllerExpandVolume', request: json });
  log(emit, 'grpcRequest', { request: json, method: '/csi.v1.Controller/ControllerExpandVolume' });
  emit({ type: 'csi.call', requestId, rpc: 'ControllerExpandVolume', request, endpoint: 'controller', timeout: RESIZER_TIMEOUT });
  ctx.work[key] = { ...w, step: 'expanding', requestId };
}

const findWork = (ctx: Ctx, requestId: string): [string, Work] | undefined =>
  Object.entries(ctx.work).find(([, w]) => w.requestId === requestId);

export const externalResizerMachine = setup({
  types: { context: {} as ExternalResizerContext, events: {} as ClusterEvent, emitted: {} as ClusterEmitted, input: {} as ExternalResizerInput },
  actions: {
    /** addPVC / updatePVC (enqueue when the request grew, or on a resync) / deletePVC; PV informer cache */
    handleWatchEvent: inPlaceReaction<ExternalResizerContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'watch.added' && event.type !== 'watch.modified' && event.type !== 'watch.deleted') return;
      const o = event.object;
      const emit: Emit = emitOut;
      if (o.kind === 'PersistentVolume') {
        if (event.type === 'watch.deleted') delete ctx.pvs[o.metadata.name];
        else ctx.pvs[o.metadata.name] = o;
        return;
      }
      if (o.kind !== 'PersistentVolumeClaim') return;
      const key = pvcKey(o);
      if (event.type === 'watch.deleted') { delete ctx.pvcs[key]; delete ctx.failures[key]; return; }
      ctx.pvcs[key] = o;
      if (event.type === 'watch.added') { syncPVC(ctx, key, event.now, emit); return; }
      const grew = requestedBytes(o) > requestedBytes(event.oldObject);
      // (1.30, "case 3": its status capacity grew, the kubelet finished a file system resize or the claim was bound)
      const capacityGrew = getProfile(ctx.input.profile).resizerRequeuesOnCapacityGrowth && statusBytes(o) > statusBytes(event.oldObject);
      if (grew || o.metadata.resourceVersion === event.oldObject.metadata.resourceVersion || capacityGrew) syncPVC(ctx, key, event.now, emit);
    }),
    handleApiResult: inPlaceReaction<ExternalResizerContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'api.result') return;
      const found = findWork(ctx, event.requestId);
      if (!found) return;
      const [key, w] = found;
      const emit: Emit = emitOut;
      const [namespace, name] = key.split('/');
      const involved = { kind: 'PersistentVolumeClaim' as const, namespace: namespace!, name: name! };
      if (event.ok && event.object?.kind === 'PersistentVolumeClaim') ctx.pvcs[key] = event.object;
      if (event.ok && event.object?.kind === 'PersistentVolume') ctx.pvs[event.object.metadata.name] = event.object;
      if (!event.ok) {
        const patchErr = `can't patch status of  PVC ${key} with ${event.message ?? ''}`;
        if (w.step === 'markResizing') fail(ctx, key, `marking pvc ${goQuote(key)} as resizing failed: ${patchErr}`, false, event.now, emit);
        else if (w.step === 'getSecret') {
          const ref = ctx.pvs[w.pv]?.spec?.csi?.controllerExpandSecretRef as { name: string; namespace: string } | undefined;
          fail(ctx, key, `resize volume ${goQuote(w.pv)} by resizer ${goQuote(ctx.input.driverName)} failed: error getting secret ${ref?.name ?? ''} in namespace ${ref?.namespace ?? ''}: ${event.message ?? ''}`, true, event.now, emit);
        }
        else if (w.step === 'updatingPv') fail(ctx, key, `updating capacity of PV ${goQuote(w.pv)} to ${formatBinary(w.bytes)} failed: update capacity of PV ${w.pv} failed: ${event.message ?? ''}`, true, event.now, emit);
        else fail(ctx, key, `Mark PVC ${goQuote(key)} as ${w.step === 'markingFs' ? 'file system resize required' : 'resize finished'} failed: ${patchErr}`, true, event.now, emit);
        return;
      }
      switch (w.step) {
        case 'markResizing':
        case 'getSecret': {
          const pv = ctx.pvs[w.pv];
          if (!pv) { delete ctx.work[key]; return; }
          if (w.step === 'markResizing') {
            emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'Resizing', message: `External resizer is resizing volume ${w.pv}` });
            // Resize reads the PV's controllerExpandSecretRef first (getCredentials: a GET; csi_resizer.go v1.11.1 :166-174, v1.1.0 :154-162)
            const ref = pv.spec?.csi?.controllerExpandSecretRef as { name: string; namespace: string } | undefined;
            if (ref) {
              const requestId = `resizer-${++ctx.seq}`;
              emit({ type: 'api.request', requestId, verb: 'get', kind: 'Secret', namespace: ref.namespace, name: ref.name });
              ctx.work[key] = { ...w, step: 'getSecret', requestId };
              return;
            }
          } else w.secrets = secretCredentials(event.object!);
          if (getProfile(ctx.input.profile).resizerAsksControllerCapabilities) {
            // Resize → getVolumeCapabilities: does the driver take SINGLE_NODE_MULTI_WRITER (csi_resizer.go:176/:194)
            const requestId = `resizer-${++ctx.seq}`;
            log(emit, 'grpcCall', { method: '/csi.v1.Controller/ControllerGetCapabilities', request: '{}' });
            log(emit, 'grpcRequest', { request: '{}', method: '/csi.v1.Controller/ControllerGetCapabilities' });
            emit({ type: 'csi.call', requestId, rpc: 'ControllerGetCapabilities', request: {}, endpoint: 'controller', timeout: RESIZER_TIMEOUT });
            ctx.work[key] = { ...w, step: 'capabilities', requestId };
            return;
          }
          expand(ctx, key, w, pv, false, emit);
          return;
        }
        case 'updatingPv': {
          log(emit, 'updateCapacitySucceeded', { pv: w.pv, capacity: formatBinary(w.bytes) });
          const status = w.fsRequired
            ? { conditions: [{ type: 'FileSystemResizePending', status: 'True', lastTransitionTime: rfc3339((ctx.input.epochUs ?? 0) + event.now), message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.' }] }
            : { capacity: { storage: formatBinary(w.bytes) }, conditions: null };
          ctx.work[key] = { ...w, step: w.fsRequired ? 'markingFs' : 'finishing', requestId: patchClaimStatus(ctx, key, status, emit) };
          return;
        }
        case 'markingFs':
          log(emit, 'markFsResizeRequired', { pvc: key });
          emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'FileSystemResizeRequired', message: 'Require file system resize of volume on node' });
          break;
        case 'finishing':
          log(emit, 'resizeFinished', { pvc: key });
          emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'VolumeResizeSuccessful', message: 'Resize volume succeeded' });
          break;
        default: return;
      }
      delete ctx.work[key];
      delete ctx.failures[key];
    }),
    /** csi_resizer.Resize returned: update the PV (updatePVCapacity) or fail */
    handleCsiResult: inPlaceReaction<ExternalResizerContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'csi.result') return;
      const found = findWork(ctx, event.requestId);
      if (!found || (found[1].step !== 'expanding' && found[1].step !== 'capabilities')) return;
      const [key, w] = found;
      const emit: Emit = emitOut;
      const errText = event.code === 'OK' ? '' : rpcErrorText(event.code, event.message ?? '');
      const response = event.code === 'OK' ? sortedJson(event.response ?? {}) : '{}';
      log(emit, 'grpcResponse', { response, errStructured: event.code === 'OK' ? 'null' : goQuote(errText), method: csiMethod(event.rpc) });
      log(emit, 'grpcError', { err: event.code === 'OK' ? '<nil>' : errText, method: csiMethod(event.rpc) });
      if (w.step === 'capabilities') {
        const pv = ctx.pvs[w.pv];
        if (event.code !== 'OK' || !pv) {
          // getVolumeCapabilities' error, wrapped by SupportsControllerSingleNodeMultiWriter (client.go:143) and Resize (csi_resizer.go:178)
          const inner = `error getting controller capabilities: ${errText}`;
          fail(ctx, key, `resize volume ${goQuote(w.pv)} by resizer ${goQuote(ctx.input.driverName)} failed: failed to get capabilities of volume ${w.pv} with ${inner}`, true, event.now, emit);
          return;
        }
        // (ControllerServiceCapability.RPC.Type SINGLE_NODE_MULTI_WRITER = 13, csi.proto)
        const caps = (event.response?.capabilities ?? []) as Array<{ Type?: { Rpc?: { type?: number } } }>;
        const multiWriter = caps.some((c) => c.Type?.Rpc?.type === 13);
        expand(ctx, key, w, pv, multiWriter, emit);
        return;
      }
      if (event.code !== 'OK') {
        fail(ctx, key, `resize volume ${goQuote(w.pv)} by resizer ${goQuote(ctx.input.driverName)} failed: ${errText}`, true, event.now, emit);
        return;
      }
      const bytes = parseQuantity(event.response?.capacity_bytes as number | undefined) || w.bytes;
      const fsRequired = event.response?.node_expansion_required === true;
      log(emit, 'resizeVolumeSucceeded', { pv: w.pv });
      log(emit, 'updatePvCapacity', { pv: w.pv });
      const requestId = `resizer-${++ctx.seq}`;
      emit({ type: 'api.request', requestId, stage: 'resize', verb: 'patch', kind: 'PersistentVolume', name: w.pv, patch: { spec: { capacity: { storage: formatBinary(bytes) } } } });
      ctx.work[key] = { ...w, step: 'updatingPv', requestId, bytes, fsRequired };
    }),
    retrySync: inPlaceReaction<ExternalResizerContext, ClusterEvent, ClusterEmitted>((ctx, event, emitOut) => {
      if (event.type !== 'clock.ticked' || !event.key.startsWith('retry/')) return;
      syncPVC(ctx, event.key.slice('retry/'.length), event.now, emitOut);
    }),
    resetCaches: ({ context: ctx }) => { ctx.pvcs = {}; ctx.pvs = {}; ctx.work = {}; },
  },
}).createMachine({
  id: 'external-resizer',
  initial: 'stopped',
  context: ({ input }) => ({ input, pvcs: {}, pvs: {}, work: {}, failures: {}, seq: 0 }),
  states: {
    stopped: {
      description: 'The csi-resizer container is not running.',
      on: { 'component.started': { target: 'running', actions: 'resetCaches' } },
    },
    running: {
      description: 'Informers synced; workers run syncPVC for queued claims (controller.go Run/syncPVCs).',
      on: {
        'watch.added': { actions: 'handleWatchEvent' },
        'watch.modified': { actions: 'handleWatchEvent' },
        'watch.deleted': { actions: 'handleWatchEvent' },
        'api.result': { actions: 'handleApiResult' },
        'csi.result': { actions: 'handleCsiResult' },
        'clock.ticked': { actions: 'retrySync' },
        'host.shutdown': { target: 'stopped' },
      },
    },
  },
});
