/**
 * The attach and detach operations the controller's operation executor runs: each one's machine
 * (operationGenerator.ts) decides, this file performs the steps it names and turns API results,
 * VolumeAttachment watch events and timers into the facts it takes.
 * upstream: pkg/volume/util/operationexecutor/operation_generator.go (GenerateAttachVolumeFunc,
 * GenerateDetachVolumeFunc, verifyVolumeIsSafeToDetach), pkg/volume/csi/csi_attacher.go (Attach:
 * create the VolumeAttachment unless it exists, wait for status.attached / attachError within
 * csiTimeout 2m; Detach: delete it and wait until it is gone), nestedpendingoperations.go.
 */
import { getProfile } from '../profiles/index.ts';
import type { ClusterEmitted } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { complete, keyString, processTimeText, operationKeyText, type PendingOperations } from '../shared/nestedPendingOperations.ts';
import { goDuration } from '../shared/goFormat.ts';
import { summarize, type Stage } from '../shared/messages.ts';
import { CSI_TIMEOUT, VA_WAIT_BACKOFF_FACTOR, VA_WAIT_BACKOFF_INITIAL, VA_WAIT_BACKOFF_MAX } from '../shared/timing.ts';
import type { AnyStateMachine } from 'xstate';
import { pureInitialTransition, pureTransition } from '../shared/pureTransition.ts';
import * as asw from './cache/actualStateOfWorld.ts';
import { attachVolumeMachine, detachVolumeMachine, type AttachDetachOperationEvent, type OperationAction } from './operationGenerator.ts';
import { indexAdd, indexDelete, type AdcContext, type Out, type RunningOperation } from './types.ts';
import { attachDetachControllerSummaries as summaries } from './attachDetachController.messages.ts';
import { stateOf } from '../shared/machineParts.ts';
import { isEmptyTable } from '../shared/tables.ts';

export const opTimer = (op: RunningOperation): string => `op:${keyString(op.key)}`;
const pollTimer = (op: RunningOperation): string => `poll:${keyString(op.key)}`;

export function nextRequestId(ctx: AdcContext): [AdcContext, string] {
  return [{ ...ctx, seq: ctx.seq + 1 }, `adc-${ctx.seq + 1}`];
}

const logArgs = (op: RunningOperation) => ({ specName: op.specName, volumeName: op.volumeName, node: op.node });

const MACHINES: Record<RunningOperation['kind'], AnyStateMachine> = { volume_attach: attachVolumeMachine, volume_detach: detachVolumeMachine };

/** One operation step in progress: the controller's context, what it emits, and whether the operation ended. */
interface Run { ctx: AdcContext; out: ClusterEmitted[]; finished: boolean; now: number }

/** Begin an operation that nestedpendingoperations has started: its machine's first steps. */
export function beginOperation(ctx: AdcContext, op: RunningOperation): Out {
  const run: Run = { ctx, out: [{ type: 'timer.requested', key: opTimer(op), at: op.startedAt + CSI_TIMEOUT }], finished: false, now: op.startedAt };
  const [snap, actions] = pureInitialTransition(MACHINES[op.kind], { volumeName: op.volumeName, verifySafeToDetach: op.verifySafeToDetach });
  const started: RunningOperation = { ...op, state: snap.value as string };
  run.ctx = setOp(run.ctx, started);
  noteState(run, started);
  perform(run, started, actions, undefined);
  return { ctx: run.ctx, out: run.out, finished: run.finished };
}

/** The operation takes a fact: its machine moves, and the steps it names are performed. */
function advance(run: Run, op: RunningOperation, event: AttachDetachOperationEvent): void {
  const machine = MACHINES[op.kind];
  const [next, actions] = pureTransition(machine, machine.resolveState({ value: op.state, context: { volumeName: op.volumeName, verifySafeToDetach: op.verifySafeToDetach } }), event);
  if (next.value === op.state && actions.length === 0) return; // a fact this step does not wait for
  const moved: RunningOperation = { ...op, state: next.value as string };
  if (!run.finished) run.ctx = setOp(run.ctx, moved);
  noteState(run, moved);
  perform(run, moved, actions, event);
}

