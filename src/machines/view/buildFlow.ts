/**
 * Builds the flow model (see flow.ts) from a trace. Runs where traces are made (build time, tests,
 * the CLI); browsers receive the result as JSON and only need flow.ts.
 */
import { stringify, parseDocument, LineCounter, isMap, isSeq, isScalar, type Node as YamlNode } from 'yaml';
import type { K8sObject, Kind } from '../shared/k8s.ts';
import type { Trace, TraceStep } from '../cluster/trace.ts';
import type { WorldTimer } from '../shared/nestedPendingOperations.ts';
import { sequenceMessages } from '../diagram/sequence.ts';
import { flowChart, machineName, stateEntries } from './lifecycles.ts';
import type { AnyStateMachine } from 'xstate';
import { FLOW_MODEL_VERSION, movesBetween, type FlowChart, type FlowModel, type FlowStep, type ObjectTrack, type ObjectVersion, type WorldTrack, type WorldVersion } from './flow.ts';

const keyOf = (kind: string, namespace: string | undefined, name: string): string => `${kind}|${namespace ?? ''}|${name}`;

/**
 * What the inspector shows of an object: everything the API server holds, except the parts that
 * only add noise to a storage flow (a Node's addresses and images).
 */
export function inspectorView(o: K8sObject): K8sObject {
  if (o.kind !== 'Node' || !o.status) return o;
  const { addresses: _a, images: _i, ...status } = o.status as Record<string, unknown>;
  return { ...o, status } as K8sObject;
}

