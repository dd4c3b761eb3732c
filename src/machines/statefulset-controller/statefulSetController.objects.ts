/**
 * Pure helpers of the StatefulSet controller: the per-set index kept in context, and the Pod and
 * PersistentVolumeClaim objects it creates, named and shaped as upstream does.
 * upstream: pkg/controller/statefulset/stateful_set_utils.go (getPodName, getPersistentVolumeClaimName,
 * newVersionedStatefulSetPod, updateStorage, getPersistentVolumeClaims, isRunningAndReady).
 */
import type { K8sObject } from '../shared/k8s.ts';
import type { ProfileId } from '../shared/messages.ts';
import { sha256Hex } from '../shared/names.ts';
import { getProfile } from '../profiles/index.ts';

/** One pod slot of a set, as the controller's informer cache sees it. */
export interface PodSlot {
  /** Running and condition Ready=True, not terminating (upstream isRunningAndReady) */
  healthy: boolean;
  /** deletionTimestamp is set: the pod is going away; upstream waits for it to be gone */
  terminating: boolean;
}

export interface SetIndex {
  namespace: string;
  name: string;
  uid: string;
  replicas: number;
  parallel: boolean;
  /** claim-template names, in template order */
  claimTemplates: string[];
  /** the StatefulSet object last seen (templates are read from it) */
  object: K8sObject;
  /** controller-revision-hash label value, computed once per template change */
  revision: string;
  /** ordinal -> slot, for pods that exist in the API */
  pods: Record<number, PodSlot>;
  /** ordinals with a create in flight (claims and/or pod), upstream's "expectations" */
  creating: Record<number, true>;
  /**
   * every ordinal below this one is healthy: OrderedReady only creates the ordinal right after a
   * healthy prefix. Kept incrementally so that a 10 000-replica set costs O(1) amortised per event.
   */
  healthyPrefix: number;
}

export const setKey = (namespace: string, name: string): string => `${namespace}/${name}`;

/** upstream getPodName: "<set>-<ordinal>". */
export const podName = (set: string, ordinal: number): string => `${set}-${ordinal}`;
/** upstream getPersistentVolumeClaimName: "<claimTemplate>-<set>-<ordinal>". */
export const claimName = (template: string, set: string, ordinal: number): string => `${template}-${set}-${ordinal}`;

/** The ordinal of a pod owned by `set`, or -1 (upstream getParentNameAndOrdinal). */
export function ordinalOf(pod: K8sObject, set: string): number {
  const n = pod.metadata.name;
  if (!n.startsWith(set + '-')) return -1;
  const rest = n.slice(set.length + 1);
  return /^(0|[1-9][0-9]*)$/.test(rest) ? Number(rest) : -1;
}

/** The StatefulSet name in a pod's controller ownerReference. */
export function ownerSetName(pod: K8sObject): string | undefined {
  return pod.metadata.ownerReferences?.find((r) => r.kind === 'StatefulSet' && r.controller)?.name;
}

/** upstream isRunningAndReady (podutil.IsPodReady) and isTerminating. */
export function slotOf(pod: K8sObject): PodSlot {
  const terminating = !!pod.metadata.deletionTimestamp;
  const ready = (pod.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
  return { healthy: !terminating && pod.status?.phase === 'Running' && ready, terminating };
}

export function indexSet(o: K8sObject, prev: SetIndex | undefined): SetIndex {
  const claimTemplates: string[] = (o.spec?.volumeClaimTemplates ?? []).map((t: K8sObject) => t.metadata.name);
  const revision = prev && JSON.stringify(prev.object.spec?.template) === JSON.stringify(o.spec?.template)
    ? prev.revision
    : `${o.metadata.name}-${sha256Hex(JSON.stringify(o.spec?.template ?? {})).slice(0, 10)}`;
  return {
    namespace: o.metadata.namespace ?? 'default', name: o.metadata.name, uid: o.metadata.uid ?? '',
    replicas: o.spec?.replicas ?? 1, parallel: o.spec?.podManagementPolicy === 'Parallel',
    claimTemplates, object: o, revision,
    pods: prev?.pods ?? {}, creating: prev?.creating ?? {}, healthyPrefix: prev?.healthyPrefix ?? 0,
  };
}

/** Move the healthy prefix forward over healthy slots. */
export function advancePrefix(s: SetIndex): void {
  while (s.healthyPrefix < s.replicas && s.pods[s.healthyPrefix]?.healthy) s.healthyPrefix++;
}

/**
 * Ordinals to create now. Parallel: every missing ordinal among `candidates`. OrderedReady
 * (upstream's monotonic mode): only the first missing ordinal, and only when every lower ordinal is
 * running and ready and nothing is being created or deleted.
 */
export function ordinalsToCreate(s: SetIndex, candidates: Iterable<number>): number[] {
  if (s.parallel) {
    const out: number[] = [];
    for (const i of candidates) if (i < s.replicas && !s.pods[i] && !s.creating[i]) out.push(i);
    return out;
  }
  advancePrefix(s);
  const i = s.healthyPrefix;
  if (i >= s.replicas || s.pods[i] || Object.keys(s.creating).length > 0) return [];
  return [i];
}

/** upstream getPersistentVolumeClaims + updateStorage: the claims of one ordinal. */
export function newClaim(s: SetIndex, template: K8sObject, ordinal: number): K8sObject {
  const name = claimName(template.metadata.name, s.name, ordinal);
  const labels = { ...(s.object.spec?.selector?.matchLabels ?? {}), ...(template.metadata.labels ?? {}) };
  return {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: s.namespace, ...(Object.keys(labels).length ? { labels } : {}), ...(template.metadata.annotations ? { annotations: { ...template.metadata.annotations } } : {}) },
    spec: JSON.parse(JSON.stringify(template.spec ?? {})),
    // the API server's defaulting: a new claim is Pending until the PV controller binds it
    status: { phase: 'Pending' },
  };
}

/** upstream newVersionedStatefulSetPod: template + identity (name, hostname, subdomain) + storage. */
export function newPod(s: SetIndex, ordinal: number, profile: ProfileId): K8sObject {
  const name = podName(s.name, ordinal);
  const tpl = s.object.spec?.template ?? {};
  const spec = JSON.parse(JSON.stringify(tpl.spec ?? {}));
  // updateStorage: a pod volume named like a claim template is replaced by a reference to the claim
  const volumes: Array<{ name: string }> = (spec.volumes ?? []).filter((v: { name: string }) => !s.claimTemplates.includes(v.name));
  for (const t of s.claimTemplates) volumes.push({ name: t, persistentVolumeClaim: { claimName: claimName(t, s.name, ordinal) } } as { name: string });
  if (volumes.length) spec.volumes = volumes;
  spec.hostname = name;
  if (s.object.spec?.serviceName) spec.subdomain = s.object.spec.serviceName;
  const labels: Record<string, string> = {
    ...(tpl.metadata?.labels ?? {}),
    'controller-revision-hash': s.revision,
    'statefulset.kubernetes.io/pod-name': name,
    ...(getProfile(profile).statefulSetPodIndexLabel ? { 'apps.kubernetes.io/pod-index': String(ordinal) } : {}),
  };
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace: s.namespace, labels,
      ...(tpl.metadata?.annotations ? { annotations: { ...tpl.metadata.annotations } } : {}),
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: s.name, uid: s.uid, controller: true }],
    },
    spec,
    // the API server's defaulting: a new pod is Pending until the kubelet reports otherwise
    status: { phase: 'Pending' },
  };
}
