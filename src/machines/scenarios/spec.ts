/**
 * A team's own scenario, as plain data: the objects of the story, what happens when (milliseconds from
 * the story start, trace t = 0), the driver's capabilities, the nodes, the faults. compileScenario()
 * checks it (one ScenarioError per mistake, naming the object and the field) and turns it into the
 * engine's ScenarioData: a warm-up on the cluster clock that brings up the components and the objects
 * that already exist, then the story.
 *
 * Defaults, as a new cluster would have them: two nodes; Node objects made from the nodes; a generic
 * CSI driver named after the StorageClass provisioner, with the capabilities its CSIDriver object
 * declares (a CSIDriver is installed with the driver when none is given); every object of the story
 * created at its start, dependencies first.
 */
import { COMPONENTS } from '../registry.ts';
import { faultType, parseDuration, parseFaultText, FaultSyntaxError, HOST_ERRNOS, HOST_OPS, type ApiFault, type CsiFault, type Fault, type HostErrno, type HostFault, type HostOp, type InformerDelay } from '../cluster/faults.ts';
import type { UserAction } from '../cluster/cluster.ts';
import { parseTaint } from '../shared/taints.ts';
import { DRIVERS } from '../drivers/index.ts';
import type { ControllerCapability, DriverProfile, NodeCapability } from '../drivers/types.ts';
import { isProfileId, PROFILE_IDS } from '../profiles/index.ts';
import { isCsiRpc, isGrpcCode, type CsiRpc } from '../shared/csi.ts';
import { API_VERSION, CLUSTER_SCOPED, isIPv4, keyOf, objectKey, type K8sObject, type Kind } from '../shared/k8s.ts';
import type { ProfileId } from '../shared/messages.ts';
import { MS } from '../shared/timing.ts';
import { ScenarioError } from './errors.ts';
import { node as nodeObject } from './objects.ts';
import type { BackendVolume, NodeSpec, Scenario, ScenarioData } from './types.ts';
import { ACCESS_MODES, Checker, checkObject, quantityBytes, SCENARIO_KINDS, type ObjectSource, type Path } from './validate.ts';

/** What a generic CSI driver can do. Everything has a default; give only what your driver differs in. */
export interface DriverSpec {
  /** the driver's name (default: the StorageClass provisioner, or the CSIDriver object's name) */
  name?: string;
  /** the driver needs ControllerPublishVolume (advertises PUBLISH_UNPUBLISH_VOLUME); default: its CSIDriver's attachRequired, else true */
  attachRequired?: boolean;
  /** the node plugin advertises STAGE_UNSTAGE_VOLUME: NodeStageVolume before NodePublishVolume (default true) */
  stageUnstage?: boolean;
  /** access modes the backend can serve (default ReadWriteOnce, ReadWriteOncePod); ReadWriteMany or ReadOnlyMany lets a volume be published to several nodes */
  accessModes?: string[];
  /** raw block volumes (volumeMode: Block): default true; false makes CreateVolume refuse a Block capability */
  block?: boolean;
  /** EXPAND_VOLUME on controller and node (default false) */
  expansion?: boolean;
  /** CREATE_DELETE_SNAPSHOT (default false) */
  snapshots?: boolean;
  /** CLONE_VOLUME (default false) */
  cloning?: boolean;
  /** per-RPC backend latency, milliseconds or a duration ("11.5s") */
  latencies?: Partial<Record<CsiRpc, number | string>>;
  vendorVersion?: string;
  /** fsType when the PV names none (default ext4) */
  fsType?: string;
}

/** A node of the scenario: a name, or the details a kubelet and the driver's node plugin report. */
export type ScenarioNode = string | (Omit<NodeSpec, 'kubeletUptimeUs' | 'nodeStatusOffsetUs'> & {
  /** how long the kubelet has been up when the cluster starts (ms or a duration): the m=+… monotonic reading in the times it prints ("No retries permitted until …") */
  kubeletUptime?: number | string;
  /** when in each 10s period, from the cluster's start, the kubelet updates its node status (ms or a duration under 10s) */
  nodeStatusOffset?: number | string;
  /** shorthand for the label topology.kubernetes.io/zone */
  zone?: string;
  /** the Node object is cordoned (spec.unschedulable) when the story starts */
  unschedulable?: boolean;
});

/** Something you do during the story. `at`: milliseconds from the story start, or a duration ("30s", "1m30s"). */
export type StoryAction =
  | { at: number | string; do: 'create'; object: K8sObject; summary?: string }
  | { at: number | string; do: 'delete'; kind: Kind; namespace?: string; name: string; gracePeriodSeconds?: number; summary?: string }
  | { at: number | string; do: 'patch'; kind: Kind; namespace?: string; name: string; patch: Record<string, unknown>; summary?: string }
  | { at: number | string; do: 'shutdownNode'; node: string; summary?: string }
  | { at: number | string; do: 'startNode'; node: string; summary?: string }
  | { at: number | string; do: 'restart'; component: string; summary?: string }
  /** kubectl taint nodes <node> <taint>: `taint` is key[=value]:effect (e.g. node.kubernetes.io/out-of-service=nodeshutdown:NoExecute) */
  | { at: number | string; do: 'taint'; node: string; taint: string; summary?: string };

export interface ScenarioSpec {
  /** id the trace carries (default "custom") */
  id?: string;
  title?: string;
  summary?: string;
  /** the Kubernetes version profile (RunOptions.k8s overrides it; default 1.30) */
  k8s?: ProfileId | string;
  /** a built-in driver profile id ("cbs", "ceph-rbd") or driver name, a full DriverProfile, or a generic driver's capabilities */
  driver?: string | DriverProfile | DriverSpec;
  /** the nodes (default node-1 and node-2) */
  nodes?: ScenarioNode[];
  /** objects the story creates at its start (t = 0), dependencies first */
  objects?: K8sObject[];
  /** objects that already exist when the story starts: created during the warm-up, so by t = 0 their claims are bound and their pods run */
  existing?: K8sObject[];
  actions?: StoryAction[];
  /** faults that hit the story, as objects or in the CLI's text form */
  faults?: Array<Fault | string>;
  /** how long the story runs (ms or a duration; default 2m) */
  runFor?: number | string;
  /** how long the unrecorded warm-up runs (ms or a duration; default 30s): components start, existing objects settle */
  warmUp?: number | string;
  /** wall clock of the story start, ISO 8601 (default 2024-05-14T09:30:00Z) */
  start?: string;
  /** hosts' time zone (default UTC) */
  timeZone?: { offsetMin: number; zone: string };
  /**
   * kubelets post node status heartbeats every 10s (default true); without them no node is ever found
   * NotReady (the node lifecycle controller tells a dead node by its missing heartbeats), and long runs are cheaper
   */
  heartbeats?: boolean;
  /**
   * components not deployed, by name (e.g. [external-attacher]: a driver whose controller Deployment
   * has no csi-attacher); the rest meet the gap as a real cluster does
   */
  without?: string[];
  /**
   * components whose process starts after the story began, in story time (ms or a duration), by name
   * (every instance) or by instance (`csi-node-plugin/node-1`): a driver's node pod still pulling its
   * images, a DaemonSet rolled out during the story. The others start with the cluster.
   */
  startLate?: Record<string, number | string>;
  /**
   * command-line flags of the CSI sidecars, named as upstream names them (without "--"), e.g.
   * { external-attacher: { worker-threads: 100, kube-api-qps: 5, kube-api-burst: 1 } }: see COMPONENT_FLAGS
   */
  flags?: Record<string, Record<string, number | boolean>>;
  /** the API server's URL, as client-go prints it in its logs (default https://10.0.0.1:443) */
  apiServerUrl?: string;
}

