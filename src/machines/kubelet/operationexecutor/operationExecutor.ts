/**
 * The kubelet's operation executor: at most one operation per volume (or volume and pod) at a time,
 * and after a failure none before its exponential backoff ends.
 * upstream: pkg/volume/util/operationexecutor/operation_executor.go (VerifyControllerAttachedVolume,
 * MountVolume, UnmountVolume, UnmountDevice hand their generated operation to
 * pendingOperations.Run), pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go (the
 * "Operation for … failed. No retries permitted until …" line when an operation returns an error).
 */
import { goDuration, UTC_ZONE } from '../../shared/goFormat.ts';
import { complete, processTimeText, operationKeyText, run, type OperationKey } from '../../shared/nestedPendingOperations.ts';
import type { Stage } from '../../shared/messages.ts';
import type { InflightOperation, OperationKind, Work } from '../kubelet.types.ts';
import { log, recordPodEvent, requestReconcile } from '../kubelet.work.ts';


/** The generated operations' names (GeneratedOperations.OperationName), which key their backoff. */
export const OPERATION_NAMES: Record<OperationKind, string> = {
  verify: 'verify_controller_attached_volume', mount: 'volume_mount', unmount: 'volume_unmount', unmountDevice: 'unmount_device',
  expand: 'volume_fs_resize', map: 'map_volume', unmap: 'unmap_volume', unmapDevice: 'unmap_device',
};

/** pendingOperations.Run: false when an operation on the key is running or backing off (the reconciler comes back at the retry time). */
export function startOperation(w: Work, key: OperationKey, kind: OperationKind): boolean {
  const r = run(w.c.ops, key, OPERATION_NAMES[kind], w.now);
  if (!r.started) {
    if (r.reason === 'ExponentialBackoff' && r.retryAt !== undefined) requestReconcile(w, r.retryAt);
    return false;
  }
  w.c.ops = r.ops;
  return true;
}

/** The operation returned without error: its key is free, the reconciler runs again. */
export function operationCompleted(w: Work, key: OperationKey): void {
  w.c.ops = complete(w.c.ops, key, false, w.now).ops;
  requestReconcile(w);
}

/** The operation's object went while it ran: its key is free, nothing else happens. */
export function operationAbandoned(w: Work, key: OperationKey): void {
  w.c.ops = complete(w.c.ops, key, false, w.now).ops;
}

/** The operation returned an error: backoff, the nestedpendingoperations error line, and the pod's Warning event when the operation records one. */
export function operationFailed(w: Work, op: InflightOperation, err: string, stage: Stage, eventMessage?: string, eventReason = 'FailedMount'): void {
  const res = complete(w.c.ops, op.key, true, w.now);
  w.c.ops = res.ops;
  const i = w.c.input;
  log(w, 'kubelet.operationFailed', {
    key: operationKeyText(op.key), until: processTimeText(i.epochUs ?? 0, res.retryAt!, i.tz ?? UTC_ZONE, i.monotonic),
    duration: goDuration(res.durationBeforeRetry! * 1000), err,
  }, stage);
  if (eventMessage) {
    const p = w.c.pods[op.podUid];
    if (p) recordPodEvent(w, p, 'Warning', eventReason, eventMessage);
  }
  requestReconcile(w, res.retryAt!);
}
