/**
 * The node lifecycle controller of kube-controller-manager, reduced to what the storage flows need:
 * when a Node's Ready heartbeat is older than the 40s grace period, set its kubelet's conditions (Ready,
 * MemoryPressure, DiskPressure, PIDPressure) to Unknown ("Kubelet stopped posting node status."), queue the node
 * for the taint node.kubernetes.io/unreachable:NoExecute, record NodeNotReady, and turn the Ready condition of the
 * node's pods to False (MarkPodsNotReady). Checks every 5s, only while some node is Ready.
 * upstream (v1.20.5, v1.30.1): pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth,
 * tryUpdateNodeHealth, processTaintBaseEviction, doNoExecuteTaintingPass), pkg/controller/util/node/controller_utils.go
 * (RecordNodeStatusChange, MarkPodsNotReady). Leaves out: eviction, zones, disruption modes, leases (the heartbeat is
 * the Ready condition's lastHeartbeatTime), the tainting pass's own 100ms tick (the taint is written right after),
 * and a retry of a pod status write that failed (nodesToRetry).
 */
import { enqueueActions, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { goDuration, goTimeString, rfc3339 } from '../shared/goFormat.ts';
import { summarize } from '../shared/messages.ts';
import { NODE_MONITOR_GRACE_PERIOD, NODE_MONITOR_PERIOD } from '../shared/timing.ts';
import { nodeLifecycleControllerSummaries as summaries } from './nodeLifecycleController.messages.ts';

export interface NodeLifecycleControllerInput extends ComponentInput {
  /** wall-clock epoch (µs) of virtual time 0, to compare lastHeartbeatTime with the virtual clock */
  epochUs?: number;
}

interface Ctx { epochUs: number; nodes: Record<string, K8sObject>; pods: Record<string, K8sObject>; seq: number; ticking: boolean; marked: Record<string, true> }

const TICK = 'monitorNodeHealth';
const withoutKey = <T,>(o: Record<string, T>, k: string): Record<string, T> => { const r = { ...o }; delete r[k]; return r; };
type Cond = { type: string; status: string; lastHeartbeatTime?: string; lastTransitionTime?: string; reason?: string; message?: string };
const ready = (n: K8sObject): Cond | undefined => ((n.status?.conditions ?? []) as Cond[]).find((c) => c.type === 'Ready');
const anyReady = (c: Ctx): boolean => Object.values(c.nodes).some((n) => ready(n)?.status === 'True');
/** The conditions tryUpdateNodeHealth turns Unknown, in its order (NetworkUnavailable is the network plugin's). */
const NODE_CONDITION_TYPES = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

function monitor(c: Ctx, now: number): { ctx: Ctx; out: ClusterEmitted[] } {
  const out: ClusterEmitted[] = [];
  const marked = { ...c.marked };
  let seq = c.seq;
  // the condition's String(): its metav1.Times print as Go times, "2024-05-14 09:29:51 +0000 UTC" (a real v1.30.4 log)
  const goTime = (t: string | undefined): string => (t ? goTimeString(Date.parse(t) * 1000, 0, 'UTC', 0) : '0001-01-01 00:00:00 +0000 UTC');
  const condString = (x: Cond): string => `&NodeCondition{Type:${x.type},Status:${x.status},LastHeartbeatTime:${goTime(x.lastHeartbeatTime)},LastTransitionTime:${goTime(x.lastTransitionTime)},Reason:${x.reason ?? ''},Message:${x.message ?? ''},}`;
  for (const name of Object.keys(c.nodes).sort()) {
    const n = c.nodes[name]!;
    const r = ready(n);
    if (!r || r.status === 'Unknown' || marked[name] || !r.lastHeartbeatTime) continue;
    const age = c.epochUs + now - Date.parse(r.lastHeartbeatTime) * 1000;
    if (age <= NODE_MONITOR_GRACE_PERIOD) continue;
    marked[name] = true;
    const ts = rfc3339(c.epochUs + now);
    // tryUpdateNodeHealth: each of the kubelet's conditions is said and set Unknown (one it never posted is added)
    const conditions = [...((n.status?.conditions ?? []) as Cond[])];
    for (const type of NODE_CONDITION_TYPES) {
      const i = conditions.findIndex((x) => x.type === type);
      if (i < 0) {
        out.push({ type: 'log', msg: 'nodeLifecycleController.conditionNeverUpdated', args: { node: name, type } });
        conditions.push({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: n.metadata.creationTimestamp, lastTransitionTime: ts });
        continue;
      }
      const cur = conditions[i]!;
      out.push({ type: 'log', msg: 'nodeLifecycleController.nodeNotUpdated', args: { node: name, type, duration: goDuration(age * 1000), condition: condString(cur) } });
      if (cur.status !== 'Unknown') conditions[i] = { ...cur, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: ts };
    }
    out.push({ type: 'api.request', requestId: `nlc-${++seq}`, verb: 'patchStatus', kind: 'Node', name, patch: { status: { conditions } }, summary: summarize(summaries, 'nodeLifecycleController.readyUnknown', { node: name }) });
    // processTaintBaseEviction: decisionTimestamp is metav1.Now(): time.Time's String(), with the monotonic reading since the process started (virtual time 0)
    out.push({ type: 'log', msg: 'nodeLifecycleController.addingTaint', args: { node: name, time: goTimeString(c.epochUs + now, 0, 'UTC', Math.floor(now * 7919) % 1000, now) } });
    // RecordNodeStatusChange, once, on the change from Ready (it builds the reference by hand: APIVersion, Kind, Name, UID, no ResourceVersion)
    out.push({ type: 'log', msg: 'nodeLifecycleController.recordingStatusChange', args: { node: name, status: 'NodeNotReady' } });
    out.push({ type: 'event.recorded', involved: { kind: 'Node', name }, ref: ['apiVersion', 'uid'], eventType: 'Normal', reason: 'NodeNotReady', message: `Node ${name} status is now: NodeNotReady` });
    // MarkPodsNotReady: each pod on the node whose Ready condition is not False yet (UpdatePodCondition), its status
    // written (UpdateStatus, the informer's copy), then its Warning event
    out.push({ type: 'log', msg: 'nodeLifecycleController.markingPodsNotReady', args: { node: name } });
    for (const key of Object.keys(c.pods).sort()) {
      const pod = c.pods[key]!;
      if (pod.spec?.nodeName !== name) continue;
      const podConditions = (pod.status?.conditions ?? []) as Cond[];
      const podReady = podConditions.find((x) => x.type === 'Ready');
      if (!podReady || podReady.status === 'False') continue;
      const ns = pod.metadata.namespace ?? 'default';
      out.push({ type: 'log', msg: 'nodeLifecycleController.podNotReady', args: { name: pod.metadata.name, pod: `${ns}/${pod.metadata.name}` } });
      const status = { ...pod.status, conditions: podConditions.map((x) => (x.type === 'Ready' ? { ...x, status: 'False', lastTransitionTime: ts } : x)) };
      out.push({ type: 'api.request', requestId: `nlc-${++seq}`, verb: 'updateStatus', kind: 'Pod', namespace: ns, name: pod.metadata.name, object: { ...pod, status },
        summary: summarize(summaries, 'nodeLifecycleController.podReadyFalse', { pod: `${ns}/${pod.metadata.name}`, node: name }) });
      out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace: ns, name: pod.metadata.name }, eventType: 'Warning', reason: 'NodeNotReady', message: 'Node is not ready' });
    }
    // doNoExecuteTaintingPass (every 100ms): SwapNodeControllerTaint
    const taints = [...((n.spec?.taints ?? []) as unknown[]), { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: ts }];
    out.push({ type: 'api.request', requestId: `nlc-${++seq}`, verb: 'patch', kind: 'Node', name, patch: { spec: { taints } }, summary: summarize(summaries, 'nodeLifecycleController.unreachableTaint', { node: name }) });
  }
  return { ctx: { ...c, marked, seq }, out };
}

