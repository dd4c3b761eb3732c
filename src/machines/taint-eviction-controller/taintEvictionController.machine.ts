/**
 * The taint eviction controller of kube-controller-manager: a pod on a node with a NoExecute taint
 * it does not tolerate is deleted (gracefully: its kubelet still has to stop it); a pod that
 * tolerates the taint for tolerationSeconds is deleted when they run out, unless the taint goes
 * first. 1.29 moved this code out of the node lifecycle controller (where 1.20 runs it as the
 * NoExecuteTaintManager); what it does is the same.
 * upstream: pkg/controller/tainteviction/taint_eviction.go (v1.30: handlePodUpdate, handleNodeUpdate,
 * processPodOnNode, deletePodHandler, addConditionAndDeletePod), timed_workers.go;
 * v1.20: pkg/controller/nodelifecycle/scheduler/taint_manager.go.
 * Pods here are created without the admission plugins' defaults: DefaultTolerationSeconds would give
 * each pod 300 s tolerations of not-ready and unreachable, so those are assumed when a pod has none
 * (plugin/pkg/admission/defaulttolerationseconds).
 */
import { enqueueActions, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { type K8sObject, kobj } from '../shared/k8s.ts';
import { rfc3339 } from '../shared/goFormat.ts';
import { summarize } from '../shared/messages.ts';
import { getProfile } from '../profiles/index.ts';
import { nodeTaints, toleratesTaint, TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE, type Taint, type Toleration } from '../shared/taints.ts';
import { DEFAULT_NOT_READY_TOLERATION_SECONDS, SECOND } from '../shared/timing.ts';
import { taintEvictionControllerSummaries as summaries } from './taintEvictionController.messages.ts';

export interface TaintEvictionControllerInput extends ComponentInput {
  /** wall-clock epoch (µs) of virtual time 0, for the DisruptionTarget condition's time */
  epochUs?: number;
}

export interface TaintEvictionControllerContext {
  epochUs: number;
  profile: TaintEvictionControllerInput['profile'];
  /** NoExecute taints by node name (taintedNodes) */
  taintedNodes: Record<string, Taint[]>;
  /** the pods bound to nodes, by "ns/name" (the pod informer) */
  pods: Record<string, K8sObject>;
  /**
   * taintEvictionQueue (timed_workers.go TimedWorkerQueue): "ns/name" -> a planned deletion, or null
   * once it has fired. A fired entry stays until cancelled, so AddWork skips the pod until then.
   */
  queue: Record<string, { fireAt: number; createdAt: number } | null>;
  seq: number;
}

const timerKey = (pod: string): string => `evict:${pod}`;

/** The pod's tolerations as the API server would have stored them (DefaultTolerationSeconds). */
export function tolerationsOf(pod: K8sObject): Toleration[] {
  const own = (pod.spec?.tolerations ?? []) as Toleration[];
  const has = (key: string): boolean => own.some((t) => (t.key === key || (!t.key && t.operator === 'Exists')) && (!t.effect || t.effect === 'NoExecute'));
  const defaults: Toleration[] = [TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE]
    .filter((k) => !has(k))
    .map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_NOT_READY_TOLERATION_SECONDS }));
  return [...own, ...defaults];
}

/**
 * GetMatchingTolerations (the first toleration of each taint) + getMinTolerationTime: undefined when
 * some taint is not tolerated (evict now), Infinity when every taint is tolerated for ever, else the
 * shortest tolerationSeconds (µs; 0 or less: now).
 */
export function minTolerationTime(taints: readonly Taint[], tolerations: readonly Toleration[]): number | undefined {
  let min = Infinity;
  for (const t of taints) {
    const used = tolerations.find((tol) => toleratesTaint(tol, t));
    if (!used) return undefined;
    if (used.tolerationSeconds !== undefined) min = Math.min(min, Math.max(0, used.tolerationSeconds) * SECOND);
  }
  return min;
}

type Out = ClusterEmitted[];
const split = (key: string): { namespace: string; name: string } => {
  const i = key.indexOf('/');
  return { namespace: key.slice(0, i), name: key.slice(i + 1) };
};

