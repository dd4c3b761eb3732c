/**
 * The simulated cluster: runs component machines on a virtual clock and connects them only the way
 * real components are connected, through API objects (watch events, writes) and CSI RPCs. Every
 * step of a trace is recorded here, as it happens.
 *
 * Determinism: one agenda ordered by (virtual time, insertion order), one seeded RNG for latencies,
 * uids and log-line jitter. The same scenario, options and seed give the same trace, byte for byte.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { ComponentStepper } from './componentStepper.ts';
import type {
  ApiRequestEmitted, ClusterEmitted, ClusterEvent, ComponentDescriptor, ComponentInput, CsiCallEmitted, HostCallEmitted, HostResultEvent,
  CsiReplyEmitted, EventRecordedEmitted, HostPodVolume,
} from '../shared/contract.ts';
import { csiMethod, stageOfCsiCall, type CsiRpc } from '../shared/csi.ts';
import { stageOfEventReason } from '../shared/eventReasons.ts';
import { goDuration } from '../shared/goFormat.ts';
import { API_VERSION, CLUSTER_SCOPED, type K8sObject, type Kind, RESOURCE, kobj } from '../shared/k8s.ts';
import type { LogStream } from '../shared/klog.ts';
import {
  type LogArgs, type LogSource, type MessageCatalog, type ProfileId, type Stage, renderTemplate,
} from '../shared/messages.ts';
import { createRng, type Rng } from '../shared/rng.ts';
import { CONTAINER_BACKOFF_PERIOD, LONG_THROTTLE_LATENCY, MAX_CONTAINER_BACKOFF, MS } from '../shared/timing.ts';
import { getProfile, type Profile } from '../profiles/index.ts';
import { ApiServer, type ApiOutcome } from './apiServer.ts';
import { nodeTaints, parseTaint, taintString } from '../shared/taints.ts';
import { newTable } from '../shared/tables.ts';
import { hostErrorText, type ApiFault, type CsiFault, type HostFault, type InformerDelay } from './faults.ts';
import { API_REASON, defaultApiFaultMessage, defaultFaultMessage, FaultInjector, type ActiveFault, type Who } from './faultInjector.ts';
import { Agenda } from './queue.ts';
import { EventRecorder } from './eventRecorder.ts';
import { LogRenderer } from './logRenderer.ts';
import { TraceRecorder, USER, type StepInput } from './recorder.ts';
import { newBucket, takeToken, type TokenBucket } from './rateLimiter.ts';
import {
  apiStepSummary, createSummary, csiCallSummary, csiReplySummary, hostCallSummary, deleteSummary, eventSummary, nodePowerSummary, patchSummary,
  processExitSummary, restartStateSummary, restartSummary, stateMoveSummary, taintSummary,
} from './prose.ts';
import type { StepCause, Trace, TraceStep } from './trace.ts';

export interface ComponentSpec {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  descriptor: ComponentDescriptor<any>;
  input: ComponentInput & Record<string, unknown>;
  stream: LogStream;
  /** client-go token bucket of this component's API client (unlimited when absent) */
  apiClient?: { qps: number; burst: number; initialTokens?: number };
  /** when the process starts (µs); 0 when absent */
  startAt?: number;
  /** CSI plugins: the endpoint they serve */
  serves?: { endpoint: 'controller' } | { endpoint: 'node' | 'registrar'; node: string };
}

export type { ApiFault, CsiFault, HostFault, InformerDelay } from './faults.ts';

export type UserAction =
  | { at: number; do: 'create'; object: K8sObject; summary?: string }
  | { at: number; do: 'delete'; kind: Kind; namespace?: string; name: string; gracePeriodSeconds?: number; summary?: string }
  | { at: number; do: 'patch'; kind: Kind; namespace?: string; name: string; patch: Record<string, unknown>; summary?: string }
  | { at: number; do: 'shutdownNode'; node: string; summary?: string }
  | { at: number; do: 'startNode'; node: string; summary?: string }
  /** the component's process restarts: a fresh machine that rebuilds its memory from informers (`component`: an instance id or a component name) */
  | { at: number; do: 'restart'; component: string; summary?: string }
  /** kubectl taint nodes <node> <taint> (key[=value]:effect): the Node is patched with its taints plus this one */
  | { at: number; do: 'taint'; node: string; taint: string; summary?: string };

export interface ClusterOptions {
  profile: ProfileId;
  seed: number;
  /** wall-clock time (epoch µs) of virtual time 0 */
  epochUs: number;
  /** API server URL printed by client-go lines */
  apiServerUrl: string;
  catalog: MessageCatalog;
  objects: K8sObject[];
  components: ComponentSpec[];
  actions?: UserAction[];
  /** faults; their `from`/`until` are story milliseconds (see storyStartUs) */
  csiFaults?: CsiFault[];
  apiFaults?: ApiFault[];
  informerDelays?: InformerDelay[];
  /** what the nodes' file systems do to the kubelet's own work on a volume (host.call) */
  hostFaults?: HostFault[];
  /** virtual time (µs) of the story start, the origin of fault times (default: recordFrom, or 0) */
  storyStartUs?: number;
  /** record before/after objects on steps (off for large benchmarks) */
  recordObjects?: boolean;
  /** measure the wall-clock time each component's machine takes (benchmarks) */
  measure?: boolean;
  /** put the acting component's world view (descriptor.world: DSW/ASW tables) on its steps */
  captureWorld?: boolean;
  /**
   * virtual time (µs) from which steps are recorded: what happens before is the warm-up that brings
   * the cluster to the scenario's starting point (pods running, volumes attached); trace times count
   * from here
   */
  recordFrom?: number;
  /**
   * hand each recorded step to this function instead of keeping it: the trace then has no steps
   * (stats.steps still counts them), so a very large trace can be written out as it happens
   */
  onStep?: (step: TraceStep) => void;
  /**
   * told of every state a volume, attachment or operation passes through (states.changed), also
   * those no step shows because the reaction moved on before recording one
   */
  onStateMove?: (move: StateMove) => void;
}

/** One state a component's volume, attachment or operation entered (see ClusterOptions.onStateMove). */
export interface StateMove { component: string; instance: string; subject: string; state: string }

