/**
 * VolumeAttachment and PersistentVolume processing of csi-attacher: informer handlers, the two work
 * queues, csiHandler.syncAttach / syncDetach / SyncNewOrUpdatedPersistentVolume and the trivial handler.
 * upstream: external-attacher pkg/controller/controller.go, csi_handler.go, util.go, trivial_handler.go
 * (v3.1.0 for '1.20', v4.6.1 for '1.30'; v4.9+ removes the VA finalizer before clearing the status).
 */
import type { ApiResultEvent, CsiResultEvent, WatchEvent } from '../shared/contract.ts';
import { rfc3339 } from '../shared/goFormat.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { attacherFinalizer, VA_NODE_ID_ANNOTATION } from '../shared/names.ts';
import { getProfile } from '../profiles/index.ts';
import {
  finalizersWithout, hasFinalizer, listerNotFound, newer, nodeIdFromCSINode, queueAdd, queueDone, queueForget,
  queueGet, rateLimitDelay, shouldEnqueueVAChange, volumeCapability,
} from './helpers.ts';
import type { VaOperation } from './externalAttacher.types.ts';
import { apiRequest, grpcCall, grpcResult, lifecycle, log, vaLog, type Step } from './step.ts';

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
      delete s.ctx.lifecycles[name];
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
  if (s.ctx.phase !== 'Running') return;
  const workers = s.ctx.input.workerThreads ?? 10;
  for (;;) {
    if (s.ctx.vaQueue.queue.length && s.ctx.vaQueue.processing.length < workers) syncVA(s, queueGet(s.ctx.vaQueue)!);
    else if (s.ctx.pvQueue.queue.length && s.ctx.pvQueue.processing.length < workers) syncPV(s, queueGet(s.ctx.pvQueue)!);
    else return;
  }
}

type Outcome = 'forget' | 'rateLimited' | 'none';
function done(s: Step, queue: 'va' | 'pv', name: string, outcome: Outcome): void {
  const q = queue === 'va' ? s.ctx.vaQueue : s.ctx.pvQueue;
  if (outcome === 'forget') queueForget(q, name);
  if (outcome === 'rateLimited') s.out.push({ type: 'timer.requested', key: `${queue}/${name}`, at: s.now + rateLimitDelay(q, name) });
  if (queue === 'va') delete s.ctx.ops[name];
  queueDone(q, name);
}

function finished(s: Step, name: string): void {
  vaLog(s, 'externalAttacher.finishedProcessing', name);
  done(s, 'va', name, 'forget');
}
function failed(s: Step, name: string, err: string): void {
  vaLog(s, 'externalAttacher.errorProcessing', name, { err });
  done(s, 'va', name, 'rateLimited');
}

/** controller.go syncVA + csiHandler.SyncNewOrUpdatedVolumeAttachment */
function syncVA(s: Step, name: string): void {
  vaLog(s, 'externalAttacher.startedVAProcessing', name);
  const va = s.ctx.vas[name];
  if (!va) { vaLog(s, 'externalAttacher.vaDeleted', name); done(s, 'va', name, 'none'); return; }
  if (va.spec?.attacher !== s.ctx.driverName) {
    vaLog(s, 'externalAttacher.skippingVA', name, { attacher: va.spec?.attacher ?? '' });
    done(s, 'va', name, 'none');
    return;
  }
  if (s.ctx.handler === 'trivial') { trivialSync(s, va); return; }
  vaLog(s, 'externalAttacher.processingVA', name);
  if (!va.metadata.deletionTimestamp) syncAttach(s, va); else syncDetach(s, va);
}

// ------------------------------------------------------------ attach