/** "volume_attach kubernetes.io/csi/…^vol-1 node node-1": the operation's state, for the step's states. */
function noteState(run: Run, op: RunningOperation): void {
  run.out.push({ type: 'states.changed', states: stateOf(`${op.kind} ${op.volumeName} node ${op.node}`, op.state) });
}

function perform(run: Run, op: RunningOperation, actions: Array<{ type: string }>, event: AttachDetachOperationEvent | undefined): void {
  const answers: AttachDetachOperationEvent[] = [];
  for (const a of actions) {
    const answer = PERFORM[a.type as OperationAction]?.(run, op, event);
    if (answer) answers.push(answer);
  }
  for (const answer of answers) advance(run, run.ctx.running[keyString(op.key)] ?? op, answer);
}

/** The stage an operation's work is, its writes and its lines: an attach's or a detach's (also the word its timeout error uses). */
const operationStage = (op: RunningOperation): Extract<Stage, 'attach' | 'detach'> => (op.kind === 'volume_attach' ? 'attach' : 'detach');

/** What the operation waits for, after it sent `request`. */
function sendRequest(run: Run, op: RunningOperation, request: RunningOperation['request'], e: Omit<Extract<ClusterEmitted, { type: 'api.request' }>, 'type' | 'requestId'>): void {
  const [c, requestId] = nextRequestId(run.ctx);
  // (the operation's writes are its stage's: the VolumeAttachment's create an attach's, its delete a detach's)
  run.out.push({ type: 'api.request', requestId, ...e, stage: operationStage(op) });
  run.ctx = setOp(c, { ...op, requestId, request });
}

/** verifyAttachmentStatus / the detach wait: the fact the VolumeAttachment in the informer's cache is, if it decides the wait. */
function lookAtVolumeAttachment(ctx: AdcContext, op: RunningOperation): AttachDetachOperationEvent | undefined {
  const va = ctx.vas[op.vaName];
  if (op.state === 'waitingForAttach') {
    if (!va) return undefined;
    if (va.metadata.deletionTimestamp) return { type: 'volumeAttachment.beingDeleted' };
    if (va.status?.attached) return { type: 'volumeAttachment.attached' };
    if (va.status?.attachError) return { type: 'volumeAttachment.attachError', message: String(va.status.attachError.message ?? '') };
    return undefined;
  }
  if (op.state === 'waitingForDetach') {
    if (!va) return { type: 'volumeAttachment.deleted' };
    if (va.status?.detachError) return { type: 'volumeAttachment.detachError', message: String(va.status.detachError.message ?? '') };
  }
  return undefined;
}

/**
 * What verifyAttachmentStatus / verifyDetachmentStatus log when the VolumeAttachment they look at has failed
 * (csi_attacher.go klog.Error lines): the line for `fact`, if it is one of those.
 */
function verifyStatusLog(op: RunningOperation, fact: AttachDetachOperationEvent | undefined): ClusterEmitted[] {
  switch (fact?.type) {
    case 'volumeAttachment.beingDeleted': return [{ type: 'log', msg: 'attachDetachController.csiAttachmentBeingDeleted', args: { vaName: op.vaName } }];
    case 'volumeAttachment.attachError': return [{ type: 'log', msg: 'attachDetachController.csiAttachmentFailed', args: { handle: op.handle, err: fact.message } }];
    case 'volumeAttachment.detachError': return [{ type: 'log', msg: 'attachDetachController.csiDetachmentFailed', args: { handle: op.handle, err: fact.message } }];
    default: return [];
  }
}

/** The wait looks at the VolumeAttachment: the fact, with the line the CSI attacher logs about it. */
function verifyVolumeAttachment(run: Run, op: RunningOperation): AttachDetachOperationEvent | undefined {
  const fact = lookAtVolumeAttachment(run.ctx, op);
  run.out.push(...verifyStatusLog(op, fact));
  return fact;
}

