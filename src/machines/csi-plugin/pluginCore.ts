/**
 * The pure core shared by the CSI controller and node plugin machines: accept a csi.request (log it,
 * check capability, the per-volume lock and the lifecycle), finish it when its backend latency has
 * passed (apply the effect, log, reply). Each function returns the new context and what to emit.
 * upstream: CSI spec v1.9.0 error tables (k8s-facts §3.1); ceph-csi util/idlocker.go (ABORTED);
 * cbs-csi driver/cbs/controller.go (disk sizes in 10 GiB steps, volume_context = parameters).
 */
import type { ClusterEmitted, CsiRequestEvent } from '../shared/contract.ts';
import { csiMethod, rpcErrorText, type CsiRpc, type GrpcCode } from '../shared/csi.ts';
import type { LogArgs } from '../shared/messages.ts';
import type { Reacted } from '../shared/reaction.ts';
import { MS } from '../shared/timing.ts';
import type { DriverProfile } from '../drivers/types.ts';
import { cephCreateVolume, cephDeleteVolume, composeCSIID } from './cephJournal.ts';
import { cephReqId, req, sanitizedJson } from './proto.ts';
import { executeRpc } from './rpcs.ts';
import { stateOf } from '../shared/machineParts.ts';
import {
  isCeph, logStyleOf, newLifecycle, nextRng, stepLifecycle, type Lifecycle, type Outcome, type PendingOp, type PluginContext, type PluginSnapshot, type PluginVolume,
} from './pluginState.ts';

export { newLifecycle, nextRng, stepLifecycle, type Lifecycle, type Outcome, type PendingOp, type PluginContext, type PluginSnapshot, type PluginVolume };

export type Emitted = ClusterEmitted;
export interface Step { context: PluginContext; out: Emitted[] }

/** A step's result as a reaction's (shared/reaction.ts): the new context, then the emitted events (both plugin machines' actions). */
export const reacted = (r: Step): Reacted<PluginContext, ClusterEmitted> => ({ ctx: r.context, out: r.out });
export const timerKey = (requestId: string): string => `csi:${requestId}`;

// ------------------------------------------------------------------ logging

const NFS_QUIET_METHODS = new Set(['/csi.v1.Identity/Probe', '/csi.v1.Node/NodeGetCapabilities', '/csi.v1.Node/NodeGetVolumeStats']);

function logMsg(ctx: PluginContext, kind: 'grpcCall' | 'grpcRequest' | 'grpcResponse' | 'grpcError', args: LogArgs, prefix: string): Emitted {
  const side = ctx.side === 'controller' ? 'csiControllerPlugin' : 'csiNodePlugin';
  const style = logStyleOf(ctx.driver);
  if (style === 'ceph-csi') {
    const ceph = `ceph${kind[0]!.toUpperCase()}${kind.slice(1)}`;
    return { type: 'log', msg: `${side}.${ceph}`, args: { ...args, prefix, id: prefix.replace(/^ID: (\d+).*$/, '$1') } };
  }
  if (style === 'csi-driver-nfs') {
    // pkg/nfs/utils.go getLogLevel: the calls made every few seconds log at -v=8, the others at -v=2
    const quiet = kind !== 'grpcError' && NFS_QUIET_METHODS.has(String(args.method));
    return { type: 'log', msg: `${side}.nfs${kind[0]!.toUpperCase()}${kind.slice(1)}${quiet ? 'Quiet' : ''}`, args };
  }
  return { type: 'log', msg: `${side}.${kind}`, args };
}

function lockKeyOf(rpc: CsiRpc, r: Record<string, unknown>): string | undefined {
  if (rpc === 'CreateVolume' || rpc === 'CreateSnapshot') return req.name(r) || undefined;
  if (rpc === 'DeleteSnapshot') return req.snapshotId(r) || undefined;
  const v = req.volumeId(r);
  return v && rpc !== 'NodeGetVolumeStats' && rpc !== 'ValidateVolumeCapabilities' ? v : undefined;
}