function syncAttach(s: Step, va: K8sObject): void {
  const name = va.metadata.name;
  if (va.status?.attached) { vaLog(s, 'externalAttacher.alreadyAttached', name); finished(s, name); return; }
  vaLog(s, 'externalAttacher.attaching', name);
  lifecycle(s, name, 'va.attachStarted');
  vaLog(s, 'externalAttacher.startingAttach', name);
  const op: VaOperation = { name, mode: 'attach', va };
  s.ctx.ops[name] = op;
  const pvName: string | undefined = va.spec?.source?.persistentVolumeName;
  if (!pvName) { saveError(s, op, 'neither InlineCSIVolumeSource nor PersistentVolumeName specified in VA source'); return; }
  op.pvName = pvName;
  const pv = s.ctx.pvs[pvName];
  if (!pv) { saveError(s, op, listerNotFound('persistentvolume', pvName)); return; }
  if (pv.metadata.deletionTimestamp) { saveError(s, op, `PersistentVolume "${pvName}" is marked for deletion`); return; }
  if (hasFinalizer(pv, finalizer(s))) {
    vaLog(s, 'externalAttacher.pvFinalizerAlreadySet', name, { pv: pvName });
    prepareVA(s, op, pv);
    return;
  }
  vaLog(s, 'externalAttacher.addingPVFinalizer', name, { pv: pvName });
  apiRequest(s, {
    verb: 'patch', kind: 'PersistentVolume', name: pvName,
    patch: { metadata: { finalizers: [...(pv.metadata.finalizers ?? []), finalizer(s)] } },
    summary: `csi-attacher adds the finalizer ${finalizer(s)} to PersistentVolume ${pvName}.`,
  }, { queue: 'va', name, step: 'pvFinalizer' });
}

/** getNodeID: CSINode first, the VA's node-id annotation as the last resort (detach only). */
function getNodeID(s: Step, op: VaOperation, useAnnotation: boolean): { id: string } | { error: string } {
  const node: string = op.va.spec?.nodeName ?? '';
  const csiNode = s.ctx.csiNodes[node];
  let err: string;
  if (csiNode) {
    const id = nodeIdFromCSINode(csiNode, s.ctx.driverName);
    if (id) { vaLog(s, 'externalAttacher.foundNodeID', op.name, { nodeID: id, node }); return { id }; }
    err = `CSINode ${node} does not contain driver ${s.ctx.driverName}`;
    if (s.ctx.input.profile === '1.20') { vaLog(s, 'externalAttacher.csiNodeLacksDriver', op.name, { node }); return { error: err }; }
  } else {
    err = listerNotFound('csinode.storage.k8s.io', node);
  }
  vaLog(s, 'externalAttacher.cantGetCSINode', op.name, { node, err });
  const annotated = op.va.metadata.annotations?.[VA_NODE_ID_ANNOTATION];
  return useAnnotation && annotated ? { id: annotated } : { error: err };
}

/** csiAttach after the PV finalizer: capability, node ID, then one patch with VA finalizer + node-id annotation. */
function prepareVA(s: Step, op: VaOperation, pv: K8sObject): void {
  const csi = pv.spec?.csi;
  if (!csi) { saveError(s, op, 'pv spec contained non-csi source that was not migrated'); return; }
  const cap = volumeCapability(pv.spec, s.ctx.input.profile === '1.20' ? 'ext4' : '');
  if ('error' in cap) { saveError(s, op, cap.error); return; }
  const node = getNodeID(s, op, false);
  if ('error' in node) { saveError(s, op, node.error); return; }
  op.nodeID = node.id;
  op.volumeHandle = csi.volumeHandle;
  const va = op.va;
  const patch: { finalizers?: string[]; annotations?: Record<string, string> } = {};
  if (hasFinalizer(va, finalizer(s))) vaLog(s, 'externalAttacher.vaFinalizerAlreadySet', op.name);
  else { patch.finalizers = [...(va.metadata.finalizers ?? []), finalizer(s)]; vaLog(s, 'externalAttacher.vaFinalizerAdded', op.name, { finalizer: finalizer(s) }); }
  if (va.metadata.annotations?.[VA_NODE_ID_ANNOTATION] === node.id) vaLog(s, 'externalAttacher.nodeIDAlreadySet', op.name, { nodeID: node.id });
  else { patch.annotations = { [VA_NODE_ID_ANNOTATION]: node.id }; vaLog(s, 'externalAttacher.nodeIDAdded', op.name, { nodeID: node.id }); }
  const request = {
    volume_id: csi.volumeHandle, node_id: node.id, volume_capability: cap.cap,
    readonly: s.ctx.supportsReadOnly ? !!csi.readOnly : false, volume_context: csi.volumeAttributes,
  };
  op.request = request;
  if (patch.finalizers || patch.annotations) {
    apiRequest(s, {
      verb: 'patch', kind: 'VolumeAttachment', name: op.name, patch: { metadata: patch },
      summary: `csi-attacher adds its finalizer and the node-id annotation (${node.id}) to VolumeAttachment ${op.name}.`,
    }, { queue: 'va', name: op.name, step: 'vaPatch' });
    return;
  }
  publish(s, op);
}