/** The error the operation returns, from the fact that failed it. */
function operationError(ctx: AdcContext, op: RunningOperation, event: AttachDetachOperationEvent | undefined): string {
  const forVolume = `for volume "${op.specName}" (UniqueName: "${op.volumeName}") on node "${op.node}"`;
  switch (event?.type) {
    case 'api.createVolumeAttachment.failed': return `attacher.Attach failed: ${event.message ?? ''}`;
    case 'api.getNode.succeeded': return `DetachVolume failed ${forVolume} : volume is still in use by node, according to Node status`;
    case 'api.getNode.failed': return `DetachVolume failed fetching node from API server ${forVolume} : ${event.message ?? ''}`;
    case 'api.deleteVolumeAttachment.failed': return event.message ?? 'delete failed';
    case 'volumeAttachment.attachError': case 'volumeAttachment.detachError': return event.message;
    case 'volumeAttachment.beingDeleted': return 'volume attachment is being deleted';
    case 'operation.timedOut': {
      const what = operationStage(op);
      return getProfile(ctx.input.profile).adcPollsVolumeAttachment
        ? `timed out waiting for external-attacher of ${op.driver} CSI driver to ${what} volume ${op.handle}`
        // v1.20.5 csi_attacher.go:485: one text for both waits
        : `attachdetachment timeout for volume ${op.handle}`;
    }
    default: return '';
  }
}

type Perform = (run: Run, op: RunningOperation, event: AttachDetachOperationEvent | undefined) => AttachDetachOperationEvent | void;

/**
 * 1.30's waitForVolumeAttachDetachStatusWithLister waits for its backoff's first tick (500ms) before it looks
 * at the lister at all: the poll timer is set and nothing is looked at now (true); 1.20 looks at once (false).
 */
function pollsFirst(run: Run, op: RunningOperation): boolean {
  if (!getProfile(run.ctx.input.profile).adcPollsVolumeAttachment) return false;
  run.out.push(...pollOrWatch(run.ctx, op, run.now));
  return true;
}

const PERFORM: Record<OperationAction, Perform> = {
  lookUpVolumeAttachment: (run, op) => (run.ctx.vas[op.vaName] ? { type: 'volumeAttachment.found' } : { type: 'volumeAttachment.notFound' }),
  createVolumeAttachment: (run, op) => sendRequest(run, op, 'create', {
    verb: 'create', kind: 'VolumeAttachment', name: op.vaName,
    object: { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: op.vaName }, spec: { attacher: op.driver, nodeName: op.node, source: { persistentVolumeName: op.pvName } } },
    summary: summarize(summaries, 'attachDetachController.createVolumeAttachment', { vaName: op.vaName, specName: op.specName, node: op.node }),
  }),
  // 1.20 GETs the VolumeAttachment once before it watches (waitForVolumeAttachmentInternal), so an attached
  // or failed one decides at once
  waitForVolumeAttachment: (run, op) => (pollsFirst(run, op) ? undefined : verifyVolumeAttachment(run, op)),
  getNode: (run, op) => sendRequest(run, op, 'getNode', { verb: 'get', kind: 'Node', name: op.node }),
  logVerifiedSafeToDetach: (run, op) => { run.out.push({ type: 'log', msg: 'attachDetachController.verifiedSafeToDetach', args: logArgs(op) }); },
  logNodeNotFound: (run, op) => { run.out.push({ type: 'log', msg: 'attachDetachController.nodeNotFoundSkipVerify', args: logArgs(op) }); },
  deleteVolumeAttachment: (run, op) => sendRequest(run, op, 'delete', {
    verb: 'delete', kind: 'VolumeAttachment', name: op.vaName,
    summary: summarize(summaries, 'attachDetachController.deleteVolumeAttachment', { vaName: op.vaName, specName: op.specName, node: op.node }),
  }),
  // (the same for the detach: 1.20's waitForVolumeDetachmentInternal GETs first and verifies it before it watches,
  // so a VolumeAttachment gone decides at once, and so does one whose status still holds the last detachError:
  // v1.20.5 csi_attacher.go waitForVolumeDetachmentInternal :415-427, waitForVolumeAttachDetachStatus :434-441,
  // verifyDetachmentStatus :637-648; external-attacher clears detachError only when it marks the VolumeAttachment detached)
  waitForVolumeAttachmentDeletion: (run, op) => (pollsFirst(run, op) ? undefined : verifyVolumeAttachment(run, op)),
  operationSucceeded: (run, op) => finishRun(run, op, undefined),
  operationFailed: (run, op, event) => finishRun(run, op, operationError(run.ctx, op, event)),
};