function replyError(ctx: PluginContext, requestId: string, code: GrpcCode, message: string, prefix: string, rpc: CsiRpc): Emitted[] {
  return [
    logMsg(ctx, 'grpcError', { error: rpcErrorText(code, message), method: csiMethod(rpc) }, prefix),
    { type: 'csi.reply', requestId, code, message },
  ];
}

// ------------------------------------------------------------------ accept / complete

/** A csi.request arrives: log it, refuse at once what must be refused, or start the backend work. */
export function acceptRequest(ctx0: PluginContext, ev: CsiRequestEvent): Step {
  const grpcSeq = ctx0.grpcSeq + 1;
  let ctx: PluginContext = { ...ctx0, grpcSeq };
  const reqId = cephReqId(ev.rpc, ev.request);
  const prefix = `ID: ${grpcSeq} ${reqId ? `Req-ID: ${reqId} ` : ''}`;
  const out: Emitted[] = [
    logMsg(ctx, 'grpcCall', { method: csiMethod(ev.rpc) }, prefix),
    logMsg(ctx, 'grpcRequest', { request: sanitizedJson(ev.request), method: csiMethod(ev.rpc) }, prefix),
  ];
  const lockKey = lockKeyOf(ev.rpc, ev.request);
  if (lockKey && ctx.locks[lockKey]) {
    // util/idlocker.go: "an operation with the given Volume ID %s already exists"
    out.push(...replyError(ctx, ev.requestId, 'ABORTED', `an operation with the given Volume ID ${lockKey} already exists`, prefix, ev.rpc));
    return { context: ctx, out };
  }
  const op: PendingOp = { requestId: ev.requestId, rpc: ev.rpc, request: ev.request, prefix, ...(lockKey ? { lockKey } : {}), ...(ev.fault ? { fault: ev.fault } : {}) };
  if (!ev.fault) {
    const trial = executeRpc(ctx, ev.rpc, ev.request, ev.now, prefix, false);
    if (!trial.ok) {
      out.push(...replyError(ctx, ev.requestId, trial.code, trial.message, prefix, ev.rpc));
      return { context: ctx, out };
    }
  }
  // the request tables change in place, as the backend's do: the machine owns its context, and a
  // controller plugin serving a thousand attacher workers at once copied a thousand-entry table per request
  ctx.pending[ev.requestId] = op;
  if (lockKey) ctx.locks[lockKey] = ev.requestId;
  out.push({ type: 'timer.requested', key: timerKey(ev.requestId), at: ev.now + (ctx.driver.latency[ev.rpc] ?? 1 * MS) });
  return { context: ctx, out };
}

/** The backend work of a request is done (its timer fired): apply it, log and reply. */
export function completeRequest(ctx0: PluginContext, key: string, now: number): Step {
  const requestId = key.replace(/^csi:/, '');
  const op = ctx0.pending[requestId];
  if (!op) return { context: ctx0, out: [] };
  delete ctx0.pending[requestId];
  if (op.lockKey && ctx0.locks[op.lockKey] === requestId) delete ctx0.locks[op.lockKey];
  let ctx: PluginContext = { ...ctx0 };
  const out: Emitted[] = [];
  if (op.fault && op.fault.code !== 'DEADLINE_EXCEEDED') {
    out.push(...replyError(ctx, requestId, op.fault.code, op.fault.message, op.prefix, op.rpc));
    return { context: ctx, out };
  }
  // the backend's tables change in place (rpcs.ts): read the volume's state before
  const was = lifecycleOf(ctx, op.request.volume_id);
  const result = executeRpc(ctx, op.rpc, op.request, now, op.prefix);
  if (!result.ok) {
    if (op.fault) return { context: ctx, out }; // hung call: nobody hears the answer
    out.push(...replyError(ctx, requestId, result.code, result.message, op.prefix, op.rpc));
    return { context: ctx, out };
  }
  ctx = result.context;
  for (const l of result.logs) out.push({ type: 'log', msg: l.msg, args: l.args, ...(l.stage ? { stage: l.stage } : {}) });
  const moved = lifecycleMoved(ctx, was, op.request, result.response);
  if (moved) out.push(moved);
  if (op.fault) return { context: ctx, out }; // DEADLINE_EXCEEDED: the backend finished, the reply is lost
  out.push(logMsg(ctx, 'grpcResponse', { response: sanitizedJson(result.response), method: csiMethod(op.rpc) }, op.prefix));
  out.push({ type: 'csi.reply', requestId, code: 'OK', response: result.response });
  return { context: ctx, out };
}