/** cancelWorkWithEvent: CancelWork drops the entry; only a deletion still planned gets the Event. */
function cancelWorkWithEvent(c: TaintEvictionControllerContext, key: string, out: Out): void {
  if (!(key in c.queue)) return;
  const planned = c.queue[key];
  delete c.queue[key];
  if (!planned) return;
  out.push({ type: 'timer.cancelled', key: timerKey(key) });
  out.push({ type: 'event.recorded', involved: { kind: 'Pod', ...split(key) }, ref: evictionRef(c), eventType: 'Normal', reason: 'TaintManagerEviction', message: `Cancelling deletion of Pod ${key}` });
}

/**
 * The reference of its Events, built from the pod's name alone (emitPodDeletionEvent, emitCancelPodDeletionEvent):
 * no UID or ResourceVersion, and an APIVersion only in 1.30's taint_eviction.go.
 */
const evictionRef = (c: TaintEvictionControllerContext): ReadonlyArray<'apiVersion'> => (getProfile(c.profile).taintEvictionRefApiVersion ? ['apiVersion'] : []);

/** TimedWorkerQueue.AddWork: a pod already queued (planned or fired) is skipped. */
function addWork(c: TaintEvictionControllerContext, key: string, createdAt: number, fireAt: number, now: number, out: Out): void {
  if (key in c.queue) return;
  if (fireAt <= now) { c.queue[key] = null; deletePodHandler(c, key, now, out); return; }
  c.queue[key] = { fireAt, createdAt };
  out.push({ type: 'timer.requested', key: timerKey(key), at: fireAt });
}

/** processPodOnNode: evict now, at the end of the shortest toleration, or never. */
function processPodOnNode(c: TaintEvictionControllerContext, key: string, node: string, now: number, out: Out): void {
  const pod = c.pods[key];
  const taints = c.taintedNodes[node];
  if (!pod || !taints) return;
  const min = minTolerationTime(taints, tolerationsOf(pod));
  if (min === undefined) {
    out.push({ type: 'log', msg: 'taintEvictionController.notAllTaintsTolerated', args: { pod: key, node } });
    // the pod is deleted right away: whatever was planned goes
    cancelWorkWithEvent(c, key, out);
    addWork(c, key, now, now, now, out);
    return;
  }
  if (min === Infinity) { cancelWorkWithEvent(c, key, out); return; }
  let startTime = now;
  const scheduled = c.queue[key];
  if (scheduled) {
    // a deletion planned earlier keeps its start (CreatedAt): it only moves if that would be later
    startTime = scheduled.createdAt;
    if (startTime + min < now + min) return;
    cancelWorkWithEvent(c, key, out);
  }
  addWork(c, key, startTime, now + min, now, out);
}