function finishRun(run: Run, op: RunningOperation, err: string | undefined): void {
  const r = finish(run.ctx, op, err, run.now);
  run.ctx = r.ctx;
  run.out.push(...r.out);
  run.finished = true;
}

/** The nestedpendingoperations table of one volume (keys of different volumes never conflict). */
export const opsFor = (ctx: AdcContext, volumeName: string): PendingOperations => ctx.ops[volumeName] ?? NO_OPS;
/** (one shared empty table: a new {} per idle volume per pass cost the reconciler an index built and dropped each time) */
const NO_OPS: PendingOperations = Object.freeze({});

/** Store a volume's table. For scale the per-volume map is updated in place (the actor owns its context). */
export function setOps(ctx: AdcContext, volumeName: string, ops: PendingOperations): AdcContext {
  if (isEmptyTable(ops)) delete ctx.ops[volumeName];
  else ctx.ops[volumeName] = ops;
  ctx.reconcilerQueue.touched.add(volumeName);
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

/** An api.result for an operation's request: the fact it is, by what the request was. */
export function onApiResult(ctx: AdcContext, op: RunningOperation, ok: boolean, code: number, object: K8sObject | undefined, message: string | undefined, now: number): Out {
  let fact: AttachDetachOperationEvent;
  if (op.request === 'create') fact = ok ? { type: 'api.createVolumeAttachment.succeeded' } : { type: 'api.createVolumeAttachment.failed', code, message };
  else if (op.request === 'getNode') fact = ok ? { type: 'api.getNode.succeeded', inUse: ((object?.status?.volumesInUse ?? []) as string[]).includes(op.volumeName) } : { type: 'api.getNode.failed', code, message };
  else fact = ok ? { type: 'api.deleteVolumeAttachment.succeeded' } : { type: 'api.deleteVolumeAttachment.failed', code, message };
  return step(ctx, op, fact, now);
}

function step(ctx: AdcContext, op: RunningOperation, fact: AttachDetachOperationEvent | undefined, now: number): Out {
  if (!fact) return { ctx, out: [] };
  const run: Run = { ctx, out: [], finished: false, now };
  advance(run, op, fact);
  return { ctx: run.ctx, out: run.out, finished: run.finished };
}

/** A poll instant (1.30) or a watch event of the VolumeAttachment (1.20): does it decide the wait? */
export function checkVa(ctx: AdcContext, op: RunningOperation, now: number): Out {
  const fact = lookAtVolumeAttachment(ctx, op);
  const r = step(ctx, op, fact, now);
  return { ...r, out: [...verifyStatusLog(op, fact), ...r.out] };
}

/** Whether the operation is in one of its waits for the VolumeAttachment. */
export const isWaitingForVolumeAttachment = (op: RunningOperation): boolean => op.state === 'waitingForAttach' || op.state === 'waitingForDetach';

/**
 * 1.20 waits on a watch of the VolumeAttachment; 1.30 polls the lister with backoff (500ms x1.05, max
 * 7s): a change is seen at the next poll instant. Returns the poll timer to set (1.30) or nothing.
 */
export function pollOrWatch(ctx: AdcContext, op: RunningOperation, now = op.startedAt): ClusterEmitted[] {
  if (!getProfile(ctx.input.profile).adcPollsVolumeAttachment) return [];
  let t = op.startedAt;
  let step = VA_WAIT_BACKOFF_INITIAL;
  while (t <= now) { t += step; step = Math.min(step * VA_WAIT_BACKOFF_FACTOR, VA_WAIT_BACKOFF_MAX); }
  return [{ type: 'timer.requested', key: pollTimer(op), at: Math.round(t) }];
}

/** The operation's deadline passed (csiTimeout). */
export function onTimeout(ctx: AdcContext, op: RunningOperation, now: number): Out {
  // the wait for the VolumeAttachment says so before it returns its error (a request still under way has no such line)
  const said: ClusterEmitted[] = isWaitingForVolumeAttachment(op) ? [{
    type: 'log', msg: 'attachDetachController.csiWaitTimedOut',
    args: { operation: op.kind === 'volume_attach' ? 'Attach' : 'Detach', timeout: goDuration(CSI_TIMEOUT * 1000), handle: op.handle, vaName: op.vaName },
    ...(op.kind === 'volume_attach' ? {} : { stage: 'detach' as const }),
  }] : [];
  const r = step(ctx, op, { type: 'operation.timedOut' }, now);
  return said.length ? { ...r, out: [...said, ...r.out] } : r;
}

/** Operation end: ASW update, events, logs, backoff. `err` undefined means success. */
export function finish(ctx: AdcContext, op: RunningOperation, err: string | undefined, now: number): Out {
  deleteOp(ctx, op);
  const done = complete(opsFor(ctx, op.key.volumeName), op.key, err !== undefined, now);
  let a = ctx.asw;
  const out: ClusterEmitted[] = [{ type: 'timer.cancelled', key: opTimer(op) }];
  if (getProfile(ctx.input.profile).adcPollsVolumeAttachment) out.push({ type: 'timer.cancelled', key: pollTimer(op) });
  const spec = { volumeName: op.volumeName, specName: op.specName, multiAttachAllowed: op.key.nodeName !== '' };
  let detailed: string | undefined;
  if (op.kind === 'volume_attach') {
    if (err === undefined) {
      a = asw.markVolumeAsAttached(a, spec, op.node);
      for (const p of op.pods) out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace: p.namespace, name: p.name }, eventType: 'Normal', reason: 'SuccessfulAttachVolume', message: `AttachVolume.Attach succeeded for volume "${op.specName}" ` });
      out.push({ type: 'log', msg: 'attachDetachController.attachSucceeded', args: logArgs(op) });
    } else {
      // MarkVolumeAsUncertain: the attach may still complete in the backend
      a = asw.markVolumeAsUncertain(a, spec, op.node);
      for (const p of op.pods) out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace: p.namespace, name: p.name }, eventType: 'Warning', reason: 'FailedAttachVolume', message: `AttachVolume.Attach failed for volume "${op.specName}" : ${err}` });
      detailed = `AttachVolume.Attach failed for volume "${op.specName}" (UniqueName: "${op.volumeName}") from node "${op.node}" : ${err}`;
    }
  } else if (err === undefined) {
    out.push({ type: 'log', msg: 'attachDetachController.detachSucceeded', args: logArgs(op) });
    a = asw.markVolumeAsDetached(a, op.volumeName, op.node);
  } else if (getProfile(ctx.input.profile).adcUncertainOnDetachFailure) {
    // "On failure, mark the volume as uncertain. Attach() must succeed before adding the volume back
    // to node status as attached." (operation_generator.go GenerateDetachVolumeFunc, newer releases)
    a = asw.markVolumeAsUncertain(a, spec, op.node);
    detailed = `DetachVolume.Detach failed for volume "${op.specName}" (UniqueName: "${op.volumeName}") on node "${op.node}" : ${err}`;
  } else {
    // On failure, add volume back to ReportAsAttached list (operation_generator.go, 1.20)
    a = asw.addVolumeToReportAsAttached(a, op.volumeName, op.node);
    detailed = `DetachVolume.Detach failed for volume "${op.specName}" (UniqueName: "${op.volumeName}") on node "${op.node}" : ${err}`;
  }
  if (detailed !== undefined && done.retryAt !== undefined) {
    out.push({
      type: 'log', msg: 'attachDetachController.operationFailed', stage: operationStage(op),
      args: {
        operation: op.kind, key: operationKeyText(op.key), error: detailed, durationBeforeRetry: goDuration(done.durationBeforeRetry! * 1000),
        until: processTimeText(ctx.input.epochUs, done.retryAt, ctx.input.tz, { processStartUs: ctx.startedAt, uptimeAtStartUs: ctx.input.uptimeAtStartUs }),
      },
    });
  }
  out.push({ type: 'states.changed', states: stateOf(`volume ${op.volumeName} node ${op.node}`, `AttachState${asw.getAttachState(a, op.volumeName, op.node)}`) });
  return { ctx: { ...setOps(ctx, op.key.volumeName, done.ops), asw: a }, out, finished: true };
}
