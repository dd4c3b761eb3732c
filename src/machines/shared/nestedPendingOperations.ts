/**
 * nestedpendingoperations + exponential backoff, as pure data: one operation at a time per
 * {volumeName, podName, nodeName} key, and after a failure no retry before durationBeforeRetry
 * (500ms, doubling, capped at 2m2s). Shared by the kubelet's and the A/D controller's operation
 * executors. upstream: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go,
 * pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go.
 *
 * Upstream nests keys: an operation with an empty podName (attach, detach, verify, mount of an
 * attachable volume, unmount-device) conflicts with every operation on the same volume. This
 * implementation keeps that rule: `conflicts` compares the way `isOperationExists` does.
 */
import { goTimeString } from './goFormat.ts';
import { nextDurationBeforeRetry } from './timing.ts';
import { copyTable } from './tables.ts';

export interface OperationKey { volumeName: string; podName: string; nodeName: string }

export interface Operation {
  key: OperationKey;
  operationName: string;
  pending: boolean;
  /** time (µs) of the last failure, and the backoff it started; 0 when the last run succeeded */
  lastErrorTime: number;
  durationBeforeRetry: number;
}

export type PendingOperations = Readonly<Record<string, Operation>>;

export const keyString = (k: OperationKey): string => `${k.volumeName}|${k.podName}|${k.nodeName}`;

/** upstream isOperationExists: an empty podName/nodeName on either side matches any. */
function conflicts(a: OperationKey, b: OperationKey): boolean {
  if (a.volumeName !== b.volumeName) return false;
  const podMatch = a.podName === '' || b.podName === '' || a.podName === b.podName;
  const nodeMatch = a.nodeName === '' || b.nodeName === '' || a.nodeName === b.nodeName;
  return podMatch && nodeMatch;
}

export function findOperation(ops: PendingOperations, key: OperationKey): Operation | undefined {
  return ops[keyString(key)] ?? firstConflicting(ops, key, false);
}

/** upstream IsOperationPending */
export function isOperationPending(ops: PendingOperations, key: OperationKey): boolean {
  return firstConflicting(ops, key, true) !== undefined;
}

/** The first operation of the table, in its order, whose key conflicts with `key` (and that is pending, if asked). */
function firstConflicting(ops: PendingOperations, key: OperationKey, pendingOnly: boolean): Operation | undefined {
  const index = indexOf(ops);
  if (!index) {
    for (const k in ops) { const op = ops[k]!; if ((!pendingOnly || op.pending) && conflicts(op.key, key)) return op; }
    return undefined;
  }
  for (const op of index.get(key.volumeName) ?? NONE) if ((!pendingOnly || op.pending) && conflicts(op.key, key)) return op;
  return undefined;
}

/**
 * The operations of a table by volume, in the table's order (only they can conflict with a key on
 * it); undefined the first time a table is asked about: that one question is answered by a scan in
 * the table's order, which finds the same operation. A table is never changed once made (run and
 * complete return a new one), so its index is built once, when it is asked a second time: the
 * reconcilers ask about every volume at every pass, while a kubelet's run() asks about its new table
 * once before the next run or complete replaces it (building an index for that was most of run()).
 */
function indexOf(ops: PendingOperations): Map<string, Operation[]> | undefined {
  let index = BY_VOLUME.get(ops);
  if (index === undefined) {
    BY_VOLUME.set(ops, null);
    return undefined;
  }
  if (index === null) {
    index = new Map();
    for (const k in ops) {
      const op = ops[k]!;
      const list = index.get(op.key.volumeName);
      if (list) list.push(op); else index.set(op.key.volumeName, [op]);
    }
    BY_VOLUME.set(ops, index);
  }
  return index;
}
const BY_VOLUME = new WeakMap<PendingOperations, Map<string, Operation[]> | null>();
const NONE: readonly Operation[] = [];

/** upstream IsOperationSafeToRetry (kubernetes#104526): not pending and not inside its backoff window. */
export function isOperationSafeToRetry(ops: PendingOperations, key: OperationKey, operationName: string, now: number): boolean {
  const op = findOperation(ops, key);
  if (!op) return true;
  if (op.pending) return false;
  if (op.operationName !== operationName) return true;
  return !inBackoff(op, now);
}

const inBackoff = (op: Operation, now: number): boolean =>
  op.lastErrorTime > 0 && now < op.lastErrorTime + op.durationBeforeRetry;

export type RunResult =
  | { started: true; ops: PendingOperations }
  /** AlreadyExists and ExponentialBackoff errors are expected: callers ignore them silently (isExpectedError) */
  | { started: false; reason: 'AlreadyExists' | 'ExponentialBackoff'; retryAt?: number };