function publish(s: Step, op: VaOperation): void {
  grpcCall(s, { kind: 'va', va: op.name }, 'ControllerPublishVolume', op.request!, { queue: 'va', name: op.name, step: 'publish' },
    `csi-attacher calls ControllerPublishVolume to attach ${op.volumeHandle} to node ${op.nodeID}.`);
}

function markAttached(s: Step, op: VaOperation, metadata: Record<string, string> | undefined, step: 'markAttached' | 'trivialMark'): void {
  vaLog(s, 'externalAttacher.markingAsAttached', op.name);
  apiRequest(s, {
    verb: 'patchStatus', kind: 'VolumeAttachment', name: op.name,
    patch: { status: { attached: true, attachmentMetadata: metadata && Object.keys(metadata).length ? metadata : null, attachError: null } },
    summary: `csi-attacher marks VolumeAttachment ${op.name} attached (status.attached=true).`,
  }, { queue: 'va', name: op.name, step });
}

/** saveAttachError / saveDetachError: status.attachError|detachError = {message, time}. */
function saveError(s: Step, op: VaOperation, err: string): void {
  op.err = err;
  const attach = op.mode === 'attach';
  vaLog(s, attach ? 'externalAttacher.savingAttachError' : 'externalAttacher.savingDetachError', op.name);
  apiRequest(s, {
    verb: 'patchStatus', kind: 'VolumeAttachment', name: op.name,
    patch: { status: { [attach ? 'attachError' : 'detachError']: { message: err, time: errTime(s) } } },
    summary: `csi-attacher saves the ${attach ? 'attach' : 'detach'} error in VolumeAttachment ${op.name}: ${err}`,
  }, { queue: 'va', name: op.name, step: attach ? 'saveAttachError' : 'saveDetachError' });
}

// ------------------------------------------------------------ detach

function syncDetach(s: Step, va: K8sObject): void {
  const name = va.metadata.name;
  vaLog(s, 'externalAttacher.startingDetach', name);
  if (!hasFinalizer(va, finalizer(s))) { vaLog(s, 'externalAttacher.alreadyDetached', name); finished(s, name); return; }
  vaLog(s, 'externalAttacher.detaching', name);
  lifecycle(s, name, 'va.detachStarted');
  const op: VaOperation = { name, mode: 'detach', va };
  s.ctx.ops[name] = op;
  const pvName: string | undefined = va.spec?.source?.persistentVolumeName;
  const pv = pvName ? s.ctx.pvs[pvName] : undefined;
  if (!pvName || !pv) { saveError(s, op, pvName ? listerNotFound('persistentvolume', pvName) : 'neither InlineCSIVolumeSource nor PersistentVolumeName specified in VA source'); return; }
  if (!pv.spec?.csi) { saveError(s, op, 'pv spec contained non-csi source that was not migrated'); return; }
  const node = getNodeID(s, op, true);
  if ('error' in node) { saveError(s, op, node.error); return; }
  op.nodeID = node.id;
  op.volumeHandle = pv.spec.csi.volumeHandle;
  grpcCall(s, { kind: 'va', va: name }, 'ControllerUnpublishVolume', { volume_id: pv.spec.csi.volumeHandle, node_id: node.id },
    { queue: 'va', name, step: 'unpublish' }, `csi-attacher calls ControllerUnpublishVolume to detach ${pv.spec.csi.volumeHandle} from node ${node.id}.`);
}

