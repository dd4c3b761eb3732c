/**
 * The flow model: a trace reshaped for a reader who steps through it (the site's flow player and
 * its no-JavaScript step list). Everything here is computed from the trace; nothing is added.
 *
 * - steps keep their summary, klog line, RPC and API call, and point at the object versions they
 *   wrote and at their sequence-diagram message;
 * - objects become tracks of versions, each rendered once as YAML with the lines this step changed
 *   marked, so a view can show "the PV as it is after step N" without replaying the trace;
 * - the attach/detach controller's and kubelet's desired/actual state of world (and a ceph backend's
 *   journal) become tracks too, with their running timers on the trace's clock.
 *
 * Pure data in, JSON-safe data out: the site serialises it to one file per scenario and version.
 * This file holds the types and the lookups a view runs per step (safe to ship to a browser: no
 * dependencies); building the model (with the YAML library) is in buildFlow.ts.
 */
import type { Kind } from '../shared/k8s.ts';
import type { ProfileId } from '../shared/messages.ts';
import type { StepCause, TraceStep } from '../cluster/trace.ts';
import type { WorldTimer } from '../shared/nestedPendingOperations.ts';
import { renderSequence, type SequenceMessage } from '../diagram/sequence.ts';
import { isWithinState } from '../shared/machineParts.ts';

export const FLOW_MODEL_VERSION = 2;

/** The kinds an inspector shows, in the order a reader of storage flows looks for them. */
export const INSPECTED_KINDS: readonly Kind[] = [
  'PersistentVolumeClaim', 'PersistentVolume', 'VolumeAttachment', 'Node', 'CSINode', 'Pod',
  'StorageClass', 'CSIDriver', 'StatefulSet', 'VolumeSnapshot', 'VolumeSnapshotContent', 'VolumeSnapshotClass', 'Secret',
];

export interface FlowLane {
  /** component instance id, e.g. "kubelet/node-1" */
  id: string;
  component: string;
  host: string;
  /** the program whose log stream the lane shows (container or daemon) */
  source: string;
}

/** A trace step's own fields (see TraceStep), without its bulky parts (objects, states, world, RPC payloads). */
export interface FlowStep extends Pick<TraceStep, 'i' | 't' | 'component' | 'instance' | 'host' | 'kind' | 'summary' | 'log' | 'msg' | 'severity' | 'stage' | 'api' | 'cause'> {
  rpc?: Omit<NonNullable<TraceStep['rpc']>, 'requestId' | 'request' | 'response'>;
  /** the object versions this step wrote: [object index, version index] */
  changes?: Array<[number, number]>;
  /** index into `messages` of this step's sequence-diagram message */
  message?: number;
  /** [world track index, version index] when the step changed a component's tables */
  world?: [number, number];
  /** the acting machine's state after the step, as text */
  state?: string;
  /** the states of the volumes, attachments or operations this step's machine acted on (its charts in `charts`) */
  machines?: StepMachine[];
  /** in a model for another language: the language `summary` is still in, when it has no translation ("en") */
  summaryLang?: string;
  /** in a model for another language: causeText(cause) in that language */
  why?: string;
}

/** A lifecycle or operation the step's machine acted on, and the state the step left it in. */
export interface StepMachine {
  /** index into FlowModel.charts */
  chart: number;
  /** what it is about, e.g. "volume_mount kubernetes.io/csi/…^vol-1 pod default/web-0" ("" for the component itself) */
  subject: string;
  /** its state after the step (dot-joined path) */
  state: string;
  /** its state before, when this step moved it */
  from?: string;
}

/** A machine's states and transitions, generated from its definition (lifecycles.ts flowChart). */
export interface FlowChart {
  /** the machine's id */
  id: string;
  /** its export name, e.g. mountVolumeMachine */
  name: string;
  /** in definition order; depth 1 for top-level states */
  states: Array<{ path: string; depth: number; initial?: true; final?: true; description?: string }>;
  transitions: Array<{ from: string; to: string; event: string; guard?: string }>;
}

export interface ObjectVersion {
  /** the step that wrote it; 0 for the state before the first step */
  step: number;
  /** YAML of the object after the step; null once deleted */
  yaml: string | null;
  /** 1-based lines of `yaml` this step changed */
  changed: number[];
  /** dotted paths (or list entries) this step removed */
  removed: string[];
}

export interface ObjectTrack {
  kind: Kind;
  namespace?: string;
  name: string;
  versions: ObjectVersion[];
}

export interface FlowTimer {
  name: WorldTimer['name'];
  subject: string;
  /** on the trace clock (ms since the scenario started) */
  startMs: number;
  endMs: number;
}

export interface WorldVersion {
  step: number;
  /** the component's tables (AdcWorld, KubeletWorld, or a ceph journal view) minus timers */
  tables: Record<string, unknown>;
  timers: FlowTimer[];
}

export interface WorldTrack {
  instance: string;
  component: string;
  versions: WorldVersion[];
}

export interface FlowModel {
  version: typeof FLOW_MODEL_VERSION;
  scenario: string;
  title: string;
  k8s: ProfileId;
  seed: number;
  options: Record<string, unknown>;
  durationMs: number;
  lanes: FlowLane[];
  steps: FlowStep[];
  objects: ObjectTrack[];
  worlds: WorldTrack[];
  /** sequence-diagram participants in first-appearance order (stable for any window) */
  participants: string[];
  messages: SequenceMessage[];
  /** the machines the steps' `machines` entries are states of */
  charts: FlowChart[];
}

