/**
 * The attach and detach operations the controller's operation executor runs, as steps driven by
 * API results, VolumeAttachment watch events and timers.
 * upstream: pkg/volume/util/operationexecutor/operation_generator.go (GenerateAttachVolumeFunc,
 * GenerateDetachVolumeFunc, verifyVolumeIsSafeToDetach), pkg/volume/csi/csi_attacher.go (Attach:
 * create the VolumeAttachment unless it exists, wait for status.attached / attachError within
 * csiTimeout 2m; Detach: delete it and wait until it is gone), nestedpendingoperations.go.
 */
import { getProfile } from '../profiles/index.ts';
import type { ClusterEmitted } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { complete, keyString, noRetriesUntilText, operationKeyText, type PendingOperations } from '../shared/nestedPendingOperations.ts';
import { goDuration } from '../shared/goFormat.ts';
import { CSI_TIMEOUT, VA_WAIT_BACKOFF_FACTOR, VA_WAIT_BACKOFF_INITIAL, VA_WAIT_BACKOFF_MAX } from '../shared/timing.ts';
import * as asw from './cache/actualStateOfWorld.ts';
import { indexAdd, indexDelete, type AdcContext, type Out, type RunningOperation } from './types.ts';

export const opTimer = (op: RunningOperation): string => `op:${keyString(op.key)}`;
const pollTimer = (op: RunningOperation): string => `poll:${keyString(op.key)}`;

export function nextRequestId(ctx: AdcContext): [AdcContext, string] {
  return [{ ...ctx, seq: ctx.seq + 1 }, `adc-${ctx.seq + 1}`];
}

const logArgs = (op: RunningOperation) => ({ specName: op.specName, volumeName: op.volumeName, node: op.node });

/** Begin an operation that nestedpendingoperations has started. */
export function beginOperation(ctx: AdcContext, op: RunningOperation): Out {
  const out: ClusterEmitted[] = [{ type: 'timer.requested', key: opTimer(op), at: op.startedAt + CSI_TIMEOUT }];
  if (op.kind === 'volume_attach') {
    if (ctx.vas[op.vaName]) {
      // the VolumeAttachment exists already (a restarted controller, an earlier attempt): the wait checks it
      // once before it waits, so an attached one finishes the attach at once (csi_attacher.go
      // waitForVolumeAttachmentInternal / waitForVolumeAttachmentWithLister)
      const waiting: RunningOperation = { ...op, phase: 'waitForAttach' };
      const c = setOp(ctx, waiting);
      const now = checkVa(c, waiting, op.startedAt);
      if (now.out.length > 0) return { ctx: now.ctx, out: [...out, ...now.out] };
      return { ctx: c, out: [...out, ...checkAttach(c, waiting).out] };
    }
    const [c, requestId] = nextRequestId(ctx);
    out.push({
      type: 'api.request', requestId, verb: 'create', kind: 'VolumeAttachment', name: op.vaName,
      object: { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: op.vaName }, spec: { attacher: op.driver, nodeName: op.node, source: { persistentVolumeName: op.pvName } } },
      summary: `The attach/detach controller creates VolumeAttachment ${op.vaName} asking the external-attacher to attach ${op.specName} to ${op.node}.`,
    });
    return { ctx: setOp(c, { ...op, phase: 'createVolumeAttachment', requestId }), out };
  }
  if (op.verifySafeToDetach) {
    const [c, requestId] = nextRequestId(ctx);
    out.push({ type: 'api.request', requestId, verb: 'get', kind: 'Node', name: op.node });
    return { ctx: setOp(c, { ...op, phase: 'getNode', requestId }), out };
  }
  return deleteVa(ctx, op, out);
}

function deleteVa(ctx: AdcContext, op: RunningOperation, out: ClusterEmitted[]): Out {
  const [c, requestId] = nextRequestId(ctx);
  out.push({ type: 'api.request', requestId, verb: 'delete', kind: 'VolumeAttachment', name: op.vaName, summary: `The attach/detach controller deletes VolumeAttachment ${op.vaName}, asking the external-attacher to detach ${op.specName} from ${op.node}.` });
  return { ctx: setOp(c, { ...op, phase: 'deleteVolumeAttachment', requestId }), out };
}

/** The nestedpendingoperations table of one volume (keys of different volumes never conflict). */
export const opsFor = (ctx: AdcContext, volumeName: string): PendingOperations => ctx.ops[volumeName] ?? {};

/** Store a volume's table. For scale the per-volume map is updated in place (the actor owns its context). */
export function setOps(ctx: AdcContext, volumeName: string, ops: PendingOperations): AdcContext {
  let empty = true;
  for (const _ in ops) { empty = false; break; }
  if (empty) delete ctx.ops[volumeName];
  else ctx.ops[volumeName] = ops;
  return ctx;
}