interface Running {
  spec: ComponentSpec;
  id: string;
  name: string;
  host: string;
  source: LogSource;
  /** the machine's state: stepped with XState's transition (see ComponentStepper), never an actor */
  machine: ComponentStepper;
  up: boolean;
  /** last state value, to record state changes */
  lastValue: string;
  /** that value unstringified, when it is a string */
  lastRaw?: string | undefined;
  /** when its event broadcaster last handed an Event on: one goroutine, so Events keep their order */
  lastEventAt?: number;
  /** FIFO floors so that replies and watch events reach the component in order */
  lastDeliveryAt: number;
  lastApplyAt: number;
  bucket?: TokenBucket;
  timers: Map<string, number>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  emitted: any[];
  /** its world view after its latest reaction (captureWorld) */
  world?: unknown;
  /** bumped when the process restarts: answers meant for the previous process are dropped */
  incarnation: number;
  /** how often its process exited by itself, for the kubelet's restart backoff */
  exits?: { count: number; at: number };
  /** its reaction ended in an exit (process.exited), handled after the reaction's steps */
  exiting?: { code: number; at: number } | undefined;
  /** FIFO floors of informers with their own stream (ownStream, or lagging after an informer delay), per kind */
  laggingFloors?: Map<string, number>;
  /** delivery jitter of its own-stream informers */
  streamRng?: Rng;
  /** while it handles one event: the states of the volumes and operations that reaction changed (states.changed), keyed with its id */
  reactionStates?: Record<string, string>;
}

interface PendingCall { caller: Running; requestId: string; rpc: CsiRpc; stage: Stage; target: string; done: boolean; incarnation: number; request?: Record<string, unknown> }

/** The reaction being handled: who acts, why (what was delivered), and the first step it recorded. */
interface Acting { r: Running; cause: StepCause | undefined; first?: number }

