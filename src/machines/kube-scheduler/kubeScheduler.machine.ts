/**
 * kube-scheduler, as far as storage is concerned: it binds each pending pod to a node, and its
 * VolumeBinding plugin delays that for WaitForFirstConsumer claims: it writes
 * volume.kubernetes.io/selected-node on the claim, waits until the claim is Bound (the external
 * provisioner creates the volume in that node's topology, the PV controller binds it), then binds the
 * pod. A pod with an unbound Immediate claim stays Pending (FailedScheduling).
 *
 * upstream: pkg/scheduler/schedule_one.go (1.30) / scheduler.go (1.20) scheduleOne and bind;
 * pkg/scheduler/framework/plugins/volumebinding (PreFilter "pod has unbound immediate
 * PersistentVolumeClaims", Reserve/PreBind BindPodVolumes); default_binder.go.
 *
 * The bind is a create of the pods/<name>/binding subresource (default_binder.go), which sets the pod's
 * spec.nodeName; the selected-node annotation is an Update of the cached claim (bindAPIUpdate).
 *
 * Left out: scoring plugins (a deterministic fewest-pods-then-name pick instead), tolerations,
 * preemption, scheduling queue backoff (a pod is retried whenever an object it depends on changes), PreBind's
 * timeout for claims that never bind (VolumeBindingArgs bindTimeoutSeconds, 600).
 */
import { setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { type K8sObject, kobj } from '../shared/k8s.ts';
import { summarize } from '../shared/messages.ts';
import { getProfile } from '../profiles/index.ts';
import { ANN_SELECTED_NODE } from '../shared/names.ts';
import { isEmptyTable } from '../shared/tables.ts';
import { checkClaims, nodeUsable, pickNode, provisioningFitsNode, volumeFitsNode, podClaims } from './filter.ts';
import { kubeSchedulerSummaries as summaries } from './kubeScheduler.messages.ts';

export type KubeSchedulerInput = ComponentInput;

export interface KubeSchedulerContext {
  input: KubeSchedulerInput;
  pods: Record<string, K8sObject>;
  nodes: Record<string, K8sObject>;
  claims: Record<string, K8sObject>;
  volumes: Record<string, K8sObject>;
  classes: Record<string, K8sObject>;
  /**
   * pods whose node is chosen while their WaitForFirstConsumer claims get bound (assumed pods); `pollFrom`
   * is when PreBind's claim writes were done and its once-a-second check began, `checkAt` the check
   * that will see the claims bound
   */
  assumed: Record<string, { node: string; pollFrom?: number; checkAt?: number }>;
  /** requestId → pod key, for writes in flight */
  inFlight: Record<string, { pod: string; what: 'selectedNode' | 'bind' }>;
  /** the last FailedScheduling message per pod, so a pod that still does not fit is not reported again */
  lastFailure: Record<string, string>;
  nextRequest: number;
  /** pods without a node that are not being deleted: the scheduling queue */
  pending: Record<string, true>;
  /** the node each pod is bound to or assumed on, and the pod count per node (the scheduler cache) */
  podNode: Record<string, string>;
  podsOnNode: Record<string, number>;
  /**
   * How many nodes the cache holds, and how many of them pass the node filters (nodeUsable), kept as
   * nodes come and change: the "Successfully bound pod to node" line reports both, and counting a
   * thousand nodes at every bind made a large rollout's scheduling quadratic.
   */
  /** where the next cycle starts filtering (nextStartNodeIndex: where the last one stopped) */
  nextStartNodeIndex: number;
  /** per pod being bound: the ScheduleResult of the cycle that chose its node (evaluatedNodes, feasibleNodes) */
  results: Record<string, { evaluated: number; feasible: number }>;
}

type Out = ClusterEmitted[];
const BAG: Partial<Record<K8sObject['kind'], 'pods' | 'nodes' | 'claims' | 'volumes' | 'classes'>> = {
  Pod: 'pods', Node: 'nodes', PersistentVolumeClaim: 'claims', PersistentVolume: 'volumes', StorageClass: 'classes',
};

/**
 * The pod's ReadWriteOncePod claims that another scheduled (bound or assumed) pod uses (VolumeRestrictions
 * calPreFilterState: the scheduler cache's PVC reference counts). Empty where the profile has no ReadWriteOncePod.
 */
function readWriteOncePodConflicts(c: KubeSchedulerContext, key: string, pod: K8sObject): string[] {
  if (!getProfile(c.input.profile).schedulerReadWriteOncePod) return [];
  const rwop = podClaims(pod).filter((k) => ((c.claims[k]?.spec?.accessModes ?? []) as string[]).includes('ReadWriteOncePod'));
  if (!rwop.length) return [];
  return rwop.filter((claim) => Object.keys(c.podNode).some((other) => other !== key && c.pods[other] && podClaims(c.pods[other]!).includes(claim)));
}

/** The FailedScheduling text: "0/N nodes are available: …" (+ the preemption summary newer releases add). */
function fitError(c: KubeSchedulerContext, pod: K8sObject, immediate: boolean, readWriteOncePodConflict = false): string {
  const nodes = Object.values(c.nodes);
  const n = nodes.length;
  const reasons = new Map<string, number>();
  const add = (r: string): void => { reasons.set(r, (reasons.get(r) ?? 0) + 1); };
  if (immediate) reasons.set('pod has unbound immediate PersistentVolumeClaims', n);
  else {
    const bound = podClaims(pod).map((k) => c.volumes[c.claims[k]?.spec?.volumeName ?? '']).filter(Boolean) as K8sObject[];
    const toProvision = classesToProvision(c, pod);
    for (const node of nodes) {
      if (node.spec?.unschedulable) add('node(s) were unschedulable');
      else if (!nodeUsable(node)) add('node(s) had untolerated taint or were not ready');
      // (VolumeRestrictions filters before VolumeBinding)
      else if (readWriteOncePodConflict) add('node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode');
      else if (!bound.every((pv) => volumeFitsNode(pv, node))) add('node(s) had volume node affinity conflict');
      else if (!provisioningFitsNode(toProvision, node)) add('node(s) didn\'t find available persistent volumes to bind');
    }
  }
  const text = `0/${n} nodes are available: ${[...reasons].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([r, k]) => `${k} ${r}`).join(', ')}.`;
  if (!getProfile(c.input.profile).schedulerPreemptionMessage) return text;
  // a node where only the claim's other pod stands in the way is one preemption could help, were that pod of a lower
  // priority (every pod here has the default priority 0: no victims); the others it cannot help
  const victimless = reasons.get('node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode') ?? 0;
  const preemption = [...(victimless ? [`${victimless} No preemption victims found for incoming pod`] : []), ...(n - victimless ? [`${n - victimless} Preemption is not helpful for scheduling`] : [])];
  return `${text} preemption: 0/${n} nodes are available: ${preemption.join(', ')}.`;
}

/** The classes of the pod's claims still to be provisioned (unbound, WaitForFirstConsumer): their allowedTopologies restrict its node. */
function classesToProvision(c: KubeSchedulerContext, pod: K8sObject): K8sObject[] {
  return podClaims(pod).map((k) => c.claims[k]).filter((cl) => cl && !cl.spec?.volumeName)
    .map((cl) => c.classes[cl!.spec?.storageClassName ?? '']).filter((cls): cls is K8sObject => !!cls);
}

function request(c: KubeSchedulerContext, pod: string, what: 'selectedNode' | 'bind'): string {
  const id = `ks-${c.nextRequest++}`;
  c.inFlight[id] = { pod, what };
  return id;
}

function bindPod(c: KubeSchedulerContext, key: string, pod: K8sObject, node: string, out: Out): void {
  const requestId = request(c, key, 'bind');
  setPodNode(c, key, node); // assume: the pod counts on its node before the binding is confirmed
  // DefaultBinder.Bind (default_binder.go): a POST of pods/<name>/binding with a Binding whose target is the node
  const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid }, target: { kind: 'Node', name: node } } as unknown as K8sObject;
  out.push({ type: 'api.request', requestId, verb: 'create', subresource: 'binding', kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, object: binding, summary: summarize(summaries, 'kubeScheduler.bindPod', { pod: key, node }) });
}

function fail(c: KubeSchedulerContext, key: string, pod: K8sObject, msg: string, out: Out): void {
  if (c.lastFailure[key] === msg) return;
  c.lastFailure[key] = msg;
  out.push({ type: 'log', msg: 'kubeScheduler.unschedulable', args: { pod: key, err: msg } });
  out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name }, eventType: 'Warning', reason: 'FailedScheduling', message: msg });
}

/** The scheduler cache: a pod counts on the node it is bound to, or assumed on while binding. */
function setPodNode(c: KubeSchedulerContext, key: string, node: string | undefined): void {
  const prev = c.podNode[key];
  if (prev === node) return;
  if (prev) { c.podsOnNode[prev] = (c.podsOnNode[prev] ?? 1) - 1; delete c.podNode[key]; }
  if (node) { c.podNode[key] = node; c.podsOnNode[node] = (c.podsOnNode[node] ?? 0) + 1; }
}

/** Keep the node cache in step with a node event. */
function setNode(c: KubeSchedulerContext, key: string, node: K8sObject | undefined): void {
  if (node) c.nodes[key] = node;
  else delete c.nodes[key];
}

