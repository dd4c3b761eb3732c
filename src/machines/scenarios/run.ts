/**
 * runScenario: build the scenario's data, start the standard cluster on it, run the virtual clock,
 * return the trace. A scenario is a built-in id, a Scenario, or a team's own ScenarioSpec. Bad input
 * (unknown scenario, profile, fault, a malformed object) throws a ScenarioError with a one-line
 * message naming what is wrong and where.
 */
import { Cluster, type StateMove, type UserAction } from '../cluster/cluster.ts';
import { faultToText, parseDuration, type ApiFault, type Fault } from '../cluster/faults.ts';
import { CLUSTER_SCOPED, RESOURCE, type Kind } from '../shared/k8s.ts';
import type { Trace, TraceStep } from '../cluster/trace.ts';
import { catalog } from '../catalog.ts';
import { DRIVERS } from '../drivers/index.ts';
import { CAPABILITIES, type DriverCapabilities, type DriverProfile } from '../drivers/types.ts';
import type { ProfileId } from '../shared/messages.ts';
import { isProfileId, PROFILE_IDS } from '../profiles/index.ts';
import { ScenarioError } from './errors.ts';
import { SCENARIOS } from './index.ts';
import { checkFault, compileScenario, RESTARTABLE, restartTargetError, splitFaults, type ScenarioSpec } from './spec.ts';
import { buildComponents } from './topology.ts';
import type { Scenario, ScenarioData } from './types.ts';
import { parseFaultText, FaultSyntaxError } from '../cluster/faults.ts';

export { ScenarioError } from './errors.ts';

export interface RunOptions {
  /** version profile: '1.20' or '1.30' (default: the scenario's, else '1.30') */
  k8s?: ProfileId | string;
  /** seed for the simulation's randomness (default 1) */
  seed?: number;
  /** replicas, for scenarios that take them (statefulset-rollout) */
  replicas?: number;
  /**
   * faults that hit the story (from its start, or `from`/`until` in story ms): CSI, API and informer
   * faults as objects or in the CLI's text form ("ControllerPublishVolume=DEADLINE_EXCEEDEDx2",
   * "api:patchStatus:Node@kubelet=+5s", "informer:attach-detach-controller:Node=+20s")
   */
  faults?: Array<Fault | string>;
  /** API faults (the same as `faults` entries with type 'api') */
  apiFaults?: ApiFault[];
  /** keep before/after objects on every step (default true; benchmarks turn it off; checkInvariants needs them) */
  recordObjects?: boolean;
  /** run this many milliseconds longer than the scenario's own duration, e.g. to let retries converge */
  extendBy?: number;
  /** record the warm-up too (cluster start-up, pods that exist before the story); times then count from the cluster's start */
  warmUp?: boolean;
  /** put the attach/detach controller's and the kubelet's desired/actual state of world on their steps */
  captureWorld?: boolean;
  /**
   * receive each step as it is recorded instead of in trace.steps (which is then empty; stats.steps
   * counts them): for traces too large to hold, e.g. `csi-flows trace --format json` of a large rollout
   */
  onStep?: (step: TraceStep) => void;
  /** told of every state a component's volumes, attachments and operations pass through (ClusterOptions.onStateMove) */
  onStateMove?: (move: StateMove) => void;
  /**
   * what the reader does on top of the scenario's own timeline, at story milliseconds or a duration
   * ("what if node-1 dies at step 12?"): shut a node down or start it, delete an object (a pod, with
   * its grace period). The same forms as a Scenario file's actions.
   */
  actions?: RunAction[];
  /**
   * the driver's capabilities changed for this run ("what if our driver needs no attach?"):
   * `attachRequired` is its CSIDriver's spec.attachRequired (false: the attach/detach controller makes
   * no VolumeAttachment, in the warm-up either);
   * `stageUnstage` whether the node plugin advertises STAGE_UNSTAGE_VOLUME (false: no NodeStageVolume,
   * NodePublishVolume mounts the device itself). Unset: as the scenario has it.
   */
  driver?: DriverCapabilities;
}

export type { DriverCapabilities };

