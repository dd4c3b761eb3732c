/**
 * A scenario is data: the cluster's starting objects, what the user does and when, the driver, the
 * version profile and the faults. Everything else (every step, every log line) comes out of the
 * machines running. `build` is a function only so that parameters (replicas, seed) can shape the data.
 */
import type { UserAction } from '../cluster/cluster.ts';
import type { ApiFault, CsiFault, HostFault, InformerDelay } from '../cluster/faults.ts';
import type { DriverProfile } from '../drivers/types.ts';
import type { K8sObject } from '../shared/k8s.ts';
import type { ProfileId } from '../shared/messages.ts';

export interface NodeSpec {
  /** Node object name (seed 000 names nodes by IP: "11.142.61.164") */
  name: string;
  /** host name journald prints (seed 000: "VM-61-164-centos") */
  hostname?: string;
  /** the cloud instance id the CSI node plugin reports as node_id */
  nodeId?: string;
  kubeletPid?: number;
  kubeletRoot?: string;
  /**
   * the node's InternalIP, which the kubelet writes as its pods' hostIP (default: the name when it is an IPv4
   * address, as seed 000 names its nodes; else 10.0.1.11, 10.0.1.12, … by the node's place in the list)
   */
  internalIP?: string;
  labels?: Record<string, string>;
  /**
   * kubelet process uptime at virtual time 0 (µs), for the m=+… monotonic reading; its status manager's
   * syncBatch ticks every 10s from the process start, so this also sets their phase
   */
  kubeletUptimeUs?: number;
  /** when in each 10s period (µs from virtual time 0) the kubelet's node status update runs (default: spread by node index) */
  nodeStatusOffsetUs?: number;
}

/** A volume that exists in the storage backend before the scenario starts. */
export interface BackendVolume {
  volumeId: string;
  name: string;
  capacityBytes: number;
  /** node ids it is attached (published) to */
  publishedTo?: string[];
  volumeContext?: Record<string, string>;
}

export interface ScenarioOptions {
  k8s: ProfileId;
  seed: number;
  replicas: number;
}

/**
 * The engine's form of a scenario, on the cluster's own clock (virtual µs from the cluster start,
 * warm-up included): what the built-in scenarios are written in. Teams write a ScenarioSpec instead
 * (milliseconds from the story start), which compileScenario turns into this.
 */
export interface ScenarioData {
  /** driver profile id (src/machines/drivers) or the profile itself */
  driver: string | DriverProfile;
  nodes: NodeSpec[];
  objects: K8sObject[];
  actions: UserAction[];
  /** wall clock of virtual time 0, ISO 8601 with offset */
  start: string;
  /** time zone of hosts and of kube-controller-manager (containers with host time) */
  hostTz: { offsetMin: number; zone: string };
  /** how long to run (virtual µs) */
  runFor: number;
  /** steps before this time are warm-up and not recorded (µs) */
  recordFrom?: number;
  /**
   * record from the first step that logs this message instead (minus `leadUs`): for stories that
   * start in the middle of a flow (the mount chapter starts when the attach is confirmed)
   */
  recordFromMessage?: { msg: string; leadUs: number };
  /** the scenario's own faults; their from/until are story milliseconds */
  csiFaults?: CsiFault[];
  apiFaults?: ApiFault[];
  informerDelays?: InformerDelay[];
  /** what the nodes' file systems do to the kubelet's own work on a volume (SetVolumeOwnership) */
  hostFaults?: HostFault[];
  backend?: BackendVolume[];
  /** client-go limiter per component name (e.g. the seed's throttled csi-attacher) */
  apiClients?: Record<string, { qps: number; burst: number }>;
  /** API server URL client-go prints */
  apiServerUrl?: string;
  /** external-provisioner's csiProvisionerIdentity */
  provisionerIdentity?: string;
  /** extra input for components by name, e.g. { 'external-attacher': { workerThreads: 100 } } (a flag an operator sets) */
  componentInputs?: Record<string, Record<string, unknown>>;
  /** kubelets post node status heartbeats every 10s (default true; the node lifecycle controller needs them) */
  heartbeats?: boolean;
  /**
   * components not deployed, by name (e.g. ['external-attacher']: a CSI controller Deployment
   * without its csi-attacher sidecar); the others run as usual and meet the gap as a real cluster does
   */
  without?: string[];
  /**
   * components whose process starts late, by instance id (`csi-node-plugin/node-1`) or by name (every
   * instance): virtual µs from the cluster's start (e.g. a DaemonSet pod still pulling its images when
   * the story starts). The others start at 0.
   */
  startAt?: Record<string, number>;
}

export interface Scenario {
  id: string;
  title: string;
  /** one or two sentences: what happens and what to watch */
  summary: string;
  /** the seed document it reproduces, if any */
  seed?: string;
  /** profiles the scenario is meant for (all by default) */
  profiles?: ProfileId[];
  /** the Kubernetes version profile it runs on by default (RunOptions.k8s overrides it; else 1.30) */
  k8s?: ProfileId;
  /** `--replicas` is meaningful */
  takesReplicas?: boolean;
  defaultReplicas?: number;
  build(options: ScenarioOptions): ScenarioData;
}
