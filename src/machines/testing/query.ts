/**
 * Questions a team's test asks of a trace, without walking its steps by hand:
 *
 *   expect(phaseAt(trace, 'Pod', 'web-0')).toBe('Running');                  // at the end
 *   expect(phaseAt(trace, 'Pod', 'web-0', 30_000)).toBe('Pending');          // at story time 30s
 *   expect(rpcCalls(trace, 'NodeStageVolume').map((c) => c.code)).toEqual(['INTERNAL', 'OK']);
 *   expect(eventsOf(trace, 'FailedMount')).toHaveLength(1);
 *   const detach = firstStep(trace, { msg: 'attachDetachController.detachVolumeStarted' });
 *
 * Times are story milliseconds (trace t). Objects are replayed from trace.initial through each
 * step's changes, so they need a trace recorded with its objects (the default).
 */
import type { Trace, TraceStep } from '../cluster/trace.ts';
import type { CsiRpc } from '../shared/csi.ts';
import { objectKey, type K8sObject, type Kind } from '../shared/k8s.ts';

const split = (kind: Kind, name: string, namespace?: string): { ns: string | undefined; name: string } => {
  if (namespace !== undefined || !name.includes('/')) return { ns: namespace ?? (CLUSTER_KINDS.has(kind) ? undefined : 'default'), name };
  const [ns, n] = name.split('/') as [string, string];
  return { ns, name: n };
};
const CLUSTER_KINDS = new Set<Kind>(['PersistentVolume', 'StorageClass', 'VolumeAttachment', 'Node', 'CSINode', 'CSIDriver', 'VolumeSnapshotContent', 'VolumeSnapshotClass']);

function requireObjects(trace: Trace): void {
  if (trace.objectsRecorded === false) throw new TypeError('this trace was recorded without objects (recordObjects: false): run it with the default to ask about objects');
}

/**
 * The object as it stood at story time `t` (ms; default: the end), after every step at or before
 * `t`. `name` may be "namespace/name"; namespaced kinds default to "default". Undefined when it did
 * not exist then.
 */
export function objectAt<K extends Kind>(trace: Trace, kind: K, name: string, t = Infinity, namespace?: string): K8sObject<K> | undefined {
  requireObjects(trace);
  const { ns, name: n } = split(kind, name, namespace);
  const key = objectKey(kind, ns, n);
  let cur: K8sObject | undefined = trace.initial.objects.find((o) => objectKey(o.kind, o.metadata.namespace, o.metadata.name) === key);
  for (const st of trace.steps) {
    if (st.t > t) break;
    for (const ch of st.objects ?? []) if (ch.kind === kind && ch.name === n && (ch.namespace ?? undefined) === ns) cur = ch.after ?? undefined;
  }
  return cur as K8sObject<K> | undefined;
}

/** Every object of a kind as they stood at story time `t` (default: the end). */
export function objectsOf<K extends Kind>(trace: Trace, kind: K, t = Infinity): Array<K8sObject<K>> {
  requireObjects(trace);
  const m = new Map<string, K8sObject>();
  for (const o of trace.initial.objects) if (o.kind === kind) m.set(objectKey(o.kind, o.metadata.namespace, o.metadata.name), o);
  for (const st of trace.steps) {
    if (st.t > t) break;
    for (const ch of st.objects ?? []) {
      if (ch.kind !== kind) continue;
      const k = objectKey(ch.kind, ch.namespace, ch.name);
      if (ch.after) m.set(k, ch.after); else m.delete(k);
    }
  }
  return [...m.values()] as Array<K8sObject<K>>;
}

/**
 * status.phase of a Pod, PersistentVolumeClaim or PersistentVolume at story time `t` (default: the
 * end); for a VolumeAttachment "attached" / "detached"; "Terminating" for a pod being deleted;
 * undefined when the object did not exist.
 */
export function phaseAt(trace: Trace, kind: Kind, name: string, t = Infinity, namespace?: string): string | undefined {
  const o = objectAt(trace, kind, name, t, namespace) as K8sObject | undefined;
  if (!o) return undefined;
  if (kind === 'VolumeAttachment') return o.status?.attached ? 'attached' : 'detached';
  if (kind === 'Pod' && o.metadata.deletionTimestamp) return 'Terminating';
  return o.status?.phase;
}

/** What a step must have to match: any of its fields (rpc: the short RPC name; log: a regular expression or text it contains). */
export interface StepMatcher {
  kind?: TraceStep['kind'];
  component?: string;
  instance?: string;
  host?: string;
  msg?: string;
  stage?: TraceStep['stage'];
  severity?: TraceStep['severity'];
  rpc?: CsiRpc;
  log?: RegExp | string;
  summary?: RegExp | string;
  /** from this story time on (ms) */
  after?: number;
}

