/**
 * The pod garbage collector of kube-controller-manager, reduced to what the storage flows need:
 * gcTerminating, which force-deletes the terminating pods of a node that is not Ready and carries the
 * node.kubernetes.io/out-of-service taint (non-graceful node shutdown: the kubelet that would finish
 * their deletion is gone). It marks such a pod Failed, then deletes it with grace period 0.
 * upstream: pkg/controller/podgc/gc_controller.go (gc every gcCheckPeriod 20s, gcTerminating,
 * markFailedAndDeletePodWithCondition), read at the 1.30/1.31 boundary; NodeOutOfServiceVolumeDetach
 * is GA (locked on) in 1.30, and gcTerminating does not exist in 1.20 (alpha in 1.24).
 * Leaves out: gcTerminated, gcOrphaned, gcUnscheduledTerminating (no scenario has such pods).
 * The 20 s loop runs from the controller's start; its passes are only taken while some node has the
 * taint (a pass that finds nothing prints nothing at -v=2), keeping upstream's phase.
 */
import { enqueueActions, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { isNodeReady, type K8sObject, kobj } from '../shared/k8s.ts';
import { summarize } from '../shared/messages.ts';
import { getProfile } from '../profiles/index.ts';
import { taintKeyExists, TAINT_NODE_OUT_OF_SERVICE } from '../shared/taints.ts';
import { POD_GC_CHECK_PERIOD } from '../shared/timing.ts';
import { isEmptyTable } from '../shared/tables.ts';
import { podGcControllerSummaries as summaries } from './podGcController.messages.ts';

export type PodGcControllerInput = ComponentInput;

export interface PodGcControllerContext {
  profile: PodGcControllerInput['profile'];
  /** when the controller started: its loop runs at startedAt + k x 20s */
  startedAt: number;
  nodes: Record<string, K8sObject>;
  /** pods bound to a node, by "ns/name" */
  pods: Record<string, K8sObject>;
  /** the next pass asked for (0: none) */
  nextAt: number;
  /** pods whose force delete is in flight */
  deleting: Record<string, true>;
  /** nodes that carry the out-of-service taint (kept with the node cache: a rollout of thousands of pods must not scan every node per event) */
  tainted: Record<string, true>;
  seq: number;
}

const TICK = 'gc';
const outOfService = (c: PodGcControllerContext): boolean => !isEmptyTable(c.tainted);

/** gcTerminating: terminating pods on a not-ready node with the out-of-service taint (the taint's key only, any effect). */
function gcTerminating(c: PodGcControllerContext, out: ClusterEmitted[]): void {
  const victims = Object.keys(c.pods).filter((key) => {
    const pod = c.pods[key]!;
    if (!pod.metadata.deletionTimestamp || c.deleting[key]) return false;
    const node = c.nodes[pod.spec?.nodeName as string];
    return !!node && !isNodeReady(node) && taintKeyExists(node, TAINT_NODE_OUT_OF_SERVICE);
  }).sort();
  for (const key of victims) markFailedAndDeletePod(c, key, out);
}

/** markFailedAndDeletePodWithCondition (no condition on this path): phase Failed, then a delete with grace 0. */
function markFailedAndDeletePod(c: PodGcControllerContext, key: string, out: ClusterEmitted[]): void {
  const pod = c.pods[key]!;
  const { namespace, name } = pod.metadata;
  c.deleting[key] = true;
  out.push({ type: 'log', msg: 'podGcController.forceDeletingPod', args: { pod: key } });
  const phase = pod.status?.phase;
  if (getProfile(c.profile).podGcMarksFailed && phase !== 'Succeeded' && phase !== 'Failed') {
    out.push({ type: 'api.request', requestId: `podgc-${++c.seq}`, verb: 'patchStatus', kind: 'Pod', namespace, name, patch: { status: { phase: 'Failed' } }, summary: summarize(summaries, 'podGcController.markFailed', { pod: key }) });
  }
  out.push({ type: 'api.request', requestId: `podgc-${++c.seq}`, verb: 'delete', kind: 'Pod', namespace, name, gracePeriodSeconds: 0, summary: summarize(summaries, 'podGcController.forceDelete', { pod: key }) });
}

/** The next loop boundary strictly after now. */
const nextPass = (c: PodGcControllerContext, now: number): number =>
  c.startedAt + (Math.floor((now - c.startedAt) / POD_GC_CHECK_PERIOD) + 1) * POD_GC_CHECK_PERIOD;

export const podGcControllerMachine = setup({
  types: { context: {} as PodGcControllerContext, events: {} as ClusterEvent, emitted: {} as ClusterEmitted, input: {} as PodGcControllerInput },
  actions: {
    start: enqueueActions(({ event, enqueue }) => { enqueue.assign({ startedAt: event.now, nextAt: 0 }); }),
    /** informer updates, and one gc pass per tick; the next tick is asked for while a node is out of service */
    gc: reaction<PodGcControllerContext, ClusterEvent, ClusterEmitted>((context, event) => {
      // the caches are updated in place, for scale (the actor owns its context)
      const c: PodGcControllerContext = { ...context };
      const out: ClusterEmitted[] = [];
      if (event.type === 'watch.added' || event.type === 'watch.modified' || event.type === 'watch.deleted') {
        const o = event.object;
        const gone = event.type === 'watch.deleted';
        if (o.kind === 'Node') {
          if (gone) delete c.nodes[o.metadata.name]; else c.nodes[o.metadata.name] = o;
          const was = !!c.tainted[o.metadata.name];
          const is = !gone && taintKeyExists(o, TAINT_NODE_OUT_OF_SERVICE);
          if (was !== is) { c.tainted = { ...c.tainted }; if (is) c.tainted[o.metadata.name] = true; else delete c.tainted[o.metadata.name]; }
        } else if (o.kind === 'Pod') {
          const key = kobj(o);
          if (gone || !o.spec?.nodeName) { delete c.pods[key]; delete c.deleting[key]; } else c.pods[key] = o;
        }
      } else if (event.type === 'clock.ticked' && event.key === TICK) {
        c.nextAt = 0;
        if (getProfile(c.profile).podGcTerminating) gcTerminating(c, out);
      }
      if (c.nextAt === 0 && getProfile(c.profile).podGcTerminating && outOfService(c)) {
        c.nextAt = nextPass(c, event.now);
        out.push({ type: 'timer.requested', key: TICK, at: c.nextAt });
      }
      return { ctx: c, out };
    }),
    forget: enqueueActions(({ enqueue }) => { enqueue.assign({ nodes: {}, pods: {}, deleting: {}, tainted: {}, nextAt: 0 }); }),
  },
}).createMachine({
  id: 'podGcController',
  initial: 'NotStarted',
  context: ({ input }) => ({ profile: input.profile, startedAt: 0, nodes: {}, pods: {}, nextAt: 0, deleting: {}, tainted: {}, seq: 0 }),
  states: {
    NotStarted: { description: 'kube-controller-manager has not started the controller yet.', on: { 'component.started': { target: 'Running', actions: 'start' } } },
    Running: {
      description: 'Every 20 s (gcCheckPeriod): force-deletes the terminating pods of out-of-service nodes that are not Ready (gc_controller.go gcTerminating).',
      on: {
        'host.shutdown': { target: 'NotStarted', actions: 'forget' },
        'watch.added': { actions: 'gc' },
        'watch.modified': { actions: 'gc' },
        'watch.deleted': { actions: 'gc' },
        'clock.ticked': { actions: 'gc' },
      },
    },
  },
});