interface SidecarFlag {
  /** the component's input it sets, or the client-go rate limiter's qps or burst */
  sets: { input: string } | { client: 'qps' | 'burst' };
  type: 'count' | 'rate' | 'boolean' | 'level';
  /** upstream's default, said in messages */
  dflt: number | boolean;
  /** what else a message about it says (what the simulation runs with when a scenario does not set it) */
  note?: string;
}

// --kube-api-qps 5 and --kube-api-burst 10: every kubernetes-csi sidecar's default (cmd/csi-attacher/main.go,
// cmd/csi-provisioner/csi-provisioner.go, cmd/csi-resizer/main.go, cmd/csi-snapshotter/main.go)
const API_CLIENT_FLAGS: Record<string, SidecarFlag> = {
  'kube-api-qps': { sets: { client: 'qps' }, type: 'rate', dflt: 5 },
  'kube-api-burst': { sets: { client: 'burst' }, type: 'count', dflt: 10 },
};

/**
 * klog's -v (klog.InitFlags: a Level, 0 unless set): the lines a process prints are those at or under it. The
 * simulation's profiles run the sidecars at -v=5 and the kubelet at -v=2 (profiles/index.ts VERBOSITY), which show
 * each step; real deployments often run lower (ceph-csi's manifests give its sidecars --v=1): set it to see what yours print.
 */
const V_FLAG = (runsAt: number): Record<string, SidecarFlag> =>
  ({ v: { sets: { input: 'verbosity' }, type: 'level', dflt: 0, note: `the simulation runs it at ${runsAt} unless a scenario sets it` } });

/** The component flags a scenario may set, by component; the ones the simulation acts on. */
export const COMPONENT_FLAGS: Readonly<Record<string, Readonly<Record<string, SidecarFlag>>>> = {
  // kube-controller-manager --disable-attach-detach-reconcile-sync (default false): the attach/detach
  // controller's syncStates never runs (cmd/kube-controller-manager/app/options/attachdetachcontroller.go)
  'attach-detach-controller': { 'disable-attach-detach-reconcile-sync': { sets: { input: 'disableReconcileSync' }, type: 'boolean', dflt: false } },
  // external-attacher cmd/csi-attacher/main.go: --worker-threads (default 10)
  'external-attacher': { 'worker-threads': { sets: { input: 'workerThreads' }, type: 'count', dflt: 10 }, ...API_CLIENT_FLAGS, ...V_FLAG(5) },
  // external-provisioner cmd/csi-provisioner/csi-provisioner.go: --strict-topology, --extra-create-metadata (default false)
  'external-provisioner': {
    'strict-topology': { sets: { input: 'strictTopology' }, type: 'boolean', dflt: false },
    'extra-create-metadata': { sets: { input: 'extraCreateMetadata' }, type: 'boolean', dflt: false },
    ...API_CLIENT_FLAGS, ...V_FLAG(5),
  },
  'external-resizer': { ...API_CLIENT_FLAGS, ...V_FLAG(5) },
  // cmd/csi-snapshotter/main.go: --extra-create-metadata (default false)
  'external-snapshotter': { 'extra-create-metadata': { sets: { input: 'extraCreateMetadata' }, type: 'boolean', dflt: false }, ...API_CLIENT_FLAGS, ...V_FLAG(5) },
  'node-driver-registrar': { ...V_FLAG(5) },
  kubelet: { ...V_FLAG(2) },
};

/** Where the parts of a spec come from (manifests give lines); without it errors name list positions. */
export interface SpecSources {
  /** the source of objects[i] / existing[i] */
  object?(list: 'objects' | 'existing', index: number): ObjectSource | undefined;
  /** the line of a field of the spec itself (the Scenario document) */
  line?(path: Path): number | undefined;
  /** how errors name the spec itself ("the Scenario document (document 5)") */
  label?: string;
}

/** Components whose process may restart during a story: the ones that rebuild their memory from informers. */
export const RESTARTABLE: readonly string[] = COMPONENTS.filter((c) => !c.notRestartable).map((c) => c.descriptor.name);
const NOT_RESTARTABLE: Record<string, string> = Object.fromEntries(COMPONENTS.filter((c) => c.notRestartable).map((c) => [c.descriptor.name, c.notRestartable!]));
const COMPONENT_NAMES = COMPONENTS.map((c) => c.descriptor.name);

/** What is wrong with a restart's target ("kubelet", "kubelet/node-1"), or null when the story can restart it. */
export function restartTargetError(component: string, nodeNames: readonly string[]): string | null {
  const base = component.split('/')[0]!;
  if (NOT_RESTARTABLE[base]) return NOT_RESTARTABLE[base]!;
  if (!RESTARTABLE.includes(base)) return `unknown component "${component}" (restartable: ${RESTARTABLE.join(', ')})`;
  if (component.includes('/') && !nodeNames.includes(component.slice(base.length + 1))) return `no node "${component.slice(base.length + 1)}" in the scenario`;
  return null;
}

const DEFAULT_WARM_UP = 30_000;
const DEFAULT_RUN_FOR = 120_000;
const DEFAULT_START = '2024-05-14T09:30:00Z';
const DEFAULT_NODES: NodeSpec[] = [
  { name: 'node-1', hostname: 'node-1', nodeId: 'ins-3kq8d0vz', kubeletPid: 1432 },
  { name: 'node-2', hostname: 'node-2', nodeId: 'ins-7hw2pn4c', kubeletPid: 1518 },
];

/** Backend latencies of the generic driver (µs): a cloud block store of average speed. */
const GENERIC_LATENCY: Partial<Record<CsiRpc, number>> = {
  CreateVolume: 1500 * MS, DeleteVolume: 800 * MS, ControllerPublishVolume: 2500 * MS, ControllerUnpublishVolume: 1800 * MS,
  ControllerExpandVolume: 1000 * MS, CreateSnapshot: 1200 * MS, DeleteSnapshot: 500 * MS,
  NodeStageVolume: 300 * MS, NodeUnstageVolume: 200 * MS, NodePublishVolume: 50 * MS, NodeUnpublishVolume: 40 * MS, NodeExpandVolume: 300 * MS,
};

const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** A Node object's InternalIP, when it gives one that is an IPv4 address (the kubelet writes it as its pods' hostIP). */
const internalIPOf = (o: K8sObject): { internalIP?: string } => {
  const ip = ((o.status?.addresses ?? []) as Array<{ type?: string; address?: string }>).find((a) => a.type === 'InternalIP')?.address;
  return typeof ip === 'string' && isIPv4(ip) ? { internalIP: ip } : {};
};
const DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';

