/**
 * Pure helpers of the external-attacher machine: request builders, informer-cache predicates and
 * the client-go work queue with its per-item exponential failure rate limiter.
 * upstream: kubernetes-csi/external-attacher pkg/controller/util.go, controller.go (v3.1.0, v4.6.1);
 * k8s.io/client-go util/workqueue (queue.go dirty/processing sets, default_rate_limiters.go).
 */
import type { K8sObject } from '../shared/k8s.ts';
import { CSI_ACCESS_MODE } from '../shared/csi.ts';
import { sortedJson } from '../shared/goFormat.ts';
import { sidecarRetryDelay } from '../shared/timing.ts';

/**
 * The JSON protosanitizer prints: Go encoding/json of the proto struct (omitempty: false, 0, "",
 * empty maps and lists vanish; nested messages stay, even empty), keys sorted. upstream:
 * kubernetes-csi/csi-lib-utils protosanitizer/protosanitizer.go.
 */
export function protoJson(v: unknown): string {
  return sortedJson(omitEmpty(v) ?? {});
}
function omitEmpty(v: unknown): unknown {
  if (v === false || v === 0 || v === '' || v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return v.length ? v.map((x) => omitEmpty(x) ?? {}) : undefined;
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const y = omitEmpty(x);
      if (y !== undefined) out[k] = y;
    }
    return out;
  }
  return v;
}

export const hasFinalizer = (o: K8sObject, f: string): boolean => !!o.metadata.finalizers?.includes(f);
/** finalizers without `f`, or null (merge patch removes the field) when none remain */
export function finalizersWithout(o: K8sObject, f: string): string[] | null {
  const rest = (o.metadata.finalizers ?? []).filter((x) => x !== f);
  return rest.length ? rest : null;
}

/** error text of a lister Get miss, as apimachinery errors.NewNotFound prints it */
export const listerNotFound = (resource: 'persistentvolume' | 'csinode.storage.k8s.io', name: string): string =>
  `${resource} "${name}" not found`;

/**
 * csi.VolumeCapability for a PV. upstream: external-attacher pkg/controller/util.go GetVolumeCapabilities.
 * `defaultFsType`: v3.1.0 falls back to "ext4"; v4.x to --default-fstype (empty by default).
 * `accessModes`: v3.1.0 maps the PV's access modes itself (util.go :181-198) and knows no ReadWriteOncePod; v4.x uses
 * csi-lib-utils accessmodes.ToCSIAccessMode (vendored accessmodes/access_modes.go :29-121): ReadWriteOncePod alone is
 * SINGLE_NODE_WRITER, or SINGLE_NODE_SINGLE_WRITER (and ReadWriteOnce SINGLE_NODE_MULTI_WRITER) for a driver with the
 * SINGLE_NODE_MULTI_WRITER controller capability (`singleNodeMultiWriter`).
 */
export function volumeCapability(pvSpec: K8sObject['spec'], defaultFsType: string, accessModes: 'v3' | 'csi-lib-utils' = 'v3', singleNodeMultiWriter = false):
  { cap: Record<string, unknown> } | { error: string } {
  const modes = new Set<string>(pvSpec?.accessModes ?? []);
  if (!pvSpec?.csi) return { error: 'CSI volume source was nil' };
  let mode: number;
  const lib = accessModes === 'csi-lib-utils';
  if (lib && modes.has('ReadWriteOncePod')) {
    if (modes.size > 1) return { error: 'Kubernetes does not support use of ReadWriteOncePod with other access modes on the same PersistentVolume' };
    mode = singleNodeMultiWriter ? CSI_ACCESS_MODE.SINGLE_NODE_SINGLE_WRITER : CSI_ACCESS_MODE.SINGLE_NODE_WRITER;
  } else if (modes.has('ReadWriteMany')) mode = CSI_ACCESS_MODE.MULTI_NODE_MULTI_WRITER;
  else if (modes.has('ReadOnlyMany') && modes.has('ReadWriteOnce')) return { error: 'CSI does not support ReadOnlyMany and ReadWriteOnce on the same PersistentVolume' };
  else if (modes.has('ReadOnlyMany')) mode = CSI_ACCESS_MODE.MULTI_NODE_READER_ONLY;
  else if (modes.has('ReadWriteOnce')) mode = lib && singleNodeMultiWriter ? CSI_ACCESS_MODE.SINGLE_NODE_MULTI_WRITER : CSI_ACCESS_MODE.SINGLE_NODE_WRITER;
  // (%+v of the PV's access mode list, in its order)
  else return { error: `unsupported AccessMode combination: [${(pvSpec.accessModes ?? []).join(' ')}]` };
  const accessType = pvSpec.volumeMode === 'Block'
    ? { Block: {} }
    : { Mount: { fs_type: pvSpec.csi.fsType || defaultFsType, mount_flags: pvSpec.mountOptions } };
  return { cap: { AccessType: accessType, access_mode: { mode } } };
}

/** CSINode spec.drivers[].nodeID of `driver`. upstream: util.go GetNodeIDFromCSINode. */
export function nodeIdFromCSINode(csiNode: K8sObject, driver: string): string | undefined {
  const d = (csiNode.spec?.drivers ?? []).find((x: { name: string }) => x.name === driver);
  return d?.nodeID;
}