/** Record a running operation's step. For scale `running` and its indexes are updated in place. */
function setOp(ctx: AdcContext, op: RunningOperation): AdcContext {
  const k = keyString(op.key);
  const prev = ctx.running[k];
  const ix = ctx.index;
  if (prev?.requestId !== undefined && prev.requestId !== op.requestId) ix.runningByRequest.delete(prev.requestId);
  if (prev && prev.vaName !== op.vaName) indexDelete(ix.runningByVa, prev.vaName, k);
  ctx.running[k] = op;
  if (op.requestId !== undefined) ix.runningByRequest.set(op.requestId, k);
  indexAdd(ix.runningByVa, op.vaName, k);
  return ctx;
}

function deleteOp(ctx: AdcContext, op: RunningOperation): void {
  const k = keyString(op.key);
  const cur = ctx.running[k];
  if (!cur) return;
  delete ctx.running[k];
  if (cur.requestId !== undefined) ctx.index.runningByRequest.delete(cur.requestId);
  indexDelete(ctx.index.runningByVa, cur.vaName, k);
}

/** The running operation waiting for this request, if any. */
export function operationForRequest(ctx: AdcContext, requestId: string): RunningOperation | undefined {
  const k = ctx.index.runningByRequest.get(requestId);
  const op = k === undefined ? undefined : ctx.running[k];
  return op?.requestId === requestId ? op : undefined;
}

/** The running operations on a VolumeAttachment, in the order they started. */
export function operationsForVa(ctx: AdcContext, vaName: string): RunningOperation[] {
  return [...(ctx.index.runningByVa.get(vaName) ?? [])].map((k) => ctx.running[k]!).filter((op) => !!op);
}

/** An api.result for an operation's request. */
export function onApiResult(ctx: AdcContext, op: RunningOperation, ok: boolean, code: number, object: K8sObject | undefined, message: string | undefined, now: number): Out {
  if (op.phase === 'createVolumeAttachment') {
    // AlreadyExists is fine: "already exists (will not be recreated)"
    if (!ok && code !== 409) return finish(ctx, op, `attacher.Attach failed: ${message ?? ''}`, now);
    return { ctx: setOp(ctx, { ...op, phase: 'waitForAttach' }), out: checkAttach(ctx, op).out };
  }
  if (op.phase === 'getNode') {
    if (!ok && code === 404) return deleteVa(ctx, op, [{ type: 'log', msg: 'attachDetachController.nodeNotFoundSkipVerify', args: logArgs(op) }]);
    if (!ok) return finish(ctx, op, `DetachVolume failed fetching node from API server for volume "${op.specName}" (UniqueName: "${op.volumeName}") on node "${op.node}" : ${message ?? ''}`, now);
    if (((object?.status?.volumesInUse ?? []) as string[]).includes(op.volumeName)) {
      return finish(ctx, op, `DetachVolume failed for volume "${op.specName}" (UniqueName: "${op.volumeName}") on node "${op.node}" : volume is still in use by node, according to Node status`, now);
    }
    return deleteVa(ctx, op, [{ type: 'log', msg: 'attachDetachController.verifiedSafeToDetach', args: logArgs(op) }]);
  }
  if (op.phase === 'deleteVolumeAttachment') {
    if (!ok && code === 404) return finish(ctx, op, undefined, now);
    if (!ok) return finish(ctx, op, message ?? 'delete failed', now);
    const c = setOp(ctx, { ...op, phase: 'waitForDetach' });
    return ctx.vas[op.vaName] ? { ctx: c, out: [] } : finish(c, op, undefined, now);
  }
  return { ctx, out: [] };
}

/** verifyAttachmentStatus / the detach wait: look at the VolumeAttachment as the informer has it. */
export function checkVa(ctx: AdcContext, op: RunningOperation, now: number): Out {
  const va = ctx.vas[op.vaName];
  if (op.phase === 'waitForAttach') {
    if (!va) return { ctx, out: [] };
    if (va.metadata.deletionTimestamp) return finish(ctx, op, 'volume attachment is being deleted', now);
    if (va.status?.attached) return finish(ctx, op, undefined, now);
    if (va.status?.attachError) return finish(ctx, op, String(va.status.attachError.message ?? ''), now);
    return { ctx, out: [] };
  }
  if (op.phase === 'waitForDetach') {
    if (!va) return finish(ctx, op, undefined, now);
    if (va.status?.detachError) return finish(ctx, op, String(va.status.detachError.message ?? ''), now);
  }
  return { ctx, out: [] };
}

function checkAttach(ctx: AdcContext, op: RunningOperation): Out { return { ctx, out: pollOrWatch(ctx, op) }; }