/** One fault object or text, checked. `where` names it in errors. */
export function checkFault(f: unknown, where: { document: string; field: string; line?: number }, nodes?: readonly string[]): Fault {
  const err = (field: string, msg: string): never => {
    throw new ScenarioError(msg, { document: where.document, field: field ? `${where.field}.${field}` : where.field, ...(where.line !== undefined ? { line: where.line } : {}) });
  };
  if (typeof f === 'string') {
    try { return parseFaultText(f); } catch (e) { if (e instanceof FaultSyntaxError) err('', e.message); throw e; }
  }
  if (!f || typeof f !== 'object' || Array.isArray(f)) return err('', 'a fault is a text such as "NodeStageVolume=INTERNALx2" or a mapping');
  const o = f as Record<string, unknown>;
  const time = (k: 'from' | 'until'): number | undefined => {
    if (o[k] === undefined) return undefined;
    try { return parseDuration(o[k] as string | number); } catch { return err(k, `must be story milliseconds or a duration (e.g. 30s), not ${JSON.stringify(o[k])}`); }
  };
  const count = (): number | undefined => {
    if (o.count === undefined || o.count === null) return undefined;
    if (o.count === Infinity) return undefined;
    if (typeof o.count !== 'number' || !Number.isSafeInteger(o.count) || o.count < 1) return err('count', `must be an integer of at least 1, not ${JSON.stringify(o.count)}`);
    return o.count;
  };
  /** delayMs (or delay): milliseconds or a duration, more than 0; undefined when the fault names none */
  const delay = (): number | undefined => {
    const raw = o.delayMs ?? o.delay;
    if (raw === undefined) return undefined;
    let ms: number | undefined;
    try { ms = parseDuration(raw as string | number); } catch { return err('delayMs', `must be milliseconds or a duration, not ${JSON.stringify(raw)}`); }
    if (!(ms > 0)) err('delayMs', 'must be more than 0');
    return ms;
  };
  const from = time('from'), until = time('until');
  if (from !== undefined && until !== undefined && until <= from) err('until', `must come after from (${from} ms)`);
  const win = { ...(from !== undefined ? { from } : {}), ...(until !== undefined ? { until } : {}) };
  const str = (k: string): string | undefined => {
    if (o[k] === undefined) return undefined;
    if (typeof o[k] !== 'string') return err(k, `must be a string, not ${JSON.stringify(o[k])}`);
    return o[k] as string;
  };
  const nodeName = str('node');
  if (nodeName !== undefined && nodes && !nodes.includes(nodeName)) err('node', `no node "${nodeName}" in the scenario (nodes: ${nodes.join(', ')})`);
  const type = o.type ?? (o.rpc !== undefined ? 'csi' : o.verb !== undefined ? 'api' : o.op !== undefined ? 'host' : o.component !== undefined && o.delayMs !== undefined ? 'informer' : undefined);
  if (type === 'csi') {
    const rpc = str('rpc');
    if (!rpc || !isCsiRpc(rpc)) return err('rpc', `unknown CSI RPC ${JSON.stringify(o.rpc)} (e.g. NodeStageVolume, ControllerPublishVolume)`);
    const code = str('code');
    if (!code || !isGrpcCode(code) || code === 'OK') return err('code', `unknown gRPC error code ${JSON.stringify(o.code)} (e.g. DEADLINE_EXCEEDED, ABORTED, INTERNAL)`);
    const n = count();
    const message = str('message');
    const out: CsiFault = { rpc, code, ...(n !== undefined ? { count: n } : {}), ...(message ? { message } : {}), ...win, ...(nodeName ? { node: nodeName } : {}) };
    return out;
  }
  if (type === 'api') {
    const verb = str('verb');
    const verbs = ['create', 'update', 'updateStatus', 'patch', 'patchStatus', 'delete', 'get'];
    if (!verb || !verbs.includes(verb)) return err('verb', `unknown API verb ${JSON.stringify(o.verb)} (known: ${verbs.join(', ')})`);
    const kind = str('kind');
    if (!kind || !(kind in API_VERSION)) return err('kind', `unknown kind ${JSON.stringify(o.kind)}`);
    const code = o.code;
    if (code !== undefined && (typeof code !== 'number' || !Number.isInteger(code) || code < 400 || code > 599)) err('code', `must be an HTTP status from 400 to 599, not ${JSON.stringify(code)}`);
    const delayMs = delay();
    if (code === undefined && delayMs === undefined) err('', 'an API fault needs a code (the HTTP status the API server answers with) or a delayMs (how late the request lands)');
    const n = count();
    const name = str('name'), component = str('component'), message = str('message');
    if (component !== undefined && !COMPONENT_NAMES.includes(component) && !COMPONENT_NAMES.some((c) => component.startsWith(`${c}/`))) {
      err('component', `unknown component "${component}" (known: ${COMPONENT_NAMES.join(', ')})`);
    }
    const out: ApiFault = {
      verb: verb as ApiFault['verb'], kind: kind as Kind, ...(name ? { name } : {}), ...(component ? { component } : {}), ...(nodeName ? { node: nodeName } : {}),
      ...(code !== undefined ? { code: code as number } : {}), ...(delayMs !== undefined ? { delayMs } : {}), ...(n !== undefined ? { count: n } : {}),
      ...(message ? { message } : {}), ...win,
    };
    return { type: 'api', ...out };
  }
  if (type === 'informer') {
    const component = str('component');
    if (!component || (!COMPONENT_NAMES.includes(component) && !COMPONENT_NAMES.some((c) => component.startsWith(`${c}/`)))) {
      return err('component', `unknown component ${JSON.stringify(o.component)} (known: ${COMPONENT_NAMES.join(', ')})`);
    }
    const kind = str('kind');
    if (kind !== undefined && !(kind in API_VERSION)) err('kind', `unknown kind "${kind}"`);
    const delayMs = delay() ?? err('delayMs', `must be milliseconds or a duration, not ${JSON.stringify(o.delayMs ?? o.delay)}`);
    const out: InformerDelay = { component, ...(kind ? { kind: kind as Kind } : {}), delayMs, ...win };
    return { type: 'informer', ...out };
  }
  if (type === 'host') {
    const op = str('op');
    if (!op || !(HOST_OPS as readonly string[]).includes(op)) return err('op', `unknown host operation ${JSON.stringify(o.op)} (known: ${HOST_OPS.join(', ')})`);
    const errno = str('errno');
    if (errno !== undefined && !(errno in HOST_ERRNOS)) err('errno', `unknown error "${errno}" (known: ${Object.keys(HOST_ERRNOS).join(', ')})`);
    const delayMs = delay();
    if (errno === undefined && delayMs === undefined) err('', 'a host fault needs an errno (the error the operation meets, e.g. EIO) or a delayMs (how long it takes)');
    const n = count();
    const message = str('message');
    const out: HostFault = {
      op: op as HostOp, ...(errno ? { errno: errno as HostErrno } : {}), ...(delayMs !== undefined ? { delayMs } : {}), ...(n !== undefined ? { count: n } : {}),
      ...(message ? { message } : {}), ...win, ...(nodeName ? { node: nodeName } : {}),
    };
    return { type: 'host', ...out };
  }
  return err('type', `unknown fault type ${JSON.stringify(o.type)}: a fault names an rpc (CSI), a verb (API), a host operation (op) or an informer component (type: informer)`);
}

/** The faults of a list, split by type (for the cluster). */
export function splitFaults(faults: Fault[]): { csi: CsiFault[]; api: ApiFault[]; informer: InformerDelay[]; host: HostFault[] } {
  const out = { csi: [] as CsiFault[], api: [] as ApiFault[], informer: [] as InformerDelay[], host: [] as HostFault[] };
  for (const f of faults) {
    const t = faultType(f);
    if (t === 'api') { const { type: _t, ...a } = f as ApiFault & { type?: string }; out.api.push(a); }
    else if (t === 'host') { const { type: _t, ...a } = f as HostFault & { type?: string }; out.host.push(a); }
    else if (t === 'informer') { const { type: _t, ...a } = f as InformerDelay & { type?: string }; out.informer.push(a); }
    else { const { type: _t, ...a } = f as CsiFault & { type?: string }; out.csi.push(a); }
  }
  return out;
}

const isDriverProfile = (d: unknown): d is DriverProfile =>
  !!d && typeof d === 'object' && Array.isArray((d as DriverProfile).controllerCapabilities) && Array.isArray((d as DriverProfile).nodeCapabilities);

