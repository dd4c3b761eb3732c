/**
 * VolumeAttachment and PersistentVolume processing of csi-attacher: informer handlers, the two work
 * queues, csiHandler.syncAttach / syncDetach / SyncNewOrUpdatedPersistentVolume and the trivial handler.
 * upstream: external-attacher pkg/controller/controller.go, csi_handler.go, util.go, trivial_handler.go
 * (v3.1.0 for '1.20', v4.6.1 for '1.30'; v4.9+ removes the VA finalizer before clearing the status).
 */
import type { Stage } from '../shared/messages.ts';
import type { ApiResultEvent, CsiResultEvent, WatchEvent } from '../shared/contract.ts';
import { rfc3339 } from '../shared/goFormat.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { summarize } from '../shared/messages.ts';
import { attacherFinalizer, VA_NODE_ID_ANNOTATION } from '../shared/names.ts';
import { getProfile } from '../profiles/index.ts';
import {
  finalizersWithout, hasFinalizer, listerNotFound, newer, nodeIdFromCSINode, queueAdd, queueDone, queueForget,
  queueGet, queueLen, rateLimitDelay, shouldEnqueueVAChange, volumeCapability,
} from './helpers.ts';
import { externalAttacherSummaries as summaries } from './externalAttacher.messages.ts';
import type { VaOperation } from './externalAttacher.types.ts';
import { pureTransition, resolvedSnapshot } from '../shared/pureTransition.ts';
import { noteState, stateText } from '../shared/machineParts.ts';
import { apiRequest, grpcCall, grpcResult, log, vaLog, type Step } from './step.ts';
import { volumeAttachmentMachine, type VaAction, type VaLifecycleEvent } from './volumeAttachment.machine.ts';

const finalizer = (s: Step): string => attacherFinalizer(s.ctx.driverName);
const profile = (s: Step) => getProfile(s.ctx.input.profile);
const errTime = (s: Step): string => rfc3339((s.ctx.input.epochUs ?? 0) + s.now);

// ------------------------------------------------------------ informers

export function onWatch(s: Step, e: WatchEvent): void {
  const o = e.object;
  const name = o.metadata.name;
  if (o.kind === 'VolumeAttachment') {
    if (e.type === 'watch.deleted') {
      delete s.ctx.vas[name];
      // a sync still running for it finishes first: its write's answer may come after the deletion
      if (!s.ctx.ops[name]) delete s.ctx.lifecycles[name];
      const pv = o.spec?.source?.persistentVolumeName;
      if (pv) queueAdd(s.ctx.pvQueue, pv);
    } else {
      s.ctx.vas[name] = newer(s.ctx.vas[name], o);
      if (e.type === 'watch.modified' && !shouldEnqueueVAChange(e.oldObject, o)) vaLog(s, 'externalAttacher.ignoringVAChange', name);
      else queueAdd(s.ctx.vaQueue, name);
    }
  } else if (o.kind === 'PersistentVolume') {
    if (e.type === 'watch.deleted') { delete s.ctx.pvs[name]; return; }
    s.ctx.pvs[name] = newer(s.ctx.pvs[name], o);
    if (o.metadata.deletionTimestamp && hasFinalizer(o, finalizer(s))) queueAdd(s.ctx.pvQueue, name);
  } else if (o.kind === 'CSINode') {
    if (e.type === 'watch.deleted') delete s.ctx.csiNodes[name];
    else s.ctx.csiNodes[name] = o;
  }
}