/** deletePodHandler: the log line, the Event, the DisruptionTarget condition (1.26+), then a graceful delete. */
function deletePodHandler(c: TaintEvictionControllerContext, key: string, now: number, out: Out): void {
  const pod = c.pods[key];
  if (!pod) return;
  const { namespace, name } = split(key);
  out.push({ type: 'log', msg: 'taintEvictionController.deletingPod', args: { pod: key } });
  out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace, name }, ref: evictionRef(c), eventType: 'Normal', reason: 'TaintManagerEviction', message: `Marking for deletion Pod ${key}` });
  const hasCondition = ((pod.status?.conditions ?? []) as Array<{ type: string; status: string }>).some((x) => x.type === 'DisruptionTarget' && x.status === 'True');
  if (getProfile(c.profile).podDisruptionConditions && !hasCondition) {
    const conditions = [...((pod.status?.conditions ?? []) as Array<{ type: string }>),
      { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint', lastTransitionTime: rfc3339(c.epochUs + now) }];
    out.push({ type: 'api.request', requestId: `tec-${++c.seq}`, verb: 'patchStatus', kind: 'Pod', namespace, name, patch: { status: { conditions } }, summary: summarize(summaries, 'taintEvictionController.disruptionTarget', { pod: key }) });
  }
  out.push({ type: 'api.request', requestId: `tec-${++c.seq}`, verb: 'delete', kind: 'Pod', namespace, name, summary: summarize(summaries, 'taintEvictionController.deletePod', { pod: key }) });
}

const noExecute = (node: K8sObject): Taint[] => nodeTaints(node).filter((t) => t.effect === 'NoExecute');
const sameTaints = (a: readonly Taint[], b: readonly Taint[]): boolean =>
  a.length === b.length && a.every((t, i) => t.key === b[i]!.key && t.value === b[i]!.value && t.effect === b[i]!.effect);
const sameTolerations = (a: K8sObject, b: K8sObject): boolean => JSON.stringify(a.spec?.tolerations ?? []) === JSON.stringify(b.spec?.tolerations ?? []);

/** handleNodeUpdate: the node's NoExecute taints recorded, then every pod on it looked at again. */
function handleNodeUpdate(c: TaintEvictionControllerContext, node: K8sObject | undefined, name: string, now: number, out: Out): void {
  const taints = node ? noExecute(node) : [];
  if (taints.length === 0) delete c.taintedNodes[name];
  else c.taintedNodes[name] = taints;
  const pods = Object.keys(c.pods).filter((k) => c.pods[k]!.spec?.nodeName === name).sort();
  for (const key of pods) {
    if (taints.length === 0) cancelWorkWithEvent(c, key, out);
    else processPodOnNode(c, key, name, now, out);
  }
}

export const taintEvictionControllerMachine = setup({
  types: { context: {} as TaintEvictionControllerContext, events: {} as ClusterEvent, emitted: {} as ClusterEmitted, input: {} as TaintEvictionControllerInput },
  actions: {
    /**
     * NodeUpdated / PodUpdated: only a change of a node's NoExecute taints, or of a pod's node or
     * tolerations, is looked at (a heartbeat or a pod's status is not); a planned deletion fires.
     */
    handleUpdate: reaction<TaintEvictionControllerContext, ClusterEvent, ClusterEmitted>((context, event) => {
      // the caches are updated in place, for scale (the actor owns its context)
      const c: TaintEvictionControllerContext = { ...context };
      const out: Out = [];
      if (event.type === 'watch.added' || event.type === 'watch.modified' || event.type === 'watch.deleted') {
        const o = event.object;
        const gone = event.type === 'watch.deleted';
        if (o.kind === 'Node') {
          const before = c.taintedNodes[o.metadata.name] ?? [];
          if (!sameTaints(before, gone ? [] : noExecute(o))) handleNodeUpdate(c, gone ? undefined : o, o.metadata.name, event.now, out);
        } else if (o.kind === 'Pod') {
          const key = kobj(o);
          const old = c.pods[key];
          if (gone || !o.spec?.nodeName) {
            delete c.pods[key];
            if (old) cancelWorkWithEvent(c, key, out);
          } else {
            c.pods[key] = o;
            if (!old || old.spec?.nodeName !== o.spec.nodeName || !sameTolerations(old, o)) processPodOnNode(c, key, o.spec.nodeName as string, event.now, out);
          }
        }
      } else if (event.type === 'clock.ticked' && event.key.startsWith('evict:')) {
        const key = event.key.slice('evict:'.length);
        if (c.queue[key]) { c.queue[key] = null; deletePodHandler(c, key, event.now, out); }
      }
      return { ctx: c, out };
    }),
    forget: enqueueActions(({ enqueue }) => { enqueue.assign({ taintedNodes: {}, pods: {}, queue: {} }); }),
  },
}).createMachine({
  id: 'taintEvictionController',
  initial: 'NotStarted',
  context: ({ input }) => ({ epochUs: input.epochUs ?? 0, profile: input.profile, taintedNodes: {}, pods: {}, queue: {}, seq: 0 }),
  states: {
    NotStarted: { description: 'kube-controller-manager has not started the controller yet.', on: { 'component.started': 'Running' } },
    Running: {
      description: 'Watches Nodes and Pods; deletes the pods that do not tolerate a NoExecute taint of their node (taint_eviction.go).',
      on: {
        'host.shutdown': { target: 'NotStarted', actions: 'forget' },
        'watch.added': { actions: 'handleUpdate' },
        'watch.modified': { actions: 'handleUpdate' },
        'watch.deleted': { actions: 'handleUpdate' },
        'clock.ticked': { actions: 'handleUpdate' },
      },
    },
  },
});