/** The generic driver a DriverSpec describes. */
export function genericDriver(name: string, d: DriverSpec = {}, fail: (field: string, msg: string) => never = (f, m) => { throw new ScenarioError(m, { field: f }); }): DriverProfile {
  for (const m of d.accessModes ?? []) if (!(ACCESS_MODES as readonly string[]).includes(m)) fail('accessModes', `unknown access mode "${m}" (known: ${ACCESS_MODES.join(', ')})`);
  const latency: Partial<Record<CsiRpc, number>> = { ...GENERIC_LATENCY };
  for (const [rpc, v] of Object.entries(d.latencies ?? {})) {
    if (!isCsiRpc(rpc)) fail(`latencies.${rpc}`, `unknown CSI RPC "${rpc}"`);
    let ms: number;
    try { ms = parseDuration(v as string | number); } catch { return fail(`latencies.${rpc}`, `must be milliseconds or a duration, not ${JSON.stringify(v)}`); }
    if (!(ms >= 0)) fail(`latencies.${rpc}`, 'must not be negative');
    latency[rpc as CsiRpc] = Math.round(ms * MS);
  }
  const attach = d.attachRequired ?? true;
  const controller: ControllerCapability[] = ['CREATE_DELETE_VOLUME'];
  if (attach) controller.push('PUBLISH_UNPUBLISH_VOLUME');
  if (d.expansion) controller.push('EXPAND_VOLUME');
  if (d.snapshots) controller.push('CREATE_DELETE_SNAPSHOT');
  if (d.cloning) controller.push('CLONE_VOLUME');
  const node: NodeCapability[] = [];
  if (d.stageUnstage ?? true) node.push('STAGE_UNSTAGE_VOLUME');
  node.push('GET_VOLUME_STATS');
  if (d.expansion) node.push('EXPAND_VOLUME');
  const modes = d.accessModes ?? ['ReadWriteOnce', 'ReadWriteOncePod'];
  return {
    id: 'generic', name, vendorVersion: d.vendorVersion ?? 'v1.0.0', controllerCapabilities: controller, nodeCapabilities: node,
    attachRequired: attach, topologyKeys: [], latency, defaultFsType: d.fsType ?? 'ext4', volumeIdStyle: 'generic', logStyle: 'csi-common',
    multiNodeAccess: modes.includes('ReadWriteMany') || modes.includes('ReadOnlyMany'),
    ...(d.block === false ? { noRawBlock: true } : {}),
  };
}

interface Located { o: K8sObject; src: ObjectSource }