/** Store (or, undefined, forget) an object of the scheduler's caches: pods and nodes keep their indexes in step. */
function putObject(c: KubeSchedulerContext, bag: NonNullable<(typeof BAG)[K8sObject['kind']]>, key: string, o: K8sObject | undefined): void {
  if (bag === 'pods') setPod(c, key, o);
  else if (bag === 'nodes') setNode(c, key, o);
  else if (o) c[bag][key] = o;
  else delete c[bag][key];
}

/** Keep the pod cache, the queue and the per-node counts in step with a pod event. */
function setPod(c: KubeSchedulerContext, key: string, pod: K8sObject | undefined): void {
  if (!pod) {
    delete c.pods[key]; delete c.pending[key]; delete c.assumed[key]; delete c.lastFailure[key];
    setPodNode(c, key, undefined);
    return;
  }
  c.pods[key] = pod;
  if (!pod.spec?.nodeName && !pod.metadata.deletionTimestamp) c.pending[key] = true;
  else delete c.pending[key];
  if (pod.spec?.nodeName) setPodNode(c, key, pod.spec.nodeName);
  else if (!c.inFlight || !Object.values(c.inFlight).some((f) => f.pod === key && f.what === 'bind')) setPodNode(c, key, undefined);
}

/**
 * PreBind's wait for the claims (volumebinding BindPodVolumes: after the claim writes, wait.Poll checks every
 * second, the first check a second after they were done; 1.20 scheduler_binder.go bindPodVolumes,
 * 1.30 binder.go BindPodVolumes with PollUntilContextTimeout(…, time.Second, …, false)): the pod is
 * bound at the first check that finds every claim Bound, not the moment the last one is.
 */
const PREBIND_POLL = 1_000_000;

/** scheduleOne for every pending pod that is not already being worked on. */
function scheduleAll(c: KubeSchedulerContext, out: Out, now: number): void {
  // (it runs after every event the scheduler sees; most find the queue empty)
  if (isEmptyTable(c.pending)) return;
  const busy = new Set(Object.values(c.inFlight).map((f) => f.pod));
  for (const key of Object.keys(c.pending).sort()) {
    const pod = c.pods[key]!;
    if (pod.spec?.nodeName || pod.metadata.deletionTimestamp || busy.has(key)) continue;
    const check = checkClaims(pod, c.claims, c.classes);
    if (check.kind === 'missing') { fail(c, key, pod, `persistentvolumeclaim "${check.claim}" not found`, out); continue; }
    if (check.kind === 'unboundImmediate') { fail(c, key, pod, fitError(c, pod, true), out); continue; }
    const assumed = c.assumed[key];
    if (assumed) {
      // PreBind: wait until every claim the plugin bound is Bound, checked once a second, then bind the pod
      if (check.unboundDelayed.length === 0 && assumed.pollFrom !== undefined) {
        if (assumed.checkAt !== undefined && now >= assumed.checkAt) { delete c.assumed[key]; bindPod(c, key, pod, assumed.node, out); }
        else if (assumed.checkAt === undefined) {
          const checkAt = assumed.pollFrom + Math.max(1, Math.ceil((now - assumed.pollFrom) / PREBIND_POLL)) * PREBIND_POLL;
          c.assumed[key] = { ...assumed, checkAt };
          out.push({ type: 'timer.requested', key: `prebind:${key}`, at: checkAt });
        }
      }
      continue;
    }
    if (readWriteOncePodConflicts(c, key, pod).length) { fail(c, key, pod, fitError(c, pod, false, true), out); continue; }
    const nodes = Object.values(c.nodes);
    const { node, feasible, processed } = pickNode(pod, nodes, c.podsOnNode, c.claims, c.volumes, c.nextStartNodeIndex, classesToProvision(c, pod));
    c.nextStartNodeIndex = nodes.length ? (c.nextStartNodeIndex + processed) % nodes.length : 0;
    if (!node) { fail(c, key, pod, fitError(c, pod, false), out); continue; }
    delete c.lastFailure[key];
    c.results[key] = { evaluated: processed, feasible };
    if (check.unboundDelayed.length === 0) { bindPod(c, key, pod, node, out); continue; }
    c.assumed[key] = { node };
    let writes = 0;
    for (const ck of check.unboundDelayed) {
      const claim = c.claims[ck]!;
      if (claim.metadata.annotations?.[ANN_SELECTED_NODE] === node) continue;
      writes++;
      const requestId = request(c, key, 'selectedNode');
      // bindAPIUpdate: an Update of the cached claim with the annotation (1.20 scheduler_binder.go, 1.30 binder.go);
      // a conflict fails PreBind and the pod is scheduled again
      const object = { ...claim, metadata: { ...claim.metadata, annotations: { ...(claim.metadata.annotations ?? {}), [ANN_SELECTED_NODE]: node } } };
      out.push({ type: 'api.request', requestId, verb: 'update', kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, object, summary: summarize(summaries, 'kubeScheduler.selectedNode', { node, pod: key, claim: ck }) });
    }
    // nothing to write: the wait starts now (otherwise when the last write is answered, handleApiResult)
    if (writes === 0) c.assumed[key] = { ...c.assumed[key]!, pollFrom: now };
  }
}