/** An action added to a run (RunOptions.actions): `at` in story milliseconds or a duration ("30s"). */
export type RunAction =
  | { at: number | string; do: 'shutdownNode' | 'startNode'; node: string; summary?: string }
  | { at: number | string; do: 'delete'; kind: Kind; namespace?: string; name: string; gracePeriodSeconds?: number; summary?: string }
  /** a component's process restarts ("kubelet/node-1", or every instance: "kubelet") */
  | { at: number | string; do: 'restart'; component: string; summary?: string };

/** RunOptions.actions as the cluster's actions at virtual µs (the story starts at storyStartUs), or a ScenarioError naming the bad one. */
function runActions(actions: unknown, data: ScenarioData, storyStartUs: number, id: string): UserAction[] {
  if (actions === undefined) return [];
  if (!Array.isArray(actions)) throw new ScenarioError('options.actions must be a list of actions');
  const nodes = data.nodes.map((n) => n.name);
  return actions.map((raw, i): UserAction => {
    const where = `options.actions[${i}]`;
    if (!raw || typeof raw !== 'object') throw new ScenarioError(`${where}: an action is an object with at and do`);
    const a = raw as Record<string, unknown>;
    let at: number;
    try { at = parseDuration(a.at as string | number); } catch { throw new ScenarioError(`${where}.at: must be story milliseconds or a duration (e.g. 30s), not ${JSON.stringify(a.at)}`); }
    if (!(at >= 0)) throw new ScenarioError(`${where}.at: must be at least 0`);
    const atUs = storyStartUs + Math.round(at * 1000);
    const summary = typeof a.summary === 'string' ? { summary: a.summary } : {};
    if (a.do === 'shutdownNode' || a.do === 'startNode') {
      if (typeof a.node !== 'string' || !nodes.includes(a.node)) throw new ScenarioError(`${where}.node: no node ${JSON.stringify(a.node)} in scenario "${id}" (nodes: ${nodes.join(', ')})`);
      return { at: atUs, do: a.do, node: a.node, ...summary };
    }
    if (a.do === 'delete') {
      if (typeof a.kind !== 'string' || !(a.kind in RESOURCE)) throw new ScenarioError(`${where}.kind: unknown kind ${JSON.stringify(a.kind)}`);
      if (typeof a.name !== 'string' || !a.name) throw new ScenarioError(`${where}.name: is required`);
      const grace = a.gracePeriodSeconds;
      if (grace !== undefined && !(typeof grace === 'number' && Number.isSafeInteger(grace) && grace >= 0)) throw new ScenarioError(`${where}.gracePeriodSeconds: must be an integer of at least 0`);
      const kind = a.kind as Kind;
      const namespace = CLUSTER_SCOPED.has(kind) ? undefined : (typeof a.namespace === 'string' ? a.namespace : 'default');
      return { at: atUs, do: 'delete', kind, ...(namespace ? { namespace } : {}), name: a.name, ...(grace !== undefined ? { gracePeriodSeconds: grace as number } : {}), ...summary };
    }
    if (a.do === 'restart') {
      if (typeof a.component !== 'string' || !a.component) throw new ScenarioError(`${where}.component: is required (one of ${RESTARTABLE.join(', ')})`);
      const wrong = restartTargetError(a.component, nodes);
      if (wrong) throw new ScenarioError(`${where}.component: ${wrong}`);
      return { at: atUs, do: 'restart', component: a.component, ...summary };
    }
    throw new ScenarioError(`${where}.do: unknown action ${JSON.stringify(a.do)} (known here: shutdownNode, startNode, delete, restart)`);
  });
}