/** Check a spec and turn it into a runnable Scenario. Every mistake: one ScenarioError. */
export function compileScenario(spec: ScenarioSpec, sources: SpecSources = {}): Scenario & { spec: ScenarioSpec } {
  const label = sources.label ?? 'the scenario';
  const fail = (path: Path, msg: string): never => {
    const line = sources.line?.(path);
    throw new ScenarioError(msg, { document: label, field: path.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.').replace(/\.\[/g, '['), ...(line !== undefined ? { line } : {}) });
  };
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) throw new ScenarioError('a scenario is an id (see SCENARIOS) or a ScenarioSpec object');
  const known = new Set(['id', 'title', 'summary', 'k8s', 'driver', 'nodes', 'objects', 'existing', 'actions', 'faults', 'runFor', 'warmUp', 'start', 'timeZone', 'heartbeats', 'without', 'startLate', 'flags', 'apiServerUrl']);
  for (const k of Object.keys(spec)) if (!known.has(k)) fail([k], `unknown field (known: ${[...known].join(', ')})`);
  const id = spec.id ?? 'custom';
  if (typeof id !== 'string' || !/^[a-z0-9][-a-z0-9_.]*$/i.test(id)) fail(['id'], `must be a short name (letters, digits, "-"), not ${JSON.stringify(spec.id)}`);
  if (spec.k8s !== undefined && !isProfileId(String(spec.k8s))) fail(['k8s'], `unknown Kubernetes version "${spec.k8s}" (known: ${PROFILE_IDS.join(', ')})`);
  const ms = (path: Path, v: number | string | undefined, dflt: number, min = 0): number => {
    if (v === undefined) return dflt;
    let n: number;
    try { n = parseDuration(v); } catch { return fail(path, `must be milliseconds or a duration (e.g. 30s, 2m), not ${JSON.stringify(v)}`); }
    if (n < min) fail(path, `must be at least ${min} ms`);
    return n;
  };
  const warmUp = ms(['warmUp'], spec.warmUp, DEFAULT_WARM_UP, 1000);
  const runFor = ms(['runFor'], spec.runFor, DEFAULT_RUN_FOR, 1);
  if (runFor > 24 * 3_600_000) fail(['runFor'], 'a story runs at most 24h');
  if (spec.without !== undefined) {
    if (!Array.isArray(spec.without)) fail(['without'], `must be a list of component names (known: ${COMPONENT_NAMES.join(', ')})`);
    spec.without.forEach((c, i) => {
      if (typeof c !== 'string' || !COMPONENT_NAMES.includes(c)) fail(['without', i], `unknown component ${JSON.stringify(c)} (known: ${COMPONENT_NAMES.join(', ')})`);
    });
  }
  const { componentInputs, apiClients } = readFlags(spec.flags, fail);
  if (spec.apiServerUrl !== undefined && (typeof spec.apiServerUrl !== 'string' || !/^https?:\/\/[^/\s]+$/.test(spec.apiServerUrl))) {
    fail(['apiServerUrl'], `must be the API server's URL, scheme and host only (e.g. https://10.0.0.1:443), not ${JSON.stringify(spec.apiServerUrl)}`);
  }
  const start = spec.start ?? DEFAULT_START;
  if (typeof start !== 'string' || Number.isNaN(Date.parse(start))) fail(['start'], `must be an ISO 8601 time such as 2024-05-14T09:30:00Z, not ${JSON.stringify(spec.start)}`);

  // ------------------------------------------------------------------ objects
  const located: Array<Located & { list: 'objects' | 'existing' }> = [];
  for (const list of ['existing', 'objects'] as const) {
    const arr = spec[list];
    if (arr === undefined) continue;
    if (!Array.isArray(arr)) fail([list], 'must be a list of Kubernetes objects');
    arr.forEach((raw, i) => {
      const name = raw && typeof raw === 'object' ? `${(raw as K8sObject).kind ?? '?'} ${(raw as K8sObject).metadata?.namespace ? `${(raw as K8sObject).metadata.namespace}/` : ''}${(raw as K8sObject).metadata?.name ?? '?'}` : '?';
      const src = sources.object?.(list, i) ?? { document: `${list}[${i}] (${name})`, documentIndex: i + 1 };
      located.push({ o: checkObject(raw, src), src, list });
    });
  }
  const seen = new Map<string, Located>();
  for (const l of located) {
    const k = keyOf(l.o);
    const prev = seen.get(k);
    if (prev) new Checker(l.src).fail(['metadata', 'name'], `${l.o.kind} ${name(l.o)} is defined twice (also in ${prev.src.document})`);
    seen.set(k, l);
  }
  const of = (kind: Kind) => located.filter((l) => l.o.kind === kind);

  // ------------------------------------------------------------------ nodes
  const nodeDocs = of('Node');
  let nodes: Array<NodeSpec & { unschedulable?: boolean }>;
  if (spec.nodes !== undefined && nodeDocs.length > 0) new Checker(nodeDocs[0]!.src).fail([], 'give the nodes either as Node objects or in the scenario\'s nodes list, not both');
  if (nodeDocs.length > 0) {
    nodes = nodeDocs.map((l) => ({
      name: l.o.metadata.name, hostname: l.o.metadata.labels?.['kubernetes.io/hostname'] ?? l.o.metadata.name,
      ...internalIPOf(l.o),
      ...(l.o.metadata.labels ? { labels: { ...l.o.metadata.labels } } : {}), ...(l.o.spec?.unschedulable ? { unschedulable: true } : {}),
    }));
  } else if (spec.nodes !== undefined) {
    if (!Array.isArray(spec.nodes) || spec.nodes.length === 0) fail(['nodes'], 'must be a non-empty list of node names or nodes');
    nodes = spec.nodes.map((n, i) => {
      if (typeof n === 'string') n = { name: n };
      if (!n || typeof n !== 'object' || typeof n.name !== 'string' || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(n.name)) fail(['nodes', i, 'name'], `a node needs a valid name (lower-case letters, digits, "-", "."), not ${JSON.stringify((n as { name?: unknown })?.name)}`);
      const { zone, unschedulable, ...rest } = n;
      if (zone !== undefined && typeof zone !== 'string') fail(['nodes', i, 'zone'], 'must be a string');
      for (const f of ['kubeletPid'] as const) if (rest[f] !== undefined && (!Number.isSafeInteger(rest[f]) || rest[f]! < 1)) fail(['nodes', i, f], 'must be a positive integer');
      if (rest.internalIP !== undefined && (typeof rest.internalIP !== 'string' || !isIPv4(rest.internalIP))) fail(['nodes', i, 'internalIP'], `must be an IPv4 address (e.g. 10.0.1.11), not ${JSON.stringify(rest.internalIP)}`);
      const { kubeletUptime, nodeStatusOffset, ...plain } = rest;
      let uptimeUs: number | undefined;
      if (kubeletUptime !== undefined) {
        // the times the kubelet prints carry its process's monotonic clock (m=+…): how long it has been up when the cluster starts
        try { uptimeUs = Math.round(parseDuration(kubeletUptime) * 1000); } catch { fail(['nodes', i, 'kubeletUptime'], `must be milliseconds or a duration (e.g. 36h46m40s), not ${JSON.stringify(kubeletUptime)}`); }
        if (uptimeUs! < 0) fail(['nodes', i, 'kubeletUptime'], 'must be at least 0');
      }
      let offsetUs: number | undefined;
      if (nodeStatusOffset !== undefined) {
        try { offsetUs = Math.round(parseDuration(nodeStatusOffset) * 1000); } catch { fail(['nodes', i, 'nodeStatusOffset'], `must be milliseconds or a duration (e.g. 6s), not ${JSON.stringify(nodeStatusOffset)}`); }
        if (offsetUs! < 0 || offsetUs! >= 10_000_000) fail(['nodes', i, 'nodeStatusOffset'], 'must be at least 0 and under 10s (the node status update period)');
      }
      return { hostname: plain.name, ...plain, ...(uptimeUs !== undefined ? { kubeletUptimeUs: uptimeUs } : {}), ...(offsetUs !== undefined ? { nodeStatusOffsetUs: offsetUs } : {}), ...(zone ? { labels: { ...plain.labels, [ZONE_LABEL]: zone } } : {}), ...(unschedulable ? { unschedulable: true } : {}) };
    });
  } else {
    nodes = DEFAULT_NODES.map((n) => ({ ...n }));
  }
  const nodeNames = nodes.map((n) => n.name);
  const dup = nodeNames.find((n, i) => nodeNames.indexOf(n) !== i);
  if (dup) fail(['nodes'], `node ${dup} is given twice`);

  // ------------------------------------------------------------------ driver
  const classes = of('StorageClass');
  const csiDrivers = of('CSIDriver');
  const named = new Map<string, { l: Located; path: Path }>(); // driver name -> where it is named
  for (const l of classes) named.set(l.o.provisioner, { l, path: ['provisioner'] });
  for (const l of of('PersistentVolume')) named.set(l.o.spec.csi.driver, { l, path: ['spec', 'csi', 'driver'] });
  for (const l of csiDrivers) named.set(l.o.metadata.name, { l, path: ['metadata', 'name'] });
  for (const l of of('VolumeSnapshotClass')) named.set(l.o.driver, { l, path: ['driver'] });
  let driver: DriverProfile;
  const d = spec.driver;
  const driverFail = (field: string, msg: string): never => fail(['driver', ...field.split('.')], msg);
  if (typeof d === 'string') {
    const builtIn = DRIVERS[d] ?? Object.values(DRIVERS).find((x) => x.name === d);
    driver = builtIn ?? genericDriver(d, { attachRequired: attachOf(csiDrivers, d) }, driverFail);
  } else if (isDriverProfile(d)) {
    if (typeof d.name !== 'string' || !d.name) fail(['driver', 'name'], 'a driver profile needs a name');
    driver = d;
  } else if (d !== undefined && (typeof d !== 'object' || Array.isArray(d))) {
    return fail(['driver'], 'must be a driver profile id ("cbs", "ceph-rbd"), a driver name, or the capabilities of a generic driver');
  } else {
    const ds = (d ?? {}) as DriverSpec;
    const knownD = new Set(['name', 'attachRequired', 'stageUnstage', 'accessModes', 'block', 'expansion', 'snapshots', 'cloning', 'latencies', 'vendorVersion', 'fsType']);
    for (const k of Object.keys(ds)) if (!knownD.has(k)) fail(['driver', k], `unknown driver field (known: ${[...knownD].join(', ')})`);
    for (const k of ['attachRequired', 'stageUnstage', 'block', 'expansion', 'snapshots', 'cloning'] as const) {
      if (ds[k] !== undefined && typeof ds[k] !== 'boolean') fail(['driver', k], `must be true or false, not ${JSON.stringify(ds[k])}`);
    }
    if (ds.accessModes !== undefined && !Array.isArray(ds.accessModes)) fail(['driver', 'accessModes'], 'must be a list of access modes');
    const candidates = [...named.keys()];
    const name = ds.name ?? candidates[0] ?? 'csi.example.com';
    driver = genericDriver(name, { ...ds, attachRequired: ds.attachRequired ?? attachOf(csiDrivers, name) }, driverFail);
  }
  for (const [other, where] of named) {
    if (other === driver.name) continue;
    const first = [...named].find(([n]) => n === driver.name)?.[1];
    new Checker(where.l.src).fail(where.path, `one CSI driver per scenario: the driver is ${driver.name}${first ? ` (named in ${first.l.src.document})` : spec.driver !== undefined ? ' (the scenario\'s driver)' : ''}, but this names ${other}`);
  }
  const attachRequiredByCsiDriver = attachOf(csiDrivers, driver.name) ?? driver.attachRequired;

  // ------------------------------------------------------------------ cross references
  let defaultClass = classes.find((l) => l.o.metadata.annotations?.[DEFAULT_CLASS] === 'true');
  if (!defaultClass && classes.length === 1) defaultClass = classes[0];
  const claimNames = new Set(of('PersistentVolumeClaim').map((l) => objectKey('PersistentVolumeClaim', l.o.metadata.namespace, l.o.metadata.name)));
  const podNames = new Set(of('Pod').map((l) => objectKey('Pod', l.o.metadata.namespace, l.o.metadata.name)));
  for (const l of of('StatefulSet')) {
    for (let i = 0; i < l.o.spec.replicas; i++) {
      podNames.add(objectKey('Pod', l.o.metadata.namespace, `${l.o.metadata.name}-${i}`));
      for (const t of l.o.spec.volumeClaimTemplates ?? []) claimNames.add(objectKey('PersistentVolumeClaim', l.o.metadata.namespace, `${t.metadata.name}-${l.o.metadata.name}-${i}`));
    }
  }
  /** objects the story's actions create, in the order it creates them (filled while the actions are read) */
  const createdLater = new Set<string>();
  const checkClaim = (c: Checker, spec0: Record<string, unknown>, at: Path, ns: string): void => {
    const cls = spec0.storageClassName as string | undefined;
    if (cls === undefined) {
      // the DefaultStorageClass admission plugin sets it (the only StorageClass counts as the default here)
      if (defaultClass) spec0.storageClassName = defaultClass.o.metadata.name;
      else if (classes.length > 1) c.fail([...at, 'storageClassName'], `is not set and no StorageClass is marked default (${DEFAULT_CLASS}: "true"); name one of ${classes.map((x) => x.o.metadata.name).join(', ')}`);
    } else if (cls !== '' && !classes.some((x) => x.o.metadata.name === cls) && !of('PersistentVolume').some((p) => p.o.spec.storageClassName === cls)) {
      c.fail([...at, 'storageClassName'], `no StorageClass "${cls}" in the scenario${classes.length ? ` (StorageClasses: ${classes.map((x) => x.o.metadata.name).join(', ')})` : ''}`);
    }
    const ds = spec0.dataSource as { kind: string; name: string } | undefined;
    if (ds?.kind === 'PersistentVolumeClaim' && !claimNames.has(objectKey('PersistentVolumeClaim', ns, ds.name))) c.fail([...at, 'dataSource', 'name'], `no PersistentVolumeClaim "${ds.name}" in namespace ${ns} to clone`);
    // a snapshot there at the start, or created by an earlier action of the story
    if (ds?.kind === 'VolumeSnapshot' && !of('VolumeSnapshot').some((x) => x.o.metadata.name === ds.name && x.o.metadata.namespace === ns) && !createdLater.has(objectKey('VolumeSnapshot', ns, ds.name))) c.fail([...at, 'dataSource', 'name'], `no VolumeSnapshot "${ds.name}" in namespace ${ns}`);
    if (ds && !driver.controllerCapabilities.includes(ds.kind === 'VolumeSnapshot' ? 'CREATE_DELETE_SNAPSHOT' : 'CLONE_VOLUME')) {
      c.fail([...at, 'dataSource'], `the driver ${driver.name} cannot ${ds.kind === 'VolumeSnapshot' ? 'restore snapshots (give it snapshots: true)' : 'clone volumes (give it cloning: true)'}`);
    }
  };
  for (const l of of('PersistentVolumeClaim')) checkClaim(new Checker(l.src), l.o.spec, ['spec'], l.o.metadata.namespace!);
  for (const l of of('StatefulSet')) {
    (l.o.spec.volumeClaimTemplates ?? []).forEach((t: { spec: Record<string, unknown> }, i: number) => checkClaim(new Checker(l.src), t.spec, ['spec', 'volumeClaimTemplates', i, 'spec'], l.o.metadata.namespace!));
  }
  const checkPodVolumes = (c: Checker, podSpec: K8sObject['spec'], at: Path, ns: string, templateClaims: string[] = []): void => {
    const vols = (podSpec.volumes ?? []) as Array<{ name: string; persistentVolumeClaim?: { claimName: string } }>;
    const names = new Set([...vols.map((v) => v.name), ...templateClaims]);
    vols.forEach((v, i) => {
      if (v.persistentVolumeClaim && !claimNames.has(objectKey('PersistentVolumeClaim', ns, v.persistentVolumeClaim.claimName))) {
        c.fail([...at, 'volumes', i, 'persistentVolumeClaim', 'claimName'], `no PersistentVolumeClaim "${v.persistentVolumeClaim.claimName}" in namespace ${ns} (claims: ${[...claimNames].filter((k) => k.startsWith(`PersistentVolumeClaim/${ns}/`)).map((k) => k.split('/').pop()).join(', ') || 'none'})`);
      }
    });
    ((podSpec.containers ?? []) as Array<{ volumeMounts?: Array<{ name: string }> }>).forEach((ct, i) => (ct.volumeMounts ?? []).forEach((m, j) => {
      if (!names.has(m.name)) c.fail([...at, 'containers', i, 'volumeMounts', j, 'name'], `no volume "${m.name}" in the pod's volumes${templateClaims.length ? ' or claim templates' : ''}`);
    }));
    if (podSpec.nodeName !== undefined && !nodeNames.includes(podSpec.nodeName)) c.fail([...at, 'nodeName'], `no node "${podSpec.nodeName}" in the scenario (nodes: ${nodeNames.join(', ')})`);
  };
  for (const l of of('Pod')) checkPodVolumes(new Checker(l.src), l.o.spec, ['spec'], l.o.metadata.namespace!);
  for (const l of of('StatefulSet')) checkPodVolumes(new Checker(l.src), l.o.spec.template.spec, ['spec', 'template', 'spec'], l.o.metadata.namespace!, (l.o.spec.volumeClaimTemplates ?? []).map((t: K8sObject) => t.metadata.name));
  for (const l of of('PersistentVolume')) {
    const ref = l.o.spec.claimRef as { namespace: string; name: string } | undefined;
    if (ref && !claimNames.has(objectKey('PersistentVolumeClaim', ref.namespace, ref.name))) new Checker(l.src).fail(['spec', 'claimRef', 'name'], `no PersistentVolumeClaim "${ref.name}" in namespace ${ref.namespace} for this volume to bind to`);
  }
  for (const l of of('VolumeSnapshot')) {
    const c = new Checker(l.src);
    if (l.o.spec.source.volumeSnapshotContentName) c.fail(['spec', 'source', 'volumeSnapshotContentName'], 'pre-provisioned snapshots are not simulated; take the snapshot of a claim (persistentVolumeClaimName)');
    if (!claimNames.has(objectKey('PersistentVolumeClaim', l.o.metadata.namespace, l.o.spec.source.persistentVolumeClaimName))) c.fail(['spec', 'source', 'persistentVolumeClaimName'], `no PersistentVolumeClaim "${l.o.spec.source.persistentVolumeClaimName}" in namespace ${l.o.metadata.namespace}`);
    const cls = l.o.spec.volumeSnapshotClassName;
    if (cls !== undefined && !of('VolumeSnapshotClass').some((x) => x.o.metadata.name === cls)) c.fail(['spec', 'volumeSnapshotClassName'], `no VolumeSnapshotClass "${cls}" in the scenario`);
    if (!driver.controllerCapabilities.includes('CREATE_DELETE_SNAPSHOT')) c.fail([], `the driver ${driver.name} does not take snapshots (give it snapshots: true)`);
  }
  for (const l of of('VolumeSnapshotContent')) new Checker(l.src).fail(['kind'], 'pre-provisioned VolumeSnapshotContents are not simulated; the snapshot controller creates one for each VolumeSnapshot');

  // ------------------------------------------------------------------ actions
  const actions: Array<{ at: number; a: UserAction }> = [];
  if (spec.actions !== undefined && !Array.isArray(spec.actions)) fail(['actions'], 'must be a list of actions');
  const deletedAt = new Map<string, number>();
  (spec.actions ?? []).forEach((raw, i) => {
    const at0: Path = ['actions', i];
    if (!raw || typeof raw !== 'object') fail(at0, 'an action is a mapping with at and do');
    const a = raw as StoryAction & Record<string, unknown>;
    const at = ms([...at0, 'at'], a.at, NaN, -warmUp + 1);
    if (Number.isNaN(at)) fail([...at0, 'at'], 'is required: when it happens, in story milliseconds or as a duration (30s)');
    if (at > runFor) fail([...at0, 'at'], `comes after the story ends (runFor ${runFor} ms)`);
    const summary = a.summary === undefined ? {} : typeof a.summary === 'string' ? { summary: a.summary } : fail([...at0, 'summary'], 'must be a string');
    const target = (kind: unknown, nsRaw: unknown, nm: unknown): { kind: Kind; namespace?: string; name: string } => {
      if (typeof kind !== 'string' || !(SCENARIO_KINDS as readonly string[]).includes(kind) && kind !== 'VolumeAttachment') fail([...at0, 'kind'], `unknown kind ${JSON.stringify(kind)} (known: ${SCENARIO_KINDS.join(', ')}, VolumeAttachment)`);
      if (typeof nm !== 'string' || !nm) fail([...at0, 'name'], 'is required');
      const k = kind as Kind;
      const ns = CLUSTER_SCOPED.has(k) ? undefined : (typeof nsRaw === 'string' ? nsRaw : 'default');
      const key = objectKey(k, ns, nm as string);
      const knownTarget = seen.has(key) || createdLater.has(key) || (k === 'Pod' && podNames.has(key)) || (k === 'PersistentVolumeClaim' && claimNames.has(key))
        || (k === 'Node' && nodeNames.includes(nm as string)) || k === 'PersistentVolume' || k === 'VolumeAttachment' || k === 'VolumeSnapshotContent' || (k === 'CSIDriver' && nm === driver.name);
      if (!knownTarget) fail([...at0, 'name'], `no ${k} "${nm}"${ns ? ` in namespace ${ns}` : ''} in the scenario`);
      return { kind: k, ...(ns ? { namespace: ns } : {}), name: nm as string };
    };
    switch (a.do) {
      case 'create': {
        const src: ObjectSource = { document: `${label}, ${pathLabel([...at0, 'object'])}`, ...(sources.line ? { line: (p: Path) => sources.line!([...at0, 'object', ...p]) } : {}) };
        const o = checkObject(a.object, src);
        const key = keyOf(o);
        // an object deleted earlier in the story may be created again (a StatefulSet deleted and re-created)
        const gone = deletedAt.get(key);
        if ((seen.has(key) || createdLater.has(key)) && !(gone !== undefined && gone <= at)) new Checker(src).fail(['metadata', 'name'], `${o.kind} ${name(o)} already exists in the scenario`);
        deletedAt.delete(key);
        createdLater.add(key);
        if (o.kind === 'Pod') { podNames.add(key); checkPodVolumes(new Checker(src), o.spec, ['spec'], o.metadata.namespace!); }
        if (o.kind === 'PersistentVolumeClaim') { claimNames.add(key); checkClaim(new Checker(src), o.spec, ['spec'], o.metadata.namespace!); }
        if (o.kind === 'Node') new Checker(src).fail(['kind'], 'a node joins with a startNode action on a node of the scenario, not by creating a Node object');
        actions.push({ at, a: { at: 0, do: 'create', object: o, ...summary } });
        break;
      }
      case 'delete': {
        const t = target(a.kind, a.namespace, a.name);
        deletedAt.set(objectKey(t.kind, t.namespace, t.name), at);
        const grace = a.gracePeriodSeconds;
        if (grace !== undefined && (typeof grace !== 'number' || !Number.isSafeInteger(grace) || grace < 0)) fail([...at0, 'gracePeriodSeconds'], 'must be an integer of at least 0');
        actions.push({ at, a: { at: 0, do: 'delete', ...t, ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}), ...summary } });
        break;
      }
      case 'patch': {
        const t = target(a.kind, a.namespace, a.name);
        if (!a.patch || typeof a.patch !== 'object' || Array.isArray(a.patch)) fail([...at0, 'patch'], 'must be a mapping (a JSON merge patch, e.g. {spec: {unschedulable: true}})');
        actions.push({ at, a: { at: 0, do: 'patch', ...t, patch: a.patch as Record<string, unknown>, ...summary } });
        break;
      }
      case 'shutdownNode': case 'startNode': {
        if (typeof a.node !== 'string' || !nodeNames.includes(a.node)) fail([...at0, 'node'], `no node ${JSON.stringify(a.node)} in the scenario (nodes: ${nodeNames.join(', ')})`);
        actions.push({ at, a: { at: 0, do: a.do, node: a.node as string, ...summary } });
        break;
      }
      case 'taint': {
        if (typeof a.node !== 'string' || !nodeNames.includes(a.node)) fail([...at0, 'node'], `no node ${JSON.stringify(a.node)} in the scenario (nodes: ${nodeNames.join(', ')})`);
        const t = typeof a.taint === 'string' ? parseTaint(a.taint) : 'is required: key[=value]:effect, e.g. node.kubernetes.io/out-of-service=nodeshutdown:NoExecute';
        if (typeof t === 'string') fail([...at0, 'taint'], t);
        actions.push({ at, a: { at: 0, do: 'taint', node: a.node as string, taint: a.taint as string, ...summary } });
        break;
      }
      case 'restart': {
        const c = a.component;
        if (typeof c !== 'string') return fail([...at0, 'component'], `is required (one of ${RESTARTABLE.join(', ')})`);
        const wrong = restartTargetError(c, nodeNames);
        if (wrong) fail([...at0, 'component'], wrong);
        actions.push({ at, a: { at: 0, do: 'restart', component: c, ...summary } });
        break;
      }
      default:
        fail([...at0, 'do'], `unknown action ${JSON.stringify((a as { do?: unknown }).do)} (known: create, delete, patch, shutdownNode, startNode, restart, taint)`);
    }
  });

  // ------------------------------------------------------------------ faults
  if (spec.faults !== undefined && !Array.isArray(spec.faults)) fail(['faults'], 'must be a list of faults');
  const faults = (spec.faults ?? []).map((f, i) => {
    const line = sources.line?.(['faults', i]);
    return checkFault(f, { document: label, field: `faults[${i}]`, ...(line !== undefined ? { line } : {}) }, nodeNames);
  });

  // ------------------------------------------------------------------ the engine's data
  const installCsiDriver = csiDrivers.length === 0;
  const csiDriverObject: K8sObject = {
    apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: driver.name },
    spec: { attachRequired: attachRequiredByCsiDriver, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'] },
  };
  if (defaultClass && defaultClass.o.metadata.annotations?.[DEFAULT_CLASS] !== 'true') {
    defaultClass.o.metadata.annotations = { ...defaultClass.o.metadata.annotations, [DEFAULT_CLASS]: 'true' };
  }
  const nodeObjects = nodes.map((n, i) => {
    const o = nodeObject(n, i);
    return n.unschedulable ? { ...o, spec: { ...o.spec, unschedulable: true } } : o;
  });
  const existing = dependenciesFirst(located.filter((l) => l.list === 'existing' && l.o.kind !== 'Node').map((l) => l.o));
  const atStart = dependenciesFirst(located.filter((l) => l.list === 'objects' && l.o.kind !== 'Node').map((l) => l.o));
  // the cluster's configuration (classes, the CSIDriver) comes before the nodes, as an installer creates it
  const isConfig = (o: K8sObject) => CONFIG_KINDS.has(o.kind);
  // a statically provisioned volume exists in the backend before anything asks for it
  const backend: BackendVolume[] = [...located.map((l) => l.o), ...actions.map((x) => (x.a.do === 'create' ? x.a.object : undefined))]
    .filter((o): o is K8sObject => o?.kind === 'PersistentVolume')
    .map((pv) => ({ volumeId: pv.spec.csi.volumeHandle, name: pv.metadata.name, capacityBytes: quantityBytes(pv.spec.capacity.storage) }));
  const nodeSpecs: NodeSpec[] = nodes.map(({ unschedulable: _u, ...n }) => n);
  const zones = nodeSpecs.some((n) => n.labels?.[ZONE_LABEL]);
  const profile: DriverProfile = zones && driver.topologyKeys.length === 0 ? { ...driver, topologyKeys: [ZONE_LABEL] } : driver;

  const title = spec.title ?? `Custom scenario${spec.id ? ` ${spec.id}` : ''}`;
  const W = Math.round(warmUp * 1000);
  // startLate: checked against the components and this scenario's nodes, kept in cluster µs
  const startAt: Record<string, number> = {};
  if (spec.startLate !== undefined) {
    if (typeof spec.startLate !== 'object' || spec.startLate === null || Array.isArray(spec.startLate)) fail(['startLate'], 'must map component names (or name/node) to a story time, e.g. { csi-node-plugin/node-1: 25s }');
    for (const [key, v] of Object.entries(spec.startLate)) {
      const [name, node, extra] = key.split('/');
      if (!COMPONENT_NAMES.includes(name!) || extra !== undefined) fail(['startLate', key], `unknown component ${JSON.stringify(key)} (known: ${COMPONENT_NAMES.join(', ')}, each optionally followed by /<node>)`);
      if (node !== undefined && !nodeNames.includes(node)) fail(['startLate', key], `no node "${node}" in the scenario (nodes: ${nodeNames.join(', ')})`);
      let at: number;
      try { at = parseDuration(v as string | number); } catch { return fail(['startLate', key], `must be story milliseconds or a duration (e.g. 25s), not ${JSON.stringify(v)}`); }
      if (at > runFor) fail(['startLate', key], `starts after the story ends (runFor ${runFor} ms)`);
      startAt[key] = W + Math.round(at * 1000);
    }
  }
  return {
    id, title, summary: spec.summary ?? '', ...(spec.k8s ? { k8s: spec.k8s as ProfileId } : {}),
    spec,
    build: (): ScenarioData => ({
      ...faultLists(splitFaults(faults)),
      driver: profile, nodes: nodeSpecs,
      objects: [...existing.filter(isConfig), ...(installCsiDriver ? [csiDriverObject] : []), ...nodeObjects, ...existing.filter((o) => !isConfig(o))],
      actions: [
        ...atStart.map((o): UserAction => ({ at: W, do: 'create', object: o })),
        ...actions.map((x) => ({ ...x.a, at: W + Math.round(x.at * 1000) }) as UserAction),
      ],
      start, hostTz: spec.timeZone ?? { offsetMin: 0, zone: 'UTC' },
      runFor: W + Math.round(runFor * 1000), recordFrom: W,
      backend, heartbeats: spec.heartbeats ?? true, ...(spec.without?.length ? { without: [...spec.without] } : {}),
      ...(Object.keys(startAt).length ? { startAt } : {}),
      ...(componentInputs ? { componentInputs } : {}), ...(apiClients ? { apiClients } : {}),
      ...(spec.apiServerUrl ? { apiServerUrl: spec.apiServerUrl } : {}),
    }),
  };
}