/** A volume's lifecycle state; a node plugin forgets a volume back in NODE_READY (rpcs.ts), a controller one once deleted. */
function lifecycleOf(ctx: PluginContext, id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  return ctx.volumes[id]?.lifecycle.value ?? (ctx.side === 'node' ? 'NODE_READY' : 'absent');
}

/** The volume's lifecycle state after an RPC that moved it, for the step's states. */
function lifecycleMoved(after: PluginContext, was: string | undefined, request: Record<string, unknown>, response: Record<string, unknown>): Emitted | undefined {
  const created = (response.volume as { volume_id?: unknown } | undefined)?.volume_id;
  const id = typeof request.volume_id === 'string' ? request.volume_id : typeof created === 'string' ? created : undefined;
  if (id === undefined) return undefined;
  const now = lifecycleOf(after, id)!;
  if (now === (was ?? 'absent')) return undefined;
  const subject = `volume ${id}`;
  // the state it left goes first: a volume that existed before the run is seen moving from it
  return { type: 'states.changed', states: stateOf(subject, now), moves: [...(was ? [[subject, was] as [string, string]] : []), [subject, now]] };
}

/** The host went down: in-flight calls die with the process; backend data stays. */
export function dropInFlight(ctx: PluginContext): PluginContext {
  return { ...ctx, pending: {}, locks: {} };
}

// ------------------------------------------------------------------ initial context

export interface ExistingVolume {
  volumeId: string;
  /** CreateVolume name (pvc-<uid>); defaults to the volume id */
  name?: string;
  capacityBytes?: number;
  volumeContext?: Record<string, string>;
  /** controller: node ids the volume is published (attached) to, e.g. ["ins-ngtfnf7y"] */
  publishedNodeIds?: string[];
  /** node plugin: staged at this path (VOL_READY) */
  stagingPath?: string;
  /** node plugin: published at these target paths (PUBLISHED) */
  targetPaths?: string[];
}

export function initialVolumes(driver: DriverProfile, side: 'controller' | 'node', existing: ExistingVolume[]): Record<string, PluginVolume> {
  const out: Record<string, PluginVolume> = {};
  for (const e of existing) {
    let value: string;
    if (side === 'controller') value = e.publishedNodeIds?.length ? 'NODE_READY' : 'CREATED';
    else value = e.targetPaths?.length ? 'PUBLISHED' : e.stagingPath ? 'VOL_READY' : 'NODE_READY';
    out[e.volumeId] = {
      volumeId: e.volumeId, name: e.name ?? e.volumeId, capacityBytes: e.capacityBytes ?? 10 * 1024 ** 3,
      volumeContext: e.volumeContext ?? {},
      ...(e.stagingPath ? { stagingPath: e.stagingPath } : {}),
      ...(isCeph(driver) && driver.ceph ? { imageName: `csi-vol-${e.volumeId.slice(-36)}` } : {}),
      lifecycle: newLifecycle(driver, value, e.publishedNodeIds ?? [], e.targetPaths ?? []),
    };
  }
  return out;
}

export { cephCreateVolume, cephDeleteVolume, composeCSIID, isCeph };
