/**
 * A trace: what running a scenario produced, step by step. Every field comes out of the machines
 * running in the cluster; nothing here is scripted.
 */
import type { K8sObject, Kind } from '../shared/k8s.ts';
import type { LogArgs, ProfileId, Severity, Stage } from '../shared/messages.ts';
import type { FaultReport } from './faults.ts';

/** 'host': a component's own work on its node's file system (the kubelet's SetVolumeOwnership walk), which no log line at -v=2 shows */
export type StepKind = 'log' | 'api' | 'rpc' | 'rpc-reply' | 'host' | 'state' | 'event' | 'user';

export interface ObjectChange {
  kind: Kind;
  namespace?: string;
  name: string;
  before: K8sObject | null;
  after: K8sObject | null;
}

/**
 * Why a step happened: what the acting component was handling when it recorded the step, from the
 * simulation's own routing (the watch event, API answer, CSI call or reply, timer, start-up or user
 * action that was delivered), with the step that caused it when that step is in the recording.
 */
export type StepCause = { step?: number } & (
  | { kind: 'watch'; event: 'added' | 'modified' | 'deleted'; object: string }
  | { kind: 'list'; object: string }
  | { kind: 'api-result'; verb: string; object: string; code: number }
  | { kind: 'request' }
  | { kind: 'csi-request'; rpc: string; from: string }
  | { kind: 'csi-reply'; rpc: string; code: string }
  | { kind: 'deadline'; rpc: string }
  /** its own work on the node's file system finished (host.call: the kubelet's SetVolumeOwnership) */
  | { kind: 'host'; op: string }
  | { kind: 'timer'; key: string }
  | { kind: 'socket'; path: string }
  | { kind: 'start' }
  | { kind: 'user' }
);

export interface TraceStep {
  /** 1-based position in the trace */
  i: number;
  /** virtual milliseconds since the scenario started */
  t: number;
  /** the component that acted, e.g. "external-attacher", "kubelet" */
  component: string;
  /** the component instance, e.g. "kubelet/node-1" */
  instance: string;
  host: string;
  kind: StepKind;
  /** one plain-English sentence */
  summary: string;
  /** at most one log line, in real klog format (journald prefix for host daemons) */
  log?: string;
  /** catalog id of the log message, and its severity */
  msg?: string;
  severity?: Severity;
  /**
   * the stage of the volume's life the step is part of: a log line's (the work its machine was doing), a CSI call's
   * and its answer's (the RPC's own, else the caller's work: NodeGetCapabilities inside a mount is the mount's,
   * a sidecar's start-up handshake `other`), an Event's (its reason's: FailedAttachVolume is an attach's), the kubelet's own
   * work on the node (the mount's), an API write's where its machine knows its work (ApiRequestEmitted.stage: a
   * VolumeAttachment's create and status, a PV's create and delete, the binding, the resize's and snapshots' writes);
   * none for the rest (pods' and nodes' status, state moves, the user's actions)
   */
  stage?: Stage;
  /** the values the log message was rendered from (the volume, node, pod… it names), as the machine gave them */
  args?: LogArgs;
  /** the message's summary variant the step says, when the machine chose one (MessageDef.variants) */
  variant?: string;
  api?: { verb: string; kind: Kind; namespace?: string; name: string; subresource?: string; code: number; reason?: string };
  /**
   * a CSI call (kind 'rpc': request) or its answer (kind 'rpc-reply': code, response, message);
   * `late`: the caller had stopped waiting (deadline passed, or it restarted), so the answer changed nothing for it
   */
  rpc?: { method: string; from: string; to: string; requestId: string; code?: string; request?: unknown; response?: unknown; message?: string; late?: boolean };
  /** a component's own work on its node's file system (kind 'host'): what, under which directory, for which fsGroup */
  hostCall?: { op: string; path: string; fsGroup: number; requestId: string };
  /** the injected fault that hit this step (its text form, as in trace.faults) */
  fault?: string;
  /** why it happened (see StepCause); absent for the scenario's own actions */
  cause?: StepCause;
  objects?: ObjectChange[];
  /** state value of the acting component's machine after the step */
  states: Record<string, unknown>;
  /**
   * with `captureWorld`: the acting component's internal tables after the step (the attach/detach
   * controller's and the kubelet's desired/actual state of world), when it has such a view
   */
  world?: unknown;
}

export interface Trace {
  scenario: string;
  title: string;
  k8s: ProfileId;
  seed: number;
  options: Record<string, unknown>;
  /** virtual milliseconds the run covered */
  durationMs: number;
  /** the cluster clock (virtual µs) at t = 0; times inside `world` tables are on that clock */
  originUs: number;
  components: Array<{ instance: string; component: string; host: string; source: string }>;
  steps: TraceStep[];
  /** whether steps carry their object changes (RunOptions.recordObjects); checkInvariants needs them */
  objectsRecorded: boolean;
  /**
   * the API objects as they stood when recording started: replaying each step's `objects` from here
   * gives `final`, but for node heartbeats (writes that change only resourceVersion and
   * lastHeartbeatTime are not steps)
   */
  initial: { objects: K8sObject[] };
  final: { objects: K8sObject[] };
  /** every injected fault, with each time it hit (a fault that never hit has no `fired` entries) */
  faults: FaultReport[];
  stats: { events: number; steps: number };
  /**
   * with `captureWorld`: each component's tables as they stand when recording starts (the warm-up
   * built them), so views can show them before the component's first recorded step
   */
  worldsAtStart?: Record<string, unknown>;
}