/**
 * upstream Run: start an operation unless one is pending for the key, or the same operation is
 * backing off; a different operation on the key resets the backoff.
 */
export function run(ops: PendingOperations, key: OperationKey, operationName: string, now: number): RunResult {
  const existing = findOperation(ops, key);
  let base: Operation | undefined;
  if (existing) {
    if (existing.pending) return { started: false, reason: 'AlreadyExists' };
    // "previous operation and new operation are different. reset op. name and exp. backoff"
    if (inBackoff(existing, now) && existing.operationName === operationName) {
      return { started: false, reason: 'ExponentialBackoff', retryAt: existing.lastErrorTime + existing.durationBeforeRetry };
    }
    if (existing.operationName === operationName) base = existing;
  }
  const k = keyString(key);
  const next: Operation = {
    key, operationName, pending: true,
    lastErrorTime: base?.lastErrorTime ?? 0, durationBeforeRetry: base?.durationBeforeRetry ?? 0,
  };
  // one copy of the table (an object spread of a table whose keys come and go is slow in V8: shared/tables.ts)
  const rest = copyTable(ops, k, next);
  if (existing && keyString(existing.key) !== k) delete rest[keyString(existing.key)];
  return { started: true, ops: rest };
}

/**
 * upstream operationComplete: on success the entry goes away; on failure it stays, not pending, with
 * the next durationBeforeRetry. Returns the new table and, on failure, the backoff that applies.
 */
export function complete(ops: PendingOperations, key: OperationKey, failed: boolean, now: number): { ops: PendingOperations; durationBeforeRetry?: number; retryAt?: number } {
  const k = keyString(key);
  const op = ops[k];
  const rest = copyTable(ops);
  delete rest[k];
  if (!failed || !op) return { ops: rest };
  const durationBeforeRetry = nextDurationBeforeRetry(op.durationBeforeRetry);
  // the failed entry goes back at the end of the table, as it always has (the order views list operations in)
  rest[k] = { ...op, pending: false, lastErrorTime: now, durationBeforeRetry };
  return { ops: rest, durationBeforeRetry, retryAt: now + durationBeforeRetry };
}

/**
 * The operation key as the error line prints it. ≥1.19: "{volumeName:… podName:… nodeName:…}".
 * upstream: nestedpendingoperations.go operationKey String via %+v.
 */
export const operationKeyText = (k: OperationKey): string =>
  `{volumeName:${k.volumeName} podName:${k.podName} nodeName:${k.nodeName}}`;

/** Three nanosecond digits below a virtual microsecond, derived from the instant so lines stay deterministic. */
export const extraNanos = (atUs: number): number => (atUs * 7919) % 1000;

/**
 * A time.Time a process took at virtual time `atUs` (time.Now(), or one computed from it, as "No retries
 * permitted until <time>") printed with %v, with the process's monotonic clock reading
 * (`processStartUs`: virtual time at which the process started, `uptimeAtStartUs`: its uptime then).
 */
export function processTimeText(
  epochUs: number, atUs: number, tz: { offsetMin: number; zone: string }, monotonic: { processStartUs: number; uptimeAtStartUs: number },
): string {
  const mono = monotonic.uptimeAtStartUs + (atUs - monotonic.processStartUs);
  return goTimeString(epochUs + atUs, tz.offsetMin, tz.zone, extraNanos(atUs), mono);
}

/**
 * A countdown a component is waiting on, for views that show timers running (the flow player).
 * Times are virtual microseconds on the cluster clock; a view hides it once the clock passes `endsAt`.
 */
export interface WorldTimer {
  /** the upstream name of the duration */
  name: 'durationBeforeRetry' | 'maxWaitForUnmountDuration' | 'podAttachAndMountTimeout';
  /** what is waiting, e.g. "DetachVolume pvc-1234 on node-1" */
  subject: string;
  startedAt: number;
  endsAt: number;
}

/** The exponential-backoff windows of failed operations (no retry before lastErrorTime + durationBeforeRetry). */
export function backoffTimers(ops: PendingOperations): WorldTimer[] {
  const out: WorldTimer[] = [];
  for (const op of Object.values(ops)) {
    if (op.pending || op.lastErrorTime <= 0) continue;
    const who = [op.key.podName && `pod ${op.key.podName}`, op.key.nodeName && `node ${op.key.nodeName}`].filter(Boolean).join(', ');
    out.push({
      name: 'durationBeforeRetry', subject: `${op.operationName} ${op.key.volumeName}${who ? ` (${who})` : ''}`,
      startedAt: op.lastErrorTime, endsAt: op.lastErrorTime + op.durationBeforeRetry,
    });
  }
  return out;
}