function markDetachedStatus(s: Step, op: VaOperation): void {
  vaLog(s, 'externalAttacher.markingAsDetached', op.name);
  apiRequest(s, {
    verb: 'patchStatus', kind: 'VolumeAttachment', name: op.name,
    patch: { status: { attached: false, detachError: null, attachmentMetadata: null } },
    summary: `csi-attacher marks VolumeAttachment ${op.name} detached (status.attached=false).`,
  }, { queue: 'va', name: op.name, step: 'markDetached' });
}
function removeVAFinalizer(s: Step, op: VaOperation): void {
  apiRequest(s, {
    verb: 'patch', kind: 'VolumeAttachment', name: op.name, patch: { metadata: { finalizers: finalizersWithout(op.va, finalizer(s)) } },
    summary: `csi-attacher removes its finalizer from VolumeAttachment ${op.name}.`,
  }, { queue: 'va', name: op.name, step: 'removeFinalizer' });
}
function fullyDetached(s: Step, op: VaOperation): void {
  lifecycle(s, op.name, 'va.detached');
  vaLog(s, 'externalAttacher.fullyDetached', op.name);
  finished(s, op.name);
}

// ------------------------------------------------------------ trivial handler

function trivialSync(s: Step, va: K8sObject): void {
  const name = va.metadata.name;
  vaLog(s, 'externalAttacher.trivialSyncStarted', name);
  if (va.status?.attached) { done(s, 'va', name, 'forget'); return; }
  const op: VaOperation = { name, mode: 'trivial', va };
  s.ctx.ops[name] = op;
  markAttached(s, op, undefined, 'trivialMark');
}

// ------------------------------------------------------------ results

