/**
 * What each component is and does, derived from the machines and their traces (never typed in by
 * hand): where it runs and which log stream it writes (the standard topology), what its informers
 * watch (its descriptor), and what it actually writes to the API server, which CSI RPCs it calls or
 * serves, which Events it records and which catalog lines it prints, found by running every
 * scenario on both version profiles. Pages read it at build time to describe components, draw the
 * map of components and objects, and list the CSI RPCs.
 *
 * Pure data in, JSON-safe data out, except `machines`, which hands the pages the XState machines
 * to chart. The scenario runs are done once per process and cached.
 */
import type { AnyStateMachine } from 'xstate';
import type { ComponentSpec } from '../cluster/cluster.ts';
import type { Trace } from '../cluster/trace.ts';
import { catalog } from '../catalog.ts';
import { DRIVERS } from '../drivers/index.ts';
import { PROFILE_IDS, getProfile } from '../profiles/index.ts';
import { SCENARIOS } from '../scenarios/index.ts';
import { runScenario } from '../scenarios/run.ts';
import { buildComponents, CONTROL_PLANE_HOST, CSI_CONTROLLER_HOST, SNAPSHOT_CONTROLLER_HOST } from '../scenarios/topology.ts';
import type { ComponentDescriptor } from '../shared/contract.ts';
import type { Kind } from '../shared/k8s.ts';
import type { LogSource, MessageDef, ProfileId, Severity, Stage } from '../shared/messages.ts';
import { COMPONENT_FOLDERS } from '../registry.ts';
import type { TakenStates } from '../diagram/stateChart.ts';
import { TakenTally } from './lifecycles.ts';

export type ComponentGroup = 'control-plane' | 'csi-sidecar' | 'csi-plugin' | 'node';

/** The groups in the order a reader meets them on the way from a claim to a mounted volume. */
export const COMPONENT_GROUPS: ReadonlyArray<{ id: ComponentGroup; title: string }> = [
  { id: 'control-plane', title: 'Control plane controllers' },
  { id: 'csi-sidecar', title: 'CSI sidecars' },
  { id: 'csi-plugin', title: 'CSI driver plugins' },
  { id: 'node', title: 'Node' },
];

const GROUP_OF_SOURCE: Record<LogSource, ComponentGroup> = {
  'kube-controller-manager': 'control-plane', 'kube-scheduler': 'control-plane',
  'csi-provisioner': 'csi-sidecar', 'csi-attacher': 'csi-sidecar', 'csi-resizer': 'csi-sidecar',
  'csi-snapshotter': 'csi-sidecar', 'snapshot-controller': 'control-plane', 'node-driver-registrar': 'csi-sidecar',
  'csi-driver-controller': 'csi-plugin', 'csi-driver-node': 'csi-plugin',
  kubelet: 'node',
};

export type CsiService = 'Identity' | 'Controller' | 'Node' | 'Registration';
export const CSI_SERVICES: readonly CsiService[] = ['Identity', 'Controller', 'Node', 'Registration'];