/** The events of the chart's transitions from `from` (or a state inside it) to `to` (or one inside it); none when it has no such transition. */
export function movesBetween(chart: FlowChart, from: string, to: string): string[] {
  const out: string[] = [];
  for (const t of chart.transitions) {
    if (isWithinState(from, t.from) && isWithinState(to, t.to) && !out.includes(t.event)) out.push(t.event);
  }
  return out;
}

// ------------------------------------------------------------------ why a step happened

/** What a timer of a component stands for, by its key (the keys the machines set). */
function timerText(key: string): string {
  switch (key.split(':')[0]) {
    case 'reconcile': return 'its reconciler loop came round';
    case 'nodeStatus': return 'its node status update came due';
    case 'podWait': return 'the 2m3s wait for the pod’s volumes ran out';
    case 'podStart': return 'the pod’s containers finished starting';
    case 'csi': return 'the backend finished the work of the call';
    case 'poll': return 'its poll of the VolumeAttachment came due';
    case 'monitorNodeHealth': return 'its node health check came round';
    case 'probe': return 'its retry of the driver probe came due';
    default:
      if (/^(va|pv)\//.test(key)) return `the rate-limited retry of ${key.startsWith('va/') ? 'VolumeAttachment' : 'PersistentVolume'} ${key.slice(3)} came due`;
      return `its timer “${key}” fired`;
  }
}

/**
 * Why a step happened, in a sentence (without the step it points to, which a view shows as a link):
 * "its informer saw VolumeAttachment csi-… added".
 */
export function causeText(c: StepCause): string {
  switch (c.kind) {
    case 'watch': return `its informer saw ${c.object} ${c.event}`;
    case 'list': return `its informer listed ${c.object} at start-up`;
    case 'api-result': return `the API server answered its ${c.verb} of ${c.object} (${c.code})`;
    case 'request': return 'it is part of the same reaction';
    case 'csi-request': return `the ${c.rpc} call from ${c.from} arrived`;
    case 'csi-reply': return `the ${c.rpc} reply arrived (${c.code})`;
    case 'deadline': return `its ${c.rpc} call got no answer before its deadline`;
    case 'host': return `its ${c.op} walk over the volume's files on the node finished`;
    case 'timer': return timerText(c.key);
    case 'socket': return `the plugin watcher saw the socket ${c.path}`;
    case 'start': return 'the component started';
    case 'user': return 'the scenario’s action';
  }
}

// ------------------------------------------------------------------ lookups a view needs per step

/** Index of the newest version of `track` written at or before `step` (binary search), or -1. */
export function versionAt<T extends { step: number }>(versions: readonly T[], step: number): number {
  let lo = 0;
  let hi = versions.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (versions[mid]!.step <= step) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

/** The objects as they are after `step` (1-based; 0 = before the first step), deleted ones left out. */
export function objectsAt(model: FlowModel, step: number): Array<{ object: number; version: ObjectVersion; changedHere: boolean }> {
  const out: Array<{ object: number; version: ObjectVersion; changedHere: boolean }> = [];
  model.objects.forEach((t, object) => {
    const v = versionAt(t.versions, step);
    if (v < 0) return;
    const version = t.versions[v]!;
    if (version.yaml === null && version.step !== step) return;
    out.push({ object, version, changedHere: version.step === step && step > 0 });
  });
  return out;
}

/** Timers running at the step's time, across every world track. */
export function timersAt(model: FlowModel, step: number): Array<FlowTimer & { instance: string }> {
  const t = model.steps[step - 1]?.t ?? 0;
  const out: Array<FlowTimer & { instance: string }> = [];
  for (const w of model.worlds) {
    const v = versionAt(w.versions, step);
    if (v < 0) continue;
    for (const timer of w.versions[v]!.timers) if (timer.startMs <= t && t < timer.endMs) out.push({ ...timer, instance: w.instance });
  }
  return out.sort((a, b) => a.endMs - b.endMs);
}

/** Index of the sequence message at or before `step`, or -1 before the first one. */
export function messageAt(model: FlowModel, step: number): number {
  return versionAt(model.messages, step);
}

/**
 * Mermaid text for the messages [from, to) of the model, with every participant declared in the
 * model's order so lanes never move between windows. Long traces are shown a window at a time.
 */
export function mermaidWindow(model: FlowModel, from = 0, to = model.messages.length): string {
  const msgs = model.messages.slice(Math.max(0, from), Math.min(model.messages.length, to));
  const used = new Set<string>();
  for (const m of msgs) { used.add(m.from); used.add(m.to); }
  return renderSequence(model.participants.filter((p) => used.has(p)), msgs, {
    ...(from > 0 ? { before: { over: msgs[0]?.from ?? 'kube-apiserver', text: `… ${from} earlier messages` } } : {}),
    ...(to < model.messages.length ? { after: { over: msgs[msgs.length - 1]?.from ?? 'kube-apiserver', text: `… ${model.messages.length - to} more messages` } } : {}),
  });
}

/** "1m02.345s"-style offset on the trace clock, for step lists and timers. */
export function formatOffset(ms: number): string {
  const neg = ms < 0;
  let rest = Math.abs(ms);
  const min = Math.floor(rest / 60_000);
  rest -= min * 60_000;
  const sec = (rest / 1000).toFixed(3).padStart(6, '0');
  return `${neg ? '-' : ''}${min > 0 ? `${min}m${sec}` : String(Number(sec).toFixed(3))}s`;
}

/** The last step at or before story time `t` (ms), 1-based: the same moment in another run of the story. */
export function stepAtTime(model: Pick<FlowModel, 'steps'>, t: number): number {
  let lo = 0; let hi = model.steps.length - 1; let found = 0;
  while (lo <= hi) { const mid = (lo + hi) >> 1; if (model.steps[mid]!.t <= t) { found = mid; lo = mid + 1; } else hi = mid - 1; }
  return found + 1;
}