const matches = (st: TraceStep, m: StepMatcher): boolean =>
  (m.kind === undefined || st.kind === m.kind) && (m.component === undefined || st.component === m.component)
  && (m.instance === undefined || st.instance === m.instance) && (m.host === undefined || st.host === m.host)
  && (m.msg === undefined || st.msg === m.msg) && (m.stage === undefined || st.stage === m.stage)
  && (m.severity === undefined || st.severity === m.severity) && (m.rpc === undefined || st.rpc?.method.split('/').pop() === m.rpc)
  && (m.log === undefined || (st.log !== undefined && (typeof m.log === 'string' ? st.log.includes(m.log) : m.log.test(st.log))))
  && (m.summary === undefined || (typeof m.summary === 'string' ? st.summary.includes(m.summary) : m.summary.test(st.summary)))
  && (m.after === undefined || st.t >= m.after);

/** The first step matching a predicate or a matcher, or undefined. */
export function firstStep(trace: Trace, predicate: ((st: TraceStep) => boolean) | StepMatcher): TraceStep | undefined {
  const p = typeof predicate === 'function' ? predicate : (st: TraceStep) => matches(st, predicate);
  return trace.steps.find(p);
}

/** Every step matching a predicate or a matcher. */
export function stepsWhere(trace: Trace, predicate: ((st: TraceStep) => boolean) | StepMatcher): TraceStep[] {
  const p = typeof predicate === 'function' ? predicate : (st: TraceStep) => matches(st, predicate);
  return trace.steps.filter(p);
}

/** One CSI call and how it ended. */
export interface RpcCall {
  rpc: CsiRpc;
  /** the step of the call and its story time (ms) */
  step: number;
  t: number;
  /** caller instance ("kubelet/node-1", "external-attacher") and the plugin it called */
  from: string;
  to: string;
  request: Record<string, unknown>;
  /** the answer: its code, or undefined while none came within the trace */
  code?: string;
  message?: string;
  response?: unknown;
  replyStep?: number;
  /** the answer came after the caller had stopped waiting (its deadline passed) */
  late?: boolean;
  /** the injected fault that hit the call */
  fault?: string;
}

/** The CSI calls of one RPC (short name, as faults name them: "NodeStageVolume"), in order, with their answers. */
export function rpcCalls(trace: Trace, rpc: CsiRpc): RpcCall[] {
  const out: RpcCall[] = [];
  const byId = new Map<string, RpcCall>();
  for (const st of trace.steps) {
    if (!st.rpc || st.rpc.method.split('/').pop() !== rpc) continue;
    if (st.kind === 'rpc') {
      const c: RpcCall = {
        rpc, step: st.i, t: st.t, from: st.rpc.from, to: st.rpc.to, request: (st.rpc.request ?? {}) as Record<string, unknown>,
        ...(st.fault ? { fault: st.fault } : {}),
      };
      out.push(c);
      byId.set(`${st.rpc.from}#${st.rpc.requestId}`, c);
    } else if (st.kind === 'rpc-reply') {
      const c = byId.get(st.rpc.requestId);
      if (!c) continue;
      c.code = st.rpc.code;
      if (st.rpc.message !== undefined) c.message = st.rpc.message;
      if (st.rpc.response !== undefined) c.response = st.rpc.response;
      c.replyStep = st.i;
      if (st.rpc.late) c.late = true;
    }
  }
  return out;
}

/** A Kubernetes Event as a step recorded it. */
export interface RecordedEvent {
  step: number;
  t: number;
  reason: string;
  type: 'Normal' | 'Warning';
  message: string;
  involved: { kind: string; namespace?: string; name: string };
  /** the component that recorded it */
  component: string;
  /** how many times it had been seen then (repeats are aggregated into one Event) */
  count: number;
}

/** The Events with this reason (all Events without one), in the order they were recorded. */
export function eventsOf(trace: Trace, reason?: string): RecordedEvent[] {
  requireObjects(trace);
  const out: RecordedEvent[] = [];
  for (const st of trace.steps) {
    if (st.kind !== 'event') continue;
    for (const ch of st.objects ?? []) {
      const e = ch.after;
      if (ch.kind !== 'Event' || !e || (reason !== undefined && e.reason !== reason)) continue;
      out.push({
        step: st.i, t: st.t, reason: e.reason, type: e.type, message: e.message, component: st.component, count: e.count ?? 1,
        involved: { kind: e.involvedObject.kind, ...(e.involvedObject.namespace ? { namespace: e.involvedObject.namespace } : {}), name: e.involvedObject.name },
      });
    }
  }
  return out;
}
