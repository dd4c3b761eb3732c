/**
 * The parts of the scheduling framework the storage flows need, as pure functions: node filters
 * (NodeUnschedulable, TaintToleration without tolerations, node Ready condition, VolumeBinding's
 * PV node affinity) and a deterministic pick. upstream: pkg/scheduler/framework/plugins
 * (nodeunschedulable, tainttoleration, volumebinding/binder.go FindPodVolumes).
 */
import type { K8sObject } from '../shared/k8s.ts';
import { ANN_SELECTED_NODE } from '../shared/names.ts';

export const podClaims = (pod: K8sObject): string[] =>
  ((pod.spec?.volumes ?? []) as Array<{ persistentVolumeClaim?: { claimName: string } }>)
    .filter((v) => v.persistentVolumeClaim).map((v) => `${pod.metadata.namespace}/${v.persistentVolumeClaim!.claimName}`);

export function nodeUsable(node: K8sObject): boolean {
  // every scheduling attempt filters every node, and a node object changes far less often (the API
  // server's objects are frozen, so a frozen node's answer is kept for it)
  const known = USABLE.get(node);
  if (known !== undefined) return known;
  const usable = filterNode(node);
  if (Object.isFrozen(node)) USABLE.set(node, usable);
  return usable;
}
const USABLE = new WeakMap<K8sObject, boolean>();

/** NodeUnschedulable, the node's Ready condition, TaintToleration without tolerations. */
function filterNode(node: K8sObject): boolean {
  if (node.spec?.unschedulable) return false;
  const ready = (node.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready');
  if (ready && ready.status !== 'True') return false;
  return !(node.spec?.taints ?? []).some((t: { effect: string }) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
}

/** nodeAffinity.required of a PV against a node's labels (operator In / NotIn / Exists). */
export function volumeFitsNode(pv: K8sObject, node: K8sObject): boolean {
  const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms as Array<{ matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> }> | undefined;
  if (!terms?.length) return true;
  const labels = node.metadata.labels ?? {};
  return terms.some((t) => (t.matchExpressions ?? []).every((e) =>
    e.operator === 'In' ? (e.values ?? []).includes(labels[e.key]!) : e.operator === 'NotIn' ? !(e.values ?? []).includes(labels[e.key]!) : e.operator === 'Exists' ? e.key in labels : true));
}

/** A StorageClass's allowedTopologies: TopologySelectorTerms, ORed; each one's matchLabelExpressions ANDed. */
export type TopologySelectorTerm = { matchLabelExpressions?: Array<{ key: string; values?: string[] }> };

/**
 * MatchTopologySelectorTerms: whether a node's labels fit a class's allowedTopologies (none: every node fits).
 * upstream: pkg/apis/core/v1/helper/helpers.go MatchTopologySelectorTerms.
 */
export function matchTopologySelectorTerms(terms: readonly TopologySelectorTerm[] | undefined, labels: Readonly<Record<string, string>>): boolean {
  if (!terms?.length) return true;
  return terms.some((t) => (t.matchLabelExpressions ?? []).every((e) => labels[e.key] !== undefined && (e.values ?? []).includes(labels[e.key]!)));
}

/**
 * checkVolumeProvisions' topology check: a node fits a pod's claims still to be provisioned when it fits each one's
 * class's allowedTopologies (1.30 binder.go checkVolumeProvisions, 1.20 scheduler_binder.go; a node that does not
 * is "node(s) didn't find available persistent volumes to bind").
 */
export const provisioningFitsNode = (classesToProvision: readonly K8sObject[], node: K8sObject): boolean =>
  classesToProvision.every((cls) => matchTopologySelectorTerms(cls.allowedTopologies as TopologySelectorTerm[] | undefined, node.metadata.labels ?? {}));

export type VolumeCheck =
  | { kind: 'ok'; unboundDelayed: string[] }
  | { kind: 'unboundImmediate' }
  | { kind: 'missing'; claim: string };

/** VolumeBinding PreFilter: bound claims are fine, WaitForFirstConsumer claims are bound later, Immediate ones block. */
export function checkClaims(pod: K8sObject, claims: Record<string, K8sObject>, classes: Record<string, K8sObject>): VolumeCheck {
  const delayed: string[] = [];
  for (const key of podClaims(pod)) {
    const claim = claims[key];
    if (!claim) return { kind: 'missing', claim: key.split('/')[1]! };
    if (claim.spec?.volumeName) continue;
    const cls = classes[claim.spec?.storageClassName ?? ''];
    if (cls?.volumeBindingMode === 'WaitForFirstConsumer') delayed.push(key);
    else return { kind: 'unboundImmediate' };
  }
  return { kind: 'ok', unboundDelayed: delayed };
}

/**
 * How many feasible nodes a scheduling cycle looks for before it stops filtering (numFeasibleNodesToFind,
 * 1.20 pkg/scheduler/core/generic_scheduler.go, 1.30 pkg/scheduler/schedule_one.go, the same in both): every
 * node below 100; above, percentageOfNodesToScore, whose default (0) means 50% less one point per 125 nodes,
 * at least 5%, and never fewer than 100 nodes.
 */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  const MIN_FEASIBLE_NODES_TO_FIND = 100;
  const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  // (Go's int32 division)
  const percentage = Math.max(50 - Math.trunc(numAllNodes / 125), MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
  return Math.max(Math.trunc((numAllNodes * percentage) / 100), MIN_FEASIBLE_NODES_TO_FIND);
}

/**
 * findNodesThatPassFilters, then the pick: filter the nodes from `start` on, round the list, until
 * numFeasibleNodesToFind of them fit (upstream then starts the next cycle where this one stopped,
 * nextStartNodeIndex, so that every node gets its turn); then the feasible node with the fewest pods, the
 * first by name on a tie (no randomness needed). `processed` counts the nodes filtered, fit or not: the
 * "evaluatedNodes" the bind line reports. (Upstream filters in parallel and may check a few nodes past the
 * last one it needed; here one at a time.)
 */
export function pickNode(pod: K8sObject, nodes: K8sObject[], podsOnNode: Record<string, number>, claims: Record<string, K8sObject>, volumes: Record<string, K8sObject>, start = 0,
  classesToProvision: readonly K8sObject[] = []): { node?: string; feasible: number; processed: number } {
  const bound = podClaims(pod).map((k) => claims[k]).filter((c) => c?.spec?.volumeName).map((c) => volumes[c!.spec.volumeName]).filter(Boolean) as K8sObject[];
  // a claim still being provisioned for a node keeps its pods there; once bound, only the PV's node affinity counts
  const selected = podClaims(pod).map((k) => claims[k]).filter((c) => !c?.spec?.volumeName).map((c) => c?.metadata.annotations?.[ANN_SELECTED_NODE]).find(Boolean);
  const want = numFeasibleNodesToFind(nodes.length);
  let best: string | undefined;
  let bestCount = 0;
  let feasible = 0;
  let processed = 0;
  for (let i = 0; i < nodes.length && feasible < want; i++) {
    const n = nodes[(start + i) % nodes.length]!;
    processed++;
    if (!nodeUsable(n) || (selected && n.metadata.name !== selected)) continue;
    let fits = true;
    for (const pv of bound) if (!volumeFitsNode(pv, n)) { fits = false; break; }
    if (!fits || !provisioningFitsNode(classesToProvision, n)) continue;
    feasible++;
    const name = n.metadata.name;
    const count = podsOnNode[name] ?? 0;
    if (best === undefined || count < bestCount || (count === bestCount && name < best)) { best = name; bestCount = count; }
  }
  return { ...(best !== undefined ? { node: best } : {}), feasible, processed };
}