/** RunOptions.driver checked: only the two capabilities, as booleans; undefined when nothing is changed. */
function checkCapabilities(raw: unknown): DriverCapabilities | undefined {
  if (raw === undefined) return undefined;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ScenarioError('options.driver must be an object such as { attachRequired: false }');
  const out: DriverCapabilities = {};
  for (const [k, v] of Object.entries(raw)) {
    const name = CAPABILITIES.find((c) => c === k);
    if (!name) throw new ScenarioError(`options.driver.${k}: unknown capability (known: ${CAPABILITIES.join(', ')})`);
    if (typeof v !== 'boolean') throw new ScenarioError(`options.driver.${k}: must be true or false, not ${JSON.stringify(v)}`);
    out[name] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The scenario's data and driver with the capabilities a run asks for. The CSIDriver object is what
 * the attach/detach controller and the kubelet read (pkg/volume/csi csi_plugin.go skipAttach); the
 * node plugin's capability list is what the kubelet's NodeGetCapabilities sees (csi_attacher.go
 * MountDevice: "STAGE_UNSTAGE_VOLUME capability not set. Skipping MountDevice...").
 */
function withCapabilities(data: ScenarioData, driver: DriverProfile, caps: DriverCapabilities): DriverProfile {
  const out: DriverProfile = { ...driver };
  if (caps.stageUnstage !== undefined) {
    const rest = driver.nodeCapabilities.filter((c) => c !== 'STAGE_UNSTAGE_VOLUME');
    out.nodeCapabilities = caps.stageUnstage ? ['STAGE_UNSTAGE_VOLUME', ...rest] : rest;
  }
  if (caps.attachRequired !== undefined) {
    out.attachRequired = caps.attachRequired;
    const attachable = caps.attachRequired;
    let found = false;
    // scenarios start with no attachment: the warm-up makes them, and with this CSIDriver makes none
    data.objects = data.objects.map((o) => {
      if (o.kind !== 'CSIDriver' || o.metadata.name !== driver.name) return o;
      found = true;
      return { ...o, spec: { ...(o.spec as object), attachRequired: attachable } };
    });
    if (!found) {
      data.objects = [...data.objects, {
        apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: driver.name },
        spec: { attachRequired: attachable, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'] },
      } as (typeof data.objects)[number]];
    }
  }
  return out;
}

export function getScenario(id: string): Scenario {
  const s = SCENARIOS.find((x) => x.id === id);
  if (!s) throw new ScenarioError(`unknown scenario "${id}" (known: ${SCENARIOS.map((x) => x.id).join(', ')})`);
  return s;
}

/**
 * A fault from its text form: "ControllerPublishVolume=DEADLINE_EXCEEDEDx2" → { rpc, code, count: 2 }
 * (no count: every call); also "api:…" and "informer:…" (cluster/faults.ts). Bad text: ScenarioError.
 */
export function parseFault(text: string): Fault {
  try {
    return parseFaultText(text);
  } catch (e) {
    if (e instanceof FaultSyntaxError) throw new ScenarioError(e.message);
    throw e;
  }
}

export const faultText = (f: Fault): string => faultToText(f);

const isScenario = (s: unknown): s is Scenario => !!s && typeof s === 'object' && typeof (s as Scenario).build === 'function';

/** A built-in id, a Scenario, or a ScenarioSpec, as a runnable Scenario. */
export function resolveScenario(idOrScenario: string | Scenario | ScenarioSpec): Scenario {
  if (typeof idOrScenario === 'string') return getScenario(idOrScenario);
  if (isScenario(idOrScenario)) return idOrScenario;
  return compileScenario(idOrScenario);
}

export function runScenario(idOrScenario: string | Scenario | ScenarioSpec, options: RunOptions = {}): Trace {
  if (options === null || typeof options !== 'object') throw new ScenarioError('runScenario options must be an object');
  const scenario = resolveScenario(idOrScenario);
  const id = scenario.id;
  const k8s = options.k8s ?? scenario.k8s ?? '1.30';
  if (!isProfileId(String(k8s))) throw new ScenarioError(`unknown Kubernetes version "${k8s}" (known: ${PROFILE_IDS.join(', ')})`);
  const profile = String(k8s) as ProfileId;
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new ScenarioError(`bad seed "${options.seed}": expected a non-negative integer`);
  const replicas = options.replicas ?? scenario.defaultReplicas ?? 1;
  if (!Number.isSafeInteger(replicas) || replicas < 1 || replicas > 100_000) throw new ScenarioError(`bad replicas "${options.replicas}": expected an integer from 1 to 100000`);
  if (options.replicas !== undefined && !scenario.takesReplicas) throw new ScenarioError(`scenario "${id}" does not take --replicas`);
  if (options.extendBy !== undefined && !(Number.isFinite(options.extendBy) && options.extendBy >= 0)) throw new ScenarioError(`bad extendBy "${options.extendBy}": expected milliseconds, at least 0`);
  if (options.faults !== undefined && !Array.isArray(options.faults)) throw new ScenarioError('options.faults must be a list of faults');
  if (options.apiFaults !== undefined && !Array.isArray(options.apiFaults)) throw new ScenarioError('options.apiFaults must be a list of API faults');
  const data = scenario.build({ k8s: profile, seed, replicas });
  const nodeNames = data.nodes.map((n) => n.name);
  const userFaults: Fault[] = [
    ...(options.faults ?? []).map((f, i) => checkFault(f, { document: 'options', field: `faults[${i}]` }, nodeNames)),
    ...(options.apiFaults ?? []).map((f, i) => checkFault({ ...f, type: 'api' }, { document: 'options', field: `apiFaults[${i}]` }, nodeNames)),
  ];
  const named: DriverProfile | undefined = typeof data.driver === 'string' ? DRIVERS[data.driver] : data.driver;
  if (!named) throw new ScenarioError(`scenario "${id}" names unknown driver "${String(data.driver)}" (known: ${Object.keys(DRIVERS).join(', ')})`);
  const caps = checkCapabilities(options.driver);
  const driver = caps ? withCapabilities(data, named, caps) : named;
  let recordFrom = data.recordFrom;
  if (data.recordFromMessage) {
    // a first, unrecorded run finds when the story starts; the run is deterministic and the story's
    // faults only hit from its start, so the second run reaches the same point at the same time
    const probe = runData(scenario, data, driver, profile, seed, [], { recordObjects: false }, undefined);
    const first = probe.steps.find((st) => st.msg === data.recordFromMessage!.msg);
    if (first) recordFrom = Math.max(0, Math.round(first.t * 1000) - data.recordFromMessage.leadUs);
  }
  const trace = runData(scenario, data, driver, profile, seed, userFaults, options, recordFrom);
  trace.options = { k8s: profile, seed, ...(scenario.takesReplicas ? { replicas } : {}), faults: userFaults.map(faultToText), ...(caps ? { driver: caps } : {}) };
  return trace;
}

function runData(
  scenario: Scenario, data: ScenarioData, driver: DriverProfile, k8s: ProfileId, seed: number, userFaults: Fault[],
  options: RunOptions, recordFrom: number | undefined,
): Trace {
  const epochUs = Date.parse(data.start) * 1000;
  const storyStart = recordFrom ?? 0;
  // the wall clock of virtual time 0: `start` is where the story (recording) starts
  const clusterEpochUs = epochUs - storyStart;
  const user = splitFaults(userFaults);
  let cluster: Cluster;
  try {
    cluster = new Cluster({
      profile: k8s, seed, epochUs: clusterEpochUs, apiServerUrl: data.apiServerUrl ?? 'https://10.0.0.1:443',
      catalog, objects: data.objects, components: buildComponents(data, driver, k8s, seed, clusterEpochUs),
      actions: [...(data.actions ?? []), ...runActions(options.actions, data, storyStart, scenario.id)],
      // (a host fault of the user's comes before the story's: the story's slow walk is the volume's nature, the user's what-if replaces it)
      csiFaults: [...(data.csiFaults ?? []), ...user.csi], apiFaults: [...(data.apiFaults ?? []), ...user.api],
      informerDelays: [...(data.informerDelays ?? []), ...user.informer], hostFaults: [...user.host, ...(data.hostFaults ?? [])], storyStartUs: storyStart,
      recordObjects: options.recordObjects ?? true, captureWorld: options.captureWorld ?? false,
      ...(options.onStep ? { onStep: options.onStep } : {}),
      ...(options.onStateMove ? { onStateMove: options.onStateMove } : {}),
      ...(recordFrom !== undefined && !options.warmUp ? { recordFrom } : {}),
    });
  } catch (e) {
    // an object the API server refuses (e.g. a name given twice)
    throw new ScenarioError(`scenario "${scenario.id}": ${(e as Error).message}`);
  }
  cluster.run(data.runFor + Math.round((options.extendBy ?? 0) * 1000));
  return cluster.toTrace({ scenario: scenario.id, title: scenario.title, options: {} });
}
