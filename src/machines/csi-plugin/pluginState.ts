/**
 * The CSI plugins' state, shared by the request core (pluginCore.ts) and the RPC effects (rpcs.ts):
 * the backend volumes and snapshots a plugin knows, its pending requests and locks, and each volume's
 * lifecycle per the CSI spec (csiVolumeLifecycle.machine.ts), advanced with the pure `transition()`.
 */
import { pureTransition } from '../shared/pureTransition.ts';
import type { CsiRpc, GrpcCode } from '../shared/csi.ts';
import type { LogArgs, Stage } from '../shared/messages.ts';
import { createRng, type Rng } from '../shared/rng.ts';
import type { DriverProfile } from '../drivers/types.ts';
import type { CephState } from './cephJournal.ts';
import { csiVolumeLifecycleMachine, type CsiVolumeLifecycleContext, type CsiVolumeLifecycleEvent } from './csiVolumeLifecycle.machine.ts';

export interface Lifecycle { value: string; context: CsiVolumeLifecycleContext }

export interface PluginVolume {
  volumeId: string;
  /** CreateVolume name (pvc-<uid>) */
  name: string;
  capacityBytes: number;
  volumeContext: Record<string, string>;
  contentSource?: { snapshotId?: string; volumeId?: string };
  /** ceph: backing image */
  imageName?: string;
  stagingPath?: string;
  lifecycle: Lifecycle;
}
export interface PluginSnapshot { snapshotId: string; name: string; sourceVolumeId: string; sizeBytes: number; createdAtUs: number; imageName?: string }

export interface PendingOp {
  requestId: string;
  rpc: CsiRpc;
  request: Record<string, unknown>;
  lockKey?: string;
  prefix: string;
  /** a scenario fault: reply with it after the latency; DEADLINE_EXCEEDED: do the work, never reply */
  fault?: { code: GrpcCode; message: string };
}

export interface PluginContext {
  side: 'controller' | 'node';
  driver: DriverProfile;
  nodeName?: string;
  nodeId?: string;
  zone?: string;
  seed: number | string;
  /** wall-clock epoch (µs) of virtual time 0: a snapshot's creation_time is wall-clock time */
  epochUs?: number;
  /** how many random draws were made: each draw uses createRng(`${seed}/${draws}`) */
  draws: number;
  volumes: Record<string, PluginVolume>;
  /** CreateVolume name -> volume id */
  names: Record<string, string>;
  snapshots: Record<string, PluginSnapshot>;
  ceph?: CephState;
  pending: Record<string, PendingOp>;
  /** per-volume (or per-name) operation locks: key -> requestId */
  locks: Record<string, string>;
  /** ceph-csi's request counter (the `ID: <n>` prefix) */
  grpcSeq: number;
}

export type Outcome =
  | { ok: true; context: PluginContext; response: Record<string, unknown>; logs: Array<{ msg: string; args: LogArgs; stage?: Stage }> }
  | { ok: false; code: GrpcCode; message: string };

/** How the driver's gRPC interceptor prints (DriverProfile.logStyle, derived from the id style when absent). */
export const logStyleOf = (d: DriverProfile): NonNullable<DriverProfile['logStyle']> =>
  d.logStyle ?? (d.volumeIdStyle === 'ceph-csi-id' ? 'ceph-csi' : d.volumeIdStyle === 'nfs' ? 'csi-driver-nfs' : 'csi-common');
export const isCeph = (d: DriverProfile): boolean => logStyleOf(d) === 'ceph-csi';
export const isNfs = (d: DriverProfile): boolean => d.volumeIdStyle === 'nfs';

export function nextRng(ctx: PluginContext): [Rng, PluginContext] {
  return [createRng(`${ctx.seed}/${ctx.draws}`), { ...ctx, draws: ctx.draws + 1 }];
}

// ------------------------------------------------------------------ lifecycle

export function newLifecycle(driver: DriverProfile, value: string, nodes: string[] = [], targets: string[] = []): Lifecycle {
  return {
    value,
    context: { stageUnstage: driver.nodeCapabilities.includes('STAGE_UNSTAGE_VOLUME'), multiNode: driver.multiNodeAccess ?? false, nodes, targets },
  };
}

/** Ask the lifecycle machine whether `event` is allowed now; the next {value, context} when it is. */
export function stepLifecycle(lc: Lifecycle, event: CsiVolumeLifecycleEvent): Lifecycle | undefined {
  const snap = csiVolumeLifecycleMachine.resolveState({ value: lc.value, context: lc.context });
  if (!snap.can(event)) return undefined;
  const [next] = pureTransition(csiVolumeLifecycleMachine, snap, event);
  return { value: String(next.value), context: next.context };
}
