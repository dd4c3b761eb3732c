/**
 * The trace as it is recorded: steps in time order (a step is never stamped before the one before
 * it), numbered from the story start; the API objects and the components' tables as they stood when
 * recording began. Everything before `recordFrom` (the warm-up) is not recorded.
 */
import type { LogArgs } from '../shared/messages.ts';
import { keyOf, objectKey, type K8sObject } from '../shared/k8s.ts';
import type { ObjectChange, StepCause, StepKind, TraceStep } from './trace.ts';
import { newTable } from '../shared/tables.ts';

/** The part of a running component a step names. */
export interface StepActor {
  id: string; name: string; host: string;
  world?: unknown;
  /** the keyed states of the volumes and operations its current reaction changed */
  reactionStates?: Record<string, string>;
}

export interface StepInput {
  r: StepActor | null; kind: StepKind; t: number; summary: string; states: unknown;
  /** the keyed states to show instead of the current reaction's (an API step shows the reaction that sent the request) */
  reactionStates?: Record<string, string>;
  log?: string; msg?: string; severity?: TraceStep['severity']; stage?: TraceStep['stage'];
  api?: TraceStep['api']; rpc?: TraceStep['rpc']; hostCall?: TraceStep['hostCall']; objects?: ObjectChange[]; args?: LogArgs; variant?: string; fault?: string;
  cause?: StepCause;
}

export const USER = 'user';

export class TraceRecorder {
  readonly steps: TraceStep[] = [];
  /** how many steps were recorded (kept in `steps`, or handed to the sink) */
  count = 0;
  private last: TraceStep | undefined;
  /** time of the last recorded step: steps never go back in time */
  floor = 0;
  /** the API objects as they stood when recording started (taken at the first recorded step) */
  initialObjects: K8sObject[] | undefined;
  /** the tables every component already held when recording started (built during the warm-up) */
  worldsAtStart: Record<string, unknown> | undefined;

  constructor(
    private readonly opts: {
      recordFrom: number; recordObjects: boolean; captureWorld: boolean;
      /** hand each step here as it is recorded instead of keeping it (a large trace streamed out) */
      sink?: (step: TraceStep) => void;
    },
    private readonly snapshot: () => K8sObject[],
    private readonly worlds: () => Iterable<StepActor>,
  ) {}

  /** Record a step (undefined when it falls in the warm-up). */
  record(s: StepInput): TraceStep | undefined {
    const t = Math.max(s.t, this.floor);
    this.floor = t;
    const from = this.opts.recordFrom;
    if (t < from) return undefined;
    // the objects as they stood when recording started: now, minus this first step's own changes
    if (!this.initialObjects) this.initialObjects = this.objectsBefore(s.objects ?? []);
    if (this.count === 0 && this.opts.captureWorld) {
      this.worldsAtStart = {};
      for (const c of this.worlds()) if (c.world !== undefined && c !== s.r) this.worldsAtStart[c.id] = c.world;
    }
    // built field by field (not with conditional spreads: this runs for every step of a 10 000-replica
    // rollout); the key order is the trace's JSON order
    const step = {
      i: this.count + 1, t: (t - from) / 1000,
      component: s.r?.name ?? USER, instance: s.r?.id ?? USER, host: s.r?.host ?? 'kubectl', kind: s.kind,
      summary: s.summary,
    } as TraceStep;
    if (s.log) { step.log = s.log; step.msg = s.msg!; step.severity = s.severity!; }
    // (a log line always has a stage; a step without one has it where the work it shows has one: the kubelet's walk is the mount's)
    if (s.stage) step.stage = s.stage;
    if (s.args) step.args = s.args;
    if (s.variant) step.variant = s.variant;
    if (s.fault) step.fault = s.fault;
    if (s.cause) step.cause = s.cause;
    if (s.api) step.api = s.api;
    if (s.rpc) step.rpc = s.rpc;
    if (s.hostCall) step.hostCall = s.hostCall;
    if (s.objects && this.opts.recordObjects) step.objects = s.objects;
    if (s.r) {
      const states = newTable<unknown>();
      states[s.r.id] = s.states;
      const keyed = 'reactionStates' in s ? s.reactionStates : s.r.reactionStates;
      if (keyed) for (const k in keyed) states[k] = keyed[k];
      step.states = states;
    } else {
      step.states = {};
    }
    if (s.r?.world !== undefined) step.world = s.r.world;
    this.count += 1;
    this.last = step;
    if (this.opts.sink) this.opts.sink(step);
    else this.steps.push(step);
    return step;
  }

  /** The last recorded step, when the clock is inside the recording. */
  lastStepAt(nowUs: number): TraceStep | undefined {
    return nowUs >= this.opts.recordFrom ? this.last : undefined;
  }

  /** Story time (ms) of a cluster time. */
  storyMs(nowUs: number): number {
    return (nowUs - this.opts.recordFrom) / 1000;
  }

  /** The stored objects with `changes` undone (each change's `before` put back). */
  private objectsBefore(changes: ObjectChange[]): K8sObject[] {
    if (changes.length === 0) return this.snapshot();
    const byKey = new Map(this.snapshot().map((o) => [keyOf(o), o] as const));
    for (const ch of [...changes].reverse()) {
      const k = objectKey(ch.kind, ch.namespace, ch.name);
      if (ch.before) byKey.set(k, ch.before); else byKey.delete(k);
    }
    return [...byKey.values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  }
}