const CONFIG_KINDS: ReadonlySet<Kind> = new Set(['StorageClass', 'VolumeSnapshotClass', 'CSIDriver', 'Secret']);

/**
 * The objects in the order they are written, except that an object's dependencies come before it: the
 * cluster's configuration first, then a claim's class and source, a pod's claims, a snapshot's claim and
 * class. Creation order decides the uids the API server hands out, so a file written in a built-in
 * scenario's order (scenarioFile) runs to the same trace.
 */
function dependenciesFirst(objects: K8sObject[]): K8sObject[] {
  const byKey = new Map(objects.map((o) => [keyOf(o), o]));
  const out: K8sObject[] = [];
  const placed = new Set<string>();
  const ref = (kind: Kind, namespace: string | undefined, n: unknown): string | undefined => {
    if (typeof n !== 'string') return undefined;
    const k = objectKey(kind, CLUSTER_SCOPED.has(kind) ? undefined : namespace, n);
    return byKey.has(k) ? k : undefined;
  };
  const depsOf = (o: K8sObject): Array<string | undefined> => {
    const ns = o.metadata.namespace;
    switch (o.kind) {
      case 'Pod':
        return ((o.spec.volumes ?? []) as Array<{ persistentVolumeClaim?: { claimName?: string } }>).map((v) => ref('PersistentVolumeClaim', ns, v.persistentVolumeClaim?.claimName));
      case 'PersistentVolumeClaim':
        return [ref('StorageClass', undefined, o.spec.storageClassName), ...(o.spec.dataSource ? [ref(o.spec.dataSource.kind as Kind, ns, o.spec.dataSource.name)] : [])];
      case 'PersistentVolume':
        return [ref('StorageClass', undefined, o.spec.storageClassName)];
      case 'StatefulSet':
        return ((o.spec.volumeClaimTemplates ?? []) as Array<{ spec?: { storageClassName?: string } }>).map((t) => ref('StorageClass', undefined, t.spec?.storageClassName));
      case 'VolumeSnapshot':
        return [ref('PersistentVolumeClaim', ns, o.spec.source?.persistentVolumeClaimName), ref('VolumeSnapshotClass', undefined, o.spec.volumeSnapshotClassName)];
      default:
        return [];
    }
  };
  const visit = (o: K8sObject, path: Set<string>): void => {
    const k = keyOf(o);
    if (placed.has(k) || path.has(k)) return; // a cycle (a claim cloned from itself) is refused elsewhere
    path.add(k);
    for (const d of depsOf(o)) if (d !== undefined) visit(byKey.get(d)!, path);
    placed.add(k);
    out.push(o);
  };
  for (const o of objects.filter((x) => CONFIG_KINDS.has(x.kind))) visit(o, new Set());
  for (const o of objects) visit(o, new Set());
  return out;
}