export function buildFlowModel(trace: Trace): FlowModel {
  const objects: ObjectTrack[] = [];
  const objectIndex = new Map<string, number>();

  // The objects at t=0 (created during the unrecorded warm-up): undo every recorded change, newest first.
  const atStart = new Map<string, K8sObject>();
  for (const o of trace.final.objects) if (o.kind !== 'Event') atStart.set(keyOf(o.kind, o.metadata.namespace, o.metadata.name), o);
  for (let s = trace.steps.length - 1; s >= 0; s--) {
    for (const ch of [...(trace.steps[s]!.objects ?? [])].reverse()) {
      if (ch.kind === 'Event') continue;
      const k = keyOf(ch.kind, ch.namespace, ch.name);
      if (ch.before) atStart.set(k, ch.before); else atStart.delete(k);
    }
  }
  const track = (kind: Kind, namespace: string | undefined, name: string): number => {
    const k = keyOf(kind, namespace, name);
    let idx = objectIndex.get(k);
    if (idx === undefined) {
      idx = objects.length;
      objectIndex.set(k, idx);
      objects.push({ kind, ...(namespace ? { namespace } : {}), name, versions: [] });
    }
    return idx;
  };
  for (const [, o] of [...atStart].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const idx = track(o.kind, o.metadata.namespace, o.metadata.name);
    objects[idx]!.versions.push({ step: 0, yaml: remembered(`\u0001${JSON.stringify(o)}`, () => ({ yaml: toYaml(o), changed: [], removed: [] })).yaml, changed: [], removed: [] });
  }

  const messages = sequenceMessages(trace);
  const messageOfStep = new Map<number, number>();
  messages.forEach((m, i) => messageOfStep.set(m.step, i));

  const worlds: WorldTrack[] = [];
  const worldIndex = new Map<string, number>();
  const lastWorld = new Map<string, string>();

  for (const [instance, world] of Object.entries(trace.worldsAtStart ?? {})) {
    if (world === undefined || world === null) continue;
    const component = trace.components.find((c) => c.instance === instance)?.component ?? instance;
    worldIndex.set(instance, worlds.length);
    lastWorld.set(instance, JSON.stringify(world));
    worlds.push({ instance, component, versions: [worldVersion(0, world as Record<string, unknown>, trace.originUs)] });
  }

  // the charts of the machines the steps acted on, and each subject's last state (for `from`)
  const charts: FlowChart[] = [];
  const chartIndex = new Map<AnyStateMachine, number>();
  const lastState = new Map<string, string>();
  const stepMachines = (st: TraceStep): NonNullable<FlowStep['machines']> => {
    const acted: NonNullable<FlowStep['machines']> = [];
    for (const e of stateEntries(st)) {
      const before = lastState.get(e.key);
      lastState.set(e.key, e.state);
      // the component's own state is the step's `state`; list it here only when this step moved it
      if (e.subject === '' && (before === undefined || before === e.state)) continue;
      let chart = chartIndex.get(e.machine);
      if (chart === undefined) {
        chart = charts.length;
        chartIndex.set(e.machine, chart);
        charts.push(flowChart(e.machine, machineName(e.machine)));
      }
      // a move the machine has a transition for; otherwise an operation that ended and was started
      // again for the same volume (a new run), or one reaction passed through states no step shows
      const moved = before !== undefined && before !== e.state && movesBetween(charts[chart]!, before, e.state).length > 0;
      acted.push({ chart, subject: e.subject, state: e.state, ...(moved ? { from: before } : {}) });
    }
    return acted;
  };
  const steps: FlowStep[] = trace.steps.map((st) => {
    const out: FlowStep = {
      i: st.i, t: st.t, component: st.component, instance: st.instance, host: st.host, kind: st.kind, summary: st.summary,
    };
    if (st.log) Object.assign(out, { log: st.log, msg: st.msg, severity: st.severity });
    if (st.stage) out.stage = st.stage;
    if (st.rpc) {
      const { method, from, to, code, message } = st.rpc;
      out.rpc = { method, from, to, ...(code !== undefined ? { code } : {}), ...(message !== undefined ? { message } : {}) };
    }
    if (st.api) out.api = st.api;
    if (st.cause) out.cause = st.cause;
    const changes: Array<[number, number]> = [];
    for (const ch of st.objects ?? []) {
      if (ch.kind === 'Event') continue;
      const idx = track(ch.kind, ch.namespace, ch.name);
      const t = objects[idx]!;
      const prev = ch.before ? inspectorView(ch.before) : null;
      const next = ch.after ? inspectorView(ch.after) : null;
      t.versions.push(versionOf(st.i, prev, next));
      changes.push([idx, t.versions.length - 1]);
    }
    if (changes.length) out.changes = changes;
    const m = messageOfStep.get(st.i);
    if (m !== undefined) out.message = m;
    const state = stateText(st);
    if (state) out.state = state;
    const acted = stepMachines(st);
    if (acted.length) out.machines = acted;
    if (st.world !== undefined && st.world !== null) {
      const text = JSON.stringify(st.world);
      if (lastWorld.get(st.instance) !== text) {
        lastWorld.set(st.instance, text);
        let w = worldIndex.get(st.instance);
        if (w === undefined) {
          w = worlds.length;
          worldIndex.set(st.instance, w);
          worlds.push({ instance: st.instance, component: st.component, versions: [] });
        }
        worlds[w]!.versions.push(worldVersion(st.i, st.world as Record<string, unknown>, trace.originUs));
        out.world = [w, worlds[w]!.versions.length - 1];
      }
    }
    return out;
  });

  const participants: string[] = [];
  const seen = new Set<string>();
  const see = (p: string): void => { if (!seen.has(p)) { seen.add(p); participants.push(p); } };
  if (messages.some((m) => m.from === 'user')) see('user');
  see('kube-apiserver');
  for (const m of messages) { see(m.from); see(m.to); }

  return {
    version: FLOW_MODEL_VERSION,
    scenario: trace.scenario, title: trace.title, k8s: trace.k8s, seed: trace.seed, options: trace.options,
    durationMs: trace.durationMs,
    lanes: trace.components.map((c) => ({ id: c.instance, component: c.component, host: c.host, source: c.source })),
    steps, objects, worlds, participants, messages, charts,
  };
}