/** "PersistentVolumeClaim default/data" */
const objectText = (o: { kind: string; metadata: { namespace?: string; name: string } }): string =>
  `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;



export class Cluster {
  readonly api: ApiServer;
  readonly profile: Profile;
  readonly recorder: TraceRecorder;
  /** the steps recorded so far */
  get steps(): TraceStep[] { return this.recorder.steps; }
  readonly rng: Rng;
  private agenda = new Agenda();
  /** the last timer token handed out: each timer request gets a new one (timer.requested) */
  private timerTokens = 0;
  private components = new Map<string, Running>();
  private watchersByKind = new Map<Kind, Running[]>();
  private nodeScopedWatchers = new Map<string, Running[]>();
  private plugins = new Map<string, Running>();
  /**
   * What outlives a process on each host: the mounts the node plugins made for the kubelet (the pods'
   * volume directories and the staging paths) and the registration sockets in plugins_registry.
   */
  private hostMounts = new Map<string, { staged: Map<string, string>; published: Map<string, HostPodVolume> }>();
  private hostSockets = new Map<string, Map<string, string>>();
  private pendingCalls = new Map<string, PendingCall>();
  private faults: FaultInjector;
  private logs: LogRenderer;
  private storyStartUs: number;
  private nowUs = 0;
  private events = 0;
  private userSeq = 0;
  private eventRecorder: EventRecorder;
  /** the reaction in progress (deliver), for the cause of the steps it records */
  private acting: Acting | undefined;

  constructor(readonly options: ClusterOptions) {
    this.rng = createRng(options.seed);
    this.profile = getProfile(options.profile);
    this.api = new ApiServer(this.rng.fork('api'), options.epochUs, undefined, this.profile.anyVolumeDataSource, this.profile.apiReadWriteOncePod);
    this.storyStartUs = options.storyStartUs ?? options.recordFrom ?? 0;
    this.recorder = new TraceRecorder(
      { recordFrom: options.recordFrom ?? 0, recordObjects: options.recordObjects !== false, captureWorld: !!options.captureWorld, ...(options.onStep ? { sink: options.onStep } : {}) },
      () => this.api.snapshot(), () => this.components.values(),
    );
    this.eventRecorder = new EventRecorder(this.api, this.rng, options.epochUs);
    this.logs = new LogRenderer(options.catalog, options.profile, options.epochUs);
    this.faults = new FaultInjector(this.storyStartUs, { csi: options.csiFaults, api: options.apiFaults, informers: options.informerDelays, host: options.hostFaults });
    for (const o of options.objects) {
      const out = this.api.apply({ type: 'api.request', requestId: 'init', verb: 'create', kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name, object: o }, 0);
      if (!out.ok) throw new Error(`scenario object ${o.kind} ${kobj(o)}: ${out.message}`);
    }
    for (const spec of options.components) this.addComponent(spec);
    for (const a of options.actions ?? []) this.agenda.push(a.at, () => this.runUserAction(a));
  }

  get now(): number { return this.nowUs; }

  // ------------------------------------------------------------------ components

  private addComponent(spec: ComponentSpec): void {
    const id = spec.input.id;
    if (this.components.has(id)) throw new Error(`duplicate component id ${id}`);
    const r: Running = {
      spec, id, name: spec.descriptor.name, host: spec.input.host, source: spec.descriptor.source,
      machine: undefined as unknown as ComponentStepper,
      up: false, lastValue: '', lastDeliveryAt: 0, lastApplyAt: 0, timers: new Map(), emitted: [], incarnation: 0,
      ...(spec.apiClient ? { bucket: newBucket(spec.apiClient) } : {}),
    };
    r.machine = this.freshMachine(r);
    r.lastValue = JSON.stringify(r.machine.snapshot.value);
    this.components.set(id, r);
    for (const kind of spec.descriptor.watches as Kind[]) {
      if (spec.descriptor.nodeScoped?.includes(kind)) {
        const k = `${kind}@${r.host}`;
        (this.nodeScopedWatchers.get(k) ?? this.nodeScopedWatchers.set(k, []).get(k)!).push(r);
      } else {
        (this.watchersByKind.get(kind) ?? this.watchersByKind.set(kind, []).get(kind)!).push(r);
      }
    }
    if (spec.serves) this.plugins.set(spec.serves.endpoint === 'controller' ? 'controller' : `${spec.serves.endpoint}:${spec.serves.node}`, r);
    this.agenda.push(spec.startAt ?? 0, () => this.startComponent(r));
  }

  /** A component's machine in its initial state (at start, and again after a process restart); what it emits is collected for react(). */
  private freshMachine(r: Running): ComponentStepper {
    return new ComponentStepper(r.spec.descriptor.machine, r.spec.input, (e) => { r.emitted.push(e); });
  }

  /** A node plugin's stage/publish (or its undoing) succeeded: the host's mount table changes. */
  private noteHostMount(plugin: Running, call: PendingCall): void {
    const req = call.request;
    if (!req || !/^Node(Stage|Unstage|Publish|Unpublish)Volume$/.test(call.rpc)) return;
    const host = plugin.host;
    const m = this.hostMounts.get(host) ?? { staged: new Map(), published: new Map() };
    this.hostMounts.set(host, m);
    const handle = String(req.volume_id ?? '');
    const driver = (plugin.spec.input as { driver?: { name?: string } }).driver?.name ?? '';
    const target = String(req.target_path ?? ''), staging = req.staging_target_path !== undefined ? String(req.staging_target_path) : undefined;
    if (call.rpc === 'NodeStageVolume' && staging) m.staged.set(handle, staging);
    else if (call.rpc === 'NodeUnstageVolume') m.staged.delete(handle);
    else if (call.rpc === 'NodeUnpublishVolume') m.published.delete(target);
    else if (call.rpc === 'NodePublishVolume') {
      // pods/<uid>/volumes/kubernetes.io~csi/<pv>/mount (csi_mounter.go GetPath); a raw block volume's publish file is not reconstructed here
      const fs = /\/pods\/([^/]+)\/volumes\/kubernetes\.io~csi\/([^/]+)\/mount$/.exec(target);
      if (fs) m.published.set(target, { podUid: fs[1]!, pvName: fs[2]!, driver, handle, targetPath: target, ...(staging ? { stagingPath: staging } : {}) });
    }
  }

  private startComponent(r: Running, because?: number): void {
    r.up = true;
    const mounts = r.spec.descriptor.readsHostMounts ? this.hostMounts.get(r.host) : undefined;
    const podVolumes = mounts ? [...mounts.published.values()].map((v) => ({ ...v, ...(mounts.staged.has(v.handle) ? { stagingPath: mounts.staged.get(v.handle)! } : {}) })) : [];
    this.deliver(r, { type: 'component.started', now: this.nowUs, ...(podVolumes.length ? { podVolumes } : {}) }, { kind: 'start', ...(because ? { step: because } : {}) });
    // the plugin watcher walks plugins_registry when it starts: the sockets earlier processes left are found
    // again, and the plugin manager's reconciler registers them at its first pass. The plugin manager starts on its
    // own, once the kubelet sees the container runtime up (initializeRuntimeDependentModules, v1.30.1 kubelet.go:1584;
    // the volume manager at :1644, before it): some 0.2-1 s after the volume manager has begun
    if (r.spec.descriptor.watchesPluginSockets) {
      // (its own loop: not queued behind the informers' and the API server's deliveries, as deliverLater would)
      const incarnation = r.incarnation;
      for (const [path, owner] of this.hostSockets.get(r.host) ?? []) {
        this.agenda.push(this.nowUs + this.rng.int(200_000, 1_000_000), () => {
          if (r.incarnation === incarnation) this.deliver(r, { type: 'plugin.socketCreated', now: this.nowUs, path, owner }, { kind: 'socket', path });
        });
      }
    }
    // informer initial list
    for (const kind of r.spec.descriptor.watches as Kind[]) {
      for (const o of this.api.list(kind)) {
        if (this.watches(r, o)) this.deliver(r, { type: 'watch.added', now: this.nowUs, object: o }, { kind: 'list', object: objectText(o) });
      }
    }
    if (r.spec.descriptor.waitsForCacheSync) this.deliver(r, { type: 'informers.synced', now: this.nowUs }, { kind: 'start' });
  }

  private watches(r: Running, o: K8sObject): boolean {
    const d = r.spec.descriptor;
    if (d.nodeScoped?.includes(o.kind) && nodeOf(o) !== r.host) return false;
    return !d.watchFilter || d.watchFilter(o, r.spec.input);
  }

  /** wall-clock milliseconds and events spent in each component's machine, when options.measure is set */
  readonly measured: Record<string, { ms: number; events: number }> = {};

  /** Send one event to a component and handle everything it emits in reaction. */
  private deliver(r: Running, event: ClusterEvent, cause?: StepCause): void {
    if (!r.up) return;
    const outerActing = this.acting;
    this.acting = { r, cause };
    try {
      this.react(r, event);
    } finally {
      this.acting = outerActing;
    }
  }

  private react(r: Running, event: ClusterEvent): void {
    this.events++;
    const local = { t: this.nowUs };
    try {
      if (this.options.measure) {
        const t0 = performance.now();
        r.machine.send(event);
        const m = (this.measured[r.name] ??= { ms: 0, events: 0 });
        m.ms += performance.now() - t0;
        m.events += 1;
      } else {
        r.machine.send(event);
      }
    } catch (err) {
      throw new Error(`component ${r.id} failed while handling ${event.type}: ${String(err)}`, { cause: err });
    }
    const snap = r.machine.snapshot;
    // a machine whose state is a string (most of them) needs no JSON to tell whether it moved
    const value = snap.value === r.lastRaw ? r.lastValue : JSON.stringify(snap.value);
    r.lastRaw = typeof snap.value === 'string' ? snap.value : undefined;
    const out = r.emitted;
    r.emitted = [];
    const worldView = this.options.captureWorld ? r.spec.descriptor.world : undefined;
    if (worldView) r.world = worldView((snap as { context: unknown }).context);
    // the states of the volumes and operations this reaction changed go with every step it records
    const outer = r.reactionStates;
    r.reactionStates = undefined;
    for (const e of out as ClusterEmitted[]) {
      if (e.type !== 'states.changed') continue;
      r.reactionStates ??= newTable<string>();
      for (const k in e.states) r.reactionStates[`${r.id} ${k}`] = e.states[k]!;
      const onMove = this.options.onStateMove;
      if (onMove) for (const [subject, state] of e.moves ?? Object.entries(e.states)) onMove({ component: r.name, instance: r.id, subject, state });
    }
    for (const e of out) this.handleEmitted(r, e as ClusterEmitted, local, snap.value);
    if (value !== r.lastValue) {
      const from = r.lastValue;
      r.lastValue = value;
      this.record({ r, kind: 'state', t: local.t, summary: stateMoveSummary(r.name, r.host, from, value), states: snap.value });
    }
    r.reactionStates = outer;
    if (r.exiting) {
      const x = r.exiting;
      r.exiting = undefined;
      this.processExited(r, x.code, x.at);
    }
  }

  /** A reaction's outputs take a few microseconds each, as real code does between log lines. */
  private tick(local: { t: number }, own?: Running): number {
    local.t += (own ? this.streamOf(own) : this.rng).int(4, 40);
    return local.t;
  }

  /** A component's own random stream (ownStream: its watch deliveries, the lines that say it does nothing). */
  private streamOf(r: Running): Rng {
    return (r.streamRng ??= createRng(`${this.options.seed}/${r.id}/streams`));
  }

  private handleEmitted(r: Running, e: ClusterEmitted, local: { t: number }, states: unknown): void {
    switch (e.type) {
      case 'log': this.recordLog(r, e.msg, e.args, this.tick(local, e.ownStream ? r : undefined), states, e.stage, undefined, e.variant); break;
      case 'timer.requested': {
        const at = Math.max(e.at, this.nowUs);
        // (a token no timer had before, of this process or of one before it: a restarted process's timer of the same
        // key must not wake the old one's, which its process set before it died)
        const token = ++this.timerTokens;
        r.timers.set(e.key, token);
        // the reaction that set it: its first step is known by the time the timer fires
        const setBy = this.acting;
        this.agenda.push(at, () => {
          if (r.timers.get(e.key) !== token) return; // replaced or cancelled
          r.timers.delete(e.key);
          const step = setBy?.r === r ? (setBy.first ?? setBy.cause?.step) : undefined;
          this.deliver(r, { type: 'clock.ticked', now: this.nowUs, key: e.key }, { kind: 'timer', key: e.key, ...(step ? { step } : {}) });
        });
        break;
      }
      case 'timer.cancelled': r.timers.set(e.key, ++this.timerTokens); break;
      // (a request of its own goroutine: the reaction's clock does not wait for it)
      case 'api.request': this.sendApiRequest(r, e, e.ownStream ? local.t + this.streamOf(r).int(4, 40) : this.tick(local)); break;
      case 'csi.call': this.sendCsiCall(r, e, this.tick(local), states); break;
      case 'csi.reply': this.sendCsiReply(r, e, this.tick(local), states); break;
      case 'host.call': this.hostCall(r, e, this.tick(local), states); break;
      case 'event.recorded': {
        // The event broadcaster hands events to its sinks (API writer, log) from its own goroutine:
        // they show up a little after the code that recorded them has moved on.
        // upstream: client-go tools/record/event.go (StartEventWatcher)
        const at = Math.max(this.tick(local) + this.rng.int(60, 400), (r.lastEventAt ?? 0) + 1);
        r.lastEventAt = at;
        const setBy = this.acting;
        this.agenda.push(at, () => this.recordEvent(r, e, this.nowUs, states, setBy));
        break;
      }
      case 'states.changed': break; // read before the reaction's steps are recorded (deliver)
      case 'process.exited':
        // handled once the reaction's own steps (its state move) are recorded
        r.exiting = { code: e.code, at: this.tick(local) };
        break;
      case 'socket.created':
      case 'socket.removed': {
        const at = this.tick(local);
        const sockets = this.hostSockets.get(r.host) ?? new Map<string, string>();
        this.hostSockets.set(r.host, sockets);
        if (e.type === 'socket.created') sockets.set(e.path, r.id); else sockets.delete(e.path);
        const setBy = this.acting;
        for (const w of this.components.values()) {
          if (w.host !== r.host || !w.spec.descriptor.watchesPluginSockets) continue;
          // the plugin watcher learns of the file through inotify, a moment later
          this.deliverLater(w, { type: e.type === 'socket.created' ? 'plugin.socketCreated' : 'plugin.socketRemoved', now: 0, path: e.path, owner: r.id }, at - this.nowUs + this.rng.int(200, 1500), undefined,
            () => ({ kind: 'socket', path: e.path, ...(setBy?.first ? { step: setBy.first } : {}) }));
        }
        break;
      }
      default: {
        const never: never = e;
        throw new Error(`component ${r.id} emitted an unknown event ${JSON.stringify(never)}`);
      }
    }
  }

  // ------------------------------------------------------------------ API

  private sendApiRequest(r: Running | null, req: ApiRequestEmitted, at: number): void {
    let issueAt = at;
    const rng = req.ownStream && r ? this.streamOf(r) : this.rng;
    const tokenWait = r?.bucket ? takeToken(r.bucket, at) : 0;
    if (r && tokenWait > 0) {
      const wait = tokenWait + rng.int(0, 900);
      issueAt = at + wait;
      if (wait > LONG_THROTTLE_LATENCY) {
        const url = this.requestUrl(req);
        const method = HTTP_VERB[req.verb];
        // the line is the held request's: it has the cause of the reaction that sent it
        const heldFor = this.causeOf(r, this.acting);
        this.agenda.push(issueAt, () => this.recordLog(r, 'clientGo.throttling', { latency: goDuration(wait * 1000 + rng.int(0, 999)), verb: method, url }, this.nowUs, JSON.parse(r.lastValue), undefined, heldFor));
      }
    }
    const latency = rng.int(2 * MS, 9 * MS);
    const fault = this.faults.matchApi(this.who(r), req, this.nowUs);
    const incarnation = r?.incarnation;
    // a lagging request lands late, and the component's later requests land after it (its controllers
    // write from their loop, one request at a time; a write of another goroutine holds none of them up)
    const slow = fault?.f.delayMs ? Math.round(fault.f.delayMs * 1000) : 0;
    const applyAt = Math.max(issueAt + latency + slow, r?.lastApplyAt ?? 0);
    if (r && !req.ownStream) r.lastApplyAt = applyAt;
    // the step the API server records for it shows the states of the reaction that sent it, and why
    const sentFrom = r?.reactionStates;
    const setBy = this.acting;
    this.agenda.push(applyAt, () => this.applyApi(r, req, fault, incarnation, sentFrom, this.causeOf(r, setBy)));
  }

  private who(r: Running | null): Who {
    return r ? { name: r.name, id: r.id, host: r.host } : { name: USER };
  }

  private requestUrl(req: ApiRequestEmitted): string {
    const [group, version] = API_VERSION[req.kind].includes('/') ? API_VERSION[req.kind].split('/') : ['', API_VERSION[req.kind]];
    const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const ns = !CLUSTER_SCOPED.has(req.kind) && req.namespace ? `/namespaces/${req.namespace}` : '';
    const sub = req.verb === 'updateStatus' || req.verb === 'patchStatus' ? '/status' : '';
    const name = req.verb === 'create' ? '' : `/${req.name}`;
    return `${this.options.apiServerUrl}${base}${ns}/${RESOURCE[req.kind]}${name}${sub}`;
  }

  /** Why a step a reaction caused later (an API write, an Event) happened: that reaction's first step, else what it handled. */
  private causeOf(r: Running | null, a: Acting | undefined): StepCause | undefined {
    if (!r || !a || a.r !== r) return undefined;
    return a.first !== undefined ? { kind: 'request', step: a.first } : a.cause;
  }

  private applyApi(r: Running | null, req: ApiRequestEmitted, matched?: ActiveFault<ApiFault> | null, incarnation?: number, sentFrom?: Record<string, string>, cause?: StepCause): void {
    const componentName = r?.name ?? USER;
    const fault = matched === undefined ? this.faults.matchApi(this.who(r), req, this.nowUs) : matched;
    let out: ApiOutcome;
    const code = fault?.f.code;
    if (code !== undefined) {
      out = { ok: false, code, reason: API_REASON[code] ?? 'InternalError', message: fault!.f.message ?? defaultApiFaultMessage(code, req), before: null, after: null };
    } else {
      out = this.api.apply(req, this.nowUs);
    }
    let writeStep: number | undefined;
    // a routine write (a heartbeat) is not a step, unless it changes more than its timestamps
    if (req.verb !== 'get' && !(req.quiet && out.ok && onlyHeartbeat(out.before, out.after))) {
      const summary = apiStepSummary(componentName, req, out);
      const step = this.record({
        r, kind: r ? 'api' : 'user', t: this.nowUs, summary, ...(req.stage ? { stage: req.stage } : {}),
        api: { verb: req.verb, kind: req.kind, ...(req.namespace ? { namespace: req.namespace } : {}), name: req.name, ...(req.subresource ? { subresource: req.subresource } : {}), code: out.code, ...(out.reason ? { reason: out.reason } : {}) },
        ...(out.ok && out.change ? { objects: [{ kind: req.kind, ...(req.namespace ? { namespace: req.namespace } : {}), name: req.name, before: out.before, after: out.after }] } : {}),
        states: r ? JSON.parse(r.lastValue) : {}, reactionStates: sentFrom, ...(fault ? { fault: fault.report.fault } : {}),
        ...(cause ? { cause } : {}),
      });
      writeStep = step?.i;
      if (fault) this.fired(fault, step);
    } else if (fault) {
      this.fired(fault, undefined);
    }
    const stream = req.ownStream && r ? this.streamOf(r) : undefined;
    if (out.change) this.fanOut(out.change.type, out.change.object, out.change.oldObject, writeStep, stream);
    if (r) {
      const result: ClusterEvent = {
        type: 'api.result', now: 0, requestId: req.requestId, ok: out.ok, code: out.code,
        ...(out.object ? { object: out.object } : {}), ...(out.reason ? { reason: out.reason } : {}), ...(out.message ? { message: out.message } : {}),
      };
      const object = `${req.kind} ${req.namespace ? `${req.namespace}/` : ''}${req.name}`;
      this.deliverLater(r, result, (stream ?? this.rng).int(300, 1500), incarnation ?? r.incarnation,
        () => ({ kind: 'api-result', verb: req.verb, object, code: out.code, ...(writeStep ? { step: writeStep } : {}) }));
    }
  }

  /** `stream`: the writer's own stream, for a write of its own goroutine (ApiRequestEmitted.ownStream) */
  private fanOut(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: K8sObject, oldObject?: K8sObject, writeStep?: number, stream?: Rng): void {
    let cause: StepCause | undefined;
    const why = (ev: ClusterEvent): StepCause => {
      const event = ev.type === 'watch.added' ? 'added' : ev.type === 'watch.modified' ? 'modified' : 'deleted';
      if (cause && cause.kind === 'watch' && cause.event === event) return cause;
      cause = { kind: 'watch', event, object: objectText(object), ...(writeStep ? { step: writeStep } : {}) };
      return cause;
    };
    const targets = new Set<Running>(this.watchersByKind.get(object.kind) ?? []);
    const node = nodeOf(object);
    if (node) for (const w of this.nodeScopedWatchers.get(`${object.kind}@${node}`) ?? []) targets.add(w);
    const oldNode = oldObject ? nodeOf(oldObject) : undefined;
    if (oldNode && oldNode !== node) for (const w of this.nodeScopedWatchers.get(`${object.kind}@${oldNode}`) ?? []) targets.add(w);
    for (const w of targets) {
      const sees = (o: K8sObject | undefined): boolean => !!o && this.watches(w, o);
      const nowSees = type !== 'DELETED' && sees(object);
      const sawBefore = type === 'MODIFIED' ? sees(oldObject) : type === 'DELETED' && sees(object);
      let ev: ClusterEvent | undefined;
      if (nowSees && type === 'MODIFIED' && sawBefore) ev = { type: 'watch.modified', now: 0, object, oldObject: oldObject! };
      else if (nowSees) ev = { type: 'watch.added', now: 0, object };
      else if (sawBefore) ev = { type: 'watch.deleted', now: 0, object: type === 'DELETED' ? object : oldObject! };
      if (!ev) continue;
      const lag = this.informerDelayFor(w, object.kind);
      const own = w.spec.descriptor.ownStream?.includes(object.kind);
      const jitter = (stream ?? (own ? this.streamOf(w) : this.rng)).int(200, 2500);
      // an informer that lagged keeps its own order after the lag ends: later events queue behind the late ones
      const c = why(ev);
      if (own || lag || (w.laggingFloors?.get(object.kind) ?? 0) > this.nowUs) this.deliverLagging(w, ev, object.kind, jitter + lag, c);
      else this.deliverLater(w, ev, jitter, undefined, () => c);
    }
  }

  /** The delay (µs) an informer fault puts on this component's watch events of `kind` now, or 0. */
  private informerDelayFor(w: Running, kind: Kind): number {
    const d = this.faults.matchInformer(this.who(w), kind, this.nowUs);
    if (!d) return 0;
    // the write it delays is the step just recorded
    this.fired(d, this.recorder.lastStepAt(this.nowUs));
    return Math.round(d.f.delayMs * 1000);
  }

  /**
   * A lagging informer: its events keep their own order but no longer hold back the component's
   * other deliveries (each informer has its own watch and queue).
   */
  private deliverLagging(r: Running, event: ClusterEvent, kind: Kind, delay: number, cause: StepCause): void {
    const floors = (r.laggingFloors ??= new Map());
    const at = Math.max(this.nowUs + delay, floors.get(kind) ?? 0);
    floors.set(kind, at);
    const incarnation = r.incarnation;
    this.agenda.push(at, () => { if (r.incarnation === incarnation) this.deliver(r, { ...event, now: this.nowUs } as ClusterEvent, cause); });
  }

  /** Note a fault's hit, on the step that shows it (undefined: it hit outside the recording). */
  private fired(a: ActiveFault<unknown>, step: TraceStep | undefined): void {
    FaultInjector.fired(a, step?.i ?? null, step ? step.t : this.recorder.storyMs(this.nowUs));
  }

  /**
   * Deliver after `delay` µs, never overtaking an earlier delivery to the same component. An answer
   * (`incarnation` given) is dropped when the process that asked has restarted since.
   */
  private deliverLater(r: Running, event: ClusterEvent, delay: number, incarnation?: number, cause?: () => StepCause): void {
    const at = Math.max(this.nowUs + delay, r.lastDeliveryAt);
    r.lastDeliveryAt = at;
    this.agenda.push(at, () => {
      if (incarnation !== undefined && incarnation !== r.incarnation) return;
      this.deliver(r, { ...event, now: this.nowUs } as ClusterEvent, cause?.());
    });
  }

  // ------------------------------------------------------------------ the node's own file system

  /**
   * A component's work on its node's file system (the kubelet's SetVolumeOwnership): done some milliseconds later, as
   * for a volume of a few files, or as a host fault says: slow (a volume of millions of files) or failed. Its timing
   * draws from the component's own stream, so a scenario without such work keeps every other timing.
   */
  private hostCall(r: Running, call: HostCallEmitted, at: number, states: unknown): void {
    const incarnation = r.incarnation;
    const fault = this.faults.matchHost(call.op, r.host, at);
    // the work is a step of its own: at -v=2 no log line says that the kubelet walks the volume's files
    const step = this.record({
      r, kind: 'host', t: at, states, stage: call.stage ?? 'mount', summary: hostCallSummary(r.name, call),
      hostCall: { op: call.op, path: call.path, fsGroup: call.fsGroup, requestId: call.requestId },
      ...(fault ? { fault: fault.report.fault } : {}),
    });
    if (fault) this.fired(fault, step);
    const answer = (after: number, result: Omit<HostResultEvent, 'type' | 'now' | 'requestId' | 'op'>, done?: () => void): void => {
      this.agenda.push(at + after, () => {
        if (incarnation !== r.incarnation) return; // the process that asked is gone
        done?.();
        this.deliver(r, { type: 'host.result', now: this.nowUs, requestId: call.requestId, op: call.op, ...result }, { kind: 'host', op: call.op, ...(step ? { step: step.i } : {}) });
      });
    };
    const errno = fault?.f.errno;
    const error = errno ? (fault!.f.message ?? hostErrorText(errno, call.path, this.profile.goReaddirErrorNamesPath, call.op)) : undefined;
    // (µs: a stat well under a millisecond, a walk over a volume of a few files some milliseconds)
    const took = fault?.f.delayMs !== undefined ? Math.round(fault.f.delayMs * 1000)
      : call.op === 'StatVolumeRoot' ? this.streamOf(r).int(50, 400) : this.streamOf(r).int(2_000, 30_000);
    if (call.op === 'StatVolumeRoot') {
      // a fresh volume's top directory belongs to root (gid 0), mode 0755 as mkfs leaves it
      const gid = this.volumeRootGid.get(call.volume);
      answer(took, error ? { ok: false, error } : { ok: true, rootGid: gid ?? 0, rootModeOk: gid !== undefined });
      return;
    }
    // the walk changes the top directory last (walkDeep: the walk function runs on a directory after its entries), so only
    // a walk that got through leaves it with the group and mode; one that failed leaves it as it was
    answer(took, { ok: !error, ...(error ? { error } : {}) }, error ? undefined : () => { this.volumeRootGid.set(call.volume, call.fsGroup); });
  }

  /** The group each volume's top directory has, once a SetVolumeOwnership walk got through it (the volume's own files, on any node). */
  private readonly volumeRootGid = new Map<string, number>();

  // ------------------------------------------------------------------ CSI

  private sendCsiCall(r: Running, call: CsiCallEmitted, at: number, states: unknown): void {
    const endpointKey = call.endpoint === 'controller' ? 'controller' : `${call.endpoint}:${call.node ?? r.host}`;
    const target = this.plugins.get(endpointKey);
    const to = target?.id ?? endpointKey;
    const gid = `${r.id}#${call.requestId}`;
    // (a node's plugin and its registrar's registration socket are both that node's: a fault's node matches them)
    const callNode = call.endpoint === 'controller' ? undefined : (call.node ?? r.host);
    // a fault hits calls that reach a plugin: a call nobody serves hangs until its deadline anyway
    const fault = target ? this.faults.matchCsi(call.rpc, callNode, at) : undefined;
    const stage = stageOfCsiCall(call.rpc, call.stage);
    const step = this.record({
      r, kind: 'rpc', t: at, states, stage,
      summary: csiCallSummary(r.name, call),
      rpc: { method: csiMethod(call.rpc), from: r.id, to, requestId: call.requestId, request: call.request },
      ...(fault ? { fault: fault.report.fault } : {}),
    });
    if (fault) this.fired(fault, step);
    const pending: PendingCall = { caller: r, requestId: call.requestId, rpc: call.rpc, stage, target: to, done: false, incarnation: r.incarnation, ...(call.endpoint === 'node' ? { request: call.request } : {}) };
    this.pendingCalls.set(gid, pending);
    // the caller's context deadline
    this.agenda.push(at + call.timeout, () => {
      if (pending.done || r.incarnation !== pending.incarnation) return;
      pending.done = true;
      this.pendingCalls.delete(gid);
      this.deliver(r, { type: 'csi.result', now: this.nowUs, requestId: call.requestId, rpc: call.rpc, code: 'DEADLINE_EXCEEDED', message: 'context deadline exceeded' },
        { kind: 'deadline', rpc: call.rpc, ...(step ? { step: step.i } : {}) });
    });
    if (!target) return; // nobody serves this endpoint: the call hangs until its deadline
    const transport = this.rng.int(80, 400);
    // deliver() drops it if the plugin's process is down then: the call hangs until its deadline
    this.agenda.push(Math.max(at + transport, target.lastDeliveryAt), () => this.deliver(target, {
      type: 'csi.request', now: this.nowUs, requestId: gid, rpc: call.rpc, request: call.request, caller: r.id,
      ...(fault ? { fault: { code: fault.f.code, message: fault.f.message ?? defaultFaultMessage(fault.f.code) } } : {}),
    }, { kind: 'csi-request', rpc: call.rpc, from: r.id, ...(step ? { step: step.i } : {}) }));
  }

  private sendCsiReply(r: Running, reply: CsiReplyEmitted, at: number, states: unknown): void {
    const pending = this.pendingCalls.get(reply.requestId);
    const rpc = pending?.rpc;
    const replyStep = this.record({
      // (the answer is the call's work: its stage; a late one, whose call the cluster no longer holds, knows no RPC: other)
      r, kind: 'rpc-reply', t: at, states, stage: pending?.stage ?? 'other',
      summary: reply.summary ?? csiReplySummary(rpc, reply.code, reply.message, !!pending && !pending.done),
      rpc: {
        method: rpc ? csiMethod(rpc) : '', from: r.id, to: pending?.caller.id ?? '', requestId: reply.requestId, code: reply.code,
        ...(reply.response ? { response: reply.response } : {}), ...(reply.message ? { message: reply.message } : {}),
        // the caller gave up (its deadline passed, or it restarted): this answer changes nothing for it
        ...(pending && !pending.done ? {} : { late: true }),
      },
    });
    // the node plugin's mount is on the host whether or not its caller still waits for the answer
    if (pending && reply.code === 'OK') this.noteHostMount(r, pending);
    if (!pending || pending.done) return;
    pending.done = true;
    this.pendingCalls.delete(reply.requestId);
    const caller = pending.caller;
    const result: ClusterEvent = {
      type: 'csi.result', now: 0, requestId: pending.requestId, rpc: pending.rpc, code: reply.code,
      ...(reply.response ? { response: reply.response } : {}), ...(reply.message ? { message: reply.message } : {}),
    };
    const delay = this.rng.int(80, 400) + (at - this.nowUs);
    this.deliverLater(caller, result, delay, pending.incarnation, () => ({ kind: 'csi-reply', rpc: pending.rpc, code: reply.code, ...(replyStep ? { step: replyStep.i } : {}) }));
  }

  // ------------------------------------------------------------------ events and logs

  private recordEvent(r: Running, e: EventRecordedEmitted, at: number, states: unknown, setBy: Acting | undefined): void {
    const input = r.spec.input as { driverName?: unknown; seed?: unknown };
    const { change, args } = this.eventRecorder.write({
      name: r.name, host: r.host, isKubelet: r.source === 'kubelet',
      ...(typeof input.driverName === 'string' ? { driverName: input.driverName } : {}), ...(typeof input.seed === 'number' ? { seed: input.seed } : {}),
    }, e, at);
    const own = r.spec.descriptor.eventLogV?.[this.profile.id];
    const v = own === null ? undefined : own ?? this.profile.eventLogV[r.source];
    const printed = v !== undefined && v <= this.verbosityOf(r);
    const line = printed ? this.renderLog(r, 'event.recorded', args, Math.max(at, this.recorder.floor)) : undefined;
    this.record({
      r, kind: 'event', t: at, states,
      summary: eventSummary(r.name, e, String(args.object)),
      // the Event is about the stage its reason belongs to (FailedAttachVolume: attach), and so is its line when the broadcaster logs one
      stage: stageOfEventReason(e.reason),
      ...(line ? { log: line.text, msg: 'event.recorded', severity: line.severity } : {}),
      objects: [change],
      ...(this.causeOf(r, setBy) ? { cause: this.causeOf(r, setBy)! } : {}),
    });
  }

  private renderLog(r: Running, msgId: string, args: LogArgs, at: number, machineStage?: Stage, variant?: string) {
    return this.logs.render({ id: r.id, source: r.source, stream: r.spec.stream, v: this.verbosityOf(r) }, msgId, args, at, machineStage, variant);
  }

  /** The process's klog -v: its scenario's flag (the `verbosity` input), else the profile's for its program. */
  private verbosityOf(r: Running): number {
    return r.spec.input.verbosity ?? this.profile.verbosity[r.source];
  }

  private recordLog(r: Running, msgId: string, args: LogArgs, at0: number, states: unknown, machineStage?: Stage, cause?: StepCause, variant?: string): void {
    // a line is never stamped earlier than the step before it (record() keeps steps in time order)
    const at = Math.max(at0, this.recorder.floor);
    const line = this.renderLog(r, msgId, args, at, machineStage, variant);
    if (!line) return;
    let summary: string;
    try { summary = renderTemplate(line.summary, args); } catch { summary = line.summary; }
    this.record({ r, kind: 'log', t: at, summary, log: line.text, msg: msgId, severity: line.severity, stage: line.stage, states, args, ...(variant ? { variant } : {}), ...(cause ? { cause } : {}) });
  }

  /** Record a step; a step of the reaction in progress says why it happened (what was delivered). */
  private record(s: StepInput): TraceStep | undefined {
    const a = this.acting;
    const ours = a !== undefined && s.r === a.r;
    if (ours && !s.cause && a.cause) s.cause = a.cause;
    const step = this.recorder.record(s);
    if (ours && step && a.first === undefined) a.first = step.i;
    return step;
  }

  // ------------------------------------------------------------------ user actions

  private runUserAction(a: UserAction): void {
    const id = `user-${++this.userSeq}`;
    switch (a.do) {
      case 'create':
        this.applyApi(null, { type: 'api.request', requestId: id, verb: 'create', kind: a.object.kind, namespace: a.object.metadata.namespace, name: a.object.metadata.name, object: a.object, summary: a.summary ?? createSummary(a.object) });
        break;
      case 'delete':
        this.applyApi(null, { type: 'api.request', requestId: id, verb: 'delete', kind: a.kind, ...(a.namespace ? { namespace: a.namespace } : {}), name: a.name, ...(a.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: a.gracePeriodSeconds } : {}), summary: a.summary ?? deleteSummary(a.kind, a.namespace, a.name) });
        break;
      case 'patch':
        this.applyApi(null, { type: 'api.request', requestId: id, verb: 'patch', kind: a.kind, ...(a.namespace ? { namespace: a.namespace } : {}), name: a.name, patch: a.patch, summary: a.summary ?? patchSummary(a.kind, a.namespace, a.name) });
        break;
      case 'shutdownNode':
      case 'startNode': {
        const down = a.do === 'shutdownNode';
        const userStep = this.record({ r: null, kind: 'user', t: this.nowUs, states: {}, summary: a.summary ?? nodePowerSummary(a.node, down) })?.i;
        for (const r of this.components.values()) {
          if (r.host !== a.node) continue;
          if (down && r.up) {
            this.deliver(r, { type: 'host.shutdown', now: this.nowUs }, { kind: 'user', ...(userStep ? { step: userStep } : {}) });
            this.endProcess(r); // answers to the process that died are lost
          } else if (!down && !r.up) {
            this.startComponent(r, userStep);
          }
        }
        if (down) this.forgetContainerBackoffs(a.node);
        break;
      }
      case 'taint': {
        const t = parseTaint(a.taint);
        if (typeof t === 'string') throw new Error(`taint: ${t}`);
        const node = this.api.get('Node', undefined, a.node);
        if (!node) throw new Error(`taint: no Node "${a.node}"`);
        // kubectl taint sends the whole list: the node's taints, one with the same key and effect replaced
        const taints = [...nodeTaints(node).filter((x) => !(x.key === t.key && x.effect === t.effect)), t];
        this.applyApi(null, { type: 'api.request', requestId: id, verb: 'patch', kind: 'Node', name: a.node, patch: { spec: { taints } }, summary: a.summary ?? taintSummary(a.node, taintString(t)) });
        break;
      }
      case 'restart': {
        const targets = [...this.components.values()].filter((c) => c.id === a.component || c.name === a.component);
        if (targets.length === 0) throw new Error(`restart: no component "${a.component}" (known: ${[...new Set([...this.components.values()].map((c) => c.name))].join(', ')})`);
        const userStep = this.record({ r: null, kind: 'user', t: this.nowUs, states: {}, summary: a.summary ?? restartSummary(a.component) })?.i;
        for (const r of targets) this.restartComponent(r, userStep);
        break;
      }
    }
  }

  /**
   * A process restart: a fresh machine with the same input (nothing in memory survives), which comes
   * up a moment later and lists its informers again. Answers to the old process are dropped.
   */
  private restartComponent(r: Running, because?: number): void {
    this.endProcess(r);
    if (r.name === 'kubelet' && r.host) this.forgetContainerBackoffs(r.host);
    this.newProcess(r);
    const value = JSON.stringify(r.machine.snapshot.value);
    if (value !== r.lastValue) {
      const from = r.lastValue;
      r.lastValue = value;
      this.record({ r, kind: 'state', t: this.nowUs, summary: restartStateSummary(r.name, r.host, from, value), states: r.machine.snapshot.value, ...(because ? { cause: { kind: 'user', step: because } } : {}) });
    }
    const incarnation = r.incarnation;
    // a container restart takes a second or two before the process runs again
    this.agenda.push(this.nowUs + this.rng.int(800_000, 2_000_000), () => { if (r.incarnation === incarnation) this.startComponent(r, because); });
  }

  /**
   * The CrashLoopBackOff of a node's containers is the kubelet's memory (v1.30.1 kubelet.go:872 NewMainKubelet:
   * klet.backOff = flowcontrol.NewBackOff(backOffPeriod, MaxContainerBackOff)): a new kubelet process,
   * or the node's reboot, starts every container's count over.
   */
  private forgetContainerBackoffs(host: string): void {
    for (const c of this.components.values()) if (c.host === host) c.exits = undefined;
  }

  /** The process ends: nothing is delivered to it any more, its timers and informer floors go, answers to it are dropped. */
  private endProcess(r: Running): void {
    r.incarnation += 1;
    r.up = false;
    r.timers.clear();
    r.laggingFloors = undefined;
  }

  /** A new process of the component: its machine in its initial state, nothing emitted yet. */
  private newProcess(r: Running): void {
    r.emitted = [];
    r.machine = this.freshMachine(r);
    r.lastRaw = undefined;
  }

  /**
   * The component's process exited by itself (os.Exit after a failed registration, a failed start-up).
   * Its connections close: the calls it was serving fail at once with Unavailable, as the callers'
   * grpc-go reports a closed transport. The kubelet starts the container again: at once (its next PLEG
   * relist, within a second or two) the first time, then after CrashLoopBackOff (CONTAINER_BACKOFF_PERIOD
   * doubling to MAX_CONTAINER_BACKOFF, counted from the exit).
   */
  private processExited(r: Running, code: number, at: number): void {
    this.endProcess(r);
    const message = this.profile.grpcConnectionClosedMessage;
    // the exit's first step (its last log line's reaction) is why the calls fail and why the container restarts
    const exitStep = this.acting?.r === r ? this.acting.first : undefined;
    for (const [gid, p] of this.pendingCalls) {
      if (p.target !== r.id || p.done) continue;
      p.done = true;
      this.pendingCalls.delete(gid);
      this.deliverLater(p.caller, { type: 'csi.result', now: 0, requestId: p.requestId, rpc: p.rpc, code: 'UNAVAILABLE', message },
        at - this.nowUs + this.rng.int(80, 400), p.incarnation, () => ({ kind: 'csi-reply', rpc: p.rpc, code: 'UNAVAILABLE', ...(exitStep ? { step: exitStep } : {}) }));
    }
    // the backoff is forgotten after twice its maximum without an exit (flowcontrol Backoff hasExpired)
    const exits = r.exits && at - r.exits.at <= 2 * MAX_CONTAINER_BACKOFF ? r.exits.count + 1 : 1;
    r.exits = { count: exits, at };
    const backoff = exits === 1 ? 0 : Math.min(CONTAINER_BACKOFF_PERIOD * 2 ** (exits - 2), MAX_CONTAINER_BACKOFF);
    this.record({ r, kind: 'state', t: at, summary: processExitSummary(r.name, r.host, code, backoff), states: r.machine.snapshot.value });
    const incarnation = r.incarnation;
    this.agenda.push(at + backoff + this.rng.int(800_000, 2_000_000), () => {
      if (r.incarnation !== incarnation || r.up) return;
      this.newProcess(r);
      this.startComponent(r, exitStep);
    });
  }

  // ------------------------------------------------------------------ running

  /** Run until the agenda is empty, virtual time passes `untilUs`, or `maxEvents` is reached. */
  run(untilUs: number, maxEvents = 5_000_000): void {
    let n = 0;
    for (;;) {
      const at = this.agenda.peekAt();
      if (at === undefined || at > untilUs) break;
      const run = this.agenda.pop()!;
      this.nowUs = Math.max(at, this.nowUs);
      run();
      if (++n >= maxEvents) throw new Error(`simulation did not settle after ${maxEvents} agenda items (virtual time ${this.nowUs / 1e6}s)`);
    }
  }

  /** Whether anything is left to happen. */
  get idle(): boolean { return this.agenda.size === 0; }

  component(id: string): { id: string; name: string; host: string; snapshot: AnyMachineSnapshot } | undefined {
    const r = this.components.get(id);
    return r ? { id: r.id, name: r.name, host: r.host, snapshot: r.machine.snapshot } : undefined;
  }

  componentIds(): string[] { return [...this.components.keys()]; }

  toTrace(meta: { scenario: string; title: string; options: Record<string, unknown> }): Trace {
    const faults = this.faults.reports();
    return {
      scenario: meta.scenario, title: meta.title, k8s: this.options.profile, seed: this.options.seed, options: meta.options,
      durationMs: Math.max(0, this.recorder.floor - (this.options.recordFrom ?? 0)) / 1000,
      originUs: this.options.recordFrom ?? 0,
      components: [...this.components.values()].map((r) => ({ instance: r.id, component: r.name, host: r.host, source: r.source })),
      steps: this.recorder.steps,
      objectsRecorded: this.options.recordObjects !== false,
      initial: { objects: (this.recorder.initialObjects ?? this.api.snapshot()).filter((o) => o.kind !== 'Event' || this.options.recordObjects !== false) },
      final: { objects: this.api.snapshot().filter((o) => o.kind !== 'Event' || this.options.recordObjects !== false) },
      faults,
      stats: { events: this.events, steps: this.recorder.count },
      ...(this.recorder.worldsAtStart ? { worldsAtStart: this.recorder.worldsAtStart } : {}),
    };
  }
}

