/**
 * The node lifecycle controller of kube-controller-manager, reduced to what the storage flows need:
 * when a Node's Ready heartbeat is older than the 40s grace period, set Ready (and the other
 * conditions) to Unknown ("Kubelet stopped posting node status.") and taint the node
 * node.kubernetes.io/unreachable:NoExecute. Checks every 5s, only while some node is Ready.
 * upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth,
 * tryUpdateNodeHealth, doNoExecuteTaintingPass). Leaves out: eviction, zones, disruption modes,
 * NotReady pods, leases (the heartbeat is the Ready condition's lastHeartbeatTime).
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

interface Ctx { epochUs: number; nodes: Record<string, K8sObject>; seq: number; ticking: boolean; marked: Record<string, true> }

const TICK = 'monitorNodeHealth';
const withoutKey = <T,>(o: Record<string, T>, k: string): Record<string, T> => { const r = { ...o }; delete r[k]; return r; };
type Cond = { type: string; status: string; lastHeartbeatTime?: string; lastTransitionTime?: string; reason?: string; message?: string };
const ready = (n: K8sObject): Cond | undefined => ((n.status?.conditions ?? []) as Cond[]).find((c) => c.type === 'Ready');
const anyReady = (c: Ctx): boolean => Object.values(c.nodes).some((n) => ready(n)?.status === 'True');

function monitor(c: Ctx, now: number): { ctx: Ctx; out: ClusterEmitted[] } {
  const out: ClusterEmitted[] = [];
  const marked = { ...c.marked };
  let seq = c.seq;
  for (const name of Object.keys(c.nodes).sort()) {
    const n = c.nodes[name]!;
    const r = ready(n);
    if (!r || r.status === 'Unknown' || marked[name] || !r.lastHeartbeatTime) continue;
    const age = c.epochUs + now - Date.parse(r.lastHeartbeatTime) * 1000;
    if (age <= NODE_MONITOR_GRACE_PERIOD) continue;
    marked[name] = true;
    const ts = rfc3339(c.epochUs + now);
    const conditions = ((n.status?.conditions ?? []) as Cond[]).map((x) => ({
      ...x, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: ts,
    }));
    // the condition's String(): its metav1.Times print as Go times, "2024-05-14 09:29:51 +0000 UTC" (a real v1.30.4 log)
    const goTime = (t: string | undefined): string => (t ? goTimeString(Date.parse(t) * 1000, 0, 'UTC', 0) : '0001-01-01 00:00:00 +0000 UTC');
    out.push({ type: 'log', msg: 'nodeLifecycleController.nodeNotUpdated', args: { node: name, duration: goDuration(age * 1000), condition: `&NodeCondition{Type:Ready,Status:${r.status},LastHeartbeatTime:${goTime(r.lastHeartbeatTime)},LastTransitionTime:${goTime(r.lastTransitionTime)},Reason:${r.reason ?? ''},Message:${r.message ?? ''},}` } });
    out.push({ type: 'api.request', requestId: `nlc-${++seq}`, verb: 'patchStatus', kind: 'Node', name, patch: { status: { conditions } }, summary: summarize(summaries, 'nodeLifecycleController.readyUnknown', { node: name }) });
    // (RecordNodeStatusChange builds the reference by hand: APIVersion, Kind, Name, UID, no ResourceVersion)
    out.push({ type: 'event.recorded', involved: { kind: 'Node', name }, ref: ['apiVersion', 'uid'], eventType: 'Normal', reason: 'NodeNotReady', message: `Node ${name} status is now: NodeNotReady` });
    // decisionTimestamp is metav1.Now(): time.Time's String(), with the monotonic reading since the process started (virtual time 0)
    out.push({ type: 'log', msg: 'nodeLifecycleController.addingTaint', args: { node: name, time: goTimeString(c.epochUs + now, 0, 'UTC', Math.floor(now * 7919) % 1000, now) } });
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
        const name = event.object.metadata.name;
        if (event.type === 'watch.deleted') delete c.nodes[name];
        else c.nodes[name] = event.object;
        if (ready(event.object)?.status === 'True' && c.marked[name]) c = { ...c, marked: withoutKey(c.marked, name) };
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
  context: ({ input }) => ({ epochUs: input.epochUs ?? 0, nodes: {}, seq: 0, ticking: false, marked: {} }),
  states: {
    NotStarted: { description: 'kube-controller-manager has not started the controller yet.', on: { 'component.started': 'Running' } },
    Running: {
      description: 'Watches Nodes and checks their heartbeats every nodeMonitorPeriod (node_lifecycle_controller.go).',
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