/** the highest -v a scenario may set (klog takes any Level; the catalog's lines need at most 8) */
const MAX_V = 10;

/** spec.flags → the components' inputs and their client-go rate limiters, checked against COMPONENT_FLAGS. */
function readFlags(flags: ScenarioSpec['flags'], fail: (path: Path, msg: string) => never): Pick<ScenarioData, 'componentInputs' | 'apiClients'> {
  if (flags === undefined) return {};
  if (!flags || typeof flags !== 'object' || Array.isArray(flags)) return fail(['flags'], 'must map components to their flags, e.g. { external-attacher: { worker-threads: 100 } }');
  const componentInputs: Record<string, Record<string, unknown>> = {};
  const apiClients: Record<string, { qps: number; burst: number }> = {};
  for (const [component, set] of Object.entries(flags)) {
    const known = COMPONENT_FLAGS[component];
    if (!known) fail(['flags', component], `no flags of ${JSON.stringify(component)} are simulated (components with flags: ${Object.keys(COMPONENT_FLAGS).join(', ')})`);
    if (!set || typeof set !== 'object' || Array.isArray(set)) fail(['flags', component], `must map flags to values, e.g. { ${Object.keys(known!)[0]}: ${String(Object.values(known!)[0]!.dflt)} }`);
    for (const [flag, value] of Object.entries(set)) {
      const f = known![flag.replace(/^--/, '')];
      if (!f) fail(['flags', component, flag], `${component} has no simulated flag --${flag.replace(/^--/, '')} (simulated: ${Object.keys(known!).map((k) => `--${k}`).join(', ')})`);
      const ok = f!.type === 'boolean' ? typeof value === 'boolean'
        : f!.type === 'count' ? Number.isSafeInteger(value) && (value as number) >= 1
          : f!.type === 'level' ? Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_V
            : typeof value === 'number' && value > 0 && Number.isFinite(value);
      const wanted = { boolean: 'true or false', count: 'a whole number of at least 1', level: `a whole number from 0 to ${MAX_V}`, rate: 'a number above 0' }[f!.type];
      if (!ok) fail(['flags', component, flag], `must be ${wanted} (upstream's default: ${String(f!.dflt)}${f!.note ? `; ${f!.note}` : ''}), not ${JSON.stringify(value)}`);
      if ('input' in f!.sets) (componentInputs[component] ??= {})[f!.sets.input] = value;
      else {
        const c = (apiClients[component] ??= { qps: API_CLIENT_FLAGS['kube-api-qps']!.dflt as number, burst: API_CLIENT_FLAGS['kube-api-burst']!.dflt as number });
        c[f!.sets.client] = value as number;
      }
    }
  }
  return {
    ...(Object.keys(componentInputs).length ? { componentInputs } : {}),
    ...(Object.keys(apiClients).length ? { apiClients } : {}),
  };
}

const faultLists = (f: ReturnType<typeof splitFaults>): Pick<ScenarioData, 'csiFaults' | 'apiFaults' | 'informerDelays' | 'hostFaults'> => ({
  ...(f.csi.length ? { csiFaults: f.csi } : {}), ...(f.api.length ? { apiFaults: f.api } : {}), ...(f.informer.length ? { informerDelays: f.informer } : {}),
  ...(f.host.length ? { hostFaults: f.host } : {}),
});

/** attachRequired of the driver's CSIDriver object, when the scenario has one. */
function attachOf(csiDrivers: Located[], name: string): boolean | undefined {
  const d = csiDrivers.find((l) => l.o.metadata.name === name);
  return d ? d.o.spec.attachRequired !== false : undefined;
}

const name = (o: K8sObject): string => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name);
const pathLabel = (p: Path): string => p.map((x) => (typeof x === 'number' ? `[${x}]` : x)).join('.').replace(/\.\[/g, '[');