export function onCsiResult(s: Step, e: CsiResultEvent): void {
  const p = s.ctx.pending[e.requestId];
  if (!p || p.queue !== 'va') return;
  delete s.ctx.pending[e.requestId];
  const op = s.ctx.ops[p.name];
  if (!op) return;
  const err = grpcResult(s, { kind: 'va', va: op.name }, e);
  if (err !== null) { saveError(s, op, err); return; }
  if (p.step === 'publish') {
    vaLog(s, 'externalAttacher.attached', op.name);
    markAttached(s, op, e.response?.publish_context as Record<string, string> | undefined, 'markAttached');
    return;
  }
  vaLog(s, 'externalAttacher.detached', op.name);
  const found = hasFinalizer(op.va, finalizer(s));
  if (!found && !op.va.status?.attached) { vaLog(s, 'externalAttacher.alreadyFullyDetached', op.name); fullyDetached(s, op); return; }
  if (profile(s).attacherRemovesFinalizerFirst && found) removeVAFinalizer(s, op);
  else markDetachedStatus(s, op);
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
  const msg = e.message ?? `status ${e.code}`;
  if (e.ok && e.object && p.step !== 'pvFinalizer') {
    op.va = e.object;
    // the informer sees the write about now; an object the write deleted stays out of the cache
    const gone = !!e.object.metadata.deletionTimestamp && !e.object.metadata.finalizers?.length;
    if (!gone && s.ctx.vas[op.name]) s.ctx.vas[op.name] = newer(s.ctx.vas[op.name], e.object);
  }
  const finalizerFirst = profile(s).attacherRemovesFinalizerFirst;
  switch (p.step) {
    case 'pvFinalizer':
      if (!e.ok) { saveError(s, op, `could not add PersistentVolume finalizer: ${msg}`); return; }
      vaLog(s, 'externalAttacher.pvFinalizerAdded', op.name, { pv: op.pvName! });
      prepareVA(s, op, e.object!);
      return;
    case 'vaPatch':
      if (!e.ok) { saveError(s, op, `could not save VolumeAttachment: ${msg}`); return; }
      publish(s, op);
      return;
    case 'markAttached':
      if (!e.ok) { lifecycle(s, op.name, 'va.attachFailed'); failed(s, op.name, `failed to mark as attached: ${msg}`); return; }
      vaLog(s, 'externalAttacher.markedAsAttached', op.name);
      lifecycle(s, op.name, 'va.attached');
      vaLog(s, 'externalAttacher.fullyAttached', op.name);
      finished(s, op.name);
      return;
    case 'trivialMark':
      if (!e.ok) { vaLog(s, 'externalAttacher.trivialMarkFailed', op.name, { err: msg }); done(s, 'va', op.name, 'rateLimited'); return; }
      vaLog(s, 'externalAttacher.markedAsAttached', op.name);
      lifecycle(s, op.name, 'va.attachStarted');
      lifecycle(s, op.name, 'va.attached');
      vaLog(s, 'externalAttacher.trivialMarked', op.name);
      done(s, 'va', op.name, 'forget');
      return;
    case 'markDetached':
      // v4.9+: the finalizer is already gone, so the VA may be deleted: NotFound is success.
      if (!e.ok && !(finalizerFirst && e.code === 404)) { saveError(s, op, `could not mark as detached: ${msg}`); return; }
      if (finalizerFirst || !hasFinalizer(op.va, finalizer(s))) fullyDetached(s, op);
      else removeVAFinalizer(s, op);
      return;
    case 'removeFinalizer':
      if (!e.ok) { saveError(s, op, `could not mark as detached: ${msg}`); return; }
      vaLog(s, 'externalAttacher.finalizerRemoved', op.name);
      if (finalizerFirst) markDetachedStatus(s, op); else fullyDetached(s, op);
      return;
    case 'saveAttachError':
    case 'saveDetachError': {
      const attach = p.step === 'saveAttachError';
      if (e.ok) vaLog(s, attach ? 'externalAttacher.savedAttachError' : 'externalAttacher.savedDetachError', op.name);
      else vaLog(s, attach ? 'externalAttacher.failedToSaveAttachError' : 'externalAttacher.failedToSaveDetachError', op.name, { err: msg });
      lifecycle(s, op.name, attach ? 'va.attachFailed' : 'va.detachFailed');
      failed(s, op.name, `failed to ${attach ? 'attach' : 'detach'}: ${op.err}`);
      return;
    }
    default:
      return;
  }
}

// ------------------------------------------------------------ PersistentVolume queue

/** controller.go syncPV + csiHandler.SyncNewOrUpdatedPersistentVolume */
function syncPV(s: Step, name: string): void {
  log(s, 'externalAttacher.startedPVProcessing', { pv: name });
  const pv = s.ctx.pvs[name];
  if (!pv) { log(s, 'externalAttacher.pvDeleted', { pv: name }); done(s, 'pv', name, 'none'); return; }
  if (s.ctx.handler === 'trivial') { done(s, 'pv', name, 'none'); return; }
  log(s, 'externalAttacher.processingPV', { pv: name });
  if (!pv.metadata.deletionTimestamp) { log(s, 'externalAttacher.pvNoDeletionTimestamp', { pv: name }); done(s, 'pv', name, 'forget'); return; }
  if (!hasFinalizer(pv, finalizer(s))) { log(s, 'externalAttacher.pvNoFinalizer', { pv: name }); done(s, 'pv', name, 'forget'); return; }
  const user = Object.values(s.ctx.vas).find((va) => va.spec?.source?.persistentVolumeName === name);
  if (user) { log(s, 'externalAttacher.pvVAFound', { pv: name, va: user.metadata.name }); done(s, 'pv', name, 'forget'); return; }
  log(s, 'externalAttacher.pvNoVAFound', { pv: name });
  apiRequest(s, {
    verb: 'patch', kind: 'PersistentVolume', name, patch: { metadata: { finalizers: finalizersWithout(pv, finalizer(s)) } },
    summary: `csi-attacher removes its finalizer from PersistentVolume ${name}: no VolumeAttachment uses it any more.`,
  }, { queue: 'pv', name, step: 'pvRemoveFinalizer' });
}