export const nodeLifecycleControllerMachine = setup({
  types: { context: {} as Ctx, events: {} as ClusterEvent, emitted: {} as ClusterEmitted, input: {} as NodeLifecycleControllerInput },
  actions: {
    /** informer update, or one monitorNodeHealth pass; keep the 5s timer only while a node is Ready */
    monitorNodeHealth: reaction<Ctx, ClusterEvent, ClusterEmitted>((context, event) => {
      let c = context;
      const out: ClusterEmitted[] = [];
      if (event.type === 'watch.added' || event.type === 'watch.modified' || event.type === 'watch.deleted') {
        // the informer cache is updated in place (the machine owns its context): every node's heartbeat
        // comes through here every 10s, and copying the cache on each made a large cluster quadratic
        const o = event.object;
        if (o.kind === 'Pod') {
          // (its pods, for MarkPodsNotReady: getPodsAssignedToNode reads the pod informer's index by node)
          const key = `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
          if (event.type === 'watch.deleted') delete c.pods[key]; else c.pods[key] = o;
        } else {
          const name = o.metadata.name;
          if (event.type === 'watch.deleted') delete c.nodes[name];
          else c.nodes[name] = o;
          if (ready(o)?.status === 'True' && c.marked[name]) c = { ...c, marked: withoutKey(c.marked, name) };
        }
      } else if (event.type === 'clock.ticked' && event.key === TICK) {
        const r = monitor({ ...c, ticking: false }, event.now);
        c = r.ctx;
        out.push(...r.out);
      }
      if (!c.ticking && anyReady(c)) {
        c = { ...c, ticking: true };
        out.push({ type: 'timer.requested', key: TICK, at: event.now + NODE_MONITOR_PERIOD });
      }
      return { ctx: c, out };
    }),
  },
}).createMachine({
  id: 'nodeLifecycleController',
  initial: 'NotStarted',
  context: ({ input }) => ({ epochUs: input.epochUs ?? 0, nodes: {}, pods: {}, seq: 0, ticking: false, marked: {} }),
  states: {
    NotStarted: { description: 'kube-controller-manager has not started the controller yet.', on: { 'component.started': 'Running' } },
    Running: {
      description: 'Watches Nodes and Pods and checks the nodes\' heartbeats every nodeMonitorPeriod (node_lifecycle_controller.go).',
      on: {
        'host.shutdown': { target: 'NotStarted', actions: 'monitorNodeHealth' },
        'watch.added': { actions: 'monitorNodeHealth' },
        'watch.modified': { actions: 'monitorNodeHealth' },
        'watch.deleted': { actions: 'monitorNodeHealth' },
        'clock.ticked': { actions: 'monitorNodeHealth' },
      },
    },
  },
});