/**
 * 1.20 waits on a watch of the VolumeAttachment; 1.30 polls the lister with backoff (500ms x1.05, max
 * 7s): a change is seen at the next poll instant. Returns the poll timer to set (1.30) or nothing.
 */
export function pollOrWatch(ctx: AdcContext, op: RunningOperation, now = op.startedAt): ClusterEmitted[] {
  if (ctx.input.profile === '1.20') return [];
  let t = op.startedAt;
  let step = VA_WAIT_BACKOFF_INITIAL;
  while (t <= now) { t += step; step = Math.min(step * VA_WAIT_BACKOFF_FACTOR, VA_WAIT_BACKOFF_MAX); }
  return [{ type: 'timer.requested', key: pollTimer(op), at: Math.round(t) }];
}

/** The operation's deadline passed (csiTimeout). */
export function onTimeout(ctx: AdcContext, op: RunningOperation, now: number): Out {
  const legacy = ctx.input.profile === '1.20';
  const what = op.kind === 'volume_attach' ? 'attach' : 'detach';
  const err = legacy ? `${what}ment timeout for volume ${op.handle}` : `timed out waiting for external-attacher of ${op.driver} CSI driver to ${what} volume ${op.handle}`;
  return finish(ctx, op, err, now);
}

/** Operation end: ASW update, events, logs, backoff. `err` undefined means success. */
export function finish(ctx: AdcContext, op: RunningOperation, err: string | undefined, now: number): Out {
  deleteOp(ctx, op);
  const done = complete(opsFor(ctx, op.key.volumeName), op.key, err !== undefined, now);
  let a = ctx.asw;
  const out: ClusterEmitted[] = [{ type: 'timer.cancelled', key: opTimer(op) }];
  if (ctx.input.profile !== '1.20') out.push({ type: 'timer.cancelled', key: pollTimer(op) });
  const spec = { volumeName: op.volumeName, specName: op.specName, multiAttachAllowed: op.key.nodeName !== '' };
  let detailed: string | undefined;
  if (op.kind === 'volume_attach') {
    if (err === undefined) {
      a = asw.addVolumeNode(a, spec, op.node, true);
      for (const p of op.pods) out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace: p.namespace, name: p.name }, eventType: 'Normal', reason: 'SuccessfulAttachVolume', message: `AttachVolume.Attach succeeded for volume "${op.specName}" ` });
      out.push({ type: 'log', msg: 'attachDetachController.attachSucceeded', args: logArgs(op) });
    } else {
      // MarkVolumeAsUncertain: the attach may still complete in the backend
      a = asw.addVolumeNode(a, spec, op.node, false);
      for (const p of op.pods) out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace: p.namespace, name: p.name }, eventType: 'Warning', reason: 'FailedAttachVolume', message: `AttachVolume.Attach failed for volume "${op.specName}" : ${err}` });
      detailed = `AttachVolume.Attach failed for volume "${op.specName}" (UniqueName: "${op.volumeName}") from node "${op.node}" : ${err}`;
    }
  } else if (err === undefined) {
    out.push({ type: 'log', msg: 'attachDetachController.detachSucceeded', args: logArgs(op) });
    a = asw.deleteVolumeNode(a, op.volumeName, op.node);
  } else if (getProfile(ctx.input.profile).adcUncertainOnDetachFailure) {
    // "On failure, mark the volume as uncertain. Attach() must succeed before adding the volume back
    // to node status as attached." (operation_generator.go GenerateDetachVolumeFunc, newer releases)
    a = asw.addVolumeNode(a, spec, op.node, false);
    detailed = `DetachVolume.Detach failed for volume "${op.specName}" (UniqueName: "${op.volumeName}") on node "${op.node}" : ${err}`;
  } else {
    // On failure, add volume back to ReportAsAttached list (operation_generator.go, 1.20)
    a = asw.addVolumeToReportAsAttached(a, op.volumeName, op.node);
    detailed = `DetachVolume.Detach failed for volume "${op.specName}" (UniqueName: "${op.volumeName}") on node "${op.node}" : ${err}`;
  }
  if (detailed !== undefined && done.retryAt !== undefined) {
    out.push({
      type: 'log', msg: 'attachDetachController.operationFailed',
      args: {
        operation: op.kind, key: operationKeyText(op.key), error: detailed, durationBeforeRetry: goDuration(done.durationBeforeRetry! * 1000),
        until: noRetriesUntilText(ctx.input.epochUs, done.retryAt, ctx.input.tz, { processStartUs: ctx.startedAt, uptimeAtStartUs: ctx.input.uptimeAtStartUs }),
      },
    });
  }
  return { ctx: { ...setOps(ctx, op.key.volumeName, done.ops), asw: a }, out };
}
