/** Context, input and helpers shared by the attach/detach controller's modules. */
import type { ClusterEmitted, ComponentInput } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import type { PendingOperations, OperationKey } from '../shared/nestedPendingOperations.ts';
import type { ActualStateOfWorld } from './cache/actualStateOfWorld.ts';
import type { DesiredStateOfWorld } from './cache/desiredStateOfWorld.ts';

export interface AttachDetachControllerInput extends ComponentInput {
  /** CSI drivers known to need attach before the CSIDriver informer lists them; CSIDriver objects seen on the watch decide (no object: attach) */
  attachRequiredDrivers?: string[];
  /** wall-clock epoch (µs) of virtual time 0: for the "No retries permitted until" time */
  epochUs?: number;
  /** the kube-controller-manager host's time zone (KCM logs in local time), default UTC */
  tz?: { offsetMin: number; zone: string };
  /** the process's monotonic uptime (µs) when it starts, printed as m=+… */
  uptimeAtStartUs?: number;
  /** kube-controller-manager --disable-attach-detach-reconcile-sync (default false): no syncStates */
  disableReconcileSync?: boolean;
}

/** One attach or detach operation in flight (the goroutine nestedpendingoperations runs). */
export interface RunningOperation {
  key: OperationKey;
  kind: 'volume_attach' | 'volume_detach';
  volumeName: string;
  specName: string;
  node: string;
  driver: string;
  handle: string;
  pvName: string;
  vaName: string;
  /** its machine's state (operationGenerator.ts: attachVolumeMachine / detachVolumeMachine) */
  state: string;
  startedAt: number;
  verifySafeToDetach: boolean;
  /** pods to record events on (attach) */
  pods: Array<{ namespace: string; name: string }>;
  /** the API request it waits for, and what that request was */
  requestId?: string;
  request?: 'create' | 'getNode' | 'delete';
}

export interface PvInfo {
  name: string; driver: string; handle: string; multiAttachAllowed: boolean;
  /** the informer's object itself (a reference, not a copy): the volume spec the 1.30 Multi-Attach line prints */
  object: K8sObject;
}

export interface AdcContext {
  input: Required<Pick<AttachDetachControllerInput, 'epochUs' | 'uptimeAtStartUs'>> & AttachDetachControllerInput & { tz: { offsetMin: number; zone: string } };
  seq: number;
  startedAt: number;
  pods: Record<string, K8sObject>;
  pvcs: Record<string, K8sObject>;
  pvs: Record<string, PvInfo>;
  nodes: Record<string, K8sObject>;
  vas: Record<string, K8sObject>;
  /** processVolumeAttachments has run (once, at the first reconciler loop after the informers listed) */
  vasProcessed?: boolean;
  attachRequired: Record<string, boolean>;
  dsw: DesiredStateOfWorld;
  asw: ActualStateOfWorld;
  /** nestedpendingoperations, one table per volume name (operations on different volumes never conflict) */
  ops: Record<string, PendingOperations>;
  /** operation key -> running operation */
  running: Record<string, RunningOperation>;
  /** lookups the informer handlers and the operation steps need (for scale) */
  index: AdcIndex;
  /** last status.volumesAttached written per node (to skip identical patches) */
  reported: Record<string, string>;
  /**
   * detaches waiting for the node status write that precedes them (UpdateNodeStatuses is synchronous: DetachVolume
   * and its "started" line come once the PATCH has returned), by the PATCH's requestId; their operation is already
   * marked pending
   */
  detachAfterStatus: Record<string, { op: RunningOperation; msg: string; args: Record<string, string> }>;
  /** node status writes in flight, by requestId: the node and the patch (for PatchNodeStatus's error) */
  statusWrites: Record<string, { node: string; patch: string }>;
  /** time of the scheduled reconcile tick, or 0 */
  reconcileAt: number;
  /** what the reconciler's next pass must look at besides the volumes the caches mark (reconciler.ts) */
  reconcilerQueue: ReconcilerQueue;
  /** time of the scheduled desired-state populator pass, or 0 */
  populatorAt: number;
  /** some pod could not be added (its node was not managed yet): the next re-list must find it */
  populatorNeedsList: boolean;
  /** when the populator last listed every pod (findAndAddActivePods) */
  populatorListedAt: number;
}

/**
 * Indexes over the caches, updated in place with them. Keys: pod and claim "namespace/name".
 */
export interface AdcIndex {
  /** pod key -> ordinal of its insertion into `pods` (re-processed pods go in `pods` order) */
  podOrder: Map<string, number>;
  podSeq: number;
  /** "ns/claim" -> keys of the pods whose volumes use the claim */
  podsByClaim: Map<string, Set<string>>;
  /** node name -> keys of the pods whose spec.nodeName names it */
  podsByNode: Map<string, Set<string>>;
  /** PV name -> "ns/claim" of the claims whose spec.volumeName names it */
  claimsByVolume: Map<string, Set<string>>;
  /** unique volume name (kubernetes.io/csi/driver^handle) -> names of the PVs with that source */
  pvsByUniqueName: Map<string, Set<string>>;
  /** request id -> key of the running operation that waits for it */
  runningByRequest: Map<string, string>;
  /** VolumeAttachment name -> keys of the running operations on it */
  runningByVa: Map<string, Set<string>>;
}

export const emptyIndex = (): AdcIndex => ({
  podOrder: new Map(), podSeq: 0, podsByClaim: new Map(), podsByNode: new Map(), claimsByVolume: new Map(), pvsByUniqueName: new Map(), runningByRequest: new Map(), runningByVa: new Map(),
});

/** Add to / remove from a set-valued index entry. */
export function indexAdd<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(v);
}
export function indexDelete<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  const s = m.get(k);
  if (!s) return;
  s.delete(v);
  if (s.size === 0) m.delete(k);
}

/**
 * The reconciler visits only the volumes whose pass could do something different from the last one
 * (an index upstream does not keep; upstream's reconciler walks every volume every 100ms, and here a
 * volume that nothing changed would do nothing). Changed in place, like the caches.
 */
export interface ReconcilerQueue {
  /** volumes whose operations table changed, or attached to a node whose object changed */
  touched: Set<string>;
  /** volume -> the soonest time a pass must look at it again (the end of a backoff or of the unmount wait) */
  wakes: Map<string, number>;
}

export const emptyReconcilerQueue = (): ReconcilerQueue => ({ touched: new Set(), wakes: new Map() });

export interface Out {
  ctx: AdcContext; out: ClusterEmitted[];
  /** an operation ended in this step (the reconciler runs again at its next loop) */
  finished?: boolean;
}