/** API kinds in the order a reader of storage flows looks for them; others follow alphabetically. */
export const KIND_ORDER: readonly Kind[] = [
  'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'VolumeAttachment', 'Pod', 'Node',
  'CSINode', 'CSIDriver', 'StatefulSet', 'VolumeSnapshot', 'VolumeSnapshotContent', 'VolumeSnapshotClass', 'Secret', 'Event',
];
export const sortKinds = (kinds: Iterable<Kind>): Kind[] =>
  [...new Set(kinds)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const rank = (k: Kind): number => (KIND_ORDER.includes(k) ? KIND_ORDER.indexOf(k) : KIND_ORDER.length);

export interface MessageFormatFacts {
  profile: ProfileId;
  file: string;
  line: number;
  /** printf (`text`) or structured (`msg` quoted, then key/values) */
  style: 'printf' | 'structured';
  /** the template as the line prints it: `text`, or `"msg" kv` */
  template: string;
  severity: Severity;
  /** klog -v the line needs */
  v: number;
  /** -v the program runs at in this profile (as commonly deployed) */
  defaultV: number;
}

export interface MessageFacts {
  id: string;
  source: LogSource;
  stage: Stage;
  severity: Severity;
  summary: string;
  explain?: string;
  cause?: string;
  next?: string;
  formats: MessageFormatFacts[];
  /** a line of a library every component links (client-go), not of the component's own catalog */
  shared: boolean;
  /** scenario ids whose story prints it, per profile */
  seen: Record<ProfileId, string[]>;
  /** profiles in which the cluster's start-up (before any story) prints it */
  atStartup: ProfileId[];
}

interface Seen {
  /** times seen over every run (start-up included), both profiles */
  count: number;
  /** scenario ids whose story (not only the start-up) shows it */
  scenarios: string[];
  /** seen only while the cluster starts, before any story */
  startupOnly: boolean;
  profiles: ProfileId[];
}

export interface ApiWriteFacts extends Seen {
  verb: string;
  kind: Kind;
  /** HTTP codes the API server answered */
  codes: number[];
}

export interface RpcFacts extends Seen {
  rpc: string;
  service: CsiService;
  /** full gRPC method, e.g. /csi.v1.Controller/ControllerPublishVolume */
  method: string;
  /** the components on the other end: callees for calls, callers for served RPCs */
  peers: string[];
  /** gRPC codes of the replies, e.g. OK, INTERNAL */
  codes: string[];
}

export interface EventFacts extends Seen {
  reason: string;
  type: string;
  /** kind of the object the Event is about */
  involvedKind: string;
}

export interface MachineFacts {
  /** the machine's id in its definition */
  id: string;
  /** the export name in its folder's index.ts */
  exportName: string;
  /** the component's own machine, or a per-object lifecycle it drives */
  role: 'component' | 'lifecycle';
  machine: AnyStateMachine;
  /** the states and moves the scenarios' traces (both profiles, start-up included) show it in */
  taken: TakenStates;
}

export interface ComponentFacts {
  name: string;
  group: ComponentGroup;
  /** the program whose log stream holds its lines */
  source: LogSource;
  /** `daemon`: a host process under systemd, logging through journald; `container`: a container's stdout */
  logKind: 'container' | 'daemon';
  /** where the standard topology runs it */
  placement: 'control-plane' | 'csi-controller-pod' | 'own-deployment' | 'every-node';
  hosts: string[];
  watches: Kind[];
  /** kinds it watches only for its own node (field selectors) */
  nodeScoped: Kind[];
  watchesPluginSockets: boolean;
  writes: ApiWriteFacts[];
  events: EventFacts[];
  calls: RpcFacts[];
  serves: RpcFacts[];
  messages: MessageFacts[];
  /** scenarios whose story it acts in, with its step count per profile */
  scenarios: Array<{ id: string; title: string; steps: Partial<Record<ProfileId, number>> }>;
  machines: MachineFacts[];
}

/** Each component folder's public module, to find the lifecycle machines a component drives. */
const FOLDERS = COMPONENT_FOLDERS;

const isMachine = (v: unknown): v is AnyStateMachine =>
  typeof v === 'object' && v !== null && 'root' in v && 'config' in v && typeof (v as { transition?: unknown }).transition === 'function';

/** `/csi.v1.Controller/CreateVolume` → Controller, CreateVolume. */
export function parseMethod(method: string): { service: CsiService; rpc: string } | undefined {
  const m = /^\/(?:csi\.v\d+\.(Identity|Controller|Node)|pluginregistration\.(Registration))\/(\w+)$/.exec(method);
  if (!m) return undefined;
  return { service: (m[1] ?? m[2]) as CsiService, rpc: m[3]! };
}

/** The components of the standard topology, one spec per distinct component, with every host it runs on. */
function topology(): Array<{ spec: ComponentSpec; hosts: string[] }> {
  const byName = new Map<string, { spec: ComponentSpec; hosts: Set<string> }>();
  for (const scenario of SCENARIOS) {
    const data = scenario.build({ k8s: '1.30', seed: 1, replicas: scenario.defaultReplicas ?? 1 });
    const driver = typeof data.driver === 'string' ? DRIVERS[data.driver] : data.driver;
    if (!driver) continue;
    for (const spec of buildComponents(data, driver, '1.30', 1, 0)) {
      const entry = byName.get(spec.descriptor.name) ?? { spec, hosts: new Set<string>() };
      entry.hosts.add(String(spec.input.host));
      byName.set(spec.descriptor.name, entry);
    }
  }
  return [...byName.values()].map((e) => ({ spec: e.spec, hosts: [...e.hosts].sort() }));
}

function placementOf(hosts: string[]): ComponentFacts['placement'] {
  if (hosts.every((h) => h === CONTROL_PLANE_HOST)) return 'control-plane';
  if (hosts.every((h) => h === CSI_CONTROLLER_HOST)) return 'csi-controller-pod';
  if (hosts.every((h) => h === SNAPSHOT_CONTROLLER_HOST)) return 'own-deployment';
  return 'every-node';
}

const NOTHING_TAKEN: TakenStates = { states: new Set(), transitions: new Set() };

function machinesOf(descriptor: ComponentDescriptor, allComponentMachines: Set<AnyStateMachine>): MachineFacts[] {
  const out: MachineFacts[] = [];
  const folder = FOLDERS.find((f) => Object.values(f).includes(descriptor));
  const own = Object.entries(folder ?? {}).find(([, v]) => v === descriptor.machine)?.[0];
  out.push({ id: descriptor.machine.id, exportName: own ?? descriptor.machine.id, role: 'component', machine: descriptor.machine, taken: NOTHING_TAKEN });
  for (const [name, value] of Object.entries(folder ?? {})) {
    if (!name.endsWith('Machine') || !isMachine(value) || allComponentMachines.has(value)) continue;
    if (out.some((m) => m.machine === value)) continue;
    out.push({ id: value.id, exportName: name, role: 'lifecycle', machine: value, taken: NOTHING_TAKEN });
  }
  return out;
}

function messageFacts(id: string, def: MessageDef, shared: boolean): MessageFacts {
  const formats: MessageFormatFacts[] = [];
  for (const profile of PROFILE_IDS) {
    const f = def.formats[profile];
    if (!f) continue;
    const structured = f.text === undefined;
    formats.push({
      profile, file: f.file, line: f.line, style: structured ? 'structured' : 'printf',
      template: structured ? `"${f.msg ?? ''}"${f.kv ? ` ${f.kv}` : ''}` : f.text!,
      severity: f.severity ?? def.severity, v: f.v ?? 0, defaultV: getProfile(profile).verbosity[def.source],
    });
  }
  return {
    id, source: def.source, stage: def.stage, severity: def.severity, summary: def.summary,
    ...(def.explain ? { explain: def.explain } : {}), ...(def.cause ? { cause: def.cause } : {}), ...(def.next ? { next: def.next } : {}),
    formats, shared, seen: Object.fromEntries(PROFILE_IDS.map((p) => [p, [] as string[]])) as Record<ProfileId, string[]>,
    atStartup: [],
  };
}

/** Accumulates what the traces show, keyed per component and item. */
class Tally<T extends Seen> {
  readonly items = new Map<string, T>();
  add(key: string, make: () => T, scenario: string, profile: ProfileId, inStory: boolean, update?: (item: T) => void): void {
    let item = this.items.get(key);
    if (!item) {
      item = make();
      this.items.set(key, item);
    }
    item.count++;
    if (inStory) {
      item.startupOnly = false;
      if (!item.scenarios.includes(scenario)) item.scenarios.push(scenario);
    }
    if (!item.profiles.includes(profile)) item.profiles.push(profile);
    update?.(item);
  }
}
const seen = (): Seen => ({ count: 0, scenarios: [], startupOnly: true, profiles: [] });
const addUnique = <T>(list: T[], v: T): void => { if (!list.includes(v)) list.push(v); };

interface Runs {
  /** per scenario and profile: the story trace (default options) and the run with the start-up recorded */
  traces: Array<{ scenario: string; profile: ProfileId; story: Trace; full: Trace }>;
  /** the states and moves of the machines in the full runs */
  taken: TakenTally;
}

let cachedRuns: Runs | undefined;
function runAll(): Runs {
  if (cachedRuns) return cachedRuns;
  const traces: Runs['traces'] = [];
  const taken = new TakenTally();
  for (const s of SCENARIOS) {
    for (const profile of s.profiles ?? PROFILE_IDS) {
      const full = runScenario(s.id, { k8s: profile, warmUp: true, onStateMove: taken.move });
      for (const st of full.steps) taken.step(st);
      taken.endRun();
      traces.push({ scenario: s.id, profile, story: runScenario(s.id, { k8s: profile }), full });
    }
  }
  cachedRuns = { traces, taken };
  return cachedRuns;
}

/** A step's identity across the story run and the full run of the same scenario (the runs are deterministic). */
const stepKey = (st: { component: string; kind: string; msg?: string; api?: { verb: string; kind: string }; rpc?: { method: string } }): string =>
  `${st.component}|${st.kind}|${st.msg ?? ''}|${st.api ? `${st.api.verb} ${st.api.kind}` : ''}|${st.rpc?.method ?? ''}`;

let cachedFacts: ComponentFacts[] | undefined;

/** Every component of the standard topology, in group order, then in topology order. */
export function componentFacts(): ComponentFacts[] {
  if (cachedFacts) return cachedFacts;
  const topo = topology();
  const componentMachines = new Set(topo.map((t) => t.spec.descriptor.machine as AnyStateMachine));
  const facts = new Map<string, ComponentFacts>();
  const tallies = new Map<string, { writes: Tally<ApiWriteFacts>; events: Tally<EventFacts>; calls: Tally<RpcFacts>; serves: Tally<RpcFacts> }>();
  for (const { spec, hosts } of topo) {
    const d = spec.descriptor as ComponentDescriptor;
    const messages = Object.entries(d.messages).map(([id, def]) => messageFacts(id, def, false));
    facts.set(d.name, {
      name: d.name, group: GROUP_OF_SOURCE[d.source], source: d.source,
      logKind: spec.stream.journald ? 'daemon' : 'container', placement: placementOf(hosts), hosts,
      watches: sortKinds(d.watches), nodeScoped: sortKinds(d.nodeScoped ?? []), watchesPluginSockets: d.watchesPluginSockets ?? false,
      writes: [], events: [], calls: [], serves: [], messages, scenarios: [],
      machines: machinesOf(d, componentMachines),
    });
    tallies.set(d.name, { writes: new Tally(), events: new Tally(), calls: new Tally(), serves: new Tally() });
  }

  for (const { scenario, profile, story, full } of runAll().traces) {
    // steps of the full run that the story also has, counted per key: the rest is start-up
    const storyCounts = new Map<string, number>();
    for (const st of story.steps) storyCounts.set(stepKey(st), (storyCounts.get(stepKey(st)) ?? 0) + 1);
    const fullCounts = new Map<string, number>();
    for (const st of full.steps) fullCounts.set(stepKey(st), (fullCounts.get(stepKey(st)) ?? 0) + 1);
    const startupSteps = new Map<string, number>();
    for (const [k, n] of fullCounts) startupSteps.set(k, n - (storyCounts.get(k) ?? 0));

    const componentOf = new Map(full.components.map((c) => [c.instance, c.component]));
    const replyCodes = new Map<string, string>();
    // a reply carries the caller's request id prefixed with the caller instance ("kubelet/node-1#r22")
    for (const st of full.steps) if (st.kind === 'rpc-reply' && st.rpc?.code) replyCodes.set(st.rpc.requestId, st.rpc.code);

    const stepsPerComponent = new Map<string, number>();
    for (const st of story.steps) stepsPerComponent.set(st.component, (stepsPerComponent.get(st.component) ?? 0) + 1);
    for (const [name, n] of stepsPerComponent) {
      const f = facts.get(name);
      if (!f) continue;
      let entry = f.scenarios.find((x) => x.id === scenario);
      if (!entry) {
        entry = { id: scenario, title: story.title, steps: {} };
        f.scenarios.push(entry);
      }
      entry.steps[profile] = n;
    }

    for (const st of full.steps) {
      const f = facts.get(st.component);
      const t = tallies.get(st.component);
      if (!f || !t) continue;
      const key = stepKey(st);
      // the first occurrences of a key in the full run belong to the start-up
      const left = startupSteps.get(key) ?? 0;
      const inStory = left <= 0;
      if (!inStory) startupSteps.set(key, left - 1);

      if (st.msg) {
        let m = f.messages.find((x) => x.id === st.msg);
        if (!m) {
          const def = catalog[st.msg];
          if (def) {
            m = messageFacts(st.msg, def, true);
            f.messages.push(m);
          }
        }
        if (m && inStory) addUnique(m.seen[profile], scenario);
        else if (m) addUnique(m.atStartup, profile);
      }
      if (st.kind === 'api' && st.api) {
        const { verb, kind, code } = st.api;
        t.writes.add(`${verb} ${kind}`, () => ({ verb, kind, codes: [], ...seen() }), scenario, profile, inStory, (w) => addUnique(w.codes, code));
      } else if (st.kind === 'event') {
        const ev = st.objects?.[0]?.after as { reason?: string; type?: string; involvedObject?: { kind?: string } } | null | undefined;
        if (ev?.reason) {
          t.events.add(`${ev.type} ${ev.reason}`, () => ({ reason: ev.reason!, type: ev.type ?? 'Normal', involvedKind: ev.involvedObject?.kind ?? '', ...seen() }), scenario, profile, inStory);
        }
      } else if (st.kind === 'rpc' && st.rpc) {
        const parsed = parseMethod(st.rpc.method);
        const callee = componentOf.get(st.rpc.to) ?? st.rpc.to;
        const code = replyCodes.get(`${st.instance}#${st.rpc.requestId}`) ?? replyCodes.get(st.rpc.requestId);
        if (parsed) {
          const make = (): RpcFacts => ({ rpc: parsed.rpc, service: parsed.service, method: st.rpc!.method, peers: [], codes: [], ...seen() });
          const upd = (peer: string) => (r: RpcFacts) => { addUnique(r.peers, peer); if (code) addUnique(r.codes, code); };
          t.calls.add(st.rpc.method, make, scenario, profile, inStory, upd(callee));
          tallies.get(callee)?.serves.add(st.rpc.method, make, scenario, profile, inStory, upd(st.component));
        }
      }
    }
  }

  const byCount = <T extends Seen>(items: Iterable<T>, order: (a: T, b: T) => number): T[] => [...items].sort(order);
  const ordered: ComponentFacts[] = [];
  for (const group of COMPONENT_GROUPS) {
    for (const f of facts.values()) {
      if (f.group !== group.id) continue;
      const t = tallies.get(f.name)!;
      f.writes = byCount(t.writes.items.values(), (a, b) => rank(a.kind) - rank(b.kind) || a.verb.localeCompare(b.verb));
      f.events = byCount(t.events.items.values(), (a, b) => a.type.localeCompare(b.type) || a.reason.localeCompare(b.reason));
      const rpcOrder = (a: RpcFacts, b: RpcFacts) => CSI_SERVICES.indexOf(a.service) - CSI_SERVICES.indexOf(b.service) || a.rpc.localeCompare(b.rpc);
      f.calls = byCount(t.calls.items.values(), rpcOrder);
      f.serves = byCount(t.serves.items.values(), rpcOrder);
      for (const list of [f.writes, f.events, f.calls, f.serves]) for (const x of list) x.profiles.sort();
      const scenarioOrder = SCENARIOS.map((s) => s.id);
      f.scenarios.sort((a, b) => scenarioOrder.indexOf(a.id) - scenarioOrder.indexOf(b.id));
      for (const m of f.messages) {
        for (const p of PROFILE_IDS) m.seen[p].sort((a, b) => scenarioOrder.indexOf(a) - scenarioOrder.indexOf(b));
        m.atStartup.sort();
      }
      ordered.push(f);
    }
  }
  const { taken } = runAll();
  for (const f of ordered) for (const m of f.machines) m.taken = taken.of(f.name, m.machine);
  cachedFacts = ordered;
  return ordered;
}

export function componentByName(name: string): ComponentFacts | undefined {
  return componentFacts().find((c) => c.name === name);
}

/** Who watches and who writes each API kind, for the map of components and objects. */
export interface KindFacts {
  kind: Kind;
  watchedBy: string[];
  writtenBy: Array<{ component: string; verbs: string[] }>;
  /** components that record Events about this kind */
  eventsBy: string[];
}

export function kindFacts(): KindFacts[] {
  const comps = componentFacts();
  const kinds = sortKinds(comps.flatMap((c) => [...c.watches, ...c.writes.map((w) => w.kind)]));
  return kinds.map((kind) => ({
    kind,
    watchedBy: comps.filter((c) => c.watches.includes(kind)).map((c) => c.name),
    writtenBy: comps
      .map((c) => ({ component: c.name, verbs: c.writes.filter((w) => w.kind === kind).map((w) => w.verb) }))
      .filter((w) => w.verbs.length > 0),
    eventsBy: comps.filter((c) => c.events.some((e) => e.involvedKind === kind)).map((c) => c.name),
  }));
}

/** One CSI (or kubelet registration) RPC as the traces show it, across components. */
export interface RpcSummary {
  rpc: string;
  service: CsiService;
  method: string;
  callers: string[];
  servers: string[];
  codes: string[];
  scenarios: string[];
  startupOnly: boolean;
}

export function rpcSummaries(): RpcSummary[] {
  const out = new Map<string, RpcSummary>();
  for (const c of componentFacts()) {
    for (const r of c.calls) {
      const s = out.get(r.method) ?? { rpc: r.rpc, service: r.service, method: r.method, callers: [], servers: [], codes: [], scenarios: [], startupOnly: true };
      addUnique(s.callers, c.name);
      for (const p of r.peers) addUnique(s.servers, p);
      for (const code of r.codes) addUnique(s.codes, code);
      for (const sc of r.scenarios) addUnique(s.scenarios, sc);
      s.startupOnly &&= r.startupOnly;
      out.set(r.method, s);
    }
  }
  return [...out.values()].sort((a, b) => CSI_SERVICES.indexOf(a.service) - CSI_SERVICES.indexOf(b.service) || a.rpc.localeCompare(b.rpc));
}
