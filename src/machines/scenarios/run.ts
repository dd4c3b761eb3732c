/**
 * runScenario: build the scenario's data, start the standard cluster on it, run the virtual clock,
 * return the trace. Bad input (unknown scenario, profile, fault) throws a ScenarioError with a
 * one-line message.
 */
import { Cluster, type CsiFault } from '../cluster/cluster.ts';
import type { Trace } from '../cluster/trace.ts';
import { catalog } from '../catalog.ts';
import { DRIVERS } from '../drivers/index.ts';
import { isCsiRpc, isGrpcCode } from '../shared/csi.ts';
import type { ProfileId } from '../shared/messages.ts';
import { isProfileId, PROFILE_IDS } from '../profiles/index.ts';
import { SCENARIOS } from './index.ts';
import { buildComponents } from './topology.ts';
import type { Scenario } from './types.ts';

export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

export interface RunOptions {
  /** version profile: '1.20' or '1.30' (default '1.30') */
  k8s?: ProfileId | string;
  /** seed for the simulation's randomness (default 1) */
  seed?: number;
  /** replicas, for scenarios that take them (statefulset-rollout) */
  replicas?: number;
  /** CSI faults: parsed objects or CLI strings "ControllerPublishVolume=DEADLINE_EXCEEDEDx2" */
  faults?: Array<CsiFault | string>;
  /** keep before/after objects on every step (default true; benchmarks turn it off) */
  recordObjects?: boolean;
  /** run this much longer than the scenario's own duration (µs), e.g. to let retries converge */
  extendBy?: number;
  /** record the warm-up too (cluster start-up, pods that exist before the story); times then count from the cluster's start */
  warmUp?: boolean;
  /** put the attach/detach controller's and the kubelet's desired/actual state of world on their steps */
  captureWorld?: boolean;
}

export function getScenario(id: string): Scenario {
  const s = SCENARIOS.find((x) => x.id === id);
  if (!s) throw new ScenarioError(`unknown scenario "${id}" (known: ${SCENARIOS.map((x) => x.id).join(', ')})`);
  return s;
}

/** "ControllerPublishVolume=DEADLINE_EXCEEDEDx2" → { rpc, code, count: 2 }; no count: every call. */
export function parseFault(text: string): CsiFault {
  const m = /^([A-Za-z]+)=([A-Z_]+)(?:x(\d+))?$/.exec(text.trim());
  if (!m) throw new ScenarioError(`bad --fault "${text}": expected <RPC>=<CODE>[x<count>], e.g. ControllerPublishVolume=DEADLINE_EXCEEDEDx2`);
  const [, rpc, code, count] = m as unknown as [string, string, string, string | undefined];
  if (!isCsiRpc(rpc)) throw new ScenarioError(`bad --fault "${text}": unknown CSI RPC "${rpc}"`);
  if (!isGrpcCode(code) || code === 'OK') throw new ScenarioError(`bad --fault "${text}": unknown gRPC error code "${code}" (e.g. DEADLINE_EXCEEDED, ABORTED, INTERNAL)`);
  const n = count === undefined ? Infinity : Number(count);
  if (n < 1) throw new ScenarioError(`bad --fault "${text}": the count must be at least 1`);
  return { rpc, code, count: n };
}

export function runScenario(id: string, options: RunOptions = {}): Trace {
  const scenario = getScenario(id);
  const k8s = options.k8s ?? '1.30';
  if (!isProfileId(k8s)) throw new ScenarioError(`unknown Kubernetes version "${k8s}" (known: ${PROFILE_IDS.join(', ')})`);
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new ScenarioError(`bad seed "${options.seed}": expected a non-negative integer`);
  const replicas = options.replicas ?? scenario.defaultReplicas ?? 1;
  if (!Number.isSafeInteger(replicas) || replicas < 1 || replicas > 100_000) throw new ScenarioError(`bad replicas "${options.replicas}": expected an integer from 1 to 100000`);
  if (options.replicas !== undefined && !scenario.takesReplicas) throw new ScenarioError(`scenario "${id}" does not take --replicas`);
  const faults = (options.faults ?? []).map((f) => (typeof f === 'string' ? parseFault(f) : f));
  const data = scenario.build({ k8s, seed, replicas, faults });
  const driver = DRIVERS[data.driver];
  if (!driver) throw new ScenarioError(`scenario "${id}" names unknown driver "${data.driver}"`);
  const epochUs = Date.parse(data.start) * 1000;
  if (data.recordFromMessage && !options.warmUp) {
    // a first, unrecorded run finds when the story starts; the run is deterministic, so the second
    // run reaches the same point at the same time
    const probe = runScenario(id, { ...options, warmUp: true, recordObjects: false });
    const first = probe.steps.find((st) => st.msg === data.recordFromMessage!.msg);
    if (first) data.recordFrom = Math.max(0, Math.round(first.t * 1000) - data.recordFromMessage.leadUs);
  }
  // the wall clock of virtual time 0: `start` is where the story (recording) starts
  const clusterEpochUs = epochUs - (data.recordFrom ?? 0);
  const cluster = new Cluster({
    profile: k8s, seed, epochUs: clusterEpochUs, apiServerUrl: data.apiServerUrl ?? 'https://10.0.0.1:443',
    catalog, objects: data.objects, components: buildComponents(data, driver, k8s, seed, clusterEpochUs),
    actions: data.actions, csiFaults: [...(data.csiFaults ?? []), ...faults], apiFaults: data.apiFaults ?? [],
    recordObjects: options.recordObjects ?? true, captureWorld: options.captureWorld ?? false, ...(data.recordFrom !== undefined && !options.warmUp ? { recordFrom: data.recordFrom } : {}),
  });
  if (options.extendBy !== undefined && !(options.extendBy >= 0)) throw new ScenarioError(`bad extendBy "${options.extendBy}"`);
  cluster.run(data.runFor + (options.extendBy ?? 0));
  return cluster.toTrace({
    scenario: id, title: scenario.title,
    options: { k8s, seed, ...(scenario.takesReplicas ? { replicas } : {}), faults: faults.map(faultText) },
  });
}

export const faultText = (f: CsiFault): string => `${f.rpc}=${f.code}${Number.isFinite(f.count) ? `x${f.count}` : ''}`;