export function onTick(s: Step, key: string): void {
  const [q, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
  if (q === 'va') queueAdd(s.ctx.vaQueue, name);
  else if (q === 'pv') queueAdd(s.ctx.pvQueue, name);
}

// ------------------------------------------------------------ workers

/** Hand queued keys to free workers (--worker-threads for each queue). */
export function runWorkers(s: Step): void {
  const workers = s.ctx.input.workerThreads ?? 10;
  for (;;) {
    if (queueLen(s.ctx.vaQueue) && s.ctx.vaQueue.processing.size < workers) syncVA(s, queueGet(s.ctx.vaQueue)!);
    else if (queueLen(s.ctx.pvQueue) && s.ctx.pvQueue.processing.size < workers) syncPV(s, queueGet(s.ctx.pvQueue)!);
    else return;
  }
}

type Outcome = 'forget' | 'rateLimited' | 'none';
function done(s: Step, queue: 'va' | 'pv', name: string, outcome: Outcome): void {
  const q = queue === 'va' ? s.ctx.vaQueue : s.ctx.pvQueue;
  if (outcome === 'forget') queueForget(q, name);
  if (outcome === 'rateLimited') s.out.push({ type: 'timer.requested', key: `${queue}/${name}`, at: s.now + rateLimitDelay(q, name) });
  if (queue === 'va') {
    delete s.ctx.ops[name];
    if (!s.ctx.vas[name]) delete s.ctx.lifecycles[name];
  }
  queueDone(q, name);
}

/** (the line closes an attach or a detach: the operation says which) */
function finished(s: Step, name: string, stage: Stage): void {
  vaLog(s, 'externalAttacher.finishedProcessing', name, {}, stage);
  done(s, 'va', name, 'forget');
}
function failed(s: Step, name: string, err: string): void {
  vaLog(s, 'externalAttacher.errorProcessing', name, { err });
  done(s, 'va', name, 'rateLimited');
}

/** controller.go syncVA + csiHandler.SyncNewOrUpdatedVolumeAttachment */
function syncVA(s: Step, name: string): void {
  const va = s.ctx.vas[name];
  // these first lines do not say it, but the VolumeAttachment decides: a deletion timestamp means a
  // detach, and one already gone from the lister is a detach's last sync; one that already says attached
  // (the update its own "marked as attached" write caused, a resync) is only looked at: no operation runs
  // (csi_handler.go SyncNewOrUpdatedVolumeAttachment -> syncAttach returns at once unless a forced sync is pending, v4.6.1 :254-257)
  const stage: Stage = !va || va.metadata.deletionTimestamp ? 'detach' : va.status?.attached && s.ctx.handler !== 'trivial' ? 'other' : 'attach';
  vaLog(s, 'externalAttacher.startedVAProcessing', name, {}, stage);
  if (!va) { vaLog(s, 'externalAttacher.vaDeleted', name); done(s, 'va', name, 'none'); return; }
  if (va.spec?.attacher !== s.ctx.driverName) {
    vaLog(s, 'externalAttacher.skippingVA', name, { attacher: va.spec?.attacher ?? '' });
    done(s, 'va', name, 'none');
    return;
  }
  if (s.ctx.handler === 'trivial') { trivialSync(s, va); return; }
  vaLog(s, 'externalAttacher.processingVA', name, {}, stage);
  if (!va.metadata.deletionTimestamp) syncAttach(s, va); else syncDetach(s, va);
}

// ------------------------------------------------------------ the VolumeAttachment lifecycle

const vaMachine = volumeAttachmentMachine;

/** Advance a VA's lifecycle by one fact and perform what it names; the answers of its checks follow at once. */
function advance(s: Step, op: VaOperation, event: VaLifecycleEvent): void {
  const syncStart = event.type === 'csiHandler.syncAttach' || event.type === 'csiHandler.syncDetach' || event.type === 'trivialHandler.sync';
  const held = s.ctx.lifecycles[op.name];
  // a Detached lifecycle belongs to a VA that is gone: a sync of the same name is a new VolumeAttachment
  const value = held === undefined || (held === 'Detached' && syncStart) ? 'New' : held;
  const snap = resolvedSnapshot(vaMachine, value, { finalizerFirst: profile(s).attacherRemovesFinalizerFirst });
  if (!snap.can(event)) {
    // a fact the lifecycle has no transition for is a modelling bug: say so loudly rather than hang the VA
    throw new Error(`external-attacher: VolumeAttachment ${op.name} in state ${JSON.stringify(snap.value)} cannot take ${event.type}`);
  }
  const [next, actions] = pureTransition(vaMachine, snap, event);
  s.ctx.lifecycles[op.name] = next.value;
  noteState(s, `volumeattachment ${op.name}`, stateText(next.value));
  const answers: VaLifecycleEvent[] = [];
  for (const a of actions) {
    const answer = PERFORM[a.type as VaAction]?.(s, op, event);
    if (answer) answers.push(answer);
  }
  for (const answer of answers) advance(s, op, answer);
}

/** saveAttachError / saveDetachError: the message of the fact that failed the sync. */
function errorOf(event: VaLifecycleEvent): string {
  switch (event.type) {
    case 'attach.failed': case 'detach.failed': case 'csi.controllerPublishVolume.failed': case 'csi.controllerUnpublishVolume.failed': return event.err;
    case 'pv.finalizerAddFailed': return `could not add PersistentVolume finalizer: ${event.message}`;
    case 'va.metadataSaveFailed': return `could not save VolumeAttachment: ${event.message}`;
    case 'va.markDetachedFailed': case 'va.finalizerRemoveFailed': return `could not mark as detached: ${event.message}`;
    default: return '';
  }
}

type Perform = (s: Step, op: VaOperation, event: VaLifecycleEvent) => VaLifecycleEvent | void;

const PERFORM: Partial<Record<VaAction, Perform>> = {
  /** syncAttach -> csiAttach: the PV the VA names, and its finalizer */
  checkPV: (s, op) => {
    vaLog(s, 'externalAttacher.startingAttach', op.name);
    const pvName: string | undefined = op.va.spec?.source?.persistentVolumeName;
    if (!pvName) return { type: 'attach.failed', err: 'neither InlineCSIVolumeSource nor PersistentVolumeName specified in VA source' };
    op.pvName = pvName;
    const pv = s.ctx.pvs[pvName];
    if (!pv) return { type: 'attach.failed', err: listerNotFound('persistentvolume', pvName) };
    if (pv.metadata.deletionTimestamp) return { type: 'attach.failed', err: `PersistentVolume "${pvName}" is marked for deletion` };
    if (!hasFinalizer(pv, finalizer(s))) return { type: 'pv.finalizerMissing' };
    vaLog(s, 'externalAttacher.pvFinalizerAlreadySet', op.name, { pv: pvName });
    op.pv = pv;
    return { type: 'pv.finalizerPresent' };
  },
  addPVFinalizer: (s, op) => {
    const pv = s.ctx.pvs[op.pvName!]!;
    vaLog(s, 'externalAttacher.addingPVFinalizer', op.name, { pv: op.pvName! });
    apiRequest(s, {
      verb: 'patch', kind: 'PersistentVolume', name: op.pvName!,
      patch: { metadata: { finalizers: [...(pv.metadata.finalizers ?? []), finalizer(s)] } },
      summary: summarize(summaries, 'externalAttacher.addPVFinalizer', { finalizer: finalizer(s), pv: op.pvName! }),
    }, { queue: 'va', name: op.name, request: 'pvFinalizer' });
  },
  logPVFinalizerAdded: (s, op) => vaLog(s, 'externalAttacher.pvFinalizerAdded', op.name, { pv: op.pvName! }),
  /** csiAttach after the PV finalizer: capability, node ID, and what the VA patch must add */
  prepareVA: (s, op) => {
    const pv = op.pv!;
    const csi = pv.spec?.csi;
    if (!csi) return { type: 'attach.failed', err: 'pv spec contained non-csi source that was not migrated' };
    const cap = volumeCapability(pv.spec, profile(s).attacherDefaultFsType, profile(s).attacherAccessModes, s.ctx.supportsSingleNodeMultiWriter === true);
    if ('error' in cap) return { type: 'attach.failed', err: cap.error };
    const node = getNodeID(s, op, false);
    if ('error' in node) return { type: 'attach.failed', err: node.error };
    op.nodeID = node.id;
    op.volumeHandle = csi.volumeHandle;
    const va = op.va;
    const patch: { finalizers?: string[]; annotations?: Record<string, string> } = {};
    if (hasFinalizer(va, finalizer(s))) vaLog(s, 'externalAttacher.vaFinalizerAlreadySet', op.name);
    else { patch.finalizers = [...(va.metadata.finalizers ?? []), finalizer(s)]; vaLog(s, 'externalAttacher.vaFinalizerAdded', op.name, { finalizer: finalizer(s) }); }
    if (va.metadata.annotations?.[VA_NODE_ID_ANNOTATION] === node.id) vaLog(s, 'externalAttacher.nodeIDAlreadySet', op.name, { nodeID: node.id });
    else { patch.annotations = { [VA_NODE_ID_ANNOTATION]: node.id }; vaLog(s, 'externalAttacher.nodeIDAdded', op.name, { nodeID: node.id }); }
    op.request = {
      volume_id: csi.volumeHandle, node_id: node.id, volume_capability: cap.cap,
      readonly: s.ctx.supportsReadOnly ? !!csi.readOnly : false, volume_context: csi.volumeAttributes,
    };
    if (!patch.finalizers && !patch.annotations) return { type: 'va.metadataPresent' };
    op.patch = patch;
    return { type: 'va.metadataNeeded' };
  },
  saveVAMetadata: (s, op) => apiRequest(s, {
    verb: 'patch', kind: 'VolumeAttachment', name: op.name, patch: { metadata: op.patch },
    summary: summarize(summaries, 'externalAttacher.saveVAMetadata', { nodeID: op.nodeID!, va: op.name }),
  }, { queue: 'va', name: op.name, request: 'vaMetadata' }),
  controllerPublishVolume: (s, op) => grpcCall(s, { kind: 'va', va: op.name, stage: 'attach' }, 'ControllerPublishVolume', op.request!, { queue: 'va', name: op.name, request: 'publish' },
    summarize(summaries, 'externalAttacher.controllerPublishVolume', { volumeHandle: op.volumeHandle!, nodeID: op.nodeID! })),
  logAttached: (s, op) => vaLog(s, 'externalAttacher.attached', op.name),
  markAsAttached: (s, op, event) => {
    const metadata = event.type === 'csi.controllerPublishVolume.succeeded' ? event.response?.publish_context as Record<string, string> | undefined : undefined;
    vaLog(s, 'externalAttacher.markingAsAttached', op.name);
    apiRequest(s, {
      verb: 'patchStatus', kind: 'VolumeAttachment', name: op.name,
      patch: { status: { attached: true, attachmentMetadata: metadata && Object.keys(metadata).length ? metadata : null, attachError: null } },
      summary: summarize(summaries, 'externalAttacher.markAttached', { va: op.name }),
    }, { queue: 'va', name: op.name, request: 'markAttached' });
  },
  logMarkedAsAttached: (s, op) => vaLog(s, 'externalAttacher.markedAsAttached', op.name),
  logFullyAttached: (s, op) => vaLog(s, 'externalAttacher.fullyAttached', op.name),
  logTrivialMarked: (s, op) => vaLog(s, 'externalAttacher.trivialMarked', op.name),
  logTrivialMarkFailed: (s, op, event) => vaLog(s, 'externalAttacher.trivialMarkFailed', op.name, { err: event.type === 'va.markAttachedFailed' ? event.message : '' }),
  finishedProcessing: (s, op) => finished(s, op.name, op.mode === 'detach' ? 'detach' : 'attach'),
  forget: (s, op) => done(s, 'va', op.name, 'forget'),
  requeueRateLimited: (s, op) => done(s, 'va', op.name, 'rateLimited'),
  failedToMarkAttached: (s, op, event) => failed(s, op.name, `failed to mark as attached: ${event.type === 'va.markAttachedFailed' ? event.message : ''}`),
  saveAttachError: (s, op, event) => saveError(s, op, 'attach', errorOf(event)),
  saveDetachError: (s, op, event) => saveError(s, op, 'detach', errorOf(event)),
  logSavedError: (s, op) => vaLog(s, op.mode === 'attach' ? 'externalAttacher.savedAttachError' : 'externalAttacher.savedDetachError', op.name),
  logFailedToSaveError: (s, op, event) => vaLog(s, op.mode === 'attach' ? 'externalAttacher.failedToSaveAttachError' : 'externalAttacher.failedToSaveDetachError', op.name,
    { err: event.type === 'va.errorSaveFailed' ? event.message : '' }),
  failedToAttach: (s, op) => failed(s, op.name, `failed to attach: ${op.err}`),
  failedToDetach: (s, op) => failed(s, op.name, `failed to detach: ${op.err}`),
  /** syncDetach -> csiDetach: the PV and the node ID */
  checkDetach: (s, op) => {
    const pvName: string | undefined = op.va.spec?.source?.persistentVolumeName;
    const pv = pvName ? s.ctx.pvs[pvName] : undefined;
    if (!pvName || !pv) return { type: 'detach.failed', err: pvName ? listerNotFound('persistentvolume', pvName) : 'neither InlineCSIVolumeSource nor PersistentVolumeName specified in VA source' };
    if (!pv.spec?.csi) return { type: 'detach.failed', err: 'pv spec contained non-csi source that was not migrated' };
    const node = getNodeID(s, op, true);
    if ('error' in node) return { type: 'detach.failed', err: node.error };
    op.nodeID = node.id;
    op.volumeHandle = pv.spec.csi.volumeHandle;
    return { type: 'detach.ready' };
  },
  controllerUnpublishVolume: (s, op) => grpcCall(s, { kind: 'va', va: op.name, stage: 'detach' }, 'ControllerUnpublishVolume', { volume_id: op.volumeHandle, node_id: op.nodeID },
    { queue: 'va', name: op.name, request: 'unpublish' }, summarize(summaries, 'externalAttacher.controllerUnpublishVolume', { volumeHandle: op.volumeHandle!, nodeID: op.nodeID! })),
  logDetached: (s, op) => vaLog(s, 'externalAttacher.detached', op.name),
  checkAfterUnpublish: (s, op) => {
    const found = hasFinalizer(op.va, finalizer(s));
    if (!found && !op.va.status?.attached) return { type: 'va.alreadyFullyDetached' };
    return profile(s).attacherRemovesFinalizerFirst && found ? { type: 'va.finalizerRemovalNeeded' } : { type: 'va.statusClearNeeded' };
  },
  logAlreadyFullyDetached: (s, op) => vaLog(s, 'externalAttacher.alreadyFullyDetached', op.name),
  markAsDetached: (s, op) => {
    vaLog(s, 'externalAttacher.markingAsDetached', op.name);
    apiRequest(s, {
      verb: 'patchStatus', kind: 'VolumeAttachment', name: op.name,
      patch: { status: { attached: false, detachError: null, attachmentMetadata: null } },
      summary: summarize(summaries, 'externalAttacher.markDetached', { va: op.name }),
    }, { queue: 'va', name: op.name, request: 'markDetached' });
  },
  checkAfterMarkedDetached: (s, op) =>
    (profile(s).attacherRemovesFinalizerFirst || !hasFinalizer(op.va, finalizer(s)) ? { type: 'va.fullyDetached' } : { type: 'va.finalizerRemovalNeeded' }),
  removeVAFinalizer: (s, op) => apiRequest(s, {
    verb: 'patch', kind: 'VolumeAttachment', name: op.name, patch: { metadata: { finalizers: finalizersWithout(op.va, finalizer(s)) } },
    summary: summarize(summaries, 'externalAttacher.removeVAFinalizer', { va: op.name }),
  }, { queue: 'va', name: op.name, request: 'removeFinalizer' }),
  logFinalizerRemoved: (s, op) => vaLog(s, 'externalAttacher.finalizerRemoved', op.name),
  logFullyDetached: (s, op) => vaLog(s, 'externalAttacher.fullyDetached', op.name),
};

// ------------------------------------------------------------ attach and detach

function syncAttach(s: Step, va: K8sObject): void {
  const name = va.metadata.name;
  if (va.status?.attached) { vaLog(s, 'externalAttacher.alreadyAttached', name); finished(s, name, 'other'); return; }
  vaLog(s, 'externalAttacher.attaching', name);
  const op: VaOperation = { name, mode: 'attach', va };
  s.ctx.ops[name] = op;
  advance(s, op, { type: 'csiHandler.syncAttach' });
}

function syncDetach(s: Step, va: K8sObject): void {
  const name = va.metadata.name;
  vaLog(s, 'externalAttacher.startingDetach', name);
  if (!hasFinalizer(va, finalizer(s))) { vaLog(s, 'externalAttacher.alreadyDetached', name); finished(s, name, 'detach'); return; }
  vaLog(s, 'externalAttacher.detaching', name);
  const op: VaOperation = { name, mode: 'detach', va };
  s.ctx.ops[name] = op;
  advance(s, op, { type: 'csiHandler.syncDetach' });
}

function trivialSync(s: Step, va: K8sObject): void {
  const name = va.metadata.name;
  vaLog(s, 'externalAttacher.trivialSyncStarted', name);
  if (va.status?.attached) { done(s, 'va', name, 'forget'); return; }
  const op: VaOperation = { name, mode: 'trivial', va };
  s.ctx.ops[name] = op;
  advance(s, op, { type: 'trivialHandler.sync' });
}

/** getNodeID: CSINode first, the VA's node-id annotation as the last resort (detach only). */
function getNodeID(s: Step, op: VaOperation, useAnnotation: boolean): { id: string } | { error: string } {
  const node: string = op.va.spec?.nodeName ?? '';
  const csiNode = s.ctx.csiNodes[node];
  let err: string;
  if (csiNode) {
    const id = nodeIdFromCSINode(csiNode, s.ctx.driverName);
    if (id) { vaLog(s, 'externalAttacher.foundNodeID', op.name, { nodeID: id, node }, useAnnotation ? 'detach' : 'attach'); return { id }; }
    err = `CSINode ${node} does not contain driver ${s.ctx.driverName}`;
    if (profile(s).attacherStopsAtCSINodeWithoutDriver) { vaLog(s, 'externalAttacher.csiNodeLacksDriver', op.name, { node }); return { error: err }; }
  } else {
    err = listerNotFound('csinode.storage.k8s.io', node);
  }
  vaLog(s, 'externalAttacher.cantGetCSINode', op.name, { node, err });
  const annotated = op.va.metadata.annotations?.[VA_NODE_ID_ANNOTATION];
  return useAnnotation && annotated ? { id: annotated } : { error: err };
}

/** saveAttachError / saveDetachError: status.attachError|detachError = {message, time}. */
function saveError(s: Step, op: VaOperation, what: 'attach' | 'detach', err: string): void {
  op.err = err;
  const attach = what === 'attach';
  vaLog(s, attach ? 'externalAttacher.savingAttachError' : 'externalAttacher.savingDetachError', op.name);
  apiRequest(s, {
    verb: 'patchStatus', kind: 'VolumeAttachment', name: op.name,
    patch: { status: { [attach ? 'attachError' : 'detachError']: { message: err, time: errTime(s) } } },
    summary: summarize(summaries, 'externalAttacher.saveError', { what: attach ? 'attach' : 'detach', va: op.name, err }),
  }, { queue: 'va', name: op.name, request: 'saveError' });
}

// ------------------------------------------------------------ results: the adapter from transport to facts

export function onCsiResult(s: Step, e: CsiResultEvent): void {
  const p = s.ctx.pending[e.requestId];
  if (!p || p.queue !== 'va') return;
  delete s.ctx.pending[e.requestId];
  const op = s.ctx.ops[p.name];
  if (!op) return;
  // csi-lib-utils' LogGRPC interceptor prints the response before the handler sees it
  const err = grpcResult(s, { kind: 'va', va: op.name, stage: op.mode === 'detach' ? 'detach' : 'attach' }, e);
  const rpc = p.request === 'publish' ? 'controllerPublishVolume' : 'controllerUnpublishVolume';
  advance(s, op, err !== null
    ? { type: `csi.${rpc}.failed`, err }
    : rpc === 'controllerPublishVolume' ? { type: 'csi.controllerPublishVolume.succeeded', ...(e.response ? { response: e.response } : {}) } : { type: 'csi.controllerUnpublishVolume.succeeded' });
}

/** The fact an answered API write is, by what the write was. */
function apiFact(request: string, e: ApiResultEvent): VaLifecycleEvent {
  const message = e.message ?? `status ${e.code}`;
  switch (request) {
    case 'pvFinalizer': return e.ok ? { type: 'pv.finalizerAdded' } : { type: 'pv.finalizerAddFailed', message };
    case 'vaMetadata': return e.ok ? { type: 'va.metadataSaved' } : { type: 'va.metadataSaveFailed', message };
    case 'markAttached': return e.ok ? { type: 'va.markedAttached' } : { type: 'va.markAttachedFailed', message };
    case 'saveError': return e.ok ? { type: 'va.errorSaved' } : { type: 'va.errorSaveFailed', message };
    case 'markDetached': return e.ok ? { type: 'va.markedDetached' } : { type: 'va.markDetachedFailed', code: e.code, message };
    default: return e.ok ? { type: 'va.finalizerRemoved' } : { type: 'va.finalizerRemoveFailed', message };
  }
}

export function onApiResult(s: Step, e: ApiResultEvent): void {
  const p = s.ctx.pending[e.requestId];
  if (!p || p.queue === 'startup') return;
  delete s.ctx.pending[e.requestId];
  if (p.queue === 'pv') {
    if (e.ok) { log(s, 'externalAttacher.pvFinalizerRemoved', { pv: p.name }); done(s, 'pv', p.name, 'forget'); }
    else { log(s, 'externalAttacher.pvFinalizerRemoveFailed', { pv: p.name, err: e.message ?? '' }); done(s, 'pv', p.name, 'rateLimited'); }
    return;
  }
  const op = s.ctx.ops[p.name];
  if (!op) return;
  if (e.ok && e.object) {
    if (p.request === 'pvFinalizer') op.pv = e.object;
    else {
      op.va = e.object;
      // the informer sees the write about now; an object the write deleted stays out of the cache
      const gone = !!e.object.metadata.deletionTimestamp && !e.object.metadata.finalizers?.length;
      if (!gone && s.ctx.vas[op.name]) s.ctx.vas[op.name] = newer(s.ctx.vas[op.name], e.object);
    }
  }
  advance(s, op, apiFact(p.request, e));
}

// ------------------------------------------------------------ PersistentVolume queue

/** controller.go syncPV + csiHandler.SyncNewOrUpdatedPersistentVolume */
function syncPV(s: Step, name: string): void {
  const pv = s.ctx.pvs[name];
  // every update of a PV comes through this queue (bound, resized, annotated…): its first lines are
  // part of a delete only for a PV being deleted (or gone)
  const stage: Stage = !pv || pv.metadata.deletionTimestamp ? 'delete' : 'other';
  log(s, 'externalAttacher.startedPVProcessing', { pv: name }, stage);
  if (!pv) { log(s, 'externalAttacher.pvDeleted', { pv: name }); done(s, 'pv', name, 'none'); return; }
  if (s.ctx.handler === 'trivial') { done(s, 'pv', name, 'none'); return; }
  log(s, 'externalAttacher.processingPV', { pv: name }, stage);
  if (!pv.metadata.deletionTimestamp) { log(s, 'externalAttacher.pvNoDeletionTimestamp', { pv: name }); done(s, 'pv', name, 'forget'); return; }
  if (!hasFinalizer(pv, finalizer(s))) { log(s, 'externalAttacher.pvNoFinalizer', { pv: name }); done(s, 'pv', name, 'forget'); return; }
  const user = Object.values(s.ctx.vas).find((va) => va.spec?.source?.persistentVolumeName === name);
  if (user) { log(s, 'externalAttacher.pvVAFound', { pv: name, va: user.metadata.name }); done(s, 'pv', name, 'forget'); return; }
  log(s, 'externalAttacher.pvNoVAFound', { pv: name });
  apiRequest(s, {
    verb: 'patch', kind: 'PersistentVolume', name, patch: { metadata: { finalizers: finalizersWithout(pv, finalizer(s)) } },
    summary: summarize(summaries, 'externalAttacher.removePVFinalizer', { pv: name }),
  }, { queue: 'pv', name, step: 'pvRemoveFinalizer' });
}