function react(fn: (c: KubeSchedulerContext, e: ClusterEvent, out: Out) => void) {
  return reaction<KubeSchedulerContext, ClusterEvent, ClusterEmitted>((context, event) => {
    // For scale the caches are updated in place: the actor owns its context, and copying every map
    // on every event would make a 10 000-pod rollout quadratic.
    const c: KubeSchedulerContext = { ...context };
    const out: Out = [];
    fn(c, event, out);
    return { ctx: c, out };
  });
}

export const kubeSchedulerMachine = setup({
  types: { context: {} as KubeSchedulerContext, events: {} as ClusterEvent, emitted: {} as ClusterEmitted, input: {} as KubeSchedulerInput },
  actions: {
    storeObject: react((c, e) => {
      if (e.type !== 'watch.added' && e.type !== 'watch.modified' && e.type !== 'watch.deleted') return;
      const bag = BAG[e.object.kind];
      if (!bag) return;
      putObject(c, bag, kobj(e.object), e.type === 'watch.deleted' ? undefined : e.object);
    }),
    handleApiResult: react((c, e, out) => {
      if (e.type !== 'api.result') return;
      const f = c.inFlight[e.requestId];
      if (!f) return;
      delete c.inFlight[e.requestId];
      const pod = c.pods[f.pod];
      if (!e.ok) {
        if (f.what === 'selectedNode') delete c.assumed[f.pod];
        if (f.what === 'bind') setPodNode(c, f.pod, undefined); // forget the assumed pod
        return;
      }
      const bag = e.object ? BAG[e.object.kind] : undefined;
      if (bag) putObject(c, bag, kobj(e.object!), e.object);
      // the claim writes are done: PreBind's once-a-second check of the claims begins
      if (f.what === 'selectedNode' && c.assumed[f.pod] && !Object.values(c.inFlight).some((x) => x.pod === f.pod && x.what === 'selectedNode')) {
        c.assumed[f.pod] = { ...c.assumed[f.pod]!, pollFrom: e.now };
      }
      if (f.what === 'bind' && pod && e.object) {
        const node = e.object.spec.nodeName as string;
        // the ScheduleResult of the cycle that chose the node (evaluatedNodes: the nodes it filtered, feasibleNodes: those that fit)
        // (every bind comes from a cycle: a restart forgets both the cycle's result and the bind in flight)
        const result = c.results[f.pod]!;
        delete c.results[f.pod];
        out.push({ type: 'log', msg: 'kubeScheduler.boundPod', args: { pod: f.pod, node, evaluatedNodes: result.evaluated, feasibleNodes: result.feasible } });
        out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name }, eventType: 'Normal', reason: 'Scheduled', message: `Successfully assigned ${f.pod} to ${node}` });
      }
    }),
    scheduleAll: react((c, e, out) => scheduleAll(c, out, e.now)),
    reset: react((c) => { c.inFlight = {}; c.assumed = {}; c.results = {}; c.nextStartNodeIndex = 0; c.pending = {}; c.podNode = {}; c.podsOnNode = {}; c.pods = {}; }),
  },
}).createMachine({
  id: 'kubeScheduler',
  initial: 'stopped',
  context: ({ input }) => ({ input, pods: {}, nodes: {}, claims: {}, volumes: {}, classes: {}, assumed: {}, inFlight: {}, lastFailure: {}, nextRequest: 1, pending: {}, podNode: {}, podsOnNode: {}, nextStartNodeIndex: 0, results: {} }),
  states: {
    stopped: { description: 'kube-scheduler is not running.', on: { 'component.started': 'running' } },
    running: {
      description: 'Every change to a pod, node, claim, volume or class re-runs scheduleOne for the pending pods.',
      on: {
        'watch.added': { actions: ['storeObject', 'scheduleAll'] },
        'watch.modified': { actions: ['storeObject', 'scheduleAll'] },
        'watch.deleted': { actions: ['storeObject', 'scheduleAll'] },
        'api.result': { actions: ['handleApiResult', 'scheduleAll'] },
        /** PreBind's check of an assumed pod's claims (prebind:<pod>) */
        'clock.ticked': { actions: ['scheduleAll'] },
        'host.shutdown': { target: 'stopped', actions: 'reset' },
      },
    },
  },
});
