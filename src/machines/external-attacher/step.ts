/**
 * A reaction of the external-attacher: a mutable draft of the context plus the events it emits.
 * Handlers below work on a Step; the machine copies the draft back with assign and emits `out`.
 */
import type { ApiRequestEmitted, ClusterEmitted, CsiResultEvent } from '../shared/contract.ts';
import { csiMethod, rpcErrorText, type CsiRpc } from '../shared/csi.ts';
import { goQuote } from '../shared/goFormat.ts';
import type { LogArgs, Stage } from '../shared/messages.ts';
import { ATTACHER_TIMEOUT } from '../shared/timing.ts';
import { protoJson } from './helpers.ts';
import { copyTable } from '../shared/tables.ts';
import type { ExternalAttacherMessageId } from './externalAttacher.messages.ts';
import type { ExternalAttacherContext, PendingStep } from './externalAttacher.types.ts';

export interface Step {
  ctx: ExternalAttacherContext; out: ClusterEmitted[]; now: number;
  /** states of the VolumeAttachments this event moved (emitted as states.changed) */
  states?: Record<string, string>;
  /** each of those moves in order */
  moves?: Array<[string, string]>;
}


export function beginStep(context: ExternalAttacherContext, now: number, running: boolean): Step {
  // For scale the large caches (VolumeAttachments, PVs, their lifecycles, the queues) are updated in
  // place: the actor owns its context, and copying them on every event would make a 10 000-volume
  // rollout quadratic. The small per-request maps are copied, so that pure transitions from one
  // snapshot (xstate/graph) stay independent.
  // During start-up the per-request tables are copied, so that snapshots stay independent for pure
  // transitions (xstate/graph explores start-up); once running they are updated in place too.
  const ctx: ExternalAttacherContext = running
    ? { ...context }
    : { ...context, pending: copyTable(context.pending), ops: copyTable(context.ops), csiNodes: copyTable(context.csiNodes) };
  return { ctx, out: [], now };
}

export const log = (s: Step, msg: ExternalAttacherMessageId, args: LogArgs = {}, stage?: Stage): void => {
  s.out.push({ type: 'log', msg, args: { driver: s.ctx.driverName, ...args }, ...(stage ? { stage } : {}) });
};
/** A line about one VolumeAttachment; `stage` when the line itself does not say whether it is an attach or a detach. */
export const vaLog = (s: Step, msg: ExternalAttacherMessageId, va: string, args: LogArgs = {}, stage?: Stage): void => log(s, msg, { va, ...args }, stage);

export const nextId = (s: Step): string => `r${++s.ctx.seq}`;

export function apiRequest(s: Step, req: Omit<ApiRequestEmitted, 'type' | 'requestId'>, pending: PendingStep): void {
  const requestId = nextId(s);
  s.ctx.pending[requestId] = pending;
  // a VolumeAttachment's writes are its operation's (the PV finalizer it adds first is the attach's); the PV finalizer it
  // removes once the PV is being deleted and no VolumeAttachment uses it is the deletion's
  const stage: Stage | undefined = pending.queue === 'va' ? (s.ctx.ops[pending.name]?.mode === 'detach' ? 'detach' : 'attach') : pending.queue === 'pv' ? 'delete' : undefined;
  s.out.push({ type: 'api.request', requestId, ...req, ...(stage ? { stage } : {}) });
}

/** Which logger values the caller's context carries (1.30 contextual logging). */
export type GrpcLogContext = { kind: 'none' } | { kind: 'driver' } | { kind: 'va'; va: string; stage: 'attach' | 'detach' };
const SUFFIX = { none: '', driver: 'Driver', va: 'VA' } as const;

/** A CSI call through csi-lib-utils' LogGRPC interceptor: "GRPC call" (+ "GRPC request" in printf days). */
export function grpcCall(s: Step, lc: GrpcLogContext, rpc: CsiRpc, request: Record<string, unknown>, pending: PendingStep, summary?: string): void {
  const args: LogArgs = { method: csiMethod(rpc), request: protoJson(request), ...(lc.kind === 'va' ? { va: lc.va } : {}) };
  const stage = lc.kind === 'va' ? lc.stage : undefined;
  log(s, `externalAttacher.grpcCall${SUFFIX[lc.kind]}`, args, stage);
  log(s, 'externalAttacher.grpcRequest', args, stage);
  const requestId = nextId(s);
  s.ctx.pending[requestId] = pending;
  s.out.push({ type: 'csi.call', requestId, rpc, request, endpoint: 'controller', timeout: ATTACHER_TIMEOUT, ...(summary ? { summary } : {}) });
}

/** Go error text of a CSI result, or null when OK. */
export const grpcErrorText = (e: CsiResultEvent): string | null => (e.code === 'OK' ? null : rpcErrorText(e.code, e.message ?? ''));

/** "GRPC response" (+ "GRPC error" in printf days). Returns the error text (null on success). */
export function grpcResult(s: Step, lc: GrpcLogContext, e: CsiResultEvent): string | null {
  const err = grpcErrorText(e);
  const args: LogArgs = {
    method: csiMethod(e.rpc), response: protoJson(e.code === 'OK' ? (e.response ?? {}) : {}), err,
    errValue: err === null ? 'null' : goQuote(err), ...(lc.kind === 'va' ? { va: lc.va } : {}),
  };
  const stage = lc.kind === 'va' ? lc.stage : undefined;
  log(s, `externalAttacher.grpcResponse${SUFFIX[lc.kind]}`, args, stage);
  log(s, 'externalAttacher.grpcError', args, stage);
  return err;
}