/**
 * Whether a VA update is queued: not when only status.attachError/detachError changed (the attacher
 * wrote them itself; queueing would break the backoff). upstream: controller.go shouldEnqueueVAChange.
 */
export function shouldEnqueueVAChange(old: K8sObject, cur: K8sObject): boolean {
  if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return true;
  const errs = (o: K8sObject) => [o.status?.attachError, o.status?.detachError];
  if (errs(old).every((e) => !e) && errs(cur).every((e) => !e)) return true;
  const strip = (o: K8sObject) => JSON.stringify({
    ...o, metadata: { ...o.metadata, resourceVersion: undefined },
    status: { ...(o.status ?? {}), attachError: undefined, detachError: undefined },
  });
  return strip(old) !== strip(cur);
}

const rv = (o: K8sObject): number => Number(o.metadata.resourceVersion ?? 0);
/** keep the newer of two copies of an object (an informer never goes back in resourceVersion) */
export const newer = (cached: K8sObject | undefined, o: K8sObject): K8sObject => (cached && rv(cached) > rv(o) ? cached : o);

// ------------------------------------------------------------ capabilities

const CONTROLLER_RPC = [
  'UNKNOWN', 'CREATE_DELETE_VOLUME', 'PUBLISH_UNPUBLISH_VOLUME', 'LIST_VOLUMES', 'GET_CAPACITY',
  'CREATE_DELETE_SNAPSHOT', 'LIST_SNAPSHOTS', 'CLONE_VOLUME', 'PUBLISH_READONLY', 'EXPAND_VOLUME',
  'LIST_VOLUMES_PUBLISHED_NODES', 'VOLUME_CONDITION', 'GET_VOLUME', 'SINGLE_NODE_MULTI_WRITER',
];
const PLUGIN_SERVICE = ['UNKNOWN', 'CONTROLLER_SERVICE', 'VOLUME_ACCESSIBILITY_CONSTRAINTS', 'GROUP_CONTROLLER_SERVICE'];

/**
 * Capability names in a GetPluginCapabilities / ControllerGetCapabilities response, in the Go JSON
 * shape `{"capabilities":[{"Type":{"Rpc":{"type":2}}}]}` (enum numbers or names, either key case).
 * undefined when the response carries no capabilities list.
 */
export function capabilityNames(response: Record<string, unknown> | undefined, kind: 'Rpc' | 'Service'): Set<string> | undefined {
  const list = response?.capabilities;
  if (!Array.isArray(list)) return undefined;
  const names = kind === 'Rpc' ? CONTROLLER_RPC : PLUGIN_SERVICE;
  const out = new Set<string>();
  for (const c of list as Array<Record<string, any>>) { // eslint-disable-line @typescript-eslint/no-explicit-any
    const t = c?.Type ?? c?.type ?? c;
    const inner = t?.[kind] ?? t?.[kind.toLowerCase()];
    const v = inner?.type;
    if (typeof v === 'number' && names[v]) out.add(names[v]);
    else if (typeof v === 'string') out.add(v);
  }
  return out;
}

// ------------------------------------------------------------ work queue

/** client-go workqueue state for one queue: FIFO of keys, keys being processed, keys re-added meanwhile. */
export interface WorkQueue {
  /** the FIFO: keys from `head` on are waiting (taken from the front by moving head: shift() copies a long queue) */
  queue: string[];
  head: number;
  /** membership of `queue` (client-go keeps it as the "dirty" set; a map keeps Add O(1) for large queues) */
  queued: Record<string, true>;
  /** keys being processed, and those re-added meanwhile (sets: a large rollout runs hundreds of workers) */
  processing: Set<string>;
  dirty: Set<string>;
  /** ItemExponentialFailureRateLimiter: failures per key since the last Forget */
  failures: Record<string, number>;
}
export const emptyQueue = (): WorkQueue => ({ queue: [], head: 0, queued: {}, processing: new Set(), dirty: new Set(), failures: {} });
/** How many keys wait in the queue (queue.Len) */
export const queueLen = (q: WorkQueue): number => q.queue.length - q.head;

/** queue.Add: a key being processed is marked dirty and comes back after Done. */
export function queueAdd(q: WorkQueue, key: string): void {
  if (q.processing.has(key)) { q.dirty.add(key); return; }
  if (!q.queued[key]) { q.queue.push(key); q.queued[key] = true; }
}
/** queue.Get */
export function queueGet(q: WorkQueue): string | undefined {
  if (q.head >= q.queue.length) return undefined;
  const key = q.queue[q.head++]!;
  // the taken front is dropped once it is most of the array (amortised: each key is copied once at most)
  if (q.head >= 64 && q.head * 2 >= q.queue.length) { q.queue = q.queue.slice(q.head); q.head = 0; }
  delete q.queued[key]; q.processing.add(key);
  return key;
}
/** queue.Done */
export function queueDone(q: WorkQueue, key: string): void {
  q.processing.delete(key);
  if (q.dirty.delete(key)) queueAdd(q, key);
}
/** AddRateLimited: the delay (µs) before the key is added again; 1s, 2s, 4s … 5m. */
export function rateLimitDelay(q: WorkQueue, key: string): number {
  const n = q.failures[key] ?? 0;
  q.failures[key] = n + 1;
  return sidecarRetryDelay(n);
}
export function queueForget(q: WorkQueue, key: string): void { delete q.failures[key]; }