/** The node an object belongs to, for node-scoped informers (the kubelet's field selectors). */
export function nodeOf(o: K8sObject): string | undefined {
  switch (o.kind) {
    case 'Pod': return o.spec?.nodeName || undefined;
    case 'Node': case 'CSINode': return o.metadata.name;
    case 'VolumeAttachment': return o.spec?.nodeName;
    default: return undefined;
  }
}

const HTTP_VERB: Record<ApiRequestEmitted['verb'], string> = {
  create: 'POST', update: 'PUT', updateStatus: 'PUT', patch: 'PATCH', patchStatus: 'PATCH', delete: 'DELETE', get: 'GET',
};
/** Whether a write changed nothing but resourceVersion and heartbeat times. */
function onlyHeartbeat(before: K8sObject | null, after: K8sObject | null): boolean {
  if (!before || !after) return false;
  const strip = (o: K8sObject): unknown => ({
    ...o, metadata: { ...o.metadata, resourceVersion: '' },
    status: o.status && { ...o.status, conditions: (o.status.conditions ?? []).map((c: Record<string, unknown>) => ({ ...c, lastHeartbeatTime: '' })) },
  });
  return sameJson(strip(before), strip(after));
}

/**
 * JSON.stringify(a) === JSON.stringify(b) for JSON data, without building the two strings: members compared in
 * order, the undefined ones left out (an array's undefined is null), as stringify writes them. A node's heartbeat
 * write compares two whole Node objects, and most writes differ early.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = definedKeys(a as Record<string, unknown>), kb = definedKeys(b as Record<string, unknown>);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !sameJson((a as Record<string, unknown>)[ka[i]!], (b as Record<string, unknown>)[kb[i]!])) return false;
  }
  return true;
}
const definedKeys = (o: Record<string, unknown>): string[] => Object.keys(o).filter((k) => o[k] !== undefined && typeof o[k] !== 'function');