function stateText(st: TraceStep): string | undefined {
  const v = st.states[st.instance];
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function worldVersion(step: number, world: Record<string, unknown>, originUs: number): WorldVersion {
  const { timers, ...tables } = world as { timers?: WorldTimer[] } & Record<string, unknown>;
  return {
    step, tables,
    timers: (timers ?? []).map((t) => ({ name: t.name, subject: t.subject, startMs: (t.startedAt - originUs) / 1000, endMs: (t.endsAt - originUs) / 1000 })),
  };
}

// ------------------------------------------------------------------ YAML with changed lines

export function toYaml(o: unknown): string {
  return stringify(o, { lineWidth: 0, aliasDuplicateObjects: false });
}

/**
 * Object versions already rendered, by the JSON of the object before and after: a what-if run in the
 * reader's browser shows mostly the same versions as the flow it changes (and as the run that warmed
 * the worker up), and printing then re-parsing YAML was most of building a flow model (20 of 67 ms for
 * pod-migration here). JSON text is cheap to make and names a version exactly (key order included,
 * which the YAML keeps). Bounded: emptied when full, so a long-lived process never grows with it.
 */
const VERSIONS = new Map<string, Omit<ObjectVersion, 'step'>>();
const VERSIONS_MAX = 4096;

type Path = Array<string | number>;
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Paths in `after` that differ from `before`, and what `before` had that `after` lacks. Lists are
 * compared as sets (finalizers, volumesAttached, conditions): an entry is changed when no equal entry
 * was there before, so appending to a list marks only the new entry.
 */
export function diffPaths(before: unknown, after: unknown, path: Path = []): { changed: Path[]; removed: string[] } {
  const changed: Path[] = [];
  const removed: string[] = [];
  const label = (p: Path): string => p.map((x) => (typeof x === 'number' ? `[${x}]` : x)).join('.').replace(/\.\[/g, '[');
  if (isObj(before) && isObj(after)) {
    for (const [k, v] of Object.entries(after)) {
      if (!(k in before)) changed.push([...path, k]);
      else if (!same(before[k], v)) {
        const sub = diffPaths(before[k], v, [...path, k]);
        changed.push(...sub.changed);
        removed.push(...sub.removed);
      }
    }
    for (const k of Object.keys(before)) if (!(k in after)) removed.push(label([...path, k]));
    return { changed, removed };
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const pool = before.map((b) => JSON.stringify(b));
    const used = new Set<number>();
    after.forEach((a, i) => {
      const text = JSON.stringify(a);
      const j = pool.findIndex((b, bi) => b === text && !used.has(bi));
      if (j >= 0) used.add(j);
      else changed.push([...path, i]);
    });
    pool.forEach((b, bi) => { if (!used.has(bi)) removed.push(`${label(path)}: ${b}`); });
    return { changed, removed };
  }
  if (!same(before, after)) changed.push(path);
  return { changed, removed };
}

function versionOf(step: number, before: K8sObject | null, after: K8sObject | null): ObjectVersion {
  if (!after) return { step, yaml: null, changed: [], removed: [] };
  const v = remembered(`${before ? JSON.stringify(before) : ''}\u0000${JSON.stringify(after)}`, () => renderVersion(before, after));
  // fresh arrays: a model's versions are its own, whoever else shows the same one
  return { step, yaml: v.yaml, changed: [...v.changed], removed: [...v.removed] };
}

function remembered(key: string, render: () => Omit<ObjectVersion, 'step'>): Omit<ObjectVersion, 'step'> {
  let v = VERSIONS.get(key);
  if (!v) {
    v = render();
    if (VERSIONS.size >= VERSIONS_MAX) VERSIONS.clear();
    VERSIONS.set(key, v);
  }
  return v;
}

function renderVersion(before: K8sObject | null, after: K8sObject): Omit<ObjectVersion, 'step'> {
  const yaml = toYaml(after);
  if (!before) return { yaml, changed: lineRange(1, yaml.split('\n').length - 1), removed: [] };
  const { changed, removed } = diffPaths(before, after);
  return { yaml, changed: linesOf(yaml, changed), removed };
}

function lineRange(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}

/** The YAML lines (1-based) that hold each path: its key line through the end of its value. */
export function linesOf(yaml: string, paths: Path[]): number[] {
  if (!paths.length) return [];
  const lc = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter: lc });
  const lines = new Set<number>();
  const lineAt = (offset: number): number => lc.linePos(offset).line;
  for (const p of paths) {
    let node: YamlNode | null | undefined = doc.contents as YamlNode | null;
    let start: number | undefined;
    let end: number | undefined;
    for (const seg of p) {
      if (isMap(node)) {
        const pair = node.items.find((it) => isScalar(it.key) && it.key.value === seg);
        if (!pair) { node = undefined; break; }
        start = (pair.key as YamlNode).range?.[0];
        node = pair.value as YamlNode | null;
        end = node?.range?.[1] ?? (pair.key as YamlNode).range?.[1];
      } else if (isSeq(node) && typeof seg === 'number') {
        const item = node.items[seg] as YamlNode | undefined;
        if (!item) { node = undefined; break; }
        start = item.range?.[0];
        end = item.range?.[1];
        node = item;
      } else { node = undefined; break; }
    }
    if (start === undefined || end === undefined) continue;
    const a = lineAt(start);
    // a range ends after the value's trailing newline: step back onto the value's last character
    const b = lineAt(Math.max(start, end - 1));
    for (let l = a; l <= b; l++) lines.add(l);
  }
  return [...lines].sort((x, y) => x - y);
}
